"""Task families: one generator per kind of task, several genuinely different seeded instances each."""
