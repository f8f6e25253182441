"""The guard against more forms real tool output carries (session 15), walked as `test_intercept_forms_walk.py`
walks: over loopback HTTP in front of the scripted stand-in upstream, the customer record (the seven units of
that walk and a Latin name with accents) in every request position of the wire APIs, streamed too, written as
XML elements and attributes, YAML as PyYAML dumps it, `.env`/INI lines, SQL INSERT rows, psql and MySQL result
tables, grep's colour escapes, a `git diff`, logfmt lines, `mailto:`/`tel:` links, an e-mail body in
quoted-printable and a subject in RFC 2047 encoded words, Python reprs of bytes, Unicode spacing (NBSP, narrow
NBSP, soft hyphens, bidi marks), decomposed accents (NFD), phone numbers written with a country code,
parentheses and an extension, obfuscated e-mail addresses, salaries with currency signs and separators,
Chinese full-width punctuation around the values, a search snippet's highlighting tags (also inside JSON text
as Go writes it, `\\u003cem\\u003e`), git's octal-quoted paths, a JWT, a raw mail in ISO-8859-1, the name
written without its accents, and YAML's `\\UXXXXXXXX` escapes.

Judged as that walk judges, on what the upstream RECEIVED read with every encoding undone (the first walk's
and this one's: ANSI escapes, quoted-printable, encoded words, `\\xNN` and `\\UXXXXXXXX` escapes, ` [at] `/` dot `,
accents dropped): redact forwards no value, block forwards nothing. Near misses (another record of the same
shape, and values a careless decoder would join into a unit's) go out untouched."""

from __future__ import annotations

import base64
import codecs
import email.charset
import email.errors
import email.header
import functools
import json
import quopri
import re
import unicodedata
from xml.sax.saxutils import escape, quoteattr

import pytest
import yaml
from intercept_helpers import json_strings
from test_intercept_forms_walk import (
    CELLS,
    DIMENSIONS,
    _canonical,
    _decodings,
    build,
    leaked,
    walk_tests,
)

from ec2audit.units import make_unit

RECORD = {"name": "欧阳娜娜", "phone": "13922883366", "email": "lena.hartmann@example.org",
          "national_id": "110105198803153418", "iban": "DE89370400440532013000", "salary": "486000",
          "api_key": "sk-proj-7fK2mQ9xL4vB8nR3tY6w", "contact": "José Núñez"}
UNITS = [make_unit({"task_id": "t1", "entity_id": "P1", "field": f, "value": v,
                    "dimension": DIMENSIONS.get(f, "person_name")}) for f, v in RECORD.items()]
UNIT_IDS = {u.id for u in UNITS}


# --- the forms: a record → the content parts that carry it ---------------------------------------------

def _line(record: dict) -> str:
    return "; ".join(f"{k}: {v}" for k, v in record.items())


def _xml_elements(r: dict) -> str:
    return "<customer>\n" + "".join(f"  <{k}>{escape(v)}</{k}>\n" for k, v in r.items()) + "</customer>"


def _xml_attributes(r: dict) -> str:
    return "<customer " + " ".join(f"{k}={quoteattr(v)}" for k, v in r.items()) + "/>"


def _yaml(r: dict) -> str:
    """PyYAML's default dump: non-ASCII written as `\\uXXXX` in double quotes, numbers-as-strings quoted."""
    return yaml.safe_dump({**r, "salary": int(r["salary"])})


def _dotenv(r: dict) -> str:
    quotes = ['"{}"', "'{}'", "{}"]
    return "[customer]\n" + "".join(f"CUSTOMER_{k.upper()}={quotes[i % 3].format(v)}\n" for i, (k, v) in
                                    enumerate(r.items()))


def _sql(r: dict) -> str:
    values = ", ".join(v if k == "salary" else "'" + v.replace("'", "''") + "'" for k, v in r.items())
    return f"INSERT INTO customers ({', '.join(r)}) VALUES ({values});"


