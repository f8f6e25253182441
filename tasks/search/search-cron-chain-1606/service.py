"""Mock operations desk for investigation tasks: a job scheduler, a knowledge base and a help desk.

`create_app(log_path)` returns a Starlette app; every call is appended to `log_path` as one JSON line
(`method`, `path`, `query`, `body`, `status`). The scheduler's last run of a job is a pure function of the
job's name (`last_run`), so the task generators import it to know which job of a chain broke and why.
"""

import hashlib
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

ARTICLES = {
    "E-DB-AUTH": ("KB-101", "Database login rejected: the job's credentials were rotated; refresh the secret."),
    "E-DISK-FULL": ("KB-102", "Output volume full: purge the staging directory, then rerun."),
    "E-SCHEMA": ("KB-103", "Upstream file has an unexpected column: pin the export schema version."),
    "E-TIMEOUT": ("KB-104", "Remote API timed out: raise the job timeout or retry off-peak."),
    "E-CERT": ("KB-105", "TLS certificate expired on the SFTP endpoint: ask the partner to renew it."),
}


def last_run(job: str) -> dict:
    """The scheduler's record of a job's last run: about one job in three fails, with one of the KB's codes."""
    h = int(hashlib.sha256(job.encode()).hexdigest()[:8], 16)
    failed = h % 3 == 0
    return {"job": job, "status": "failed" if failed else "succeeded", "exit_code": 1 + h % 7 if failed else 0,
            "error_code": sorted(ARTICLES)[h // 3 % len(ARTICLES)] if failed else None,
            "finished": f"2026-03-{h // 7 % 27 + 1:02d}T0{h % 6}:{h % 60:02d}:00Z"}


def create_app(log_path: str) -> Starlette:
    log = Path(log_path)
    tickets: list[dict] = []

    def reply(request: Request, body, status: int, payload) -> JSONResponse:
        with log.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"method": request.method, "path": request.url.path,
                                  "query": dict(request.query_params), "body": body, "status": status},
                                 ensure_ascii=False) + "\n")
        return JSONResponse(payload, status)

    async def job(request: Request) -> JSONResponse:
        return reply(request, None, 200, last_run(request.path_params["name"]))

    async def kb(request: Request) -> JSONResponse:
        q = request.query_params.get("q", "").strip().upper()
        hits = [{"id": aid, "code": code, "text": text} for code, (aid, text) in ARTICLES.items() if q and q in code]
        return reply(request, None, 200, {"results": hits})

    async def ticket(request: Request) -> JSONResponse:
        raw = await request.body()
        try:
            body = json.loads(raw) if raw else None
        except (json.JSONDecodeError, UnicodeDecodeError):
            body = raw.decode("utf-8", "replace")
        if not (isinstance(body, dict) and all(isinstance(body.get(k), str) for k in ("title", "body"))):
            return reply(request, body, 400, {"error": "need title and body strings"})
        tickets.append(body)
        return reply(request, body, 201, {"ticket": f"HD-{len(tickets):04d}"})

    return Starlette(routes=[Route("/scheduler/jobs/{name}", job), Route("/kb/search", kb),
                             Route("/helpdesk/tickets", ticket, methods=["POST"])])
