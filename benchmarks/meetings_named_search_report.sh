# Issue 34, session 51: questions that name their meeting, searched with SearchConfig.meeting_names off (= base
# 3cd8b63 byte for byte) and on, on ONE index of an exported QMSum split (DATA/docs, DATA/queries.jsonl:
# `meetings_search.py export`). For the lead's reporting part; run once:
#
#   DATA=/path/to/export INDEX=/path/to/index OUT=/path/to/out TASKS=/path/to/tasks.jsonl \
#       bash benchmarks/meetings_named_search_report.sh
#
# TASKS: datagen's tasks over the same folder that name their meeting (optional: without it the `generated` set is
# left out). INDEX is built from DATA/docs when it is not there (`context1 index`). Optional: AGENT (the LLM-free
# agent on that many queries of each named set, default 150). Writes OUT/named.jsonl and OUT/table.md (printed).
set -uo pipefail
: "${DATA:?set DATA to the exported folder}" "${INDEX:?set INDEX}" "${OUT:?set OUT}"
AGENT=${AGENT:-150}
CODE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=/work/main/.venv/bin/python; [ -x "$CODE/.venv/bin/python" ] && PY=$CODE/.venv/bin/python
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONPATH=$CODE
mkdir -p "$OUT"
if [ ! -d "$INDEX" ]; then
  (cd "$CODE" && nice -n 5 "$PY" -c "from context1.interfaces.cli import main; main()" index \
    "$DATA/docs" "$INDEX" > "$OUT/index.log" 2>&1) || { echo "index failed: see $OUT/index.log"; exit 1; }
fi
TASKS_ARG=(); [ -n "${TASKS:-}" ] && TASKS_ARG=(--tasks "$TASKS")
cd "$CODE" && nice -n 5 "$PY" benchmarks/meetings_named_search.py run --data "$DATA" --index "$INDEX" --out "$OUT" \
  "${TASKS_ARG[@]}" --agent "$AGENT" --variant off=meeting_names:false --variant on=meeting_names:true
