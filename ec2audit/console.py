"""What the command prints: rich consoles that never cut a piped line, and counted nouns.

Every command makes its consoles here, so output read by a script or a file (`| grep`, `> out.txt`) is
printed at full width, not cut at rich's default of 80 columns, and lines counted in words agree in number.
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections.abc import Callable

from rich.console import Console
from rich.progress import Progress, TaskID

from ec2audit.intercept.usage import DEFAULT_TIER

PIPED_WIDTH = 10_000  # wider than any row: rich sizes a table to its content, so nothing is cut or wrapped


def make_console(stderr: bool = False) -> Console:
    """A console for stdout (or stderr): the terminal's width on a terminal or as `COLUMNS` says, full width
    anywhere else (rich would take 80, or the width of whichever other stream is a terminal)."""
    sized = (sys.stderr if stderr else sys.stdout).isatty() or "COLUMNS" in os.environ
    return Console(stderr=stderr, width=None if sized else PIPED_WIDTH, soft_wrap=not sized)


def usd(value: float, sign: str = "$") -> str:
    """Dollars to the cent's hundredth, and a cost under a tenth of a cent to its first two significant digits:
    a call of a cheap model never reads as free ($0.0000) when it was billed, nor $0.000135 as $0.0001."""
    digits = 4 if value == 0 or abs(value) >= 0.001 else 1 - math.floor(math.log10(abs(value)))
    return f"{sign}{value:,.{digits}f}"


def tokens(value: int | None) -> str:
    """A token total, or `unknown` where a call of it logged no usage: never a 0 read as nothing sent."""
    return "unknown" if value is None else f"{value:,}"


def unpriced_episodes(unpriced: int, priced: float) -> str:
    """An unknown cost over episodes, `unpriced` of them without one: `run`'s progress line and `report`'s Cost
    table say it in these words, the priced part beside it, never read as the whole (none where it is $0: nothing
    priced to read as the whole)."""
    beside = f", {usd(priced)} priced" if priced else ""
    return f"unknown ({plural(unpriced, 'episode')} unpriced{beside})"


def unknown_cost(calls: int, unpriced: int, without_usage: int, without_price: int, tier: str | None = None) -> str:
    """Why the cost of `calls` is unknown, `unpriced` of them without one: a part of them had no price, no call
    logged its usage, the model has none (claude-sonnet-4-20250514 is not in the price map) or none at the
    service tier `tier` that served them (gpt-4o has no `flex` price), or the answer was cut off (the provider
    bills output the usage never counted). `audit`'s provider table and `report`'s Cost table say it in these
    words; `without_price` counts only calls that no price table knows (a cut-off answer is priced), so that a
    row of several models says which of its unpriced calls had no price."""
    at = f" at the {tier} tier" if tier and tier != DEFAULT_TIER else ""
    if unpriced < calls:
        why = (" (no usage logged)" if without_usage == unpriced else
               f" ({without_usage} with no usage logged)" if without_usage else
               f" (no price{at})" if without_price == unpriced else
               f" ({without_price} with no price{at})" if without_price else "")
        return f"unknown: {unpriced} of {calls} unpriced{why}"
    if without_usage == calls:
        return "unknown: no usage logged"
    return f"unknown: no price for the model{at}" if without_price else "unknown: answer cut off"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`1 file`, `2 files`, `0 files`; `nouns` when the plural is not noun + s (`1 entity`, `2 entities`)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


class RunProgress:
    """Progress of a long run, by stage: rich's bar on a terminal; anywhere else (a log file, CI, `nohup`)
    a line every `every` seconds (stage, count, time), so a run of minutes is never silent and a run of
    seconds adds nothing to its output.

    `detail` adds a running count to each line (e.g. the judge calls made so far); `every=None` prints no
    lines (`--json`: what a script reads is the JSON alone, even with stderr joined to it)."""

    def __init__(self, console: Console, every: float | None = 30.0, detail: Callable[[], str] | None = None):
        self.console, self.every, self.detail = console, every, detail
        self.name, self.done = "", 0
        self.total: int | None = None
        self._bar: Progress | None = None
        self._task: TaskID | None = None
        self._started = self._stage_started = time.monotonic()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def __enter__(self) -> RunProgress:
        if self.console.is_terminal:
            self._bar = Progress(console=self.console, transient=True)
            self._bar.__enter__()
            self._task = self._bar.add_task("", total=None)
        elif self.every:
            self._ticker = threading.Thread(target=self._tick, daemon=True)
            self._ticker.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        if self._bar:
            self._bar.__exit__(*exc)

    def stage(self, name: str, total: int | None = None) -> None:
        self.name, self.total, self.done, self._stage_started = name, total, 0, time.monotonic()
        if self._bar and self._task is not None:
            self._bar.update(self._task, description=name, total=total, completed=0)

    def advance(self, count: int = 1) -> None:
        self.done += count
        if self._bar and self._task is not None:
            self._bar.advance(self._task, count)

    def line(self) -> None:
        """One plain line: stage, count and share done, time in the stage and in all."""
        now = time.monotonic()
        count = f" {self.done}/{self.total} ({100 * self.done / self.total:.0f} %)" if self.total else \
            (f" {self.done}" if self.done else "")
        extra = f", {self.detail()}" if self.detail else ""
        self.console.print(f"{self.name}:{count}{extra} "
                           f"[{_clock(now - self._stage_started)} in this stage, {_clock(now - self._started)} in all]",
                           highlight=False, markup=False)

    def _tick(self) -> None:
        while not self._stop.wait(self.every or 0):
            if self.name:
                self.line()


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"
