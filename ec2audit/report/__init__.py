"""Reports of audit and run results: terminal tables, JSON summaries."""
