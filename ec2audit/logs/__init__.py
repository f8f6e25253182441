"""Third-party agent logs → the payloads that went to a model (docs/design.md §3 `logs/`).

One module per format, each with `name`, `sniff(path, head)` and `read(path, on_error)` (the
`Adapter` protocol in `base`); `FORMATS` is the registry and the only plug-in point. `read_logs`
walks files and directories, picks each file's format by sniffing (or the one forced), and reports
every file it does not read — with the reason — and every unreadable line through `on_error`
without stopping: nothing under a given path is passed over in silence.
"""

from __future__ import annotations

import gzip
import os
import sqlite3
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs import (
    acebench_audit,
    batch_api,
    claude_code,
    cline,
    codex_cli,
    gemini_cli,
    har,
    inspect_ai,
    intercept_store,
    json_messages,
    langfuse,
    litellm,
    mini_swe_agent,
    openai_log,
    openclaw_cron,
    openclaw_jsonl,
    openclaw_sqlite,
    openclaw_trajectory,
    openhands,
    otel_genai,
    phoenix_spans,
    swe_agent,
    tau_bench,
    vcr_cassette,
)
from ec2audit.logs.base import READING, Adapter, OnError
from ec2audit.logs.encoding import (
    BINARY,
    GZIP_MAGIC,
    decoded_head,
    gzip_encoding,
    text_encoding,
    uncompressed_name,
    utf8_copy,
)
from ec2audit.logs.listing import Listing
from ec2audit.payloads import Payload

#: Sniffing order matters: specific formats first, the generic request log last; sniffers that read
#: only the first line before those that outline a document's head.
FORMATS: dict[str, Adapter] = {m.name: m for m in (
    openclaw_sqlite, intercept_store, har, openclaw_trajectory, openclaw_jsonl, openclaw_cron, claude_code, codex_cli,
    gemini_cli, cline, inspect_ai, acebench_audit,
    otel_genai, phoenix_spans, litellm, langfuse, tau_bench, swe_agent, mini_swe_agent, openhands, vcr_cassette,
    json_messages, batch_api, openai_log)}

#: Formats kept in SQLite databases, and the signatures of binary files (never converted from a text
#: encoding).
DATABASE_FORMATS = frozenset({openclaw_sqlite.name, intercept_store.name})
_BINARY_MAGIC = (openclaw_sqlite.SQLITE_MAGIC, inspect_ai.ZIP_MAGIC, phoenix_spans.PARQUET_MAGIC)
HEAD_BYTES = 256 * 1024
_SQLITE_SIDECARS = ("-wal", "-shm", "-journal")


@dataclass(frozen=True)
class LogFile:
    """A file to read: its format and, when it is text in another encoding than UTF-8, that encoding
    (the adapter then reads a UTF-8 copy)."""

    path: Path
    format: str
    encoding: str | None = None


#: Said once per file not read: short, since a folder of logs holds READMEs and configs (the formats
#: are listed by `ec2audit audit --help`, under --format).
NOT_A_LOG = "not a known log format (--format FORMAT reads it as one; `ec2audit audit --help` lists them)"


def _unknown(path: Path) -> InputError:
    return InputError(NOT_A_LOG, file=str(path))


def _sniff(path: Path, head: bytes) -> str | None:
    return next((n for n, adapter in FORMATS.items() if adapter.sniff(path, head)), None)


