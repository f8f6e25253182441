"""One error type for bad input, so every message names the file, the line and the field."""

from __future__ import annotations


class InputError(Exception):
    """Bad user input: carries where it was found so the CLI can say exactly what to fix."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 field: str | None = None):
        self.file, self.line, self.field, self.reason = file, line, field, message
        where = ":".join(str(p) for p in (file, line) if p is not None)
        what = f"field '{field}': " if field else ""
        super().__init__(f"{where}: {what}{message}" if where else f"{what}{message}")
