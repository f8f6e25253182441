"""What the command prints: rich consoles that never cut a piped line, and counted nouns.

Every command makes its consoles here, so output read by a script or a file (`| grep`, `> out.txt`) is
printed at full width, not cut at rich's default of 80 columns, and lines counted in words agree in number.
"""

from __future__ import annotations

import os
import sys

from rich.console import Console

PIPED_WIDTH = 10_000  # wider than any row: rich sizes a table to its content, so nothing is cut or wrapped


def make_console(stderr: bool = False) -> Console:
    """A console for stdout (or stderr): the terminal's width on a terminal or as `COLUMNS` says, full width
    anywhere else (rich would take 80, or the width of whichever other stream is a terminal)."""
    sized = (sys.stderr if stderr else sys.stdout).isatty() or "COLUMNS" in os.environ
    return Console(stderr=stderr, width=None if sized else PIPED_WIDTH, soft_wrap=not sized)


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`1 file`, `2 files`, `0 files`; `nouns` when the plural is not noun + s (`1 entity`, `2 entities`)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"
