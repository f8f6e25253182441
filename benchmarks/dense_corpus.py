"""Throughput of `ec2audit audit --jobs 1` on a dense request log, with each registered matcher, against `rg -F -f`.

The corpus is built from the project's own hand-written leak sets (tests/data/leaks-*, and the shared
leaks-dev set when present): an OpenAI Chat Completions request log (JSONL, one call per line) where
every call sends one case text as the user turn and a tool result of three other case texts, each tool
result made distinct by its record number, so the per-text cache never answers. Every unit of every set
is audited against every call (no task map): many candidates per segment, the dense case.

Each matcher runs the CLI in its own child process (`EC2AUDIT_MATCHER`); CPU time (user + system) and
peak RSS are the child's, so MB/s per core covers the whole audit: start, parsing, scanning, writing.
ripgrep, when installed, scans the same file for the same values (as JSON writes them) in the same run.
With `--baseline REV` the same audit runs first on that commit of the code (`git archive`), and the
findings of every run — on the dense corpus and on each hand-written set, one call per case — must hash
the same as the baseline's ("findings identical: yes"); a speed change never changes a finding.

    nice .venv/bin/python benchmarks/dense_corpus.py [--mb 16] [--baseline REV] [--single 1 2 4 8] [--profile 2]
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import json
import os
import pstats
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ec2audit.detect.matchers import ENVIRONMENT, available

REPO = Path(__file__).resolve().parents[1]
#: The CLI in a child that writes its own peak RSS (VmHWM, kB) to $EC2AUDIT_BENCH_PEAK at exit: a child's
#: `ru_maxrss` starts at its parent's RSS when forked (Linux keeps it across exec), so after this process
#: has read a large findings file, `wait4` reported its size, not the audit's (8 MB: 264 MB for 206).
_CLI = ("import atexit, os\nfrom ec2audit.cli import main\n"
        "atexit.register(lambda: open(os.environ['EC2AUDIT_BENCH_PEAK'], 'w').write(next(\n"
        "    line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM'))))\nmain()")


def leak_sets(shared: Path | None) -> list[Path]:
    """The hand-written sets: tests/data/leaks-*, then `shared`/leaks-* (default: the checkout's ../shared)."""
    shared = shared or REPO.parent / "shared"
    return sorted((REPO / "tests" / "data").glob("leaks-*")) + sorted(shared.glob("leaks-*"))


def write_corpus(sets: list[Path], folder: Path, mb: float, seed: int = 34) -> tuple[Path, Path, Path]:
    """units.jsonl (every set's units, task ids prefixed by the set), corpus.jsonl (≈ `mb` MB) and
    values.txt (each unit value as the corpus's JSON writes it, for ripgrep)."""
    units, texts = [], []
    for s in sets:
        for line in (s / "units.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                units.append({**json.loads(line), "task_id": f"{s.name}-{json.loads(line)['task_id']}"})
        texts += [json.loads(line)["text"] for line in (s / "cases.jsonl").read_text(encoding="utf-8").splitlines()
                  if line.strip()]
    (folder / "units.jsonl").write_text("".join(json.dumps(u, ensure_ascii=False) + "\n" for u in units),
                                        encoding="utf-8")
    values = dict.fromkeys(json.dumps(u["value"], ensure_ascii=False)[1:-1] for u in units)
    (folder / "values.txt").write_text("".join(v + "\n" for v in values if v), encoding="utf-8")
    rng, budget, n = random.Random(seed), int(mb * 1_000_000), 0
    corpus = folder / "corpus.jsonl"
    with corpus.open("w", encoding="utf-8") as out:
        while out.tell() < budget:
            n += 1
            tool = "\n\n".join(rng.sample(texts, 3)) + f"\n\n(record {n})"
            messages = [{"role": "system", "content": "You are an operations assistant. Use the tools."},
                        {"role": "user", "content": rng.choice(texts)},
                        {"role": "assistant", "content": None, "tool_calls": [{"id": f"call_{n}", "type": "function",
                         "function": {"name": "lookup_records", "arguments": json.dumps({"page": n})}}]},
                        {"role": "tool", "tool_call_id": f"call_{n}", "content": tool}]
            record = {"id": f"req-{n}", "url": "https://api.openai.com/v1/chat/completions",
                      "session_id": f"s{n % 16}", "request": {"model": "gpt-5.4", "messages": messages}}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return folder / "units.jsonl", corpus, folder / "values.txt"


def measured(command: list[str], env: dict[str, str] | None = None, tree: Path = REPO) -> tuple[float, float, bytes]:
    """(CPU seconds, peak RSS in MB, stdout) of one child process, run in `tree`: `python -c` puts the working
    directory first on the path, so that is the code it imports, whatever PYTHONPATH says. The peak is the
    one the child writes (`_CLI`), else `ru_maxrss` (an upper bound: see `_CLI`)."""
    with tempfile.NamedTemporaryFile(prefix="ec2audit-peak-") as peak:
        env = {**(os.environ if env is None else env), "EC2AUDIT_BENCH_PEAK": peak.name}
        child = subprocess.Popen(command, env=env, cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        stdout = child.stdout.read() if child.stdout else b""
        _, status, usage = os.wait4(child.pid, 0)
        written = Path(peak.name).read_text().strip()
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):  # 1: leaks found
        raise SystemExit(f"{command[0]} exited {child.returncode}")
    return usage.ru_utime + usage.ru_stime, int(written) / 1024 if written else usage.ru_maxrss / 1024, stdout


def handwritten_corpora(sets: list[Path], folder: Path) -> list[tuple[Path, Path]]:
    """(corpus, units) per hand-written set: each case text one call of its own (a user turn), read against
    all the set's units."""
    out = []
    for s in sets:
        corpus = folder / f"{s.name}.jsonl"
        cases = [json.loads(line) for line in (s / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line]
        corpus.write_text("".join(json.dumps({
            "id": case["case_id"], "url": "https://api.openai.com/v1/chat/completions", "session_id": case["case_id"],
            "request": {"model": "gpt-5.4", "messages": [{"role": "user", "content": case["text"]}]}},
            ensure_ascii=False) + "\n" for case in cases), encoding="utf-8")
        out.append((corpus, s / "units.jsonl"))
    return out


def findings_digest(findings: Path) -> tuple[int, str]:
    """(count, SHA-256 of the sorted lines) of a findings file: equal digests, identical findings."""
    lines = sorted(findings.read_bytes().splitlines())
    return len(lines), hashlib.sha256(b"\n".join(lines)).hexdigest()


def identical(digests: dict[str, list[tuple[int, str]]]) -> bool:
    """Print whether every run's digests equal the first run's (a line per run that differs)."""
    (first, reference), *others = digests.items()
    differ = [name for name, found in others if found != reference]
    for name in differ:
        print(f"  {name} differs from {first}: {digests[name]} against {reference}")
    print(f"findings identical: {'no' if differ else 'yes'} ({', '.join(digests)}; dense corpus and "
          f"{len(reference) - 1} hand-written sets)")
    return not differ


def baseline_tree(rev: str, folder: Path) -> Path:
    """The code of commit `rev`, exported (no checkout touched) for the 'before' run."""
    tree = folder / f"baseline-{rev}"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def audit_command(corpus: Path, units: Path, out: Path) -> list[str]:
    return [sys.executable, "-c", _CLI, "audit", str(corpus), "--units", str(units), "--jobs", "1", "--json",
            "--out", str(out)]


_SINGLE = """
import sys, time
from ec2audit.detect.cascade import build_cascade
from ec2audit.units import read_units
import ec2audit
print(ec2audit.__file__)
text = open(sys.argv[1], encoding="utf-8").read()
cascade = build_cascade(read_units(sys.argv[2]))
cascade.scan_text(text[-200_000:])  # warm-up on another text: lazy imports and first-use tables not in the 1 MB
for mb in map(float, sys.argv[3:]):
    start = time.process_time()
    hits = cascade.scan_text(text[:int(mb * 1e6)])
    print(mb, time.process_time() - start, len(hits))
"""


def write_single(sets: list[Path], path: Path, mb: float, seed: int = 35) -> None:
    """One long text of case texts (≈ `mb` MB of characters), each with its record number: one payload."""
    texts = [json.loads(line)["text"] for s in sets for line in (s / "cases.jsonl").read_text(encoding="utf-8")
             .splitlines() if line.strip()]
    rng, parts, size, n = random.Random(seed), [], 0, 0
    while size < mb * 1e6:
        n += 1
        parts.append(f"{rng.choice(texts)}\n\n(record {n})\n\n")
        size += len(parts[-1])
    path.write_text("".join(parts), encoding="utf-8")


def single_payload(tree: Path, text: Path, units: Path, sizes: tuple[float, ...]) -> str:
    """CPU seconds of `Cascade.scan_text` on the first `sizes` MB of one text (the scan of one payload, start
    and a warm-up scan of the text's end left out), in a child running the code of `tree`, with each doubling
    step's ratio."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    lines = subprocess.run([sys.executable, "-c", _SINGLE, str(text), str(units), *map(str, sizes)], env=env, cwd=tree,
                           check=True, capture_output=True, text=True).stdout.split("\n")
    if not lines.pop(0).startswith(str(tree)):
        raise SystemExit(f"the child did not import the code of {tree}")
    runs = [(float(mb), float(cpu), int(hits)) for mb, cpu, hits in (line.split() for line in lines if line)]
    steps = [f"{cpu:.2f} s ({hits} hits)" + (f", ×{cpu / runs[k - 1][1]:.2f}" if k else "")
             for k, (_, cpu, hits) in enumerate(runs)]
    return "; ".join(f"{mb:g} MB {step}" for (mb, _, _), step in zip(runs, steps, strict=True))


def matcher_alone(corpus: Path, units: Path) -> list[str]:
    """The engine's own share: each matcher's `PatternIndex.matches` over the text view of every message
    of the corpus (the dense case), and over one 8 MB text of the corpus's system prompt (sparse)."""
    from ec2audit.detect.cascade import build_cascade
    from ec2audit.detect.normalize import TextView
    from ec2audit.units import read_units

    texts = [TextView.of(m["content"]).text for line in corpus.open(encoding="utf-8")
             for m in json.loads(line)["request"]["messages"] if m.get("content")]
    dense_mb = sum(len(t.encode()) for t in texts) / 1e6
    sparse = ("You are an operations assistant. Use the tools. " * 170_000)[:8_000_000]
    lines, chosen = [], os.environ.get(ENVIRONMENT)
    for name in available():
        os.environ[ENVIRONMENT] = name
        index = build_cascade(read_units(units)).index
        start = time.process_time()
        found = sum(len(matches) for kinds in map(index.matches, texts) for matches in kinds.values())
        dense = time.process_time() - start
        start = time.process_time()
        index.matches(sparse)
        lines.append(f"{name} alone: dense {dense:.2f} s CPU ({dense_mb / dense:.0f} MB/s, {found} matches), "
                     f"sparse 8 MB text {time.process_time() - start:.3f} s CPU")
    if chosen is None:
        del os.environ[ENVIRONMENT]
    else:
        os.environ[ENVIRONMENT] = chosen
    return lines


def profile(corpus: Path, units: Path, out: Path, top: int = 25) -> str:
    """cProfile of the audit in this process: the top entries by own time, and by cumulative time."""
    from ec2audit.cli import main

    profiler = cProfile.Profile()
    profiler.enable()
    try:
        main(audit_command(corpus, units, out)[3:], standalone_mode=False)
    finally:
        profiler.disable()
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text).strip_dirs()
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return text.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=16, help="corpus size in MB (default 16)")
    parser.add_argument("--shared", type=Path, help="a folder with more leaks-* sets (default: ../shared)")
    parser.add_argument("--profile", type=float, metavar="MB", help="also profile the default matcher on MB of it")
    parser.add_argument("--baseline", metavar="REV", help="also run the code of this commit first, as 'before'")
    parser.add_argument("--default-only", action="store_true",
                        help="only the default matcher (and the baseline): a large corpus in half the time")
    parser.add_argument("--single", type=float, nargs="*", metavar="MB",
                        help="also time the scan of one payload of these sizes (e.g. 1 2 4 8)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="ec2audit-dense-"))
    try:
        sets = leak_sets(args.shared)
        units, corpus, values = write_corpus(sets, folder, args.mb)
        size = corpus.stat().st_size / 1e6
        n_units = sum(1 for _ in units.open(encoding="utf-8"))
        print(f"corpus: {size:.1f} MB, {sum(1 for _ in corpus.open(encoding='utf-8'))} calls, {n_units} units "
              f"from {', '.join(s.name for s in sets)}")
        tiny = folder / "tiny.jsonl"
        tiny.write_text(corpus.open(encoding="utf-8").readline(), encoding="utf-8")
        rg_cpu = None
        if shutil.which("rg"):
            rg_cpu, _, _ = measured(["rg", "-F", "-c", "-f", str(values), str(corpus)])
            print(f"rg -F -f: {rg_cpu:.2f} s CPU, {size / rg_cpu:.0f} MB/s")
        handwritten = handwritten_corpora(sets, folder)
        runs: list[tuple[str, Path, str | None]] = \
            [(f"{args.baseline} (before)", baseline_tree(args.baseline, folder), None)] if args.baseline else []
        runs += [(name, REPO, name) for name in available()[:1 if args.default_only else None]]
        digests: dict[str, list[tuple[int, str]]] = {}
        for label, tree, matcher in runs:
            env = {**os.environ, "PYTHONPATH": str(tree)}
            env.pop(ENVIRONMENT, None)
            if matcher:
                env[ENVIRONMENT] = matcher
            # start-up: the audit of one call, first with the caches this tree fills (compiled units, Vectorscan
            # databases) as they were, then with them filled: what every later audit of these units pays
            first_cpu, *starts = (measured(audit_command(tiny, units, folder / "tiny.out.jsonl"), env, tree)[0]
                                  for _ in range(3))
            start_cpu = min(starts)
            out = folder / "findings.jsonl"
            cpu, rss, _ = measured(audit_command(corpus, units, out), env, tree)
            digests[label] = [findings_digest(out)]
            for case_corpus, case_units in handwritten:
                measured(audit_command(case_corpus, case_units, out), env, tree)
                digests[label].append(findings_digest(out))
            ratio = f", {cpu / rg_cpu:.0f}× rg" if rg_cpu else ""
            print(f"{label}: {cpu:.1f} s CPU ({start_cpu:.2f} s of it to start; the first start {first_cpu:.2f} s), "
                  f"{size / cpu:.2f} MB/s per core, "
                  f"peak {rss:.0f} MB, {digests[label][0][0]} findings{ratio}")
        if not args.default_only:
            print("\n".join(matcher_alone(corpus, units)))
        same = identical(digests)
        if args.single:
            text = folder / "single.txt"
            write_single(sets, text, max(args.single))
            for label, tree, matcher in runs:
                if matcher not in (None, available()[0]):  # the baseline and ours, each with its default
                    continue
                print(f"single payload, {label}: {single_payload(tree, text, units, tuple(args.single))}")
        if args.profile:
            small = folder / "small.jsonl"
            with corpus.open(encoding="utf-8") as lines, small.open("w", encoding="utf-8") as out_file:
                for line in lines:
                    if out_file.tell() >= args.profile * 1e6:
                        break
                    out_file.write(line)
            print(f"\nprofile of {available()[0]} on {small.stat().st_size / 1e6:.1f} MB:")
            print(profile(small, units, folder / "profile.jsonl"))
        return 0 if same else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
