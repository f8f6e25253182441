"""XML's CDATA sections around a value (`<phone><![CDATA[13922883366]]></phone>`, a SOAP or RSS payload), and a
value cut into two sections where a writer ended one (`]]]]><![CDATA[>` is how `]]>` is written inside). An XML
reader reads the sections' text joined, without the markers; so do the tiers."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# the join of two sections first (`]]><![CDATA[`), then a section's opening and closing markers
_MARKERS = re.compile(r"\]\]><!\[CDATA\[|<!\[CDATA\[|\]\]>")


@register
class Cdata(Form):
    name = "cdata"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "<![CDATA[" not in text:
            return
        for m in _MARKERS.finditer(text):
            yield m.start(), m.end(), ""
