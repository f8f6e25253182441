"""ec2audit inside a LiteLLM proxy: a guardrail that redacts or blocks sensitive units, and a logger that
writes each call to ec2audit's record store (so `ec2audit intercept audit` / `report` read it).

LiteLLM loads it from its config.yaml (README: "LiteLLM guardrail"):

    guardrails:
      - guardrail_name: ec2audit
        litellm_params:
          guardrail: ec2audit.gateway.litellm_guardrail.Ec2auditGuardrail
          mode: [pre_call, post_call]
          default_on: true
          units: /path/to/units.jsonl
          enforce: redact            # observe | redact | block
          store: /path/to/gateway.sqlite

What each enforce mode does is the interceptor's own policy (`ec2audit.intercept.policy`): the
request body LiteLLM is about to send is handed to it as an exchange, exactly as the proxy does.
Hooks: `pre_call` audits, redacts or refuses before anything leaves; `during_call` audits or refuses
beside the upstream call (LiteLLM runs it in parallel, so the request has already left: block there
only stops the answer); `post_call` and the streaming hook put the values back into answers. Every
call is written to the store by the logging hooks (a refused one when it is refused), the request as
it reached the provider.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from pathlib import Path

from fastapi import HTTPException
from litellm.integrations.custom_guardrail import CustomGuardrail
from litellm.types.guardrails import GuardrailEventHooks

from ec2audit.detect.finding import MOSTLY
from ec2audit.intercept.dialects import get_dialect
from ec2audit.intercept.lanes import ScanLanes
from ec2audit.intercept.policy import POLICIES, Exchange, Failure, json_bytes
from ec2audit.intercept.record import COMPLETE, ProxyRecord
from ec2audit.intercept.redact import Redactor
from ec2audit.intercept.store import RecordStore
from ec2audit.units import read_units

log = logging.getLogger("ec2audit.gateway")

#: LiteLLM call types → the wire API whose body the hooks receive.
CALL_APIS = {"acompletion": "openai-chat", "completion": "openai-chat", "aresponses": "openai-responses",
             "responses": "openai-responses", "anthropic_messages": "anthropic-messages"}
_PATHS = {"openai-chat": "/v1/chat/completions", "openai-responses": "/v1/responses",
          "anthropic-messages": "/v1/messages"}
#: Keys LiteLLM adds to a request's data for itself (never sent to the provider as they are). On chat
#: completions `metadata` is LiteLLM's own (the client's is merged into it and not forwarded); on the
#: Responses and Anthropic routes LiteLLM keeps its own in `litellm_metadata` and forwards `metadata`.
_LITELLM_KEYS = frozenset({"litellm_metadata", "proxy_server_request", "secret_fields", "litellm_call_id",
                           "litellm_logging_obj", "shared_session", "deployment", "litellm_trace_id", "stream_options",
                           "model"})
_EPISODE_HEADER = "x-ec2-episode"


def _body(data: dict, api: str) -> dict:
    """What of LiteLLM's request data is the wire API's payload."""
    return {k: v for k, v in data.items() if k not in _LITELLM_KEYS and not k.startswith("_")
            and not (k == "metadata" and api == "openai-chat")}


def _episode(data: dict) -> str | None:
    for key in ("metadata", "litellm_metadata"):
        headers = (data.get(key) or {}).get("headers") or {}
        if isinstance(headers, dict) and headers.get(_EPISODE_HEADER):
            return str(headers[_EPISODE_HEADER])
    return None


def _as_dict(obj) -> dict | None:
    if isinstance(obj, dict):
        return obj
    dump = getattr(obj, "model_dump", None)
    return dump(mode="json", exclude_none=False) if callable(dump) else None


def _rebuilt(like, payload: dict):
    """`payload` as an object of `like`'s type (LiteLLM streams pydantic objects or plain dicts)."""
    if isinstance(like, dict):
        return payload
    return type(like).model_validate(payload) if hasattr(type(like), "model_validate") else type(like)(**payload)


def _sse(name: str | None, data) -> bytes:
    head = f"event: {name}\n".encode() if name else b""
    return head + b"data: " + json.dumps(data, ensure_ascii=False).encode() + b"\n\n"


