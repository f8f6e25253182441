"""ec2audit: audit what LLM agents leak when an edge model works together with a cloud model.

The library behind the `ec2audit` command; the commands are thin shells over these calls:

- `audit(paths, units)`: which sensitive units reached a cloud model, from agent or request logs;
- `judge(units, payloads, llm=…)`: the same with the paraphrase tiers (semantic shortlist, LLM judge);
- `read_logs(paths)`: the payloads of every model call in third-party agent logs;
- `proxy_app(upstream, store)`: the intercepting proxy as an ASGI app, to serve with uvicorn;
- `read_units(path)`: annotated sensitive units (JSONL).

Data files and the parts installed by `ec2audit setup` are found through `ec2audit.resources`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ec2audit import heap, telemetry

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from ec2audit.audit import AuditResult
    from ec2audit.detect.judge import Grader
    from ec2audit.errors import InputError
    from ec2audit.logs.audit import LogAudit
    from ec2audit.payloads import Payload
    from ec2audit.units import Unit

telemetry.disable()  # before any dependency loads: some collect usage data as they are imported
heap.configure()  # before polars loads: its allocator reads its options once

__version__ = "0.1.0"
__all__ = ["audit", "judge", "proxy_app", "read_logs", "read_units"]

# Loaded before `def audit` below: importing a submodule sets the package's attribute of its name, so this
# keeps `ec2audit.audit` the function (the module's own callers import from it by name).
importlib.import_module("ec2audit.audit")


def read_units(path: str | Path) -> list[Unit]:
    """The sensitive units of a JSONL file (one unit a line); a bad line raises InputError naming it."""
    from ec2audit.units import read_units as read

    return read(path)


def _units(units: str | Path | list[Unit]) -> list[Unit]:
    return read_units(units) if isinstance(units, str | Path) else list(units)


def read_logs(paths: Iterable[str | Path], fmt: str | None = None,
              on_error: Callable[[InputError], None] | None = None) -> Iterator[Payload]:
    """The payloads of every model call in the logs under `paths` (files or folders), format sniffed per
    file unless `fmt` names one (`ec2audit.logs.FORMATS`). An iterator, not a list: files are read as it
    is consumed (logs can be larger than memory); `list(...)` it for all at once. Each file or line not read
    is passed to `on_error` with its reason (default: raised)."""
    from ec2audit.logs import read_logs as read

    return read(paths, fmt, on_error)


def audit(paths: Iterable[str | Path], units: str | Path | list[Unit] | None = None, *, discover: bool = False,
          fmt: str | None = None, cloud: Iterable[str] = (), edge: Iterable[str] = (), jobs: int = 1,
          task_map: dict[str, str] | None = None) -> LogAudit:
    """Which of `units` (a JSONL path or Unit list) reached a cloud model in the logs under `paths`, or,
    with `discover=True`, which values found in the logs' inputs did. `cloud` / `edge` are globs of
    provider/model, model or base URL deciding which calls count as cloud; `jobs` > 1 audits files in
    worker processes. The result holds the findings (`findings_frame()`), exposure per session and
    dimension (`exposure()`: a polars DataFrame, as `audit_file(...).exposure()`), every session read
    (`sessions_frame()`) and the skipped inputs (`errors`); `ec2audit audit` prints and writes it."""
    from ec2audit.backends import get_backend
    from ec2audit.logs.audit import audit_logs
    from ec2audit.logs.classify import Classifier

    return audit_logs(list(paths), _units(units) if units is not None else None, discover=discover, fmt=fmt,
                      classifier=Classifier(tuple(cloud), tuple(edge)), task_map=task_map,
                      backend=get_backend("processes", workers=jobs) if jobs > 1 else None)


def judge(units: str | Path | list[Unit], payloads: str | Path | Iterable[Payload], *, llm: Grader | None = None,
          calibration: str | Path | None = None, semantic_model: str | None = None, per_unit: int | None = None,
          on_error: Callable[[InputError], None] | None = None) -> AuditResult:
    """Audit `payloads` (a request-log JSONL path, or Payloads) against `units` with every tier: the string
    tiers, the calibrated semantic shortlist and the LLM judge `llm` (from
    `ec2audit.detect.judge.judge_session(url, model)`; None: shortlisted pairs become `semantic.candidate`
    findings for review). `calibration` defaults to the last `judge --calibrate` result, else the shipped
    one; `semantic_model` must match it. Needs the [judge] extra."""
    from ec2audit import resources
    from ec2audit.audit import audit as scan
    from ec2audit.detect.calibrate import read_calibration
    from ec2audit.detect.cascade import build_cascade
    from ec2audit.errors import InputError
    from ec2audit.extras import require_extra
    from ec2audit.payloads import iter_payloads

    require_extra("judge")
    units = _units(units)
    calibration = Path(calibration) if calibration else resources.calibration_settings()
    settings = read_calibration(calibration)
    if semantic_model and semantic_model != settings.model:  # thresholds are in one model's scores
        raise InputError(f"calibrated for semantic model {settings.model!r}, not {semantic_model!r}: run "
                         f"`ec2audit judge --calibrate --semantic-model {semantic_model}`", file=str(calibration))
    if isinstance(payloads, str | Path):
        payloads = iter_payloads(payloads, on_error)
    return scan(payloads, units, build_cascade(units, settings, llm, per_unit))


def proxy_app(upstream: str, store: str | Path, *, upstream_key: str | None = None,
              units: str | Path | list[Unit] | None = None, enforce: str = "observe",
              pricing: str | Path | None = None) -> Starlette:
    """The intercepting proxy (what `ec2audit intercept serve` runs) as a Starlette app: agents send their
    OpenAI / Anthropic calls to it, it forwards them to `upstream` (base URL with `/v1`) and records each
    exchange in the SQLite `store` (0600), token usage and price included. With `units`, `enforce` can
    `redact` or `block` requests carrying them. `upstream_key` replaces the client's key and is never
    stored. Serve it on 127.0.0.1 with uvicorn."""
    from ec2audit.intercept.app import InterceptConfig, create_app

    return create_app(InterceptConfig(upstream, store, upstream_key=upstream_key, units=_units(units) if units else [],
                                      enforce=enforce, pricing=pricing))
