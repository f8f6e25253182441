"""Binary parts a request carries as base64 (a file part's data URL, an image's or a document's `data`, a list of
Ollama images): what the guard reads of them, and which it cannot read.

A part is known by its bytes, not by the field it sits in: the first bytes of every string that is base64 (bare or
a `data:` URL) are decoded and matched against the file signatures below, so a PDF is read wherever an API puts
it (OpenAI's `file_data`, Anthropic's `document.source.data`, Gemini's `inlineData.data`, Bedrock's `bytes`), and
a string that is not a known file costs one 18-byte decode. A kind with a reader (`READERS`: PDF → its text) is
scanned as text; a kind without one (images, audio, a legacy Office file) is an unread part, named and counted on the
request's record (`ProxyRecord.unread`), since no detector saw inside it.

Office documents are zips of XML (`.docx`, `.xlsx`, `.pptx`; OpenDocument's `.odt`, `.ods`; EPUB): a zip is read as the
text of its XML and text members, which is where such a file keeps what it shows (and its author, comments and tracked
changes), so a value in a Word file is found as one in a PDF is; its binary members (the pictures a document embeds,
its fonts) are named as unread members of it (`Member`: their path in the zip), as unread as an image part. Legacy
Office files (OLE2 compound files: `.doc`, `.xls`, and every password-protected Office file) have no reader here:
unread, and named.
"""

from __future__ import annotations

import base64
import binascii
import bz2
import gzip
import io
import lzma
import re
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NamedTuple, Protocol
from xml.etree.ElementTree import ParseError, XMLParser


@dataclass(frozen=True)
class Member:
    """A file inside a file that was read, which no reader reads (an image a `.docx` embeds, a font): its path in
    the file (`word/media/image1.png`; in a zip within the zip, the inner zip's path first), its media type by its
    signature (`application/octet-stream`: none known), its size in bytes."""

    path: str
    media_type: str
    size: int


class Reading(NamedTuple):
    """What a reader of a kind of file sees in one: its text, and the members inside it that it could not read."""

    text: str
    unread: tuple[Member, ...] = ()


#: media type → what a reader of that kind of file sees in it (raises ValueError where it cannot read it).
Reader = Callable[[bytes], Reading]
READERS: dict[str, Reader] = {}


def reader(media_type: str):
    """Register the function as the text reader of `media_type`."""
    def register(read: Reader) -> Reader:
        READERS[media_type] = read
        return read
    return register


