"""Where the proxy's CPU work on a request runs: off the event loop, in two scanning lanes by size.

Parsing, auditing and re-encoding a 10 MB body takes hundreds of milliseconds. On the event loop that
would stall every other exchange; on a single scanning thread every small request would queue behind
it. So a body of `LARGE_BODY` bytes or more goes to a lane of its own, with its own detector cascade
(detectors are not promised to be thread-safe, so a cascade is used by one thread only), and small
requests keep their lane. The two lanes share the episodes' placeholder maps (`Redactor.sibling`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from ec2audit.detect.cascade import build_cascade
from ec2audit.intercept.redact import Redactor

#: Bodies at least this large are parsed and scanned in the large lane.
LARGE_BODY = 256 * 1024
T = TypeVar("T")


class ScanLanes:
    def __init__(self, redactor: Redactor | None):
        self.redactor = redactor
        self._small = ThreadPoolExecutor(1, thread_name_prefix="ec2audit-scan")
        self._large = ThreadPoolExecutor(1, thread_name_prefix="ec2audit-scan-large")
        self._large_redactor: Redactor | None = None

    @staticmethod
    def is_large(size: int) -> bool:
        return size >= LARGE_BODY

    def _on_large(self, work: Callable[[Redactor | None], T]) -> T:
        if self.redactor is not None and self._large_redactor is None:  # built on first use, on its thread
            self._large_redactor = self.redactor.sibling(build_cascade(self.redactor.cascade.units))
        return work(self._large_redactor)

    def run(self, size: int, work: Callable[[Redactor | None], T]) -> asyncio.Future[T]:
        """`work(redactor)` in the lane for a body of `size` bytes."""
        loop = asyncio.get_running_loop()
        if self.is_large(size):
            return loop.run_in_executor(self._large, self._on_large, work)
        return loop.run_in_executor(self._small, work, self.redactor)

    def shutdown(self) -> None:
        self._small.shutdown(wait=True)
        self._large.shutdown(wait=True)
