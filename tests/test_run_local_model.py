"""The real local llama.cpp model (SmolLM2-135M) as edge: one OpenClaw episode, and the gateway paths
that depend on a real model (JSON-schema constrained replies, first-token logprobs, difficulty rating).

A 135M model rarely solves a task, so this checks the plumbing users rely on, not the score: the
default edge is the local model and says so, OpenClaw's real prompt reaches it through the gateway
(JSON-schema constrained), tokens and FLOPs are recorded, and the episode ends with a status.
The `test_smoke_…` tests prove only that the real model answered over HTTP; what the routers decide on
given answers is tested deterministically in test_run_routers.py, the constrained schema in test_run_gateway.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import openai
import polars as pl
import pytest
from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.intercept.server import serve_in_thread
from ec2audit.localmodel import LocalModelServer
from ec2audit.run.gateway import Endpoint, EpisodeState, Gateway
from ec2audit.run.oracle_model import OracleModel, create_app
from ec2audit.run.routers import parse_router

pytestmark = [pytest.mark.model_server, pytest.mark.openclaw]

TOOLS = json.loads((Path(__file__).parent / "data" / "run" / "openclaw_tools.json").read_text())


def test_one_episode_with_the_local_model_as_edge(tmp_path):
    """Bounded by model calls, not seconds: a loaded machine makes it slower, never a failure. The deadline
    is only a backstop against a hang (it is far above what three calls take even on a busy 2-core machine)."""
    out = tmp_path / "local"
    result = CliRunner().invoke(main, ["run", "--strategy", "edge-only", "--tasks", "office-hr-notice-101",
                                       "--tasks-root", str(Path(__file__).resolve().parents[1] / "tasks"),
                                       "--max-model-calls", "3", "--timeout", "1200", "--out", str(out)])
    assert result.exit_code == 0, result.output
    row = pl.read_parquet(out / "episodes.parquet").to_dicts()[0]
    assert "local llama.cpp default" in row["edge_model"] and "stand-in" in row["cloud_model"]
    assert row["status"] in ("ok", "budget"), row["error"]
    assert 1 <= row["edge_calls"] <= 3
    assert row["edge_input_tokens"] > 1000  # OpenClaw's own prompt, tokenised
    assert row["edge_flops"] == 2 * 135e6 * (row["edge_input_tokens"] + row["edge_output_tokens"])
    assert row["cloud_calls"] == 0 and row["exposure"] == 0
    assert json.loads(row["criteria"])  # the real checker scored the final workspace


@pytest.fixture(scope="module")
def local_gateway():
    """The gateway with the real local model as edge (constrained) and the oracle stand-in as cloud."""
    server = LocalModelServer()
    edge_url = server.start()
    cloud = OracleModel("oracle")
    cloud_url, stop_cloud = serve_in_thread(create_app(cloud))
    gateway = Gateway(Endpoint(edge_url, server.model_name, params=135e6, constrain=True),
                      Endpoint(cloud_url + "/e/{episode}/v1", "oracle-stand-in"))
    url, stop = serve_in_thread(gateway.app)
    yield gateway, url, cloud
    stop()
    stop_cloud()
    server.stop()


def _ask(url: str, episode: str) -> tuple[str, list]:
    client = openai.OpenAI(base_url=f"{url}/e/{episode}/v1", api_key="x", max_retries=0)
    stream = client.chat.completions.create(
        model="strategy", tools=TOOLS, stream=True,
        messages=[{"role": "system", "content": "You are an agent working on files."},
                  {"role": "user", "content": "Read the file notes.txt."}])
    content, calls = "", []
    for chunk in stream:
        for choice in chunk.choices:
            content += choice.delta.content or ""
            calls += [c.function.name for c in choice.delta.tool_calls or []]
    return content, calls


def test_smoke_constrained_local_model_answers_over_http_within_the_tools(local_gateway):
    gateway, url, _ = local_gateway
    state = gateway.open(EpisodeState("lm-edge", "edge-only", "Read the file notes.txt."))
    content, calls = _ask(url, "lm-edge")
    assert calls or content
    assert set(calls) <= {t["function"]["name"] for t in TOOLS}  # never a name outside the request's tools
    assert state.edge_calls[0]["input_tokens"] > 0 and not state.errors


def test_smoke_entropy_probe_reads_logprobs_over_http(local_gateway):
    gateway, url, cloud = local_gateway
    cloud.register("lm-probe", {"steps": [{"tool": "read", "arguments": {"path": "notes.txt"}}], "final": "ok"})
    state = gateway.open(EpisodeState("lm-probe", "step-router", "Read the file notes.txt.",
                                      router=parse_router("entropy:0", "lm-probe", "step")))
    _, calls = _ask(url, "lm-probe")
    assert state.router.last_entropy > 0  # a real first-token distribution, above τ = 0
    assert state.routes == ["cloud"] and calls == ["read"]
    assert [c["purpose"] for c in state.edge_calls] == ["probe"]


def test_smoke_llm_router_asks_the_local_model_over_http_once_per_episode(local_gateway):
    gateway, url, cloud = local_gateway
    cloud.register("lm-route", {"steps": [{"tool": "read", "arguments": {"path": "notes.txt"}}], "final": "ok"})
    state = gateway.open(EpisodeState("lm-route", "query-router", "Read the file notes.txt.",
                                      router=parse_router("llm", "lm-route")))
    _ask(url, "lm-route")
    _ask(url, "lm-route")
    assert state.side in ("edge", "cloud") and state.routes == [state.side] * 2
    assert [c["purpose"] for c in state.edge_calls].count("route") == 1
