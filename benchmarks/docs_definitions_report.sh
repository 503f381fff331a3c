#!/usr/bin/env bash
# Session 41 (issue 34): the passage that defines what a question names, main vs this branch, on one part of the
# session 41 documentation folders. Builds two indexes of the part into a scratch folder — "main" with main's code
# (a checkout of BASE, efe2115) and "branch" with this checkout's — then prints benchmarks/docs_reading.py's
# table: markup residue by project, and hit@5 / MRR@10 of the arms main, off (branch index, defined_names=0) and
# on (branch index, the default lift), with paired bootstrap intervals and won / lost.
#
#   bash benchmarks/docs_definitions_report.sh                 # PART=report: the lead, once
#   PART=tune bash benchmarks/docs_definitions_report.sh       # the tuning part (what the report's figures ran)
#
# Variables: PART (report), DATA (/work/data41/docs: holds tune/ and report/), SCRATCH
# (/work/scratch41-docsearch/$PART-run), BASE (efe2115), PYTHON (this checkout's .venv/bin/python). An index
# already built in SCRATCH is reused (delete the folder to rebuild).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PART="${PART:-report}"
DATA="${DATA:-/work/data41/docs}"
SCRATCH="${SCRATCH:-/work/scratch41-docsearch/$PART-run}"
BASE="${BASE:-efe2115}"
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
[ -d "$DATA/$PART" ] || { echo "no folder $DATA/$PART" >&2; exit 2; }
mkdir -p "$SCRATCH"
if [ ! -d "$SCRATCH/main-code" ]; then
  mkdir -p "$SCRATCH/main-code.tmp"
  git -C "$REPO" archive "$BASE" | tar -x -C "$SCRATCH/main-code.tmp"
  mv "$SCRATCH/main-code.tmp" "$SCRATCH/main-code"
fi
build() {  # CODE INDEX: index the part with the code at CODE
  if [ -f "$2/manifest.json" ]; then echo "using $2" >&2; return; fi
  rm -rf "$2"
  (cd "$1" && PYTHONPATH="$1" nice "$PYTHON" -c "from context1.interfaces.cli import main; main()" \
      index "$DATA/$PART" "$2") >"$2.log" 2>&1 || { echo "build of $2 failed: see $2.log" >&2; exit 1; }
}
build "$SCRATCH/main-code" "$SCRATCH/main"
build "$REPO" "$SCRATCH/branch"
cd "$REPO"
PYTHONPATH="$REPO" nice "$PYTHON" benchmarks/docs_reading.py --part "$PART" --data "$DATA" --scratch "$SCRATCH" \
  --main-index "$SCRATCH/main" --branch-index "$SCRATCH/branch" | tee "$SCRATCH/table.md"
