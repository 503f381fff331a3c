# Issue 36, sessions 50-51: datagen on a folder of meetings, base against this branch (session 50: questions naming
# their meeting, datagen.meeting_said; session 51: questions across two meetings, datagen.meeting_hops), on ONE index. For the lead's reporting part (an unseen QMSum split exported by
# qmsum_export.py: DATA/docs/*.txt and DATA/queries.jsonl); run once:
#
#   DATA=/path/to/export INDEX=/path/to/index OUT=/path/to/out bash benchmarks/meetings_named_report.sh
#
# INDEX is built from DATA/docs when it is not there (`context1 index`). Optional: BASE (commit, default 3cd8b63),
# N (datagen --n, 150), SEED (the reading sheet's seed, 5050). Writes OUT/base, OUT/branch, OUT/off (the branch with
# its keys off, OFF_MIX: must equal base byte for byte), OUT/summary.txt (printed at the end) and OUT/sheet.txt (a seeded
# sample of 30 of the branch's tasks for a reader).
set -uo pipefail
: "${DATA:?set DATA to the exported folder}" "${INDEX:?set INDEX}" "${OUT:?set OUT}"
BASE=${BASE:-3cd8b63}; N=${N:-150}; SEED=${SEED:-5050}
# the keys this branch adds over BASE (3cd8b63 has session 50's meet_roles … already)
OFF_MIX=${OFF_MIX:-meet_hops=0}
CODE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=/work/main/.venv/bin/python; [ -x "$CODE/.venv/bin/python" ] && PY=$CODE/.venv/bin/python
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
mkdir -p "$OUT"
if [ ! -d "$INDEX" ]; then
  (cd "$CODE" && PYTHONPATH=$CODE nice -n 5 "$PY" -c "from context1.interfaces.cli import main; main()" index \
    "$DATA/docs" "$INDEX" > "$OUT/index.log" 2>&1) || { echo "index failed: see $OUT/index.log"; exit 1; }
fi
TMPBASE=/tmp/meetings-named-base-$$
git -C "$CODE" worktree add --detach "$TMPBASE" "$BASE" >/dev/null || exit 1
dg() {  # dg CHECKOUT RUN [datagen flags]: one run; the spaCy parse is shared from OUT/base once it is there
  local run=$OUT/$2; rm -rf "$run"; mkdir -p "$run"
  [ "$2" != base ] && cp "$OUT"/base/parse.* "$run"/ 2>/dev/null
  (cd "$1" && PYTHONPATH=$1 nice -n 5 "$PY" -c "from context1.interfaces.cli import main; main()" datagen "$INDEX" "$run" \
      --n "$N" --seed 1 --no-progress "${@:3}" > "$run.log" 2>&1) || echo "datagen $2 failed: see $run.log"
}
dg "$TMPBASE" base
dg "$CODE" branch
dg "$CODE" off --mix "$OFF_MIX"
git -C "$CODE" worktree remove --force "$TMPBASE"
cd "$CODE"; export PYTHONPATH=$CODE
{
  echo "# DATA=$DATA INDEX=$INDEX N=$N base=$BASE branch=$(git rev-parse --short HEAD)"
  if cmp -s "$OUT/base/tasks.jsonl" "$OUT/off/tasks.jsonl"; then echo "keys off = base: tasks.jsonl identical"
  else echo "keys off = base: tasks.jsonl DIFFERS"; fi
  nice "$PY" benchmarks/datagen_meetings_named.py "$INDEX" "$OUT/base" "$OUT/branch" "$DATA/queries.jsonl" 2>&1 | grep -v '^Saving'
  grep -o '"said_[a-z_]*": [0-9]*' "$OUT/branch/runs.jsonl" | sort | uniq | head -20
  grep -o '"meet_hop:[a-z_:]*": [0-9]*' "$OUT/branch/runs.jsonl" | sort | uniq
} > "$OUT/summary.txt"
nice "$PY" benchmarks/datagen_handread.py "$OUT/branch" --sample 30 --seed "$SEED" > "$OUT/sheet.txt" 2>&1
# the questions across two meetings, every one (they are few): for the lead's read of the new form
"$PY" -c "import json,sys; [print(t['query'], '->', t['answers'][0], t['gold_doc_ids']) for t in map(json.loads, open(sys.argv[1])) if len(t['gold_doc_ids']) > 1]" "$OUT/branch/tasks.jsonl" > "$OUT/hops.txt"
cat "$OUT/summary.txt"
echo "reading sheet: $OUT/sheet.txt; the multi-hop tasks: $OUT/hops.txt"
