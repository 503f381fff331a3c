# Earnings calls, session 47's reporting run (issues 34 / 36): datagen's figure questions with the precision guards and
# the one-quarter compare_read form, a reading sheet of 30 tasks per folder, and search on vendor calls with their own
# people's speaker lines named once (CorpusConfig.call_own_titles) against as before.
#
#   DATA=/path/ect-folder CALLS=/path/vendor-calls INDEX=/tmp/calls47-idx OUT=/tmp/calls47-out bash benchmarks/calls_report.sh
#
# DATA: an ECTSum-format folder (DATA/docs/*.txt, one sentence a line, TICKER_qN_YYYY.txt; DATA/gt_summaries/*.txt).
# CALLS: a folder of vendor-exported calls (.txt). INDEX and OUT are written; an index already there is reused (INDEX/ect
# and INDEX/calls are what `context1 index` builds by default, so a search run's indexes of the same folders serve).
# SEED (default 1): datagen's seed and the sheets' draw. TITLES=0 skips the third index and the search comparison (cold,
# each index of ~3,400 chunks is 11-22 min on the 2-CPU machine; with INDEX/ect and INDEX/calls already built, as
# benchmarks/earnings_calls_report.sh names them, the run is ~17 min, and 6 min with all three). Writes OUT/summary.txt (printed), OUT/sheet-{ect,calls}.txt,
# OUT/titles.md (+ .jsonl), the datagen folders OUT/{ect,calls}{,-off} and their logs.
set -uo pipefail
: "${DATA:?set DATA to an ECTSum-format folder (docs/, gt_summaries/)}" "${CALLS:?set CALLS to a vendor calls folder}"
: "${INDEX:?}" "${OUT:?}"
SEED=${SEED:-1}
CODE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=${PY:-$CODE/.venv/bin/python}; [ -x "$PY" ] || PY=/work/main/.venv/bin/python
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONPATH=$CODE
mkdir -p "$INDEX" "$OUT"
cd "$CODE"
start=$(date +%s)
index() {  # index SOURCE NAME [flags]
  [ -f "$INDEX/$2/manifest.json" ] || nice -n 5 "$PY" -m context1.interfaces.cli index "$1" "$INDEX/$2" --no-progress "${@:3}" \
      > "$OUT/index-$2.log" 2>&1 || echo "index $2 failed: see $OUT/index-$2.log"
}
gen() {  # gen NAME INDEX [datagen flags]
  rm -rf "${OUT:?}/$1"
  nice -n 5 "$PY" -m context1.interfaces.cli datagen "$2" "$OUT/$1" --no-progress --n 150 --seed "$SEED" "${@:3}" \
      > "$OUT/$1.log" 2>&1 || echo "datagen $1 failed: see $OUT/$1.log"
}
index "$DATA/docs" ect
index "$CALLS" calls
[ "${TITLES:-1}" = 0 ] || index "$CALLS" calls-titles --call-own-titles
echo "indexes: $(( $(date +%s) - start )) s"
for part in ect calls; do
  gen "$part" "$INDEX/$part"
  gen "$part-off" "$INDEX/$part" --mix call_guards=0,call_compare_read=0
done
echo "datagen: $(( $(date +%s) - start )) s"
{
  echo "# Session 47 calls reporting run: DATA=$DATA CALLS=$CALLS SEED=$SEED ($(git -C "$CODE" rev-parse --short HEAD))"
  for part in ect calls; do
    echo; echo "## $part: $(tail -n 3 "$OUT/$part.log" | head -n 1)"
    sums=(); [ $part = ect ] && sums=(--summaries "$DATA/gt_summaries")
    nice "$PY" benchmarks/datagen_calls.py "$INDEX/$part" "$OUT/$part" "$OUT/$part-off" "${sums[@]}" \
        --sheet "$OUT/sheet-$part.txt" --sample 30 --seed "$SEED"
  done
  if [ "${TITLES:-1}" != 0 ]; then
    echo; echo "## vendor calls searched, own people's speaker lines named once (on) against as before (off)"
    nice "$PY" benchmarks/call_titles.py --tasks "$OUT/calls/tasks.jsonl" --base-index "$INDEX/calls" \
        --index "$INDEX/calls-titles" --out "$OUT/titles.jsonl" 2>/dev/null
  fi
  echo; echo "total $(( $(date +%s) - start )) s"
} > "$OUT/summary.txt"
cat "$OUT/summary.txt"
