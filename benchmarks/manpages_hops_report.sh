#!/usr/bin/env bash
# A folder of manual pages, session 50 (issue 36: questions across pages; natural on any project's pages), run once
# by the lead on a reporting folder:
#
#   DATA=/path/to/man-pages INDEX=/path/to/scratch/index OUT=/path/to/out bash benchmarks/manpages_hops_report.sh
#
# Variables: DATA (a folder of manual pages, man1/ls.1 …; required; only read), INDEX (where its index is built with
# this checkout's defaults, CorpusConfig.read_man and man_macros on; required; an index already there is used as it
# is), OUT (required), N (datagen --n; default 150), SEED (default 1), HOPS (datagen --hops; default 2-4, the CLI's:
# single-hop tasks fill what the chains leave), SHEET_SEED (default 5101), CODE, PY (as manpages_report.sh).
# Writes and prints:
#   OUT/datagen       `context1 datagen INDEX --n N --seed SEED --hops HOPS` (man_hops and man_styles on: the defaults);
#   OUT/datagen-49    the same index, `--mix man_hops=0,man_styles=0` (session 49's questions);
#   OUT/table.txt     benchmarks/datagen_manpages.py: facts read and refused by kind, the links the pages state, the
#                     paths of 2 / 3 / 4 pages and the chains asked and refused by cause, the comparisons, tasks by
#                     kind and form, BM25 gold@1 / all-gold@10 by document per kind; then the same read as session 49
#                     (--styles 0);
#   OUT/sheet.txt     SHEET_SEED's 30 tasks of OUT/datagen with their gold passages (natural / correct / genuine).
# Run time on the tuning folder (602 files; 2 shared CPUs): the index ~9 min on a never-embedded folder (seconds when
# the embedding cache has the text), each datagen run ~1-2 min, table ~1 min: about 15 min in all.
set -euo pipefail
: "${DATA:?set DATA to a folder of manual pages}" "${INDEX:?set INDEX to a scratch folder for the index}"
: "${OUT:?set OUT to an output folder}"
N=${N:-150}; SEED=${SEED:-1}; HOPS=${HOPS:-2-4}; SHEET_SEED=${SHEET_SEED:-5101}
CODE=${CODE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PY=${PY:-$CODE/.venv/bin/python}
export PYTHONPATH=$CODE HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
mkdir -p "$OUT"
cd "$CODE"
cli() { nice "$PY" -c "from context1.interfaces.cli import main; main()" "$@"; }
quiet() { tr '\r' '\n' | grep -v "it/s]\|task/s\|examples/s\|sent/s\|^ *$" || true; }
echo "== index $DATA → $INDEX $(date)"
if [ ! -f "$INDEX/manifest.json" ]; then
  cli index "$DATA" "$INDEX" --no-chroma --no-progress 2>&1 | tail -15 | tee "$OUT/index.log"
fi
echo "== datagen --n $N --seed $SEED --hops $HOPS $(date)"
if [ ! -f "$OUT/datagen/tasks.jsonl" ]; then
  cli datagen "$INDEX" "$OUT/datagen" --n "$N" --seed "$SEED" --hops "$HOPS" 2>&1 | quiet | tail -12 | tee "$OUT/datagen.log"
fi
echo "== datagen --mix man_hops=0,man_styles=0 (session 49's questions) $(date)"
if [ ! -f "$OUT/datagen-49/tasks.jsonl" ]; then
  cli datagen "$INDEX" "$OUT/datagen-49" --n "$N" --seed "$SEED" --hops "$HOPS" --mix man_hops=0,man_styles=0 2>&1 \
    | quiet | tail -8 | tee "$OUT/datagen-49.log"
fi
echo "== table $(date)"
{ nice "$PY" benchmarks/datagen_manpages.py "$INDEX" "$OUT/datagen" "$OUT/datagen-49"
  echo "-- read as session 49 (--styles 0):"
  nice "$PY" benchmarks/datagen_manpages.py "$INDEX" --styles 0; } | tee "$OUT/table.txt"
echo "== reading sheet: $SHEET_SEED's 30 tasks with their passages $(date)"
"$PY" benchmarks/datagen_handread.py "$OUT/datagen" --sample 30 --seed "$SHEET_SEED" | tee "$OUT/sheet.txt" || true
echo "== done $(date)"