#: Where a tar's header says `ustar` (POSIX and GNU tar): past the head `sniff` decodes, so looked for apart.
_TAR_MAGIC = 257
#: File signatures: (offset, bytes, media type). Offsets past 0 (WebP's, WAV's, MP4's) follow a size field. None of
#: two bytes (BMP's `BM`, an MPEG frame's sync): 16 bits of chance match too much base64 text.
SIGNATURES = (
    (0, b"%PDF-", "application/pdf"), (0, b"\x89PNG\r\n\x1a\n", "image/png"), (0, b"\xff\xd8\xff", "image/jpeg"),
    (0, b"GIF87a", "image/gif"), (0, b"GIF89a", "image/gif"), (8, b"WEBP", "image/webp"),
    (0, b"II*\x00", "image/tiff"), (0, b"MM\x00*", "image/tiff"), (4, b"ftypheic", "image/heic"),
    (8, b"WAVE", "audio/wav"), (0, b"ID3", "audio/mpeg"), (0, b"OggS", "audio/ogg"), (0, b"fLaC", "audio/flac"),
    (4, b"ftypM4A", "audio/mp4"), (0, b"\x1aE\xdf\xa3", "video/webm"), (4, b"ftyp", "video/mp4"),
    (0, b"PK\x03\x04", "application/zip"), (0, b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "application/x-ole-storage"),
    (0, b"\x1f\x8b\x08", "application/gzip"), (0, b"BZh", "application/x-bzip2"),
    (0, b"\xfd7zXZ\x00", "application/x-xz"), (_TAR_MAGIC, b"ustar", "application/x-tar"),
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
    unread: tuple[Member, ...] = ()  # what the reader of a file it read could not read inside it


def signature(head: bytes) -> str | None:
    """The media type of a file by its first bytes (`SIGNATURES`), None for no known kind."""
    return next((kind for offset, magic, kind in SIGNATURES if head[offset:offset + len(magic)] == magic), None)


def sniff(text: str) -> str | None:
    """The media type of the file a base64 string (bare or a data URL) holds, by its first bytes; None for anything
    else. Cheap: a set look-up for most text, at most 24 characters decoded for the rest."""
    at = 0
    if text.startswith("data:"):
        match = _DATA_URL.match(text)
        if match is None:
            return None
        at = match.end()
    if _is_tar(text, at):
        return "application/x-tar"
    if len(text) - at < _HEAD or text[at:at + 4] not in _LEADS:
        return None
    try:
        head = base64.b64decode(text[at:at + _HEAD].translate(_STANDARD), validate=True)
    except (binascii.Error, ValueError):
        return None
    return signature(head)


#: A tar is three 512-byte blocks at least (a header, its member's data, the end), 2,048 base64 characters; its
#: `ustar` (bytes 257-261) is in the base64 of bytes 255-263, characters 340-351.
_TAR_LEAST, _TAR_CHARS = 2048, 340


def _is_tar(text: str, at: int) -> bool:
    """Whether the base64 from `at` holds a tar, which starts with its first member's name (any text): one 12-character
    decode, of strings long enough to hold one."""
    if len(text) - at < _TAR_LEAST:
        return False
    try:
        chunk = base64.b64decode(text[at + _TAR_CHARS:at + _TAR_CHARS + 12].translate(_STANDARD), validate=True)
    except (binascii.Error, ValueError):
        return False
    return chunk[_TAR_MAGIC - 255:_TAR_MAGIC - 250] == b"ustar"


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
        text, unread = read(raw)
        return Part(kind, len(raw), text, unread)
    except ValueError:  # a damaged or encrypted file: unread, and said so
        return Part(kind, len(raw), None)


@reader("application/pdf")
def pdf_text(data: bytes) -> Reading:
    """A PDF's text as its pages show it (pypdf: content streams decompressed, fonts' encodings and ToUnicode maps
    applied), page after page; its metadata (title, author, subject) first. An encrypted PDF is read when it opens
    without a password (an owner password alone, as on bank statements); one that asks for a password is not."""
    from pypdf import PdfReader

    try:
        pdf = PdfReader(io.BytesIO(data))
        if pdf.is_encrypted and not pdf.decrypt(""):  # an owner password alone: every viewer opens it, as the model
            raise ValueError("encrypted")
        meta = [str(v) for v in (pdf.metadata or {}).values() if isinstance(v, str)]
        return Reading("\n".join([*meta, *(page.extract_text() or "" for page in pdf.pages)]))
    except Exception as exc:  # a parser of untrusted bytes fails in many ways: each one is a file left unread
        raise ValueError(f"unreadable PDF ({type(exc).__name__})") from None


#: Bytes a zip's members may inflate to, all together (a zip bomb is an unread file, not a stalled proxy): twice the
#: proxy's default body limit, past what the text of any real document inflates to.
UNZIPPED_LIMIT = 64 * 2**20
#: Elements of Office Open XML, OpenDocument and XHTML that end a paragraph, a cell or a line: their text and the next
#: element's are two values (`<c><v>486000</v></c><c><v>1</v></c>` is no 4860001), while the runs a paragraph is cut
#: into (`<w:t>Jo</w:t></w:r><w:r><w:t>hn</w:t>`) read as one text, as the document shows them.
_BREAKS = frozenset({"p", "h", "br", "cr", "tab", "tc", "tr", "c", "si", "row", "is", "v", "f", "table-cell",
                     "table-row", "line-break", "tab-stop", "list-item", "note", "annotation", "comment", "li",
                     "div", "td", "th", "title", "creator", "description", "subject", "keywords", "lastModifiedBy"})
#: Elements standing for white space (OpenDocument's `<text:s/>`).
_SPACES = frozenset({"s", "space"})


class _XmlText:
    """An XMLParser target collecting the text a document's XML shows, then its attributes' values (where Word keeps
    a tracked change's or a comment's author), one a line after the text: between the runs they would cut it."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.values: dict[str, None] = {}

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        if tag.rsplit("}", 1)[-1] in _SPACES:
            self.parts.append(" ")
        self.values.update(dict.fromkeys(attrib.values()))

    def end(self, tag: str) -> None:
        if tag.rsplit("}", 1)[-1] in _BREAKS:
            self.parts.append("\n")

    def data(self, text: str) -> None:
        self.parts.append(text)

    def text(self) -> str:
        return "".join(self.parts) + "\n" + "\n".join(self.values)


def _member_text(data: bytes) -> str | None:
    """A zip member's text: an XML member's as a reader of the document sees it, a UTF-8 one as it is; None for a
    binary member (an image a document embeds is as unread as one in a PDF)."""
    if data.lstrip()[:1] == b"<":
        if b"<!ENTITY" in data:  # Office never declares entities: one that does is a bomb, not a document
            raise ValueError("XML declaring entities")
        target = _XmlText()
        parser = XMLParser(target=target)
        try:
            parser.feed(data)
            parser.close()
            return target.text()
        except ParseError:
            pass  # HTML in an EPUB, say: read as text
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


class _Stream(Protocol):
    """A member's bytes as its archive or its compression opens them."""

    def read(self, size: int = -1, /) -> bytes: ...


#: An archive's members, or a compressed file's one: (its name, a stream of its bytes)
_Members = Callable[[bytes], Iterator[tuple[str, _Stream]]]


def _zip_members(data: bytes) -> Iterator[tuple[str, _Stream]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            if not info.is_dir():
                with archive.open(info) as member:
                    yield info.filename, member


def _tar_members(data: bytes) -> Iterator[tuple[str, _Stream]]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as archive:
        for info in archive:
            member = archive.extractfile(info) if info.isfile() else None
            if member is not None:
                yield info.name, member


def _compressed(open_stream: Callable[[io.BytesIO], io.BufferedIOBase]) -> _Members:
    """The members of a compressed file: one, its content, named by nothing (its path is the file's)."""
    def members(data: bytes) -> Iterator[tuple[str, _Stream]]:
        with open_stream(io.BytesIO(data)) as stream:
            yield "", stream
    return members


#: Files holding files, media type → their members as (name, a stream of the member's bytes): archives (a zip, a
#: tar) and compressed files (gzip, bzip2, xz: one member). A tool's output, a log, a CSV export is sent as
#: `notes.txt.gz` or `logs.tar.gz` as often as as text: each is read down to the text inside it.
UNPACKERS: dict[str, _Members] = {
    "application/zip": _zip_members, "application/x-tar": _tar_members,
    "application/gzip": _compressed(lambda f: gzip.GzipFile(fileobj=f)),
    "application/x-bzip2": _compressed(bz2.BZ2File), "application/x-xz": _compressed(lzma.LZMAFile)}


def archive_text(data: bytes) -> Reading:
    """The text of an archive's or a compressed file's XML and text members (an Office document's body, sheets,
    slides, comments, properties; a `.txt.gz`; a `.tar.gz`'s files), member after member; an archive or a compressed
    file within it read the same way, all of them inflating to `UNZIPPED_LIMIT` together. Its binary members
    (pictures, fonts, embedded objects) are named as unread: no detector sees inside them."""
    texts: list[str] = []
    unread: list[Member] = []
    budget = UNZIPPED_LIMIT
    pending = [("", data)]  # (the path of an archive within the archive, its bytes)
    try:
        while pending:
            inside, packed = pending.pop()
            for name, member in UNPACKERS[signature(packed) or ""](packed):
                content = member.read(budget + 1)
                budget -= len(content)
                if budget < 0:
                    raise ValueError(f"inflates past {UNZIPPED_LIMIT} bytes")
                media_type = signature(content) or "application/octet-stream"
                if media_type in UNPACKERS:
                    pending.append((f"{inside}{name}/", content))
                    continue
                text = _member_text(content)
                if text is not None:
                    texts.append(text)
                else:
                    unread.append(Member(inside + name, media_type, len(content)))
    except ValueError:  # (over the limit, entities)
        raise
    except Exception as exc:  # a damaged, encrypted or unsupported archive: a file left unread
        raise ValueError(f"unreadable {(signature(data) or '').rsplit('/', 1)[-1]} ({type(exc).__name__})") from None
    return Reading("\n".join(texts), tuple(unread))


READERS.update(dict.fromkeys(UNPACKERS, archive_text))
