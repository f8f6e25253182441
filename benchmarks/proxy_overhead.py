"""What the interceptor adds: the same load sent direct to the scripted stand-in cloud API and through
`ec2audit intercept serve`, in one run.

Both servers run as their own processes (uvicorn), the load generator here (httpx, asyncio). Direct and
proxied batches alternate so drift in the machine's load hits both alike. Reports added latency p50/p99,
first-byte delay of streams and the throughput ratio, at concurrency 1 (pure per-request overhead) and
at the given concurrency (throughput).

    .venv/bin/python benchmarks/proxy_overhead.py --requests 2000 --concurrency 20
    .venv/bin/python benchmarks/proxy_overhead.py --enforce redact   # inline scan, redaction and restore
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

BIN = Path(sys.executable).parent
#: With --enforce redact the user text carries a phone number that the proxy replaces and restores.
PHONE = "13922883366"
UNITS = [{"task_id": "bench", "entity_id": "P1", "field": "phone", "value": PHONE, "dimension": "contact"},
         {"task_id": "bench", "entity_id": "P1", "field": "name", "value": "Wang Xiaoyan", "dimension": "person_name"}]
TEXT = "Summarise the quarterly numbers for the team, briefly please."


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(cmd: list[str], url: str) -> subprocess.Popen:
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{url}/v1/models", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"could not start: {' '.join(cmd)}")


async def one(client: httpx.AsyncClient, url: str, stream: bool, text: str) -> tuple[float, float]:
    """(total latency, first-byte latency) of one request, in ms."""
    body = {"model": "echo", "stream": stream, "messages": [
        {"role": "system", "content": "You are a careful assistant."},
        {"role": "user", "content": text}]}
    t0 = time.perf_counter()
    first = None
    async with client.stream("POST", f"{url}/v1/chat/completions", json=body) as response:
        async for chunk in response.aiter_raw():
            if first is None and chunk:
                first = time.perf_counter()
        if response.status_code != 200:
            raise RuntimeError(f"status {response.status_code}")
    end = time.perf_counter()
    return (end - t0) * 1000, ((first or end) - t0) * 1000


async def batch(url: str, stream: bool, count: int, concurrency: int, text: str) -> tuple[list, list, float]:
    latencies, firsts = [], []
    queue = iter(range(count))
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        async def worker():
            for _ in queue:
                total, first = await one(client, url, stream, text)
                latencies.append(total)
                firsts.append(first)
        t0 = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - t0
    return latencies, firsts, elapsed


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process: robust to other load on the machine, unlike latency."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(targets: dict[str, str], stream: bool, total: int, concurrency: int, rounds: int,
        pids: dict[str, int], text: str = TEXT) -> dict:
    results = {name: ([], [], 0.0, 0.0) for name in targets}
    per_round = max(total // rounds, 1)
    for _ in range(rounds):
        for name, url in targets.items():
            cpu = cpu_seconds(pids[name])
            lat, first, elapsed = asyncio.run(batch(url, stream, per_round, concurrency, text))
            old = results[name]
            results[name] = (old[0] + lat, old[1] + first, old[2] + elapsed,
                             old[3] + cpu_seconds(pids[name]) - cpu)
    return results


def report(label: str, results: dict, stream: bool) -> None:
    direct, proxy = results["direct"], results["proxy"]
    print(f"\n{label}: {len(direct[0])} requests each way")
    for name, (lat, first, elapsed, _cpu) in results.items():
        line = f"  {name:6s} latency p50 {pct(lat, 50):7.2f} ms  p99 {pct(lat, 99):7.2f} ms"
        if stream:
            line += f"  first byte p50 {pct(first, 50):7.2f} ms  p99 {pct(first, 99):7.2f} ms"
        print(line + f"  throughput {len(lat) / elapsed:7.1f} req/s")
    print(f"  added  latency p50 {pct(proxy[0], 50) - pct(direct[0], 50):+.2f} ms  "
          f"p99 {pct(proxy[0], 99) - pct(direct[0], 99):+.2f} ms", end="")
    if stream:
        print(f"  first byte p50 {pct(proxy[1], 50) - pct(direct[1], 50):+.2f} ms  "
              f"p99 {pct(proxy[1], 99) - pct(direct[1], 99):+.2f} ms", end="")
    ratio = (len(proxy[0]) / proxy[2]) / (len(direct[0]) / direct[2])
    print(f"  throughput ratio (proxy/direct) {ratio:.2f}")
    print(f"  CPU per request: stand-in {direct[3] / len(direct[0]) * 1000:.2f} ms, "
          f"proxy process {proxy[3] / len(proxy[0]) * 1000:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="per mode and target at --concurrency")
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--latency-requests", type=int, default=300, help="per mode and target at concurrency 1")
    parser.add_argument("--rounds", type=int, default=4, help="alternating direct/proxy batches")
    parser.add_argument("--enforce", choices=["observe", "redact"], default="observe",
                        help="redact: the proxy audits each request inline, replaces a phone number and restores it")
    args = parser.parse_args()
    extra, text = [], TEXT
    up_port, proxy_port = free_port(), free_port()
    upstream, proxy_url = f"http://127.0.0.1:{up_port}", f"http://127.0.0.1:{proxy_port}"
    with tempfile.TemporaryDirectory() as tmp:
        if args.enforce == "redact":
            units = Path(tmp, "units.jsonl")
            units.write_text("".join(json.dumps(u) + "\n" for u in UNITS))
            extra = ["--units", str(units), "--enforce", "redact"]
            text = f"Call {PHONE} and {TEXT[0].lower()}{TEXT[1:]}"
        procs = [start([str(BIN / "python"), "-m", "uvicorn", "--factory", "ec2audit.intercept.standin:create_app",
                        "--port", str(up_port), "--log-level", "warning", "--no-access-log"], upstream)]
        procs.append(start([str(BIN / "ec2audit"), "intercept", "serve", "--upstream", upstream + "/v1",
                            "--store", os.path.join(tmp, "bench.sqlite"), "--port", str(proxy_port), *extra],
                           proxy_url))
        try:
            targets = {"direct": upstream, "proxy": proxy_url}
            print(f"enforce {args.enforce}; python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
                  f"{os.getloadavg()[0]:.2f}; stand-in streams {len('echo: Summarise the quarterly numbers')}+ "
                  "chars in 3-char events")
            # CPU is charged to the process that serves each target: the stand-in direct, the proxy through it
            pids = {"direct": procs[0].pid, "proxy": procs[1].pid}
            run(targets, False, 50, 5, 1, pids)  # warm-up
            for stream in (False, True):
                mode = "stream" if stream else "plain"
                report(f"{mode}, concurrency 1",
                       run(targets, stream, args.latency_requests, 1, args.rounds, pids, text), stream)
                report(f"{mode}, concurrency {args.concurrency}",
                       run(targets, stream, args.requests, args.concurrency, args.rounds, pids, text), stream)
        finally:
            for proc in procs:
                proc.terminate()
                proc.wait(timeout=20)


if __name__ == "__main__":
    main()
