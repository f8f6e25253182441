"""Binary parts a request carries as base64 (a file part's data URL, an image's or a document's `data`, a list of
Ollama images): what the guard reads of them, and which it cannot read.

A part is known by its bytes, not by the field it sits in: the first bytes of every string that is base64 (bare or
a `data:` URL) are decoded and matched against the file signatures below, so a PDF is read wherever an API puts
it (OpenAI's `file_data`, Anthropic's `document.source.data`, Gemini's `inlineData.data`, Bedrock's `bytes`), and
a string that is not a known file costs one 18-byte decode. A kind with a reader (`READERS`: PDF → its text) is
scanned as text; a kind without one (images, audio) is an unread part, named and counted on the request's record
(`ProxyRecord.unread`), since no detector saw inside it.
"""

from __future__ import annotations

import base64
import binascii
import io
import re
from collections.abc import Callable
from dataclasses import dataclass

#: media type → the text a reader of that kind of file sees in it (raises ValueError where it cannot read it).
Reader = Callable[[bytes], str]
READERS: dict[str, Reader] = {}


def reader(media_type: str):
    """Register the function as the text reader of `media_type`."""
    def register(read: Reader) -> Reader:
        READERS[media_type] = read
        return read
    return register


#: File signatures: (offset, bytes, media type). Offsets past 0 (WebP's, WAV's, MP4's) follow a size field. None of
#: two bytes (BMP's `BM`, an MPEG frame's sync): 16 bits of chance match too much base64 text.
SIGNATURES = (
    (0, b"%PDF-", "application/pdf"), (0, b"\x89PNG\r\n\x1a\n", "image/png"), (0, b"\xff\xd8\xff", "image/jpeg"),
    (0, b"GIF87a", "image/gif"), (0, b"GIF89a", "image/gif"), (8, b"WEBP", "image/webp"),
    (0, b"II*\x00", "image/tiff"), (0, b"MM\x00*", "image/tiff"), (4, b"ftypheic", "image/heic"),
    (8, b"WAVE", "audio/wav"), (0, b"ID3", "audio/mpeg"), (0, b"OggS", "audio/ogg"), (0, b"fLaC", "audio/flac"),
    (4, b"ftypM4A", "audio/mp4"), (0, b"\x1aE\xdf\xa3", "video/webm"), (4, b"ftyp", "video/mp4"),
)
#: The first four base64 characters a file of a known kind starts with (its first three bytes; RIFF's, and an MP4
#: box's size under 16 MB, before the signatures at offsets 4 and 8): one set look-up turns away all other text.
_LEADS = frozenset(encode(head[:3]).decode() for encode in (base64.b64encode, base64.urlsafe_b64encode) for head in
                   [magic for offset, magic, _ in SIGNATURES if offset == 0] + [b"RIFF", b"\x00\x00\x00"])
#: Base64's URL-safe alphabet (`-_` for `+/`), which protobuf's JSON (Gemini's `inlineData`) also takes.
_STANDARD = str.maketrans("-_", "+/")
_DATA_URL = re.compile(r"data:[\w.+-]+/[\w.+-]+(?:;[\w.+-]+=[^;,]*)*;base64,")
_HEAD = 24  # base64 characters decoded to sniff: 18 bytes, past the longest signature
_B64 = re.compile(r"[A-Za-z0-9+/_=\s-]*")


@dataclass(frozen=True)
class Part:
    """A file a string carries: its media type (by its signature), its size, and its text where a reader has it."""

    media_type: str
    size: int
    text: str | None  # None: the guard cannot read it


def sniff(text: str) -> str | None:
    """The media type of the file a base64 string (bare or a data URL) holds, by its first bytes; None for anything
    else. Cheap: a set look-up for most text, at most 24 characters decoded for the rest."""
    at = 0
    if text.startswith("data:"):
        match = _DATA_URL.match(text)
        if match is None:
            return None
        at = match.end()
    if len(text) - at < _HEAD or text[at:at + 4] not in _LEADS:
        return None
    try:
        head = base64.b64decode(text[at:at + _HEAD].translate(_STANDARD), validate=True)
    except (binascii.Error, ValueError):
        return None
    return next((kind for offset, magic, kind in SIGNATURES if head[offset:offset + len(magic)] == magic), None)


def open_part(text: str) -> Part | None:
    """The file a base64 string holds, read by its kind's reader if there is one; None if it holds no known file
    (or is no valid base64 past its head: then it is text, and scanned as text)."""
    kind = sniff(text)
    if kind is None:
        return None
    data = text.split(",", 1)[1] if text.startswith("data:") else text
    if not _B64.fullmatch(data):
        return None
    try:
        data = "".join(data.split()).translate(_STANDARD)
        raw = base64.b64decode(data + "=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        return None
    read = READERS.get(kind)
    if read is None:
        return Part(kind, len(raw), None)
    try:
        return Part(kind, len(raw), read(raw))
    except ValueError:  # a damaged or encrypted file: unread, and said so
        return Part(kind, len(raw), None)


@reader("application/pdf")
def pdf_text(data: bytes) -> str:
    """A PDF's text as its pages show it (pypdf: content streams decompressed, fonts' encodings and ToUnicode maps
    applied), page after page; its metadata (title, author, subject) first. An encrypted PDF is read when it opens
    without a password (an owner password alone, as on bank statements); one that asks for a password is not."""
    from pypdf import PdfReader

    try:
        pdf = PdfReader(io.BytesIO(data))
        if pdf.is_encrypted and not pdf.decrypt(""):  # an owner password alone: every viewer opens it, as the model
            raise ValueError("encrypted")
        meta = [str(v) for v in (pdf.metadata or {}).values() if isinstance(v, str)]
        return "\n".join([*meta, *(page.extract_text() or "" for page in pdf.pages)])
    except Exception as exc:  # a parser of untrusted bytes fails in many ways: each one is a file left unread
        raise ValueError(f"unreadable PDF ({type(exc).__name__})") from None
