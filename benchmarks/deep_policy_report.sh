#!/usr/bin/env bash
# Issue 36's last goal, session 48: does deeper, leak-free generated data help the learned policy on MuSiQue's 3–4-hop
# questions? Two policies, each trained on MuSiQue's whole tuning part (1-120) plus one generated set over the same
# index: old = `context1 datagen INDEX --n 150 --seed 1` as on d7ae532, new = the same with `--mix regions=1`
# (datagen.region_links); both filtered by `benchmarks/policy_tasks.py --drop-leaks --chain-leaks 2` (no generated
# task sharing 2+ gold paragraphs with a reporting question). Then `benchmarks/search_policy.py` on SPLIT prints
# passage R@5 / all-R@10, new against old with a 95 % paired bootstrap interval and won / lost, for all questions
# and for the 3–4-hop ones apart.
#
#   INDEX=/work/indexes/bench-musique-256 OUT=/work/runs/s48/lead/deep bash benchmarks/deep_policy_report.sh   # lead, once
#   SPLIT=tuning ... (an engineer's dry run; the tuning part is trained on, so only its timing means anything)
#
# Variables: INDEX (required), OUT (required), DATA (../shared/data), SPLIT (report), LIMIT (0 = every question of the
# part; a dry run's few), PYTHON (python), THREADS (1),
# PARSE (a spaCy parse cache of this corpus to start datagen from, optional: OUT/gen-*/parse.spacy otherwise).
set -euo pipefail
: "${INDEX:?set INDEX (bench-musique-256)}"
: "${OUT:?set OUT}"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DATA=${DATA:-$ROOT/../shared/data}
SPLIT=${SPLIT:-report}
LIMIT=${LIMIT:-0}
PYTHON=${PYTHON:-python}
THREADS=${THREADS:-1}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONPATH=$ROOT${PYTHONPATH:+:$PYTHONPATH}
mkdir -p "$OUT"
cd "$ROOT"
start=$(date +%s)
stamp() { echo "[$(( $(date +%s) - start )) s] $*" >&2; }
for v in old new; do
  mix=""; [ "$v" = new ] && mix="regions=1"
  if [ ! -f "$OUT/gen-$v/tasks.jsonl" ]; then
    mkdir -p "$OUT/gen-$v"
    [ -n "${PARSE:-}" ] && cp "$PARSE" "$OUT/gen-$v/parse.spacy" && cp "${PARSE%.spacy}.key" "$OUT/gen-$v/parse.key" 2>/dev/null || true
    stamp "datagen $v"
    $PYTHON -m context1.interfaces.cli datagen "$INDEX" "$OUT/gen-$v" --n 150 --seed 1 ${mix:+--mix "$mix"} --no-progress \
      > "$OUT/datagen-$v.log" 2>&1
  fi
  $PYTHON benchmarks/policy_tasks.py --set musique --data-dir "$DATA" --extra "$OUT/gen-$v/tasks.jsonl" --drop-leaks \
    --chain-leaks 2 --out "$OUT/tasks-$v.jsonl"
  stamp "training $v"
  $PYTHON -m context1.interfaces.cli train policy "$INDEX" --tasks "$OUT/tasks-$v.jsonl" --out "$OUT/policy-$v" \
    --agreement-weight 0.05 --start auto --threads "$THREADS" --fresh > "$OUT/train-$v.log" 2>&1
done
stamp "running musique $SPLIT"
$PYTHON benchmarks/search_policy.py --data-dir "$DATA" --index-root "$(dirname "$INDEX")" --sets musique --split "$SPLIT" \
  --limit "$LIMIT" --workers 1 --no-baselines --policy "old=$OUT/policy-old" --policy "new=$OUT/policy-new" --stage rl --out-dir "$OUT/rows" \
  --compare old-rl:new-rl | tee "$OUT/table.md"
stamp "done"
