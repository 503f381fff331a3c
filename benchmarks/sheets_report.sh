#!/usr/bin/env bash
# Workbooks (.xlsx) read and searched (session 52): the lead's one run on a reporting folder of workbooks.
#
#   DATA=/path/to/workbooks INDEX=/path/to/scratch/index OUT=/path/to/out bash benchmarks/sheets_report.sh
#
# DATA: a folder of .xlsx / .xlsm files (read only). INDEX: a scratch folder: INDEX/reader (the folder read by
# corpus_tools/xlsx_reader.py), INDEX/naive (the naive dump of each workbook, read as text) and INDEX/naive-txt
# are built there unless they exist. OUT: where the tables go. XPY (a Python with openpyxl for the independent reading; default /work/scratch52-sheets/venv/bin/python).
# Writes and prints: OUT/expect.jsonl + OUT/queries.jsonl (openpyxl's reading and the proxy questions),
# OUT/table.txt (benchmarks/sheets_search.py: reading, header loss, search reader vs naive, paired bootstrap),
# OUT/datagen (the default `context1 datagen` on the reader index), OUT/datagen.txt (tasks by kind, 10 read).
# Time on the 68-workbook tuning folder (2 shared cores): see docs/LOG.md session 52.
set -euo pipefail
: "${DATA:?set DATA to a folder of .xlsx workbooks}" "${INDEX:?set INDEX to a scratch folder for the indexes}"
: "${OUT:?set OUT to an output folder}"
CODE=${CODE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PY=${PY:-$CODE/.venv/bin/python}
[ -x "$PY" ] || PY=/work/main/.venv/bin/python
XPY=${XPY:-/work/scratch52-sheets/venv/bin/python}
export PYTHONPATH=$CODE HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
mkdir -p "$OUT" "$INDEX"
cd "$CODE"
echo "== openpyxl's reading and the proxy questions $(date)"
"$XPY" benchmarks/sheets_search.py expect --data "$DATA" --out "$OUT" 2>&1 | tail -5
echo "== indexes, reading, search $(date)"
nice "$PY" benchmarks/sheets_search.py run --data "$DATA" --scratch "$INDEX" --out "$OUT" 2> "$OUT/run.log" \
  | tee "$OUT/table.txt"
echo "== datagen, the default command, on $INDEX/reader $(date)"
if [ ! -f "$OUT/datagen/tasks.jsonl" ]; then
  nice "$PY" -c "from context1.interfaces.cli import main; main()" datagen "$INDEX/reader" "$OUT/datagen" \
    --no-progress 2>&1 | tr '\r' '\n' | grep -v "it/s]\|task/s\|examples/s\|sent/s\|^ *$" \
    | tail -12 | tee "$OUT/datagen.log" || true
fi
"$PY" benchmarks/sheets_search.py datagen --data "$DATA" --out "$OUT" | tee "$OUT/datagen.txt"
echo "== done $(date)"
