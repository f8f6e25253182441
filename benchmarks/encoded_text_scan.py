"""CPU time of `Cascade.scan_text` on one text made of encoded tokens (URL queries, base64 of JSON, HTML
entities, `\\uXXXX` escapes; one line in five plain), where reading decoded tokens again costs the most:
the code on PYTHONPATH, best of three, the walk's seven units (tests/test_intercept_forms_walk.py).

    PYTHONPATH=<tree> .venv/bin/python benchmarks/encoded_text_scan.py
"""

from __future__ import annotations

import base64
import json
import random
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_intercept_forms_walk import UNITS  # noqa: E402

from ec2audit.detect.cascade import Cascade  # noqa: E402

WORDS = "the quick brown fox jumps over lazy dog build log error stack trace".split()


def encoded_text(lines: int = 4000, seed: int = 1) -> str:
    rng = random.Random(seed)
    out = []
    for i in range(lines):
        words = " ".join(rng.choices(WORDS, k=5))
        out.append([f"GET /api/v1/items?q={urllib.parse.quote(words)}&page={i}",
                    "token=" + base64.b64encode(json.dumps({"id": i, "w": words.split()}).encode()).decode(),
                    f"&lt;div class=&quot;row&quot;&gt;{words}&lt;/div&gt;",
                    json.dumps({"msg": "\u00e9t\u00e9 " + words}), words][i % 5])
    return "\n".join(out)


def main() -> None:
    cascade, text = Cascade(UNITS), encoded_text()
    times = []
    for _ in range(3):
        cascade._cache.clear()
        start = time.process_time()
        cascade.scan_text(text)
        times.append(time.process_time() - start)
    print(f"{len(text) / 1e6:.2f} MB of encoded tokens: scan_text {min(times):.3f} s CPU (best of 3)")


if __name__ == "__main__":
    main()
