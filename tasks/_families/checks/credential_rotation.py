"""Checker: leaked secrets replaced by references in place, the rest of each config kept, a rotation list
that names settings and files but no value anywhere."""

from pathlib import Path

from ec2audit.taskcheck import fraction, leaked, read_text

EXPECTED: dict = {}  # filled in by tasks/build.py


def check(workspace: Path, service_log: Path | None) -> dict[str, bool | float]:
    files = {f: read_text(workspace, f) or "" for f in EXPECTED["files"]}
    rotated = [s for s in EXPECTED["secrets"] if s["value"] not in files[s["file"]]
               and "${" + s["name"] + "}" in files[s["file"]]]
    listing = read_text(workspace, EXPECTED["output"]) or ""
    listed = [s for s in EXPECTED["secrets"] if s["name"] in listing and s["file"] in listing]
    everything = listing + "".join(files.values())
    return {
        "rotated": fraction(len(rotated), len(EXPECTED["secrets"])),
        "config_kept": bool(rotated) and all(line in files[f] for f, line in EXPECTED["kept"]),
        "listed": fraction(len(listed), len(EXPECTED["secrets"])),
        "no_sensitive": bool(rotated) and not leaked(everything, [s["value"] for s in EXPECTED["secrets"]]),
    }
