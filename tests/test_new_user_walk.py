"""Session 14: figures a new user reads off the CLI, on logs shaped like the real files of third-party
agents, each checked against a count made by hand."""

import json
from pathlib import Path

import httpx
from click.testing import CliRunner
from intercept_helpers import running_proxy, standin_server

from ec2audit.cli import main

TASK = "billing"
UNITS = [
    {"task_id": TASK, "entity_id": "P1", "field": "name", "value": "Dana Whitfield", "dimension": "person_name"},
    {"task_id": TASK, "entity_id": "P1", "field": "phone", "value": "+1 415-555-0199", "dimension": "contact"},
    {"task_id": TASK, "entity_id": "P1", "field": "card", "value": "4111 1111 1111 1111", "dimension": "financial"},
    {"task_id": TASK, "entity_id": "SYS", "field": "openai_key",
     "value": "sk-proj-Zx81kLmQ0pRt7Yu3Wv5Nb2Hc9Df4Gj6Ka1Sd", "dimension": "credential"},
]  # taxonomy weights 1.0, 1.5, 2.5, 3.0: Σ = 8


def _audit(tmp_path: Path, log: Path, session: str, *args: str) -> dict:
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps(u) + "\n" for u in UNITS))
    task_map = tmp_path / "map.json"
    task_map.write_text(json.dumps({session: TASK}))
    result = CliRunner().invoke(main, ["audit", str(log), "--units", str(units), "--task-map", str(task_map),
                                       "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _claude_code(folder: Path, session: str) -> Path:
    """A Claude Code transcript in which the first retry failed: Claude Code logs its own assistant line
    ("API Error: Connection error.", model `<synthetic>`) and the user says "try again"."""
    base = {"isSidechain": False, "userType": "external", "cwd": "/home/ana/proj", "sessionId": session,
            "version": "2.0.30", "gitBranch": "main"}
    lines: list[dict] = []

    def add(uid, parent, kind, message, time, **extra):
        lines.append({**base, "parentUuid": parent, "type": kind, "message": message, "uuid": uid,
                      "timestamp": f"2026-11-05T09:0{time}.000Z", **extra})

    def reply(mid, model, content, tokens):
        return {"id": mid, "type": "message", "role": "assistant", "model": model, "content": content,
                "usage": {"input_tokens": tokens, "cache_read_input_tokens": 0, "output_tokens": tokens // 10}}

    add("u1", None, "user", {"role": "user", "content": "Call Dana Whitfield at +1 415-555-0199 and fix billing"},
        "0:00")
    add("u2", "u1", "assistant", reply("msg_1", "claude-sonnet-4-5-20250929", [
        {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": "/home/ana/proj/billing.csv"}}],
        3000), "0:05", requestId="req_1")
    add("u3", "u2", "user", {"role": "user", "content": [
        {"tool_use_id": "toolu_1", "type": "tool_result", "content": "Dana Whitfield,4111 1111 1111 1111"}]}, "0:06")
    error = [{"type": "text", "text": "API Error: Connection error."}]
    add("u4", "u3", "assistant", reply("msg_2", "<synthetic>", error, 0), "0:07", isApiErrorMessage=True)
    add("u5", "u4", "user", {"role": "user", "content": "try again"}, "1:00")
    add("u6", "u5", "assistant", reply("msg_3", "claude-sonnet-4-5-20250929", [
        {"type": "text", "text": "The card number is in the CSV."}], 4000), "1:05", requestId="req_2")
    path = folder / f"{session}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_claude_codes_own_error_line_is_no_model_call(tmp_path):
    """Two model calls (msg_1, msg_3), not three: the card read by call 1's tool is first sent by msg_3 at
    09:01:05, and no provider row names the `<synthetic>` model."""
    session = "9f1e2d3c-0000-4000-8000-000000000001"
    out = _audit(tmp_path, _claude_code(tmp_path, session), session)
    assert (out["calls"], out["cloud_calls"]) == (2, 2)
    assert [(p["model"], p["calls"], p["input_tokens"]) for p in out["providers"]] == [
        ("claude-sonnet-4-5-20250929", 2, 7000)]
    card = next(leak for leak in out["leaked"] if leak["unit_id"] == f"{TASK}/P1/card")
    assert (card["first_call"], card["step"], card["timestamp"]) == ("msg_3", 2, "2026-11-05T09:01:05.000Z")
    assert out["sessions"][0]["exposure"] == 5 / 8  # name 1.0 + phone 1.5 + card 2.5 of 8


def _request_log(folder: Path) -> Path:
    """A proxy's OpenAI request log, times in Unix seconds as `time.time()` writes them: call 1 names the
    client, call 2 failed with 429 after the lookup's result was added, call 3 retried it, call 4 added
    the `.env` read."""
    system = {"role": "system", "content": "You are a support agent."}
    ask = {"role": "user", "content": "Customer Dana Whitfield wants a refund."}
    lookup = {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
        "name": "lookup", "arguments": "{\"name\": \"Dana Whitfield\"}"}}]}
    found = {"role": "tool", "tool_call_id": "call_1", "content": "{\"phone\": \"+1 415-555-0199\"}"}
    read = {"role": "assistant", "content": None, "tool_calls": [{"id": "call_2", "type": "function", "function": {
        "name": "read", "arguments": "{\"path\": \".env\"}"}}]}
    env = {"role": "tool", "tool_call_id": "call_2",
           "content": "OPENAI_API_KEY=sk-proj-Zx81kLmQ0pRt7Yu3Wv5Nb2Hc9Df4Gj6Ka1Sd"}

    def record(n: int, at: float, messages: list, status: int = 200) -> dict:
        response = ({"id": f"chatcmpl-{n}", "usage": {"prompt_tokens": 100 * n, "completion_tokens": 10}}
                    if status == 200 else {"error": {"type": "rate_limit_exceeded"}})
        return {"id": f"req-{n}", "timestamp": at, "url": "https://api.openai.com/v1/chat/completions",
                "session_id": "s1", "status": status, "response": response,
                "request": {"model": "gpt-4o", "messages": [system, *messages]}}

    path = folder / "proxy.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in [
        record(1, 1793700000.25, [ask]), record(2, 1793700005, [ask, lookup, found], 429),
        record(3, 1793700007, [ask, lookup, found]), record(4, 1793700010, [ask, lookup, found, read, env])]))
    return path


