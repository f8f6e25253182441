"""What an audit's driver still holds per session and per file (issue 35): the Python objects of each
field of the merged `LogAudit`, measured by walking them (`deep_size`: every object reached once,
`sys.getsizeof` each), after a `--jobs` audit of a `driver_memory.py` corpus. Prints one line per
field (bytes, bytes per session, bytes per file) and the total, then the driver's resident and peak
memory after each step of `audit --jobs --json --out` (audit, summary, findings written, sessions written),
each step of the audit's own end once the workers are done (`AUDIT_STEPS`: the listing's time-order probe, the
keys of calls logged again, the merge, sessions across parts), its RSS sampled every 10 ms in a thread, and each
step's own peak: the summary's parts one by one, then what `--out` writes (findings, sessions,
exposure, nodes), the peak reset before each (`/proc/self/clear_refs`), so a step's peak is its own.
Walking, not tracing: tracemalloc would slow the workers too (they are forked from this process).

    PYTHONPATH=$PWD:$PWD/benchmarks nice .venv/bin/python benchmarks/driver_state.py --corpus /tmp/dm-64 --jobs 2
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

#: Shared by every audit, not grown by it: left out of the walk (the cascade's tables, modules, classes).
SKIP = (type, type(sys), type(len))


def deep_size(root: object, seen: set[int]) -> int:
    """Bytes of `root` and of every object it reaches that `seen` does not hold yet."""
    size, stack = 0, [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, SKIP):
            continue
        seen.add(id(obj))
        size += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            stack.extend(obj)
        elif dataclasses.is_dataclass(obj):
            stack.extend(getattr(obj, f.name) for f in dataclasses.fields(obj))
        elif hasattr(obj, "__dict__") and not callable(obj):
            stack.append(vars(obj))
    return size


def memory() -> str:
    """This process's resident and peak memory (`/proc/self/status`)."""
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return "  ".join(f"{k} {int(status[k].split()[0]) / 1024:,.0f} MB" for k in ("VmRSS", "VmHWM"))


def step(name: str, run: object) -> object:
    """`run()` with the peak reset first: the RSS before it, after it, and its own peak."""
    before = _status()
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM := VmRSS (Linux ≥ 4.0)
    value = run()  # type: ignore[operator]
    after = _status()
    print(f"{name:>28}: RSS {before['VmRSS']:>5,.0f} → {after['VmRSS']:>5,.0f} MB, its peak {after['VmHWM']:>5,.0f} MB "
          f"(+{after['VmHWM'] - before['VmRSS']:,.0f})", flush=True)
    return value


