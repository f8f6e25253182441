"""Presidio's analyzer and anonymizer as the HTTP services LiteLLM's Presidio guardrail calls (`POST
/analyze`, `POST /anonymize`, the JSON of Presidio's own service images), served offline on 127.0.0.1
from the PyPI packages: the analyzer is ec2audit's Presidio on spaCy's small English model
(`ec2audit.annotate.prelabel.presidio_analyzer`), the anonymizer presidio-anonymizer's engine. For the
side-by-side gateway-check matrices in benchmarks/RESULTS.md (needs `pip install presidio-anonymizer`).

    .venv/bin/python benchmarks/presidio_http.py --port 5002
"""

from __future__ import annotations

import argparse

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


def create_app() -> Starlette:
    from presidio_analyzer import RecognizerResult
    from presidio_anonymizer import AnonymizerEngine
    from presidio_anonymizer.entities import OperatorConfig

    from ec2audit.annotate.prelabel import presidio_analyzer

    analyzer, anonymizer = presidio_analyzer().analyzer_engine, AnonymizerEngine()

    async def analyze(request: Request):
        body = await request.json()
        results = analyzer.analyze(text=body["text"], language=body.get("language", "en"),
                                   entities=body.get("entities"), score_threshold=body.get("score_threshold"))
        return JSONResponse([r.to_dict() for r in results])

    async def anonymize(request: Request):
        body = await request.json()
        results = [RecognizerResult(r["entity_type"], r["start"], r["end"], r["score"])
                   for r in body.get("analyzer_results") or []]
        operators = {k: OperatorConfig(v.pop("type"), v) for k, v in (body.get("anonymizers") or {}).items()}
        result = anonymizer.anonymize(text=body["text"], analyzer_results=results, operators=operators or None)
        return JSONResponse({"text": result.text, "items": [
            {"start": i.start, "end": i.end, "entity_type": i.entity_type, "text": i.text, "operator": i.operator}
            for i in result.items]})

    async def health(request: Request):
        return JSONResponse({"status": "ok"})

    return Starlette(routes=[Route("/analyze", analyze, methods=["POST"]),
                             Route("/anonymize", anonymize, methods=["POST"]),
                             Route("/health", health, methods=["GET"])])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=5002)
    args = parser.parse_args()
    uvicorn.run(create_app(), host="127.0.0.1", port=args.port, log_level="warning")
