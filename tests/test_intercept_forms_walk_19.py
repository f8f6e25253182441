"""The guard's nineteenth walk (session 29, guard19): what still went through, over loopback HTTP in front of the
scripted stand-in, judged on what the stand-in RECEIVED and on the store's row.

- a byte dump with no offsets (`od -An -x`, `-tx4`, `-c`, `-tx1z`: a script that wants the bytes alone): `dumps`
  reads a dump whose offsets add up from 0, so these went out in both modes (`-c` and `-tx1z` with the values a line
  cuts); they are read where every line but the last holds sixteen bytes and the bytes are text that prints
  (`forms.bare_dumps`);
- an Ollama answer streamed as NDJSON and pasted whole (`curl …/api/generate`, `/api/chat`: a JSON object a token,
  each with `done`): the tiers read each line's few characters apart, so a value cut across tokens went out; the
  tokens are joined as SSE deltas are (`forms.sse_deltas`, `response` one more delta key);
- a value cut into string literals at a punctuation mark and joined by an operator, a line break or nothing
  (`"lena.hartmann" + "@example.org"`, Python's and C's literals a line each, the shell's `'…''.org'`): only a
  letter or a digit either side was joined, so the tiers read the value in two; any character but a blank or a quote
  joins now (`forms.concatenation._joins`);
- a text as the code points JavaScript's `String.fromCharCode(…)` (or `fromCodePoint`) makes it from: the numbers
  were read as a list only in brackets; the arguments of those two calls are read the same (`forms.code_point_lists`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from test_intercept_forms_walk_3 import NEAR, RECORD, UNIT_IDS, UNITS, _line
from test_intercept_forms_walk_18 import DUMP_PLACES, _character, sent_outcome
from test_intercept_upload_seams import enforcing

__all__ = ["GROUPS", "UNITS", "enforcing"]


def _leaked(read):
    """The values of the record in what was sent, read as sent or as `read(sent)` reads it (a reader of the form)."""
    return lambda sent: [v for v in RECORD.values() if v in sent or v in read(sent)]


def _outcome(proxy, group: str, form: str, place: str, write, read) -> str:
    """`sent_outcome` of the record's line written as `form` (`write(line)`), every unit found, none of its values
    forwarded as sent nor as the form's reader reads it; the near record's line in the same form goes out as sent."""
    text, near = write(_line(RECORD)), write(_line(NEAR))
    if [v for v in RECORD.values() if v not in read(text)]:
        return "not held: the form does not hold the record"
    episode = re.sub(r"\W", "_", f"{group}-{form}-{place}-{proxy[0]}")
    return sent_outcome(proxy, episode, place, text, near, UNIT_IDS, _leaked(read))


# --- byte dumps with no offsets --------------------------------------------------------------------------------------

def _od(cells: Callable[[bytes], str]) -> Callable[[str], str]:
    """`od -An` of a line's bytes: sixteen a line, each line `cells(chunk)`, after a label."""
    def write(line: str) -> str:
        data = line.encode()
        return "$ od -An notes.txt\n" + "".join(cells(data[i:i + 16]) + "\n" for i in range(0, len(data), 16))
    return write


def _words(size: int):
    """`-x` (size 2) or `-tx4` (4): little-endian words, each after a space, the last padded with NULs."""
    return lambda chunk: "".join(" " + (chunk + b"\x00" * (-len(chunk) % size))[k:k + size][::-1].hex()
                                 for k in range(0, len(chunk), size))


def _with_characters(chunk: bytes) -> str:
    """`-tx1z`: the bytes in hex, padded to sixteen's width, then the characters between `>` and `<`."""
    shown = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
    return "".join(f" {b:02x}" for b in chunk).ljust(48) + f"  >{shown}<"


#: form → the dump as od writes it (each checked byte for byte against GNU od 9.1 on the record's line, 214 bytes,
#: and the near one's, 209: `-tx4`'s last word padded with two NULs and three)
BARE_DUMPS = {"od -An -x": _od(_words(2)), "od -An -tx4": _od(_words(4)),
              "od -An -c": _od(lambda chunk: "".join(_character(b) for b in chunk)),
              "od -An -tx1z": _od(_with_characters)}
_CELLS = re.compile(r"(?:   \S|  \\n| [0-3][0-7]{2}|    )+")


def bare_dump_bytes(text: str) -> str:
    """What a reader of the dump reads: each line's hex words read little-endian, its hex bytes before `>`, its
    four-character cells as characters or octal bytes; as UTF-8 (the test's own reading)."""
    out = bytearray()
    for line in text.splitlines():
        if re.fullmatch(r"(?: [0-9a-f]{4}| [0-9a-f]{8})+", line):
            out += b"".join(bytes.fromhex(w)[::-1] for w in line.split())
        elif m := re.fullmatch(r"((?: [0-9a-f]{2})+) +>.*<", line):
            out += bytes.fromhex(m.group(1).replace(" ", ""))
        elif _CELLS.fullmatch(line):
            cells = [line[k:k + 4].strip() for k in range(0, len(line), 4)]
            out += b"".join(b"\n" if c == "\\n" else b" " if not c else bytes([int(c, 8)]) if len(c) == 3 else
                            c.encode() for c in cells)
    return out.rstrip(b"\x00").decode("utf-8", "replace")


def bare_dump_outcome(proxy, form: str, place: str) -> str:
    return _outcome(proxy, "bare", form, place, BARE_DUMPS[form], bare_dump_bytes)


