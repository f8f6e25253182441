"""The guard's eighteenth walk (session 28, guard18): what still went through, over loopback HTTP in front of the
scripted stand-in, judged on what the stand-in RECEIVED and on the store's row.

- a file a tool's output is sent as when it is large, compressed or packed (`notes.txt.gz`, `.bz2`, `.xz`, a
  `.tar`, a `.tar.gz`, a zip holding a `.gz`), as base64 in a file part of any API: no signature of `media.py`
  knew it, so it was scanned as base64 text, decoded to nothing, and forwarded in both modes (through the Uploads
  API's forms it was refused as unreadable, naming no unit); each is read down to the text inside it now
  (`media.UNPACKERS`, `media.archive_text`), bounded as a zip's members are;
- a byte dump in 2- or 4-byte words (`od -x`, `od -tx4`, `hexdump`, `hexdump -x`), whose words hold the bytes
  little-endian (`6870` is `ph`), or in octal or characters after a hex offset (`hexdump -b`, `hexdump -c`): `dumps`
  read xxd's layout (bytes in order) and od's octal offsets only, so the words decoded to swapped text and the hex
  offsets stopped the run after a line; both are read now (`forms.dumps`, `_WORD_LINE`, either base);
- a Chinese name percent-encoded in GBK (`quote(name, encoding="gbk")`, a Chinese site's form, a Baidu link's
  `wd=`), in a message, a query parameter or a tool's result: its bytes are no UTF-8, so no view read them; they are
  read as GB18030 now where every character they make is a Han character (`views._percent_text`);
- a mail's raw source whose body is base64 or quoted-printable in the charset its headers declare (GB2312, GBK;
  Latin-1 as base64): read as UTF-8 only, so the body's values went out; read in its charset now
  (`forms.mime_bodies`);
- a Responses request with no `input`, naming a stored prompt and its `variables` (`responses.create(prompt=…)`):
  refused as malformed (400), though the API takes it; read and forwarded as any request now (`shape.validate`).
"""

from __future__ import annotations

import base64
import bz2
import gzip
import io
import lzma
import quopri
import re
import tarfile
import urllib.parse
import zipfile

import pytest
from intercept_helpers import json_strings
from test_intercept_forms_walk_3 import NEAR, RECORD, UNIT_IDS, UNITS, _line
from test_intercept_upload_seams import enforcing

__all__ = ["GROUPS", "UNITS", "enforcing"]

NAME = RECORD["name"]


def _findings(store, episode: str) -> set[str]:
    [record] = store.records(episode)
    return {f["unit_id"] for f in record.findings or []}


# --- archives and compressed files ----------------------------------------------------------------------------------

