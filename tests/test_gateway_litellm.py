"""The ec2audit guardrail inside a real LiteLLM proxy process (`litellm --config` on loopback) with the
scripted stand-in cloud API behind it: values replaced before they leave and put back into answers
(plain and streamed, Chat Completions, Responses, Anthropic Messages), every call in ec2audit's store
for `intercept audit`, and `gateway-check` through it."""

import json
import os
import re
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import openai
import pytest
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.gateway.check import PROBE_UNITS
from ec2audit.gateway.positions import POSITIONS
from ec2audit.intercept.redact import PLACEHOLDER
from ec2audit.intercept.server import serve_in_thread
from ec2audit.intercept.standin import create_app as create_standin
from ec2audit.intercept.store import RecordStore
from ec2audit.units import write_units

pytestmark = pytest.mark.litellm
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # LiteLLM's price map from its wheel, not the web

LITELLM = str(Path(sys.executable).parent / "litellm")
VALUES = [u.value for u in PROBE_UNITS]
SECRET = "Call Margaret Okonkwo (欧阳娜娜) on 13922883366, mail margaret.okonkwo@northwind-health.com."


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _config(path: Path, upstream_port: int, units: Path, store: Path) -> None:
    path.write_text(f"""
model_list:
  - model_name: echo
    litellm_params: {{model: openai/echo, api_base: "http://127.0.0.1:{upstream_port}/v1", api_key: sk-none}}
  - model_name: tool-echo
    litellm_params: {{model: openai/tool-echo, api_base: "http://127.0.0.1:{upstream_port}/v1", api_key: sk-none}}
  - model_name: claude-echo
    litellm_params: {{model: anthropic/echo, api_base: "http://127.0.0.1:{upstream_port}", api_key: sk-none}}
guardrails:
  - guardrail_name: ec2audit
    litellm_params:
      guardrail: ec2audit.gateway.litellm_guardrail.Ec2auditGuardrail
      mode: [pre_call, post_call]
      default_on: true
      units: {units}
      enforce: redact
      store: {store}
""")


