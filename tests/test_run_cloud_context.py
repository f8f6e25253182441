"""`--cloud-context` reaches the episode: from the run's configuration through the episode runner, the
strategy gateway and the interceptor to what the cloud stand-in receives, and into the episode's record.

No OpenClaw (its acceptance tests are marked `openclaw`): the agent is the openai SDK sending the
conversation and running the read/write tool calls in the episode's folder, as `agent exec` does; the
edge and the cloud are the oracle stand-ins, the interceptor and the gateway the real ones.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import openai
import pytest
from click.testing import CliRunner

from ec2audit import resources
from ec2audit.cli import main
from ec2audit.run import episodes
from ec2audit.run.config import ModelSpec, RunConfig
from ec2audit.run.episodes import run_episode
from ec2audit.run.openclaw import AgentResult
from ec2audit.run.scheduler import open_episodes
from ec2audit.tasks import find_task

TOOLS = json.loads((Path(__file__).parent / "data" / "run" / "openclaw_tools.json").read_text())
TASK = "office-hr-notice-101"  # the oracle reads staff.csv (names, national IDs, phones, salaries)


def agent_exec(episode_dir: Path, instruction: str, base_url: str, timeout: int, *args, **kwargs) -> AgentResult:
    """One agent turn as OpenClaw takes it, without Node: the conversation and the tools to the gateway,
    each read/write it answers with run in the episode's workspace, until it answers in words."""
    workspace = episode_dir / "workspace"
    client = openai.OpenAI(base_url=base_url, api_key="unused", max_retries=0, timeout=timeout)
    messages = [{"role": "system", "content": "You are a personal assistant running inside OpenClaw."},
                {"role": "user", "content": instruction}]
    for step in range(10):
        content, calls = "", {}
        for chunk in client.chat.completions.create(model="strategy", messages=messages, tools=TOOLS, stream=True):
            for choice in chunk.choices:
                content += choice.delta.content or ""
                for call in choice.delta.tool_calls or []:
                    entry = calls.setdefault(call.index, {"id": call.id or f"call_{step}_{call.index}",
                                                          "name": "", "arguments": ""})
                    entry["name"] += call.function.name or ""
                    entry["arguments"] += call.function.arguments or ""
        if not calls:
            return AgentResult(0, {"ok": True, "final": content}, False, 0.0, "")
        messages.append({"role": "assistant", "content": content or None, "tool_calls": [
            {"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
            for c in calls.values()]})
        for c in calls.values():
            arguments = json.loads(c["arguments"])
            target = workspace / arguments["path"]
            if c["name"] == "write":
                target.write_text(arguments["content"], encoding="utf-8")
                result = f"Wrote {arguments['path']}"
            else:
                result = target.read_text(encoding="utf-8")
            messages.append({"role": "tool", "tool_call_id": c["id"], "content": result})
    return AgentResult(1, None, False, 0.0, "too many steps")


@pytest.fixture
def episodes_run(tmp_path, monkeypatch):
    """Run every episode of a configuration (edge-delegate under each cloud context) and give the records."""
    monkeypatch.setattr(episodes, "run_agent", agent_exec)
    task = find_task(TASK, resources.data("tasks"))

    def run(contexts: list[str]) -> dict[str, tuple]:
        config = RunConfig(tasks=[task], strategies=["edge-delegate"], out=tmp_path / "run", cloud_contexts=contexts,
                           edge=ModelSpec(url="oracle:delegating"), cloud=ModelSpec(url="oracle"),
                           warm_workers=False)
        config.out.mkdir(parents=True, exist_ok=True)
        out = {}
        with contextlib.ExitStack() as stack:
            ctx = open_episodes(config, config.out, stack, None, None)
            for spec in config.specs():
                record = run_episode(ctx, task, spec)
                records = ctx.store.records(spec.episode_id)
                # every cloud call names its task to the interceptor, so `intercept audit` scores it alone
                assert records and {r.task_id for r in records} == {task.id}
                sent = json.dumps([r.request for r in records], ensure_ascii=False)
                out[spec.cloud_context] = (record, sent)
        return out

    return task, run


def test_the_cloud_context_decides_what_the_cloud_receives_in_an_episode(episodes_run):
    task, run = episodes_run
    runs = run(["query", "head-tail", "full"])
    assert set(runs) == {"query", "head-tail", "full"}
    secrets = [u.value for u in task.units if u.dimension in ("government_id", "financial")]
    for context, (record, _sent) in runs.items():
        assert record.status == "ok" and record.completion == 1.0, (context, record.error)
        assert record.cloud_context == context and record.variant == f"edge-delegate[{context}]"
        assert record.asks >= 1 and record.cloud_calls >= 1  # the edge asked, the cloud was called
    query, full = runs["query"], runs["full"]
    assert not [s for s in secrets if s in query[1]] and query[0].exposure == 0.0  # the question only
    assert [s for s in secrets if s in full[1]] and full[0].exposure > 0.0  # the whole conversation
    assert len(runs["head-tail"][1]) < len(full[1])  # first request and latest steps: less than all of it


def test_the_cli_passes_its_cloud_contexts_to_the_run(monkeypatch, tmp_path):
    """`ec2audit run --cloud-context query --cloud-context full` makes one episode per context."""
    from ec2audit.run import scheduler

    seen = []

    def run(config, console=None, ray=None):
        seen.extend((s.strategy, s.cloud_context) for s in config.specs())
        raise SystemExit(0)

    monkeypatch.setattr(scheduler, "run", run)
    monkeypatch.setattr("ec2audit.run.config.preflight", lambda *a, **k: None)
    result = CliRunner().invoke(main, ["run", "--tasks", TASK, "--strategy", "edge-delegate", "--strategy",
                                       "cloud-only", "--cloud-context", "query", "--cloud-context", "full",
                                       "--edge", "oracle", "--out", str(tmp_path / "r"), "--no-sandbox"])
    assert result.exit_code == 0, result.output
    assert sorted(seen) == [("cloud-only", "full"), ("edge-delegate", "full"), ("edge-delegate", "query")]
