"""Read a workspace's files into documents that remember their structure.

A unit is entity/field/value, so where a file has structure we keep it: every JSON object that is a
record (the root, or an element of a list) is an entity, its keys are field names; every CSV row is
an entity, its header names the fields; `key: value` lines (YAML, e-mail headers, .env, logs) give a
field name; a vCard's or a calendar's cards and events are entities, their properties fields. Offsets are
characters of the file's text exactly as read (decoded from its encoding), so spans point into the file; only a
binary document (a PDF, an Office file) and a mail whose parts a transfer encoding hides are read as the text their
reader shows, and spans point into that text.
"""

from __future__ import annotations

import bisect
import csv
import email
import email.policy
import io
import json
import os
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ec2audit.console import plural
from ec2audit.errors import InputError

#: Folders of tools, not of the user's data: version control, dependency trees, caches. Everything else
#: is read, hidden files included (`.env`, `.npmrc`, `.aws/credentials` are where secrets live).
TOOL_DIRS = {".git", ".hg", ".svn", ".bzr", "node_modules", "__pycache__", ".venv", ".tox", ".mypy_cache",
             ".pytest_cache", ".ruff_cache"}
MAX_BYTES = 2_000_000
ID_KEYS = ("entity_id", "id", "uid", "employee_id", "emp_id", "customer_id", "user_id", "patient_id", "patient_ref",
           "account_id", "order_id", "visit_id", "invoice", "工号", "编号", "客户编号", "患者编号", "就诊号", "订单号",
           "发票号")
NAME_KEYS = ("name", "full_name", "fullname", "display_name", "contact_name", "customer_name", "patient_name",
             "employee_name", "姓名", "名字", "客户姓名")
#: A person's name split over two fields, given name first: `first_name` and `last_name` are one name.
SPLIT_NAME_KEYS = (("first_name", "firstname", "given_name"), ("last_name", "lastname", "surname", "family_name"))
#: `key: value` / `KEY=value` lines; a shell's `export` before a `.env` key is no part of it.
_LINE_KEY = re.compile(r"^[ \t{\[,]*(?:[-*][ \t]+)?(?:export[ \t]+)?[\"']?"
                       r"(?P<key>[A-Za-z_\u4e00-\u9fff][\w .\-\u4e00-\u9fff]{0,38}?)"
                       r"[\"']?[ \t]*[:=：](?!//)[ \t]*[\"']?(?P<value>[^\n]*?)[\"']?,?[ \t]*$", re.M)
#: A further `key: value` on a `key: value` line, after a comma, a semicolon or a bar (`快递单号：SF…，收件人：陈静，
#: 电话：139…`, `Name: Dana, Phone: 415…`, a signature's `Tel: +49 … | Mobile: 0151 …`): its value is its own field.
#: The separator is in neither value.
#: So does a Chinese key after blanks alone (`姓名: 王晓燕 电话: 138…`), and an English one after a tab or two blanks
#: (`name: Dana Reyes  phone: 415…`, columns a tool printed), never after one (`call at 5: pm`).
_NEXT_PAIR = re.compile(r"(?:[ \t]*[,，;；、|｜][ \t]*|[ \t\u3000]+(?=[\u4e00-\u9fff]{1,8}[ \t]*[:：])"
                        r"|(?:[ \t]{2,}|\t)(?=[A-Za-z_]\w{0,19}[ \t]*:[ \t]))"
                        r"(?P<key>[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]{0,19})[ \t]*[:：](?!//)[ \t]*")
#: The first pair of a value that holds pairs of its own (a tool result's `姓名：孙立，电话：135…` in a JSON string).
_FIRST_PAIR = re.compile(r"[ \t]*(?P<key>[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]{0,19})[ \t]*[:：](?!//)[ \t]*")
#: `"key":"value"` of JSON inside a value, escaped or not (`{\"姓名\":\"赵敏\"}` in a transcript's tool result).
_INNER_QUOTED = re.compile(r'\\?"(?P<key>[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]{0,38})\\?"\s*:\s*'
                           r'\\?"(?P<value>[^"\\\n]{1,200})\\?"')