class Ec2auditGuardrail(CustomGuardrail):
    """LiteLLM `CustomGuardrail` + `CustomLogger` running ec2audit's inline audit and enforce policies."""

    def __init__(self, units: str, enforce: str = "redact", store: str | None = None,
                 block_grade: float = MOSTLY, **kwargs):
        known = {"guardrail_name", "event_hook", "default_on"}
        super().__init__(**{k: v for k, v in kwargs.items() if k in known})
        if enforce not in POLICIES:
            raise ValueError(f"ec2audit guardrail: enforce must be one of {', '.join(POLICIES)}, not {enforce!r}")
        hooks = kwargs.get("event_hook") or []
        hooks = [hooks] if isinstance(hooks, str) else list(hooks)
        if enforce == "redact" and GuardrailEventHooks.during_call.value in hooks:
            raise ValueError("ec2audit guardrail: redact needs mode pre_call (during_call runs beside the upstream "
                             "call, after the request has left)")
        self.units = read_units(units)
        self.redactor = Redactor.for_units(self.units, enforce != "observe")
        self.lanes = ScanLanes(self.redactor)  # scans off LiteLLM's event loop, as in the proxy
        self.policy = POLICIES[enforce](self.lanes, float(block_grade))
        self.store = RecordStore(Path(store)) if store else None
        self.exchanges: dict[str, Exchange] = {}  # litellm_call_id → the exchange its hooks share

    # --- guardrail hooks -------------------------------------------------------------------------

    async def async_pre_call_hook(self, user_api_key_dict, cache, data: dict, call_type):
        if self.should_run_guardrail(data=data, event_type=GuardrailEventHooks.pre_call) is True:
            await self._enforce(data, call_type, rewrite=True)
        return data

    async def async_moderation_hook(self, data: dict, user_api_key_dict, call_type):
        if self.should_run_guardrail(data=data, event_type=GuardrailEventHooks.during_call) is True:
            await self._enforce(data, call_type, rewrite=False)

    async def _enforce(self, data: dict, call_type, rewrite: bool) -> None:
        api = CALL_APIS.get(str(call_type))
        if api is None:  # embeddings, images, …: no chat payload to audit
            return
        call_id = str(data.get("litellm_call_id") or uuid.uuid4().hex)
        body = _body(data, api)
        episode = _episode(data)
        record = ProxyRecord(id=call_id, episode=episode, ts=time.time(), api=api, path=_PATHS[api],
                             model=data.get("model"), stream=bool(data.get("stream")), request=body)
        ex = Exchange(record, get_dialect(api), episode, time.perf_counter(), body=body, raw=json_bytes(body))
        self.exchanges[call_id] = ex
        try:
            await self.policy.before_forward(ex)
        except Failure as failure:
            self.exchanges.pop(call_id, None)
            record.status, record.error = failure.status, failure.message
            record.request = {**body, "model": data.get("model")}
            self._write(ex)
            raise HTTPException(status_code=failure.status, detail={"error": failure.message, **failure.extra}) \
                from None
        if rewrite and ex.body is not None and ex.body is not body:
            data.update(ex.body)

    async def async_post_call_success_hook(self, data: dict, user_api_key_dict, response):
        ex = self.exchanges.get(str(data.get("litellm_call_id")))
        payload = _as_dict(response)
        if ex is None or payload is None:
            return response
        restored = self.policy.on_response(ex, payload)
        return response if restored is None else _rebuilt(response, restored)

    async def async_post_call_streaming_iterator_hook(self, user_api_key_dict, response, request_data: dict):
        ex = self.exchanges.get(str(request_data.get("litellm_call_id")))
        if ex is None:
            async for item in response:
                yield item
            return
        rest = b""
        async for item in response:
            if isinstance(item, bytes | str):  # Anthropic /v1/messages: the provider's SSE bytes
                raw = rest + (item.encode() if isinstance(item, str) else item)
                *frames, rest = raw.replace(b"\r\n", b"\n").split(b"\n\n")
                out = b"".join(self._sse_event(ex, frame) for frame in frames)
                if out:
                    yield out if isinstance(item, bytes) else out.decode()
                continue
            payload = _as_dict(item)
            if payload is None:
                yield item
                continue
            name = payload.get("type") if isinstance(payload.get("type"), str) else None
            events = self.policy.on_stream_event(ex, name, payload)
            if events is None:
                yield item
                continue
            for _, event in events:
                yield _rebuilt(item, event) if isinstance(event, dict) else event
        if rest.strip():
            yield rest

    def _sse_event(self, ex: Exchange, event: bytes) -> bytes:
        name, data = None, []
        for line in event.split(b"\n"):
            if line.startswith(b"event:"):
                name = line[6:].strip().decode()
            elif line.startswith(b"data:"):
                data.append(line[5:].strip())
        try:
            payload = json.loads(b"\n".join(data)) if data else None
        except ValueError:
            payload = None
        rewritten = self.policy.on_stream_event(ex, name, payload) if payload is not None else None
        if rewritten is None:
            return event + b"\n\n"
        return b"".join(_sse(n, p) for n, p in rewritten)

    # --- logging hooks ---------------------------------------------------------------------------

    async def async_log_success_event(self, kwargs, response_obj, start_time, end_time):
        await self._log(kwargs, response_obj, None)

    async def async_log_failure_event(self, kwargs, response_obj, start_time, end_time):
        await self._log(kwargs, response_obj, str(kwargs.get("exception") or "call failed")[:500])

    async def _log(self, kwargs: dict, response_obj, error: str | None) -> None:
        ex = self.exchanges.pop(str(kwargs.get("litellm_call_id")), None)
        if ex is None or self.store is None:
            return
        record = ex.record
        if ex.scan is not None:  # observe: the audit ran beside the call
            try:
                record.findings = await ex.scan
            except Exception:
                log.exception("inline audit failed for call %s", record.id)
                error = error or "inline audit failed"
        slp = kwargs.get("standard_logging_object") or {}
        record.status, record.error, record.response = 200 if error is None else 500, error, _as_dict(response_obj)
        record.input_tokens, record.output_tokens = slp.get("prompt_tokens"), slp.get("completion_tokens")
        record.cost_usd, record.request = slp.get("response_cost"), {**(ex.body or {}), "model": record.model}
        record.latency_ms = (time.perf_counter() - ex.t0) * 1000
        self._write(ex)

    def _write(self, ex: Exchange) -> None:
        if self.store is None:
            return
        ex.record.state = COMPLETE
        try:
            self.store.add(ex.record)
        except Exception:  # a store failure must not fail the user's call; it is loud in the log
            log.exception("could not record call %s", ex.record.id)

