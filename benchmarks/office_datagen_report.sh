#!/usr/bin/env bash
# A folder of a user's office documents (Word .docx/.doc, RTF, OpenDocument .odt), session 53 (issue 36), run once
# by the lead on a reporting folder:
#
#   DATA=/path/to/office-folder INDEX=/path/to/scratch/index OUT=/path/to/out bash benchmarks/office_datagen_report.sh
#
# Variables: DATA (the folder; required; only read), INDEX (where its index is built with this checkout's defaults;
# required; an index already there is used as it is), OUT (runs and the table; required), N (datagen --n; default
# 200), SEED (datagen --seed; default 1), HOPS (datagen --hops; default 2-4, the default command), SHOW (tasks in the
# seeded reading sample; default 30), SHEET_SEED (its seed; default 5301), CODE (the checkout; default this script's
# repository), PY (its Python; default CODE/.venv/bin/python).
# Prints and writes OUT/table.txt (benchmarks/datagen_office.py): documents a question can name and why the others
# cannot, facts read and refused by kind, `context1 datagen` with every reader on (OUT/datagen) and with this
# session's reader off (`--mix office=0`, OUT/datagen-base: the folder as before), tasks by hops and kind, drops and
# stages, then SHOW tasks at random (question, answer, supporting passage, file) to read: natural / correct.
# Run time on the session-53 tuning folder (50 files, 2 shared CPUs): index ~1 min, the rest ~1 min.
set -euo pipefail
: "${DATA:?set DATA to a folder of office documents}" "${INDEX:?set INDEX to a scratch folder for the index}"
: "${OUT:?set OUT to an output folder}"
N=${N:-200}; SEED=${SEED:-1}; HOPS=${HOPS:-2-4}; SHOW=${SHOW:-30}; SHEET_SEED=${SHEET_SEED:-5301}
CODE=${CODE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PY=${PY:-$CODE/.venv/bin/python}
export PYTHONPATH=$CODE HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
mkdir -p "$OUT"
cd "$CODE"
echo "== index $DATA → $INDEX $(date)"
if [ ! -f "$INDEX/manifest.json" ]; then
  nice "$PY" -c "from context1.interfaces.cli import main; main()" index "$DATA" "$INDEX" --no-progress 2>&1 | tail -15 | tee "$OUT/index.log"
fi
echo "== datagen --n $N --seed $SEED --hops $HOPS, office on and off $(date)"
nice "$PY" benchmarks/datagen_office.py "$INDEX" --out "$OUT" --n "$N" --seed "$SEED" --hops "$HOPS" --show "$SHOW" \
  --sheet-seed "$SHEET_SEED" 2>&1 | grep -v "examples/s\|^ *$" | tee "$OUT/table.txt"
echo "== done $(date)"
