"""A document's XML as a tool shows it (a `.docx`'s `word/document.xml` unzipped, a `.pptx` slide, an `.xlsx`'s
shared strings, an `.odt`'s `content.xml`): the application cuts a paragraph into runs wherever the formatting,
the spell checker or an edit session changes, so a value a reader sees whole is spread over runs,
`<w:t>Jos</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>é Núñez</w:t>`. The markup between two runs' texts (the run
tags, its properties, proofing and bookmark marks) reads as nothing, and OpenDocument's `<text:span>` tags too;
what ends a paragraph, a cell or a line (`</w:p>`, `<w:tab/>`, `<w:br/>`, `</c>`) stays, so two cells stay two
values. No cue: a run's properties may be pretty-printed over any number of lines."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

_ATTRS = r"(?:\s[^<>]*)?"
#: what lies between the texts of two runs of one paragraph in WordprocessingML (`w:`), DrawingML (`a:`, a slide's
#: text) and SpreadsheetML's rich text (no prefix): the markup of runs, their properties and the marks Word puts
#: between them; the same prefix throughout
_GAP = re.compile(
    r"</(?P<ns>(?:w:|a:)?)t>(?:\s"
    rf"|</(?P=ns)r>|<(?P=ns)r{_ATTRS}>|<(?P=ns)rPr{_ATTRS}/>"
    rf"|<(?P=ns)rPr{_ATTRS}>[^<>]*(?:<(?!/(?P=ns)rPr>)[^<>]*>[^<>]*)*</(?P=ns)rPr>"
    r"|<(?P=ns)(?:proofErr|bookmarkStart|bookmarkEnd|lastRenderedPageBreak|softHyphen|commentRangeStart"
    rf"|commentRangeEnd|permStart|permEnd|noProof){_ATTRS}/>)*"
    rf"<(?P=ns)t{_ATTRS}>")
_SPAN = re.compile(rf"<text:span{_ATTRS}>|</text:span>")


@register
class OfficeRuns(Form):
    name = "office_runs"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "t>" in text:
            for m in _GAP.finditer(text):
                yield m.start(), m.end(), ""
        if "text:span" in text:
            for m in _SPAN.finditer(text):
                yield m.start(), m.end(), ""
