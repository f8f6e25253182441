"""What the ec2audit guardrail adds inside a LiteLLM proxy: one `litellm --config` process in front of the
scripted stand-in cloud API, the guardrail off by default and asked for per request (`"guardrails":
["ec2audit"]`), so requests with and without it alternate on the same warm proxy and machine load hits
both alike. Each request carries a name and a phone number the guardrail (redact) replaces, and gets
them back in the answer; the store must hold exactly the guarded calls (checked, else the run fails).

    .venv/bin/python benchmarks/litellm_guardrail_overhead.py --requests 300
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx

BIN = Path(sys.executable).parent
UNITS = [{"task_id": "bench", "entity_id": "P1", "field": "phone", "value": "13922883366", "dimension": "contact"},
         {"task_id": "bench", "entity_id": "P1", "field": "name", "value": "Wang Xiaoyan", "dimension": "person_name"}]
TEXT = "Please call Wang Xiaoyan on 13922883366 about the quarterly numbers."


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_up(url: str, proc: subprocess.Popen, log: Path, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"{url} did not come up: {log.read_text()[-2000:]}")
        time.sleep(0.5)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=300, help="requests with and as many without the guardrail")
    parser.add_argument("--stream", action="store_true", help="streamed answers")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="litellm-bench-"))
    units, store = work / "units.jsonl", work / "gateway.sqlite"
    units.write_text("".join(json.dumps(u) + "\n" for u in UNITS))
    upstream_port, port = free_port(), free_port()
    (work / "config.yaml").write_text(f"""
model_list:
  - model_name: echo
    litellm_params: {{model: openai/echo, api_base: "http://127.0.0.1:{upstream_port}/v1", api_key: sk-none}}
guardrails:
  - guardrail_name: ec2audit
    litellm_params:
      guardrail: ec2audit.gateway.litellm_guardrail.Ec2auditGuardrail
      mode: [pre_call, post_call]
      default_on: false
      units: {units}
      enforce: redact
      store: {store}
""")
    key = f"sk-{uuid.uuid4().hex}"
    env = {**os.environ, "LITELLM_MASTER_KEY": key, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    procs = []
    try:
        log = work / "standin.log"
        procs.append(subprocess.Popen([BIN / "ec2audit", "intercept", "standin", "--port", str(upstream_port)],
                                      stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env))
        wait_up(f"http://127.0.0.1:{upstream_port}/v1/models", procs[-1], log)
        log = work / "litellm.log"
        procs.append(subprocess.Popen([BIN / "litellm", "--config", "config.yaml", "--host", "127.0.0.1", "--port",
                                       str(port)], cwd=work, stdout=log.open("wb"), stderr=subprocess.STDOUT, env=env))
        wait_up(f"http://127.0.0.1:{port}/health/liveliness", procs[-1], log)
        times: dict[bool, list[float]] = {False: [], True: []}
        with httpx.Client(base_url=f"http://127.0.0.1:{port}/v1", headers={"authorization": f"Bearer {key}"},
                          timeout=60) as client:
            for i in range(2 * (args.requests + 10)):
                guarded = bool(i % 2)
                body = {"model": "echo", "messages": [{"role": "user", "content": TEXT}], "stream": args.stream,
                        **({"guardrails": ["ec2audit"]} if guarded else {})}
                t0 = time.perf_counter()
                response = client.post("/chat/completions", json=body)
                text = response.text
                elapsed = (time.perf_counter() - t0) * 1000
                if response.status_code != 200 or "13922883366" not in text:
                    raise SystemExit(f"request {i} failed or lost the value: {response.status_code} {text[:300]}")
                if i >= 20:  # the first ten of each kind warm the proxy up
                    times[guarded].append(elapsed)
        time.sleep(2)  # LiteLLM logs after the answer
        from ec2audit.intercept.store import RecordStore

        recorded = len(RecordStore(store).records())
        if recorded != args.requests + 10:
            raise SystemExit(f"the store holds {recorded} calls, not the {args.requests + 10} guarded ones")
    finally:
        for proc in reversed(procs):
            proc.kill()
            proc.wait()
    plain, guarded = times[False], times[True]
    print(f"LiteLLM proxy, chat completions{' (stream)' if args.stream else ''}, {args.requests} requests each, "
          f"sequential; recorded calls: {recorded}")
    for name, values in (("without guardrail", plain), ("with ec2audit guardrail", guarded)):
        print(f"  {name:24s} p50 {percentile(values, 0.5):7.2f} ms   p99 {percentile(values, 0.99):7.2f} ms   "
              f"mean {statistics.fmean(values):7.2f} ms")
    print(f"  added by the guardrail   p50 {percentile(guarded, 0.5) - percentile(plain, 0.5):+7.2f} ms   "
          f"p99 {percentile(guarded, 0.99) - percentile(plain, 0.99):+7.2f} ms")


if __name__ == "__main__":
    main()
