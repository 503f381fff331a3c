#!/usr/bin/env bash
# Datagen on a folder of Jupyter notebooks (sessions 47-48, issue 36), run once by the lead on a reporting folder:
#
#   DATA=/path/to/notebooks INDEX=/path/to/scratch/index OUT=/path/to/out bash benchmarks/notebooks_datagen_report.sh
#
# Variables: DATA (a folder of .ipynb notebooks; required; only read), INDEX (where its index is built; required; an
# index already there is used as it is), OUT (where the runs, tables and the reading sheet go; required), N (datagen
# --n; default 150), SEED (datagen --seed; default 1), SHEET_SEED (the reading sheet's seed; default 4701), OFF (1
# also runs OFF_MIX into OUT/datagen-off; default 1), OFF_MIX (that run's `--mix`; default
# "nb_printed=0,nb_defaults=0,nb_wrapped=0": session 47's notebook reader, d7ae532's output byte for byte;
# "notebooks=0" asks no notebook question, as before session 47), CODE (the checkout to run; default this script's
# repository), PY (its Python; default CODE/.venv/bin/python).
# Writes and prints: OUT/datagen (the run), OUT/table.txt (benchmarks/datagen_notebooks.py: facts read, kept and
# refused by kind; tasks by kind and by top-level folder; BM25 gold@1 / all-gold@10 by document per kind; the off
# run beside it), OUT/sheet.txt (SHEET_SEED's 30 tasks with their gold passages, for the lead's read: natural /
# correct).
# Run time on the session-47 tuning folder (87 notebooks, 1,950 chunks, 2 shared CPUs): index 8.7 min on a
# never-embedded folder (load 3-10), the first datagen run ~5 min at load 10 (the prose parse is most of it; the
# off run reads that parse), table and sheet < 1 min: about 15-20 min in all. Session 48's tuning folder (105
# notebooks, 2,483 chunks; the new kinds read passages, no parse): the same order.
set -euo pipefail
: "${DATA:?set DATA to a folder of .ipynb notebooks}" "${INDEX:?set INDEX to a scratch folder for the index}"
: "${OUT:?set OUT to an output folder}"
N=${N:-150}; SEED=${SEED:-1}; SHEET_SEED=${SHEET_SEED:-4701}; OFF=${OFF:-1}
OFF_MIX=${OFF_MIX:-nb_printed=0,nb_defaults=0,nb_wrapped=0}
CODE=${CODE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PY=${PY:-$CODE/.venv/bin/python}
export PYTHONPATH=$CODE HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
mkdir -p "$OUT"
cd "$CODE"
cli() { nice "$PY" -c "from context1.interfaces.cli import main; main()" "$@"; }
echo "== index $DATA → $INDEX $(date)"
if [ ! -f "$INDEX/manifest.json" ]; then
  cli index "$DATA" "$INDEX" --no-progress 2>&1 | tail -15 | tee "$OUT/index.log"
fi
echo "== datagen --n $N --seed $SEED $(date)"
if [ ! -f "$OUT/datagen/tasks.jsonl" ]; then
  cli datagen "$INDEX" "$OUT/datagen" --n "$N" --seed "$SEED" 2>&1 | tr '\r' '\n' \
    | grep -v "it/s]\|task/s\|examples/s\|sent/s\|^ *$" | tail -20 | tee "$OUT/datagen.log" || true
fi
RUNS=("$OUT/datagen")
if [ "$OFF" = 1 ]; then
  echo "== datagen --mix $OFF_MIX (the base's behaviour) $(date)"
  if [ ! -f "$OUT/datagen-off/tasks.jsonl" ]; then
    mkdir -p "$OUT/datagen-off"  # the same sentences: the first run's parse is this one's (datagen reads it by its key)
    cp "$OUT"/datagen/parse.* "$OUT/datagen-off/" 2>/dev/null || true
    cli datagen "$INDEX" "$OUT/datagen-off" --n "$N" --seed "$SEED" --mix "$OFF_MIX" 2>&1 | tr '\r' '\n' \
      | grep -v "it/s]\|task/s\|examples/s\|sent/s\|^ *$" | tail -8 | tee "$OUT/datagen-off.log" || true
  fi
  RUNS+=("$OUT/datagen-off")
fi
echo "== table: facts, tasks by kind, BM25 $(date)"
nice "$PY" benchmarks/datagen_notebooks.py "$INDEX" "${RUNS[@]}" | tee "$OUT/table.txt"
echo "== reading sheet: $SHEET_SEED's 30 tasks with their passages $(date)"
"$PY" benchmarks/datagen_handread.py "$OUT/datagen" --sample 30 --seed "$SHEET_SEED" | tee "$OUT/sheet.txt" || true
echo "== done $(date)"