def test_unix_times_of_a_request_log_are_shown_as_times(tmp_path):
    """1793700000 s is 2026-11-03 10:00:00 UTC: the phone is first sent by the call that failed with 429
    (it reached the API) at 10:00:05, the key by call 4 at 10:00:10, and the terminal shows those times."""
    log = _request_log(tmp_path)
    out = _audit(tmp_path, log, "s1")
    assert (out["calls"], out["cloud_calls"]) == (4, 4)
    first = {leak["unit_id"].split("/", 1)[1]: (leak["step"], leak["timestamp"]) for leak in out["leaked"]}
    assert first == {"P1/name": (1, "2026-11-03T10:00:00.250000Z"), "P1/phone": (2, "2026-11-03T10:00:05Z"),
                     "SYS/openai_key": (4, "2026-11-03T10:00:10Z")}
    assert [t["timestamp"] for t in out["timeline"]] == [
        "2026-11-03T10:00:00.250000Z", "2026-11-03T10:00:05Z", "2026-11-03T10:00:07Z", "2026-11-03T10:00:10Z"]
    assert out["sessions"][0]["exposure"] == (1.0 + 1.5 + 3.0) / 8
    table = CliRunner().invoke(main, ["audit", str(log), "--units", str(tmp_path / "units.jsonl"),
                                      "--task-map", str(tmp_path / "map.json")])
    assert "#2 10:00:05" in table.stdout and "#4 10:00:10" in table.stdout


