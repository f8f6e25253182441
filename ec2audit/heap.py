"""Memory polars frees goes back to the system at once, so each step of an audit peaks on its own.

polars allocates through the jemalloc built into it, which keeps the pages a query frees for 10 s
(`dirty_decay_ms`) and hands them back only when it next allocates: the audit driver's summary queries
and the findings' sink each peaked on top of what the queries before them had freed (after the summary
of 644 MB of logs the driver's RSS was 171–175 MB, 139–149 MB with the pages returned, as at 66 MB; the
command's peak 229 → 204 MB, a worker's 313 → 303 MB, for ≈ 1 CPU s more in the driver's end; RESULTS.md,
issue 35, eighth pass). A decay of 200 or 1,000 ms kept most of it: jemalloc purges when it allocates again.
jemalloc reads its options once, from `_RJEM_MALLOC_CONF`, when polars loads, so `configure()` runs
when the `ec2audit` package is imported (before polars; worker processes inherit it). A value the user
set is kept.
"""

from __future__ import annotations

import os

#: polars' jemalloc options: freed pages returned to the system when freed, not 10 s later.
POLARS_ALLOCATOR = "_RJEM_MALLOC_CONF"
RETURN_AT_ONCE = "dirty_decay_ms:0,muzzy_decay_ms:0"


def configure() -> None:
    """Set polars' allocator to return freed pages at once, unless the user set its options."""
    os.environ.setdefault(POLARS_ALLOCATOR, RETURN_AT_ONCE)
