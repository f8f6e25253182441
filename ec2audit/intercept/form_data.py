"""Form bodies read as the JSON object the guard audits, and written back from it, so what reaches the upstream is
exactly what was audited: multipart ones (`multipart/form-data`: OpenAI's `/v1/files`, `/v1/uploads/{id}/parts`, an
audio transcription's `prompt` beside its file, Anthropic's `/v1/files`; `multipart/related`: Gemini's
`/upload/v1beta/files?uploadType=multipart`, a JSON metadata part and the file's bytes) and URL-encoded ones
(`application/x-www-form-urlencoded`: key/value pairs, UTF-8 after percent-decoding, or the charset its media type
declares, forwarded re-encoded in it). And a file sent as the body itself (Gemini's resumable upload,
`X-Goog-Upload-Command: upload`), read as a form of one file part, `{"file": {"content_type"?, "data"}}`, and forwarded
as that part's bytes.

A form becomes an object of its fields by name (`{"purpose": "batch", "file": …}`; a name sent twice, a list of its
values; a part without a name, `part-<n>`). A part's value is its text where it is text (UTF-8, or UTF-8/UTF-16 with a
BOM, as a Windows `.reg` export is, or the charset its media type declares: `_declared`; UTF-8 cut inside a character at
either end, as an Uploads API part is, `_utf8_cut`): a JSONL file (the Batch API's input) as the list of its lines'
objects, whose `body`s are then read as requests are; any other file as base64, which `media.py` reads as a file of a
JSON request is (a PDF's text, a `.docx`'s XML; an image or audio, named unread). A part that is neither (bytes of no
kind `media.py` knows, a `Content-Transfer-Encoding` other than the identity ones, text that reads two ways: as UTF-8
and in its declared charset) is no value the guard read: the enforcing modes refuse the request and name it
(`Form.unreadable`).

A part with a filename or a media type is the object `{"filename": …, "content_type": …, "data": …}`: both are
forwarded, so both are audited. The body forwarded is always the form rebuilt from the audited object (redacted or
not): each part's headers written from it (a part's other headers are dropped), in a boundary of its own (the
client's may hold a value, and is no field audited); a preamble, an epilogue, a second reading of the bytes by the
upstream's parser have nothing to carry.
"""

from __future__ import annotations

import base64
import codecs
import json
import urllib.parse
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header

from ec2audit.intercept.media import sniff
from ec2audit.intercept.shape import BadRequest, parse

if TYPE_CHECKING:
    from python_multipart.multipart import MultipartCallbacks

URLENCODED = "application/x-www-form-urlencoded"
FILE_BODY = "file"  # (no media type: a body that is one file)
_OCTETS = "application/octet-stream"  # a file body's media type where the client named none (as an HTTP client sends)
MEDIA_TYPES = ("multipart/form-data", "multipart/related", "multipart/mixed", URLENCODED)
_IDENTITY = frozenset({b"", b"7bit", b"8bit", b"binary"})
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


@dataclass
class _Part:
    """One part as received: its field name, whether it is a form field (`Content-Disposition: form-data`), its
    headers, its bytes, and how its value is written back."""

    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    data: bytearray = field(default_factory=bytearray)
    name: str = ""
    form_field: bool = False
    encoding: str = "utf-8"  # a codec, "jsonl" (its lines' objects, UTF-8), or "base64"
    edges: tuple[bytes, bytes] = (b"", b"")  # a UTF-8 sequence cut at its start, at its end (`_utf8_cut`)
    final_newline: bool = False  # (a JSONL file's)


