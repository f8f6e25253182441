"""No silent skips: every file under a path is read or named with its reason, and skipping exits 1."""

import json
import os
from pathlib import Path

from click.testing import CliRunner

from ec2audit.cli import main
from ec2audit.logs import find_logs, read_logs

DATA = Path(__file__).parent / "data" / "logs"
UNITS = DATA / "units.jsonl"
REQUESTS = (DATA / "requests" / "proxy-2026-11-04.jsonl").read_text(encoding="utf-8")
BRANCH = (DATA / "openclaw" / "3b9d6c1e-branch.jsonl").read_text(encoding="utf-8")


def _audit(*args):
    result = CliRunner().invoke(main, ["audit", *map(str, args)])
    return result, (json.loads(result.output[result.output.index("{\n"):]) if "--json" in args else None)


def _mixed(root: Path) -> Path:
    """A folder as people have them: logs in several encodings, a rotated transcript, and files that
    are not logs at all."""
    (root / "sessions").mkdir(parents=True)
    rotated = BRANCH.replace('"id": "3b9d6c1e-branch"', '"id": "old-session"', 1)
    (root / "sessions" / "old-session.jsonl.reset.2026-11-02T10-00-00.000Z").write_text(rotated, encoding="utf-8")
    (root / "utf16-bom.jsonl").write_text(REQUESTS.replace("crm-bot-42", "bom"), encoding="utf-16")
    (root / "utf16-nobom.log").write_bytes(REQUESTS.replace("crm-bot-42", "nobom").encode("utf-16-le"))
    latin = REQUESTS.replace("crm-bot-42", "latin").replace("Draft a follow-up", "Rédigez un suivi élégant")
    (root / "latin1.jsonl").write_bytes(latin.encode("cp1252"))
    (root / "README.md").write_text("# notes\nThese are my agent logs.\n")
    (root / "config.yaml").write_text("model: gpt-5.4\ntemperature: 0.2\n")
    (root / "empty.jsonl").write_bytes(b"")
    (root / "blank.json").write_text("\n  \n")
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    (root / ".hidden.jsonl").write_text(REQUESTS)
    (root / ".cache").mkdir()
    (root / ".cache" / "x.jsonl").write_text(REQUESTS)
    (root / "gone.jsonl").symlink_to(root / "nowhere.jsonl")
    return root


def test_mixed_folder_reads_every_log_and_names_every_other_file(tmp_path):
    root = _mixed(tmp_path / "logs")
    result, summary = _audit(root, "--units", UNITS, "--json")
    assert result.exit_code == 1
    skipped = {Path(f["file"]).name: f["reason"] for f in summary["skipped_files"]}
    assert set(skipped) == {"README.md", "config.yaml", "empty.jsonl", "blank.json", "logo.png", ".hidden.jsonl",
                            ".cache", "gone.jsonl"}
    assert skipped["empty.jsonl"] == "empty file" and "whitespace" in skipped["blank.json"]
    assert "not a known log format" in skipped["README.md"] and "openai-log" not in skipped["README.md"]
    assert "broken link" in skipped["gone.jsonl"] and "hidden" in skipped[".cache"]
    files = {Path(f["file"]).name: f for f in summary["files"]}
    assert files["old-session.jsonl.reset.2026-11-02T10-00-00.000Z"]["format"] == "openclaw-jsonl"
    assert files["utf16-bom.jsonl"]["encoding"] == "utf-16" and files["utf16-nobom.log"]["encoding"] == "utf-16-le"
    assert files["latin1.jsonl"]["encoding"] not in (None, "utf_8")
    sessions = {s["session"] for s in summary["sessions"]}
    assert {"old-session", "bom", "nobom", "latin"} <= sessions
    phones = {r["session"] for r in summary["leaked"] if r["unit_id"].endswith("/phone")}
    assert {"old-session", "bom", "nobom", "latin"} <= phones  # converted files are audited, not just listed
    latin_call = next(r for r in summary["leaked"] if r["session"] == "latin" and r["unit_id"].endswith("/name"))
    assert latin_call["first_call"] == "req-7f1"


