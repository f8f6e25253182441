"""The LLM judge: grades leaks no string match sees (paraphrase, translation, description).

Any OpenAI-compatible endpoint works through the openai SDK: a frontier or self-hosted model, or a
GGUF served by the local llama.cpp server (`ec2audit.localmodel`). With neither, `judge_session` gives
the local cross-encoder (`ec2audit.detect.e5_judge`); `Grader` is what both offer the cascade.
One call grades a batch of units against one text, or — packed — several short texts (windows of
one payload), each item naming its text, so the system prompt is paid once for all of them. The
reply is constrained by a JSON schema and every positive verdict must quote evidence that occurs in
its item's text, else it is rejected and asked again. Verdicts are cached on disk per (prompt
version, model, unit, text), so a rerun costs nothing and a crashed run resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import tomllib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ec2audit import resources
from ec2audit.errors import InputError
from ec2audit.units import Unit

PROMPTS_DIR = resources.data("judges/prompts")
DEFAULT_PROMPT = "leak-v2"
GRADES = (0.0, 0.3, 0.7, 1.0)
API_KEY_ENV = ("EC2_JUDGE_API_KEY", "OPENAI_API_KEY")

EVIDENCE_MAX = 160


def response_schema(count: int) -> dict:
    """The reply's JSON schema; item numbers and evidence length are bounded so small models stay on track."""
    verdict = {"type": "object",
               "properties": {"item": {"type": "integer", "enum": list(range(1, count + 1))},
                              "grade": {"type": "number", "enum": [0, 0.3, 0.7, 1]},
                              "evidence": {"type": "string", "maxLength": EVIDENCE_MAX}},
               "required": ["item", "grade", "evidence"], "additionalProperties": False}
    return {"type": "object", "required": ["verdicts"], "additionalProperties": False,
            "properties": {"verdicts": {"type": "array", "items": verdict, "minItems": count, "maxItems": count}}}


class JudgeUnavailable(RuntimeError):
    """The endpoint could not be reached or refused us after the SDK's retries."""


@dataclass(frozen=True)
class Prompt:
    version: str
    system: str
    user: str

    @property
    def packs(self) -> bool:
        """Whether the wording can hold several texts in one call (`{texts}`), or one only (`{text}`)."""
        return "{texts}" in self.user

    def render(self, parts: Sequence[tuple[str, Sequence[Unit]]]) -> str:
        """The user message for one call: its texts (T1, T2, …) and a checklist whose items name their text."""
        units = [u for _, us in parts for u in us]
        if not self.packs:
            if len(parts) != 1:
                raise ValueError(f"prompt {self.version} holds one text per call")
            return self.user.format(text=parts[0][0], checklist=checklist(units))
        texts = "\n\n".join(f"TEXT T{p}:\n<<<\n{text}\n>>>" for p, (text, _) in enumerate(parts, start=1))
        owners = [p for p, (_, us) in enumerate(parts, start=1) for _ in us]
        return self.user.format(texts=texts, checklist=checklist(units, owners))

    @property
    def key(self) -> str:
        """Version plus a hash of the wording, so an edited prompt never reuses old verdicts."""
        digest = hashlib.sha256((self.system + "\0" + self.user).encode()).hexdigest()[:12]
        return f"{self.version}:{digest}"


def load_prompt(name: str | Path = DEFAULT_PROMPT) -> Prompt:
    """A prompt by version name (from `judges/prompts/`) or by path to a TOML file."""
    path = Path(name)
    if not path.suffix:
        path = PROMPTS_DIR / f"{name}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return Prompt(data["version"], data["system"], data["user"])


@dataclass(frozen=True)
class Verdict:
    grade: float
    evidence: str = ""
    start: int = -1
    end: int = -1
    cached: bool = False
    rejected: bool = False
    review: bool = False  # the judge is unsure: not a leak, a candidate for a person (`judge review push`)


@dataclass
class JudgeUsage:
    calls: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    rejected: int = 0
    usd: float | None = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in ("calls", "cached", "prompt_tokens", "completion_tokens",
                                               "retries", "rejected", "usd")}


