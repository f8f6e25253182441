"""RTF bytes in the document's own code page: WordPad and older writers on a Chinese, Japanese, Korean or Cyrillic
system declare the code page once in the header (`{\\rtf1\\ansi\\ansicpg936…`) and write each character outside
ASCII as its bytes in it (`\\'c5\\'b7` is 欧 in GBK) with no `\\uN` beside them. The `rtf` form reads such bytes as
Windows-1252, since it reads the lines around each escape and the header is far above; this form reads the header:
where it names a code page other than 1252, each line with byte escapes is read with them decoded in that code page
(a run after a `\\uN`, its fallback, is left to `rtf`), and read again, as a decoded token is, by every form. The
cue is the header's word, which stands far from the escapes: the rewrite reads the whole text (a literal check
first)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_CODE_PAGE = re.compile(r"\\ansicpg([0-9]{3,5})")
#: the code pages Windows writes RTF in, other than 1252 (the `rtf` form's reading)
_CODECS = {"874": "cp874", "932": "cp932", "936": "gbk", "949": "cp949", "950": "cp950", "1250": "cp1250",
           "1251": "cp1251", "1253": "cp1253", "1254": "cp1254", "1255": "cp1255", "1256": "cp1256",
           "1257": "cp1257", "1258": "cp1258"}
_RUN = re.compile(r"(?:\\'[0-9a-fA-F]{2})+")
_FALLBACK_AFTER = re.compile(r"\\u-?[0-9]{1,5} ?\Z")
_UNIT_BEFORE = 9  # characters a `\\uN ` before a run takes at most


@register
class RtfCodePages(Form):
    name = "rtf_code_pages"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\\ansicpg" not in text:
            return
        declared = _CODE_PAGE.search(text)
        codec = _CODECS.get(declared.group(1)) if declared else None
        if codec is None:
            return
        start = 0
        for line in text.splitlines(keepends=True):
            if "\\'" in line:
                decoded = _decoded(line, codec)
                if decoded != line:
                    yield start, start + len(line), decoded
            start += len(line)


def _decoded(line: str, codec: str) -> str:
    """The line with each run of byte escapes read in `codec`; a run that is a `\\uN`'s fallback or no text in it
    as written."""
    def read(run: re.Match) -> str:
        if _FALLBACK_AFTER.search(line, max(0, run.start() - _UNIT_BEFORE), run.start()):
            return run.group()
        try:
            return bytes.fromhex(run.group().replace("\\'", "")).decode(codec)
        except UnicodeDecodeError:
            return run.group()
    return _RUN.sub(read, line)
