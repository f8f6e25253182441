"""What reading texts across messages (`intercept/fields._join_messages`) costs the guard's inline audit: one
process, the same bodies detected with the join and without it (the join replaced by a no-op), alternating, lowest
of the rounds. The bodies are an agent's conversations: a user turn, then tool calls whose results (tool output
of `--size` characters with the third walk's record in it) come back one after the other, as Chat, Responses and
Anthropic send them.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/guard_joins.py [--messages 40] [--size 2000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_intercept_forms_walk_3 import RECORD, UNITS  # noqa: E402

from ec2audit.detect.cascade import Cascade  # noqa: E402
from ec2audit.intercept import fields  # noqa: E402
from ec2audit.intercept.redact import Redactor  # noqa: E402


def _output(i: int, size: int) -> str:
    """A tool result: build log lines, the record's line in the middle of one of them."""
    line = f"[{i:04d}] step {i} compiled module_{i}.o in 0.{i % 97:02d}s; cache hit ratio 0.{i % 89:02d}. "
    text = (line * (size // len(line) + 1))[:size]
    return text[:size // 2] + "; ".join(f"{k}: {v}" for k, v in RECORD.items()) + text[size // 2:] if i % 5 == 0 \
        else text


def bodies(messages: int, size: int) -> dict[str, dict]:
    outputs = [_output(i, size) for i in range(messages)]
    calls = [{"id": f"call_{i}", "type": "function", "function": {"name": "run", "arguments": "{}"}}
             for i in range(messages)]
    return {
        "chat": {"messages": [{"role": "user", "content": "Build it."},
                              {"role": "assistant", "content": None, "tool_calls": calls},
                              *({"role": "tool", "tool_call_id": f"call_{i}", "content": o}
                                for i, o in enumerate(outputs))]},
        "responses": {"input": [{"role": "user", "content": "Build it."},
                                *({"type": "function_call", "call_id": f"call_{i}", "name": "run", "arguments": "{}"}
                                  for i in range(messages)),
                                *({"type": "function_call_output", "call_id": f"call_{i}", "output": o}
                                  for i, o in enumerate(outputs))]},
        "anthropic": {"messages": [{"role": "user", "content": "Build it."},
                                   {"role": "assistant", "content": [{"type": "tool_use", "id": f"t{i}", "name": "run",
                                                                      "input": {}} for i in range(messages)]},
                                   {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{i}",
                                                                 "content": o} for i, o in enumerate(outputs)]}]},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=40)
    parser.add_argument("--size", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    joined = fields._join_messages
    off = lambda items, out, visit, path: None  # noqa: E731
    redactor = Redactor(Cascade(UNITS))
    work = bodies(args.messages, args.size)
    best = {(api, mode): float("inf") for api in work for mode in ("without", "with")}
    found = {}
    for _ in range(args.rounds):
        for mode, join in (("without", off), ("with", joined)):
            fields._join_messages = join
            for api, body in work.items():
                redactor.cascade._cache.clear()  # every text scanned anew, as a new request's would be
                start = time.process_time()
                rows = redactor.detect(body).rows
                best[(api, mode)] = min(best[(api, mode)], time.process_time() - start)
                found[(api, mode)] = len(rows)
    fields._join_messages = joined
    print(f"{args.messages} tool results of {args.size} characters, lowest of {args.rounds} rounds (CPU)")
    for api in work:
        before, after = best[(api, "without")], best[(api, "with")]
        print(f"{api}: without the join {before * 1000:.1f} ms, with it {after * 1000:.1f} ms ({after / before:.2f}×); "
              f"findings {found[(api, 'without')]} → {found[(api, 'with')]}")


if __name__ == "__main__":
    main()
