"""`make demo`: generate a small bilingual example (units + cloud-bound payloads) and audit it."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console

from ec2audit.audit import audit_file
from ec2audit.files import write_table
from ec2audit.report.terminal import print_audit
from ec2audit.synth import make_payloads, make_units, write_jsonl
from ec2audit.units import write_units


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("demo-out"))
    args = parser.parse_args(argv)
    console = Console()
    args.out.mkdir(parents=True, exist_ok=True)
    units = make_units(60, 2, seed=7)
    records, _ = make_payloads(units, 60_000, seed=7)
    write_units(units, args.out / "units.jsonl")
    write_jsonl(records, args.out / "payloads.jsonl")
    console.print(f"[bold]ec2audit demo[/]: {len(units)} synthetic units (en + zh, Faker), "
                  f"{len(records)} cloud-bound requests → {args.out}")
    result = audit_file(args.out / "payloads.jsonl", units)
    findings = write_table(result.findings_frame(), args.out / "findings.parquet")
    print_audit(result, console)
    console.print(f"findings: {findings}\nrerun: ec2audit audit {args.out}/payloads.jsonl "
                  f"--units {args.out}/units.jsonl")


if __name__ == "__main__":
    main()
