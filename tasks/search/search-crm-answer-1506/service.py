"""Mock back office for office, search and automation tasks: interview calendars, a CRM, a sales dashboard.

`create_app(log_path)` returns a Starlette app; every call is appended to `log_path` as one JSON line
(`method`, `path`, `query`, `body`, `status`). What the service knows is a pure function of the keys it is
asked about (`busy`, `order_status`), so the task generators can import the same functions to know the answers.
"""

import hashlib
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

SLOTS = [f"2026-04-{day:02d}T{hour:02d}:00" for day in range(6, 11) for hour in (9, 10, 11, 14, 15, 16)]
STATUSES = ["processing", "shipped", "delayed", "delivered"]


def _hash(*keys: str) -> int:
    return int(hashlib.sha256("|".join(keys).encode()).hexdigest()[:8], 16)


def busy(interviewer: str, slot: str) -> bool:
    """Whether the interviewer's calendar is taken at `slot` (about half the slots are)."""
    return _hash(interviewer, slot) % 2 == 0


def order_status(order_no: str) -> dict:
    """The CRM's record of an order: status and the date it was (or will be) delivered."""
    h = _hash(order_no)
    return {"order_no": order_no, "status": STATUSES[h % 4], "eta": f"2026-04-{h // 4 % 20 + 6:02d}"}


def create_app(log_path: str) -> Starlette:
    log = Path(log_path)
    booked: set[tuple[str, str]] = set()

    def reply(request: Request, body, status: int, payload) -> JSONResponse:
        with log.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"method": request.method, "path": request.url.path,
                                  "query": dict(request.query_params), "body": body, "status": status},
                                 ensure_ascii=False) + "\n")
        return JSONResponse(payload, status)

    async def parse(request: Request):
        raw = await request.body()
        try:
            return json.loads(raw) if raw else None
        except (json.JSONDecodeError, UnicodeDecodeError):
            return raw.decode("utf-8", "replace")

    async def free_slots(request: Request) -> JSONResponse:
        who = request.path_params["interviewer"]
        return reply(request, None, 200, {"interviewer": who, "free": [
            s for s in SLOTS if not busy(who, s) and (who, s) not in booked]})

    async def interviews(request: Request) -> JSONResponse:
        body = await parse(request)
        panel = body.get("interviewers") if isinstance(body, dict) else None
        if not (isinstance(body, dict) and body.get("candidate_ref") and body.get("slot") in SLOTS
                and isinstance(panel, list) and panel):
            return reply(request, body, 400, {"error": "need candidate_ref, interviewers (list) and a slot"})
        if any(busy(who, body["slot"]) or (who, body["slot"]) in booked for who in panel):
            return reply(request, body, 409, {"error": "an interviewer is not free then"})
        booked.update((who, body["slot"]) for who in panel)
        return reply(request, body, 201, {"interview_id": f"IV-{len(booked):03d}", **body})

    async def order(request: Request) -> JSONResponse:
        return reply(request, None, 200, order_status(request.path_params["order_no"]))

    async def crm_replies(request: Request) -> JSONResponse:
        body = await parse(request)
        if not (isinstance(body, dict) and isinstance(body.get("customer_id"), str)
                and isinstance(body.get("body"), str)):
            return reply(request, body, 400, {"error": "need customer_id and body strings"})
        return reply(request, body, 202, {"queued": True})

    async def widgets(request: Request) -> JSONResponse:
        body = await parse(request)
        if not (isinstance(body, dict) and isinstance(body.get("widget"), str) and isinstance(body.get("rows"), list)):
            return reply(request, body, 400, {"error": "need widget (string) and rows (list)"})
        return reply(request, body, 201, {"widget": body["widget"], "rows": len(body["rows"])})

    return Starlette(routes=[
        Route("/calendar/{interviewer}/free", free_slots), Route("/interviews", interviews, methods=["POST"]),
        Route("/crm/orders/{order_no}", order), Route("/crm/replies", crm_replies, methods=["POST"]),
        Route("/dashboard/widgets", widgets, methods=["POST"])])
