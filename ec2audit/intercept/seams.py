"""The seam of two pieces of a file sent in parts (OpenAI's Uploads API: `/v1/uploads/{id}/parts`, forwarded one by
one): the end of one piece and the start of the next, read as texts in which a value cut across them is found whole.

A part is cut at a byte count, not where a text allows: the seam may fall inside a UTF-8 sequence (one character, a
byte or two of it in each part: a value whose last character it is lies across the seam too), and inside a run of
base64 or hex, which a decoded view reads only from a start and to an end that fall on its groups (four characters,
two). So the seam is read as several texts, its start and its end cut back by 0–3 characters (`views`): whatever the
run's alignment, one of them decodes it.
"""

from __future__ import annotations

import codecs

#: A decoded view's group (base64's four characters; hex's two divide it): the alignments a seam is read at
_GROUP = 4


def views(before: bytes, after: bytes) -> tuple[dict[str, str], int, int]:
    """The seam of `before` (a piece's end) and `after` (the next one's start) as texts to scan (name → text), and
    the stretch of the whole seam's characters a value must reach into from each side to lie across it: `(cut,
    reach)`, where a hit `start < reach and cut < end` does (`across`). `reach` is `cut + 1` where the seam cuts a
    character in two."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    cut = len(decoder.decode(before))  # (a character begun in `before` and ended in `after` is held back)
    reach = cut + (1 if decoder.getstate()[0] else 0)
    text = (before + after).decode("utf-8", "replace")
    trims = {(s, (len(text) - s) % _GROUP) for s in range(_GROUP)} | {(0, e) for e in range(_GROUP)}
    return {f"{s}-{e}": text[s:len(text) - e] for s, e in sorted(trims)}, cut, reach


def across(rows: list[dict], cut: int, reach: int, grade: float) -> list[dict]:
    """The findings of `views`' texts (their `Redactor.detect` rows) that lie across the seam at `grade` or above,
    one per unit."""
    out: dict[str, dict] = {}
    for row in rows:
        shift = int(row["path"][1:].partition("-")[0]) if row["path"][1:2].isdigit() else None
        if shift is None or row["grade"] < grade or row["unit_id"] in out:
            continue
        if row["start"] + shift < reach and cut < row["end"] + shift:
            out[row["unit_id"]] = row
    return list(out.values())