#: A first line of column names (`claim_id,claimant,dob`): what makes a text file a table.
_HEADER = re.compile(r"[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]{0,30}(?:,[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]{0,30})+"
                     r"\r?\n")
_XML_ELEMENT = re.compile(r"<(?P<key>[A-Za-z][\w.:-]{0,38})(?:\s[^<>]*)?>(?P<value>[^<>\n]{1,200})</(?P=key)>")
#: `"key": "value"` of JSON quoted inside other text (a tool result in a transcript, a log line).
_QUOTED_PAIR = re.compile(r'"(?P<key>[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff]{0,38})"\s*:\s*'
                          r'"(?P<value>[^"\\\n]{1,200})"')
#: Files that are JSON under another suffix: Terraform state (`attributes.private_ip`, not a line's `instances`).
_JSON_SUFFIXES = (".json", ".tfstate")
#: The line that starts a record of `key: value` lines, by suffix: a YAML list's item.
_RECORD_START = {".yaml": re.compile("- "), ".yml": re.compile("- ")}
#: vCard's and iCalendar's content lines (RFC 6350, 5545): `NAME;PARAM=…:VALUE`, a line that starts with a space
#: continuing the one before; the line that starts a record: a card (a person), an event or a to-do.
_CONTENT_LINE = re.compile(r"^(?P<key>[A-Za-z][\w-]*)(?:;(?P<params>[^:\r\n]*))?:"
                           r"(?P<value>[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)", re.M)
_CARD_START = {".vcf": re.compile(r"BEGIN:VCARD$", re.I), ".ics": re.compile(r"BEGIN:V(?:EVENT|TODO|JOURNAL)$", re.I)}
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")


@dataclass(frozen=True)
class Field:
    """A structured value in a document: characters [start, end) belong to entity/field."""

    start: int
    end: int
    entity_id: str
    field: str
    entity_name: str | None = None


@dataclass
class Document:
    task_id: str
    file: str
    text: str
    fields: list[Field] = field(default_factory=list)
    _starts: list[int] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def default_entity(self) -> str:
        return self.file

    def field_at(self, start: int, end: int) -> Field | None:
        """The structured value holding [start, end), if any (fields are leaves: they never nest)."""
        if self._starts is None or len(self._starts) != len(self.fields):
            self.fields.sort(key=lambda f: f.start)
            self._starts = [f.start for f in self.fields]
        i = bisect.bisect_right(self._starts, start) - 1
        if i >= 0 and end <= self.fields[i].end:
            return self.fields[i]
        return None


def make_document(task_id: str, file: str, text: str) -> Document:
    """A document with its structure, chosen by the file name's suffix (plain text when it does not parse)."""
    suffix = Path(file).suffix.lower()
    bom = 1 if text.startswith("\ufeff") else 0  # a BOM (Excel's "CSV UTF-8", PowerShell's JSON) is no part of it
    try:
        if suffix in _JSON_SUFFIXES:
            fields = _json_fields(text[bom:], bom, file)
        elif suffix in (".jsonl", ".ndjson"):
            fields, offset = [], bom
            for n, line in enumerate(text[bom:].splitlines(keepends=True), start=1):
                if line.strip():
                    fields += _json_fields(line, offset, f"{file}:{n}")
                offset += len(line)
        elif suffix in (".csv", ".tsv"):
            fields = _csv_fields(text, file, "\t" if suffix == ".tsv" else _delimiter(text))
        elif suffix in _CARD_START:
            fields = _content_lines(text, file, _CARD_START[suffix])
        elif _HEADER.match(text.lstrip("\ufeff")):  # a table pasted into a text file or a chat
            fields = _csv_fields(text, file, ",")
        else:
            aligned = _aligned_tables(text, file)
            fields = _outside(_line_fields(text, file, _RECORD_START.get(suffix)), aligned) + _markdown_tables(
                text, file) + aligned
    except (ValueError, csv.Error):
        fields = _line_fields(text, file, None)
    return Document(task_id, file, text, [inner for f in fields for inner in _pairs_within(text, f)])


