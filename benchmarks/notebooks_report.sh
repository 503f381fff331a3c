#!/usr/bin/env bash
# Jupyter notebooks (session 45, issues 34 and 36), run once by the lead on a reporting folder of notebooks:
#
#   DATA=/path/to/notebooks INDEX=/path/to/scratch OUT=/path/to/out bash benchmarks/notebooks_report.sh
#
# Variables: DATA (a folder of .ipynb files; required; only read), INDEX (a folder where the two indexes and the
# converted Markdown are built: INDEX/reader, INDEX/converted, INDEX/converted-md; required), OUT (where the
# tables, datagen's run and the reading sheet go; required), N (datagen --n; default 150), SEED (datagen --seed;
# default 1), SHEET_SEED (the reading sheet's seed; default 4501), AGENT (queries the LLM-free agent runs on;
# default 150), CODE (the checkout to run; default this script's repository).
# Prints and writes OUT/search.md (benchmarks/notebooks_search.py: noise left in each reading's chunks; one search,
# reader vs nbconvert-Markdown baseline, hit@1/hit@5/MRR, paired bootstrap, won/lost; the agent vs one search),
# runs `context1 datagen INDEX/reader OUT/datagen --n N --seed SEED`, and prints OUT/funnel.txt (what the readers
# found, kept and refused) and OUT/sheet.txt (SHEET_SEED's 30 tasks with their quotes, for the lead's read).
# Run time on the session-45 tuning folder (78 notebooks, ~1,520 chunks each index, 2 shared CPUs): 7-8 min with the
# embedding cache warm (search 4-5 min of it, datagen 1.5, funnel 0.5); add ~1.5-4 min per index on a never-embedded folder.
set -euo pipefail
: "${DATA:?set DATA to a folder of .ipynb notebooks}" "${INDEX:?set INDEX to a scratch folder for the indexes}"
: "${OUT:?set OUT to an output folder}"
N=${N:-150}; SEED=${SEED:-1}; SHEET_SEED=${SHEET_SEED:-4501}; AGENT=${AGENT:-150}
CODE=${CODE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PY=${PY:-$CODE/.venv/bin/python}
export PYTHONPATH=$CODE HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
mkdir -p "$INDEX" "$OUT"
cd "$CODE"
echo "== search (notebooks_search.py) $(date)"
nice "$PY" benchmarks/notebooks_search.py --data "$DATA" --scratch "$INDEX" --out "$OUT" --agent-limit "$AGENT" \
  | tee "$OUT/search.md"
echo "== datagen --n $N --seed $SEED $(date)"
if [ ! -f "$OUT/datagen/tasks.jsonl" ]; then
  nice "$PY" -c "from context1.interfaces.cli import main; main()" datagen "$INDEX/reader" "$OUT/datagen" \
    --n "$N" --seed "$SEED" 2>&1 | tr '\r' '\n' | grep -v "it/s]\|task/s\|examples/s\|sent/s\|^ *$" | tail -20 | tee "$OUT/datagen.log" || true
fi
echo "== funnel (what the readers found, kept and refused) $(date)"
rm -rf "$OUT/funnel" && mkdir -p "$OUT/funnel" && cp "$OUT"/datagen/parse.* "$OUT/funnel/" 2>/dev/null || true
nice "$PY" benchmarks/datagen_funnel.py "$INDEX/reader" "$OUT/funnel" --n "$N" --seed "$SEED" 2>/dev/null \
  | tee "$OUT/funnel.txt" || true
echo "== reading sheet: $SHEET_SEED's 30 tasks with their quotes $(date)"
"$PY" benchmarks/datagen_handread.py "$OUT/datagen" --sample 30 --seed "$SHEET_SEED" | tee "$OUT/sheet.txt" || true
echo "== done $(date)"