def _psql(r: dict) -> str:
    """psql with `\\pset linestyle unicode`, records expanded (`\\x`), and mysql's table of the same row."""
    width = max(map(len, r))
    expanded = "─[ RECORD 1 ]" + "─" * 20 + "\n" + "".join(f"{k:<{width}} │ {v}\n" for k, v in r.items())
    rule = "+" + "+".join("-" * (max(len(k), len(v)) + 2) for k, v in r.items()) + "+"
    head = "| " + " | ".join(f"{k:<{max(len(k), len(v))}}" for k, v in r.items()) + " |"
    row = "| " + " | ".join(f"{v:<{max(len(k), len(v))}}" for k, v in r.items()) + " |"
    return f"{expanded}\n{rule}\n{head}\n{rule}\n{row}\n{rule}\n1 row in set (0.00 sec)"


def _grep_colour(r: dict) -> str:
    """`grep --color=always` output: the matched part of each value (its second half) highlighted."""
    def hi(v: str) -> str:
        cut = len(v) // 2
        return f"{v[:cut]}\x1b[01;31m\x1b[K{v[cut:]}\x1b[m\x1b[K"
    return "\n".join(f"\x1b[35m\x1b[Kcustomers.txt\x1b[m\x1b[K\x1b[36m\x1b[K:\x1b[m\x1b[K{k}: {hi(v)}"
                     for k, v in r.items())


def _git_diff(r: dict) -> str:
    lines = "".join(f'-  "{k}": "",\n+  "{k}": {json.dumps(v, ensure_ascii=False)},\n' for k, v in r.items())
    return ("diff --git a/customers.json b/customers.json\nindex 3f2a1c9..8b7e4d2 100644\n--- a/customers.json\n"
            f"+++ b/customers.json\n@@ -1,9 +1,9 @@\n {{\n{lines} }}")


def _logfmt(r: dict) -> str:
    pairs = " ".join(f'{k}="{v}"' if " " in v or not v.isascii() else f"{k}={v}" for k, v in r.items())
    return f'time=2026-12-05T21:00:00Z level=info msg="customer updated" {pairs}'


def _links(r: dict) -> str:
    phone = r["phone"]
    return (f"[{r['contact']}](mailto:{r['email']}?subject=Invoice) · "
            f'<a href="tel:+86-{phone[:3]}-{phone[3:7]}-{phone[7:]}">{r["name"]}</a> · '
            f"https://bank.example.com/transfer?iban={r['iban']}&amount={r['salary']}&ref={r['national_id']}"
            f"&token={r['api_key']}")


def _quoted_printable(r: dict) -> str:
    """An e-mail body in quoted-printable: UTF-8 bytes as `=XX`, lines cut at 76 characters by soft breaks."""
    body = quopri.encodestring(_line(r).encode()).decode()
    return ("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
            + body)


def _encoded_words(r: dict, encoding) -> str:
    """The record as a message's Subject, in RFC 2047 encoded words as Python's `email.header` folds it."""
    charset = email.charset.Charset("utf-8")
    charset.header_encoding = encoding
    return "Subject: " + email.header.Header(_line(r), charset, header_name="Subject").encode()


def _bytes_repr(r: dict) -> str:
    """What a Python tool prints for the bytes it read: `b'...\\xe6\\xac...'`."""
    return repr({k: v.encode() for k, v in r.items()})


def _spacing(r: dict) -> str:
    """Typographic spacing: groups split by NBSP and narrow NBSP, soft hyphens, bidi marks around values."""
    p, i = r["phone"], r["iban"]
    return _line({**r, "phone": f"{p[:3]}\u00a0{p[3:7]}\u00a0{p[7:]}",
                  "iban": "\u00a0".join(i[k:k + 4] for k in range(0, len(i), 4)),
                  "national_id": f"{r['national_id'][:6]}\u202f{r['national_id'][6:14]}\u202f{r['national_id'][14:]}",
                  "salary": f"{r['salary'][:3]}\u202f{r['salary'][3:]}",
                  "email": r["email"].replace("hart", "hart\u00ad"), "name": f"\u202b{r['name']}\u202c",
                  "api_key": f"\u2066{r['api_key']}\u2069", "contact": f"\u200e{r['contact']}\u200f"})


def _phone_styles(r: dict) -> str:
    p = r["phone"]
    return _line({**r, "phone": f"+86 ({p[:3]}) {p[3:7]}-{p[7:]} ext. 12 / 0086-{p[:3]}-{p[3:7]}-{p[7:]} / "
                                f"+86.{p[:3]}.{p[3:7]}.{p[7:]}"})