def locate(evidence: str, text: str) -> tuple[int, int]:
    """Where a quoted evidence string occurs in the text (exact, then case-insensitive); (-1, -1) if not."""
    quote = evidence.strip().strip("\"'“”「」")
    if sum(ch.isalnum() for ch in quote) < 2:  # punctuation alone quotes nothing
        return -1, -1
    start = text.find(quote)
    if start < 0:
        start = text.casefold().find(quote.casefold())
        if start >= 0 and len(text.casefold()) != len(text):  # casefold changed lengths: offsets unsafe
            start = -1
    return (start, start + len(quote)) if start >= 0 else (-1, -1)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def verdict_key(version: str, model: str, unit: Unit, text: str) -> str:
    """The cache key of one verdict: the judge's version and model, everything the unit says, the text."""
    unit_hash = _sha(json.dumps([unit.value, unit.dimension, unit.field, unit.entity_name,
                                 list(unit.aliases), unit.description], ensure_ascii=False))
    return _sha(json.dumps([version, model, unit.id, unit_hash, _sha(text)]))


class VerdictCache:
    """SQLite file (0600) of verdicts; each finished call is committed at once, so a crash loses one call."""

    def __init__(self, path: str | Path):
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
        os.chmod(path, 0o600)
        self.db = sqlite3.connect(path, check_same_thread=False)
        self.db.execute("CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, grade REAL, evidence TEXT)")
        self.db.commit()

    def get(self, key: str) -> tuple[float, str] | None:
        row = self.db.execute("SELECT grade, evidence FROM verdicts WHERE key = ?", (key,)).fetchone()
        return (row[0], row[1]) if row else None

    def put(self, rows: list[tuple[str, float, str]]) -> None:
        self.db.executemany("INSERT OR REPLACE INTO verdicts VALUES (?, ?, ?)", rows)
        self.db.commit()

    def close(self) -> None:
        self.db.close()


def checklist(units: Sequence[Unit], owners: Sequence[int] | None = None) -> str:
    """Numbered items; with `owners`, each names the text (T1, T2, …) it is judged against."""
    lines = []
    for n, unit in enumerate(units, start=1):
        who = f" of {unit.entity_name}" if unit.entity_name else ""
        where = f" in T{owners[n - 1]}" if owners else ""
        line = f'{n}. [{unit.dimension}]{where} field "{unit.field}"{who}: VALUE = "{unit.value}"'
        if unit.aliases:
            line += " (also written: " + ", ".join(f'"{a}"' for a in unit.aliases) + ")"
        if unit.description:
            line += f" — meaning: {unit.description}"
        lines.append(line)
    return "\n".join(lines)


class Grader(Protocol):
    """What the cascade and the calibration ask of a judge: an LLM behind an endpoint (`Judge`) or the
    local cross-encoder (`ec2audit.detect.e5_judge.CrossEncoderJudge`)."""

    model: str
    usage: JudgeUsage

    @property
    def version(self) -> str:
        """What its verdicts depend on besides the model (a prompt's or a head's version)."""

    def judge(self, requests: Sequence[tuple[str, Sequence[Unit]]], on_call: Callable[[], None] | None = None,
              pack: bool = False) -> list[list[Verdict]]:
        """One verdict per unit of every request, in order; `on_call` after each call made."""

    def close(self) -> None:
        """Release the endpoint client and the verdict cache."""


