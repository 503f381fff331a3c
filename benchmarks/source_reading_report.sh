#!/usr/bin/env bash
# Session 43 (issues 34 + 36): Python source read as documents. benchmarks/source_reading.py on one repository:
# builds its three indexes (docs only = main's reading; source read as documents; the .py files as plain text) and
# prints the table: questions about the API (source vs plain text) and the documentation proxies (docs only vs
# docs + source, one search; AGENT=1 adds the LLM-free agent's passages).
#
#   FOLDER=/path/to/repository SCRATCH=/work/scratch43-lead/source-report bash benchmarks/source_reading_report.sh
#
# Variables: FOLDER (required: a repository folder holding its documentation and its Python source), SCRATCH
# (required: where the indexes, rows, log and table.md go; indexes already there are reused), LIMIT (100: at most this
# many source questions of each kind, a seeded sample), AGENT (0: one search; 1: also the LLM-free agent's passages
# on the docs proxies, not measured on tuning, ~1 s a proxy per index), PYTHON (this checkout's .venv/bin/python).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
: "${FOLDER:?set FOLDER to the repository folder}"
: "${SCRATCH:?set SCRATCH to a scratch folder}"
LIMIT="${LIMIT:-100}"
AGENT="${AGENT:-0}"
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONPATH="$REPO"
[ -d "$FOLDER" ] || { echo "no folder $FOLDER" >&2; exit 2; }
mkdir -p "$SCRATCH"
cd "$REPO"
extra=()
[ "$AGENT" = "1" ] && extra+=(--agent)
nice "$PYTHON" benchmarks/source_reading.py --folder "$FOLDER" --scratch "$SCRATCH" --limit "$LIMIT" "${extra[@]}" \
  2>"$SCRATCH/run.log"
