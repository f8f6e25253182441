"""How much annotators agree, per pair, on the documents both annotated.

Span F1 counts a span as shared only with the same offsets and label (strict, the unit's value must
be the same). Cohen's κ compares token labels (a label or `O` per token; a CJK character is a token)
so it credits agreement on what is *not* sensitive and corrects for chance (scikit-learn's κ).
"""

from __future__ import annotations

import re
from itertools import combinations

from ec2audit.annotate.labelstudio import Annotation, span_key

_TOKEN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[^\W\u3400-\u9fff\uf900-\ufaff]+|[^\w\s]")


def span_f1(a: set, b: set) -> float:
    if not a and not b:
        return 1.0
    return 2 * len(a & b) / (len(a) + len(b))


def token_labels(text: str, spans) -> list[str]:
    labels = []
    for m in _TOKEN.finditer(text):
        label = next((s.dimension for s in spans if s.start <= m.start() < s.end), "O")
        labels.append(label)
    return labels


def _kappa(a: list[str], b: list[str]) -> float:
    from sklearn.metrics import cohen_kappa_score

    if a == b:
        return 1.0
    return float(cohen_kappa_score(a, b))


def agreement_report(annotations: list[Annotation]) -> dict:
    """{"pairs": [{annotators, documents, span_f1, kappa, spans_a, spans_b, shared}], "annotators": n}."""
    by_doc: dict[str, dict[str, Annotation]] = {}
    for ann in annotations:
        by_doc.setdefault(ann.key, {})[ann.annotator] = ann
    annotators = sorted({ann.annotator for ann in annotations})
    pairs = []
    for x, y in combinations(annotators, 2):
        docs = [d for d in by_doc.values() if x in d and y in d]
        if not docs:
            continue
        sa = {(d[x].key, *span_key(s)) for d in docs for s in d[x].spans}
        sb = {(d[y].key, *span_key(s)) for d in docs for s in d[y].spans}
        la = [t for d in docs for t in token_labels(d[x].text, d[x].spans)]
        lb = [t for d in docs for t in token_labels(d[y].text, d[y].spans)]
        pairs.append({"annotators": [x, y], "documents": len(docs), "spans_a": len(sa), "spans_b": len(sb),
                      "shared": len(sa & sb), "span_f1": round(span_f1(sa, sb), 4),
                      "kappa": round(_kappa(la, lb), 4)})
    return {"annotators": annotators, "documents": len(by_doc), "pairs": pairs}
