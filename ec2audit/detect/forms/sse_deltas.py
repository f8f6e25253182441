"""A streamed answer pasted whole: the server-sent events of a chat completion, a Responses or a Messages stream
(a tool's log, a proxy's capture, a test fixture) cut its text and a tool call's JSON arguments into deltas of a
few characters each (`"arguments":"{\\"phone\\":\\"1392"`, then `"2883366\\"}"`). A client joins the deltas; a
reader of the capture does too; the tiers read the joined text in place of the events. Deltas are the strings
the wire APIs stream under `content`, `text`, `arguments`, `partial_json`, `thinking` and `delta`."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# two or more `data:` lines of JSON objects in a row, blank lines and `event:` lines between
_EVENTS = re.compile(r"^data: ?\{.*\}[ \t]*$(?:\s*^(?:event:.*|data: ?\{.*\}[ \t]*|data: ?\[DONE\])$)+", re.M)
_DATA = re.compile(r"^data: ?(\{.*\})[ \t]*$", re.M)
_DELTA_KEYS = frozenset({"content", "text", "arguments", "partial_json", "thinking", "delta"})


def _deltas(event: object, key: str = "") -> Iterator[str]:
    """The delta strings of one event, in order."""
    if isinstance(event, dict):
        for k, v in event.items():
            yield from _deltas(v, k)
    elif isinstance(event, list):
        for item in event:
            yield from _deltas(item, key)
    elif isinstance(event, str) and key in _DELTA_KEYS:
        yield event


@register
class StreamDeltas(Form):
    """No cue: one stream's events may stand any number of blank lines apart, past any bound in lines."""

    name = "sse_deltas"

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if "\ndata:" not in text and not text.startswith("data:"):  # (a data: URL is no event)
            return
        for m in _EVENTS.finditer(text):
            joined: list[str] = []
            for data in _DATA.findall(m.group()):
                try:
                    joined.extend(_deltas(json.loads(data)))
                except ValueError:
                    continue
            if joined:
                yield m.start(), m.end(), "".join(joined)