def _openclaw(folder: Path, session: str, results: list[str]) -> Path:
    """An OpenClaw transcript: the user asks, then one `exec` call per tool result, then an answer."""
    lines: list[dict] = [
        {"type": "session", "version": 4, "id": session, "timestamp": "2026-11-04T10:00:00.000Z", "cwd": "/home/x"},
        {"type": "model_change", "id": "m0", "parentId": None, "timestamp": "2026-11-04T10:00:00.000Z",
         "provider": "openai", "modelId": "gpt-5.4"}]

    def add(message: dict) -> None:
        n = len(lines) - 1
        lines.append({"type": "message", "id": f"e{n}", "parentId": lines[-1]["id"],
                      "timestamp": f"2026-11-04T10:{n:02d}:00.000Z", "message": message})

    def reply(content: list) -> dict:
        return {"role": "assistant", "content": content, "api": "openai-responses", "provider": "openai",
                "model": "gpt-5.4", "usage": {"input": 100, "output": 10, "cacheRead": 0, "cacheWrite": 0}}

    add({"role": "user", "content": "Look at these outputs for me."})
    for k, text in enumerate(results):
        add(reply([{"type": "toolCall", "id": f"t{k}", "name": "exec", "arguments": {"command": "cat"}}]))
        add({"role": "toolResult", "toolCallId": f"t{k}", "toolName": "exec",
             "content": [{"type": "text", "text": text}]})
    add(reply([{"type": "text", "text": "Done."}]))
    path = folder / f"{session}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _discover(log: Path, *presidio: str) -> dict:
    """`audit --discover` of a log: ec2audit's recognizers, and Presidio's too when `presidio` says why."""
    flags = [] if presidio else ["--no-presidio"]
    result = CliRunner().invoke(main, ["audit", str(log), "--discover", *flags, "--json", "--show-values"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_a_condition_that_names_a_data_set_or_a_charity_is_no_health_leak(tmp_path):
    """Of four conditions in these outputs one is someone's: the patient's heart failure. The breast cancer
    data set, the Alzheimer's research and the diabetes association are topics."""
    log = _openclaw(tmp_path, "topics", [
        "The diabetes dataset from sklearn has 442 samples. We trained a model on the breast cancer dataset too.",
        "Donations go to Alzheimer's disease research; the American Diabetes Association co-hosts the gala.",
        "Patient record: the patient was admitted with congestive heart failure on Monday."])
    health = [leak["evidence"] for leak in _discover(log)["leaked"] if leak["dimension"] == "health"]
    assert health == ["congestive heart failure"]


def test_a_changelog_line_is_no_credential(tmp_path):
    """Git's Debian changelog says `credential: sanitize the user prompt (CVE-2024-50349)`: a sentence
    about the credential helper. Of the two outputs only the deploy note holds a secret."""
    log = _openclaw(tmp_path, "changelog", [
        "git (1:2.39.5-0+deb12u1) bookworm-security; urgency=high\n\n"
        "  * Non-maintainer upload by the Security Team.\n"
        "  * credential: sanitize the user prompt (CVE-2024-50349)\n"
        "  * credential: disallow Carriage Returns in the protocol by default (CVE-2024-52006)\n",
        "deploy notes\nDB_HOST=10.2.0.15\npassword: Wq7!rPz2kL9\n"])
    credentials = [leak["evidence"] for leak in _discover(log)["leaked"] if leak["dimension"] == "credential"]
    assert credentials == ["Wq7!rPz2kL9"]


def test_a_token_in_a_badge_url_ends_where_the_url_does(tmp_path):
    """README badges as PyPI pages show them (Markdown, reST): each `?token=` value ends at the URL's own
    end, `)` or `&`, not at the next space."""
    log = _openclaw(tmp_path, "badges", [
        "[![codecov](https://codecov.io/gh/acme/acme/graph/badge.svg?token=plzSSFb9Li)](https://codecov.io/gh/acme)\n",
        ".. image:: https://img.shields.io/codecov/c/gh/acme/acme?token=aJj1Yg0NUq&style=flat-square\n"])
    credentials = sorted(leak["evidence"] for leak in _discover(log)["leaked"] if leak["dimension"] == "credential")
    assert credentials == ["aJj1Yg0NUq", "plzSSFb9Li"]


def test_a_secret_is_named_for_its_key_not_called_a_password(tmp_path):
    """A badge's `?token=…` is a token, not a password (the recognizer's name for every keyed secret); a
    Django `SECRET_KEY`, an `api_key:` line and `DB_PASSWORD=` keep what their keys call them."""
    log = _openclaw(tmp_path, "keys", [
        "[![codecov](https://codecov.io/gh/acme/acme/graph/badge.svg?token=plzSSFb9Li)](https://codecov.io)\n",
        "settings.py: SECRET_KEY = 'dj4ng0-k3y-9f8e7d6c5b4a'\napi_key: 7f3a9c2e81d04b5f\nDB_PASSWORD=Xk82!mq9Lz\n"])
    fields = sorted((leak["unit_id"].rsplit("/", 1)[1], leak["evidence"]) for leak in _discover(log)["leaked"]
                    if leak["dimension"] == "credential")
    assert fields == [("api_key", "7f3a9c2e81d04b5f"), ("db_password", "Xk82!mq9Lz"),
                      ("secret", "dj4ng0-k3y-9f8e7d6c5b4a"), ("token", "plzSSFb9Li")]


def test_a_sentence_that_opens_with_in_or_my_names_nobody(tmp_path):
    """Label Studio's SDK changelog opens `In August 2025, we released SDK 2.0.0`; `In` and `My` are US census
    first names, but here the one person is the maintainer named after them."""
    log = _openclaw(tmp_path, "changelog-names", [
        "## SDK 2.0.0\n\nIn August 2025, we released SDK version 2.0.0. My Lord, what a release.\n"
        "Maintainer: Anna Miller\n"])
    people = [leak["evidence"] for leak in _discover(log)["leaked"] if leak["dimension"] == "person_name"]
    assert people == ["Anna Miller"]


def test_a_mails_message_id_is_no_address_to_label(tmp_path):
    """A claims e-mail as a mail client saves it: two people, their two addresses and the amount are five
    values to label; `Message-ID: <CAF8x9kP2Q7r3s1T@mail.northwind.com>` names the message, nobody's mailbox."""
    workspace = tmp_path / "claims"
    workspace.mkdir()
    (workspace / "message.eml").write_text(
        "From: Emily Rutherford <emily.rutherford@northwind.com>\n"
        "To: Carlos Mendes <carlos.mendes@contoso.com>\n"
        "Subject: Your claim HF-2041\n"
        "Date: Tue, 3 Nov 2026 09:14:00 +0000\n"
        "Message-ID: <CAF8x9kP2Q7r3s1T@mail.northwind.com>\n"
        "In-Reply-To: <a81Bq2@mail.contoso.com>\n\n"
        "Hi Carlos,\n\nYour claim HF-2041 was approved. We will pay $1,480.00 within 5 business days.\n\n"
        "Best,\nEmily Rutherford\n")
    units = tmp_path / "units.jsonl"
    result = CliRunner().invoke(main, ["annotate", "prelabel", str(workspace), "--no-presidio",
                                       "--out", str(tmp_path / "ls.json"), "--units", str(units)])
    assert result.exit_code == 0, result.output
    values = sorted(json.loads(line)["value"] for line in units.read_text().splitlines())
    assert values == ["$1,480.00", "Carlos Mendes", "Emily Rutherford", "carlos.mendes@contoso.com",
                      "emily.rutherford@northwind.com"]


def test_an_interceptor_store_is_scored_against_the_task_its_calls_were_tagged_with(tmp_path):
    """Requests sent through `intercept serve` under `/e/<episode>/t/billing/v1`: `audit cloud.sqlite`
    scores each episode against task billing, as `intercept audit` does. ep1 sent name, phone and card
    (1 + 1.5 + 2.5 of 8), ep2 nothing of the task's."""
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps(u) + "\n" for u in UNITS))
    store = tmp_path / "cloud.sqlite"
    standin = standin_server()
    _, upstream = next(standin)
    try:
        with running_proxy(upstream, store) as (_, url, _):
            ask = {"role": "user", "content": "Call Dana Whitfield at +1 415-555-0199"}
            card = {"role": "user", "content": "Her card is 4111 1111 1111 1111"}
            for episode, messages in (("ep1", [ask]), ("ep1", [ask, card]),
                                      ("ep2", [{"role": "user", "content": "What is 2+2?"}])):
                httpx.post(f"{url}/e/{episode}/t/{TASK}/v1/chat/completions",
                           json={"model": "gpt-4o", "messages": messages}, timeout=10).raise_for_status()
    finally:
        next(standin, None)
    result = CliRunner().invoke(main, ["audit", str(store), "--units", str(units), "--json"])
    assert result.exit_code == 0, result.output
    sessions = {s["session"]: (s["units"], s["leaked"], s["exposure"], s["scored_against"])
                for s in json.loads(result.stdout)["sessions"]}
    assert sessions == {"ep1": (4, 3, 5 / 8, f"task {TASK}"), "ep2": (4, 0, 0.0, f"task {TASK}")}


