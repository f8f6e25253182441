"""Which logged calls went to the cloud: by provider, model and base URL, user patterns first.

Defaults: local serving stacks (ollama, llama.cpp, vLLM, LM Studio, …, named as the provider or as
the prefix of a `provider/model` name when no provider is logged) and any base URL on
localhost, a private address or a `.local` host are edge; everything else — including calls whose
provider is unknown — is cloud, the conservative side for a privacy audit. `--edge`/`--cloud` glob
patterns (matched, case-insensitively, against `provider/model`, the model, the provider and the
base URL) override the defaults; a call matching both is cloud.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from fnmatch import fnmatchcase
from urllib.parse import urlsplit

CLOUD, EDGE = "cloud", "edge"

LOCAL_PROVIDERS = frozenset({
    "ollama", "ollama_chat", "lm_studio", "llamacpp", "llama.cpp", "llama-cpp", "vllm", "lmstudio", "lm-studio",
    "hosted_vllm", "localai", "local", "edge", "mlx", "sglang", "tgi", "jan", "gpt4all", "xllamacpp", "llamafile",
    # Inspect AI's providers that run the model in its own process: `hf/` (Transformers; its Hugging Face API
    # provider is `hf-inference-providers/`), `llama-cpp-python/`, `transformer_lens/`
    "hf", "llama-cpp-python", "transformer_lens"})


def _prefix(model: str | None) -> str:
    """The provider a `provider/model` name (LiteLLM's convention: `ollama/llama3`) starts with."""
    return model.split("/", 1)[0] if model and "/" in model else ""


def _local_host(base_url: str) -> bool:
    host = (urlsplit(base_url if "//" in base_url else f"//{base_url}").hostname or "").lower()
    if host in ("localhost", "host.docker.internal") or host.endswith((".local", ".localhost")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_unspecified


@dataclass(frozen=True)
class Classifier:
    cloud: tuple[str, ...] = ()
    edge: tuple[str, ...] = ()

    def side(self, provider: str | None, model: str | None, base_url: str | None = None) -> str:
        names = [n.lower() for n in (f"{provider or ''}/{model or ''}", model, provider, base_url) if n]
        if any(fnmatchcase(n, p.lower()) for p in self.cloud for n in names):
            return CLOUD
        if any(fnmatchcase(n, p.lower()) for p in self.edge for n in names):
            return EDGE
        if (provider or _prefix(model)).lower() in LOCAL_PROVIDERS:
            return EDGE
        if base_url and _local_host(base_url):
            return EDGE
        if model and model.lower().endswith(".gguf"):
            return EDGE
        return CLOUD
