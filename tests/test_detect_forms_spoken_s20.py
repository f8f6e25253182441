"""Values said aloud or spelled out character by character (session 20's hand-written misses): each form reads
the spoken run as the value, and a different value spelled the same way is no hit."""

from __future__ import annotations

import pytest

from ec2audit.detect.cascade import Cascade
from ec2audit.units import Unit


def _hits(value: str, text: str) -> list[tuple[str, float]]:
    unit = Unit.model_validate({"task_id": "t", "entity_id": "e", "entity_name": "Someone", "field": "f",
                                "value": value, "dimension": "contact", "weight": 1.0})
    return [(text[hit.start:hit.end], hit.grade) for hit in Cascade([unit]).scan_text(text)]


EMAIL = "r.okafor@brightline-logistics.com"


@pytest.mark.parametrize("text", [
    "He spelled his email as 'r dot okafor at brightline hyphen logistics dot com' and hung up.",
    "Email: R DOT OKAFOR AT BRIGHTLINE DASH LOGISTICS DOT COM.",
    "write to r.okafor at brightline minus logistics period com please",
    "it's r dot okafor @ brightline hyphen logistics dot com",
])
def test_a_spoken_email_with_hyphen_words_is_the_address(text: str) -> None:
    hits = _hits(EMAIL, text)
    assert hits and hits[0][1] == 1.0
    assert hits[0][0].lower().startswith("r") and hits[0][0].lower().endswith("com")


def test_an_underscore_word_is_read_in_the_local_part() -> None:
    assert _hits("jane_doe@example.co.uk", "mail jane underscore doe at example dot co dot uk today")


@pytest.mark.parametrize("text", [
    "He spelled his email as 'r dot okafor at brightline hyphen freight dot com'.",  # another domain
    "He spelled his email as 't dot okafor at brightline hyphen logistics dot com'.",  # another name
    "r dot okafor at brightline hyphen logistics",  # no top-level domain: no address
    "a dash of salt at the table",
])
def test_another_spoken_address_is_no_hit(text: str) -> None:
    assert _hits(EMAIL, text) == []
