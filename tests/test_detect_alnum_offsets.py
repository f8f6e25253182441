"""The exact tier maps identifiers found in the alphanumeric view back to the text view offset by offset
(`exact.alnum_offsets`); the map of every separator run (`TextView.alnum_map`) is the definition."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ec2audit.detect.exact import alnum_offsets
from ec2audit.detect.normalize import TextView

_TEXTS = st.lists(st.sampled_from([*"ab09 -.:/_", "张", "😀", "é", "  ", "----", "a.b"]), max_size=80).map("".join)


@settings(max_examples=500, deadline=None)
@given(text=_TEXTS, picks=st.lists(st.integers(0, 10**6), max_size=12))
def test_offsets_are_those_of_the_alnum_map(text, picks):
    view = TextView.of(text)
    alnum = view.alnum()
    if not alnum:
        return
    offsets = [p % len(alnum) for p in picks]
    back = view.alnum_map()
    assert alnum_offsets(view.text, offsets) == {o: back(o) for o in offsets}