@dataclass
class Form:
    """A multipart body as the object the guard audits (`body`) and how to write that object back (`encode`)."""

    media_type: str
    parts: list[_Part]
    body: dict
    unreadable: list[str]  # each part no detector could read: `file (application/octet-stream, 812 bytes)`
    charset: str = "utf-8"  # a URL-encoded body's, as it is written back

    @property
    def streams(self) -> bool:
        """Whether it asks for a streamed answer (a transcription's `stream` field)."""
        return self.body.get("stream") == "true"

    def encode(self, body: dict) -> tuple[bytes, str]:
        """The form for `body` (the audited object, redacted or not): (its bytes, its Content-Type). A name the
        redaction replaced is the field's name as forwarded; a list of values, one part each."""
        items: list[tuple[_Part, str, object]] = []  # (its part as received, its name as forwarded, its value)
        names = list(dict.fromkeys(p.name for p in self.parts))
        for (sent_name, value), name in zip(body.items(), names, strict=True):
            own = [p for p in self.parts if p.name == name]
            many = value if len(own) > 1 and isinstance(value, list) else [value]
            items += [(own[min(k, len(own) - 1)], sent_name, item) for k, item in enumerate(many)]
        if self.media_type == URLENCODED:
            pairs = [(name, item if isinstance(item, str) else json.dumps(item, ensure_ascii=False))
                     for _, name, item in items]
            return urllib.parse.urlencode(pairs, encoding=self.charset).encode(), URLENCODED
        if self.media_type == FILE_BODY:
            [(part, _, item)] = items
            return _value_bytes(item.get("data", "") if isinstance(item, dict) else item, part), \
                str(item.get("content_type") or _OCTETS) if isinstance(item, dict) else _OCTETS
        values = [_value_bytes(item.get("data", "") if isinstance(item, dict) else item, part)
                  for part, _, item in items]
        heads = [_head(part, name, item if isinstance(item, dict) else {}) for part, name, item in items]
        boundary = uuid.uuid4().hex.encode()  # the client's is forwarded in no form: a value may be in it
        while any(boundary in v for v in values):
            boundary = uuid.uuid4().hex.encode()
        out = bytearray()
        for head, value in zip(heads, values, strict=True):
            out += b"--" + boundary + b"\r\n" + head + b"\r\n" + value + b"\r\n"
        out += b"--" + boundary + b"--\r\n"
        return bytes(out), f"{self.media_type}; boundary={boundary.decode('latin-1')}"


def _quoted(text: str) -> str:
    """A name or filename as a form's Content-Disposition quotes it (HTML's form encoding)."""
    return '"' + text.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A") + '"'


def _head(part: _Part, name: str, meta: dict) -> bytes:
    """A part's headers as forwarded: written from what was audited (its name, filename, media type)."""
    lines = []
    if part.form_field:
        filename = meta.get("filename")
        lines.append("Content-Disposition: form-data; name=" + _quoted(name) +
                     ("; filename=" + _quoted(str(filename)) if filename is not None else ""))
    if meta.get("content_type") is not None:
        lines.append("Content-Type: " + str(meta["content_type"]).replace("\r", " ").replace("\n", " "))
    return "".join(line + "\r\n" for line in lines).encode()


def _value_bytes(value, part: _Part) -> bytes:
    if part.encoding == "base64":
        return base64.b64decode(value) if isinstance(value, str) else str(value).encode()
    if part.encoding == "jsonl" and isinstance(value, list):
        lines = "\n".join(json.dumps(line, ensure_ascii=False) for line in value)
        text = (lines + ("\n" if part.final_newline else "")).encode()
    else:
        codec = "utf-8" if part.encoding == "jsonl" else part.encoding
        text = (value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)).encode(codec)
    return part.edges[0] + text + part.edges[1]


def _decoded(data: bytes, codec: str, part: _Part) -> str | None:
    """The part's bytes as text in `codec` (UTF-8: `_utf8_cut`), None where they are none, or hold a NUL."""
    try:
        text = _utf8_cut(data, part) if codec == "utf-8" else data.decode(codec)
    except UnicodeDecodeError:
        return None
    if "\x00" in text:
        part.edges = (b"", b"")
        return None
    return text