def _pairs_within(text: str, f: Field) -> list[Field]:
    """`f`, or the pairs its value holds, each its own field of `f`'s entity: a tool result a JSON string or a
    line's value carries (`{"姓名":"赵敏","手机":"136…"}`, `姓名：孙立，电话：135…，住址：…`), whose values are no
    more `f`'s key's than a line's later pairs are its first key's (`_NEXT_PAIR`)."""
    quoted = list(_INNER_QUOTED.finditer(text, f.start, f.end))
    if quoted:
        return [Field(*m.span("value"), f.entity_id, m.group("key"), f.entity_name) for m in quoted]
    first = _FIRST_PAIR.match(text, f.start, f.end)
    pairs = list(_NEXT_PAIR.finditer(text, first.end(), f.end)) if first else []
    if not first or not pairs:
        return [f]
    fields, key, at = [], first.group("key"), first.end()
    for pair in [*pairs, None]:
        end = pair.start() if pair else f.end
        if end > at:
            fields.append(Field(at, end, f.entity_id, key, f.entity_name))
        if pair:
            key, at = pair.group("key"), pair.end()
    return fields


@dataclass(frozen=True)
class Skipped:
    """A file (or a tool's folder) not pre-labelled, and why; `tool` folders are left out on purpose."""

    name: str
    reason: str
    tool: bool = False


def read_file(path: Path, task_id: str, name: str | None = None) -> Document | str:
    """One file as a document, or why it holds no reviewable text (binary, too large, unreadable)."""
    try:
        if path.stat().st_size > MAX_BYTES:
            return f"larger than {MAX_BYTES // 1_000_000} MB"
        raw = path.read_bytes()
    except OSError as exc:
        return f"cannot read it ({exc.strerror or exc})"
    if path.suffix.lower() == ".eml" and (shown := _mail_text(raw)) is not None:
        return make_document(task_id, name or path.name, shown)
    try:
        text: str | None = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or "\x00" in text:  # another encoding (UTF-16 has NULs), or binary
        decoded = _decoded(raw)
        if decoded is None or "\x00" in decoded:
            why = "binary (not UTF-8 text)" if text is None else "binary (holds NUL bytes)"
            return _file_text(raw, task_id, name or path.name, why)
        text = decoded
    return make_document(task_id, name or path.name, text)


def _decoded(raw: bytes) -> str | None:
    """Text in another encoding than UTF-8 (a CSV Excel saved on Windows: cp1252; UTF-16), decoded as the log
    audit decodes its files (`logs.encoding`); None for a binary file (one with a known file signature, or
    data no text encoding explains or decodes whole)."""
    from ec2audit.intercept.media import signature
    from ec2audit.logs.encoding import BINARY, text_encoding

    encoding = None if signature(raw) else text_encoding(raw, complete=True)
    if encoding in (None, BINARY):
        return None
    try:
        return raw.decode(encoding)
    except (UnicodeDecodeError, LookupError):  # bytes that only look like it (a BOM before binary data)
        return None


#: What hides a mail's text from a reader of its bytes: a part's base64 or quoted-printable (whose soft line breaks
#: cut a value: `DE89 … 0130 0=` / `0`), a header's RFC 2047 encoded word (`=?utf-8?q?Ren=C3=A9e?=`).
_MAIL_ENCODED = re.compile(rb"^content-transfer-encoding:[ \t]*(?:base64|quoted-printable)|=\?[\w-]+\?[bq]\?",
                           re.I | re.M)


def _mail_text(raw: bytes) -> str | None:
    """A mail (`.eml`) a transfer encoding hides (`_MAIL_ENCODED`) as its reader shows it: its headers decoded (not
    the MIME ones), then each text part (an attached CSV too) decoded from its encoding and charset; offsets are
    that text's. None for a mail readable as written, read as its text (offsets the file's)."""
    if not _MAIL_ENCODED.search(raw):
        return None
    message = email.message_from_bytes(raw, policy=email.policy.default)
    try:
        headers = [f"{key}: {value}" for key, value in message.items()  # not its parts' layout (a boundary's digits)
                   if not key.lower().startswith(("content-", "mime-"))]
        parts = [part.get_content() for part in message.walk() if part.get_content_maintype() == "text"]
    except (LookupError, ValueError):  # a charset Python does not know, a header it cannot parse: as written
        return None
    return "\n".join(headers) + "\n\n" + "\n\n".join(parts)


