"""Inspect AI eval logs: `.eval` (a zip: `header.json`, `samples/<id>_epoch_<n>.json`) and `.json`
(one `EvalLog` document, its samples streamed one at a time).

Every `ModelEvent` (`"event": "model"`) of a sample is one call. Its request is `call.request`, the
body Inspect actually sent, when the log kept it, else the event's `input` messages. Repeated
content is stored once per sample under `attachments` and referenced as `attachment://<hash>`;
references are resolved before reading. Model names are `provider/model`; the eval's
`model_base_url` gives the side of a local server. One session per sample and epoch.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs.base import OnError, json_object, make_payload, normalize_usage, outline
from ec2audit.logs.messages import normalize, provider_of, sources
from ec2audit.payloads import Payload, detect_api, flatten, is_request_body

name = "inspect-ai"
ZIP_MAGIC = b"PK\x03\x04"
_ATTACHMENT = "attachment://"


def sniff(path: Path, head: bytes) -> bool:
    if head.startswith(ZIP_MAGIC):
        try:
            with zipfile.ZipFile(path) as archive:
                names = set(archive.namelist())
        except (zipfile.BadZipFile, OSError):
            return False
        return "header.json" in names or "_journal/start.json" in names
    keys = outline(head)
    return {"eval.task", "eval.model"} <= keys or ("eval" in keys and "samples.item.events" in keys)


def _resolve(value, attachments: dict):
    """`value` with every `attachment://<hash>` string replaced by the attachment it names."""
    if isinstance(value, str):
        return attachments.get(value[len(_ATTACHMENT):], value) if value.startswith(_ATTACHMENT) else value
    if isinstance(value, list):
        return [_resolve(v, attachments) for v in value]
    if isinstance(value, dict):
        return {k: _resolve(v, attachments) for k, v in value.items()}
    return value


def _body(event: dict) -> dict:
    request = json_object(event.get("call")).get("request")
    if isinstance(request, dict) and is_request_body(request):
        return request
    messages = [m for m in event.get("input") or [] if isinstance(m, dict)]
    return {"messages": [normalize({**m, "name": m.get("function")} if m.get("role") == "tool" else m)
                         for m in messages]}


def _usage(usage) -> dict | None:
    """Inspect's `ModelUsage` in Anthropic's shape: its `input_tokens` leave out the tokens read from and
    written to the cache (`input_tokens_cache_read` / `_write`), which its `total_tokens` counts; an older
    log whose total leaves them out counted them within `input_tokens`."""
    if not isinstance(usage, dict) or not {"input_tokens", "output_tokens"} & usage.keys():
        return None
    count = {k: v if isinstance(v, int) and v >= 0 else 0 for k, v in usage.items()}
    read, written = count.get("input_tokens_cache_read", 0), count.get("input_tokens_cache_write", 0)
    prompt, output = count.get("input_tokens", 0), count.get("output_tokens", 0)
    if (read or written) and count.get("total_tokens") == prompt + output:  # the cache within input_tokens
        prompt = max(prompt - read - written, 0)
    return {"input_tokens": prompt, "cache_read_input_tokens": read, "cache_creation_input_tokens": written,
            "output_tokens": output}


def _sample_calls(sample: dict, spec: dict, path: Path) -> Iterator[Payload]:
    attachments = json_object(sample.get("attachments"))
    session = f"{spec.get('task') or path.stem}/{sample.get('id')}/epoch {sample.get('epoch', 1)}"
    step = 0
    for event in sample.get("events") or []:
        if not isinstance(event, dict) or event.get("event") != "model":
            continue
        step += 1
        body = _resolve(_body(event), attachments)
        api = detect_api(body)
        provider, model = provider_of(event.get("model") or spec.get("model"))
        output = json_object(event.get("output"))
        yield make_payload(
            pid=str(event.get("uuid") or f"{session}#{step}"), segments=flatten(body, api), session=session,
            step=step, api=api, provider=provider, model=model, timestamp=event.get("timestamp"), path=path,
            line=None, usage=normalize_usage(_usage(output.get("usage"))), base_url=spec.get("model_base_url"),
            messages=sources(body["messages"]) if api == "openai-chat" else {})


def _zip_samples(path: Path, on_error: OnError) -> tuple[dict, Iterator[tuple[str, dict]]]:
    archive = zipfile.ZipFile(path)
    names = archive.namelist()
    header_name = "header.json" if "header.json" in names else "_journal/start.json"
    header = json_object(json.loads(archive.read(header_name))) if header_name in names else {}

    def samples() -> Iterator[tuple[str, dict]]:
        with archive:
            for entry in sorted(n for n in names if n.startswith("samples/") and n.endswith(".json")):
                try:
                    yield entry, json.loads(archive.read(entry))
                except (json.JSONDecodeError, UnicodeDecodeError, zipfile.BadZipFile) as exc:
                    on_error(InputError(f"sample {entry} not read ({exc})", file=str(path)))

    return header, samples()


def _json_samples(path: Path) -> tuple[dict, Iterator[tuple[str, dict]]]:
    import ijson

    with path.open("rb") as handle:
        header: dict = {"eval": next(ijson.items(handle, "eval", use_float=True), {})}

    def samples() -> Iterator[tuple[str, dict]]:
        with path.open("rb") as handle:
            for number, sample in enumerate(ijson.items(handle, "samples.item", use_float=True), start=1):
                yield f"sample {number}", sample

    return header, samples()


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    with path.open("rb") as handle:
        zipped = handle.read(4) == ZIP_MAGIC
    header, samples = _zip_samples(path, on_error) if zipped else _json_samples(path)
    spec = json_object(header.get("eval"))
    for where, sample in samples:
        if not isinstance(sample, dict):
            on_error(InputError(f"{where} is not a JSON object", file=str(path)))
            continue
        yield from _sample_calls(sample, spec, path)