def detect(path: Path, fmt: str | None = None) -> LogFile | InputError:
    """The file's format (sniffed, or `fmt`) and text encoding, or why it cannot be read."""
    with path.open("rb") as handle:
        head = handle.read(HEAD_BYTES)
        complete = not handle.read(1)
    if head.startswith(GZIP_MAGIC):
        return _detect_gzip(path, fmt)
    if not head.strip():
        return InputError("empty file" if not head else "empty file (whitespace only)", file=str(path))
    if not fmt and acebench_audit.grader_log(head):
        return InputError(acebench_audit.GRADER, file=str(path))
    if not fmt and (what := acebench_audit.run_file(path)):
        return InputError(what, file=str(path))
    found = fmt or _sniff(path, head)
    if found and head.startswith(_BINARY_MAGIC):
        return LogFile(path, found)
    if found is None and har.mitmproxy_flows(head):
        return InputError("mitmproxy flow file: not read here (mitmproxy cannot be installed next to ec2audit's "
                          "pins); export it with `mitmdump -nr FILE --set hardump=FILE.har` and audit the HAR",
                          file=str(path))
    if found is None and head.startswith(openclaw_sqlite.SQLITE_MAGIC):
        return InputError(f"SQLite database without a table of model calls ({_tables(path)})", file=str(path))
    encoding = text_encoding(head, complete)
    if encoding == BINARY:
        return LogFile(path, fmt) if fmt else InputError(f"binary data, {NOT_A_LOG}", file=str(path))
    if encoding is not None and not fmt:
        found = _sniff(path, decoded_head(head, encoding))
        if found is None:
            return InputError(f"{encoding} text, {NOT_A_LOG}", file=str(path))
    return LogFile(path, found, encoding) if found else _unknown(path)


def _detect_gzip(path: Path, fmt: str | None) -> LogFile | InputError:
    """A gzip-compressed log (`requests.jsonl.1.gz`, as logrotate leaves it) by its decompressed text, sniffed
    under its name without `.gz`: read through a decompressed copy (`utf8_copy`)."""
    try:
        with gzip.open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES)
            complete = not handle.read(1)
    except (OSError, EOFError) as exc:
        return InputError(f"gzip file that cannot be decompressed ({exc})", file=str(path))
    if not head.strip():
        return InputError("empty file once decompressed (gzip)", file=str(path))
    encoding = text_encoding(head, complete)
    if encoding == BINARY:
        return InputError(f"gzip of binary data, {NOT_A_LOG}", file=str(path))
    found = fmt or _sniff(uncompressed_name(path), decoded_head(head, encoding) if encoding else head)
    return LogFile(path, found, gzip_encoding(encoding)) if found else InputError(f"gzip of {NOT_A_LOG}",
                                                                                 file=str(path))


def _tables(path: Path) -> str:
    try:
        return "tables: " + (", ".join(sorted(openclaw_sqlite.tables(path))) or "none")
    except sqlite3.Error as exc:
        return f"unreadable: {exc}"


def detect_format(path: Path) -> str | None:
    found = detect(path)
    return found.format if isinstance(found, LogFile) else None


def _walk(top: Path, report: OnError, seen: _Seen, own: OwnFiles | None = None) -> Iterator[str]:
    """Every file under `top` not listed before (`_Seen`), in order; hidden folders, unreadable folders,
    broken links and special files are reported, never passed over (in a folder walked before under
    another name too). A file read as part of another (`_owner`) is not a log of its own, nor is one of the
    command's `own` files."""
    def unreadable(exc: OSError) -> None:
        report(InputError(f"folder not read: {exc.strerror or exc}", file=exc.filename or str(top)))

    for folder, dirs, files in os.walk(top, onerror=unreadable):
        base = Path(folder)
        first = seen.enter(folder)
        hidden = sorted(d for d in dirs if d.startswith("."))
        for name in hidden:
            report(InputError("hidden folder, not read (give it as a path to audit it)", file=str(base / name)))
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = base / name
            try:
                found = path.lstat()
                link = stat.S_ISLNK(found.st_mode)
                if link:
                    found = path.stat()
                mode = found.st_mode
            except OSError as exc:
                report(InputError(f"cannot read: {exc.strerror or exc}"
                                  f"{' (broken link)' if path.is_symlink() else ''}", file=str(path)))
                continue
            if not stat.S_ISREG(mode):
                report(InputError("not a regular file, not read", file=str(path)))
            elif name.startswith("."):
                report(InputError("hidden file, not read (give it as a path to audit it)", file=str(path)))
            elif own and own.passes(path, found):
                continue
            elif first and _owner(path) is None and seen.first(path, link):
                yield str(path)
        seen.leave()


def _walked(path: Path) -> bool:
    """Whether a walk through the folder of `path` (a real path: no link in it) lists it (`_walk`)."""
    try:
        mode = path.lstat().st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) and not path.name.startswith(".") and _owner(path) is None


