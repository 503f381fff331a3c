#!/bin/bash
# Issue 8's whole measurement, resumable: per corpus the shared index, generated tasks, one trained
# cross-encoder (the same recipe for all), then the must-show benchmarks. Each step is skipped when
# its output exists, so a killed run picks up where it stopped. One CPU-heavy job at a time.
#
#   bash benchmarks/reranker_pipeline.sh [OUT=runs/rr]      # ~2 h on 2 idle cores
#
# Figures: benchmarks/README.md, "Issue 8 … Eighth session".
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-runs/rr}
export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
PY=.venv/bin/python
DATA=${DATA:-../shared/data}
mkdir -p "$OUT" runs/tasks

for C in scifact musique hotpotqa; do
  [ -f indexes/bench-$C-256/manifest.json ] || $PY - "$C" "$DATA" <<'PYEOF'
import sys
from corpus_tools import Corpus
from eval.loaders import load_benchmark
name, data = sys.argv[1:3]
Corpus.build(load_benchmark(name, data).documents, f"indexes/bench-{name}-256").close()
PYEOF
  [ -f runs/tasks/$C-offline-train.jsonl ] || $PY benchmarks/datagen_tasksets.py --corpus $C --n 1500 \
    --hops 1,1,2,2,3,4 --seed 0 --data-dir "$DATA" --out runs/tasks/$C-offline.jsonl
  minutes=15; [ $C = scifact ] && minutes=25
  [ -f "$OUT/ce-$C/config.json" ] || .venv/bin/context1 train reranker indexes/bench-$C-256 --kind cross-encoder \
    --tasks runs/tasks/$C-offline-train.jsonl --out "$OUT/ce-$C" --layers 3 --max-length 128 --negatives 3 \
    --batch-groups 8 --lr 6e-5 --ict-probability 1.0 --max-minutes $minutes --epochs 3 --eval-every 60 \
    --patience 5 --max-val-groups 120 --threads 2 --no-progress 2>&1 | tee "$OUT/train-$C.log"
done
for C in scifact hotpotqa musique; do
  variants=int8:128; [ $C = scifact ] && variants=fp32:128,int8:128
  [ -f "$OUT/q-$C.json" ] || $PY benchmarks/reranker_quality.py --dataset $C --data-dir "$DATA" \
    --index indexes/bench-$C-256 --cross-encoder "$OUT/ce-$C" --variants $variants --blend 0,0.5 --part report \
    --out "$OUT/q-$C.json"
done
for C in hotpotqa musique; do
  if [ ! -f "$OUT/agent-$C.md" ]; then
    $PY benchmarks/reranker_agent.py --dataset $C --data-dir "$DATA" --index indexes/bench-$C-256 \
      --cross-encoder "$OUT/ce-$C" --limit 60 | tee "$OUT/agent-$C.md.tmp"
    mv "$OUT/agent-$C.md.tmp" "$OUT/agent-$C.md"  # only a finished run counts as done
  fi
done
$PY benchmarks/reranker_figure.py "$OUT"/q-scifact.json "$OUT"/q-hotpotqa.json "$OUT"/q-musique.json \
  --out benchmarks/figures/reranker-quality.png
