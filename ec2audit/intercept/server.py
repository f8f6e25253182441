"""Run an ASGI app with uvicorn in a background thread: the runner and tests use the proxy in-process."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import uvicorn


def serve_in_thread(app, host: str = "127.0.0.1", port: int = 0,
                    timeout: float = 30.0) -> tuple[str, Callable[[], None]]:
    """Start serving; returns the base URL (`http://127.0.0.1:PORT`) and a function that stops it."""
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            proxy_headers=False, lifespan="on", timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn-{host}:{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"server on {host}:{port} did not start")
        time.sleep(0.01)
    bound = server.servers[0].sockets[0].getsockname()

    def stop() -> None:
        """Returns once the server stopped (open connections get uvicorn's 5 s, then the app's shutdown runs:
        the proxy joins its scanning process), bounded only against a hang: a loaded machine's slow stop was
        cut at 10 s, and its caller went on as if the server and its workers were gone."""
        server.should_exit = True
        thread.join(timeout=120)

    return f"http://{bound[0]}:{bound[1]}", stop
