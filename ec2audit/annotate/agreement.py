"""How much annotators agree, per pair, on the documents both annotated.

Span F1 counts a span as shared only with the same offsets and label (strict, the unit's value must
be the same). Cohen's κ compares token labels (a label or `O` per token; a CJK character — Han, kana,
half-width kana — is a token, as Chinese and Japanese write no spaces; a token a span overlaps has its
label) so it credits agreement on what is *not* sensitive and corrects for chance (scikit-learn's κ).
"""

from __future__ import annotations

import re
from itertools import combinations

from ec2audit.annotate.labelstudio import Annotation, span_key

_CJK = "\u3040-\u30ff\u31f0-\u31ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f"
_TOKEN = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+|[^\w\s]")


def span_f1(a: set, b: set) -> float:
    if not a and not b:
        return 1.0
    return 2 * len(a & b) / (len(a) + len(b))


def token_labels(text: str, spans) -> list[str]:
    labels = []
    for m in _TOKEN.finditer(text):
        label = next((s.dimension for s in spans if s.start < m.end() and m.start() < s.end), "O")
        labels.append(label)
    return labels


def _kappa(a: list[str], b: list[str]) -> float:
    from sklearn.metrics import cohen_kappa_score

    if a == b:
        return 1.0
    return float(cohen_kappa_score(a, b))


def _pair_figures(docs, x: str, y: str, dimension: str | None = None) -> dict:
    """Span F1 and κ of annotators x and y over `docs`, for one dimension (others count as `O`) or all."""
    def spans(d, who):
        return [s for s in d[who].spans if dimension is None or s.dimension == dimension]

    sa = {(d[x].key, *span_key(s)) for d in docs for s in spans(d, x)}
    sb = {(d[y].key, *span_key(s)) for d in docs for s in spans(d, y)}
    la = [t for d in docs for t in token_labels(d[x].text, spans(d, x))]
    lb = [t for d in docs for t in token_labels(d[y].text, spans(d, y))]
    return {"spans_a": len(sa), "spans_b": len(sb), "shared": len(sa & sb), "span_f1": round(span_f1(sa, sb), 4),
            "kappa": round(_kappa(la, lb), 4)}


def _by_document(annotations: list[Annotation]) -> dict[str, dict[str, Annotation]]:
    """Per document, each annotator's last submission; review (adjudication) work is not an annotator's."""
    by_doc: dict[str, dict[str, Annotation]] = {}
    for ann in annotations:
        if not ann.review:
            by_doc.setdefault(ann.key, {})[ann.annotator] = ann
    return by_doc


def agreement_report(annotations: list[Annotation]) -> dict:
    """{"annotators", "documents", "pairs": [{annotators, documents, span_f1, kappa, spans_a, spans_b,
    shared, "dimensions": {dimension: the same figures for that dimension alone}}]}."""
    by_doc = _by_document(annotations)
    annotators = sorted({who for d in by_doc.values() for who in d})
    pairs = []
    for x, y in combinations(annotators, 2):
        docs = [d for d in by_doc.values() if x in d and y in d]
        if not docs:
            continue
        dims = sorted({s.dimension for d in docs for who in (x, y) for s in d[who].spans})
        pairs.append({"annotators": [x, y], "documents": len(docs), **_pair_figures(docs, x, y),
                      "dimensions": {dim: _pair_figures(docs, x, y, dim) for dim in dims}})
    return {"annotators": annotators, "documents": len(by_doc), "pairs": pairs}


def disagreements(annotations: list[Annotation]) -> list[dict]:
    """Spans the annotators of a document do not all mark with the same label, with each one's vote
    (None: not marked). Documents already adjudicated (annotated on their review task) are settled."""
    settled = {a.key for a in annotations if a.review}
    disputed = []
    for key, anns in sorted(_by_document(annotations).items()):
        if key in settled or len(anns) < 2:
            continue
        votes: dict[tuple[int, int], dict[str, str]] = {}
        for who, ann in anns.items():
            for s in ann.spans:
                votes.setdefault((s.start, s.end), {})[who] = s.dimension
        any_ann = next(iter(anns.values()))
        for (start, end), marked in sorted(votes.items()):
            if len(marked) < len(anns) or len(set(marked.values())) > 1:
                disputed.append({"key": key, "task_id": any_ann.task_id, "file": any_ann.file, "start": start,
                                 "end": end, "text": any_ann.text[start:end],
                                 "votes": {who: marked.get(who) for who in sorted(anns)}})
    return disputed
