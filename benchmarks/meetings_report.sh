#!/usr/bin/env bash
# Meetings searched (issue 34), session 50, run once by the lead on QMSum's reporting split:
#
#   DATA=/work/data50/qmsum-test INDEX=/work/scratch50-lead/qmsum-test-idx OUT=/work/runs/s50/lead/meetings \
#       bash benchmarks/meetings_report.sh
#
# Variables: DATA (a QMSum export: DATA/docs/<meeting>.txt + DATA/queries.jsonl; if DATA/queries.jsonl is absent
# it is exported first from QMSum's SPLIT, default test, read from the mirror /work/.mirror/Yale-LILY+QMSum/repo);
# INDEX (built here with `context1 index DATA/docs INDEX` when absent; one already there is used as it is: chunking
# is unchanged by this branch, so the base's index serves); OUT (runs and tables); LIMIT (the agent's queries,
# evenly spaced; default all); CODE / PY (the checkout and its Python; default this repository, /work/main/.venv).
# Writes and prints:
#   OUT/report.jsonl + OUT/report.txt   benchmarks/meetings_search.py: one search (constraints="auto"), one search
#       scoped to the query's meeting, the LLM-free agent and its first search, for base (speaker_names off,
#       backchannel_weight 0: this branch's defaults, 1c878e7's ranking) and `names` (speaker_names on: a tie on
#       tuning, left off; run to see whether it stays one); meeting@5, passage hit@5, gold-line
#       coverage@5, Δ with the 95 % paired bootstrap interval and won / lost, by meeting kind; the agent against its
#       own first search;
#   OUT/trace.txt   why base's one search misses, counted.
# Run time on the tuning split (162 meetings, 8,777 chunks, 1,095 queries; 2 shared CPUs at load 4-6): index 15-20
# min if never embedded, searches ~0.5 s a query a variant, the agent ~5 s a query a variant.
set -euo pipefail
: "${DATA:?set DATA to a QMSum export folder}" "${INDEX:?set INDEX to a scratch folder for the index}"
: "${OUT:?set OUT to an output folder}"
SPLIT=${SPLIT:-test}
CODE=${CODE:-$(cd "$(dirname "$0")/.." && pwd)}
PY=${PY:-/work/main/.venv/bin/python}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONPATH="$CODE"
cd "$CODE"
mkdir -p "$OUT"
[ -f "$DATA/queries.jsonl" ] || "$PY" benchmarks/meetings_search.py export "$SPLIT" "$DATA"
LIMITS=()
[ -n "${LIMIT:-}" ] && LIMITS=(--limit "$LIMIT")
"$PY" benchmarks/meetings_search.py run --data "$DATA" --index "$INDEX" --out "$OUT" --label report "${LIMITS[@]}" \
    --variant base=speaker_names:false,backchannel_weight:0 --variant names=speaker_names:true | tee "$OUT/report.txt"
"$PY" benchmarks/meetings_search.py trace --data "$DATA" --index "$INDEX" --out "$OUT" --label report --base base \
    | tee "$OUT/trace.txt"
