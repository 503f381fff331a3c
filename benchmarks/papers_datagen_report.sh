#!/usr/bin/env bash
# A folder of research papers (PDF), session 48 (issue 36), run once by the lead on a reporting folder:
#
#   DATA=/path/to/papers INDEX=/path/to/scratch/index OUT=/path/to/out bash benchmarks/papers_datagen_report.sh
#
# Variables: DATA (a folder of PDF papers; required; only read), INDEX (where its index is built, with this
# checkout's defaults: CorpusConfig.pdf_columns on; required; an index already there is used as it is), OUT (where
# the runs, tables and the reading sheet go; required), N (datagen --n; default 150), SEED (datagen --seed; default
# 1), SHEET_SEED (the reading sheet's seed; default 4801), BASE (1 also builds OUT/index-base with the base's
# reading, `pdf_columns` off, and runs datagen on it with `--mix papers=0`: the base's behaviour, into
# OUT/datagen-base; default 1), CODE (the checkout to run; default this script's repository), PY (its Python;
# default CODE/.venv/bin/python).
# Writes and prints: OUT/reading.txt (benchmarks/papers_reading.py: two-column pages, run-on lines, words broken at a
# line's end, titles, off and on), OUT/datagen (the run), OUT/datagen-off (the same index, `--mix papers=0`),
# OUT/table.txt (benchmarks/datagen_papers.py: facts read and refused by kind; tasks by kind; BM25 gold@1 /
# all-gold@10 by document per kind, each run on its own index), OUT/sheet.txt (SHEET_SEED's 30 tasks with their
# gold passages, for the lead's read: natural / correct).
# Run time on the session-48 tuning subset (27 papers, 2 shared CPUs at load 6): each index ~10 min on a
# never-embedded folder, each datagen run ~5-8 min (the prose parse is most of it; the off run reads the first
# run's parse), reading and table ~2 min: about 35-45 min in all with BASE=1, ~20 min with BASE=0.
set -euo pipefail
: "${DATA:?set DATA to a folder of PDF papers}" "${INDEX:?set INDEX to a scratch folder for the index}"
: "${OUT:?set OUT to an output folder}"
N=${N:-150}; SEED=${SEED:-1}; SHEET_SEED=${SHEET_SEED:-4801}; BASE=${BASE:-1}
CODE=${CODE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PY=${PY:-$CODE/.venv/bin/python}
export PYTHONPATH=$CODE HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
mkdir -p "$OUT"
cd "$CODE"
cli() { nice "$PY" -c "from context1.interfaces.cli import main; main()" "$@"; }
quiet() { tr '\r' '\n' | grep -v "it/s]\|task/s\|examples/s\|sent/s\|^ *$" || true; }
echo "== reading, pdf_columns off and on $(date)"
nice "$PY" benchmarks/papers_reading.py "$DATA" | tee "$OUT/reading.txt"
echo "== index $DATA → $INDEX $(date)"
if [ ! -f "$INDEX/manifest.json" ]; then
  cli index "$DATA" "$INDEX" --no-progress 2>&1 | tail -15 | tee "$OUT/index.log"
fi
echo "== datagen --n $N --seed $SEED $(date)"
if [ ! -f "$OUT/datagen/tasks.jsonl" ]; then
  cli datagen "$INDEX" "$OUT/datagen" --n "$N" --seed "$SEED" 2>&1 | quiet | tail -20 | tee "$OUT/datagen.log"
fi
echo "== datagen --mix papers=0 on the same index $(date)"
if [ ! -f "$OUT/datagen-off/tasks.jsonl" ]; then
  mkdir -p "$OUT/datagen-off"  # the same sentences: the first run's parse is this one's (datagen reads it by its key)
  cp "$OUT"/datagen/parse.* "$OUT/datagen-off/" 2>/dev/null || true
  cli datagen "$INDEX" "$OUT/datagen-off" --n "$N" --seed "$SEED" --mix papers=0 2>&1 | quiet | tail -8 | tee "$OUT/datagen-off.log"
fi
RUNS=("$OUT/datagen" "$OUT/datagen-off"); EXTRA=()
if [ "$BASE" = 1 ]; then
  echo "== the base's reading (pdf_columns off) and datagen (--mix papers=0) $(date)"
  if [ ! -f "$OUT/index-base/manifest.json" ]; then
    nice "$PY" - "$DATA" "$OUT/index-base" <<'PYEOF' 2>&1 | tail -5 | tee "$OUT/index-base.log"
import sys
from corpus_tools import Corpus
from corpus_tools.config import CorpusConfig
Corpus.build(sys.argv[1], sys.argv[2], config=CorpusConfig(pdf_columns=False), progress=False)
PYEOF
  fi
  if [ ! -f "$OUT/datagen-base/tasks.jsonl" ]; then
    cli datagen "$OUT/index-base" "$OUT/datagen-base" --n "$N" --seed "$SEED" --mix papers=0 2>&1 | quiet | tail -8 \
      | tee "$OUT/datagen-base.log"
  fi
  RUNS+=("$OUT/datagen-base"); EXTRA=(--index-of "$OUT/datagen-base=$OUT/index-base")
fi
echo "== table: facts, tasks by kind, BM25 $(date)"
nice "$PY" benchmarks/datagen_papers.py "$INDEX" "${RUNS[@]}" "${EXTRA[@]}" | tee "$OUT/table.txt"
echo "== reading sheet: $SHEET_SEED's 30 tasks with their passages $(date)"
"$PY" benchmarks/datagen_handread.py "$OUT/datagen" --sample 30 --seed "$SHEET_SEED" | tee "$OUT/sheet.txt" || true
echo "== done $(date)"
