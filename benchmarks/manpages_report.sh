#!/usr/bin/env bash
# A folder of Unix manual pages, session 49 (issues 34 and 36), run once by the lead on a reporting folder:
#
#   DATA=/path/to/man-pages INDEX=/path/to/scratch/index OUT=/path/to/out bash benchmarks/manpages_report.sh
#
# Variables: DATA (a folder of manual pages: man1/ls.1 …; required; only read), INDEX (where its index is built with
# this checkout's defaults, CorpusConfig.read_man on; required; an index already there is used as it is), OUT (where
# the runs, tables and the reading sheet go; required), N (datagen --n; default 150), SEED (datagen --seed; default
# 1), SHEET_SEED (the reading sheet's seed; default 4901), CODE (the checkout to run; default this script's
# repository), PY (its Python; default CODE/.venv/bin/python).
# Writes and prints:
#   OUT/search.txt   benchmarks/manpages_search.py: the roff left in the indexed text and one hybrid search on proxy
#                    queries (a page's NAME as "What does X do?", a redirect page's name, an error / option / constant
#                    tag with its text's words removed, a DESCRIPTION sentence), the reader (INDEX) against the base's
#                    plain text (every file copied as NAME.txt into OUT/search-scratch/plain-txt and indexed there:
#                    read_man off; 94d7bea skips .1 … .9 files, so a user today indexes such copies); hit@1, hit@5,
#                    MRR with the paired bootstrap interval and won / lost; per-query rows in OUT/search/rows.jsonl;
#   OUT/datagen      `context1 datagen INDEX --n N --seed SEED` (the new keys on: `--mix man=1`, the default);
#   OUT/datagen-off  the same index, `--mix man=0` (the base's questions on the reader's index);
#   OUT/table.txt    benchmarks/datagen_manpages.py: facts read and refused by kind, tasks by kind, BM25 gold@1 /
#                    all-gold@10 by document per kind, for both runs;
#   OUT/sheet.txt    SHEET_SEED's 30 tasks of OUT/datagen with their gold passages, for the lead's read (natural /
#                    correct).
# Run time on the tuning folder (602 files, 361 pages; 2 shared CPUs at load 4-7): the reader index ~9 min and the
# plain index ~12 min on a never-embedded folder, the search ~4 min, each datagen run ~3-6 min (with `man` on a page's
# prose is not parsed), table and sheet ~1 min: about 35 min in all.
set -euo pipefail
: "${DATA:?set DATA to a folder of manual pages}" "${INDEX:?set INDEX to a scratch folder for the index}"
: "${OUT:?set OUT to an output folder}"
N=${N:-150}; SEED=${SEED:-1}; SHEET_SEED=${SHEET_SEED:-4901}
CODE=${CODE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PY=${PY:-$CODE/.venv/bin/python}
export PYTHONPATH=$CODE HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
mkdir -p "$OUT"
cd "$CODE"
cli() { nice "$PY" -c "from context1.interfaces.cli import main; main()" "$@"; }
quiet() { tr '\r' '\n' | grep -v "it/s]\|task/s\|examples/s\|sent/s\|^ *$" || true; }
echo "== index $DATA → $INDEX (read_man on) $(date)"
if [ ! -f "$INDEX/manifest.json" ]; then
  cli index "$DATA" "$INDEX" --no-chroma --no-progress 2>&1 | tail -15 | tee "$OUT/index.log"
fi
echo "== search: reader vs plain-text copies $(date)"
nice "$PY" benchmarks/manpages_search.py --data "$DATA" --scratch "$OUT/search-scratch" --reader-index "$INDEX" \
  --out "$OUT/search" 2>&1 | grep -v "^\[" | tee "$OUT/search.txt"
echo "== datagen --n $N --seed $SEED $(date)"
if [ ! -f "$OUT/datagen/tasks.jsonl" ]; then
  cli datagen "$INDEX" "$OUT/datagen" --n "$N" --seed "$SEED" 2>&1 | quiet | tail -20 | tee "$OUT/datagen.log"
fi
echo "== datagen --mix man=0 on the same index $(date)"
if [ ! -f "$OUT/datagen-off/tasks.jsonl" ]; then
  cli datagen "$INDEX" "$OUT/datagen-off" --n "$N" --seed "$SEED" --mix man=0 2>&1 | quiet | tail -8 | tee "$OUT/datagen-off.log"
fi
echo "== table: facts, tasks by kind, BM25 $(date)"
nice "$PY" benchmarks/datagen_manpages.py "$INDEX" "$OUT/datagen" "$OUT/datagen-off" | tee "$OUT/table.txt"
echo "== reading sheet: $SHEET_SEED's 30 tasks with their passages $(date)"
"$PY" benchmarks/datagen_handread.py "$OUT/datagen" --sample 30 --seed "$SHEET_SEED" | tee "$OUT/sheet.txt" || true
echo "== done $(date)"
