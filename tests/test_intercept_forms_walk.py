"""The guard against the forms real tool output carries (session 14): over loopback HTTP, in front of the
scripted stand-in upstream, a customer record of seven units (a phone, an e-mail, an API key, a salary, a
Chinese name and ID number, an IBAN) is put into every request position of the four wire APIs the proxy
speaks (`gateway.positions`, legacy completions, streamed requests), written in each form tool output
carries: JSON in a string (once and twice serialised), `\\uXXXX` escapes, URL and percent-encoding, HTML
entities, base64 of a JSON blob, CSV rows, markdown tables, values cut by a line wrap or across two content
parts, digits grouped otherwise, full-width characters, zero-width characters.

What is asserted is what the upstream RECEIVED, read as a reader would (every decoding above undone):
redact forwards no unit value in any recognisable form and its record names every unit and what was
replaced; block forwards nothing and its record is the 403 naming every unit."""

from __future__ import annotations

import base64
import binascii
import csv
import functools
import html
import io
import json
import re
import unicodedata
from urllib.parse import unquote, unquote_plus, urlencode

import pytest
from intercept_helpers import json_strings

from ec2audit.gateway.positions import ANTHROPIC, API_PATHS, APIS, CHAT, POSITIONS, RESPONSES, Probe, user_request
from ec2audit.units import make_unit

RECORD = {"name": "欧阳娜娜", "phone": "13922883366", "email": "lena.hartmann@example.org",
          "national_id": "110105198803153418", "iban": "DE89370400440532013000", "salary": "486000",
          "api_key": "sk-proj-7fK2mQ9xL4vB8nR3tY6w"}
DIMENSIONS = {"name": "person_name", "phone": "contact", "email": "contact", "national_id": "government_id",
              "iban": "financial", "salary": "financial", "api_key": "credential"}
UNITS = [make_unit({"task_id": "t1", "entity_id": "P1", "field": f, "value": v, "dimension": DIMENSIONS[f]})
         for f, v in RECORD.items()]
UNIT_IDS = {u.id for u in UNITS}
MARKER = "REC7Q"


# --- the forms: a record → the content parts that carry it (one part, or two for a split) -------------

def _line(record: dict) -> str:
    return "; ".join(f"{k}: {v}" for k, v in record.items())


def _each(encode) -> list[str]:
    return [_line({k: encode(v) for k, v in RECORD.items()})]