def test_plain_output_lists_skips_and_never_reassures_when_nothing_was_read(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing here\n")
    (tmp_path / "empty.jsonl").write_bytes(b"")
    result, _ = _audit(tmp_path, "--units", UNITS)
    assert result.exit_code == 1
    assert "no sensitive unit reached a cloud call" not in result.output
    assert "nothing was read" in result.output
    assert "notes.txt" in result.output and "empty.jsonl: empty file" in result.output


def test_reassurance_only_after_cloud_calls_were_audited(tmp_path):
    (tmp_path / "clean.jsonl").write_text(json.dumps({"model": "gpt-5.4", "messages": [
        {"role": "user", "content": "What is the capital of France?"}]}) + "\n")
    result, _ = _audit(tmp_path, "--units", UNITS)
    assert result.exit_code == 0, result.output
    assert "no sensitive unit reached a cloud call (1 cloud call audited)" in result.output


def test_unreadable_folder_is_named(tmp_path, monkeypatch):
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "a.jsonl").write_text(REQUESTS)
    (tmp_path / "locked").mkdir()
    real = os.scandir

    def scandir(path="."):  # root can read any folder, so the refusal is simulated where the OS gives it
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    errors = []
    assert [Path(p).name for p in find_logs([tmp_path], errors.append)] == ["a.jsonl"]
    (error,) = errors
    assert str(error) == f"{tmp_path / 'locked'}: folder not read: Permission denied"


def test_trajectory_next_to_its_transcript_is_read_with_it(tmp_path):
    (tmp_path / "s1.jsonl").write_text(BRANCH)
    (tmp_path / "s1.trajectory.jsonl").write_text(
        (DATA / "trajectory" / "5d2e8f10-traj.trajectory.jsonl").read_text(encoding="utf-8"))
    result, summary = _audit(tmp_path, "--units", UNITS, "--json")
    assert result.exit_code == 0, result.output
    files = {Path(f["file"]).name: f for f in summary["files"]}
    assert files["s1.trajectory.jsonl"]["read_with"] == str(tmp_path / "s1.jsonl")
    assert not summary["skipped_files"]


def test_library_walk_raises_on_the_first_skip_without_a_handler(tmp_path):
    (tmp_path / "notes.txt").write_text("hello\n")
    try:
        list(read_logs([tmp_path]))
    except Exception as exc:  # noqa: BLE001
        assert "notes.txt" in str(exc) and "not a known log format" in str(exc)
    else:
        raise AssertionError("an unknown file passed silently")


def test_a_log_reached_twice_is_listed_once_where_first_reached(tmp_path):
    """Links, a folder named through a link to it, a file named beside its folder: one log each, listed
    where first reached; a hidden file or a trace named on its own is still read."""
    logs = tmp_path / "logs"
    (logs / "b").mkdir(parents=True)
    for name in ("b.jsonl", "d.jsonl", "s1.jsonl", "s1.trajectory.jsonl", ".hidden.jsonl"):
        (logs / name).write_text(REQUESTS)
    (logs / "b" / "e.jsonl").write_text(REQUESTS)
    (logs / "a.jsonl").symlink_to("d.jsonl")  # a link before its file
    (logs / "c.jsonl").symlink_to("b.jsonl")  # a link after its file
    (logs / "b" / "f.jsonl").symlink_to(logs / "b" / "e.jsonl")
    (tmp_path / "other").symlink_to(logs)
    names = ["a.jsonl", "b.jsonl", "s1.jsonl", "b/e.jsonl"]

    def listed(*paths):
        errors = []
        found = [str(Path(p).relative_to(tmp_path)) for p in find_logs(paths, errors.append)]
        return found, [Path(e.file).name for e in errors]

    assert listed(logs) == ([f"logs/{n}" for n in names], [".hidden.jsonl"])
    assert listed(tmp_path / "other", logs) == ([f"other/{n}" for n in names], [".hidden.jsonl"] * 2)
    assert listed(logs / "d.jsonl", logs / "b", logs / "s1.trajectory.jsonl", logs / ".hidden.jsonl") == (
        ["logs/d.jsonl", "logs/b/e.jsonl", "logs/s1.trajectory.jsonl", "logs/.hidden.jsonl"], [])
    assert listed(logs / "b" / "f.jsonl", logs, logs / "s1.trajectory.jsonl", logs / ".hidden.jsonl") == (
        ["logs/b/f.jsonl", *(f"logs/{n}" for n in names[:3]), "logs/.hidden.jsonl"], [".hidden.jsonl"])