class _Seen:
    """What `find_logs` has listed, by real path, without a string a file (a dictionary of every file's
    real path was a 10 GB audit's peak: 378,156 files): the real folders walked, each file in one
    listed by the first walk through it; the file being walked in the current one; and the real paths of
    the few files that can be listed twice otherwise: those named, and those listed through a link."""

    def __init__(self) -> None:
        self.folders: set[str] = set()
        self.files: set[str] = set()
        self.folder: str | None = None  # the folder being walked, by real path, and the file being walked in it
        self.name = ""

    def enter(self, folder: str) -> bool:
        """Whether `folder` is walked for the first time under any name: it is then the one being walked."""
        real = os.path.realpath(folder)
        if real in self.folders:
            return False
        self.folder, self.name = real, ""
        return True

    def leave(self) -> None:
        if self.folder is not None:
            self.folders.add(self.folder)
        self.folder = None

    def listed(self, real: str) -> bool:
        """Whether the file at real path `real` is listed already."""
        if real in self.files:
            return True
        folder, name = os.path.split(real)
        if folder == self.folder:
            return name < self.name and _walked(Path(real))  # walked in name order
        return folder in self.folders and _walked(Path(real))

    def first(self, path: Path, link: bool = True) -> bool:
        """Whether `path` (named, or walked in the current folder, then `link` says whether it is a
        link) is listed for the first time; it is then listed."""
        if self.folder is not None:
            self.name = path.name
            if not link:  # its real path is the folder's and its name: no other file has it
                return not self.files or os.path.join(self.folder, path.name) not in self.files
        real = os.path.realpath(path)
        if self.listed(real):
            return False
        self.files.add(real)
        return True


class OwnFiles:
    """The command's own files (its units file, its task map, an earlier run's output), by device and inode:
    under a path audited each is named as what it is (`passed`), neither read as a log nor a file skipped."""

    def __init__(self, files: dict[Path, str]):
        self.what: dict[tuple[int, int], str] = {}
        for path, what in files.items():
            try:
                found = path.stat()
            except OSError:  # not there (yet): nothing to pass over
                continue
            self.what[(found.st_dev, found.st_ino)] = what
        self.passed: list[tuple[str, str]] = []

    def passes(self, path: Path, found: os.stat_result) -> bool:
        """Whether `path` (`found`: its stat) is one of them: then it is passed over, and said to be."""
        what = self.what.get((found.st_dev, found.st_ino))
        if what:
            self.passed.append((str(path), what))
        return what is not None


def find_logs(paths: Iterable[str | Path], on_error: OnError | None = None, own: OwnFiles | None = None) -> Listing:
    """Every file under `paths`, without reading any; what cannot be considered is reported. A file
    read as part of another (`_owner`, `companions`) is not a separate log, and a file named twice (a
    folder and a file in it, `logs/a.jsonl` and `./logs/a.jsonl`, a link and its file) is one log, read
    once, where it was named first; the command's `own` files are none. Held as a `Listing` while the folders
    are walked (a `str` a file, and a real path's, took a 10 GB audit's listing to 201 MB)."""
    report = on_error or _raise
    seen = _Seen()
    owned: dict[str, Path] = {}  # named files read as part of another: not listed if that one is
    own = own if own and own.what else None

    def listed() -> Iterator[str]:
        for path in map(Path, paths):
            if path.is_dir():
                yield from _walk(path, report, seen, own)
            elif own and path.is_file() and own.passes(path, path.stat()):
                continue
            elif seen.first(path):
                if (owner := _owner(path)) is not None:
                    owned[str(path)] = owner
                yield str(path)

    found = Listing(listed())
    read_with = {p for p, owner in owned.items() if seen.listed(os.path.realpath(owner))}
    return Listing(p for p in found if p not in read_with) if read_with else found