def _file_text(raw: bytes, task_id: str, name: str, binary: str) -> Document | str:
    """A binary file the guard reads when an agent sends it (`intercept.media`: a PDF, an Office or OpenDocument
    file, any zip) as the text it reads in it, so its values are proposed as they would be found (offsets are
    that text's); another binary (`binary` says why it is one), or one its reader cannot read, is named with why."""
    from ec2audit.intercept import media

    kind = media.signature(raw)
    read = media.READERS.get(kind or "")
    if read is None:
        return f"binary ({kind}: no reader of its text)" if kind else binary
    try:
        return make_document(task_id, name, read(raw).text)
    except ValueError as exc:
        return f"binary ({kind}) whose text cannot be read ({exc})"


def _walk(root: Path) -> tuple[list[Path], list[Skipped], list[int]]:
    """Every file under `root`, sorted, hidden ones included; tool folders pruned and named once each; which
    of those are `.git` folders (their commits name people: `_commit_people`)."""
    files, skipped, repos = [], [], []
    for folder, dirs, names in os.walk(root):
        here = Path(folder)
        for d in sorted(dirs):
            if d in TOOL_DIRS:
                count = sum(len(n) for _, _, n in os.walk(here / d))
                skipped.append(Skipped(f"{here / d}/", f"tool folder, not data ({plural(count, 'file')})", tool=True))
                if d == ".git":
                    repos.append(len(skipped) - 1)
            elif (here / d).is_symlink():
                skipped.append(Skipped(f"{here / d}/", "link to a folder, not followed"))
        dirs[:] = sorted(d for d in dirs if d not in TOOL_DIRS and not (here / d).is_symlink())
        for n in names:
            path = here / n
            if path.is_file():
                files.append(path)
            else:
                skipped.append(Skipped(str(path), "not a regular file"))
    return sorted(files), skipped, repos


#: One line a person a commit names: its author, its committer, its trailers (`Signed-off-by: …`).
_GIT_PEOPLE = "--format=Author: %an <%ae>%nCommitter: %cn <%ce>%n%(trailers:only,unfold)"


def _commit_people(repo: Path) -> str:
    """Who a repository's commits name, one `Author: Name <address>` line each, as `git log` shows them to an
    agent that runs it: an agent's git history is data too, though its objects are compressed. What a
    workspace's own git configuration could make `git log` run (a signature check's `gpg.program`, an
    fsmonitor, a pager) is switched off, and no system or user configuration is read."""
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_PAGER": "cat"}
    command = ["git", f"--git-dir={repo}", "-c", "core.fsmonitor=", "-c", "log.showSignature=false",
               "-c", "gpg.program=false", "log", "--all", "--no-show-signature", "--no-color", _GIT_PEOPLE]
    try:
        done = subprocess.run(command, capture_output=True, text=True, errors="replace", env=env, timeout=60,
                              check=False, stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise OSError("no `git` on PATH to read its commits") from None
    if done.returncode:
        raise OSError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"git exited {done.returncode}")
    return "".join(dict.fromkeys(line + "\n" for line in done.stdout.splitlines() if line.strip()))


#: Why a file the command itself writes is not read (an earlier run's `--out` left in the workspace).
OWN_OUTPUT = "this command's own output (an earlier run's), not the workspace's"


