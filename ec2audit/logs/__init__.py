"""Third-party agent logs → the payloads that went to a model (docs/design.md §3 `logs/`).

One module per format, each with `name`, `sniff(path, head)` and `read(path, on_error)` (the
`Adapter` protocol in `base`); `FORMATS` is the registry and the only plug-in point. `read_logs`
walks files and directories, picks each file's format by sniffing (or the one forced), and reports
every unreadable file or line through `on_error` without stopping.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs import (
    claude_code,
    har,
    intercept_store,
    openai_log,
    openclaw_jsonl,
    openclaw_sqlite,
    openclaw_trajectory,
)
from ec2audit.logs.base import Adapter, OnError
from ec2audit.payloads import Payload

#: Sniffing order matters: specific formats first, the generic request log last.
FORMATS: dict[str, Adapter] = {m.name: m for m in (
    openclaw_sqlite, intercept_store, har, openclaw_trajectory, openclaw_jsonl, claude_code, openai_log)}

#: Files a directory walk considers; an unrecognised SQLite file there (agent state directories hold
#: many databases) is passed over silently, any other unrecognised file is reported.
LOG_SUFFIXES = (".jsonl", ".ndjson", ".har", ".sqlite", ".sqlite3", ".db")
_DATABASES = (".sqlite", ".sqlite3", ".db")
HEAD_BYTES = 256 * 1024


def detect_format(path: Path) -> str | None:
    with path.open("rb") as handle:
        head = handle.read(HEAD_BYTES)
    return next((n for n, adapter in FORMATS.items() if adapter.sniff(path, head)), None)


def _walk(paths: Iterable[Path]) -> Iterator[tuple[Path, bool]]:
    """(file, named explicitly) for files and for log-like files under directories."""
    for path in paths:
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                if child.is_file() and child.name.endswith(LOG_SUFFIXES) and not any(
                        p.startswith(".") for p in child.relative_to(path).parts):
                    yield child, False
        else:
            yield path, True


def find_logs(paths: Iterable[str | Path]) -> list[tuple[Path, bool]]:
    """(file, named explicitly) of every candidate log, without reading any. A trajectory trace next
    to its transcript is not a separate log: the transcript reads its system prompt."""
    return [(path, explicit) for path, explicit in _walk(Path(p) for p in paths)
            if explicit or not path.name.endswith(".trajectory.jsonl")
            or not path.with_name(path.name[: -len(".trajectory.jsonl")] + ".jsonl").is_file()]


def check_format(fmt: str | None) -> None:
    if fmt is not None and fmt not in FORMATS:
        raise InputError(f"unknown format '{fmt}' (known: {', '.join(FORMATS)})", field="format")


def sniff_logs(found: Iterable[tuple[Path, bool]], fmt: str | None = None,
               on_error: OnError | None = None) -> Iterator[tuple[Path, str]]:
    """(file, format) of each `find_logs` candidate; unrecognised files are reported, not fatal."""
    report = on_error or _raise
    check_format(fmt)
    for path, explicit in found:
        try:
            format_ = fmt or detect_format(path)
        except OSError as exc:
            report(InputError(f"cannot read: {exc}", file=str(path)))
            continue
        if format_ is None:
            if not explicit and path.name.endswith(_DATABASES):
                continue
            report(InputError(f"not a known log format ({', '.join(FORMATS)}); use --format", file=str(path)))
            continue
        yield path, format_


def read_logs(paths: Iterable[str | Path], fmt: str | None = None, on_error: OnError | None = None,
              on_file: Callable[[Path, str], None] | None = None) -> Iterator[Payload]:
    """Payloads of every model call in the logs, file by file; `meta['format']` names the adapter.
    A file that fails part-way is reported and the walk goes on with the next one."""
    report = on_error or _raise
    yield from read_files(sniff_logs(find_logs(paths), fmt, report), report, on_file)


def read_files(files: Iterable[tuple[Path, str]], on_error: OnError | None = None,
               on_file: Callable[[Path, str], None] | None = None) -> Iterator[Payload]:
    """Payloads of (file, format) pairs as `sniff_logs` lists them."""
    report = on_error or _raise
    for path, found in files:
        if on_file:
            on_file(path, found)
        try:
            for payload in FORMATS[found].read(path, report):
                payload.meta["format"] = found
                yield payload
        except InputError as exc:
            report(exc if exc.file else InputError(exc.reason, file=str(path), field=exc.field))
        except Exception as exc:  # noqa: BLE001 — one broken file must not end a directory walk
            report(InputError(f"{found}: reading stopped ({type(exc).__name__}: {exc})", file=str(path)))


def _raise(error: InputError) -> None:
    raise error
