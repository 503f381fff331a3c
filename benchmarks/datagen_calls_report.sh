# Earnings calls, datagen's reporting run (session 46, issue 36): index the two reporting folders as a user would, run
# `context1 datagen` on each at --n 150 (and --n 2000), print the table of benchmarks/datagen_calls.py and a seeded
# sheet of 30 tasks per folder for the reader (benchmarks/datagen_handread.py).
#
#   DATA=/work/data46/ect INDEX=/tmp/calls-report-idx OUT=/tmp/calls-report-out SEED=4646 \
#       bash benchmarks/datagen_calls_report.sh
#
# DATA holds calls-report/ (vendor exports) and ect-report/docs + ect-report/gt_summaries (ECTSum); INDEX and OUT are
# written (an index already there is reused). BASE (optional): a checkout of main to run beside the branch (its tasks
# counted in the same table). Prints OUT/summary.txt; the sheets are OUT/sheet-calls.txt and OUT/sheet-ect.txt.
set -uo pipefail
: "${DATA:?set DATA to the folder holding calls-report and ect-report}" "${INDEX:?}" "${OUT:?}"
SEED=${SEED:-4646}
CODE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=${PY:-$CODE/.venv/bin/python}; [ -x "$PY" ] || PY=/work/main/.venv/bin/python
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONPATH=$CODE
mkdir -p "$INDEX" "$OUT"
run() {  # run CHECKOUT NAME INDEX [datagen flags]
  (cd "$1" && PYTHONPATH=$1 nice -n 5 "$PY" -m context1.interfaces.cli datagen "$3" "$OUT/$2" --no-progress \
      "${@:4}" > "$OUT/$2.log" 2>&1) || echo "datagen $2 failed: see $OUT/$2.log"
}
for part in calls ect; do
  src=$DATA/calls-report; [ $part = ect ] && src=$DATA/ect-report/docs
  [ -f "$INDEX/$part/manifest.json" ] || nice -n 5 "$PY" -m context1.interfaces.cli index "$src" "$INDEX/$part" --no-progress \
      > "$OUT/index-$part.log" 2>&1
  rm -rf "$OUT/$part-150" "$OUT/$part-2000"
  run "$CODE" "$part-150" "$INDEX/$part" --n 150 --seed "$SEED"
  mkdir -p "$OUT/$part-2000"; cp "$OUT/$part-150"/parse.* "$OUT/$part-2000/" 2>/dev/null
  run "$CODE" "$part-2000" "$INDEX/$part" --n 2000 --seed "$SEED"
  if [ -n "${BASE:-}" ]; then
    rm -rf "$OUT/$part-base-150"; mkdir -p "$OUT/$part-base-150"; cp "$OUT/$part-150"/parse.* "$OUT/$part-base-150/" 2>/dev/null
    run "$BASE" "$part-base-150" "$INDEX/$part" --n 150 --seed "$SEED"
  fi
done
cd "$CODE"
{
  for part in calls ect; do
    echo "## $part: $(tail -n 3 "$OUT/$part-150.log" | tr '\n' ' ')"
    sums=(); [ $part = ect ] && sums=(--summaries "$DATA/ect-report/gt_summaries")
    outs=("$OUT/$part-150" "$OUT/$part-2000"); [ -n "${BASE:-}" ] && outs+=("$OUT/$part-base-150")
    nice "$PY" benchmarks/datagen_calls.py "$INDEX/$part" "${outs[@]}" "${sums[@]}"
    nice "$PY" benchmarks/datagen_handread.py "$OUT/$part-150" --sample 30 --seed "$SEED" > "$OUT/sheet-$part.txt" 2>&1
    echo
  done
} > "$OUT/summary.txt"
cat "$OUT/summary.txt"