def read_workspace(root: str | Path, task_id: str | None = None,
                   outputs: frozenset[Path] = frozenset()) -> tuple[list[Document], list[Skipped]]:
    """Documents for every text file under `root` (or `root` itself) but the command's own `outputs` (resolved
    paths); also what was skipped and why."""
    root = Path(root)
    if not root.exists():
        raise InputError("no such file or directory", file=str(root))
    named = root.resolve()  # `.` and `..` name the folder they are, as the task it holds
    task_id = task_id or (named.parent.name if named.name == "workspace" else named.stem if root.is_file()
                          else named.name)
    files, skipped, repos = ([root], [], []) if root.is_file() else _walk(root)
    docs = []
    for path in files:
        if path.resolve() in outputs:
            skipped.append(Skipped(str(path), OWN_OUTPUT, tool=True))
            continue
        name = path.name if root.is_file() else path.relative_to(root).as_posix()
        doc = read_file(path, task_id, name)
        if isinstance(doc, Document):
            docs.append(doc)
        else:
            skipped.append(Skipped(str(path), doc))
    for at in repos:
        repo = Path(skipped[at].name)
        try:
            people = _commit_people(repo)
        except (OSError, subprocess.TimeoutExpired) as exc:
            said = f"; its commits not read ({exc})"
        else:
            said = "; the people its commits name read as `git log` shows them" if people else ""
            if people:
                docs.append(make_document(task_id, f"{repo.relative_to(root).as_posix()} (git log)", people))
        skipped[at] = Skipped(skipped[at].name, skipped[at].reason + said, tool=True)
    return docs, skipped


def read_tasks_or_workspace(path: str | Path, task_id: str | None = None,
                            outputs: frozenset[Path] = frozenset()) -> tuple[list[Document], list[Skipped]]:
    """A task suite (`tasks/<scenario>/<id>/workspace`), one task dir, or a plain workspace/file; never the
    command's own `outputs`."""
    path = Path(path)
    task_dirs = sorted(p.parent for p in path.rglob("task.toml")) if path.is_dir() else []
    if not task_dirs:
        return read_workspace(path, task_id, outputs)
    docs, skipped = [], []
    for task_dir in task_dirs:
        if (task_dir / "workspace").is_dir():
            d, s = read_workspace(task_dir / "workspace", task_dir.name, outputs)
            docs += d
            skipped += s
    return docs, skipped


# --- structure ------------------------------------------------------------------------------------

def _skip_ws(text: str, i: int) -> int:
    """The index of the first character at or after `i` that is not JSON whitespace."""
    while i < len(text) and text[i] in " \t\n\r":
        i += 1
    return i


#: The JSON module's own string scanner: exact escapes and the end offset (typeshed does not declare it).
_scanstring = json.decoder.scanstring  # type: ignore[attr-defined]


def _parse_json(text: str, i: int):
    """(node, end): node is ("obj", [(key, node)]), ("arr", [node]) or ("leaf", start, end)."""
    i = _skip_ws(text, i)
    ch = text[i:i + 1]
    if ch == "{":
        items: list = []
        i = _skip_ws(text, i + 1)
        if text[i:i + 1] == "}":
            return ("obj", items), i + 1
        while True:
            i = _skip_ws(text, i)
            if text[i:i + 1] != '"':
                raise ValueError(f"expected a key at {i}")
            key, i = _scanstring(text, i + 1)
            i = _skip_ws(text, i)
            if text[i:i + 1] != ":":
                raise ValueError(f"expected ':' at {i}")
            node, i = _parse_json(text, i + 1)
            items.append((key, node))
            i = _skip_ws(text, i)
            if text[i:i + 1] == "}":
                return ("obj", items), i + 1
            if text[i:i + 1] != ",":
                raise ValueError(f"expected ',' at {i}")
            i += 1
    if ch == "[":
        items = []
        i = _skip_ws(text, i + 1)
        if text[i:i + 1] == "]":
            return ("arr", items), i + 1
        while True:
            node, i = _parse_json(text, i)
            items.append(node)
            i = _skip_ws(text, i)
            if text[i:i + 1] == "]":
                return ("arr", items), i + 1
            if text[i:i + 1] != ",":
                raise ValueError(f"expected ',' at {i}")
            i += 1
    if ch == '"':
        _, end = _scanstring(text, i + 1)
        return ("leaf", i + 1, end - 1), end
    m = _NUMBER.match(text, i)
    if m:
        return ("leaf", m.start(), m.end()), m.end()
    for literal in ("true", "false", "null"):
        if text.startswith(literal, i):
            return ("lit",), i + len(literal)
    raise ValueError(f"unexpected character at {i}")


