"""Mistakes a user makes talking to Label Studio: one line naming the URL and the cause, exit 2, no secret.

Against the session's real Label Studio (wrong path, bad token), a port nobody listens on (a stopped
server), a port where another web server answers (wrong port), and a URL without a scheme.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from ec2audit.annotate import server
from ec2audit.cli import main
from ec2audit.intercept.server import serve_in_thread

BAD_TOKEN = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture(scope="module")
def other_web_server():
    """Not Label Studio: a web app that answers every path with an HTML page (status 404)."""
    async def page(request):
        return HTMLResponse("<html><body><h1>Not Found</h1>" + "<p>padding</p>" * 200 + "</body></html>", 404,
                            headers={"Set-Cookie": "sessionid=s3cr3t-cookie-value; HttpOnly"})

    url, stop = serve_in_thread(Starlette(routes=[Route("/{path:path}", page, methods=["GET", "POST"])]))
    yield url
    stop()


def _run(args, token):
    return CliRunner().invoke(main, args, env={"LABEL_STUDIO_API_KEY": token})


def _assert_one_line_error(result, url: str, cause: str, token: str) -> None:
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert url.rstrip("/") in lines[0] and cause in lines[0], lines[0]
    for secret in (token, "sessionid", "csrftoken", "<html", "Traceback"):
        assert secret not in result.output


@pytest.mark.labelstudio
@pytest.mark.parametrize("command", ["push", "pull"])
def test_each_server_mistake_is_one_line(labelstudio, other_web_server, tmp_path, command):
    tasks_file = tmp_path / "tasks.json"
    tasks_file.write_text("[]")
    tail = [str(tasks_file)] if command == "push" else ["--out", str(tmp_path / "units.jsonl")]
    stopped = f"http://127.0.0.1:{server.free_port()}"
    no_scheme = labelstudio.url.removeprefix("http://")
    wrong_path = labelstudio.url + "/projects/"
    cases = [
        (stopped, labelstudio.token, "cannot connect"),
        (other_web_server, labelstudio.token, "no Label Studio API at this URL"),
        (no_scheme, labelstudio.token, "not a Label Studio base URL"),
        (wrong_path, labelstudio.token, "no Label Studio API at this URL"),
        (labelstudio.url, BAD_TOKEN, "API token in LABEL_STUDIO_API_KEY was refused"),
    ]
    for url, token, cause in cases:
        result = _run(["annotate", command, *tail, "--url", url, "--project", "errors"], token)
        _assert_one_line_error(result, url, cause, token)
        if token != BAD_TOKEN:
            assert labelstudio.token not in result.output
    assert not (tmp_path / "units.jsonl").exists()
