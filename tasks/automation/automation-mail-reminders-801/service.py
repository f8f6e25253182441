"""Mock office desk for automation tasks: a clinic booking calendar and an outgoing mail box.

`create_app(log_path)` returns a Starlette app; every call is appended to `log_path` as one JSON line
(`method`, `path`, `query`, `body`, `status`) so the task's checker can read what the agent sent.
"""

import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

SLOTS = [f"S-{day:02d}{hour:02d}" for day in range(1, 8) for hour in (9, 10, 11, 14, 15, 16)]


def create_app(log_path: str) -> Starlette:
    log = Path(log_path)
    booked: dict[str, str] = {}
    outbox: list[dict] = []

    def record(request: Request, body, status: int) -> None:
        with log.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"method": request.method, "path": request.url.path,
                                  "query": dict(request.query_params), "body": body, "status": status},
                                 ensure_ascii=False) + "\n")

    async def parse(request: Request):
        raw = await request.body()
        try:
            return json.loads(raw) if raw else None
        except (json.JSONDecodeError, UnicodeDecodeError):
            return raw.decode("utf-8", "replace")

    async def slots(request: Request) -> JSONResponse:
        free = [s for s in SLOTS if s not in booked]
        record(request, None, 200)
        return JSONResponse({"slots": free})

    async def bookings(request: Request) -> JSONResponse:
        body = await parse(request)
        if not isinstance(body, dict) or not body.get("patient_ref") or body.get("slot_id") not in SLOTS:
            record(request, body, 400)
            return JSONResponse({"error": "need patient_ref and a slot_id from GET /slots"}, 400)
        if body["slot_id"] in booked:
            record(request, body, 409)
            return JSONResponse({"error": "slot already booked"}, 409)
        booked[body["slot_id"]] = body["patient_ref"]
        record(request, body, 201)
        return JSONResponse({"booking_id": f"B-{len(booked):03d}", **body}, 201)

    async def send(request: Request) -> JSONResponse:
        body = await parse(request)
        if not isinstance(body, dict) or not all(isinstance(body.get(k), str) for k in ("to", "subject", "body")):
            record(request, body, 400)
            return JSONResponse({"error": "need to, subject and body strings"}, 400)
        outbox.append(body)
        record(request, body, 202)
        return JSONResponse({"queued": len(outbox)}, 202)

    return Starlette(routes=[Route("/slots", slots), Route("/bookings", bookings, methods=["POST"]),
                             Route("/send", send, methods=["POST"])])