def _scalar(text: str, node) -> str | None:
    return text[node[1]:node[2]] if node[0] == "leaf" else None


def record_name(value: Callable[[str], str | None]) -> str | None:
    """Whose a record is: its name field (`NAME_KEYS`), else its given and family names joined (`first_name`
    `Amelia`, `last_name` `Hart`: `Amelia Hart`, not the first name alone); `value` gives a field's value by key."""
    name = next((v for k in NAME_KEYS if (v := value(k))), None)
    parts = [next((v for k in keys if (v := value(k))), None) for keys in SPLIT_NAME_KEYS]
    return name or " ".join(p.strip() for p in parts if p) or None


def _json_fields(text: str, offset: int, where: str) -> list[Field]:
    root, end = _parse_json(text, 0)
    if text[end:].strip():
        raise ValueError("trailing data")
    fields: list[Field] = []

    def record(node, path: str) -> None:
        keys = dict(node[1])
        ident = next((_scalar(text, keys[k]) for k in _id_keys(keys) if _scalar(text, keys[k])), None)
        name = record_name(lambda k: _scalar(text, keys[k]) if k in keys else None)
        walk(node, ident or f"{where}#{path or '/'}", name, "", path)

    def walk(node, entity: str, name: str | None, prefix: str, path: str) -> None:
        kind = node[0]
        if kind == "leaf":
            fields.append(Field(node[1] + offset, node[2] + offset, entity, prefix or "value", name))
        elif kind == "obj":
            for key, child in node[1]:
                walk(child, entity, name, f"{prefix}.{key}" if prefix else key, f"{path}/{key}")
        elif kind == "arr":
            for n, child in enumerate(node[1]):
                if child[0] == "obj":
                    record(child, f"{path}/{n}")
                else:
                    walk(child, entity, name, f"{prefix}.{n}" if prefix else str(n), f"{path}/{n}")

    if root[0] == "obj":
        record(root, "")
    else:
        walk(root, where, None, "", "")
    return fields


def _id_keys(keys) -> list[str]:
    """The keys that identify a record, best first: the known ones, then any `…_id` / `…Id` (`claim_id`)."""
    present = list(keys)
    return [k for k in ID_KEYS if k in present] + [k for k in present if k not in ID_KEYS
                                                   and re.search(r"(?:_id|Id|ID|编号)$", k)]


def _delimiter(text: str) -> str:
    """A CSV's delimiter: `;` where its first line has more of them than commas (Excel's CSV in a locale whose
    decimal mark is the comma: German, French…), else `,`."""
    head = text.lstrip("\ufeff").split("\n", 1)[0]
    return ";" if head.count(";") > head.count(",") else ","


def _csv_fields(text: str, file: str, delimiter: str) -> list[Field]:
    """Cells of a table; its header is the first line that a line of as many cells follows (an export
    often starts with a title or a filter line before the header)."""
    lines = text.splitlines(keepends=True)
    widths = [len(next(csv.reader([line], delimiter=delimiter), [])) for line in lines[:20]]
    start = next((i for i in range(len(widths) - 1) if widths[i] >= 2 and widths[i] == widths[i + 1]), None)
    if start is None:
        raise ValueError("not a table")
    offset = sum(len(line) for line in lines[:start])
    rows = csv.reader(io.StringIO(text[offset:], newline=""), delimiter=delimiter)
    keys = [h.lstrip("\ufeff").strip() for h in next(rows)]
    cursor = offset + len(lines[start])
    fields = []
    for number, row in enumerate(rows, start=start + 2):
        cells = dict(zip(keys, row, strict=False))
        ident = next((cells[k] for k in _id_keys(keys) if cells.get(k)), None) or f"{file}:{number}"
        name = record_name(cells.get)
        for key, cell in zip(keys, row, strict=False):
            if not cell:
                continue
            pos = text.find(cell, cursor)
            if pos < 0:  # a quoted cell with escaped quotes: no exact span in the file
                continue
            fields.append(Field(pos, pos + len(cell), ident, key, name))
            cursor = pos + len(cell)
    return fields