def _cut(value: str) -> tuple[str, str]:
    return value[:len(value) // 2], value[len(value) // 2:]


def _wrapped() -> list[str]:
    """A terminal's line wrap falling inside every value."""
    return [_line({k: "\n".join(_cut(v)) for k, v in RECORD.items()})]


def _split() -> list[str]:
    """Content parts cut inside every value: the parts run together read as the record."""
    parts, head = [], ""
    for k, v in RECORD.items():
        first, second = _cut(v)
        parts.append(f"{head}{k}: {first}")
        head = second + "; "
    return [*parts, head.removesuffix("; ")]


def _csv() -> list[str]:
    return [",".join(RECORD) + "\n" + ",".join(RECORD.values()) + "\n"]


def _base64_csv() -> list[str]:
    """A CSV file as Python's `csv` module writes it (lines end `\\r\\n`), attached base64-encoded."""
    out = io.StringIO()
    csv.writer(out).writerows([list(RECORD), list(RECORD.values())])
    return ["attachment customers.csv (base64): " + base64.b64encode(out.getvalue().encode()).decode()]


def _markdown() -> list[str]:
    return ["| " + " | ".join(RECORD) + " |\n|" + "---|" * len(RECORD) + "\n| " + " | ".join(RECORD.values()) + " |"]


def _regrouped() -> list[str]:
    return [_line({**RECORD, "name": "欧阳 娜娜 / 欧 阳 娜 娜", "phone": "139 2288 3366 / 139.2288.3366",
                   "iban": "de89 3704 0044 0532 0130 00",
                   "national_id": "110105 19880315 3418", "salary": "486,000", "email": RECORD["email"].upper()})]


_FULL_WIDTH = {c: c + 0xFEE0 for c in range(0x21, 0x7F)}

FORMS = {
    "plain": lambda: [_line(RECORD)],
    "json_string": lambda: [json.dumps(RECORD)],
    "json_twice": lambda: [json.dumps(json.dumps(RECORD))],
    "u_escapes": lambda: _each(lambda v: "".join(f"\\u{ord(c):04x}" for c in v)),
    "url_query": lambda: ["https://crm.example.com/customers?" + urlencode(RECORD)],
    "percent_every_byte": lambda: _each(lambda v: "".join(f"%{b:02X}" for b in v.encode())),
    "html_entities": lambda: _each(lambda v: "".join(f"&#{ord(c)};" for c in v)),
    "base64_json": lambda: ["export (base64): " + base64.b64encode(json.dumps(RECORD).encode()).decode()],
    "csv": _csv,
    "base64_csv": _base64_csv,
    "markdown_table": _markdown,
    "line_wrap": _wrapped,
    "split_parts": _split,
    "regrouped_lowercase": _regrouped,
    "full_width": lambda: _each(lambda v: v.translate(_FULL_WIDTH)),
    "zero_width": lambda: _each(lambda v: "\u200b".join(v)),
}


# --- the positions: (api, position, stream) → the request carrying the parts -----------------------------

COMPLETIONS = "openai-completions"
PATHS = {**API_PATHS, COMPLETIONS: "/completions"}
#: Positions whose content is a list of parts the form's parts go in as they are (elsewhere: joined).
PART_POSITIONS = {"user.parts", "system.blocks", "tool_result.blocks"}


def _parts_request(api: str, position: str, parts: list[str]) -> Probe | None:
    """The positions whose content is a list of text parts, with the form's parts as the list."""
    if position == "user.parts":
        return user_request(api, parts)
    if position == "system.blocks":
        kind = "input_text" if api == RESPONSES else "text"
        blocks = [{"type": kind, "text": p} for p in parts]
        if api == ANTHROPIC:
            return Probe({"max_tokens": 50, "system": blocks, "messages": [{"role": "user", "content": "Hi."}]})
        if api == CHAT:
            return Probe({"messages": [{"role": "system", "content": blocks}, {"role": "user", "content": "Hi."}]})
        return Probe({"input": [{"role": "system", "content": blocks}, {"role": "user", "content": "Hi."}]})
    kind = "input_text" if api == RESPONSES else "text"
    blocks = [{"type": kind, "text": p} for p in parts]
    if api == CHAT:
        return Probe({"messages": [
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": blocks}]})
    if api == RESPONSES:
        return Probe({"input": [{"type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": "{}"},
                                {"type": "function_call_output", "call_id": "call_1", "output": blocks}]})
    return Probe({"max_tokens": 50, "messages": [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": blocks}]}]})


def _completions(position: str, parts: list[str]) -> Probe:
    text = "".join(parts)
    return Probe({"prompt": text if position == "prompt" else ["Summarise:", text]})


CELLS = [(api, name, False) for name, p in POSITIONS.items() if not name.startswith("form.") for api in APIS
         if p.build(api, ["x"], MARKER) is not None]
CELLS += [(COMPLETIONS, "prompt", False), (COMPLETIONS, "prompt.list", False)]
CELLS += [(api, "query", False) for api in APIS]  # a query parameter of the request URL
CELLS += [(api, name, True) for api in (*APIS, COMPLETIONS)
          for name in (("prompt",) if api == COMPLETIONS else ("tool_result", "user.parts"))]


def build(api: str, position: str, stream: bool, parts: list[str]) -> tuple[str, dict, dict, dict]:
    """(path, body, headers, query) of one cell; a list of parts goes in as parts where the position has them."""
    query = {}
    if api == COMPLETIONS:
        probe = _completions(position, parts)
    elif position in PART_POSITIONS:
        probe = _parts_request(api, position, parts)
    elif position == "query":
        probe, query = user_request(api, "Hello."), {"note": "".join(parts)}
    else:
        probe = POSITIONS[position].build(api, ["".join(parts)], MARKER)
    assert probe is not None
    body = {"model": "echo", **probe.body, **({"stream": True} if stream else {})}
    return "/v1" + PATHS[api], body, probe.headers, query


# --- reading what the upstream received, as a reader would ---------------------------------------------

_U = re.compile(r"\\+u([0-9a-fA-F]{4})")
_B64 = re.compile(r"[A-Za-z0-9+/_-]{12,}={0,2}")
_INVISIBLE = re.compile(r"[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]")


def _decodings(text: str) -> set[str]:
    out = {text, html.unescape(text), unquote(text), unquote_plus(text),
           _U.sub(lambda m: chr(int(m.group(1), 16)), text), unicodedata.normalize("NFKC", text)}
    for token in _B64.findall(text):
        try:
            raw = base64.b64decode(token.replace("-", "+").replace("_", "/") + "=" * (-len(token) % 4))
            out.add(raw.decode("utf-8"))
        except (binascii.Error, ValueError):
            continue
    return out


def readable(text: str, rounds: int = 3, decodings=_decodings) -> set[str]:
    """Every reading of a text with the encodings `decodings` undoes undone, nested up to `rounds` deep."""
    seen, frontier = {text}, {text}
    for _ in range(rounds):
        frontier = {d for t in frontier for d in decodings(t)} - seen
        seen |= frontier
    return seen


def _canonical(text: str) -> str:
    """Letters and digits only, case-folded, invisible characters gone: groupings and wraps do not matter."""
    return "".join(c for c in _INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).casefold() if c.isalnum())


_CANONICAL = {field: _canonical(value) for field, value in RECORD.items()}


def leaked(sent: dict, canonical: dict[str, str] = _CANONICAL, decodings=_decodings) -> list[str]:
    """The units (of `canonical`: field → value as `_canonical` reads it) whose value a reader recovers from
    what the upstream received: body (each string, and all strings run together), headers and query, every
    encoding `decodings` undoes undone."""
    strings = list(json_strings(sent["body"]))
    headers = [v.encode("latin-1").decode("utf-8", "replace") for _, v in sent["header_list"]]
    texts = [*strings, "".join(strings), *headers, sent["query"]]
    canon = " ".join(_canonical(r) for t in texts for r in readable(t, decodings=decodings))
    return sorted(f for f, v in canonical.items() if v in canon)


# --- the walk ----------------------------------------------------------------------------------------

#: A header holds one line: a wrap inside a value cannot reach one.
ONE_LINE = {"line_wrap"}
#: Cells where the guard does not hold yet (none: an encoding inside an encoding, a base64 blob of JSON text with
#: `\\u` escapes or an OpenAI file part's data URL of text in any of the forms, is read down to its values, and
#: base64 of a CSV file with `\\r\\n` line ends is text).
KNOWN_GAPS: dict[str, set] = {}


def walk_form(proxy, form: str, forms=FORMS, unit_ids=UNIT_IDS, leaks=leaked,
              one_line=ONE_LINE) -> dict[tuple, str]:
    """Each cell's outcome for one form of `forms`: "held", or what went wrong (a form of `one_line` skips
    the header cells); `leaks` reads what the upstream received."""
    mode, app, client, store = proxy
    outcomes = {}
    for k, (api, position, stream) in enumerate(CELLS):
        if position == "header" and form in one_line:
            continue
        path, body, headers, query = build(api, position, stream, forms[form]())
        episode, seen = f"{form}-{k}", len(app.state.requests)  # one episode a cell: its record read alone
        headers = {k: " ".join(v.split("\n")).strip().encode() for k, v in headers.items()}  # one line
        answer = client.post(f"/e/{episode}{path}", json=body, headers=headers, params=query)
        sent = app.state.requests[seen:]
        [record] = store.records(episode)
        missed = sorted(u.rsplit("/", 1)[1] for u in unit_ids - {f["unit_id"] for f in record.findings})
        if mode == "block":
            answered = leaks({"body": answer.text, "header_list": [], "query": ""})
            ok = answer.status_code == 403 and sent == [] and record.status == 403 and not missed and not answered
            outcomes[(api, position, stream)] = "held" if ok else f"{answer.status_code} missed {missed}"
            continue
        out = leaks(sent[0]) if sent else ["(nothing forwarded)"]
        stored = leaks({"body": [record.request, record.headers], "header_list": [], "query": record.path})
        ok = answer.status_code == 200 and not out and not stored and not missed and record.redactions >= 1
        outcomes[(api, position, stream)] = "held" if ok else \
            f"{answer.status_code} leaked {out} stored {stored} missed {missed}"
    return outcomes


def assert_cells_hold(proxy, form: str, outcomes: dict, known_gaps: dict[str, set]) -> None:
    """Every cell of a walk's form holds but its known gaps (those it walks: a one-line form walks no header
    cell), which must still fail: a fixed gap comes off the list."""
    broken = {cell: outcome for cell, outcome in outcomes.items() if outcome != "held"}
    gaps = known_gaps.get(form, set()) & set(outcomes)
    assert {c: o for c, o in broken.items() if c not in gaps} == {}, f"{proxy[0]} {form}: {len(broken)} cells fail"
    assert gaps <= set(broken), f"{proxy[0]} {form}: known gaps now hold: {sorted(gaps - set(broken))}"


#: Values glued into tool names (`^[A-Za-z0-9_-]{1,64}$`: snake_case or kebab-case), in a tool's definition and
#: in the call of it, in history.
GLUED = ["pay_" + RECORD["iban"], "pay_" + RECORD["iban"].lower(), "key_" + RECORD["api_key"] + "_v2",
         "call-" + RECORD["phone"], "id_" + RECORD["national_id"], "raise_" + RECORD["salary"]]


def _named_tools(api: str) -> tuple[str, dict]:
    if api == CHAT:
        return "/v1/chat/completions", {"model": "echo", "tools": [
            {"type": "function", "function": {"name": n, "parameters": {"type": "object"}}} for n in GLUED],
            "messages": [{"role": "assistant", "content": None, "tool_calls": [
                {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": "{}"}}
                for i, n in enumerate(GLUED)]},
                *({"role": "tool", "tool_call_id": f"call_{i}", "content": "ok"} for i in range(len(GLUED)))]}
    if api == RESPONSES:
        return "/v1/responses", {"model": "echo", "tools": [
            {"type": "function", "name": n, "parameters": {"type": "object"}} for n in GLUED], "input": [
            *({"type": "function_call", "call_id": f"call_{i}", "name": n, "arguments": "{}"}
              for i, n in enumerate(GLUED)),
            *({"type": "function_call_output", "call_id": f"call_{i}", "output": "ok"} for i in range(len(GLUED)))]}
    return "/v1/messages", {"model": "echo", "max_tokens": 20, "tools": [
        {"name": n, "input_schema": {"type": "object"}} for n in GLUED], "messages": [
        {"role": "assistant", "content": [{"type": "tool_use", "id": f"toolu_{i}", "name": n, "input": {}}
                                          for i, n in enumerate(GLUED)]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": "ok"}
                                     for i in range(len(GLUED))]}]}


@pytest.mark.parametrize("api", APIS)
def test_a_value_glued_into_a_tool_name_is_caught(proxy, api):
    mode, app, client, store = proxy
    path, body = _named_tools(api)
    seen = len(app.state.requests)
    answer = client.post(f"/e/tool-names-{api}{path}", json=body)
    sent = app.state.requests[seen:]
    [record] = store.records(f"tool-names-{api}")
    glued = {"national_id", "salary", "iban", "api_key", "phone"}
    assert glued <= {f["unit_id"].rsplit("/", 1)[1] for f in record.findings}
    if mode == "block":
        assert answer.status_code == 403 and sent == []
    else:
        assert answer.status_code == 200 and leaked(sent[0]) == [] and record.redactions >= len(GLUED) * 2


def test_a_request_body_sent_in_chunks_is_read_whole(proxy):
    """A request body streamed in 7-byte chunks (`Transfer-Encoding: chunked`), each value cut by a chunk."""
    mode, app, client, store = proxy
    body = json.dumps({"model": "echo", "stream": True, "messages": [{"role": "user", "content": _line(RECORD)}]},
                      ensure_ascii=False).encode()
    seen = len(app.state.requests)
    answer = client.post("/e/chunked/v1/chat/completions", content=(body[i:i + 7] for i in range(0, len(body), 7)),
                         headers={"content-type": "application/json"})
    sent = app.state.requests[seen:]
    [record] = store.records("chunked")
    assert {f["unit_id"] for f in record.findings} == UNIT_IDS
    if mode == "block":
        assert answer.status_code == 403 and sent == []
    else:
        assert answer.status_code == 200 and leaked(sent[0]) == [] and record.redactions == len(RECORD)


def large_body_outcomes(proxy, forms=FORMS, unit_ids=UNIT_IDS, leaks=leaked, gaps=KNOWN_GAPS) -> dict[str, str]:
    """Each form's outcome ("held", or what went wrong; none for a form with `gaps`) as a tool result after
    300 kB of earlier conversation: a body of 256 kB or more is scanned in a worker process and encoded there
    (`intercept/lanes.py`). The earlier conversation (English, no value of the record) must arrive as it was
    sent; `leaks` reads the rest (reading the 300 kB with every decoding, once per form, took most of a walk's
    time: `_after_filler`)."""
    mode, app, client, store = proxy
    outcomes = {}
    for form, make in forms.items():
        if form in gaps:
            continue
        body = {"model": "echo", "messages": [*_FILLER, {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "".join(make())}]}
        seen = len(app.state.requests)
        answer = client.post(f"/e/large-{form}/v1/chat/completions", json=body)
        sent = app.state.requests[seen:]
        [record] = store.records(f"large-{form}")
        missed = unit_ids - {f["unit_id"] for f in record.findings}
        held = answer.status_code == 403 and sent == [] if mode == "block" else \
            answer.status_code == 200 and leaks(_after_filler(sent[0])) == [] and record.redactions >= 1
        outcomes[form] = "held" if held and not missed else f"{answer.status_code} missed {sorted(missed)}"
    return outcomes


#: A large body's earlier conversation: 296 kB of English in which no value of the record occurs
_FILLER = [{"role": "user", "content": "Summarise the build log."},
           {"role": "assistant", "content": "The build passed; nothing to report. " * 8000}]


def _after_filler(sent: dict) -> dict:
    """What the upstream received (`sent`) without the `_FILLER` messages its body opens with, which must have
    arrived as the client sent them (a guard that changed them, or moved a value into them, fails here)."""
    messages = sent["body"]["messages"]
    assert messages[:len(_FILLER)] == _FILLER, "the earlier conversation did not arrive as sent"
    return {**sent, "body": {**sent["body"], "messages": messages[len(_FILLER):]}}


def assert_held(proxy, episode: str, path: str, unit_ids: set[str], leaks, **request) -> dict | None:
    """Post one request through the proxy as `episode` (`request`: httpx's `json=`, `content=`, `headers=`) and
    check it held: every unit found; in block mode refused with nothing forwarded, in redact mode forwarded with
    at least one redaction and no unit `leaks` reads. Returns what the upstream received (None when blocked)."""
    mode, app, client, store = proxy
    seen = len(app.state.requests)
    answer = client.post(f"/e/{episode}{path}", **request)
    sent = app.state.requests[seen:]
    [record] = store.records(episode)
    assert {f["unit_id"] for f in record.findings} == unit_ids
    if mode == "block":
        assert answer.status_code == 403 and sent == []
        return None
    assert answer.status_code == 200 and leaks(sent[0]) == [] and record.redactions >= 1
    return sent[0]


def walk_tests(forms: dict, unit_ids: set[str], leaks, one_line: set[str], known_gaps: dict[str, set],
               record: dict[str, str]):
    """A walk's cells of one form (`benchmarks/guard_forms_matrix.py` tables them) and the three tests every walk
    runs over its forms, for its module to bind by name: the leak check recovers every form unguarded (it is no
    weaker than the forms), every cell holds but the known gaps, a body large enough for the worker holds."""
    cells = functools.partial(walk_form, forms=forms, unit_ids=unit_ids, leaks=leaks, one_line=one_line)

    def test_the_reader_recovers_every_form_unguarded():
        for form, make in forms.items():
            assert leaks({"body": {"t": make()}, "header_list": [], "query": ""}) == sorted(record), form

    @pytest.mark.parametrize("form", sorted(forms))
    def test_every_position_holds_in_every_form(proxy, form):
        assert_cells_hold(proxy, form, cells(proxy, form), known_gaps)

    def test_a_large_body_holds_in_every_form(proxy):
        outcomes = large_body_outcomes(proxy, forms, unit_ids, leaks, known_gaps)
        assert {f: o for f, o in outcomes.items() if o != "held"} == {}

    return cells, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form, \
        test_a_large_body_holds_in_every_form


(_, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaked, ONE_LINE, KNOWN_GAPS, RECORD)


#: A value in the URL path under /v1 (an id of the API's own: threads, batches, files, Azure deployments),
#: as sent: percent-encoded where the path needs it.
PATHS_WITH_VALUES = [f"/v1/threads/{RECORD['phone']}/runs", "/v1/threads/lena.hartmann@example.org/messages",
                     "/v1/batches/%E6%AC%A7%E9%98%B3%E5%A8%9C%E5%A8%9C", f"/v1/files/file_{RECORD['iban'].lower()}",
                     f"/v1/deployments/{RECORD['api_key']}/chat/completions"]


@pytest.mark.parametrize("path", PATHS_WITH_VALUES)
def test_a_value_in_the_url_path_is_caught(proxy, path):
    mode, app, client, store = proxy
    episode = f"path-{PATHS_WITH_VALUES.index(path)}"
    seen = len(app.state.requests)
    answer = client.post(f"/e/{episode}{path}", json={"model": "echo", "messages": [{"role": "user", "content": "Hi"}]})
    sent = app.state.requests[seen:]
    [record] = store.records(episode)
    assert [f["path"] for f in record.findings] == ["path:path"]
    if mode == "block":
        assert answer.status_code == 403 and sent == []
    else:
        assert answer.status_code == 200 and record.redactions == 1
        assert leaked({**sent[0], "query": sent[0]["path"]}) == [] and leaked({"body": [], "header_list": [],
                                                                                "query": record.path}) == []


def test_the_model_list_request_carries_no_value_in_its_headers(proxy):
    """GET /v1/models forwards the client's headers (SDKs send their default headers on every call)."""
    mode, app, client, store = proxy
    seen = len(app.state.listings)
    answer = client.get("/v1/models", headers={"x-customer-note": f"{RECORD['phone']} {RECORD['email']}".encode()})
    listed = app.state.listings[seen:]
    if mode == "block":
        assert answer.status_code == 403 and listed == []
    else:
        assert answer.status_code == 200 and answer.json()["data"]
        [sent] = listed
        assert leaked({"body": {}, "header_list": sent["header_list"], "query": ""}) == []
        assert sent["headers"]["x-customer-note"] == "[PHONE_001] [EMAIL_001]"
