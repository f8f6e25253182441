"""tau-bench and tau2-bench results.

tau-bench writes a JSON array of `EnvRunResult`s (`task_id`, `reward`, `info`, `traj`, `trial`):
`traj` is the agent's OpenAI-format message list; the agent model is only in the file name
(`<strategy>-<model>-<temperature>_range_…`). tau2-bench writes `{info, tasks, simulations}`:
each simulation's `messages` (tool calls `{id, name, arguments}`, tool results naming the call by
`id`), the agent model in `info.agent_info.llm`. Each run is a session, one call per assistant
message; messages of the simulated user are what the agent received.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from ec2audit.errors import InputError
from ec2audit.logs.base import OnError, broken_json, json_values, outline
from ec2audit.logs.messages import conversation_calls, provider_of
from ec2audit.payloads import Payload

name = "tau-bench"
_FILE_MODEL = re.compile(r"^(?:tool-calling|act|react|few-shot)-(.+?)-\d+(?:\.\d+)?_range_")


def sniff(path: Path, head: bytes) -> bool:
    keys = outline(head)
    return "item.traj" in keys or "simulations.item.messages" in keys or "info.agent_info" in keys


def _tau2(document: dict, path: Path) -> Iterator[Payload]:
    info = given if isinstance(given := document.get("info"), dict) else {}
    agent = given if isinstance(given := info.get("agent_info"), dict) else {}
    provider, model = provider_of(agent.get("llm"))
    for number, simulation in enumerate(document.get("simulations") or [], start=1):
        if not isinstance(simulation, dict):
            continue
        messages = [{**m, "tool_call_id": m.get("id")} if isinstance(m, dict) and m.get("role") == "tool" else m
                    for m in simulation.get("messages") or []]
        session = f"task {simulation.get('task_id')} trial {simulation.get('trial', 0)}"
        yield from conversation_calls(messages, session=session, path=path, line=number, provider=provider,
                                      model=model, pid=str(simulation.get("id") or session))


def read(path: Path, on_error: OnError) -> Iterator[Payload]:
    import ijson

    match = _FILE_MODEL.match(path.name)
    provider, model = provider_of(match[1] if match else None)
    number = 0
    try:
        for number, item in enumerate(json_values(path), start=1):
            if isinstance(item, dict) and "simulations" in item:
                yield from _tau2(item, path)
            elif isinstance(item, dict) and isinstance(item.get("traj"), list):
                session = f"task {item.get('task_id')} trial {item.get('trial', 0)}"
                yield from conversation_calls(item["traj"], session=session, path=path, line=number,
                                              provider=provider, model=model)
            else:
                on_error(InputError("not a tau-bench result (no 'traj' list), skipped", file=str(path), line=number))
    except ijson.JSONError as exc:
        on_error(broken_json(path, number, exc))