_TABLE_ROW = re.compile(r"^[ \t]*\|(.*)\|[ \t]*$")
_TABLE_RULE = re.compile(r"^[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+(?:[ \t]*:?-{3,}:?[ \t]*)?$")


def _markdown_tables(text: str, file: str) -> list[Field]:
    """Cells of Markdown tables (`| 姓名 | 手机 |` over a `|---|---|` rule): as a CSV's, each row is an entity
    (its id column's value, else `file:line`) and its header names each cell's field."""
    fields: list[Field] = []
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    keys: list[str] = []
    for n, line in enumerate(lines):
        row = _TABLE_ROW.match(line.rstrip("\r\n"))
        if row is None:
            keys = []
            continue
        if n + 1 < len(lines) and _TABLE_RULE.match(lines[n + 1].rstrip("\r\n")) and not keys:
            keys = [k.strip() for k in row.group(1).split("|")]
            continue
        if not keys or _TABLE_RULE.match(line.rstrip("\r\n")):
            continue
        at, cells = starts[n] + row.start(1), []
        for cell in row.group(1).split("|"):
            lead = len(cell) - len(cell.lstrip())
            cells.append((at + lead, at + lead + len(cell.strip())))
            at += len(cell) + 1
        values = {k: text[b:e] for k, (b, e) in zip(keys, cells, strict=False)}
        lowered = {k.lower(): v for k, v in values.items()}
        ident = next((lowered[k] for k in _id_keys(list(lowered)) if lowered.get(k)), None) or f"{file}:{n + 1}"
        name = record_name(lowered.get)
        fields += [Field(b, e, ident, key, name) for key, (b, e) in zip(keys, cells, strict=False) if e > b]
    return fields


#: A line of a notebook's output as its `.ipynb` keeps it: a JSON string, `"…\\n",` (its text between the quotes).
_JSON_STRING_LINE = re.compile(r'^[ \t]*"(?P<text>[^"]*?)(?:\\n)?",?[ \t]*$')
#: A printed DataFrame's header: a blank over its index, then column names at least two spaces apart.
_ALIGNED_HEADER = re.compile(r"^ +\S+(?: \S+)*(?: {2,}\S+(?: \S+)*)+ *$")


def _outside(fields: list[Field], cells: list[Field]) -> list[Field]:
    """`fields` that overlap none of `cells` (in order of their starts): a printed table's row is no `key: value`
    line (`12:30` in a cell)."""
    if not cells:
        return fields
    starts = [c.start for c in cells]
    kept = []
    for f in fields:
        i = bisect.bisect_left(starts, f.end)
        if i == 0 or cells[i - 1].end <= f.start:
            kept.append(f)
    return kept


def _aligned_cells(line: str, edges: list[int]) -> list[tuple[int, int]] | None:
    """The cells of a row of a printed DataFrame whose columns end at `edges` (pandas right-aligns its names and
    values): after the index, each cell's text ends at its column's edge; None for a line that is no such row."""
    if not line[:1].strip() or len(line.rstrip()) != edges[-1]:
        return None
    cells, start = [], len(line.split(" ", 1)[0])
    for edge in edges:
        if start >= edge or not line[edge - 1].strip() or line[start:edge].strip() == "":
            return None
        lead = len(line[start:edge]) - len(line[start:edge].lstrip())
        cells.append((start + lead, edge))
        start = edge
    return cells


