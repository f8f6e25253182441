"""Processes below a process and the CPU time of each process or thread, read from /proc (Linux):
how the benchmarks count the CPU of process trees whose members start and end while they run."""

from __future__ import annotations

import contextlib
import os
import resource
import threading
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")  # clock ticks per second of /proc/*/stat


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, children before their own children; [] once it has ended."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError, ValueError):
            for kid in map(int, (task / "children").read_text().split()):
                found += [kid, *descendants(kid)]
    return found


def own_cpu(stat: Path) -> tuple[str, float]:
    """(start time in ticks, CPU seconds: user + system) of a process or thread from its `stat` file
    (`/proc/PID/stat`, `/proc/PID/task/TID/stat`); the start time tells a reused id apart. Raises
    OSError once it has ended."""
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return fields[19], (int(fields[11]) + int(fields[12])) / TICKS


class Sampled:
    """A `with` block during which `sample()` (a dict) is read every `PERIOD_S` in a thread: `first` is
    the sample at the start, `last` the latest value of every key seen, so a process or thread that ends
    still counts up to its last sample (one that lives less than a period is missed); `finish()` sums
    them when the block ends."""

    PERIOD_S = 0.25

    def sample(self) -> dict:
        raise NotImplementedError

    def finish(self) -> None:
        raise NotImplementedError

    def __enter__(self):
        self.first = self.sample()
        self.last = dict(self.first)
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._done.set()
        self._thread.join()
        self.last.update(self.sample())
        self.finish()

    def _poll(self) -> None:
        while not self._done.wait(self.PERIOD_S):
            self.last.update(self.sample())


class TreeCpu(Sampled):
    """CPU seconds of this process and of every process below it while `with` runs (`cpu_s`): each
    descendant's own CPU time (`/proc/PID/stat` utime + stime), sampled every `PERIOD_S`, so processes
    that end (a Ray worker killed, OpenClaw inside a sandbox's PID namespace) still count up to their last
    sample; processes that live less than a period are missed, in every configuration alike."""

    def __enter__(self) -> TreeCpu:
        self._self = self._own()
        return super().__enter__()

    def finish(self) -> None:
        self.cpu_s = self._own() - self._self + sum(cpu - self.first.get(key, 0.0) for key, cpu in self.last.items())

    @staticmethod
    def _own() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    @staticmethod
    def sample() -> dict[tuple[int, str], float]:  # (pid, start time) → own CPU s
        found = {}
        for pid in descendants(os.getpid()):
            with contextlib.suppress(OSError, IndexError, ValueError):
                started, cpu = own_cpu(Path(f"/proc/{pid}/stat"))
                found[pid, started] = cpu
        return found
