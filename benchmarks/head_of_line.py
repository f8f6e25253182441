"""Head-of-line blocking: do small requests wait while the proxy scans a large one?

The scripted stand-in cloud API and the proxy (`--enforce redact`, the app `ec2audit intercept serve`
runs) are their own processes. Small chat requests (each with a phone number to redact) are sent at a
fixed concurrency twice: alone, then while a loop keeps one large request (`--large-mb` of prose with a
phone number every 2 KB, redacted as well) in flight. Reports the small requests' latency p50/p99 in both
phases and the large requests' own latency, for each kind of large lane (`lanes.py`: the detectors of a
large body on a thread of the proxy's process, the baseline, or in a worker process), and the ratios.

    .venv/bin/python benchmarks/head_of_line.py --small 300 --large-mb 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx
from proxy_overhead import BIN, PHONE, UNITS, free_port, pct, start

from ec2audit.intercept.app import InterceptConfig, create_app
from ec2audit.units import read_units

_ENV = "EC2_BENCH_PROXY"  # the proxy process's configuration, as JSON

SENTENCE = ("The quarterly numbers went up in the north and down in the south, as the team expected. " * 22
            + "Call {phone} about it. ")  # a phone number every 2 KB


async def small_load(url: str, count: int, concurrency: int) -> list[float]:
    latencies: list[float] = []
    queue = iter(range(count))
    body = {"model": "echo", "messages": [{"role": "user", "content": f"Call {PHONE} and summarise, briefly."}]}
    async with httpx.AsyncClient(timeout=120) as client:
        async def worker():
            for _ in queue:
                t0 = time.perf_counter()
                answer = await client.post(f"{url}/v1/chat/completions", json=body)
                latencies.append((time.perf_counter() - t0) * 1000)
                if answer.status_code != 200:
                    raise RuntimeError(f"small request: status {answer.status_code}")
        await asyncio.gather(*(worker() for _ in range(concurrency)))
    return latencies


async def large_loop(url: str, megabytes: float, stop: asyncio.Event, started: asyncio.Event) -> list[float]:
    size = int(megabytes * 2**20)
    text = SENTENCE.format(phone=PHONE)  # prose: no long runs of mask characters
    text = (text * (size // len(text) + 1))[:size]
    body = {"model": "echo", "messages": [{"role": "user", "content": text}, {"role": "assistant", "content": "Read."},
                                          {"role": "user", "content": "Summarise it."}]}  # a short answer
    latencies = []
    async with httpx.AsyncClient(timeout=600) as client:
        while not stop.is_set():
            t0 = time.perf_counter()
            request = asyncio.ensure_future(client.post(f"{url}/v1/chat/completions", json=body))
            await asyncio.sleep(0.05)
            started.set()
            answer = await request
            latencies.append((time.perf_counter() - t0) * 1000)
            if answer.status_code != 200:
                raise RuntimeError(f"large request: status {answer.status_code}")
    return latencies


async def with_large(url: str, args) -> tuple[list[float], list[float]]:
    stop, started = asyncio.Event(), asyncio.Event()
    large = asyncio.ensure_future(large_loop(url, args.large_mb, stop, started))
    await started.wait()
    small = await small_load(url, args.small, args.concurrency)
    stop.set()
    return small, await large


def proxy_app():
    """The proxy as `uvicorn --factory` serves it, configured by the benchmark through the environment."""
    options = json.loads(os.environ[_ENV])
    return create_app(InterceptConfig(upstream=options["upstream"], store=options["store"], enforce="redact",
                                      units=read_units(options["units"]), large_lane=options["lane"]))


def phase(lane: str, upstream: str, units: Path, tmp: str, args) -> dict[str, list[float]]:
    """Both phases against a proxy whose large lane is `lane`."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    options = {"upstream": upstream + "/v1", "units": str(units), "store": os.path.join(tmp, f"{lane}.sqlite"),
               "lane": lane}
    os.environ[_ENV] = json.dumps(options)
    proc = start([str(BIN / "python"), "-m", "uvicorn", "--factory", "head_of_line:proxy_app", "--app-dir",
                  str(Path(__file__).parent), "--port", str(port), "--log-level", "warning", "--no-access-log"], url)
    try:
        asyncio.run(small_load(url, 30, 2))  # warm-up, and the large lane started (its cascade, its process)
        asyncio.run(with_large(url, argparse.Namespace(**{**vars(args), "small": 1, "concurrency": 1})))
        alone = asyncio.run(small_load(url, args.small, args.concurrency))
        beside, large = asyncio.run(with_large(url, args))
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    return {"alone": alone, "beside": beside, "large": large}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=300, help="small requests per phase")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--large-mb", type=float, default=10.0)
    parser.add_argument("--lanes", default="thread,process", help="large lanes to measure, in order")
    args = parser.parse_args()
    up_port = free_port()
    upstream = f"http://127.0.0.1:{up_port}"
    with tempfile.TemporaryDirectory() as tmp:
        units = Path(tmp, "units.jsonl")
        units.write_text("".join(json.dumps(u) + "\n" for u in UNITS))
        standin = start([str(BIN / "python"), "-m", "uvicorn", "--factory", "ec2audit.intercept.standin:create_app",
                         "--port", str(up_port), "--log-level", "warning", "--no-access-log"], upstream)
        try:
            print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
                  f"{args.small} small requests at concurrency {args.concurrency}, large {args.large_mb} MB")
            results = {}
            for lane in args.lanes.split(","):
                results[lane] = got = phase(lane, upstream, units, tmp, args)
                alone, beside, large = got["alone"], got["beside"], got["large"]
                print(f"large lane: {lane}")
                print(f"  small alone         p50 {pct(alone, 50):8.1f} ms  p99 {pct(alone, 99):8.1f} ms")
                print(f"  small beside large  p50 {pct(beside, 50):8.1f} ms  p99 {pct(beside, 99):8.1f} ms")
                print(f"  large ({len(large)} sent)     p50 {pct(large, 50):8.1f} ms  max {max(large):8.1f} ms")
            if "thread" in results and "process" in results:
                thread, process = results["thread"]["beside"], results["process"]["beside"]
                print(f"small beside large, thread / process lane: p50 x{pct(thread, 50) / pct(process, 50):.2f}, "
                      f"p99 x{pct(thread, 99) / pct(process, 99):.2f}")
        finally:
            standin.terminate()
            standin.wait(timeout=30)


if __name__ == "__main__":
    main()
