# Sourced by the datagen report scripts (docs_reference_report.sh, docs_options_report.sh, docs_prose_report.sh,
# source_datagen_report.sh): main against a branch on ONE index, and the branch with its flags off, which must equal
# main byte for byte. The caller sets, before sourcing:
#   IDX, OUT (required: the index, read only; where runs and sheets go), MAIN (a commit of main: a detached worktree
#   is made under /tmp and removed after, or a checkout's path), SEED (the reading sheet's seed), OFF_MIX (the
#   branch's --mix that turns its change off), and optionally BRANCH_MIX (a --mix the branch run asks for: a change
#   merged off by default), KINDS=1 (also tasks per kind: datagen_doc_kinds.py), CODE (the branch's checkout; default
#   this repository), N (datagen --n; 150), PARSE (a folder holding an earlier run's parse.* of this same index).
# Writes OUT/main, OUT/branch, OUT/off, OUT/summary.txt (printed at the end) and OUT/new-tasks.txt (a seeded sample of
# 30 new tasks, then every new and every gone one, each with its answer, gold page and quote, for a reader).
set -uo pipefail
: "${IDX:?set IDX to the index}" "${OUT:?set OUT to an output folder}" "${MAIN:?}" "${SEED:?}" "${OFF_MIX:?}"
CODE=${CODE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}; N=${N:-150}
[ -d "$IDX" ] || { echo "no index at $IDX"; exit 1; }
TMPMAIN=""
if [ ! -d "$MAIN" ]; then
  TMPMAIN=/tmp/datagen-ab-main-$$
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
if [ -n "${BRANCH_MIX:-}" ]; then dg "$CODE" branch --mix "$BRANCH_MIX"; else dg "$CODE" branch; fi
dg "$CODE" off --mix "$OFF_MIX"
cd "$CODE"; export PYTHONPATH=$CODE
{
  echo "# IDX=$IDX N=$N main=$(git -C "$MAIN" rev-parse --short HEAD) branch=$(git -C "$CODE" rev-parse --short HEAD)"
  if cmp -s "$OUT/main/tasks.jsonl" "$OUT/off/tasks.jsonl"; then echo "flags off = main: tasks.jsonl identical"
  else echo "flags off = main: tasks.jsonl DIFFERS"; fi
  [ "${KINDS:-0}" = 1 ] && nice "$PY" benchmarks/datagen_doc_kinds.py "$OUT/main" "$OUT/branch" "$OUT/off"
  nice "$PY" benchmarks/datagen_docs.py "$IDX" "$OUT/main" "$OUT/branch" 2>&1 | grep -v '^Saving'
  nice "$PY" benchmarks/datagen_docs_diff.py "$OUT/main" "$OUT/branch" --sheet "$OUT/new-tasks.txt" --seed "$SEED" 2>&1
} > "$OUT/summary.txt"
[ -n "$TMPMAIN" ] && git -C "$CODE" worktree remove --force "$TMPMAIN"
cat "$OUT/summary.txt"