def _aligned_tables(text: str, file: str) -> list[Field]:
    """Cells of DataFrames printed as pandas prints them (`print(df)`, a notebook's output, plain or kept in an
    `.ipynb`'s JSON strings): a header of column names over rows that start with their index, each column's name
    and values right-aligned to the same edge. As a CSV's, each row is an entity (its id column's value, else
    `file:line`), its column's name each cell's field; the `...` of a row or column left out is no value."""
    fields: list[Field] = []
    at = 0
    keys: list[str] = []
    edges: list[int] = []
    for n, raw in enumerate(text.splitlines(keepends=True)):
        quoted = _JSON_STRING_LINE.match(raw.rstrip("\r\n"))
        offset, line = (at + quoted.start("text"), quoted["text"]) if quoted else (at, raw.rstrip("\r\n"))
        at += len(raw)
        cells = _aligned_cells(line, edges) if edges else None
        if cells is None:
            header = _ALIGNED_HEADER.match(line)
            keys = [k.strip() for k in re.split(r" {2,}", line.strip())] if header else []
            edges = [m.end() for m in re.finditer(r"\S+(?: \S+)*", line)] if header else []
            continue
        values = {k: line[b:e] for k, (b, e) in zip(keys, cells, strict=True)}
        lowered = {k.lower(): v for k, v in values.items()}
        ident = next((lowered[k] for k in _id_keys(list(lowered)) if lowered.get(k)), None) or f"{file}:{n + 1}"
        fields += [Field(offset + b, offset + e, ident, key, record_name(lowered.get))
                   for key, (b, e) in zip(keys, cells, strict=True) if key != "..." and values[key] != "..."]
    return fields


def _content_lines(text: str, file: str, record: re.Pattern) -> list[Field]:
    """A vCard's or a calendar's properties, each its own field of the card or event it is in (`file#n`): its
    parameters (`ATTENDEE;CN=Chidi Okafor:…`) and its value (`TEL;TYPE=CELL:+1 415 555 0142`)."""
    fields: list[Field] = []
    entity, n = file, 0
    for m in _CONTENT_LINE.finditer(text):
        if record.match(m.group(0)):
            n += 1
            entity = f"{file}#{n}"
        fields += [Field(*m.span(part), entity, m.group("key")) for part in ("params", "value")
                   if m.group(part) and m.group(part).strip()]
    return fields


def _unquoted(text: str, start: int, end: int) -> tuple[int, int]:
    """A value a quote opens, without its quotes: it ends at that quote's partner. A line of code inside
    JSON-escaped text (a notebook's `"api_key = 'sk-…'\\n",`) runs on past it, and nothing after the partner is
    the value's; a further pair's value (`Name: "Dana", Phone: "415…"`) starts with its own quote."""
    if text[start:start + 1] in ("'", '"') and start + 1 < end:
        start += 1
    quote = text[start - 1:start]
    close = text.find(quote, start, end) if quote in ("'", '"') else -1
    return start, close if close > start else end


def _line_fields(text: str, file: str, record: re.Pattern | None) -> list[Field]:
    """`key: value` lines (each line `record` matches starts a new entity: `_RECORD_START`), `<Tag>value</Tag>`
    elements (XML payment files, SOAP) and `"key": "value"` pairs of JSON inside text: the key or the tag names the
    field."""
    fields: list[Field] = []
    entity, n = file, 0
    for m in _LINE_KEY.finditer(text):
        if record and record.match(m.group(0).lstrip()):
            n += 1
            entity = f"{file}#{n}"
        if m.group("value"):
            key, at = m.group("key").strip(), m.start("value")
            for pair in _NEXT_PAIR.finditer(text, at, m.end("value")):  # `收件人：陈静，电话：139…`: each its own key
                if pair.start() > at:
                    fields.append(Field(*_unquoted(text, at, pair.start()), entity, key))
                key, at = pair.group("key"), pair.end()
            if m.end("value") > at:
                fields.append(Field(*_unquoted(text, at, m.end("value")), entity, key))
    taken = [(f.start, f.end) for f in fields]
    for pattern, marker in ((_XML_ELEMENT, "</"), (_QUOTED_PAIR, '":')):
        if marker in text.replace('": ', '":'):
            for m in pattern.finditer(text):
                start, end = m.span("value")
                if m.group("value").strip() and not any(a < end and start < b for a, b in taken):
                    fields.append(Field(start, end, file, m.group("key").rsplit(":", 1)[-1]))
                    taken.append((start, end))
    return fields
