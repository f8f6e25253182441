"""The audit's compact listing of files (`ec2audit.logs.listing`): every name back as it was listed, in
order, read by place or packed, whatever bytes the file system allowed in it."""

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ec2audit.logs.listing import Listing

# a file name's bytes: anything but NUL and "/" (a name not valid UTF-8 comes back as the same bytes)
names = st.lists(st.binary(min_size=1, max_size=30).filter(lambda b: b"\0" not in b and b"/" not in b), max_size=40)


@given(names)
def test_every_name_comes_back_in_order(raw: list[bytes]) -> None:
    paths = [os.fsdecode(b"/logs/" + name) for name in raw]
    listing, packed = Listing(paths), Listing(iter(paths), packed=True)
    assert list(listing) == paths == list(packed)
    assert [listing[at] for at in range(len(listing))] == paths
    assert len(listing) == len(packed) == len(paths)


def test_a_packed_listing_of_many_files_is_small() -> None:
    paths = [f"/var/log/agent/sessions/chunk{at // 300:04d}/session-{at:06d}.jsonl" for at in range(30_000)]
    packed = Listing(paths, packed=True)
    assert list(packed) == paths
    assert len(packed._blob) < 10 * len(paths)  # < 10 bytes a file, not a 100-byte str each


def test_a_place_past_either_end_or_in_a_packed_listing_is_an_error() -> None:
    """Three files: places 0..2 read; 3 and -1 are IndexError (no wrap-around to the last file, no empty name);
    a packed listing keeps no ends (8 bytes a file saved), so reading it by place is a TypeError."""
    listing, packed = Listing(["/a", "/b", "/c"]), Listing(["/a", "/b", "/c"], packed=True)
    assert [listing[at] for at in range(3)] == ["/a", "/b", "/c"]
    for at in (3, -1):
        with pytest.raises(IndexError):
            listing[at]
    with pytest.raises(TypeError, match="read in turn"):
        packed[0]
    assert len(packed._ends) == 0 and list(packed) == ["/a", "/b", "/c"]
