"""A genetic variant in a value ("BRCA2 pathogenic variant c.5946delT", "BRAF V600E mutation") written the other
ways a lab or a clinician writes it: with or without the deleted or duplicated bases (HGVS `c.5946del` =
`c.5946delT`), behind a transcript (`NM_000059.4:c.5946del`), a protein change in one- or three-letter codes
(`V600E` = `p.Val600Glu` = `p.(V600E)`), in a row that puts the value's words in other columns
(`gene=BRCA2 | HGVS=…:c.5946del | ACMG=Pathogenic`). The change at its position is what the finding is; with the
value's gene symbol within a few lines it is the value (1.0), without it most of it (0.7). Health values only: a
code like `A12C` elsewhere is a flat's or a seat's."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ec2audit.detect.finding import LITERAL, MOSTLY, Hit
from ec2audit.detect.forms import Form, matched, register
from ec2audit.detect.views import ScanView

KIND = "variant"
_GENE_WINDOW = 160  # how far from the change the gene symbol may stand
_EDIT = re.compile(r"(?<![0-9A-Za-z])([cgnmr]\.[0-9_+*-]*\d)(del|dup|ins|inv)([ACGTacgt]*)(?![0-9A-Za-z])")
_AMINO = {"A": "ala", "R": "arg", "N": "asn", "D": "asp", "C": "cys", "Q": "gln", "E": "glu", "G": "gly",
          "H": "his", "I": "ile", "L": "leu", "K": "lys", "M": "met", "F": "phe", "P": "pro", "S": "ser",
          "T": "thr", "W": "trp", "Y": "tyr", "V": "val", "*": "ter"}
_ONE_LETTER = {three: one for one, three in _AMINO.items()}
_PROTEIN = re.compile(r"(?<![0-9A-Za-z])(?:p\.\(?)?([ARNDCQEGHILKMFPSTWYV]|[A-Z][a-z]{2})(\d{1,4})"
                      r"([ARNDCQEGHILKMFPSTWYV*]|[A-Z][a-z]{2})\)?(?![0-9A-Za-z])")
_GENE = re.compile(r"(?<![0-9A-Za-z])[A-Z][A-Z0-9]{2,7}(?![0-9A-Za-z])")


def variant_forms(value: str) -> list[str]:
    """The changes of a value's variants as the text view reads them (lower case), in every form above."""
    forms = []
    for m in _EDIT.finditer(value):
        stem = (m[1] + m[2]).lower()
        forms += [stem, stem + m[3].lower()]
    for m in _PROTEIN.finditer(value):
        codes = [_one_letter(m[1]), _one_letter(m[3])]
        if codes[0] is None or codes[1] is None:
            continue
        one, three = f"{codes[0]}{m[2]}{codes[1]}".lower(), f"{_AMINO[codes[0]]}{m[2]}{_AMINO[codes[1]]}"
        forms += [one, f"p.{one}", f"p.({one})", f"p.{three}", f"p.({three})", three]
    return list(dict.fromkeys(forms))


def _one_letter(code: str) -> str | None:
    return code if code in _AMINO else _ONE_LETTER.get(code.lower())


@register
class Variants(Form):
    name = "variants"
    kinds = (KIND,)

    def compile(self, index) -> None:
        self._genes: dict[int, list[str]] = {}
        for i, cu in enumerate(self.units):
            if cu.rules.name == "health" and (forms := variant_forms(cu.unit.value)):
                self._genes[i] = [g.lower() for g in _GENE.findall(cu.unit.value) if g.lower() not in forms]
                for form in forms:
                    index.add(form, KIND, i)
        self.reach = self.bound(index, _GENE_WINDOW)

    def confirm(self, view: ScanView, decided: set[int]) -> Iterator[Hit]:
        text = view.view.text
        for start, end, units in matched(view, KIND, decided):
            if (start and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum()):
                continue
            around = text[max(0, start - _GENE_WINDOW):end + _GENE_WINDOW]
            span = view.view.to_original(start, end)
            for i in units:
                genes = self._genes[i]
                named = not genes or any(re.search(rf"(?<![0-9a-z]){re.escape(g)}(?![0-9a-z])", around) for g in genes)
                yield Hit(i, *span, "forms.variant", LITERAL if named else MOSTLY)
