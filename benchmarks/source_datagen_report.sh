#!/usr/bin/env bash
# Source datagen, main against this branch (issue 36, session 43: a repository's Python source sections asked
# about as a user of its API asks: parameter defaults, return types, raises fields; datagen.doc_source,
# `--mix source=0|1`), on ONE index built with source reading (`context1 index --source`), run once by the lead
# on the reporting repository's source index:
#
#   IDX=/path/to/reporting-source-index OUT=/work/runs/s43/lead/srcgen-report bash benchmarks/source_datagen_report.sh
#
# Variables: IDX (the index; required), OUT (where runs and sheets go; required), MAIN (a commit of main, a detached
# worktree is made under /tmp and removed after, or a checkout's path; default 1bb0446), CODE (the branch's checkout;
# default this script's repository), N (datagen --n; default 150), SEED (the reading sheet's seed; default 4302),
# PARSE (optional: a folder holding an earlier run's parse.* of this same index, to skip the parse; unset = parse).
# The index is only read (datagen writes under OUT).
# Writes OUT/main, OUT/branch (the branch with --mix source=1: off by default on main since session 43's merge), OUT/off (the branch with --mix source=0: must equal main
# byte for byte), OUT/summary.txt (facts per kind read off the index, yield per project and kind for each run;
# new / gone tasks by kind, "src:default" / "src:returns" / "src:raises" the new readers') and OUT/new-tasks.txt: a
# seeded sample of 30 of the tasks the branch wrote and main did not, then every new and every gone task, each with
# its answer, gold file and quote, for the lead's read (natural / correct).
set -uo pipefail
: "${IDX:?set IDX to the index}" "${OUT:?set OUT to an output folder}"
HERE=$(cd "$(dirname "$0")/.." && pwd)
CODE=${CODE:-$HERE}; MAIN=${MAIN:-1bb0446}; N=${N:-150}; SEED=${SEED:-4302}
[ -d "$IDX" ] || { echo "no index at $IDX"; exit 1; }
TMPMAIN=""
if [ ! -d "$MAIN" ]; then
  TMPMAIN=/tmp/s43-srcgen-main-$$
  git -C "$CODE" worktree add --detach "$TMPMAIN" "$MAIN" >/dev/null || exit 1
  MAIN=$TMPMAIN
fi
mkdir -p "$OUT"; export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 OMP_NUM_THREADS=1
PY=${PY:-$CODE/.venv/bin/python}; [ -x "$PY" ] || PY=/work/main/.venv/bin/python
dg() {  # dg CHECKOUT RUN [datagen flags]: one run; the parse is shared from OUT/main when it is there
  local run=$OUT/$2; rm -rf "$run"; mkdir -p "$run"
  if [ "$2" != main ]; then cp "$OUT"/main/parse.* "$run"/ 2>/dev/null
  elif [ -n "${PARSE:-}" ]; then cp "$PARSE"/parse.* "$run"/ 2>/dev/null; fi
  (cd "$1" && PYTHONPATH=$1 nice -n 5 "$PY" -c "from context1.interfaces.cli import main; main()" datagen "$IDX" "$run" \
      --n "$N" --seed 1 --no-progress "${@:3}" > "$run.log" 2>&1) || echo "datagen $2 failed: see $run.log"
}
dg "$MAIN" main
dg "$CODE" branch --mix source=1  # a choice since the merge (NaturalConfig.doc_source 0), asked for here
dg "$CODE" off --mix source=0
cd "$CODE"; export PYTHONPATH=$CODE
{
  echo "# IDX=$IDX N=$N main=$(git -C "$MAIN" rev-parse --short HEAD) branch=$(git -C "$CODE" rev-parse --short HEAD)"
  if cmp -s "$OUT/main/tasks.jsonl" "$OUT/off/tasks.jsonl"; then echo "flags off = main: tasks.jsonl identical"
  else echo "flags off = main: tasks.jsonl DIFFERS"; fi
  nice "$PY" benchmarks/datagen_docs.py "$IDX" "$OUT/main" "$OUT/branch" 2>&1 | grep -v '^Saving'
  nice "$PY" benchmarks/datagen_docs_diff.py "$OUT/main" "$OUT/branch" --sheet "$OUT/new-tasks.txt" --seed "$SEED" 2>&1
} > "$OUT/summary.txt"
[ -n "$TMPMAIN" ] && git -C "$CODE" worktree remove --force "$TMPMAIN"
cat "$OUT/summary.txt"