def _obfuscated(r: dict) -> str:
    local, domain = r["email"].split("@")
    host, tld = domain.rsplit(".", 1)
    return _line({**r, "email": f"{local} [at] {host} [dot] {tld} / {local}(at){host}(dot){tld} / "
                                f"{local.replace('.', ' dot ')} AT {host} DOT {tld}"})


def _money(r: dict) -> str:
    """A salary as a payslip, an invoice or a spreadsheet writes it: US, German, yen, NBSP-grouped."""
    us = f"{int(r['salary']):,}"
    de = us.replace(",", ".")
    return _line({**r, "salary": f"${us}.00 / {de},00 € / ¥{us} / {us.replace(',', chr(0xa0))} EUR"})


def _chinese_punct(r: dict) -> str:
    p = r["phone"]
    return (f"姓名：{r['name']}；电话：（{p[:3]}）{p[3:7]}－{p[7:]}；身份证号：【{r['national_id']}】；"
            f"邮箱：「{r['email'].replace('@', '＠')}」；账户：《{r['iban']}》；年薪：￥{r['salary']}元；"
            f"密钥：“{r['api_key']}”；联系人：『{r['contact']}』。")


def _highlighted(r: dict) -> str:
    """A search tool's snippet (a web search API, Elasticsearch's highlighter): the matched part of each value
    in `<em>`, `<b>` or `<mark>`."""
    tags = ["em", "b", "mark", "strong"]
    return "<li class=\"result\">" + " · ".join(
        f"{k}: {escape(v[:len(v) // 2])}<{tags[i % 4]}>{escape(v[len(v) // 2:])}</{tags[i % 4]}>"
        for i, (k, v) in enumerate(r.items())) + "</li>"


def _git_paths(r: dict) -> str:
    """`git status --short` with core.quotePath on (git's default): a path with bytes outside ASCII is quoted,
    each such byte written as a three-digit octal escape."""
    def quoted(path: str) -> str:
        if path.isascii():
            return path
        return '"' + "".join(chr(b) if b < 128 else f"\\{b:03o}" for b in path.encode()) + '"'
    return "\n".join(f"?? {quoted(f'customers/{k}/{v}.pdf')}" for k, v in r.items())


def _jwt(r: dict) -> str:
    """A session token as a log or a `curl -v` prints it: a JWT whose payload is the record."""
    def part(obj) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj, ensure_ascii=False).encode()).decode().rstrip("=")
    return f"> Authorization: Bearer {part({'alg': 'HS256', 'typ': 'JWT'})}.{part(r)}.c2lnbmF0dXJl"


def _latin1_mail(r: dict) -> str:
    """A raw mail of an older client: the sender in an encoded word, the body quoted-printable in ISO-8859-1."""
    rest = {k: v for k, v in r.items() if k != "name"}
    sender = email.header.Header(r["name"], "utf-8").encode()
    body = quopri.encodestring(_line(rest).encode("latin-1")).decode()
    return (f"From: {sender} <{r['email']}>\nContent-Type: text/plain; charset=iso-8859-1\n"
            f"Content-Transfer-Encoding: quoted-printable\n\n{body}")


