"""The audit's compact listing of files (`ec2audit.logs.listing`): every name back as it was listed, in
order, read by place or packed, whatever bytes the file system allowed in it."""

import os

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
