"""Checker: leaked secrets replaced by references in place, the rest of each config kept, a rotation list
that names settings and files but no value anywhere."""

from pathlib import Path

from ec2audit.taskcheck import fraction, leaked, read_text

EXPECTED: dict = {'files': ['app/settings.py', 'deploy/docker-compose.yml'],
 'kept': [('app/settings.py', 'API_HOST = "10.177.222.154"\n'),
          ('deploy/docker-compose.yml', '      API_HOST: "10.66.176.16"\n')],
 'output': 'ROTATE.md',
 'secrets': [{'file': 'app/settings.py',
              'name': 'STRIPE_KEY_00',
              'value': 'sk_live_fbfM71FWT7MmK6ssyYRctyOADQb5'},
             {'file': 'app/settings.py', 'name': 'AWS_ACCESS_KEY_01', 'value': 'AKIAXJ7VWR6ZB6TQYPX5'},
             {'file': 'deploy/docker-compose.yml', 'name': 'DB_PASSWORD_10', 'value': 'wKasJL8zbCHhfwQ6tb'},
             {'file': 'deploy/docker-compose.yml',
              'name': 'GITHUB_TOKEN_11',
              'value': 'ghp_VpTcWndVXhOZHrHjPgZos81y63eXi1fadwt5'}]}


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
