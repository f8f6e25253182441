"""Where ec2audit finds the files it reads and keeps the heavy parts it installs.

Read-only data (judge prompts, calibration settings and set, cue words, taxonomy, labelling config, the
task suite, OpenClaw's manifest, lock and config template) comes from the source checkout when the package
runs from one, else from the copies packaged into the wheel under `ec2audit/_data/` (same relative paths:
pyproject.toml's force-include table maps them).

Writable state (the OpenClaw install, Label Studio's venv and template, Phoenix's venv, the local model,
caches, a recalibration) lives in one data directory: `$EC2AUDIT_HOME` when set, else a checkout's own
folders (`runner/`, `.venv-labelstudio`, `.venv-phoenix`, `.cache/`, `judges/`) so `make setup` and the
tests keep their places, else the user data directory of the platform (platformdirs, e.g. `~/.local/share/ec2audit`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

HOME_ENV = "EC2AUDIT_HOME"
_PACKAGE = Path(__file__).resolve().parent
_SOURCE_ROOT = _PACKAGE.parent


def checkout() -> Path | None:
    """The source checkout this package is imported from, or None for an installed wheel."""
    return _SOURCE_ROOT if (_SOURCE_ROOT / "pyproject.toml").is_file() and (_SOURCE_ROOT / "judges").is_dir() \
        else None


def data(relative: str) -> Path:
    """A read-only resource by its path in the checkout (`judges/prompts`, `tasks`, `runner/package-lock.json`)."""
    root = checkout()
    return (root if root else _PACKAGE / "_data") / relative


@dataclass(frozen=True)
class Layout:
    """The writable places; `home` is None when they are a checkout's own folders."""

    home: Path | None
    runner: Path  # package.json, package-lock.json and node_modules/ of the OpenClaw install
    labelstudio_venv: Path
    labelstudio_template: Path
    labelstudio_data: Path  # the projects of `annotate serve` (user data, never in a checkout)
    phoenix_venv: Path  # Arize Phoenix, an OTLP receiver and trace UI for exported findings
    models: Path  # the default GGUF when it is not installed in the Python environment
    cache: Path
    calibration: Path  # what `judge --calibrate` writes


def _user_home() -> Path:
    explicit = os.environ.get(HOME_ENV)
    if explicit:
        return Path(explicit).expanduser().resolve()
    from platformdirs import user_data_dir

    return Path(user_data_dir("ec2audit", appauthor=False))


def layout() -> Layout:
    """The writable places now (read each call: `$EC2AUDIT_HOME` may change between calls in tests)."""
    home, root = _user_home(), checkout()
    if root and not os.environ.get(HOME_ENV):
        return Layout(None, root / "runner", root / ".venv-labelstudio", root / ".cache" / "labelstudio-template",
                      home / "labelstudio", root / ".venv-phoenix", root / ".cache" / "models", root / ".cache",
                      root / "judges" / "calibration.toml")
    return Layout(home, home / "runner", home / "labelstudio-venv", home / "labelstudio-template",
                  home / "labelstudio", home / "phoenix-venv", home / "models", home / "cache",
                  home / "calibration.toml")


def calibration_settings() -> Path:
    """The calibration an audit reads: the last `judge --calibrate` result, else the shipped one."""
    written = layout().calibration
    return written if written.is_file() else data("judges/calibration.toml")
