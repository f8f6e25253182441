"""Our recognizers, one module per family, registered in one place (as Presidio's registry does).

Each family module exports `RECOGNIZERS`; `default_registry()` is the single plug-in point.
`ENTITY_DIMENSIONS` maps every entity type we accept — ours and Presidio's — to a taxonomy dimension;
Presidio entities missing from it (dates, URLs, nationalities) are not sensitive units.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ec2audit.annotate.recognizers import (
    birth,
    business,
    contact,
    finance,
    government_id,
    health,
    icd,
    location,
    network,
    person,
    records,
    secrets,
    zh_pii,
)
from ec2audit.annotate.recognizers.base import Match, PatternRecognizer
from ec2audit.annotate.recognizers.icd import IcdRecognizer

FAMILIES = {"secrets": secrets, "contact": contact, "zh_pii": zh_pii, "person": person,
            "government_id": government_id, "finance": finance, "health": health, "icd": icd, "network": network,
            "records": records, "location": location, "business": business, "birth": birth}

ENTITY_DIMENSIONS = {
    "PERSON": "person_name",
    "EMAIL_ADDRESS": "contact", "PHONE_NUMBER": "contact",
    "US_SSN": "government_id", "US_ITIN": "government_id", "US_PASSPORT": "government_id",
    "US_DRIVER_LICENSE": "government_id", "UK_NHS": "government_id",
    "CREDIT_CARD": "financial", "IBAN_CODE": "financial", "US_BANK_NUMBER": "financial", "CRYPTO": "financial",
    "IP_ADDRESS": "network",
    "LOCATION": "location",
}
for _module in FAMILIES.values():
    for _rec in _module.RECOGNIZERS:
        ENTITY_DIMENSIONS.setdefault(_rec.entity, _rec.dimension)


@dataclass
class RecognizerRegistry:
    recognizers: list[PatternRecognizer | IcdRecognizer] = field(default_factory=list)

    def add(self, recognizer: PatternRecognizer | IcdRecognizer) -> None:
        self.recognizers.append(recognizer)

    def analyze(self, text: str) -> list[Match]:
        """Every match of every recognizer (overlaps are resolved by the caller)."""
        return [m for rec in self.recognizers for m in rec.analyze(text)]


def default_registry(families: list[str] | None = None) -> RecognizerRegistry:
    registry = RecognizerRegistry()
    for name in families or list(FAMILIES):
        for rec in FAMILIES[name].RECOGNIZERS:
            registry.add(rec)
    return registry


__all__ = ["ENTITY_DIMENSIONS", "FAMILIES", "Match", "PatternRecognizer", "RecognizerRegistry",
           "default_registry"]
