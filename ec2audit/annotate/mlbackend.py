"""Our recognizers as a Label Studio ML backend, so documents added after a push get pre-labels too.

Label Studio's `label-studio-ml` protocol: `GET /health` (is it up), `POST /setup` (a project connects;
answers the model version), `POST /predict` (tasks in, one prediction per task out: the regions as
`labels` + per-region `entity`/`field` results, each region with its own `score`). `/webhook` and
`/versions` answer so Label Studio's other calls do not fail. `setup` carries the project owner's API
token: it is never stored or logged. Served on 127.0.0.1 by `ec2audit annotate serve`.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ec2audit.annotate.labelstudio import spans_to_results
from ec2audit.annotate.prelabel import MODEL_VERSION, Prelabeler
from ec2audit.annotate.workspace import make_document


def predict(tasks: list[dict], labeler: Prelabeler) -> list[dict]:
    """One prediction per Label Studio task (`data.text`; `data.file` picks the structure reader)."""
    docs = []
    for n, task in enumerate(tasks):
        data = task.get("data") or {}
        text = data.get("text")
        docs.append(make_document(str(data.get("task_id") or "labelstudio"),
                                  str(data.get("file") or f"task-{task.get('id', n)}.txt"),
                                  text if isinstance(text, str) else ""))
    results = []
    for doc, spans in zip(docs, labeler.label(docs), strict=True):
        score = sum(s.score for s in spans) / len(spans) if spans else 0.0
        results.append({"result": spans_to_results(doc.text, spans), "score": round(score, 3),
                        "model_version": MODEL_VERSION})
    return results


def app(use_presidio: bool = False) -> Starlette:
    labeler = Prelabeler(use_presidio=use_presidio)

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "UP", "model_class": "ec2audit.Prelabeler", "model_version": MODEL_VERSION})

    async def setup(request: Request) -> JSONResponse:
        await request.body()  # holds the owner's access token: read, never kept
        return JSONResponse({"model_version": MODEL_VERSION})

    async def predict_endpoint(request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except ValueError:
            return JSONResponse({"error": "the body is not JSON"}, status_code=400)
        tasks = body.get("tasks") if isinstance(body, dict) else None
        if not isinstance(tasks, list):
            return JSONResponse({"error": "expected {\"tasks\": [...]}"}, status_code=400)
        return JSONResponse({"results": await run_in_threadpool(predict, tasks, labeler),
                             "model_version": MODEL_VERSION})

    async def versions(request: Request) -> JSONResponse:
        return JSONResponse({"versions": [MODEL_VERSION]})

    async def webhook(request: Request) -> JSONResponse:
        return JSONResponse({}, status_code=201)

    return Starlette(routes=[
        Route("/health", health, methods=["GET"]), Route("/", health, methods=["GET"]),
        Route("/setup", setup, methods=["POST"]), Route("/predict", predict_endpoint, methods=["POST"]),
        Route("/versions", versions, methods=["GET"]), Route("/webhook", webhook, methods=["POST"]),
    ])
