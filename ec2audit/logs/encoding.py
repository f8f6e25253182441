"""Text encodings of log files: adapters read UTF-8, so a file in another encoding is named and read
through a UTF-8 copy, never misread or passed over.

UTF-16 and UTF-32 are recognised by their byte-order mark or, without one, by the zero bytes every
ASCII character carries; a UTF-8 BOM is dropped; any other non-UTF-8 text is decoded with the
encoding charset-normalizer finds most likely, and that guess is said wherever the file is listed. A gzip-compressed
log (a rotated `requests.jsonl.1.gz`) is read the same way, through a decompressed copy: its `encoding` is `gzip`, or
`gzip+ENCODING` for text in another encoding inside.
"""

from __future__ import annotations

import codecs
import gzip
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
_CHUNK = 1 << 20


def _is_utf8(head: bytes, complete: bool) -> bool:
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return not complete and exc.start >= len(head) - 3  # a character cut by the end of the head
    return True


def _wide(head: bytes) -> str | None:
    """UTF-16/32 without a BOM: in mostly-ASCII text every other (every fourth) byte is zero."""
    sample = head[:4096 - 4096 % 4]
    if len(sample) < 4 or b"\x00" not in sample:
        return None
    zeros = [sum(1 for b in sample[k::4] if b == 0) / len(sample[k::4]) for k in range(4)]
    if min(zeros[1:]) > 0.9 and zeros[0] < 0.5:
        return "utf-32-le"
    if min(zeros[:3]) > 0.9 and zeros[3] < 0.5:
        return "utf-32-be"
    odd, even = (zeros[1] + zeros[3]) / 2, (zeros[0] + zeros[2]) / 2
    if odd > 0.6 and even < 0.2:
        return "utf-16-le"
    if even > 0.6 and odd < 0.2:
        return "utf-16-be"
    return None


BINARY = "binary"
#: The first bytes of a gzip file, and the `encoding` of a file compressed with it (`gzip_encoding`).
GZIP_MAGIC, GZIP = b"\x1f\x8b", "gzip"


def gzip_encoding(inner: str | None) -> str:
    """The `encoding` of a gzip file whose decompressed text is in `inner` (None: UTF-8)."""
    return GZIP if inner is None else f"{GZIP}+{inner}"


def _parts(encoding: str) -> tuple[bool, str]:
    """Whether `encoding` says gzip, and the text encoding (of what is inside)."""
    compressed = encoding == GZIP or encoding.startswith(GZIP + "+")
    return compressed, (encoding.partition("+")[2] or "utf-8") if compressed else encoding


def how_read(encoding: str) -> str:
    """How a file of `encoding` was read, in the audit's words: `as utf-16 text (converted to UTF-8)`,
    `decompressed (gzip)`."""
    compressed, text = _parts(encoding)
    converted = f"{text} text (converted to UTF-8)"
    if not compressed:
        return f"as {converted}"
    return "decompressed (gzip)" + ("" if encoding == GZIP else f", {converted}")


def uncompressed_name(path: Path) -> Path:
    """`requests.jsonl` for `requests.jsonl.gz`: the name a decompressed log is sniffed and read by."""
    return path.with_suffix("") if path.suffix.lower() == ".gz" else path


def text_encoding(head: bytes, complete: bool) -> str | None:
    """The encoding to convert a text file from: None for UTF-8, `BINARY` for data no text
    encoding explains; `complete` says the head is the whole file."""
    found = next((name for bom, name in _BOMS if head.startswith(bom)), None) or _wide(head)
    if found or _is_utf8(head, complete):
        return found
    from charset_normalizer import from_bytes

    best = from_bytes(head).best()
    return best.encoding if best is not None else BINARY


def decoded_head(head: bytes, encoding: str) -> bytes:
    """The head of a file in `encoding` as UTF-8 (for sniffing), its cut last character dropped."""
    return codecs.getincrementaldecoder(encoding)(errors="replace").decode(head).encode("utf-8")


@contextmanager
def utf8_copy(path: Path, encoding: str) -> Iterator[Path]:
    """A UTF-8 copy of `path` in a private temporary directory, removed afterwards; streamed, so a
    large file costs disk, not memory; decompressed first where `encoding` says gzip (`gzip_encoding`), and named
    without its `.gz`. Undecodable bytes become U+FFFD."""
    compressed, text = _parts(encoding)
    with tempfile.TemporaryDirectory(prefix="ec2audit-") as folder:
        copy = Path(folder) / (uncompressed_name(path).name if compressed else path.name)
        decoder = codecs.getincrementaldecoder(text)(errors="replace")
        with (gzip.open(path, "rb") if compressed else path.open("rb")) as source, \
                open(os.open(copy, os.O_WRONLY | os.O_CREAT, 0o600), "wb") as target:
            while chunk := source.read(_CHUNK):
                target.write(decoder.decode(chunk).encode("utf-8"))
            target.write(decoder.decode(b"", final=True).encode("utf-8"))
        yield copy