def _tar(data: bytes, mode: str = "w") -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode=mode) as archive:
        info = tarfile.TarInfo("export/notes.txt")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _zip_of_gzip(data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("logs/notes.txt.gz", gzip.compress(data))
    return out.getvalue()


#: kind → the file a text is sent as (`gzip -c`, `bzip2 -c`, `xz -c`, `tar -cf`, `tar -czf`, a zip of a `.gz`)
PACKED = {"gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress, "tar": _tar,
          "tar.gz": lambda data: _tar(data, "w:gz"), "zip of a gzip": _zip_of_gzip}


def _file_places(data: bytes) -> dict:
    """place → (path, JSON body | None, multipart files | None): the file in each API's file part."""
    b64 = base64.b64encode(data).decode()
    return {
        "responses input_file": ("/v1/responses", {"model": "echo", "input": [{"role": "user", "content": [
            {"type": "input_file", "filename": "notes.gz", "file_data": f"data:application/gzip;base64,{b64}"}]}]},
            None),
        "chat file": ("/v1/chat/completions", {"model": "echo", "messages": [{"role": "user", "content": [
            {"type": "file", "file": {"filename": "notes.gz", "file_data": f"data:application/gzip;base64,{b64}"}}]}]},
            None),
        "anthropic document": ("/v1/messages", {"model": "echo", "max_tokens": 64, "messages": [{"role": "user",
            "content": [{"type": "document", "source": {"type": "base64", "media_type": "application/gzip",
                                                        "data": b64}}]}]}, None),
        "gemini inlineData": ("/v1beta/models/echo:generateContent", {"contents": [{"role": "user", "parts": [
            {"inlineData": {"mimeType": "application/gzip", "data": b64}}]}]}, None),
        "files upload": ("/v1/files", None, {"file": ("notes.gz", data, "application/gzip")}),
    }


PLACES = list(_file_places(b""))


def _send(client, episode: str, place: str, data: bytes):
    path, body, files = _file_places(data)[place]
    if files is not None:
        return client.post(f"/e/{episode}{path}", data={"purpose": "assistants"}, files=files)
    return client.post(f"/e/{episode}{path}", json=body)


def archive_outcome(proxy, kind: str, place: str) -> str:
    """"held" where the record's line sent as a `kind` file in `place` is read: the record names every unit of it,
    and the request is refused (403) in both modes (no placeholder goes into a file's bytes), nothing sent; and the
    near record's line sent the same way goes out as it was sent (its bytes, or their base64, in what was sent)."""
    mode, app, client, store = proxy
    episode = f"packed-{kind}-{place}-{mode}".replace(" ", "_")
    try:
        seen = len(app.state.requests)
        answer = _send(client, episode, place, PACKED[kind](_line(RECORD).encode()))
        assert (answer.status_code, app.state.requests[seen:]) == (403, []), answer.text
        assert _findings(store, episode) == UNIT_IDS
        near = PACKED[kind](_line(NEAR).encode())
        answer = _send(client, f"{episode}-near", place, near)
        sent = app.state.requests[seen:]
        assert answer.status_code == 200 and len(sent) == 1, answer.text
        assert near in sent[0]["raw"] or base64.b64encode(near) in sent[0]["raw"]
        assert _findings(store, f"{episode}-near") == set()
    except (AssertionError, KeyError, ValueError, TypeError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("kind", sorted(PACKED))
def test_a_compressed_or_packed_file_is_read_in_every_file_place(enforcing, kind):
    assert {place: archive_outcome(enforcing, kind, place) for place in PLACES} == dict.fromkeys(PLACES, "held")


# --- byte dumps in words, and in octal or characters after a hex offset ---------------------------------------------

def _dump(data: bytes, offset: str, cells, pad: int = 0) -> str:
    """A dump as od and hexdump write one: sixteen bytes a line after the offset (`offset`: its format), the last
    line padded to `pad` characters (hexdump), and a line of the length dumped."""
    lines = [f"{i:{offset}}" + cells(data[i:i + 16]).ljust(pad) for i in range(0, len(data), 16)]
    return "\n".join([*lines, f"{len(data):{offset}}"]) + "\n"


def _words(chunk: bytes, size: int, gap: str) -> str:
    """The bytes as little-endian words of `size` bytes, in hex, each after `gap` (the last padded with NULs)."""
    chunk += b"\x00" * (-len(chunk) % size)
    return "".join(gap + chunk[k:k + size][::-1].hex() for k in range(0, len(chunk), size))


def _character(byte: int) -> str:
    """A byte as `hexdump -c` (and `od -c`) writes it: four characters wide, ASCII as itself, an escape, or octal."""
    return f"   {chr(byte)}" if 32 <= byte < 127 else "  \\n" if byte == 10 else f" {byte:03o}"


#: form → the dump of bytes as the tool writes it (each checked byte for byte against GNU od 9.1 and util-linux
#: hexdump 2.38.1 on the record's line, 214 bytes, and its first 77: the last line short, its word padded)
DUMPS = {"od -x": lambda d: _dump(d, "07o", lambda c: _words(c, 2, " ")),
         "od -tx4": lambda d: _dump(d, "07o", lambda c: _words(c, 4, " ")),
         "hexdump": lambda d: _dump(d, "07x", lambda c: _words(c, 2, " "), 40),
         "hexdump -x": lambda d: _dump(d, "07x", lambda c: _words(c, 2, "    "), 64),
         "hexdump -b": lambda d: _dump(d, "07x", lambda c: "".join(f" {b:03o}" for b in c), 64),
         "hexdump -c": lambda d: _dump(d, "07x", lambda c: "".join(_character(b) for b in c), 64)}
#: where the dump is sent: a user's message, a tool's result in Anthropic's API, a function's output in the Responses
DUMP_PLACES = {
    "chat user": ("/v1/chat/completions", lambda t: {"model": "echo", "messages": [{"role": "user", "content": t}]}),
    "anthropic tool_result": ("/v1/messages", lambda t: {"model": "echo", "max_tokens": 64, "messages": [
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": t}]}]}),
    "responses function_call_output": ("/v1/responses", lambda t: {"model": "echo", "input": [
        {"type": "function_call_output", "call_id": "c1", "output": t}]}),
}
_DUMP_LINE = re.compile(r"[0-9a-f]{7}((?: +[0-9a-f]{3,8})+) *")
_CHARACTER_LINE = re.compile(r"[0-9a-f]{7}((?:   \S|  \\n| [0-3][0-7]{2}|    )+)")


def dump_bytes(text: str) -> bytes:
    """What a reader of the dumps in `text` reads: each line's words (four or eight hex digits) little-endian, its
    three-digit cells as octal bytes, its four-character cells as characters; the test's own reading, no code of the
    guard's."""
    out = bytearray()
    for line in text.splitlines():
        if m := _DUMP_LINE.fullmatch(line):
            out += b"".join(bytes([int(c, 8)]) if len(c) == 3 else bytes.fromhex(c)[::-1] for c in m.group(1).split())
        elif m := _CHARACTER_LINE.fullmatch(line):
            cells = [m.group(1)[k:k + 4] for k in range(0, len(m.group(1)), 4)]
            out += b"".join(b"\n" if c == "  \\n" else bytes([int(c, 8)]) if c[1:].isdigit() else c[3:].encode() or b" "
                            for c in cells)
    return bytes(out)


def sent_outcome(proxy, episode: str, place: str, text: str, near: str, units: set[str], leaked) -> str:
    """"held" where `text`, sent in `place`, is found (every one of `units` named), forwarded with nothing
    `leaked(sent text)` lists (redact) or refused, nothing sent (block); `near` goes out as it was sent, no finding."""
    mode, app, client, store = proxy
    path, body = DUMP_PLACES[place]
    try:
        seen = len(app.state.requests)
        answer = client.post(f"/e/{episode}{path}", json=body(text))
        sent = ["\n".join(json_strings(r["body"])) for r in app.state.requests[seen:]]
        assert _findings(store, episode) == units
        if mode == "block":
            assert (answer.status_code, sent) == (403, []), answer.text
        else:
            assert answer.status_code == 200 and len(sent) == 1, answer.text
            assert leaked(sent[0]) == [], sent[0]
        answer = client.post(f"/e/{episode}-near{path}", json=body(near))
        assert answer.status_code == 200 and _findings(store, f"{episode}-near") == set()
        assert near in set(json_strings(app.state.requests[-1]["body"]))
    except (AssertionError, KeyError, ValueError, TypeError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


def dump_outcome(proxy, form: str, place: str) -> str:
    """`sent_outcome` of the record's line dumped as `form` after a label: no value a reader of the dump reads."""
    text = "$ " + form + " notes.txt\n" + DUMPS[form](_line(RECORD).encode())
    if {v for v in RECORD.values() if v.encode() in dump_bytes(text)} != set(RECORD.values()):
        return "not held: the dump does not hold the record"
    near = "$ " + form + " notes.txt\n" + DUMPS[form](_line(NEAR).encode())
    episode = f"dump-{form}-{place}-{proxy[0]}".replace(" ", "_")
    return sent_outcome(proxy, episode, place, text, near, UNIT_IDS,
                        lambda sent: [v for v in RECORD.values() if v.encode() in dump_bytes(sent) or v in sent])


@pytest.mark.parametrize("form", sorted(DUMPS))
def test_a_dump_in_words_or_after_a_hex_offset_is_read(enforcing, form):
    assert {place: dump_outcome(enforcing, form, place) for place in DUMP_PLACES} == dict.fromkeys(DUMP_PLACES,
                                                                                                   "held")


# --- a name percent-encoded in GBK ----------------------------------------------------------------------------------

def _gbk(text: str) -> str:
    return urllib.parse.quote(text, encoding="gbk")


#: place → (path, JSON body holding the text, query holding it): a user's message, a URL's query, a Gemini tool's
#: response
GBK_PLACES = {
    "chat user": ("/v1/chat/completions", lambda t: {"model": "echo", "messages": [{"role": "user", "content": t}]},
                  lambda t: {}),
    "query": ("/v1/chat/completions", lambda t: {"model": "echo", "messages": [{"role": "user", "content": "hi"}]},
              lambda t: {"ref": t}),
    "gemini functionResponse": ("/v1beta/models/echo:generateContent", lambda t: {"contents": [{"role": "user",
        "parts": [{"functionResponse": {"name": "search", "response": {"url": t}}}]}]}, lambda t: {}),
}


def percent_outcome(proxy, place: str) -> str:
    """"held" where a search link holding the name percent-encoded in GBK (`wd=%C5%B7…`: the link's query text, the
    query parameter's value) is found, forwarded without the name's bytes in any spelling (redact) or refused,
    nothing sent (block); the near record's name encoded the same way goes out as it was sent."""
    mode, app, client, store = proxy
    path, body, query = GBK_PLACES[place]
    episode = f"gbk-{place}-{mode}".replace(" ", "_")
    try:
        for name, near in ((NAME, False), (NEAR["name"], True)):
            link = f"https://www.baidu.com/s?ie=gbk&wd={_gbk(name)}"
            text = link if place == "query" else f"see {link}"
            seen = len(app.state.requests)
            answer = client.post(f"/e/{episode}-{near}{path}", json=body(text), params=query(text))
            sent = app.state.requests[seen:]
            spellings = [_gbk(name), _gbk(_gbk(name)), _gbk(name).lower()]
            if near:
                assert answer.status_code == 200 and _findings(store, f"{episode}-{near}") == set()
                assert any(_gbk(name) in s for s in (sent[0]["raw"].decode(), urllib.parse.unquote(sent[0]["query"])))
                continue
            assert _findings(store, f"{episode}-{near}") == {"t1/P1/name"}
            if mode == "block":
                assert (answer.status_code, sent) == (403, []), answer.text
            else:
                assert answer.status_code == 200 and len(sent) == 1, answer.text
                out = sent[0]["raw"].decode() + sent[0]["query"]
                assert not [s for s in spellings if s in out or s in urllib.parse.unquote(out)], out
    except (AssertionError, KeyError, ValueError, TypeError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


def test_a_name_percent_encoded_in_gbk_is_read(enforcing):
    assert {place: percent_outcome(enforcing, place) for place in GBK_PLACES} == dict.fromkeys(GBK_PLACES, "held")


# --- a mail's body in the charset its headers declare ----------------------------------------------------------------

#: charset → the fields its body carries (the values it can write: the Han name in GB2312/GBK, the accented contact
#: in Latin-1) and how a line names each
MAIL_FIELDS = {"gb2312": {"name": "客户", "phone": "手机", "email": "邮箱", "national_id": "身份证"},
               "gbk": {"name": "客户", "phone": "手机", "email": "邮箱", "national_id": "身份证"},
               "iso-8859-1": {"contact": "Kunde", "phone": "Telefon", "email": "E-Mail"}}
#: (Latin-1 in quoted-printable was read before: `quoted_printable` reads a declared Latin-1's `=E9` as `é`)
MAIL_CELLS = [(charset, encoding) for charset in MAIL_FIELDS for encoding in ("base64", "quoted-printable")
              if (charset, encoding) != ("iso-8859-1", "quoted-printable")]


def _mail(record: dict, charset: str, encoding: str) -> str:
    """A mail's raw source as `mutt`'s "view raw" or `curl imaps://…` prints it: headers, then the body's bytes in
    `charset`, as base64 wrapped at 76 columns or as quoted-printable."""
    body = "".join(f"{label}: {record[field]}\n" for field, label in MAIL_FIELDS[charset].items()).encode(charset)
    written = base64.encodebytes(body).decode() if encoding == "base64" else quopri.encodestring(body).decode()
    return ("From: desk@example.net\nSubject: ticket 4471\nMIME-Version: 1.0\n"
            f'Content-Type: text/plain; charset="{charset}"\nContent-Transfer-Encoding: {encoding}\n\n{written}')


def mail_read(text: str, charset: str) -> str:
    """What a reader of the mail reads in its body (everything after the headers' blank line), decoded as its
    transfer encoding says and read in `charset` (nothing where it is no base64: a placeholder); the test's own
    reading."""
    head, _, body = text.partition("\n\n")
    try:
        raw = base64.b64decode("".join(body.split())) if "base64" in head else quopri.decodestring(body.encode())
    except ValueError:
        return ""
    return raw.decode(charset, "replace")


def mail_outcome(proxy, charset: str, encoding: str, place: str) -> str:
    """`sent_outcome` of a mail whose body is in `charset`: none of the units its body carries in the body as its
    reader reads it."""
    def leaked(sent: str) -> list[str]:
        read = sent + mail_read(sent[sent.index("From: "):], charset)
        return [f for f in MAIL_FIELDS[charset] if RECORD[f] in read]

    episode = f"mail-{charset}-{encoding}-{place}-{proxy[0]}".replace(" ", "_")
    return sent_outcome(proxy, episode, place, _mail(RECORD, charset, encoding), _mail(NEAR, charset, encoding),
                        {f"t1/P1/{field}" for field in MAIL_FIELDS[charset]}, leaked)


@pytest.mark.parametrize(("charset", "encoding"), MAIL_CELLS)
def test_a_mail_body_is_read_in_the_charset_its_headers_declare(enforcing, charset, encoding):
    outcomes = {place: mail_outcome(enforcing, charset, encoding, place) for place in DUMP_PLACES}
    assert outcomes == dict.fromkeys(DUMP_PLACES, "held")


# --- a Responses request with no `input`: a stored prompt's variables ----------------------------------------------

#: how a variable carries the record's line: as text, or as a file (`input_file`, its `file_data` a data URL)
VARIABLES = {"text": lambda line: line,
             "input_file": lambda line: {"type": "input_file", "filename": "notes.txt", "file_data":
                                         "data:text/plain;base64," + base64.b64encode(line.encode()).decode()}}


def _data_url_text(value) -> str:
    """The text a variable's file holds as its reader reads it (nothing where it is no base64 now: a placeholder)."""
    try:
        return base64.b64decode(value["file_data"].split(",", 1)[1], validate=True).decode()
    except (TypeError, ValueError):
        return ""


def prompt_outcome(proxy, variable: str) -> str:
    """"held" where a Responses request naming a stored prompt (`prompt: {id, variables}`, no `input`: the API takes
    it so, and the OpenAI SDK's `responses.create(prompt=…)` sends it so) is read: every unit of the record's line in
    a variable named, none forwarded (redact: in the text, in the file's text as base64) or nothing sent (block);
    the near record's line forwarded as sent. Before, the proxy refused every such request (400: `input` must be a
    string)."""
    mode, app, client, store = proxy
    episode = f"prompt-{variable}-{mode}"
    try:
        for record, near in ((RECORD, False), (NEAR, True)):
            value = VARIABLES[variable](_line(record))
            seen = len(app.state.requests)
            answer = client.post(f"/e/{episode}-{near}/v1/responses", json={
                "model": "echo", "prompt": {"id": "pmpt_ticket", "version": "2", "variables": {"customer": value}}})
            sent = app.state.requests[seen:]
            if near:
                assert answer.status_code == 200 and _findings(store, f"{episode}-{near}") == set(), answer.text
                assert sent[0]["body"]["prompt"]["variables"]["customer"] == value
                continue
            assert _findings(store, f"{episode}-{near}") == UNIT_IDS, answer.text
            if mode == "block":
                assert (answer.status_code, sent) == (403, []), answer.text
            else:
                assert answer.status_code == 200 and len(sent) == 1, answer.text
                out = "\n".join(json_strings(sent[0]["body"]))
                out += _data_url_text(sent[0]["body"]["prompt"]["variables"]["customer"])
                assert [v for v in RECORD.values() if v in out] == [], out
    except (AssertionError, KeyError, ValueError, TypeError) as e:
        return f"not held: {str(e)[:200]}"
    return "held"


@pytest.mark.parametrize("variable", sorted(VARIABLES))
def test_a_stored_prompts_variables_are_read_and_forwarded(enforcing, variable):
    assert prompt_outcome(enforcing, variable) == "held"


#: The cells `benchmarks/guard_forms_matrix.py --walk 18` counts
GROUPS = {"archives and compressed files": ([(kind, place) for kind in PACKED for place in PLACES], archive_outcome),
          "dumps in words, octal, characters": ([(form, place) for form in DUMPS for place in DUMP_PLACES],
                                                dump_outcome),
          "names percent-encoded in GBK": ([(place,) for place in GBK_PLACES], percent_outcome),
          "mail bodies in a declared charset": ([(*cell, place) for cell in MAIL_CELLS for place in DUMP_PLACES],
                                                mail_outcome),
          "a stored prompt's variables, no input": ([(variable,) for variable in VARIABLES], prompt_outcome)}
