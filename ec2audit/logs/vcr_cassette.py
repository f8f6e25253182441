"""VCR.py cassettes (YAML, or JSON with vcrpy's JSON serializer): `interactions` of recorded HTTP
`request`s and `response`s, as test suites of LLM applications keep them; bodies recorded as text,
or as data under `parsed_body` (pydantic-ai's serializer).

An interaction counts when its request posts a JSON body of a model API (`messages` or `input`);
its `uri` gives provider and side, the response (JSON or an SSE stream, gzip-compressed or not)
gives model and usage. Request headers, where credentials live, are never read.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs.base import OnError, open_log, outline
from ec2audit.logs.openai_log import response_data, to_payload
from ec2audit.payloads import Payload, is_request_body

name = "vcr-cassette"


def sniff(path: Path, head: bytes) -> bool:
    if head.lstrip().startswith(b"{"):
        return "interactions.item.request" in outline(head)
    return head.startswith(b"interactions:") and b"request:" in head and b"uri:" in head


def _bytes(body) -> bytes:
    """A recorded body as bytes: vcrpy writes it as text, `!!binary`, or `{string: …}`."""
    if isinstance(body, dict):
        body = body.get("string")
    if isinstance(body, str):
        return body.encode("utf-8")
    return body if isinstance(body, bytes) else b""


def _text(raw: bytes) -> str:
    if raw.startswith(b"\x1f\x8b"):
        raw = gzip.decompress(raw)
    elif raw[:1] == b"\x78":
        try:
            raw = zlib.decompress(raw)
        except zlib.error:
            pass
    return raw.decode("utf-8", "replace")


def _body(request: dict):
    """A request's JSON body: under `parsed_body` as data (pydantic-ai's cassette serializer), else
    the recorded `body` parsed; None when it is not JSON."""
    if "parsed_body" in request:
        return request["parsed_body"]
    try:
        return json.loads(_text(_bytes(request.get("body"))))
    except json.JSONDecodeError:
        return None


def _load(path: Path):
    import yaml

    with open_log(path) as handle:
        if handle.read(64).lstrip().startswith(b"{"):
            handle.seek(0)
            return json.load(handle)
        handle.seek(0)
        return yaml.load(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506 — safe loader


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    import yaml

    try:
        interactions = (_load(path) or {}).get("interactions") or []
    except (yaml.YAMLError, json.JSONDecodeError, AttributeError) as exc:
        on_error(InputError(f"not a cassette ({type(exc).__name__}: {exc})".split("\n")[0], file=str(path)))
        return
    steps: Counter = Counter()
    for number, interaction in enumerate(interactions, start=1):
        try:
            request, response = interaction["request"], interaction.get("response") or {}
            if str(request.get("method", "POST")).upper() != "POST":
                continue
            body = _body(request)
            if not is_request_body(body):
                continue
            answer = response.get("parsed_body")
            if not isinstance(answer, dict):
                answer = response_data(_text(_bytes(response.get("body"))))
            status = response.get("status")
            record = {"request": body, "url": request.get("uri"), "session_id": path.stem, "response": answer,
                      "status": status.get("code") if isinstance(status, dict) else None}
            yield to_payload(record, f"{path.stem}#{number}", path, number, steps)
        except (KeyError, TypeError, AttributeError, ValueError, InputError, OSError) as exc:
            on_error(InputError(f"interaction {number} skipped ({exc})", file=str(path), line=number))
