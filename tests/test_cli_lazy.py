"""The CLI loads what the command it runs needs: a command's module only when that command runs or help lists
it, and an audit of given units not the annotate recognizers, which only discovery reads, nor numpy, which only
texts of 4,096 characters or more need (start-up time)."""

import json
import subprocess
import sys

from click.testing import CliRunner
from test_audit_cli import REQUEST, UNITS

from ec2audit.cli import main
from ec2audit.units import write_units

#: runs the CLI with the arguments after it, then prints the CLI's modules, the annotate modules and numpy's it loaded
_LOADED = ("import sys\nfrom ec2audit.cli import main\n"
           "try:\n    main(sys.argv[1:])\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
           "print(sorted(m for m in sys.modules if m.startswith(('ec2audit.cli.', 'ec2audit.annotate', 'numpy'))))")


def _loaded(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", _LOADED, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1].replace("'", '"'))


def test_an_audit_of_units_loads_no_other_command_no_recognizer_and_no_numpy(tmp_path):
    write_units(UNITS, tmp_path / "units.jsonl")
    log = tmp_path / "payloads.jsonl"
    log.write_text(json.dumps({"id": "req-1", "task_id": "t1", "request": REQUEST}, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    out = tmp_path / "findings.jsonl"
    loaded = _loaded("audit", str(log), "--units", str(tmp_path / "units.jsonl"), "--json", "--out", str(out))
    assert loaded == ["ec2audit.cli._otlp", "ec2audit.cli.audit"]
    assert {json.loads(line)["unit_id"] for line in out.read_text(encoding="utf-8").splitlines()} >= {
        UNITS[0].id}  # the audit ran
    discovered = _loaded("audit", str(log), "--discover", "--no-presidio", "--json")
    assert "ec2audit.annotate.recognizers.person" in discovered


def test_help_lists_every_command_and_each_runs_its_own_help():
    listed = CliRunner().invoke(main, ["--help"])
    assert listed.exit_code == 0, listed.output
    names = [line.split()[0] for line in listed.output.split("Commands:\n")[1].splitlines() if line.strip()]
    assert names == sorted(names) and {"audit", "gateway-check", "intercept", "judge", "run"} <= set(names)
    for name in names:
        result = CliRunner().invoke(main, [name, "--help"])
        assert result.exit_code == 0 and f"Usage: main {name}" in result.output, (name, result.output)
    assert CliRunner().invoke(main, ["no-such-command"]).exit_code == 2