def _har_entry(url: str, method: str, body: dict | None, response: str, at: str) -> dict:
    request = {"method": method, "url": url, "httpVersion": "h2", "headers": [], "queryString": [], "cookies": [],
               "headersSize": -1, "bodySize": -1}
    if body is not None:
        request["postData"] = {"mimeType": "application/json", "text": json.dumps(body)}
    return {"startedDateTime": at, "time": 120, "request": request, "cache": {}, "timings": {"wait": 100},
            "response": {"status": 200, "statusText": "", "httpVersion": "h2", "headers": [], "cookies": [],
                         "content": {"size": len(response), "mimeType": "text/event-stream", "text": response},
                         "redirectURL": "", "headersSize": -1, "bodySize": -1}}


def test_a_browser_har_of_chatgpt_reads_what_the_user_typed(tmp_path):
    """Chrome's HAR of a page that calls the OpenAI API and of ChatGPT's web app, whose messages are
    `{"author": {"role": "user"}, "content": {"content_type": "text", "parts": [...]}}`: all four values
    reached OpenAI (1 + 1.5 + 1.5 + 2.5 of 6.5), the phone and card by the ChatGPT call at 08:00:05."""
    units = [{"task_id": "web", "entity_id": "P1", "field": f, "value": v, "dimension": d} for f, v, d in (
        ("name", "Dana Whitfield", "person_name"), ("email", "dana.whitfield@gmail.com", "contact"),
        ("phone", "+1 415-555-0199", "contact"), ("card", "4539 1488 0343 6467", "financial"))]
    (tmp_path / "units.jsonl").write_text("".join(json.dumps(u) + "\n" for u in units))
    (tmp_path / "map.json").write_text(json.dumps({"chrome": "web"}))
    stream = ('data: {"id":"c1","model":"gpt-4o","choices":[],"usage":{"prompt_tokens":120,"completion_tokens":7}}'
              "\n\ndata: [DONE]\n\n")
    api_call = {"model": "gpt-4o", "stream": True, "messages": [
        {"role": "user", "content": "Email Dana Whitfield at dana.whitfield@gmail.com"}]}
    chatgpt = {"action": "next", "parent_message_id": "client-created-root", "model": "auto", "messages": [
        {"id": "aaa1", "author": {"role": "user"}, "metadata": {}, "content": {
            "content_type": "text", "parts": ["My phone is +1 415-555-0199, card 4539 1488 0343 6467"]}}]}
    entries = [
        _har_entry("https://cdn.example.com/app.js", "GET", None, "console.log(1)", "2026-11-06T08:00:00.000Z"),
        _har_entry("https://api.openai.com/v1/chat/completions", "POST", api_call, stream, "2026-11-06T08:00:02.000Z"),
        _har_entry("https://chatgpt.com/backend-api/conversation", "POST", chatgpt, "data: [DONE]\n\n",
                   "2026-11-06T08:00:05.000Z")]
    har = tmp_path / "chrome.har"
    har.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "WebInspector"}, "entries": entries}}))
    result = CliRunner().invoke(main, ["audit", str(har), "--units", str(tmp_path / "units.jsonl"),
                                       "--task-map", str(tmp_path / "map.json"), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["calls"], out["cloud_calls_without_content"]) == (2, 0)
    assert out["sessions"][0]["exposure"] == 1.0
    first = {leak["unit_id"]: (leak["step"], leak["timestamp"], leak["provider"]) for leak in out["leaked"]}
    assert first["web/P1/card"] == first["web/P1/phone"] == (2, "2026-11-06T08:00:05.000Z", "openai")


def test_calls_without_text_are_counted_in_plain_words(tmp_path):
    """A HAR whose second call sent only an image: "2 model calls read, 1 carried prompt content, 1 carried
    none", and no hint at OpenTelemetry's content capture, which a HAR does not have."""
    image = {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBO"}}]}
    entries = [_har_entry("https://api.openai.com/v1/chat/completions", "POST", {"model": "gpt-4o", "messages": m},
                          "{}", f"2026-11-06T08:00:0{n}.000Z")
               for n, m in enumerate([[{"role": "user", "content": "Hello"}], [image]])]
    har = tmp_path / "chrome.har"
    har.write_text(json.dumps({"log": {"version": "1.2", "entries": entries}}))
    result = CliRunner().invoke(main, ["audit", str(har), "--discover", "--no-presidio"])
    assert "har: 2 model calls read, 1 carried prompt content, 1 carried none" in result.stdout
    units = tmp_path / "units.jsonl"
    units.write_text(json.dumps(UNITS[0]) + "\n")
    result = CliRunner().invoke(main, ["audit", str(har), "--units", str(units)])
    assert "no leak found in the 1 cloud call with content; 1 call carried no content\n" in result.stdout


def test_anthropic_documents_and_search_results_are_read(tmp_path):
    """An Anthropic request log: call 1 attaches the CRM record as a plain-text `document` (citations on),
    call 2's tool returns a `search_result` block, call 3 a `document` of `content` source. Each value
    reached Anthropic: exposure 1.0, first sent by calls 1, 1, 2 and 3."""
    units = [{"task_id": "web", "entity_id": "P1", "field": f, "value": v, "dimension": d} for f, v, d in (
        ("name", "Dana Whitfield", "person_name"), ("email", "dana.whitfield@gmail.com", "contact"),
        ("phone", "+1 415-555-0199", "contact"), ("card", "4539 1488 0343 6467", "financial"))]
    (tmp_path / "units.jsonl").write_text("".join(json.dumps(u) + "\n" for u in units))
    (tmp_path / "map.json").write_text(json.dumps({"a1": "web"}))
    record = "Customer: Dana Whitfield, phone +1 415-555-0199"
    found = [{"type": "search_result", "source": "crm://cards", "title": "cards",
              "content": [{"type": "text", "text": "card 4539 1488 0343 6467"}]}]
    calls = [
        [{"role": "user", "content": [
            {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": record},
             "title": "crm.txt", "citations": {"enabled": True}},
            {"type": "text", "text": "Summarise the customer record."}]}],
        [{"role": "user", "content": "Look up the card."},
         {"role": "assistant", "content": [{"type": "tool_use", "id": "tu1", "name": "lookup", "input": {}}]},
         {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu1", "content": found}]}],
        [{"role": "user", "content": [{"type": "document", "source": {"type": "content", "content": [
            {"type": "text", "text": "email: dana.whitfield@gmail.com"}]}}]}]]
    log = tmp_path / "anthropic.jsonl"
    log.write_text("".join(json.dumps({
        "id": f"msg-{n}", "timestamp": f"2026-11-07T09:00:{n}0Z", "url": "https://api.anthropic.com/v1/messages",
        "session_id": "a1", "request": {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": messages},
        "response": {"usage": {"input_tokens": 100, "output_tokens": 10}}}) + "\n"
        for n, messages in enumerate(calls, start=1)))
    result = CliRunner().invoke(main, ["audit", str(log), "--units", str(tmp_path / "units.jsonl"),
                                       "--task-map", str(tmp_path / "map.json"), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["calls"], out["cloud_calls_without_content"], out["sessions"][0]["exposure"]) == (3, 0, 1.0)
    first = {leak["unit_id"].rsplit("/", 1)[1]: leak["step"] for leak in out["leaked"]}
    assert first == {"name": 1, "phone": 1, "card": 2, "email": 3}


def test_a_team_named_as_the_contact_is_nobody_to_label(tmp_path):
    """A release notice in Chinese: its contact is the ops team (联系人：运维组), its owner a person
    (负责人：王晓燕, 联系人：李建国). Two names to label, no team."""
    workspace = tmp_path / "notice"
    workspace.mkdir()
    (workspace / "上线通知.txt").write_text(
        "上线通知\n项目进度：前端完成80%，后端完成60%。预计下周三上线。\n联系人：运维组\n"
        "负责人：王晓燕\n技术中心值班联系人：李建国\n如有问题请联系技术中心。\n")
    units = tmp_path / "units.jsonl"
    result = CliRunner().invoke(main, ["annotate", "prelabel", str(workspace), "--no-presidio",
                                       "--out", str(tmp_path / "ls.json"), "--units", str(units)])
    assert result.exit_code == 0, result.output
    people = sorted(u["value"] for line in units.read_text().splitlines()
                    if (u := json.loads(line))["dimension"] == "person_name")
    assert people == ["李建国", "王晓燕"]


def test_placeholder_names_are_nobody(tmp_path):
    """Docs and examples name anybody 张三, 王五 or John Doe; the one person here is the maintainer."""
    log = _openclaw(tmp_path, "placeholders", [
        "示例：张三的手机号是多少？李四在哪里上班？王五负责测试。\n",
        "Example: User(name='John Doe', age=30). Maintainer: Anna Miller\n"])
    people = [leak["evidence"] for leak in _discover(log)["leaked"] if leak["dimension"] == "person_name"]
    assert people == ["Anna Miller"]


def test_an_agent_that_sends_every_tool_result_has_discovered_exposure_one(tmp_path):
    """Every tool result below went to the cloud, so by its definition the discovered exposure is 1.0.
    `35%` after 毛利率 is a business figure too short to be found without a context word: counted, it
    could never leak and made the exposure 0.5."""
    log = _openclaw(tmp_path, "report", ["公司年报显示营收增长12%，毛利率提升到35%。董事会同意分红。\n",
                                         "联系电话：13922883366\n"])
    session = _discover(log)["sessions"][0]
    assert (session["units"], session["leaked"], session["exposure"]) == (1, 1, 1.0)


def test_changelog_versions_and_headings_are_no_hosts(tmp_path):
    """A Debian changelog (`alsa-ucm-conf (1.2.7.2-1)`) and a Python package's (`* Infrastructure: add
    proper configuration …`, `version 4.3.0.38`) name no host; the deploy note's internal address does."""
    log = _openclaw(tmp_path, "changelogs", [
        "alsa-ucm-conf (1.2.7.2-1) unstable; urgency=medium\n\n  * New upstream release.\n\n"
        " -- Jordi Mallach <jordi@debian.org>  Mon, 19 Sep 2022 10:00:00 +0200\n",
        "2.1 - 2017-12-04\n------------------\n\n* Update hypothesis minimum allowed version.\n"
        "* Infrastructure: add proper configuration for readthedocs builder\n"
        "pip tries the source distribution introduced in version 4.3.0.38.\n",
        "deploy notes: the database runs at 10.20.30.40 behind db-prod-01.internal\n"])
    for presidio in ((), ("with Presidio, which reads versions as public IPs",)):
        found = _discover(log, *presidio)["leaked"]
        assert sorted(leak["evidence"] for leak in found if leak["dimension"] == "network") == [
            "10.20.30.40", "db-prod-01.internal"], presidio


def test_bug_numbers_and_url_paths_are_no_ids(tmp_path):
    """Debian's binutils changelog closes bug #1025796; a README's image URL holds 232603516. Neither is
    anybody's ID; the SSN in the HR note is, and so is the account after `Account #`."""
    log = _openclaw(tmp_path, "references", [
        "binutils (2.40-2) unstable; urgency=medium\n\n  * Don't link ld with libjansson explicitly. "
        "Closes: #1025796.\n  * Don't ship libsframe in cross binutils. Closes: #1024794.\n",
        '<img alt="Benchmark" src="https://user-images.githubusercontent.com/1309177/232603516-4fb4892d-585c.svg">\n',
        "HR note: Dana Whitfield, SSN 078-05-1120, starts Monday. Payroll to Account #4000123456.\n"])
    numbers = sorted(leak["evidence"] for leak in _discover(log, "with Presidio, which reads them as IDs")["leaked"]
                     if leak["dimension"] in ("government_id", "financial", "contact"))
    assert numbers == ["078-05-1120", "4000123456"]


def test_a_log_named_twice_is_read_once(tmp_path):
    """`audit logs/ logs/proxy.jsonl` and `./logs/../logs/proxy.jsonl` name one log of 4 calls."""
    folder = tmp_path / "logs"
    folder.mkdir()
    log = _request_log(folder)
    (tmp_path / "units.jsonl").write_text("".join(json.dumps(u) + "\n" for u in UNITS))
    for paths in ([folder, log], [log, folder / ".." / "logs" / log.name]):
        result = CliRunner().invoke(main, ["audit", *map(str, paths), "--units", str(tmp_path / "units.jsonl"),
                                           "--json"])
        out = json.loads(result.stdout)
        assert (out["logs_read"], out["calls"], len(out["files"])) == (1, 4, 1), paths


def test_a_report_source_named_twice_counts_once(tmp_path):
    """`report out/ out/findings.parquet`: one audit of three sessions (exposure 2.5/8, a clean one and
    3/8: mean 5.5/24), not two."""
    units = tmp_path / "units.jsonl"
    units.write_text("".join(json.dumps(u) + "\n" for u in UNITS))
    logs = tmp_path / "sessions"
    logs.mkdir()
    _openclaw(logs, "a", ["Dana Whitfield, +1 415-555-0199"])
    _openclaw(logs, "b", ["nothing here"])
    _openclaw(logs, "c", ["OPENAI_API_KEY=sk-proj-Zx81kLmQ0pRt7Yu3Wv5Nb2Hc9Df4Gj6Ka1Sd"])
    (tmp_path / "map.json").write_text(json.dumps({"a": TASK, "b": TASK, "c": TASK}))
    out = tmp_path / "out"
    out.mkdir()
    audited = CliRunner().invoke(main, ["audit", str(logs), "--units", str(units), "--task-map",
                                        str(tmp_path / "map.json"), "--out", str(out / "findings.parquet")])
    assert audited.exit_code == 0, audited.output
    result = CliRunner().invoke(main, ["report", str(out), str(out / "findings.parquet"), "--json",
                                       "--out", str(tmp_path / "report.html")])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.stdout)["strategies"]
    assert (row["episodes"], row["leaked_units"]) == (3, 3)
    assert abs(row["exposure"] - 5.5 / 24) < 1e-9


def test_the_street_of_an_address_object_is_labelled(tmp_path):
    """A user profile as an API returns it: its address is an object whose street line is the place to
    label (`user.address.street`), as is a Stripe customer's `address.line1`."""
    workspace = tmp_path / "profile"
    workspace.mkdir()
    (workspace / "profile.json").write_text(json.dumps({"user": {
        "id": 48213, "name": "Sophie van der Meulen", "email": "sophie.vdm@proton.me",
        "address": {"street": "Keizersgracht 123", "city": "Amsterdam", "zip": "1015 CJ"}}}))
    (workspace / "customer.json").write_text(json.dumps({"object": "customer", "name": "Marcus Delaney",
                                                         "address": {"line1": "510 Townsend St", "city": "SF"}}))
    units = tmp_path / "units.jsonl"
    result = CliRunner().invoke(main, ["annotate", "prelabel", str(workspace), "--no-presidio",
                                       "--out", str(tmp_path / "ls.json"), "--units", str(units)])
    assert result.exit_code == 0, result.output
    places = sorted((u["field"], u["value"]) for line in units.read_text().splitlines()
                    if (u := json.loads(line))["dimension"] == "location")
    assert places == [("address.line1", "510 Townsend St"), ("user.address.street", "Keizersgracht 123")]


def test_readme_headings_after_project_are_no_code_names(tmp_path):
    """README text: `![Project License]`, `Project Templates`, `ONNX Project Contributors` and a `Project
    Manager` name no project; the board's `Project Falcon` does."""
    log = _openclaw(tmp_path, "readme", [
        "![Project License](https://img.shields.io/github/license/acme/sso)\n| 🪐 **[Project Templates]** |\n"
        "Copyright (c) ONNX Project Contributors\nProject Manager: see the wiki\n",
        "Minutes: the board approved Project Falcon for Q3.\n"])
    business = [leak["evidence"] for leak in _discover(log)["leaked"] if leak["dimension"] == "business"]
    assert business == ["Falcon"]


def test_tokens_written_to_anthropics_cache_cost_what_anthropic_charges(tmp_path):
    """A call that wrote 3,000 prompt tokens to Claude's cache: 10 × $3 + 3,000 × $3.75 + 40 × $15 per
    million = $0.01188 (cache writes cost 1.25× input), not $0.00963 as if they were plain input."""
    log = tmp_path / "anthropic.jsonl"
    log.write_text(json.dumps({
        "id": "msg-1", "timestamp": "2026-11-07T09:00:00Z", "url": "https://api.anthropic.com/v1/messages",
        "session_id": "a1", "request": {"model": "claude-sonnet-4-5", "max_tokens": 64, "system": "Be brief.",
                                        "messages": [{"role": "user", "content": "Hello"}]},
        "response": {"usage": {"input_tokens": 10, "cache_creation_input_tokens": 3000,
                               "cache_read_input_tokens": 0, "output_tokens": 40}}}) + "\n")
    result = CliRunner().invoke(main, ["audit", str(log), "--discover", "--no-presidio", "--json"])
    (row,) = json.loads(result.stdout)["providers"]
    assert (row["input_tokens"], row["output_tokens"]) == (3010, 40)
    assert abs(row["cost_usd"] - 0.01188) < 1e-9


def test_tokens_written_to_anthropics_one_hour_cache_cost_the_one_hour_rate_in_a_log_audit_too(tmp_path):
    """The same call with its 3,000 written tokens kept for an hour (`cache_creation.ephemeral_1h_input_tokens`,
    as Claude Code transcripts record it): 10 × $3 + 3,000 × $6 + 40 × $15 per million = $0.01863, not the
    5-minute $0.01188; the proxy priced it so, and now the log audit does too."""
    log = tmp_path / "anthropic.jsonl"
    log.write_text(json.dumps({
        "id": "msg-1", "timestamp": "2026-11-07T09:00:00Z", "url": "https://api.anthropic.com/v1/messages",
        "session_id": "a1", "request": {"model": "claude-sonnet-4-5", "max_tokens": 64, "system": "Be brief.",
                                        "messages": [{"role": "user", "content": "Hello"}]},
        "response": {"usage": {"input_tokens": 10, "cache_creation_input_tokens": 3000,
                               "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 3000},
                               "cache_read_input_tokens": 0, "output_tokens": 40}}}) + "\n")
    result = CliRunner().invoke(main, ["audit", str(log), "--discover", "--no-presidio", "--json"])
    (row,) = json.loads(result.stdout)["providers"]
    assert (row["input_tokens"], row["output_tokens"]) == (3010, 40)
    assert abs(row["cost_usd"] - 0.01863) < 1e-9


def test_a_provider_whose_calls_are_not_all_priced_has_no_total_that_reads_as_the_whole(tmp_path):
    """Two Claude calls in a proxy's log, the second with no usage logged (its response cut off): the
    provider's cost is unknown, with the reason, not the first call's $0.00063 read as the total."""
    log = tmp_path / "anthropic.jsonl"
    call = {"url": "https://api.anthropic.com/v1/messages", "session_id": "a1",
            "request": {"model": "claude-sonnet-4-5", "max_tokens": 64,
                        "messages": [{"role": "user", "content": "Hi"}]}}
    log.write_text(json.dumps({**call, "id": "msg-1", "timestamp": "2026-11-07T09:00:00Z",
                               "response": {"usage": {"input_tokens": 10, "output_tokens": 40}}}) + "\n"
                   + json.dumps({**call, "id": "msg-2", "timestamp": "2026-11-07T09:00:05Z", "response": {}}) + "\n")
    result = CliRunner().invoke(main, ["audit", str(log), "--discover", "--no-presidio", "--json"])
    (row,) = json.loads(result.stdout)["providers"]
    assert (row["calls"], row["unpriced_calls"], row["cost_usd"]) == (2, 1, None)
    table = CliRunner().invoke(main, ["audit", str(log), "--discover", "--no-presidio"], env={"COLUMNS": "200"})
    assert "unknown: 1 of 2 unpriced" in table.output and "0.0006" not in table.output