def _declared(ctype: bytes) -> str | None:
    """The codec of the charset a part's media type declares (`text/plain; charset=gbk`), where Python has it: a
    text in GBK, Latin-1, UTF-16 without a byte order mark or UTF-7 read as UTF-8 would be no text, or the wrong one
    (UTF-7's is ASCII), and go out unread."""
    charset = parse_options_header(ctype)[1].get(b"charset")
    try:
        name = codecs.lookup(charset.decode("latin-1").strip()).name if charset else None
    except LookupError:
        return None
    return None if name in ("utf-8", "ascii") else name


def _utf8_cut(data: bytes, part: _Part) -> str:
    """UTF-8 text that may be cut at a byte count (an Uploads API part): a character's bytes begun before its start
    or ended after its end are kept apart, as they came (`_Part.edges`; the seam of two parts reads them whole,
    `seams.py`), the rest decoded strictly."""
    head = len(data) - len(data.lstrip(bytes(range(0x80, 0xC0))))
    head = head if head <= 3 else 0
    decoder = codecs.getincrementaldecoder("utf-8")()
    text = decoder.decode(data[head:])
    tail = decoder.getstate()[0]
    part.edges = (data[:head], tail)
    return text


def _value(part: _Part, unreadable: list[str]):
    """A part's value as audited (see the module's docstring); its encoding set for `encode`."""
    data = bytes(part.data)
    ctype = next((v for k, v in part.headers if k.lower() == b"content-type"), b"")
    transfer = next((v for k, v in part.headers if k.lower() == b"content-transfer-encoding"), b"")
    if transfer.strip().lower() not in _IDENTITY:
        unreadable.append(f"{part.name} (Content-Transfer-Encoding {transfer.decode('latin-1')})")
        return ""
    codec = next((c for bom, c in _BOMS if data.startswith(bom)), None)
    text = _decoded(data, codec or "utf-8", part)
    declared = _declared(ctype) if codec is None else None
    if declared is not None:  # the text the upstream may read by its charset, or as UTF-8
        other = _decoded(data, declared, part)
        if text is not None and other is not None and other != text:
            unreadable.append(f"{part.name} (text that reads two ways: as UTF-8 and as its charset {declared})")
            return ""
        if text is None:
            text, codec, part.edges = other, declared, (b"", b"")
    if text is not None:
        part.encoding = codec or "utf-8"
        lines = text.splitlines()
        if part.encoding == "utf-8" and len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines if line):
            try:
                part.encoding, part.final_newline = "jsonl", text.endswith("\n")
                return [parse(line.encode()) for line in lines if line]
            except BadRequest:
                part.encoding = "utf-8"
        return text
    part.encoding, part.edges = "base64", (b"", b"")
    value = base64.b64encode(data).decode()
    if sniff(value) is None:
        kind = parse_options_header(ctype)[0].decode("latin-1") or "application/octet-stream"
        unreadable.append(f"{part.name} ({kind}, {len(data)} bytes)")
    return value


class _Collector:
    """python-multipart's parser callbacks: the parts with their headers and bytes."""

    def __init__(self) -> None:
        self.parts: list[_Part] = []
        self.field, self.value = b"", b""
        self.ended = False

    def callbacks(self) -> MultipartCallbacks:
        return {"on_part_begin": lambda: self.parts.append(_Part()), "on_header_field": self.on_field,
                "on_header_value": self.on_value, "on_header_end": self.on_header_end,
                "on_part_data": lambda data, start, end: self.parts[-1].data.extend(data[start:end]),
                "on_end": self.on_end}

    def on_field(self, data: bytes, start: int, end: int) -> None:
        self.field += data[start:end]

    def on_value(self, data: bytes, start: int, end: int) -> None:
        self.value += data[start:end]

    def on_header_end(self) -> None:
        self.parts[-1].headers.append((self.field, self.value))
        self.field, self.value = b"", b""

    def on_end(self) -> None:
        self.ended = True


def _pairs(raw: bytes, codec: str) -> list[tuple[str, str]] | None:
    """A URL-encoded body's pairs in `codec` (its percent-escapes' bytes; its bytes, where they are not all ASCII)."""
    try:
        text = raw.decode("ascii") if raw.isascii() else raw.decode(codec)
        return urllib.parse.parse_qsl(text, keep_blank_values=True, encoding=codec, errors="strict")
    except UnicodeDecodeError:
        return None