@pytest.mark.parametrize("form", sorted(BARE_DUMPS))
def test_a_dump_with_no_offsets_is_read(enforcing, form):
    outcomes = {place: bare_dump_outcome(enforcing, form, place) for place in DUMP_PLACES}
    assert outcomes == dict.fromkeys(DUMP_PLACES, "held")


# --- an Ollama answer streamed as NDJSON, pasted whole ---------------------------------------------------------------

def _chunks(line: str, token) -> str:
    """The lines Ollama streams for an answer of `line`, five characters a token (`token(piece)`: one chunk's
    object), the last chunk `done` with nothing in it; as Go's encoding/json writes them (no blanks)."""
    chunks = [{"model": "qwen3", "created_at": "2026-12-07T18:00:00Z", **token(line[i:i + 5]), "done": False}
              for i in range(0, len(line), 5)]
    chunks.append({"model": "qwen3", "created_at": "2026-12-07T18:00:01Z", **token(""), "done": True,
                   "done_reason": "stop", "eval_count": len(chunks)})
    return "\n".join(json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in chunks) + "\n"


STREAMS = {"/api/generate": lambda line: _chunks(line, lambda t: {"response": t}),
           "/api/chat": lambda line: _chunks(line, lambda t: {"message": {"role": "assistant", "content": t}})}


def stream_text(text: str) -> str:
    """What a reader of the stream reads: each JSON line's token (`response`, `message.content`), joined."""
    tokens = []
    for line in text.splitlines():
        try:
            chunk = json.loads(line)
        except ValueError:
            continue
        if not isinstance(chunk, dict):
            continue
        tokens.append(chunk.get("response") or (chunk.get("message") or {}).get("content") or "")
    return "".join(tokens)


def stream_outcome(proxy, form: str, place: str) -> str:
    return _outcome(proxy, "ndjson", form, place, STREAMS[form], stream_text)


@pytest.mark.parametrize("form", sorted(STREAMS))
def test_an_ollama_stream_pasted_whole_is_read_joined(enforcing, form):
    outcomes = {place: stream_outcome(enforcing, form, place) for place in DUMP_PLACES}
    assert outcomes == dict.fromkeys(DUMP_PLACES, "held")


# --- literals cut at a punctuation mark ------------------------------------------------------------------------------

def _pieces(line: str) -> list[str]:
    """The line cut before each `.`, `@` and `;` (each piece but the first starts with one)."""
    return re.split(r"(?=[.@;])", line)


#: form → the source that makes the line from its pieces: JavaScript's `+` a line each, Python's adjacent literals
#: in parentheses a line each, C's the same, SQL's `||`, the shell's quotes side by side
LITERALS = {
    "javascript +": lambda line: "const note =\n    " + " +\n    ".join(map(json.dumps, _pieces(line))) + ";",
    "python adjacent": lambda line: "note = (\n    " + "\n    ".join(map(repr, _pieces(line))) + "\n)",
    "c adjacent": lambda line: "static const char *note =\n    " + "\n    ".join(
        json.dumps(p, ensure_ascii=False) for p in _pieces(line)) + ";",
    "sql ||": lambda line: "SELECT " + " || ".join(f"'{p}'" for p in _pieces(line)) + ";",
    "shell quotes": lambda line: "echo " + "".join(f"'{p}'" for p in _pieces(line)),
}


def joined_literals(text: str) -> str:
    """What a reader of the source reads: the literals' text, JSON's `\\u` escapes undone (the test's own)."""
    return "".join(json.loads(f'"{s}"') if q == '"' else s for q, s in re.findall(r"""(["'])((?:(?!\1).)*)\1""", text))


def literals_outcome(proxy, form: str, place: str) -> str:
    return _outcome(proxy, "literals", form, place, LITERALS[form], joined_literals)


@pytest.mark.parametrize("form", sorted(LITERALS))
def test_literals_cut_at_a_punctuation_mark_are_read_joined(enforcing, form):
    outcomes = {place: literals_outcome(enforcing, form, place) for place in DUMP_PLACES}
    assert outcomes == dict.fromkeys(DUMP_PLACES, "held")


# --- String.fromCharCode --------------------------------------------------------------------------------------------

def _from_char_code(line: str) -> str:
    return "el.textContent = String.fromCharCode(" + ",".join(str(ord(c)) for c in line) + ");"


def char_code_text(text: str) -> str:
    """What the call makes: the text of the numbers in its parentheses (the test's own reading)."""
    m = re.search(r"fromCharCode\(([\d,]+)\)", text)
    return "".join(chr(int(n)) for n in m.group(1).split(",")) if m else ""


def char_code_outcome(proxy, place: str) -> str:
    return _outcome(proxy, "charcode", "fromCharCode", place, _from_char_code, char_code_text)


def test_a_text_made_by_from_char_code_is_read(enforcing):
    assert {place: char_code_outcome(enforcing, place) for place in DUMP_PLACES} == dict.fromkeys(DUMP_PLACES, "held")


#: The cells `benchmarks/guard_forms_matrix.py --walk 19` counts
GROUPS = {"dumps with no offsets": ([(form, place) for form in BARE_DUMPS for place in DUMP_PLACES],
                                    bare_dump_outcome),
          "Ollama streams pasted whole": ([(form, place) for form in STREAMS for place in DUMP_PLACES],
                                          stream_outcome),
          "literals cut at a punctuation mark": ([(form, place) for form in LITERALS for place in DUMP_PLACES],
                                                 literals_outcome),
          "String.fromCharCode": ([(place,) for place in DUMP_PLACES], char_code_outcome)}
