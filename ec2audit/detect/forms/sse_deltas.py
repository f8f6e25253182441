"""A streamed answer pasted whole: the server-sent events of a chat completion, a Responses or a Messages stream
(a tool's log, a proxy's capture, a test fixture) cut its text and a tool call's JSON arguments into deltas of a
few characters each (`"arguments":"{\\"phone\\":\\"1392"`, then `"2883366\\"}"`). A client joins the deltas; a
reader of the capture does too; the tiers read the joined text in place of the events. Deltas are the strings
the wire APIs stream under `content`, `text`, `arguments`, `partial_json`, `thinking` and `delta`.

Ollama's native API streams the same way as NDJSON, a JSON object a line and no `data:` (`curl …/api/generate`
prints `{"model":"…","response":"1392","done":false}` a token a line; `/api/chat` the token under
`message.content`): a run of two or more such lines, each with the `done` every chunk of its stream carries, is
read as the text they join to (`response` is that API's delta)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

# two or more `data:` lines of JSON objects in a row, blank lines and `event:` lines between
_EVENTS = re.compile(r"^data: ?\{.*\}[ \t]*$(?:\s*^(?:event:.*|data: ?\{.*\}[ \t]*|data: ?\[DONE\])$)+", re.M)
_DATA = re.compile(r"^data: ?(\{.*\})[ \t]*$", re.M)
_DELTA_KEYS = frozenset({"content", "text", "arguments", "partial_json", "thinking", "delta", "response"})
# two or more lines in a row, each a JSON object holding `"done":` (Ollama's chunks: the last one's is `true`)
_CHUNKS = re.compile(r'^\{.*"done": ?(?:true|false).*\}[ \t]*\r?$(?:\n^\{.*"done": ?(?:true|false).*\}[ \t]*\r?$)+',
                     re.M)


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
        if "\ndata:" in text or text.startswith("data:"):  # (a data: URL is no event)
            yield from _joined(_EVENTS.finditer(text), _DATA.findall)
        if '"done":' in text:
            yield from _joined(_CHUNKS.finditer(text), str.splitlines)


def _joined(streams: Iterator[re.Match], objects) -> Iterator[Replacement]:
    """Each stream's span, as the text its deltas join to (`objects`: a stream's JSON objects, as text)."""
    for m in streams:
        joined: list[str] = []
        for data in objects(m.group()):
            try:
                joined.extend(_deltas(json.loads(data)))
            except ValueError:
                continue
        if joined:
            yield m.start(), m.end(), "".join(joined)
