"""The README's commands as a user copies them: every `ec2audit …` it shows parses (its subcommands and
options exist), and those that run offline (audit, units, tasks, --help) run on shipped data and succeed.
Placeholders (PAYLOADS.jsonl, UNITS.jsonl, DIR, ID …) are replaced by real files; optional parts are kept."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from ec2audit.annotate.recognizers.zh_pii import resident_id_ok
from ec2audit.cli import main
from ec2audit.cli.judge import review
from ec2audit.synth import make_payloads, make_units, write_jsonl
from ec2audit.units import make_unit, write_acebench, write_units

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
#: Subcommands that need no network, server, OpenClaw or model: these examples are run, not only parsed.
OFFLINE = {"audit", "units", "tasks", "--help"}


def _bash_commands() -> list[tuple[int, str]]:
    """(line, command) of each `ec2audit` line in the README's bash blocks, continuations joined."""
    out, inside, pending = [], False, ""
    for number, line in enumerate(README.splitlines(), start=1):
        if line.startswith("```"):
            inside = line.strip() == "```bash"
            continue
        if not inside:
            continue
        text = pending + re.sub(r"\s+#.*$", "", line).strip()
        pending = ""
        if text.endswith("\\"):
            pending = text[:-1] + " "
            continue
        if text.startswith("ec2audit "):
            out.append((number, text))
    return out


def _inline_commands() -> list[tuple[int, str]]:
    """(line, command) of each `ec2audit …` code span in the README's prose."""
    return [(README.count("\n", 0, m.start()) + 1, m.group(1)) for m in re.finditer(r"`(ec2audit [^`]+)`", README)]


def _argv(command: str, files: dict[str, str]) -> list[str]:
    """The command's arguments with optional parts kept, the first of alternatives, placeholders filled."""
    text = command.removeprefix("ec2audit ").replace("…", "").replace("...", "")
    text = re.sub(r"\(([^()|]+?)\s*\|[^()]*\)", r"\1", text)  # (--units units.jsonl | --discover)
    text = text.replace("[", " ").replace("]", " ")
    args = []
    for token in shlex.split(text):
        token = token.split("|")[0] if re.fullmatch(r"[\w.-]+(\|[\w.-]+)+", token) else token  # e5|minilm
        args.append(files.get(token, token))
    return args


def _command_of(args: list[str]) -> tuple[click.Command, list[str]]:
    """The click command the leading words name (`tasks list`, `judge review push`), and the words used."""
    command, path = main, []
    for word in args:
        if isinstance(command, click.Group) and (sub := command.get_command(click.Context(command), word)):
            command = sub  # `main` loads a command's module when asked for it (cli/__init__.py)
        elif command.name == "judge" and word == "review":  # routed by `judge` itself (cli/judge.py)
            command = review
        else:
            break
        path.append(word)
    return command, path


@pytest.mark.parametrize(("line", "command"), _bash_commands() + _inline_commands())
def test_every_command_the_readme_shows_exists_with_its_options(line, command):
    args = _argv(command, {})
    found, path = _command_of(args)
    assert path or args == ["--help"], f"README.md:{line}: no command {args[0]!r}"
    known = {"--help", "-h"} | {opt for p in found.params for opt in (*p.opts, *p.secondary_opts)}
    options = {a.split("=")[0] for a in args if a.startswith("-")}
    assert options <= known, f"README.md:{line}: {command}: `ec2audit {' '.join(path)}` has no {options - known}"
    if isinstance(found, click.Group):  # a group named alone: its subcommands must be listed
        assert CliRunner().invoke(main, [*path, "--help"]).exit_code == 0


@pytest.fixture
def shipped(tmp_path):
    """Real inputs for the placeholders: synthetic units and the cloud-bound requests that carry some."""
    units = make_units(12, 2, seed=3)
    records, _ = make_payloads(units, 20_000, seed=3)
    write_units(units, tmp_path / "units.jsonl")
    write_jsonl(records, tmp_path / "payloads.jsonl")
    acebench = tmp_path / "acebench"
    acebench.mkdir()
    data = REPO / "tests" / "data" / "acebench"
    shutil.copy(data / "office_notify.md", acebench)
    shutil.copytree(data / "office_notify", acebench / "office_notify")
    write_acebench(units, tmp_path / "gt")
    return tmp_path, {"PAYLOADS.jsonl": "payloads.jsonl", "UNITS.jsonl": "units.jsonl", "UNITS": "units.jsonl",
                      "PAYLOADS": "payloads.jsonl", "ID": "office-hr-notice-101", "OUT": "out"}


def test_the_offline_examples_run_as_written(shipped, monkeypatch):
    folder, files = shipped
    monkeypatch.chdir(folder)
    ran = []
    for line, command in _bash_commands():
        args = _argv(command, files)
        if args[0] not in OFFLINE:
            continue
        if args[:2] == ["units", "import-acebench"]:
            args[2] = "gt"  # what `units export-acebench` writes (the README's next line)
        if args[:2] == ["tasks", "import-acebench"]:
            args[2] = "acebench"
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, f"README.md:{line}: ec2audit {' '.join(args)}\n{result.output}"
        ran.append(args[:2])
    assert ["audit", "payloads.jsonl"] in ran and ["units", "check"] in ran and ["tasks", "show"] in ran
    assert Path("findings.parquet").is_file()  # `[--out findings.parquet]`, kept


def test_the_readme_unit_example_is_a_valid_unit_with_a_valid_id():
    block = re.search(r"```json\n(.*?)```", README, re.S).group(1)
    unit = make_unit(json.loads(block))
    assert unit.dimension == "government_id" and resident_id_ok(unit.value)


def test_the_library_examples_run_as_written(shipped, monkeypatch, capsys):
    folder, _ = shipped
    monkeypatch.chdir(folder)
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})  # noqa: S102 — the README's own code, as a user runs it
    assert "exposure" in capsys.readouterr().out and Path("findings.parquet").is_file()
