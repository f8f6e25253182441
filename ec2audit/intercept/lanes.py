"""Where the proxy's CPU work on a request runs: off the event loop, in two lanes by body size.

Parsing, auditing and re-encoding a 10 MB body takes seconds of detector time. On the event loop that
would stall every other exchange; on a single scanning thread every small request would queue behind
it; and on a second thread it still holds the interpreter lock most of the time, so small requests
slow down beside it (benchmarks/head_of_line.py). So the detectors for a body of `LARGE_BODY` bytes
or more run in a worker process of their own (started on the first large body, with its own detector
cascade built once from the run's units). The worker only detects: it returns findings and spans as
plain data (`redact.Detection`), and the placeholders are numbered here, in the episodes' maps, which
only this process holds, so a large and a small request of one episode get the same placeholders.
The worker also encodes a redacted large body (from the raw body and the placeholders numbered here:
encoding 10 MB is a 0.1 s call that would hold the lock). What stays in this process for a large
body (parsing, placing) runs on a thread of the large lane, small requests' work on the small lane's
thread.

`large="thread"` runs the large lane's detectors on a thread instead (no second process; the
benchmark's baseline). The worker is spawned, not forked (this process runs threads), so like any
`multiprocessing` spawn it imports the main module: a script that starts the proxy in-process keeps
that under `if __name__ == "__main__":`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from ec2audit.intercept.fields import Edit, replay
from ec2audit.intercept.redact import Detection, Field, Redactor
from ec2audit.intercept.shape import json_bytes, parse
from ec2audit.units import Unit

#: Bodies at least this large are parsed and scanned in the large lane.
LARGE_BODY = 256 * 1024
LARGE_LANES = ("process", "thread")
T = TypeVar("T")

_worker = threading.local()  # the large lane's detectors, in its worker (process or thread)


def _start_worker(units: list[Unit], enforcing: bool) -> None:
    _worker.redactor = Redactor.for_units(units, enforcing)


def _detect(payload: bytes | dict, fields: list[Field]) -> Detection:
    """In the large lane's worker: a process gets the raw body (bytes cross cheaply; a parsed body
    would be pickled here, holding the lock) and parses it itself."""
    body = parse(payload) if isinstance(payload, bytes) else payload
    return _worker.redactor.detect(body, fields)


def _encode(raw: bytes, placed: dict[int, list[Edit]]) -> bytes:
    """In the worker process: the body with the placeholders this process numbered, as forwarded."""
    return json_bytes(replay(parse(raw), placed))


class ScanLanes:
    def __init__(self, redactor: Redactor | None, large: str = "process"):
        if large not in LARGE_LANES:
            raise ValueError(f"large lane must be one of {', '.join(LARGE_LANES)}, not {large!r}")
        self.redactor = redactor
        self.large = large
        self._small = ThreadPoolExecutor(1, thread_name_prefix="ec2audit-scan")
        self._large = ThreadPoolExecutor(1, thread_name_prefix="ec2audit-scan-large")
        self._detector: Executor | None = None
        self._detector_lock = threading.Lock()

    @staticmethod
    def is_large(size: int) -> bool:
        return size >= LARGE_BODY

    def run(self, size: int, work: Callable[[], T]) -> asyncio.Future[T]:
        """`work()` on the thread of the lane for a body of `size` bytes."""
        return asyncio.get_running_loop().run_in_executor(self._large if self.is_large(size) else self._small, work)

    def _large_detector(self) -> Executor:
        with self._detector_lock:
            if self._detector is None:
                assert self.redactor is not None
                start = (list(self.redactor.cascade.units), not self.redactor.cascade.denials)
                if self.large == "process":
                    self._detector = ProcessPoolExecutor(1, multiprocessing.get_context("spawn"),
                                                         initializer=_start_worker, initargs=start)
                else:
                    self._detector = ThreadPoolExecutor(1, "ec2audit-detect-large", _start_worker, start)
            return self._detector

    async def detect(self, raw: bytes, body: dict, fields: list[Field]) -> Detection:
        """The detectors' findings and spans for a request (`raw` as received, `body` parsed)."""
        assert self.redactor is not None
        redactor = self.redactor
        if not self.is_large(len(raw)):
            return await self.run(len(raw), lambda: redactor.detect(body, fields))
        return await self._in_worker(_detect, raw if self.large == "process" else body, fields)

    async def _in_worker(self, work: Callable[..., T], *args) -> T:
        detector = self._large_detector()
        try:
            return await asyncio.get_running_loop().run_in_executor(detector, work, *args)
        except BrokenProcessPool:  # the worker died (killed, out of memory): the next large body starts one
            with self._detector_lock:
                if self._detector is detector:
                    self._detector = None
            detector.shutdown(wait=False)
            raise

    def encodes_apart(self, size: int) -> bool:
        """Whether a redacted body of `size` bytes is encoded in the worker process (`encode`)."""
        return self.is_large(size) and self.large == "process"

    async def encode(self, raw: bytes, placed: dict[int, list[Edit]]) -> bytes:
        """The redacted body as forwarded, encoded in the worker process from `raw` and the edits
        `Redactor.place` made (the worker parses `raw` again; nothing it does holds this process)."""
        return await self._in_worker(_encode, raw, placed)

    def shutdown(self) -> None:
        """Stop both lanes; the worker process is joined, so none outlives the proxy."""
        self._small.shutdown(wait=True)
        self._large.shutdown(wait=True)
        with self._detector_lock:
            if self._detector is not None:
                self._detector.shutdown(wait=True, cancel_futures=True)
                self._detector = None
