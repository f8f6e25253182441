"""Durable record store: one SQLite row per cloud exchange, committed before the client gets its answer.

A row is first committed `pending` before the request is forwarded, and completed after, so an
exchange the proxy forwarded is on record even if the proxy dies mid-way; a proxy starting on the
store marks rows left pending as `interrupted`. WAL mode with a commit per write means an
acknowledged exchange survives the proxy being killed.
The file (and SQLite's -wal/-shm side files, which inherit its mode) is created 0600: it holds payloads.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
from pathlib import Path

import polars as pl

from ec2audit.errors import InputError
from ec2audit.files import open_private
from ec2audit.intercept.record import COLUMNS as _COLUMNS
from ec2audit.intercept.record import INTERRUPTED, PENDING, ProxyRecord

_JSON_COLUMNS = ("headers", "request", "response", "findings", "unread")
_TEXT_COLUMNS = ("id", "episode", "task_id", "state", "api", "path", "model", "error")
#: Columns added since the first stores: a store without them gets them when a proxy opens it.
_ADDED = {"state": "TEXT", "task_id": "TEXT", "headers": "TEXT", "unread": "TEXT"}
_PUT = (f"INSERT INTO records ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))}) "
        f"ON CONFLICT(id) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in _COLUMNS[1:])}")
#: What completing an exchange changes (not the indexed id and episode, nor the forwarded request):
#: the second write of an exchange rewrites one table page and no index.
_COMPLETE_COLUMNS = ("state", "status", "error", "latency_ms", "first_byte_ms", "input_tokens", "cached_tokens",
                     "output_tokens", "cost_usd", "redactions", "response", "findings", "unread", "stream")
_COMPLETE = f"UPDATE records SET {', '.join(f'{c} = ?' for c in _COMPLETE_COLUMNS)} WHERE id = ?"
_MARK_INTERRUPTED = (f"UPDATE records SET state = '{INTERRUPTED}', error = COALESCE(error || '; ', '') || "
                     f"'interrupted: the proxy stopped before the exchange ended' WHERE state = '{PENDING}'")

# seq is the arrival order: rows are never deleted, so the rowid only grows (no AUTOINCREMENT, whose
# sequence table would cost one more page write per commit)
_SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY,
    id TEXT UNIQUE NOT NULL, episode TEXT, task_id TEXT, ts REAL NOT NULL, state TEXT, api TEXT, path TEXT,
    model TEXT, stream INTEGER, status INTEGER, error TEXT, latency_ms REAL, first_byte_ms REAL,
    input_tokens INTEGER, cached_tokens INTEGER, output_tokens INTEGER, cost_usd REAL,
    redactions INTEGER, headers TEXT, request TEXT, response TEXT, findings TEXT, unread TEXT
);
CREATE INDEX IF NOT EXISTS records_episode ON records(episode);
"""


def _text(value: object) -> str | int | float | None:
    """A text column's value as SQLite takes it (lone surrogates escaped, odd types as their text)."""
    if value is None or isinstance(value, int | float):
        return value
    return str(value).encode("utf-8", "backslashreplace").decode("utf-8")

EXPORT_SCHEMA = {
    "id": pl.String, "episode": pl.String, "task_id": pl.String, "ts": pl.Float64, "state": pl.String,
    "api": pl.String, "path": pl.String,
    "model": pl.String, "stream": pl.Boolean, "status": pl.Int64, "error": pl.String,
    "latency_ms": pl.Float64, "first_byte_ms": pl.Float64, "input_tokens": pl.Int64,
    "cached_tokens": pl.Int64, "output_tokens": pl.Int64, "cost_usd": pl.Float64, "redactions": pl.Int64,
    "headers": pl.String, "request": pl.String, "response": pl.String, "findings": pl.String, "unread": pl.String,
}