def _ascii_folded(text: str) -> str:
    """A name as systems that keep ASCII write it: each letter without its accents."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _unaccented(r: dict) -> str:
    """A record whose contact an ASCII-only system wrote: "Jose Nunez" (a CRM export, a file name)."""
    plain = _ascii_folded(r["contact"])
    return _line({**r, "contact": plain}) + f"\nattachment: {plain.replace(' ', '_')}.pdf"


def _json_escaped_tags(r: dict) -> str:
    """A search snippet inside JSON text as Go's encoder writes it: `<`, `>` and `&` as `\\u003c`, `\\u003e`,
    `\\u0026`, so a value's highlighted half sits between escaped tags."""
    text = json.dumps({"snippet": _highlighted(r)}, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _yaml_long_escapes(r: dict) -> str:
    """YAML double-quoted scalars with every character outside ASCII as a `\\UXXXXXXXX` escape (the form YAML
    has for a character outside the BMP, an emoji here, and allows for any)."""
    def quoted(v: str) -> str:
        return '"' + "".join(c if c.isascii() else f"\\U{ord(c):08X}" for c in v) + '"'
    phone = {"phone": "\N{TELEPHONE RECEIVER} " + r["phone"]}
    return "".join(f"{k}: {quoted(v)}\n" for k, v in {**r, **phone}.items())


FORMS_3 = {
    "xml_elements": _xml_elements, "xml_attributes": _xml_attributes, "yaml": _yaml, "dotenv_ini": _dotenv,
    "sql_insert": _sql, "psql_mysql_tables": _psql, "grep_colour": _grep_colour, "git_diff": _git_diff,
    "logfmt": _logfmt, "links": _links, "quoted_printable": _quoted_printable,
    "encoded_words_q": lambda r: _encoded_words(r, email.charset.QP),
    "encoded_words_b": lambda r: _encoded_words(r, email.charset.BASE64),
    "bytes_repr": _bytes_repr, "unicode_spacing": _spacing,
    "nfd": lambda r: unicodedata.normalize("NFD", _line(r)), "phone_styles": _phone_styles,
    "email_obfuscated": _obfuscated, "money": _money, "chinese_punct": _chinese_punct,
    "search_highlight": _highlighted, "git_quoted_paths": _git_paths, "jwt": _jwt, "latin1_mail": _latin1_mail,
    "unaccented": _unaccented, "json_escaped_tags": _json_escaped_tags, "yaml_long_escapes": _yaml_long_escapes,
}
FORMS = {name: functools.partial(lambda make: [make(RECORD)], make) for name, make in FORMS_3.items()}
#: Forms whose line breaks carry meaning (a header's value is flattened to one line)
ONE_LINE = {"quoted_printable", "encoded_words_q", "encoded_words_b", "psql_mysql_tables", "git_diff", "yaml",
            "dotenv_ini", "xml_elements", "grep_colour", "git_quoted_paths", "latin1_mail", "unaccented",
            "yaml_long_escapes"}


# --- reading what the upstream received: the first walk's decodings and this walk's ------------------

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]|\\u001b\[[0-9;]*[A-Za-z]")
_TAG = re.compile(r"<[^<>]*>")
_OCTAL = re.compile(r"(?:\\[0-3][0-7]{2})+")
_LONG_ESCAPES = re.compile(r"\\U([0-9A-Fa-f]{8})")
_BYTE_ESCAPES = re.compile(r"(?:\\x[0-9a-fA-F]{2})+")
_OBFUSCATED = [(re.compile(r"\s*[\[(]\s*at\s*[\])]\s*|\s+at\s+", re.I), "@"),
               (re.compile(r"\s*[\[(]\s*dot\s*[\])]\s*|\s+dot\s+", re.I), ".")]


def _words(text: str) -> str:
    try:
        return str(email.header.make_header(email.header.decode_header(text)))
    except (ValueError, LookupError, email.errors.HeaderParseError):
        return text


def _more_decodings(text: str) -> set[str]:
    out = _decodings(text) | {_ANSI.sub("", text), _words(text), text.replace("\\/", "/"),
                              _BYTE_ESCAPES.sub(lambda m: codecs.escape_decode(m.group())[0].decode("utf-8", "replace"),
                                                text),  # Python's bytes
                              _BYTE_ESCAPES.sub(lambda m: codecs.escape_decode(m.group())[0].decode("latin-1"),
                                                text)}  # YAML's and Python's str: code points
    raw = quopri.decodestring(text.encode("utf-8"))
    out.add(raw.decode("utf-8", "replace"))
    out.add(raw.decode("latin-1"))  # (a body of an older client's charset)
    out.add(_TAG.sub("", text))
    out.add(_LONG_ESCAPES.sub(lambda m: chr(int(m.group(1), 16)), text))  # YAML's \\UXXXXXXXX
    out.add(_OCTAL.sub(lambda m: bytes(int(o, 8) for o in m.group().split("\\")[1:]).decode("utf-8", "replace"),
                       text))
    plain = text
    for pattern, to in _OBFUSCATED:
        plain = pattern.sub(to, plain)
    return out | {plain}


_CANONICAL = {field: _canonical(value) for field, value in RECORD.items()}


#: a reader recognises a name written without its accents too
_PLAIN = {f"{field} (unaccented)": _canonical(_ascii_folded(value)) for field, value in RECORD.items()
          if _ascii_folded(value) != value}


def leaks(sent: dict) -> list[str]:
    found = leaked(sent, {**_CANONICAL, **_PLAIN}, lambda t: _more_decodings(t) | {_ascii_folded(t)})
    return sorted({f.removesuffix(" (unaccented)") for f in found})


# --- the walk ------------------------------------------------------------------------------------------



#: Cells where the guard does not hold yet: form → {(api, position, stream)} (none: session 15's fixes took the
#: walk from 777 to 1431 of 1431 cells a mode, then with three more forms from 1452 to 1608 of 1608; RESULTS.md)
KNOWN_GAPS: dict[str, set] = {}


#: The walk's cells of one form (`guard_forms_matrix.py --walk 3`) and its three tests (walk 1's `walk_tests`)
(walk_form, test_the_reader_recovers_every_form_unguarded, test_every_position_holds_in_every_form,
 test_a_large_body_holds_in_every_form) = walk_tests(FORMS, UNIT_IDS, leaks, ONE_LINE, KNOWN_GAPS, RECORD)


# --- near misses: forwarded untouched --------------------------------------------------------------------

#: Another customer of the same shape, each value a digit or a letter off.
NEAR = {"name": "欧阳娜", "phone": "13922883376", "email": "lena.hartmann@example.com",
        "national_id": "110105198803153426", "iban": "DE89370400440532013001", "salary": "486500",
        "api_key": "sk-proj-3hW8nT5yK1cZ6vD9qE2u", "contact": "José Nuño"}
#: Texts a careless decoder reads a unit into: a longer number around a unit's digits once separators go,
#: a phone in a longer number, `=` and `\\x` runs that are no encoding, an `at`/`dot` in prose.
TRAPS = ["Revenue: $1,486,000.00 (FY25); capex 486,000,000 ¥; 4,860.00 € spent.",
         "Order 1392288336612 shipped; tracking +86 139 2288 33660 1.",
         "a=E6=AC b=3D13922883367 \\xe6\\xac\\xa7 color=\x1b[31m1392288\x1b[0m3376",
         "Meet lena at example dot com; the hartmann file at example dot org is closed.",
         "IBAN DE89 3704 0044 0532 0130 01 and id 110105\u00a019880315\u00a03426."]
#: A few positions of each API, streamed too (the near misses' texts are long: the walk's cells are the rest)
NEAR_CELLS = [c for c in CELLS if c[1] in ("user", "tool_result", "prompt", "user.parts")]


def _near_texts() -> dict[str, list[str]]:
    return {**{f"near-{name}": [make(NEAR)] for name, make in FORMS_3.items()},
            **{f"trap-{i}": [t] for i, t in enumerate(TRAPS)}}


def broken_near_misses(proxy, parts: list[str], case: str) -> dict:
    """The near-miss cells where texts holding no unit did not go out untouched: {cell: what happened}."""
    _, app, client, store = proxy
    broken = {}
    for k, (api, position, stream) in enumerate(NEAR_CELLS):
        path, body, headers, query = build(api, position, stream, parts)
        episode, seen = f"{case}-{k}", len(app.state.requests)
        answer = client.post(f"/e/{episode}{path}", json=body, headers=headers, params=query)
        sent = app.state.requests[seen:]
        [record] = store.records(episode)
        strong = [f["matched_text"] for f in record.findings if f["grade"] >= 0.75]
        # (a streamed request goes out asking for usage too: every string sent is still there)
        same = bool(sent) and set(json_strings(body)) <= set(json_strings(sent[0]["body"]))
        if not (answer.status_code == 200 and same and record.redactions == 0 and not strong):
            broken[(api, position, stream)] = f"{answer.status_code} redactions {record.redactions} {strong}"
    return broken


@pytest.mark.parametrize("case", sorted(_near_texts()))
def test_near_misses_go_out_untouched(proxy, case):
    assert broken_near_misses(proxy, _near_texts()[case], case) == {}, f"{proxy[0]} {case}"
