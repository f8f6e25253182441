"""AceBench's cloud audit (`cloud_assistant_audit.jsonl`): what its edge-cloud strategies sent to the cloud model, the
file its privacy score is judged on. Its cloud-assistant proxy, advisor plugin and step router each append one line a
call: `{timestamp, model, input, output, prompt_tokens, completion_tokens, total_tokens, cache_read_tokens,
cache_write_tokens, latency_ms, query | session_id, …}`, `input` the messages sent (OpenAI's shape; the step router's
without the system prompt), the token counts flat as the OpenAI-compatible usage had them (cache reads and writes
within `prompt_tokens`). `eval/run_batch.py` collects it into `output/<category>/<task id>/<run>/`: the task is the
folder above the run's, and each run (episode) is one session, as AceBench scores it. A copy taken out of a
container by hand (`docker cp …:/tmp/cloud_assistant_audit.jsonl .`) is in no run folder: its folders name no task,
so its session is the step router's `session_id` where a line has one, else the file's name, and its task unknown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs.base import OnError, first_record, read_jsonl
from ec2audit.logs.openai_log import to_payload
from ec2audit.payloads import Payload

name = "acebench-cloud-audit"
_KEYS = {"input", "output", "prompt_tokens", "completion_tokens", "latency_ms"}
#: The grader's log collected beside it (`llm_judge.jsonl`, one line a call of its LLM judges, the privacy judge's
#: holding every sensitive value of the task): AceBench's own calls, not the agent's, so not audited unless asked.
GRADER = "AceBench's LLM-judge log: the grader's calls, not the agent's (--format openai-log audits them)"
_GRADER_KEYS = {"type", "model", "messages", "output", "error", "latency_ms"}
#: The line `eval/privacy_rejudge.py` appends to it when the privacy judge runs on the host (deferred, as in
#: cloud-only runs): the judge's request under `input`.
_HOST_GRADER_KEYS = {"type", "input", "output", "error", "elapsed_ms"}
#: The token summary `eval/run_batch.py` writes into every run's folder (`cal_cost`), beside the run's logs.
USAGE = "AceBench's token summary of its run (counts read from its transcript, no requests): not a log"
#: What else AceBench's grader leaves in a run's folder (`utils/grading.py`), by name: no requests.
RUN_FILES = {"usage.json": USAGE,
             "score.json": "AceBench's grades of its run (`utils/grading.py`): not a log",
             "privacy_judge_deferred.json": "AceBench's input to its deferred privacy judge (the task's sensitive "
                                            "values and the agent's text, for its grader): not a log"}


def sniff(path: Path, head: bytes) -> bool:
    record = first_record(head)
    return record is not None and _KEYS <= record.keys() and isinstance(record.get("input"), list)


def run_of(path: Path) -> tuple[str, str] | None:
    """(task id, run) of a file AceBench collected into a run's output folder (`output/<category>/<task id>/<run>/`,
    where `eval/run_batch.py` writes `usage.json` for every run: the OpenClaw transcript `chat.jsonl` beside it is
    that run's agent); None elsewhere."""
    folder = path.parent
    return (folder.parent.name, folder.name) if (folder / "usage.json").is_file() else None


def run_file(path: Path) -> str | None:
    """What a file of a run's folder (one beside the run's transcript or cloud audit) that AceBench's grader writes is
    (`RUN_FILES`: its `usage.json`, `score.json`, `privacy_judge_deferred.json`); None for any other."""
    what = RUN_FILES.get(path.name)
    return what if what and any((path.parent / log).is_file()
                                for log in ("chat.jsonl", "cloud_assistant_audit.jsonl")) else None


def grader_log(head: bytes) -> bool:
    """Whether a file is AceBench's LLM-judge log (`utils/grading.py` writes it in the task's container;
    `eval/privacy_rejudge.py` appends the privacy judge's calls made on the host)."""
    record = first_record(head)
    return record is not None and (_GRADER_KEYS <= record.keys()
                                   or _HOST_GRADER_KEYS <= record.keys() and isinstance(record.get("input"), dict))


def _usage(record: dict) -> dict:
    def count(key: str) -> int:
        value = record.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0

    return {"prompt_tokens": count("prompt_tokens"), "completion_tokens": count("completion_tokens"),
            "total_tokens": count("total_tokens"), "prompt_tokens_details": {
                "cached_tokens": count("cache_read_tokens"), "cache_creation_tokens": count("cache_write_tokens")}}


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    run = run_of(path)
    steps: Counter = Counter()
    for number, record in read_jsonl(path, on_error):
        data = {"request": {"model": record.get("model"), "messages": record.get("input")},
                "task_id": run[0] if run else None, "session_id": "/".join(run) if run else record.get("session_id"),
                "usage": _usage(record), "timestamp": record.get("timestamp")}
        try:
            yield to_payload(data, f"{path.name}:{number}", path, number, steps)
        except InputError as exc:
            on_error(InputError(exc.reason, file=str(path), line=number, field=exc.field))
