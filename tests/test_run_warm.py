"""Acceptance: episodes served one after another by one warm OpenClaw worker (sandboxed) stay apart.

`ec2audit run --parallel 1` runs two episodes of one task, cloud-only, through one warm worker. The cloud
is a scripted stand-in served here (not a frontier model): in the first episode it has OpenClaw's `exec`
tool plant a canary everywhere an episode can write (its workspace, HOME, TMPDIR, /tmp, /dev/shm, /dev,
the sandbox's root and /etc) and leave a process behind that keeps writing it; it ends the turn with the
canary in its answer, so it is in that episode's session history too. In the second episode it has
`exec` look for the canary in every one of those places. Everything the second episode sent to the cloud
(through the real interceptor) and everything in its folder must be free of the canary, while the first
episode's own payloads and folder do hold it (so the test can fail).
"""

from __future__ import annotations

import json
import threading
import uuid

import polars as pl
import pytest
from click.testing import CliRunner
from starlette.applications import Starlette
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from ec2audit.cli import main
from ec2audit.intercept.server import serve_in_thread
from ec2audit.intercept.store import RecordStore
from ec2audit.run.sse import completion_json, sse_chunks

pytestmark = pytest.mark.openclaw

TASK = "office-hr-notice-101"
PLACES = ("canary.txt", "$HOME/canary", "$TMPDIR/canary", "/tmp/canary", "/dev/shm/canary", "/dev/canary",
          "/canary", "/etc/canary")


def _plant(canary: str) -> str:
    writes = "; ".join(f'echo {canary} > "{p}"' for p in PLACES)
    return (f"{writes}; (while true; do echo {canary} > /tmp/late; echo {canary} > \"$HOME/late\"; sleep 0.1; done)"
            " >/dev/null 2>&1 & echo planted; true")


def _probe(canary: str) -> str:
    """Looks everywhere the plant wrote; the canary is never spelled out, so only a find can put it here."""
    reads = " ".join(f'"{p}"' for p in PLACES)
    head, tail = canary[:6], canary[6:]
    return (f'c={head}; c="$c"{tail}; cat {reads} /tmp/late 2>&1; ls -la / /tmp /dev /dev/shm .. 2>&1; '
            'grep -rl "$c" /episode /tmp /dev/shm /etc 2>&1; ps -eo pid,args 2>&1; echo probed; true')


def _scripted_cloud(canary: str):
    """A stand-in cloud: the first turn it sees plants, every later one probes; after the tool ran it answers."""
    planted = threading.Event()

    async def chat(request):
        body = await request.json()
        results = [m for m in body["messages"] if m.get("role") == "tool"]
        if results:  # the plant's answer keeps the canary in the first episode's session history
            message = {"role": "assistant", "content": f"finished {canary}" if "planted" in json.dumps(results)
                       else "finished"}
        else:
            command = _probe(canary) if planted.is_set() else _plant(canary)
            planted.set()
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": f"call_{uuid.uuid4().hex[:8]}", "type": "function",
                "function": {"name": "exec", "arguments": json.dumps({"command": command})}}]}
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        if body.get("stream"):
            return StreamingResponse(sse_chunks(message, usage, "scripted"), media_type="text/event-stream")
        return JSONResponse(completion_json(message, usage, "scripted"))

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])


def _folder_bytes(folder) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


@pytest.fixture(scope="module")
def two_episodes(tmp_path_factory):
    canary = f"CANARY{uuid.uuid4().hex}"
    url, stop = serve_in_thread(_scripted_cloud(canary))
    out = tmp_path_factory.mktemp("warm") / "run"
    try:
        result = CliRunner().invoke(main, ["run", "--edge", "oracle", "--cloud", url + "/v1", "--cloud-model",
                                           "scripted", "--strategy", "cloud-only", "--tasks", TASK, "--runs", "2",
                                           "--out", str(out)], catch_exceptions=False)
    finally:
        stop()
    rows = sorted(pl.read_parquet(out / "episodes.parquet").to_dicts(), key=lambda r: r["worker_episode"])
    return result, out, canary, rows


def test_one_worker_served_both_episodes(two_episodes):
    result, out, _, rows = two_episodes
    assert result.exit_code == 0, result.output
    assert [r["status"] for r in rows] == ["ok", "ok"]
    assert [(r["launch"], r["worker_episode"]) for r in rows] == [("warm-worker", 1), ("warm-worker", 2)]
    assert json.loads((out / "run.json").read_text())["launch"] == "warm-worker"
    assert json.loads(rows[0]["isolation"])["filesystem"] == "episode"


def test_the_second_episode_finds_nothing_of_the_first(two_episodes):
    _, out, canary, (first, second) = two_episodes
    store = RecordStore(out / "cloud.sqlite")
    sent = {r["episode_id"]: json.dumps([c.request for c in store.records(r["episode_id"])])
            for r in (first, second)}
    assert canary in sent[first["episode_id"]]  # the plant's command and answer went to the cloud
    assert "probed" in sent[second["episode_id"]]  # the probe ran and its output reached the cloud ...
    assert canary not in sent[second["episode_id"]]  # ... without a trace of the first episode
    folders = {r["episode_id"]: out / "episodes" / r["episode_id"] for r in (first, second)}
    assert canary.encode() in (folders[first["episode_id"]] / "workspace" / "canary.txt").read_bytes()
    assert canary.encode() not in _folder_bytes(folders[second["episode_id"]])
    assert not list((out / "workers" / "w0").iterdir())  # both episodes moved out of the worker


def test_closing_the_pool_hands_late_files_to_their_episode_and_keeps_any_other(tmp_path):
    """OpenClaw can write at an episode's old path in the worker after the episode moved out (its exit
    handlers reopen a state database by path): once the worker ended, that file joins the episode's folder
    under `after-turn/` and the empty folders go; a folder of no moved-out episode stays, to be seen."""
    from ec2audit.run.warm import WorkerPool

    pool = WorkerPool(tmp_path / "workers", tmp_path / "episodes", 1, None, "http://127.0.0.1:9")
    w0 = tmp_path / "workers" / "w0"
    (tmp_path / "episodes" / "t.cloud-only.r0" / "workspace").mkdir(parents=True)
    (w0 / "t.cloud-only.r0" / "state" / "state").mkdir(parents=True)
    (w0 / "t.cloud-only.r0" / "state" / "state" / "openclaw.sqlite").write_bytes(b"late")
    (w0 / "t.cloud-only.r0" / "state" / "empty").mkdir()
    kept = w0 / "t.cloud-only.r1" / "state"  # never moved out: not this episode's late write
    kept.mkdir(parents=True)
    (kept / "sessions.json").write_text("{}")
    pool.close()
    late = tmp_path / "episodes" / "t.cloud-only.r0" / "after-turn" / "state" / "state" / "openclaw.sqlite"
    assert late.read_bytes() == b"late"
    assert [p.name for p in w0.iterdir()] == ["t.cloud-only.r1"]
    assert (kept / "sessions.json").read_text() == "{}"