class Judge:
    """Grades (text, units) requests through an OpenAI-compatible chat endpoint."""

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None,
                 prompt: str | Path | Prompt = DEFAULT_PROMPT, cache_path: str | Path | None = None,
                 concurrency: int = 4, attempts: int = 3, sdk_retries: int = 2, timeout: float = 120.0,
                 stream: bool = False, max_tokens: int = 400, batch_size: int = 8, pack_chars: int = 6000):
        """`batch_size` caps the items of one call; packed calls (`judge(..., pack=True)`) also hold at
        most `pack_chars` characters of text."""
        from openai import OpenAI

        key = api_key or next((os.environ[k] for k in API_KEY_ENV if os.environ.get(k)), None)
        # llama.cpp and other local servers ignore the key; the SDK insists on one.
        self.client = OpenAI(base_url=base_url, api_key=key or "no-key", max_retries=sdk_retries,
                             timeout=timeout)
        self.base_url, self.model = base_url, model
        self.prompt = prompt if isinstance(prompt, Prompt) else load_prompt(prompt)
        self.cache = VerdictCache(cache_path) if cache_path else None
        self.concurrency, self.attempts, self.stream = concurrency, attempts, stream
        self.max_tokens, self.batch_size, self.pack_chars = max_tokens, batch_size, pack_chars
        self.usage = JudgeUsage()

    @property
    def version(self) -> str:
        """What the verdicts depend on besides the model: the prompt's version."""
        return self.prompt.version

    def cache_key(self, unit: Unit, text: str) -> str:
        return verdict_key(self.prompt.key, self.model, unit, text)

    def plan(self, requests: Sequence[tuple[str, Sequence[Unit]]], pack: bool = False
             ) -> tuple[list[list[Verdict | None]], list[list[tuple]]]:
        """Cached verdicts (None where a call is needed) and the calls to make: per call its parts
        (request index, [unit positions], text, [units], [cache keys]). See `judge` for `pack`."""
        pack = pack and self.prompt.packs
        results: list[list[Verdict | None]] = [[None] * len(units) for _, units in requests]
        calls: list[list[tuple]] = []
        for r, (text, units) in enumerate(requests):
            todo = []
            for u, unit in enumerate(units):
                key = self.cache_key(unit, text)
                hit = self.cache.get(key) if self.cache else None
                if hit is None:
                    todo.append((u, unit, key))
                else:
                    start, end = locate(hit[1], text) if hit[0] > 0 else (-1, -1)
                    results[r][u] = Verdict(hit[0], hit[1], start, end, cached=True)
                    self.usage.cached += 1
            for b in range(0, len(todo), self.batch_size):
                batch = todo[b:b + self.batch_size]
                part = (r, [t[0] for t in batch], text, [t[1] for t in batch], [t[2] for t in batch])
                last = calls[-1] if pack and calls else None
                if (last is not None and sum(len(p[3]) for p in last) + len(batch) <= self.batch_size
                        and sum(len(p[2]) for p in last) + len(text) <= self.pack_chars):
                    last.append(part)
                else:
                    calls.append([part])
        return results, calls

    def judge(self, requests: Sequence[tuple[str, Sequence[Unit]]],
              on_call: Callable[[], None] | None = None, pack: bool = False) -> list[list[Verdict]]:
        """One verdict per unit of every request (same order); cached verdicts make no call.

        With `pack` (and a prompt that `packs`), consecutive requests share calls up to `batch_size`
        items and `pack_chars` characters of text, instead of one call (and one system prompt) each.
        """
        results, jobs = self.plan(requests, pack)
        if jobs:
            with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
                futures = {pool.submit(self._call, [(p[2], p[3]) for p in parts]): parts for parts in jobs}
                try:
                    for future in as_completed(futures):
                        for (r, pos, _, _, keys), verdicts in zip(futures[future], future.result(), strict=True):
                            for p, verdict in zip(pos, verdicts, strict=True):
                                results[r][p] = verdict
                            if self.cache:  # rejected verdicts are not cached: a rerun asks again
                                self.cache.put([(k, v.grade, v.evidence)
                                                for k, v in zip(keys, verdicts, strict=True) if not v.rejected])
                        if on_call:
                            on_call()
                except BaseException:
                    for f in futures:
                        f.cancel()
                    raise
        return results  # type: ignore[return-value]

    def _complete(self, messages: list[dict], count: int) -> str:
        """One chat call; returns the reply text and books the tokens."""
        import openai

        kwargs: dict[str, Any] = dict(
            model=self.model, messages=messages, temperature=0, max_tokens=self.max_tokens,
            response_format={"type": "json_schema", "json_schema": {
                "name": "verdicts", "strict": True, "schema": response_schema(count)}})
        try:
            if self.stream:
                parts, usage = [], None
                for chunk in self.client.chat.completions.create(
                        stream=True, stream_options={"include_usage": True}, **kwargs):
                    if chunk.choices and chunk.choices[0].delta.content:
                        parts.append(chunk.choices[0].delta.content)
                    usage = chunk.usage or usage
                content = "".join(parts)
            else:
                response = self.client.chat.completions.create(**kwargs)
                content, usage = response.choices[0].message.content or "", response.usage
        except (openai.APIConnectionError, openai.APITimeoutError, openai.APIStatusError) as exc:
            raise JudgeUnavailable(f"judge endpoint {self.base_url} (model {self.model}): {exc}") from None
        with self.usage.lock:
            self.usage.calls += 1
            if usage is not None:
                self.usage.prompt_tokens += usage.prompt_tokens or 0
                self.usage.completion_tokens += usage.completion_tokens or 0
                cost = _price(self.model, usage.model_dump())
                self.usage.usd = None if cost is None or self.usage.usd is None else self.usage.usd + cost
        return content

    def messages(self, parts: Sequence[tuple[str, Sequence[Unit]]]) -> list[dict]:
        """The chat messages of one call over `parts` [(text, units)]."""
        return [{"role": "system", "content": self.prompt.system},
                {"role": "user", "content": self.prompt.render(parts)}]

    def _call(self, parts: list[tuple[str, list[Unit]]]) -> list[list[Verdict]]:
        """Ask until every item has an acceptable verdict or the attempts are spent; verdicts per part."""
        messages = self.messages(parts)
        texts = [text for text, units in parts for _ in units]  # each item's own text
        accepted: dict[int, Verdict] = {}
        for attempt in range(self.attempts):
            if attempt:
                with self.usage.lock:
                    self.usage.retries += 1
            content = self._complete(messages, len(texts))
            problems = self._parse(content, texts, accepted)
            if not problems:
                break
            messages += [{"role": "assistant", "content": content},
                         {"role": "user", "content": "Your answer was rejected: " + "; ".join(problems)
                          + ". Answer again with the JSON for every item."}]
        missing = [n for n in range(1, len(texts) + 1) if n not in accepted]
        with self.usage.lock:
            self.usage.rejected += len(missing)
        flat = [accepted.get(n, Verdict(0.0, rejected=True)) for n in range(1, len(texts) + 1)]
        out, offset = [], 0
        for _, units in parts:
            out.append(flat[offset:offset + len(units)])
            offset += len(units)
        return out

    @staticmethod
    def _parse(content: str, texts: Sequence[str], accepted: dict[int, Verdict]) -> list[str]:
        """Accept well-formed verdicts into `accepted`; return what was wrong, for the retry.
        `texts[n - 1]` is the text item n is judged against."""
        count = len(texts)
        try:
            verdicts = json.loads(content)["verdicts"]
            if not isinstance(verdicts, list):
                raise TypeError
        except (json.JSONDecodeError, KeyError, TypeError):
            return ['the reply was not JSON of the form {"verdicts": [...]}']
        problems = []
        for v in verdicts:
            if not isinstance(v, dict) or not isinstance(v.get("item"), int) or not 1 <= v["item"] <= count:
                problems.append(f"verdict {json.dumps(v, ensure_ascii=False)[:80]} names no item 1..{count}")
                continue
            grade, evidence = v.get("grade"), v.get("evidence")
            if grade not in GRADES or not isinstance(evidence, str):
                problems.append(f"item {v['item']}: grade must be one of 0, 0.3, 0.7, 1 and evidence a string")
                continue
            if grade == 0:
                accepted[v["item"]] = Verdict(0.0)
                continue
            text = texts[v["item"] - 1]
            start, end = locate(evidence, text)
            if start < 0:
                problems.append(f"item {v['item']}: evidence {evidence[:60]!r} does not occur in the item's "
                                "text; quote it exactly or grade 0")
                continue
            accepted[v["item"]] = Verdict(float(grade), text[start:end], start, end)
        missing = [n for n in range(1, count + 1) if n not in accepted]
        if missing and not problems:
            problems.append(f"no verdict for items {missing}")
        return problems

    def close(self) -> None:
        self.client.close()
        if self.cache:
            self.cache.close()