class RecordStore:
    """Append records from the proxy; read them from any thread or process."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        os.fchmod(fd, 0o600)
        os.close(fd)
        self._lock = threading.Lock()
        self._db = self._connect()
        with self._lock:
            self._db.executescript(_SCHEMA)
            have = {row[1] for row in self._db.execute("PRAGMA table_info(records)")}
            for column, kind in _ADDED.items():
                if column not in have:
                    self._db.execute(f"ALTER TABLE records ADD COLUMN {column} {kind}")

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit is in the WAL before execute returns, so it survives a killed
        # process (only an OS crash could lose the last commits); FULL would fsync on every request.
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA busy_timeout=5000")
        return db

    def add(self, record: ProxyRecord, request_json: bytes | None = None) -> None:
        """Write one record, or rewrite the one with its id, and commit it (each statement is its own
        transaction). `request_json`: the request as the JSON text forwarded, which is stored instead
        of encoding the body again (for a 10 MB body a 0.1 s call that holds the interpreter lock)."""
        self._write(_PUT, record, _COLUMNS, request_json=request_json)

    def complete(self, record: ProxyRecord) -> None:
        """Complete a record already written as pending: only what the exchange's end changes (the
        request is final once forwarded, so the body is not serialised twice)."""
        self._write(_COMPLETE, record, _COMPLETE_COLUMNS, (record.id,))

    def _write(self, statement: str, record: ProxyRecord, columns: tuple, tail: tuple = (),
               request_json: bytes | None = None) -> None:
        """Values the database cannot take as they are (a lone surrogate in a message, say) are stored
        escaped: what the proxy forwards, it records."""
        row = [getattr(record, c) for c in columns]
        for i, column in enumerate(columns):
            if column == "request" and request_json is not None:
                row[i] = request_json.decode()
            elif column in _JSON_COLUMNS and row[i] is not None:
                row[i] = json.dumps(row[i], ensure_ascii=False)
        if "stream" in columns:
            row[columns.index("stream")] = int(record.stream)
        with self._lock:
            try:
                self._db.execute(statement, (*row, *tail))
                return
            except (UnicodeEncodeError, sqlite3.InterfaceError, sqlite3.ProgrammingError):
                pass
            for i, column in enumerate(columns):
                if column in _JSON_COLUMNS and getattr(record, column) is not None:
                    row[i] = json.dumps(getattr(record, column))  # ASCII escapes: a lone surrogate round-trips
                elif column in _TEXT_COLUMNS:
                    row[i] = _text(row[i])
            self._db.execute(statement, (*row, *tail))

    def mark_interrupted(self) -> int:
        """Mark records left pending by a proxy that stopped as interrupted; how many there were.
        Only a proxy starting on the store calls this (readers must not touch a live proxy's rows)."""
        with self._lock:
            return self._db.execute(_MARK_INTERRUPTED).rowcount

    def records(self, episode: str | None = None) -> list[ProxyRecord]:
        """All records in arrival order (of one episode if given), JSON columns decoded."""
        return read_records(self.path, episode)

    def close(self) -> None:
        """Fold the WAL into the store file and close: after a clean stop the file alone holds every
        record (a copy of it without its -wal is complete)."""
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:  # closing still checkpoints when it can
                pass
            self._db.close()


_SUFFIX_FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet", ".pq": "parquet"}


def export_records(store: str | Path, out: str | Path, fmt: str | None = None,
                   episode: str | None = None) -> tuple[Path, int]:
    """Write a store's records as Parquet or JSONL (by `fmt`, else by the file's suffix), created 0600;
    the path and how many records were written. The store is only read."""
    out = Path(out)
    fmt = fmt or _SUFFIX_FORMATS.get(out.suffix.lower())
    if fmt not in ("jsonl", "parquet"):
        raise InputError(f"cannot tell the export format from the suffix {out.suffix!r}: name the file .parquet or "
                         ".jsonl, or give --format", file=str(out))
    rows = []
    for record in read_records(store, episode):
        row = record.to_row()
        for column in _JSON_COLUMNS:
            if row[column] is not None:
                row[column] = json.dumps(row[column], ensure_ascii=False)
        rows.append(row)
    frame = pl.DataFrame(rows, schema=EXPORT_SCHEMA)
    with open_private(out, "wb") as handle:
        if fmt == "jsonl":
            frame.write_ndjson(handle)
        else:
            frame.write_parquet(handle)
    return out, len(rows)


def read_records(path: str | Path, episode: str | None = None) -> list[ProxyRecord]:
    """A store's records in arrival order (of one episode if given), JSON columns decoded; a request
    that is no JSON (kept truncated or encoded) stays its text, which the audits name as unread.

    The store is opened read-only: a reader never changes its input (no schema, no migration), and
    reads beside a running proxy (WAL). A file that is no store is an InputError naming it."""
    path = Path(path)
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise InputError(f"cannot open the store ({exc})", file=str(path)) from None
    try:
        have = [row[1] for row in db.execute("PRAGMA table_info(records)")]
        if not have:
            raise InputError("not an ec2audit interceptor store (no records table)", file=str(path))
        columns = [c for c in _COLUMNS if c in have]  # a store from before a column was added
        query = f"SELECT {', '.join(columns)} FROM records"
        args: tuple = ()
        if episode is not None:
            query, args = query + " WHERE episode = ?", (episode,)
        rows = db.execute(query + " ORDER BY seq", args).fetchall()
    except sqlite3.DatabaseError as exc:
        raise InputError(f"not a readable SQLite store ({exc})", file=str(path)) from None
    finally:
        db.close()
    out = []
    for row in rows:
        values = dict(zip(columns, row, strict=True))
        for column in _JSON_COLUMNS:
            if values.get(column) is not None:
                try:
                    values[column] = _decode(values[column])
                except ValueError as exc:  # a body kept truncated or encoded: the audit names it, unread
                    if column != "request":
                        raise InputError(f"record {values.get('id')}: its {column} is not JSON ({exc})",
                                         file=str(path), field=column) from None
        out.append(ProxyRecord.from_row(values))
    return out


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _decode(text: str):
    """A JSON column; a lone surrogate a store from before they were refused holds reads as U+FFFD, so
    every reader (terminal, Parquet, detectors) can take it."""
    value = json.loads(text)
    return _unicode(value) if _SURROGATE_ESCAPE.search(text) else value


def _unicode(value):
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, list):
        return [_unicode(v) for v in value]
    if isinstance(value, dict):
        return {_unicode(k): _unicode(v) for k, v in value.items()}
    return value
