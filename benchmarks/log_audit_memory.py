"""Peak memory and time of `ec2audit audit` on a few MB of agent logs, this tree against a baseline commit.

Generates (in a temporary directory, never the repository) `--mb` MB of OpenClaw transcripts as
`benchmarks/log_audit.py` builds them (synthetic episodes, cumulative contexts), plus one
single-line JSON file of `--json-mb` MB (a JSON array of conversations on one line, the shape that
ran out of time before). Each configuration runs
the CLI in a fresh process, for this tree and for the baseline commit (`git archive`d to a temporary
directory), and reports its peak RSS (`wait4`) and wall time.

    .venv/bin/python benchmarks/log_audit_memory.py [--mb 5] [--json-mb 50] [--baseline 293cd96]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.log_audit import _transcript
from ec2audit.synth import make_payloads, make_units
from ec2audit.units import write_units

ROOT = Path(__file__).resolve().parent.parent


def _transcripts(folder: Path, megabytes: float, units) -> int:
    """OpenClaw transcripts of synthetic episodes (as `log_audit.py` writes them) up to `megabytes`."""
    folder.mkdir(parents=True)
    size, chunk = 0, 0
    while size < megabytes * 1e6:
        records, _ = make_payloads(units, 2_000_000, seed=chunk)
        last = {r["episode"]: r for r in records}
        for episode, record in last.items():
            session = f"{episode.replace('#', '-')}-c{chunk}"
            path = folder / f"{session}.jsonl"
            path.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n"
                                    for e in _transcript(session, record["request"]["messages"])), encoding="utf-8")
            size += path.stat().st_size
            if size >= megabytes * 1e6:
                break
        chunk += 1
    return size


def _single_line_json(path: Path, megabytes: float, units) -> None:
    """A JSON array of conversations on one line, values of `units` in some tool results."""
    rng = random.Random(7)
    filler = ("Traceback (most recent call last):\n  File \"/srv/app/main.py\", line 42, in handler\n"
              "    return process(request)\nValueError: bad input\n") * 4
    with path.open("w", encoding="utf-8") as out:
        out.write("[")
        size, n = 0, 0
        while size < megabytes * 1e6:
            unit = rng.choice(units)
            conversation = {"id": f"conv-{n}", "metadata": {"model": "openai/gpt-4o"}, "messages": [
                {"role": "user", "content": f"Look into ticket {n}."},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": f"c{n}", "type": "function", "function": {"name": "read", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": f"c{n}", "content": f"{filler}owner: {unit.value}\n"},
                {"role": "assistant", "content": "Done."}]}
            text = ("," if n else "") + json.dumps(conversation, ensure_ascii=False)
            out.write(text)
            size += len(text)
            n += 1
        out.write("]")


def _run(pythonpath: Path, args: list[str]) -> tuple[float, float, float, int]:
    """Peak RSS (MB), wall seconds, CPU seconds (user + system: the shared VM's load swings wall time) and exit
    code of one CLI run in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    started = time.perf_counter()
    # -P: without it `-c` puts the working directory first on sys.path, and a run from the checkout imports
    # the checkout's ec2audit whatever PYTHONPATH says (every "baseline" was this tree before)
    process = subprocess.Popen([sys.executable, "-P", "-c", "from ec2audit.cli import main; main()", *args], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    return (usage.ru_maxrss / 1024, time.perf_counter() - started, usage.ru_utime + usage.ru_stime,
            os.waitstatus_to_exitcode(status))


def _check_imports(tree: Path) -> None:
    """Fail unless a run with `tree` on PYTHONPATH imports that tree's ec2audit (not an installed one)."""
    imported = subprocess.run([sys.executable, "-P", "-c", "import ec2audit; print(ec2audit.__file__)"],
                              env={**os.environ, "PYTHONPATH": str(tree)}, check=True, capture_output=True,
                              text=True).stdout.strip()
    if not Path(imported).is_relative_to(tree):
        raise SystemExit(f"a run for {tree} imports {imported}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=5.0)
    parser.add_argument("--json-mb", type=float, default=50.0)
    parser.add_argument("--baseline", default="293cd96", help="commit to compare with")
    parser.add_argument("--presidio", action="store_true", help="also run --discover with Presidio (slow)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="ec2audit-memory-"))
    try:
        units = make_units(400, 20, seed=0)
        write_units(units, work / "units.jsonl")
        size = _transcripts(work / "openclaw", args.mb, units)
        baseline = work / "baseline"
        baseline.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.baseline, "ec2audit", "annotations"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(baseline)], input=archive, check=True)
        for tree in (baseline, ROOT):
            _check_imports(tree)
        print(f"{size / 1e6:.1f} MB of OpenClaw transcripts, {len(units)} units; baseline {args.baseline}", flush=True)
        runs = [("--units", [str(work / "openclaw"), "--units", str(work / "units.jsonl"), "--json"]),
                ("--discover --no-presidio", [str(work / "openclaw"), "--discover", "--no-presidio", "--json"])]
        if args.presidio:
            runs.append(("--discover (Presidio)", [str(work / "openclaw"), "--discover", "--json"]))
        for name, cli in runs:
            for label, tree in (("baseline", baseline), ("ours", ROOT)):
                rss, wall, cpu, code = _run(tree, ["audit", *cli])
                print(f"{name:26} {label:8}: peak RSS {rss:7.1f} MB, {wall:6.1f} s wall, {cpu:6.1f} s CPU, "
                      f"exit {code}", flush=True)
        if args.json_mb:
            _single_line_json(work / "one-line.json", args.json_mb, units)
            one = work / "one-line.json"
            rss, wall, cpu, code = _run(ROOT, ["audit", str(one), "--units", str(work / "units.jsonl"), "--json"])
            print(f"single-line JSON {one.stat().st_size / 1e6:.0f} MB, --units ours: peak RSS {rss:7.1f} MB, "
                  f"{wall:6.1f} s wall, {cpu:6.1f} s CPU, exit {code} (the baseline does not read .json files)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