def _owner(path: Path) -> Path | None:
    """The log a file is read as part of: a transcript's trajectory trace, a SQLite database's
    write-ahead log and shared-memory files, an OpenHands conversation's first event file, a Claude
    Code subagent's session, a Cline task's UI messages and metadata; None for a file that stands alone."""
    first = openhands.first_event_file(path)
    if first is not None and first != path:
        return first
    session = claude_code.session_file(path) or cline.owner(path)
    if session is not None:
        return session
    for suffix, owner_suffix in ((".trajectory.jsonl", ".jsonl"), *((s, "") for s in _SQLITE_SIDECARS)):
        if path.name.endswith(suffix):
            owner = path.with_name(path.name[: -len(suffix)] + owner_suffix)
            if owner.is_file():
                return owner
    return None


def companions(log: LogFile) -> list[Path]:
    """Files read as part of this log (an OpenClaw transcript's trajectory trace, a Claude Code
    session's subagents)."""
    if log.format == claude_code.name:
        return claude_code.companions(log.path)
    if log.format == cline.name:
        return cline.companions(log.path)
    if log.format == openclaw_jsonl.name and log.path.name.endswith(".jsonl"):
        candidates = [openclaw_jsonl.trajectory_path(log.path)]
    elif log.format in DATABASE_FORMATS:
        candidates = [log.path.with_name(log.path.name + s) for s in _SQLITE_SIDECARS]
    elif log.format == openhands.name:
        return list(openhands.event_files(log.path))
    else:
        return []
    return [p for p in candidates if p.is_file()]


def check_format(fmt: str | None) -> None:
    if fmt is not None and fmt not in FORMATS:
        raise InputError(f"unknown format '{fmt}' (known: {', '.join(FORMATS)})", field="format")


def sniff_logs(found: Iterable[Path], fmt: str | None = None, on_error: OnError | None = None) -> Iterator[LogFile]:
    """Each `find_logs` file with its format; a file that cannot be read is reported, not fatal."""
    report = on_error or _raise
    check_format(fmt)
    for path in found:
        try:
            log = detect(path, fmt)
        except OSError as exc:
            log = InputError(f"cannot read: {exc.strerror or exc}", file=str(path))
        if isinstance(log, InputError):
            report(log)
        else:
            yield log


def read_logs(paths: Iterable[str | Path], fmt: str | None = None, on_error: OnError | None = None,
              on_file: Callable[[LogFile], None] | None = None) -> Iterator[Payload]:
    """Payloads of every model call in the logs, file by file; `meta['format']` names the adapter.
    A file that fails part-way is reported and the walk goes on with the next one."""
    report = on_error or _raise
    yield from read_files(sniff_logs(map(Path, find_logs(paths, report)), fmt, report), report, on_file)


def read_files(files: Iterable[LogFile], on_error: OnError | None = None,
               on_file: Callable[[LogFile], None] | None = None) -> Iterator[Payload]:
    """Payloads of the files `sniff_logs` lists; a file in another encoding is read as UTF-8."""
    report = on_error or _raise
    for log in files:
        if on_file:
            on_file(log)
        try:
            yield from _read(log, report)
        except InputError as exc:
            report(exc if exc.file else InputError(exc.reason, file=str(log.path), field=exc.field))
        except OSError as exc:
            report(InputError(f"cannot read: {exc.strerror or exc}", file=str(log.path)))
        except Exception as exc:  # noqa: BLE001 — one broken file must not end a directory walk
            report(InputError(f"{log.format}: reading stopped ({type(exc).__name__}: {exc})", file=str(log.path)))


def _read(log: LogFile, report: OnError) -> Iterator[Payload]:
    """One file's payloads; errors and sources name the file itself, never its UTF-8 copy."""
    original = str(log.path)
    with utf8_copy(log.path, log.encoding) if log.encoding else nullcontext(log.path) as path:
        def relay(error: InputError) -> None:
            if error.file == str(path):
                error = InputError(error.reason, file=original, line=error.line, field=error.field)
            report(error)

        reading = READING.set(log.path)
        try:
            for payload in FORMATS[log.format].read(path, relay):
                payload.meta["format"] = log.format
                if log.encoding:
                    payload.meta["source"] = {**(payload.meta.get("source") or {}), "file": original}
                yield payload
        finally:
            READING.reset(reading)


def _raise(error: InputError) -> None:
    raise error
