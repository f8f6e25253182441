"""The record of one cloud exchange, as the proxy writes it and every reader gets it back.

One typed value crosses the interceptor (and the LiteLLM guardrail), its store, the log adapter, the
runs and the report, where a dict of some twenty keys used to: a misspelt field is a type error, not
a silent None. Its row (`to_row`, one key per field) is what the store's columns and `intercept export`'s
JSONL objects hold, unchanged from when records were dicts, so stores written before read as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

#: A record's `state`: `pending` (forwarded, not finished), `complete`, or `interrupted` (the proxy
#: stopped before the exchange ended). Rows written before states existed read as None.
PENDING, COMPLETE, INTERRUPTED = "pending", "complete", "interrupted"
#: How the error of a request `--enforce block` refused begins: it was recorded, never forwarded.
BLOCKED = "blocked by ec2audit"

#: The path the proxy records a model listing under (`GET /v1/models`, any episode prefix left out).
MODEL_LIST_PATH = "/v1/models"
#: How the paths of the free endpoints end: token counts (Anthropic's, OpenAI's, Gemini's) and OpenAI's
#: moderations. The text reaches the provider, but nothing is billed, whatever the answer holds.
FREE_PATHS = ("/messages/count_tokens", "/responses/input_tokens", ":countTokens", "/moderations")


def free_path(path_or_url: str | None) -> bool:
    """Whether a request to this path (or URL) is one its provider does not bill (`FREE_PATHS`)."""
    return (path_or_url or "").split("?", 1)[0].rstrip("/").endswith(FREE_PATHS)


@dataclass(kw_only=True)
class ProxyRecord:
    id: str
    episode: str | None = None
    task_id: str | None = None
    ts: float
    state: str | None = None
    api: str | None = None
    path: str | None = None  # as forwarded: `/v1/...`, the query string with key parameters masked
    model: str | None = None
    stream: bool = False
    status: int | None = None
    error: str | None = None
    latency_ms: float | None = None
    first_byte_ms: float | None = None
    input_tokens: int | None = None
    cached_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    redactions: int | None = 0
    headers: list[list[str]] | None = None  # forwarded headers as [name, value], key headers `[masked]`
    request: dict | None = None  # the body as forwarded (redacted when redact was on)
    response: dict | None = None
    findings: list[dict] | None = None  # inline audit rows; `matched_text` masked unless evidence is kept
    unread: list[dict] | None = None  # files the body carries that no detector read inside (`intercept/media.py`)

    @property
    def model_call(self) -> bool:
        """Whether the request called a model (it has a body to audit): False for a listing of the models
        (`GET /v1/models`), recorded as cloud-bound too, but no call, no prompt and no cost."""
        return self.path != MODEL_LIST_PATH

    @property
    def forwarded(self) -> bool:
        """Whether the request went on to the cloud: False for one the proxy blocked (its body is on
        record, but no cloud saw it, so it exposed nothing)."""
        return not (self.status == 403 and (self.error or "").startswith(BLOCKED))

    @property
    def billed_usd(self) -> float | None:
        """What the call cost: its priced usage, 0 for an error answered without usage (a refused or
        rate-limited call is not billed) and for a free endpoint (a token count, a moderation), None when
        unknown (no price for its model, or an answer without usage)."""
        if self.cost_usd is None and self.input_tokens is None and (self.status or 0) >= 400:
            return 0.0
        if free_path(self.path):
            return 0.0
        return self.cost_usd

    def to_row(self) -> dict:
        """The record as one object of its fields (not copied: a request may be megabytes)."""
        return {name: getattr(self, name) for name in COLUMNS}

    @classmethod
    def from_row(cls, row: Mapping) -> ProxyRecord:
        """A record from a row of any age: a field its row lacks is None."""
        values: dict[str, Any] = {name: row.get(name) for name in COLUMNS}
        values["stream"] = bool(values["stream"])
        return cls(**values)


#: The record's fields, in the store's column order.
COLUMNS = tuple(f.name for f in fields(ProxyRecord))
