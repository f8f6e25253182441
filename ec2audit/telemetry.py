"""Nothing phones home: every dependency's telemetry is switched off before any of them loads.

A privacy tool sends nothing about its host. Some of the libraries ec2audit loads collect usage data by
default, so `disable()` runs first thing when the `ec2audit` package is imported (the CLI, the library,
and every child process, which inherits the environment). The switches are environment variables
because a call comes too late: `import onnxruntime` alone writes a device id and queues an event under
`~/.cache/Microsoft/DeveloperTools/.onnxruntime/`, and `onnxruntime.disable_telemetry_events()` after
the import leaves both there; `ORT_DISABLE_TELEMETRY` set before the import stops it. The values are
forced, not defaults: a user's shell that turned one on does not turn ec2audit into a reporter.
Processes started with an environment of their own get the switches explicitly (OpenClaw's episodes).
LiteLLM needs none: its telemetry is its proxy's, off until an operator consents, and ec2audit only
reads its price map as data.
`tests/test_telemetry.py` runs the commands that load these libraries under an empty HOME and checks
that nothing outside ec2audit's own folders was written.
"""

from __future__ import annotations

import os
from pathlib import Path

#: variable → value, with the dependency that reads it.
SWITCHES: dict[str, str] = {
    "ORT_DISABLE_TELEMETRY": "1",  # ONNX Runtime's OneDS collector (device id, OS, Python path, session ids)
    "RAY_USAGE_STATS_ENABLED": "0",  # Ray usage stats (what `ray disable-usage-stats` sets, without its file)
    "HF_HUB_DISABLE_TELEMETRY": "1",  # huggingface_hub, transformers, sentence-transformers
    "COLLECT_ANALYTICS": "false",  # Label Studio (`ec2audit annotate serve` also sets it for its child)
    "SENTRY_DSN": "",  # Label Studio's and other servers' error reports (empty: no Sentry client)
    "NPM_CONFIG_UPDATE_NOTIFIER": "false",  # npm (OpenClaw's install): no registry query about the host's npm
    "OPENCLAW_NO_AUTO_UPDATE": "1",  # OpenClaw's start-up update check (its telemetry ping, version and host)
    "DO_NOT_TRACK": "1",  # the cross-tool convention: OpenClaw's feature stats, HF hub, anything else that honours it
    # tldextract (Presidio's URL and e-mail recognizers) fetches the public suffix list on first use: the
    # snapshot inside its wheel is used instead
    "TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS": "",
}


def disable() -> None:
    """Set every switch in this process's environment (inherited by the processes it starts), and keep
    tldextract's cache inside ec2audit's cache folder instead of its own `~/.cache/python-tldextract`."""
    os.environ.update(SWITCHES)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ec2audit" / "tldextract"
    os.environ["TLDEXTRACT_CACHE"] = str(cache)