@pytest.fixture(scope="module")
def litellm_proxy(tmp_path_factory):
    """A LiteLLM proxy with the ec2audit guardrail (redact), forwarding to 127.0.0.1:upstream_port."""
    work = tmp_path_factory.mktemp("litellm")
    units, store, config = work / "units.jsonl", work / "gateway.sqlite", work / "config.yaml"
    write_units(PROBE_UNITS, units)
    upstream_port, port = _free_port(), _free_port()
    _config(config, upstream_port, units, store)
    key = f"sk-{uuid.uuid4().hex}"
    env = {**os.environ, "LITELLM_MASTER_KEY": key, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    log = work / "litellm.log"
    proc = subprocess.Popen([LITELLM, "--config", str(config), "--host", "127.0.0.1", "--port", str(port)],
                            cwd=work, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 240
    while True:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health/liveliness", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"LiteLLM did not start: {log.read_text()[-3000:]}")
        time.sleep(1)
    yield {"url": f"http://127.0.0.1:{port}/v1", "key": key, "upstream_port": upstream_port, "units": units,
           "store": store}
    proc.kill()
    proc.wait()


@pytest.fixture
def upstream(litellm_proxy):
    app = create_standin()
    _, stop = serve_in_thread(app, port=litellm_proxy["upstream_port"])
    yield app
    stop()


def _sent(app) -> str:
    return json.dumps([r["body"] for r in app.state.requests], ensure_ascii=False)


def _sse_text(body: str, key: str) -> str:
    """The text deltas of an SSE answer (Anthropic `text`, Responses `delta`)."""
    out = []
    for line in body.splitlines():
        if line.startswith("data:") and line[5:].strip() not in ("", "[DONE]"):
            event = json.loads(line[5:])
            delta = event.get("delta")
            if isinstance(delta, dict) and isinstance(delta.get(key), str):
                out.append(delta[key])
            elif event.get("type") == "response.output_text.delta":
                out.append(delta)
    return "".join(out)


def test_values_leave_as_placeholders_and_come_back_in_every_api(litellm_proxy, upstream):
    client = openai.OpenAI(base_url=litellm_proxy["url"], api_key=litellm_proxy["key"], max_retries=0)
    answers = {}
    messages = [{"role": "user", "content": SECRET}]
    answers["chat"] = client.chat.completions.create(model="echo", messages=messages).choices[0].message.content
    answers["chat stream"] = "".join(c.choices[0].delta.content or "" for c in client.chat.completions.create(
        model="echo", messages=messages, stream=True) if c.choices)
    call = client.chat.completions.create(model="tool-echo", messages=messages).choices[0].message.tool_calls[0]
    answers["tool call"] = json.loads(call.function.arguments)["text"]
    answers["responses"] = client.responses.create(model="echo", input=SECRET).output_text
    answers["responses stream"] = "".join(e.delta for e in client.responses.create(model="echo", input=SECRET,
                                                                                  stream=True)
                                          if e.type == "response.output_text.delta")
    headers = {"x-api-key": litellm_proxy["key"], "anthropic-version": "2023-06-01"}
    body = {"model": "claude-echo", "max_tokens": 100, "messages": messages}
    reply = httpx.post(litellm_proxy["url"] + "/messages", json=body, headers=headers, timeout=60).json()
    answers["messages"] = reply["content"][0]["text"]
    streamed = httpx.post(litellm_proxy["url"] + "/messages", json={**body, "stream": True}, headers=headers,
                          timeout=60)
    answers["messages stream"] = _sse_text(streamed.text, "text")

    sent = _sent(upstream)
    assert len(upstream.state.requests) == 7
    assert [v for v in VALUES if v in sent] == []  # no value reached the provider …
    assert len(set(PLACEHOLDER.findall(sent))) == 4  # … its placeholders did (name, name_zh, phone, email)
    for name, answer in answers.items():  # … and every answer reads with the real values again
        assert SECRET in answer, (name, answer)
        assert not PLACEHOLDER.search(answer), (name, answer)


def test_calls_are_recorded_for_intercept_audit(litellm_proxy, upstream, tmp_path):
    client = openai.OpenAI(base_url=litellm_proxy["url"], api_key=litellm_proxy["key"], max_retries=0)
    tag = uuid.uuid4().hex
    client.chat.completions.create(model="echo", messages=[{"role": "user", "content": f"{tag} {SECRET}"}])
    store = RecordStore(litellm_proxy["store"])
    deadline = time.monotonic() + 20  # LiteLLM runs its logging callbacks after the answer
    while not (mine := [r for r in store.records() if tag in json.dumps(r.request, ensure_ascii=False)]):
        assert time.monotonic() < deadline, "the call was never recorded"
        time.sleep(0.2)
    record = mine[0]
    assert record.api == "openai-chat" and record.state == "complete" and record.status == 200
    assert record.redactions == 4 and record.input_tokens > 0
    assert {f["unit_id"] for f in record.findings} == {"gateway-check/P1/name", "gateway-check/P1/name_zh",
                                                           "gateway-check/P1/phone", "gateway-check/P1/email"}
    assert not [v for v in VALUES if v in json.dumps(record.request, ensure_ascii=False)]
    # the store is ec2audit's: `intercept audit` re-audits what reached the provider (placeholders only)
    result = CliRunner().invoke(main, ["intercept", "audit", str(litellm_proxy["store"]), "--units",
                                       str(litellm_proxy["units"]), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output[result.output.index("{"):])
    assert summary["findings"] == 0, summary


def test_gateway_check_through_litellm_finds_no_value_upstream(litellm_proxy):
    """Every position but the split value (two strings to any per-string detector)."""
    positions = [a for p in POSITIONS if p != "form.split" for a in ("--position", p)]
    os.environ["EC2_TEST_LITELLM_KEY"] = litellm_proxy["key"]
    result = CliRunner().invoke(main, ["gateway-check", litellm_proxy["url"], "--upstream-port",
                                       str(litellm_proxy["upstream_port"]), "--gateway-key-env",
                                       "EC2_TEST_LITELLM_KEY", "--model", "anthropic-messages=claude-echo",
                                       "--json", *positions])
    matrix = json.loads(result.output)
    verdicts = {(c["position"], c["api"], c["stream"]): c["verdict"] for c in matrix["cells"]}
    assert [k for k, v in verdicts.items() if v in ("leaked", "error")] == []
    assert result.exit_code == 0
    # LiteLLM itself does not forward client headers nor chat `metadata`: those cells are `dropped`
    assert {k for k, v in verdicts.items() if v == "dropped"} >= {("header", "openai-chat", False)}
    assert sum(v == "redacted" for v in verdicts.values()) > 100
    assert re.search(r"^\{", result.output)


# --- the guardrail's hooks as LiteLLM calls them, for the modes the proxy test above does not run ----

def _guardrail(tmp_path, enforce: str, mode):
    from ec2audit.gateway.litellm_guardrail import Ec2auditGuardrail

    units = tmp_path / "units.jsonl"
    write_units(PROBE_UNITS, units)
    return Ec2auditGuardrail(units=str(units), enforce=enforce, store=str(tmp_path / "gateway.sqlite"),
                             guardrail_name="ec2audit", event_hook=mode, default_on=True)


def _data(call_id: str) -> dict:
    """Request data as LiteLLM hands it to a guardrail on /v1/messages (its own keys beside the body)."""
    return {"model": "claude-echo", "max_tokens": 50, "litellm_call_id": call_id,
            "messages": [{"role": "user", "content": SECRET}], "metadata": {"user_id": "13922883366"},
            "litellm_metadata": {"headers": {"user-agent": "test"}}}


def test_block_refuses_before_anything_leaves_and_records_it(tmp_path):
    import asyncio

    from fastapi import HTTPException

    guardrail = _guardrail(tmp_path, "block", ["pre_call"])
    with pytest.raises(HTTPException) as refused:
        asyncio.run(guardrail.async_pre_call_hook(None, None, _data("call-block"), "anthropic_messages"))
    assert refused.value.status_code == 403
    assert "13922883366" not in json.dumps(refused.value.detail)  # unit ids, never values
    assert set(refused.value.detail["units"]) == {"gateway-check/P1/name", "gateway-check/P1/name_zh",
                                                  "gateway-check/P1/phone", "gateway-check/P1/email"}
    (record,) = RecordStore(tmp_path / "gateway.sqlite").records()
    assert record.status == 403 and record.api == "anthropic-messages"
    assert "user-agent" not in json.dumps(record.request)  # LiteLLM's own keys are not the payload


def test_redact_reaches_anthropic_metadata_and_refuses_during_call(tmp_path):
    import asyncio

    data = _data("call-redact")
    asyncio.run(_guardrail(tmp_path, "redact", ["pre_call"]).async_pre_call_hook(None, None, data,
                                                                                  "anthropic_messages"))
    assert [v for v in VALUES if v in json.dumps(data, ensure_ascii=False)] == []
    assert PLACEHOLDER.fullmatch(data["metadata"]["user_id"])
    with pytest.raises(ValueError, match="redact needs mode pre_call"):
        _guardrail(tmp_path, "redact", ["during_call"])


def test_observe_changes_nothing_and_logs_the_findings(tmp_path):
    import asyncio

    guardrail = _guardrail(tmp_path, "observe", ["pre_call"])
    data = _data("call-observe")
    before = json.dumps(data, ensure_ascii=False)

    async def call():
        await guardrail.async_pre_call_hook(None, None, data, "anthropic_messages")
        await guardrail.async_log_success_event({"litellm_call_id": "call-observe", "standard_logging_object": {
            "prompt_tokens": 12, "completion_tokens": 3, "response_cost": None}}, {"content": []}, None, None)

    asyncio.run(call())
    assert json.dumps(data, ensure_ascii=False) == before
    (record,) = RecordStore(tmp_path / "gateway.sqlite").records()
    assert record.input_tokens == 12 and record.redactions == 0
    assert {f["unit_id"] for f in record.findings} == {"gateway-check/P1/name", "gateway-check/P1/name_zh",
                                                          "gateway-check/P1/phone", "gateway-check/P1/email"}
    assert {f["path"] for f in record.findings} == {"/messages/0/content", "/metadata/user_id"}