def _price(model: str, usage: dict) -> float | None:
    """USD from the interceptor's price table (None when the model has no listed price)."""
    from ec2audit.intercept.pricing import price

    return price(model, usage)


@contextmanager
def judge_session(url: str | None = None, model: str | None = None, *, gguf: str | Path | None = None,
                  n_ctx: int = 4096, value_checks: bool = True, learned_grader: bool = True,
                  **options) -> Iterator[Grader]:
    """A judge for the block: the LLM at `url`; an LLM served from the GGUF file `gguf` by a local
    llama.cpp server; else the local cross-encoder (`ec2audit.detect.e5_judge`), which needs no model
    server and no network, with `value_checks` deciding each unit by its kind of value
    (`ec2audit.detect.value_checks`; False: its model alone) and `learned_grader` deciding the grade from the
    check's verdict, the model's reading and the free-text evidence (`ec2audit.detect.learned_grader`).
    `options` go to `Judge` (the cross-encoder reads `cache_path` only)."""
    judge: Grader
    if url:
        if not model:
            raise InputError("--judge-model is required with --judge-url", field="judge-model")
        judge = Judge(url, model, **options)
        try:
            yield judge
        finally:
            judge.close()
        return
    if gguf is None:
        from ec2audit.detect.e5_judge import CrossEncoderJudge
        from ec2audit.detect.learned_grader import GRADER_PATH

        judge = CrossEncoderJudge(cache_path=options.get("cache_path"), checks=value_checks,
                                  grader=GRADER_PATH if learned_grader else None)
        try:
            yield judge
        finally:
            judge.close()
        return
    from ec2audit.localmodel import LocalModelServer

    server = LocalModelServer(gguf, n_ctx=n_ctx)
    with server as base_url:
        # one llama.cpp process on few cores: parallel calls only slow each other down
        options.setdefault("concurrency", 1)
        judge = Judge(base_url, model or server.model_name, **options)
        try:
            yield judge
        finally:
            judge.close()
