"""A host's short name, its domain name's first label alone, as logs and prompts print it: "connection to pg-prod-03
port 5432 refused" for `pg-prod-03.internal.norvale.net`. Inside its network the label names the host, so it shows
most of the value (0.7). Only a label that names one host counts: five characters or more with a digit or a hyphen
(`pg-prod-03`, `web7`… not `www`, `mail`); a label written on into a longer name (`pg-prod-03.other.net`,
`pg-prod-031`) is another host's."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.normalize import normalize_text
from ec2audit.detect.patterns import PatternIndex
from ec2audit.detect.views import ScanView

KIND = "host_labels.label"
_HOST = re.compile(r"(?P<label>[a-z0-9-]+)(?:\.[a-z0-9-]+)+\.[a-z]{2,6}")
_NAME_CHAR = re.compile(r"[0-9a-z_-]|\.[0-9a-z]")


def host_label(value: str) -> list[str]:
    """The first label of a value that is a domain name of three labels or more, where it names one host."""
    m = _HOST.fullmatch(normalize_text(value).strip())
    label = m["label"] if m else ""
    return [label] if len(label) >= 5 and re.search(r"[\d-]", label) else []


@register
class HostLabels(Form):
    name = "host_labels"
    kinds = (KIND,)
    tier = "partial"

    def compile(self, index: PatternIndex) -> None:
        # context: two characters after the label (a dot and a letter), one before
        self.compile_forms(index, {KIND: lambda cu: host_label(cu.unit.value)}, context=2)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if not (start and _NAME_CHAR.match(text[start - 1]) or text[start - 1:start] == "."
                    or _NAME_CHAR.match(text, end)):
                span = view.view.to_original(start, end)
                for i in units:
                    yield Hit(i, *span, "partial.host", MOSTLY, 0.6)
