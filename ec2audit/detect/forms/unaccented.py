"""A name written without its accents: systems that keep ASCII (a CRM export, an e-mail's local part, a file
name, a URL slug) write "José Núñez" as `Jose Nunez` or `jose_nunez`. A reader knows the name; the tiers read
such a run as the unit's accented value. Only the unit's own letters are put back: "Jose Nuno" folds from
another name and stays."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from ec2audit.detect.forms import Form, register
from ec2audit.detect.views import Replacement

CUE = "unaccented.cue"
_APART = r"(?:, ?|[\s_.-])"  # what stands between two words of a name written out
_NAME_WORDS = 4  # a value this short may be a name, written surname first


def ascii_folded(text: str) -> str:
    """`text` with the combining marks NFKD splits off its letters dropped ("Núñez" → "Nunez")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@register
class UnaccentedNames(Form):
    name = "unaccented"

    def compile(self, index) -> None:
        """Cue: each word of a unit's value that folding changes, as the text view holds it."""
        self._values: dict[str, str] = {}  # folded value → the unit's accented value
        for cu in self.units:
            for value in cu.forms:
                plain = ascii_folded(value)
                if plain != value and plain.isascii():
                    words, folded_words = value.split(), plain.split()
                    # in its order, and a name's surname first: "Nunez, Jose", "Ni Bhraonain, Caoimhe"
                    for k in range(len(words) if len(words) <= _NAME_WORDS else 1):
                        self._values[" ".join(folded_words[k:] + folded_words[:k])] = " ".join(words[k:] + words[:k])
                    for word, folded in zip(words, folded_words, strict=False):
                        if word != folded:
                            index.add(folded, CUE, -1)
        # a folded value whose words are apart by a space, "_", "." or "-" (", " surname first), not in a longer word
        alternatives = "|".join(_APART.join(map(re.escape, v.split()))
                                for v in sorted(self._values, key=len, reverse=True))
        self._run = re.compile(rf"(?<![^\W_])(?:{alternatives})(?![^\W_])", re.I) if self._values else None

    def wanted(self, matches) -> bool:
        return CUE in matches

    def rewrite(self, text: str) -> Iterator[Replacement]:
        if self._run is None:
            return
        for m in self._run.finditer(text):
            yield m.start(), m.end(), self._values[re.sub(_APART, " ", m.group()).lower()]
