"""Run a real Label Studio on 127.0.0.1 for users without one (and for the integration tests).

Label Studio lives in its own virtual environment (`ec2audit setup labelstudio` makes it: it pins
`openai<2` and Django). Its first start migrates a database for minutes, so `prepare_template`
migrates once into a template data dir and every new server starts from a copy. The child gets a
minimal environment: Label Studio also reads unprefixed `USERNAME`, `PASSWORD`, `PORT`, `HOST`, which
a user's shell may well have set, and it must never call the network.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from ec2audit import resources
from ec2audit.errors import InputError
from ec2audit.files import open_private

LABEL_STUDIO_VERSION = "1.23.2"
TEMPLATE_MARK = ".ec2audit-template"
CREDENTIALS_FILE = "ec2audit-credentials.json"
DEFAULT_TEMPLATE = resources.layout().labelstudio_template
SETUP_FIX = "run `ec2audit setup labelstudio` (`make setup` runs it)"
_KEEP_ENV = ("PATH", "LANG", "LC_ALL", "TMPDIR", "TZ")
#: Label Studio refuses URLs into reserved networks (SSRF protection), loopback included, so it could not
#: reach our ML backend on 127.0.0.1. This is its default list less loopback: the server itself only
#: listens on 127.0.0.1 for one local user.
_BANNED_SUBNETS = ("0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24",
                   "192.0.2.0/24", "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24",
                   "203.0.113.0/24", "224.0.0.0/4", "233.252.0.0/24", "240.0.0.0/4", "255.255.255.255/32",
                   "::/128", "::ffff:0:0/96", "::ffff:0:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64",
                   "2001:0000::/32", "2001:20::/28", "2001:db8::/32", "2002::/16", "fc00::/7", "fe80::/10",
                   "ff00::/8")


def label_studio_bin(explicit: str | Path | None = None) -> Path:
    """The `label-studio` executable: explicit, $EC2AUDIT_LABEL_STUDIO, the venv `ec2audit setup labelstudio`
    makes, or PATH."""
    candidates = [explicit, os.environ.get("EC2AUDIT_LABEL_STUDIO"),
                  resources.layout().labelstudio_venv / "bin" / "label-studio", shutil.which("label-studio")]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return Path(candidate)
    raise InputError(f"label-studio {LABEL_STUDIO_VERSION} not found: {SETUP_FIX}, or set EC2AUDIT_LABEL_STUDIO "
                     "to its executable")


def _env(data_dir: Path, **settings: str) -> dict[str, str]:
    env = {k: os.environ[k] for k in _KEEP_ENV if k in os.environ}
    env.update({
        "HOME": str(data_dir),
        "LABEL_STUDIO_BASE_DATA_DIR": str(data_dir),
        "LABEL_STUDIO_LATEST_VERSION_CHECK": "false",
        "LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN": "true",
        "LABEL_STUDIO_USE_DEFAULT_BANNED_SUBNETS": "false",
        "LABEL_STUDIO_USER_ADDITIONAL_BANNED_SUBNETS": ",".join(_BANNED_SUBNETS),
        "COLLECT_ANALYTICS": "false",
        "SENTRY_DSN": "", "FRONTEND_SENTRY_DSN": "",
        "PYTHONUNBUFFERED": "1",
    })
    env.update({f"LABEL_STUDIO_{k.upper()}": v for k, v in settings.items()})
    return env


def prepare_template(target: str | Path = DEFAULT_TEMPLATE, binary: str | Path | None = None) -> Path:
    """Migrate an empty Label Studio database into `target` once; later calls return at once."""
    target = Path(target)
    if (target / TEMPLATE_MARK).exists():
        return target
    binary = label_studio_bin(binary)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".labelstudio-template-", dir=target.parent))
    log = work.parent / f"{work.name}.log"
    with log.open("w") as out:
        done = subprocess.run([str(binary), "version"], env=_env(work), stdout=out, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, timeout=900, check=False)
    if done.returncode != 0 or not (work / "label_studio.sqlite3").exists():
        raise RuntimeError(f"label-studio migration failed (exit {done.returncode}); see {log}")
    (work / TEMPLATE_MARK).write_text(f"label-studio {LABEL_STUDIO_VERSION}\n")
    shutil.rmtree(target, ignore_errors=True)
    work.rename(target)
    log.unlink()
    return target


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_free(port: int) -> bool:
    """Whether a server could listen on 127.0.0.1:`port` now. Connections of a stopped server linger in
    TIME_WAIT for a minute; they do not stop a new listener (SO_REUSEADDR, as Label Studio's own
    server sets it), so a restart right after a stop works."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


@dataclass
class LabelStudioServer:
    """A running Label Studio child process; `token` is the admin's API token (never logged)."""

    url: str
    username: str
    password: str = field(repr=False)
    token: str = field(repr=False)
    data_dir: Path
    process: subprocess.Popen = field(repr=False)

    def stop(self, timeout: float = 20) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)

    def __enter__(self) -> LabelStudioServer:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def load_credentials(data_dir: str | Path) -> dict | None:
    path = Path(data_dir) / CREDENTIALS_FILE
    return json.loads(path.read_text()) if path.exists() else None


def remember(data_dir: str | Path, **fields: str) -> None:
    """Add fields (e.g. the ML backend's URL) to the credentials file, keeping it 0600."""
    merged = {**(load_credentials(data_dir) or {}), **fields}
    with open_private(Path(data_dir) / CREDENTIALS_FILE) as out:
        json.dump(merged, out)


def start(data_dir: str | Path, *, port: int | None = None, template: str | Path | None = DEFAULT_TEMPLATE,
          binary: str | Path | None = None, username: str = "admin@ec2audit.local",
          timeout: float = 300) -> LabelStudioServer:
    """Start Label Studio on 127.0.0.1 with `data_dir` (copied from `template` when new).

    The admin's password and API token are generated once and kept in `data_dir`/ec2audit-credentials.json
    (0600); a restart on the same data dir reuses them. Returns once `/api/version` answers.
    """
    data_dir = Path(data_dir).resolve()
    binary = label_studio_bin(binary)
    if not (data_dir / "label_studio.sqlite3").exists():
        if template is not None:
            template = prepare_template(template, binary)
            shutil.copytree(template, data_dir, dirs_exist_ok=True)
        data_dir.mkdir(parents=True, exist_ok=True)
    creds = load_credentials(data_dir) or {"username": username, "password": secrets.token_urlsafe(16),
                                           "token": secrets.token_hex(20)}
    port = port or free_port()
    if not port_free(port):  # Label Studio would silently move to another port
        raise InputError(f"port {port} on 127.0.0.1 is in use; choose another", field="port")
    url = f"http://127.0.0.1:{port}"
    with open_private(data_dir / CREDENTIALS_FILE) as out:
        json.dump({**creds, "url": url}, out)
    env = _env(data_dir, username=creds["username"], password=creds["password"], user_token=creds["token"])
    log = open_private(data_dir / "ec2audit-server.log", "a")
    process = subprocess.Popen(
        [str(binary), "start", "--no-browser", "--internal-host", "127.0.0.1", "-p", str(port),
         "--data-dir", str(data_dir)],
        env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
    log.close()
    server = LabelStudioServer(url, creds["username"], creds["password"], creds["token"], data_dir, process)
    try:
        wait_ready(url, process, timeout)
    except BaseException:
        server.stop()
        raise
    return server


def wait_ready(url: str, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"label-studio exited with code {process.returncode} before answering {url}")
        try:
            if httpx.get(f"{url}/api/version", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise TimeoutError(f"label-studio did not answer {url}/api/version within {timeout:.0f} s")
