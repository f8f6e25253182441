"""The files of an audit, held compactly. A large audit lists hundreds of thousands of files: a `str`
each (with the lists that held it, ≈ 0.3 kB a file) set the driver's memory through the whole audit at
10 GB of logs (378,156 files, ≈ 110 MB; RESULTS.md, issue 35). A `Listing` is one bytes object of their
names (file-system encoded, NUL between them: no file name holds one) and, while it is read by place,
an array of where each ends (8 bytes a file); a batch's, `packed`, is zlib-compressed (≈ 3 bytes a
file) and crosses to its worker as one bytes object. The names are held in the buffer they were written
into and read a name at a time: a copy of it, or a list of its names while they are read in turn, was the
listing's size again at its peak."""

from __future__ import annotations

import os
import sys
import zlib
from array import array
from collections.abc import Iterable, Iterator

_ENCODING, _ERRORS = sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()  # as `os.fsdecode`


class Listing:
    """Paths in order, read by place (`listing[at]`) or in turn; `packed`: read in turn only."""

    def __init__(self, paths: Iterable[str] = (), packed: bool = False):
        blob = bytearray()
        ends = array("q")
        for path in paths:
            if ends:
                blob += b"\0"
            blob += os.fsencode(path)
            ends.append(len(blob))
        self.count, self.packed = len(ends), packed
        self._blob = zlib.compress(blob) if packed else blob
        self._ends = array("q") if packed else ends

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, at: int) -> str:
        if self.packed:
            raise TypeError("a packed listing is read in turn")
        if not 0 <= at < self.count:
            raise IndexError(at)
        start = self._ends[at - 1] + 1 if at else 0
        return self._blob[start:self._ends[at]].decode(_ENCODING, _ERRORS)

    def __iter__(self) -> Iterator[str]:
        if not self.count:
            return iter(())
        if self.packed:
            return map(os.fsdecode, zlib.decompress(self._blob).split(b"\0"))
        return map(self.__getitem__, range(self.count))
