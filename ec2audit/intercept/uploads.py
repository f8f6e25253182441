"""The chunks of resumable uploads the proxy holds until their last one arrives, within bounds.

google-genai sends a file over 8 MiB in chunks; the proxy holds them and forwards the file whole with the last
(`app.Interceptor._whole_file`), so a value cut across two chunks is audited whole. A client that gives up after a
chunk would leave its bytes in the proxy's memory until it stops: held chunks are kept at most `max_age_s` after the
upload's latest chunk and `max_bytes` in all, the least recently sent dropped first. The proxy records each drop
(none of it was forwarded), and remembers the latest dropped sessions so that a later chunk of one is refused,
naming why, rather than taken for a new file.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass

#: How many dropped sessions are remembered (a later chunk of an older one is still refused: its offset)
DROPPED_KEPT = 1024


@dataclass(slots=True)
class Held:
    """One upload's chunks so far, and what its record names (its episode, task and path as recorded)."""

    data: bytes
    since: float  # when its latest chunk came (the clock's seconds)
    episode: str | None
    task_id: str | None
    api: str | None
    path: str | None


class HeldUploads:
    """Upload session → its `Held` chunks, oldest first; `hold` and `expire` return what they dropped, and why."""

    def __init__(self, max_age_s: float, max_bytes: int, clock=time.monotonic):
        self.max_age_s, self.max_bytes, self.clock = max_age_s, max_bytes, clock
        self._held: OrderedDict[tuple, Held] = OrderedDict()
        self._dropped: OrderedDict[tuple, str] = OrderedDict()
        self.bytes = 0

    def take(self, session: tuple) -> Held | None:
        """The session's chunks held so far (no longer held), None where it holds none."""
        held = self._held.pop(session, None)
        if held is not None:
            self.bytes -= len(held.data)
        return held

    def dropped(self, session: tuple) -> str | None:
        """Why the session's chunks were dropped, if they were (forgotten once it starts again at offset 0)."""
        return self._dropped.get(session)

    def restart(self, session: tuple) -> None:
        self._dropped.pop(session, None)

    def hold(self, session: tuple, held: Held) -> list[tuple[Held, str]]:
        """Hold the session's chunks (`held.data` all of them so far); the oldest others are dropped while all the
        chunks held run over `max_bytes`. ValueError where this upload alone does."""
        if len(held.data) > self.max_bytes:
            raise ValueError(f"{len(held.data)} bytes of chunks held are over the {self.max_bytes}-byte bound")
        dropped = []
        while self._held and self.bytes + len(held.data) > self.max_bytes:
            oldest = next(iter(self._held))
            dropped.append(self._drop(oldest, f"dropped to make room: chunks held over the {self.max_bytes}-byte "
                                              "bound"))
        held.since = self.clock()
        self._held[session] = held
        self.bytes += len(held.data)
        return dropped

    def expire(self) -> list[tuple[Held, str]]:
        """Drop the uploads whose latest chunk is over `max_age_s` old (oldest first: one look when none is)."""
        now, dropped = self.clock(), []
        while self._held:
            session, oldest = next(iter(self._held.items()))
            if now - oldest.since <= self.max_age_s:
                break
            dropped.append(self._drop(session, f"dropped: no chunk for {now - oldest.since:.0f} s, over the "
                                               f"{self.max_age_s:g}-s bound"))
        return dropped

    def _drop(self, session: tuple, why: str) -> tuple[Held, str]:
        held = self.take(session)
        assert held is not None
        self._dropped[session] = why
        while len(self._dropped) > DROPPED_KEPT:
            self._dropped.popitem(last=False)
        return held, why
