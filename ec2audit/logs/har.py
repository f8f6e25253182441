"""HAR files (browser devtools or proxy exports such as mitmproxy): the entries that are model calls.

An entry counts when its request posts a JSON body of a model API (`messages` or `input`). The
response gives usage, whether plain JSON or an SSE stream. Problems are reported per entry, with the
entry's number in place of a line number.
"""

from __future__ import annotations

import base64
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs.base import OnError, open_log
from ec2audit.logs.openai_log import response_data, to_payload
from ec2audit.payloads import Payload, is_request_body

name = "har"


def sniff(path: Path, head: bytes) -> bool:
    start = head.lstrip()[:4096]
    return start.startswith(b"{") and b'"log"' in start and (b'"entries"' in head or path.suffix == ".har")


def _response(content: dict) -> dict:
    text = content.get("text")
    if not isinstance(text, str):
        return {}
    if content.get("encoding") == "base64":
        text = base64.b64decode(text).decode("utf-8", "replace")
    return response_data(text)


def mitmproxy_flows(head: bytes) -> bool:
    """A mitmproxy flow file (tnetstring-serialised flows), which mitmdump exports to HAR."""
    return re.match(rb"^\d+:", head) is not None and b"client_conn" in head and b"server_conn" in head


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    try:
        with open_log(path) as handle:
            entries = json.load(handle)["log"]["entries"]
    except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError) as exc:
        on_error(InputError(f"not a HAR document ({exc})", file=str(path)))
        return
    steps: Counter = Counter()
    for number, entry in enumerate(entries, start=1):
        try:
            request = entry["request"]
            post = (request.get("postData") or {}).get("text")
            if request.get("method", "POST").upper() != "POST" or not isinstance(post, str):
                continue
            try:
                body = json.loads(post)
            except json.JSONDecodeError:
                continue
            if not is_request_body(body):
                continue
            answer = entry.get("response") or {}
            record = {"request": body, "url": request.get("url"), "timestamp": entry.get("startedDateTime"),
                      "response": _response(answer.get("content") or {}), "status": answer.get("status")}
            yield to_payload(record, f"{path.name}#{number}", path, number, steps)
        except (KeyError, TypeError, AttributeError, ValueError, InputError) as exc:
            on_error(InputError(f"entry {number} skipped ({exc})", file=str(path), line=number))