def _read_urlencoded(raw: bytes, declared: str | None) -> Form:
    """A URL-encoded body as a Form (a field with no `=` is one with an empty value, as servers read it), in UTF-8 or
    the charset its media type declares (`_declared`); BadRequest where a byte or a percent-escape is neither, or
    where the body reads as two different forms in the two (the upstream may read either)."""
    pairs = _pairs(raw, "utf-8")
    other = _pairs(raw, declared) if declared else None
    if pairs is not None and other is not None and other != pairs:
        raise BadRequest(f"{URLENCODED} body reads two ways: as UTF-8 and as its charset {declared}")
    charset = "utf-8"
    if pairs is None:
        if other is None:
            raise BadRequest(f"{URLENCODED} body is not UTF-8{' nor ' + declared if declared else ''} once "
                             "percent-decoded")
        pairs, charset = other, str(declared)
    parts = [_Part(name=name) for name, _ in pairs]
    body: dict = {}
    for name, value in pairs:
        held = body.get(name)
        body[name] = value if name not in body else [*held, value] if isinstance(held, list) else [held, value]
    return Form(URLENCODED, parts, body, [], charset)


def read_file_body(raw: bytes, content_type: str) -> Form:
    """A body that is one file as a Form of one part (`file`), its value read as a form's file is."""
    part = _Part(data=bytearray(raw), name="file", headers=[(b"content-type", content_type.encode())])
    unreadable: list[str] = []
    value = _value(part, unreadable)
    return Form(FILE_BODY, [part], {"file": {**({"content_type": content_type} if content_type else {}),
                                             "data": value}}, unreadable)


def read_form(raw: bytes, content_type: str) -> Form:
    """The form body `raw` as a Form; BadRequest (400) naming what is wrong: no boundary, a malformed or truncated
    multipart body, a part with no headers' end, a URL-encoded one that is not UTF-8."""
    media_type, options = parse_options_header(content_type)
    if media_type.lower() == URLENCODED.encode():
        return _read_urlencoded(raw, _declared(content_type.encode("latin-1")))
    boundary = options.get(b"boundary")
    if not boundary:
        raise BadRequest(f"{media_type.decode('latin-1')} body without a boundary in its Content-Type")
    collected = _Collector()
    try:
        parser = MultipartParser(boundary, collected.callbacks())
        parser.write(raw)
        parser.finalize()
    except MultipartParseError as exc:
        raise BadRequest(f"multipart body is malformed ({exc})") from None
    parts = collected.parts
    if not collected.ended:
        raise BadRequest("multipart body ends before its closing boundary")
    body: dict = {}
    unreadable: list[str] = []
    for k, part in enumerate(parts):
        disposition = next((v for n, v in part.headers if n.lower() == b"content-disposition"), None)
        kind, options = parse_options_header(disposition)
        part.form_field = kind == b"form-data"
        try:
            name, filename, ctype = (None if v is None else v.decode() for v in (
                options.get(b"name"), options.get(b"filename"),
                next((v for n, v in part.headers if n.lower() == b"content-type"), None)))
        except UnicodeDecodeError:
            raise BadRequest(f"multipart part {k}'s headers are not UTF-8") from None
        part.name = name if name is not None else f"part-{k}"
        value = _value(part, unreadable)
        if filename is not None or ctype is not None:  # audited as any value: both are forwarded
            value = {**({"filename": filename} if filename is not None else {}),
                     **({"content_type": ctype} if ctype is not None else {}), "data": value}
        if part.name in body:
            held = body[part.name]
            body[part.name] = [*held, value] if sum(p.name == part.name for p in parts[:k]) > 1 else [held, value]
        else:
            body[part.name] = value
    return Form(media_type.decode("latin-1"), parts, body, unreadable)
