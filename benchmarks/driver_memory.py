"""Driver peak RSS of `ec2audit audit --out` on a generated corpus: the CLI run in this process, its
own peak (`RUSAGE_SELF`: worker processes and Ray actors not counted), with the wall time and the
findings count. The corpus (`log_audit.generate`: OpenClaw transcripts, a file per session) is
written to `--corpus` when that folder is missing, so an older checkout can be measured on the same
files (run it with PYTHONPATH pointing there). The corpus is made as `ray_scale.py` makes its own.

    nice .venv/bin/python benchmarks/driver_memory.py --corpus /tmp/c16 --mb 16 --jobs 2 [--ray]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--mb", type=float, default=16)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ray", action="store_true", help="a new local Ray cluster of --jobs CPUs")
    args = parser.parse_args()
    if not args.corpus.exists():
        from log_audit import generate

        from ec2audit.synth import make_units
        from ec2audit.units import write_units

        units = make_units(3385, 100, seed=0)  # as ray_scale.py: transcripts only, a file per session
        generate(args.corpus / "logs", units, args.mb + 20)
        shutil.rmtree(args.corpus / "logs" / "proxy")
        write_units(units, args.corpus / "units.jsonl")
    from click.testing import CliRunner

    from ec2audit.cli import main as cli

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / ("ray" if args.ray else "findings.parquet")
        command = ["audit", str(args.corpus / "logs"), "--units", str(args.corpus / "units.jsonl"), "--json",
                   "--jobs", str(args.jobs), "--out", str(out)] + (["--ray"] if args.ray else [])
        start = time.perf_counter()
        result = CliRunner().invoke(cli, command, catch_exceptions=False)
        wall = time.perf_counter() - start
    summary = json.loads(result.stdout)
    size = sum(p.stat().st_size for p in (args.corpus / "logs").rglob("*") if p.is_file())
    print(f"{'ray' if args.ray else 'processes'} x{args.jobs}: {size / 1e6:.0f} MB, {summary['findings']} findings, "
          f"{summary['calls']} calls, wall {wall:.1f} s, driver peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB (exit {result.exit_code})")


if __name__ == "__main__":
    main()
