"""Text sent as token ids: OpenAI's embeddings `input` and legacy completions `prompt` take an array of token ids (or
a batch of them) for a text, and LangChain's `OpenAIEmbeddings` sends every text so (tiktoken's ids, cut to the
model's context). Every model those two APIs serve (`text-embedding-3-*`, `ada-002`, `gpt-3.5-turbo-instruct`,
`davinci-002`) uses `cl100k_base`, so an array there is read as the text `cl100k_base` decodes it to, and a value
in it replaced by its placeholder's tokens (`fields._read_tokens`).

The encoding's ranks are the file the pinned `litellm` distribution ships (named as tiktoken's cache names it),
checked against tiktoken's hash and loaded with tiktoken's cache pointed at it for that one load: never a download.
"""

from __future__ import annotations

import codecs
import os
import threading
from functools import cache
from importlib import metadata
from pathlib import Path

import tiktoken

ENCODING = "cl100k_base"
#: The file of `cl100k_base`'s ranks in the litellm distribution (the sha1 of its URL: tiktoken's cache key).
_RANKS = "litellm/litellm_core_utils/tokenizers/9b5ad71b2ce5302211f9c61530b329a4922fc6a4"
_LOAD = threading.Lock()


class TokensUnreadable(RuntimeError):
    """The encoding's ranks are not installed: token arrays cannot be read."""


@cache
def encoding() -> tiktoken.Encoding:
    """`cl100k_base`, loaded from litellm's copy of its ranks (TokensUnreadable where that is missing)."""
    try:
        ranks = Path(next(f for f in metadata.files("litellm") or [] if str(f) == _RANKS).locate())
    except (metadata.PackageNotFoundError, StopIteration):
        raise TokensUnreadable(f"litellm's copy of {ENCODING} is not installed") from None
    if not ranks.exists():
        raise TokensUnreadable(f"litellm's copy of {ENCODING} is missing ({ranks})")
    with _LOAD:
        before = os.environ.get("TIKTOKEN_CACHE_DIR")
        os.environ["TIKTOKEN_CACHE_DIR"] = str(ranks.parent)
        try:
            return tiktoken.get_encoding(ENCODING)
        finally:
            if before is None:
                del os.environ["TIKTOKEN_CACHE_DIR"]
            else:
                os.environ["TIKTOKEN_CACHE_DIR"] = before


def token_text(value: list) -> tuple[str, list[int]] | None:
    """The text an array of token ids stands for and the offset in it of the character each id's bytes start in, or
    None where the array is no token ids (a number that is no id of the encoding, a bool, a float, fewer than two).
    A character cut at the array's ends (a long text's ids sent in chunks) reads as U+FFFD."""
    if len(value) < 2 or not all(type(v) is int for v in value):
        return None
    enc = encoding()
    if not all(0 <= v < enc.n_vocab for v in value):
        return None
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    pieces: list[str] = []
    starts: list[int] = []
    at = 0
    try:
        for v in value:
            starts.append(at)
            pieces.append(decoder.decode(enc.decode_single_token_bytes(v)))
            at += len(pieces[-1])
    except KeyError:  # an id in the range that the encoding does not have
        return None
    pieces.append(decoder.decode(b"", final=True))
    return "".join(pieces), starts


def encode(text: str) -> list[int]:
    """A text's token ids (a placeholder's, where a value was)."""
    return encoding().encode(text, disallowed_special=())
