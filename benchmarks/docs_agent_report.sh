#!/usr/bin/env bash
# Session 41 (issue 34): does the agent's answer open with the passage defining what the question names?
# benchmarks/docs_agent.py on one part of the session 41 documentation folders: one search, the LLM-free agent with
# AgentConfig.defined_first off (main's order) and on (this branch's default), passage hit@1 / hit@5 per proxy.
#
#   bash benchmarks/docs_agent_report.sh              # PART=report: the lead, once
#   PART=tune INDEX=/work/scratch41-lead/docs41-tune-merged LIMIT=100 bash benchmarks/docs_agent_report.sh
#
# Variables: PART (report), DATA (/work/data41/docs: holds tune/ and report/), INDEX (an index of DATA/PART read
# with "defines", i.e. by code at or after 990b9e0; default: built here, under SCRATCH, with this checkout's code,
# ~10 min for the reporting part), SCRATCH (/work/scratch41-agentdef/$PART-run), LIMIT (100: at most this many
# heading / sentence queries, a seeded sample; every definition query), PYTHON (this checkout's .venv/bin/python).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PART="${PART:-report}"
DATA="${DATA:-/work/data41/docs}"
SCRATCH="${SCRATCH:-/work/scratch41-agentdef/$PART-run}"
INDEX="${INDEX:-$SCRATCH/index}"
LIMIT="${LIMIT:-100}"
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONPATH="$REPO"
[ -d "$DATA/$PART" ] || { echo "no folder $DATA/$PART" >&2; exit 2; }
mkdir -p "$SCRATCH"
if [ ! -f "$INDEX/manifest.json" ]; then
  rm -rf "$INDEX"
  (cd "$REPO" && nice "$PYTHON" -c "from context1.interfaces.cli import main; main()" index "$DATA/$PART" "$INDEX") \
    >"$SCRATCH/index.log" 2>&1 || { echo "build of $INDEX failed: see $SCRATCH/index.log" >&2; exit 1; }
fi
cd "$REPO"
nice "$PYTHON" benchmarks/docs_agent.py --part "$PART" --data "$DATA" --index "$INDEX" --out "$SCRATCH" \
  --limit "$LIMIT" 2>"$SCRATCH/run.log"