def _status() -> dict[str, float]:
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines())
    return {k: int(status[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM")}


#: Functions of `ec2audit.logs.audit` the driver runs before or after the workers, each wrapped (`Sampler.wrap`).
AUDIT_STEPS = ("in_time_order", "file_sizes", "blocks", "_logged_before", "merge_parts", "_span")


class Sampler:
    """The driver's RSS every 10 ms in a thread; the peak of each wrapped call running (nested calls count
    in their callers too), printed when it returns with the RSS before and after it."""

    def __init__(self) -> None:
        self.running: dict[str, float] = {}
        threading.Thread(target=self._poll, daemon=True).start()

    def _poll(self) -> None:
        while True:
            rss = _status()["VmRSS"]
            for name, peak in list(self.running.items()):
                self.running[name] = max(peak, rss)
            time.sleep(0.01)

    def wrap(self, name: str, function: Callable) -> Callable:
        def wrapped(*args: object, **kwargs: object) -> object:
            before, start = _status()["VmRSS"], time.perf_counter()
            self.running[name] = before
            try:
                return function(*args, **kwargs)
            finally:
                after, peak = _status()["VmRSS"], max(self.running.pop(name), _status()["VmRSS"])
                print(f"{name:>28}: RSS {before:>5,.0f} → {after:>5,.0f} MB, its peak {peak:>5,.0f} MB "
                      f"(+{peak - before:,.0f}), {time.perf_counter() - start:,.1f} s", flush=True)
        return wrapped


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, help="a driver_memory.py corpus (logs/, units.jsonl)")
    parser.add_argument("--parts", type=Path, help="instead: a pickle of (parts, units) as `merge_parts` gets them "
                        "(a replica of a large audit's parts, RESULTS.md): its end only, from the merge on")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if (args.corpus is None) == (args.parts is None):
        parser.error("give --corpus or --parts")

    import polars as pl

    from ec2audit.backends import get_backend
    from ec2audit.logs import audit as module
    from ec2audit.logs.audit import audit_logs, sessions_path
    from ec2audit.logs.report import log_summary
    from ec2audit.units import read_units

    sampler = Sampler()
    for name in AUDIT_STEPS:
        setattr(module, name, sampler.wrap(name, getattr(module, name)))
    backend = get_backend("processes", workers=args.jobs)
    if args.parts:
        import pickle

        parts, units = pickle.loads(args.parts.read_bytes())
        print(f"{len(parts):,} parts; {_status()['VmRSS']:,.0f} MB")
        module._logged_before([s for part in parts for s in part.spilled])
        log = module.merge_parts(parts, units)
        log.mode = "units"
        del parts
    else:
        units = read_units(args.corpus / "units.jsonl")
        log = step("audit_logs", lambda: audit_logs([args.corpus / "logs"], units, backend=backend))
    gc.collect()
    after_audit = memory()  # before the walk, whose own objects would count
    sessions = max(1, log.session_totals()[0])
    files = max(1, log.files_frame().height)
    print(f"{args.corpus or args.parts}: {sessions:,} sessions, {files:,} files, {log.finding_count():,} findings, "
          f"{len(log.spilled):,} parts")
    seen: set[int] = {id(units)}
    deep_size(units, seen)  # the units are the input's, not the audit's
    fields = [(f.name, getattr(log, f.name)) for f in dataclasses.fields(log) if f.name not in ("cleanup", "result")]
    fields += [(f"result.{f.name}", getattr(log.result, f.name)) for f in dataclasses.fields(log.result)]
    total = 0
    for name, value in fields:
        size = deep_size(value, seen)
        total += size
        print(f"{name:>20}: {size:>12,} B  {size / sessions:>8,.0f} B/session  {size / files:>8,.0f} B/file")
    print(f"{'total':>20}: {total:>12,} B  {total / sessions:>8,.0f} B/session  {total / files:>8,.0f} B/file")
    del seen
    print(f"after the audit: {after_audit}")
    rows = 1_000  # `JSON_ROWS`
    for name, run in (("leaked (head)", lambda: log.leaked_lazy().head(rows).collect(engine="streaming")),
                      ("leaked (count)", lambda: log.leaked_lazy().select(pl.len()).collect(engine="streaming")),
                      ("session sums", log.session_totals),
                      ("exposure_rows (head)", lambda: log.exposure_rows(rows)),
                      ("files_frame", log.files_frame), ("sessions (head)", lambda: log.sessions(rows)),
                      ("exposure_counts", log.exposure_counts), ("finding_count", log.finding_count),
                      ("providers", log.providers), ("timeline (head)", lambda: log.timeline(rows)),
                      ("log_summary (whole)", lambda: log_summary(log))):
        step(name, run)
    with tempfile.TemporaryDirectory() as tmp:
        step("write_findings (worker)", lambda: log.write_findings(Path(tmp) / "findings.parquet", backend))
        step("sessions written", lambda: log.write_sessions(sessions_path(Path(tmp) / "findings.parquet")))
        step("exposure written", lambda: log.write_exposure(Path(tmp) / "exposure.parquet"))
        step("nodes", lambda: sum(1 for _ in log.node_rows()))
    print(f"after writing: {memory()}")
    log.release()


if __name__ == "__main__":
    main()
