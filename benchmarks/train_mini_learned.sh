#!/usr/bin/env bash
# context1-mini distilled from the learned search policy (issue 22, item 4), against the hand-tuned
# teacher's student of an earlier train_mini_pipeline.sh run (BASE: its tasks_train.jsonl,
# tasks_test.jsonl, sft_v2/, sft_v2_192_test_summary.json). Every stage is skipped when its output
# is already there; a killed SFT resumes from its checkpoint and reuses the teacher trajectories.
#
#   PY=/work/main/.venv/bin/python PYTHONPATH=$PWD bash benchmarks/train_mini_learned.sh BASE RUN
#   python benchmarks/train_mini_learned.py --base BASE --run RUN   # the table
#
# Stages: (1) the learned policy, trained on BASE's 240 training tasks only (the configuration chosen
# in session 25 on tuning data: --scorer linear --doc-anchor 1.0 --doc-min-gold 2 --rl-steps 0);
# (2) that policy as its own teacher on the 36 held-back tasks; (3) SFT of SmolLM2-135M on its
# best-of-BEST_OF trajectories (seed s samples rollout s; SPEC §5 selection), with the baseline's
# exact settings (26 steps, lr 1e-3, batch 4, seed 0); (4) the adapter on the held-back tasks with
# the baseline's evaluation settings (budget 2,048, 2 turns, 192 new tokens, greedy).
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:?usage: train_mini_learned.sh BASE_RUN RUN_FOLDER}
R=${2:?usage: train_mini_learned.sh BASE_RUN RUN_FOLDER}
IDX=${IDX:-/work/indexes/bench-hotpotqa-256}
POLICY=${POLICY:-$R/policy}
BEST_OF=${BEST_OF:-4}
PY=${PY:-.venv/bin/python}
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONUNBUFFERED=1
C1="${TIME:-} $PY -m context1.interfaces.cli"  # TIME="/usr/bin/time -v": CPU seconds and peak RSS a stage
H="--budget 2048 --max-turns 2 --no-progress"
stamp() { echo "[$(date -u +%H:%M:%S)] $*"; }
mkdir -p "$R"

stamp "held-back tasks kept out of training"
$PY - "$BASE/tasks_train.jsonl" "$BASE/tasks_test.jsonl" <<'EOF'
import json, sys
train, test = ([json.loads(x) for x in open(p)] for p in sys.argv[1:])
ids, qs = {t["task_id"] for t in train}, {t["query"].strip().lower() for t in train}
bad = [t["task_id"] for t in test if t["task_id"] in ids or t["query"].strip().lower() in qs]
assert not bad, f"held-back tasks in the training file: {bad}"
print(f"{len(train)} training tasks, {len(test)} held-back, no overlap (ids or questions)")
EOF
if [ ! -f "$POLICY/weights.npz" ]; then
    stamp "learned policy on $BASE/tasks_train.jsonl"
    $C1 train policy "$IDX" --tasks "$BASE/tasks_train.jsonl" --out "$POLICY" --scorer linear --doc-anchor 1.0 \
        --doc-min-gold 2 --rl-steps 0 --threads 1
fi
E="$C1 train eval $IDX --tasks $BASE/tasks_test.jsonl $H"
if [ ! -s "$R/teacher_learned_test_summary.json" ]; then
    stamp "learned teacher on held-back"
    $E --backend learned --policy "$POLICY" --out "$R/teacher_learned_test.jsonl" > "$R/teacher_learned_test_summary.json"
fi
S=$R/sft_learned
if [ ! -f "$S/adapter/adapter_config.json" ]; then
    stamp "SFT on the learned teacher's best-of-$BEST_OF trajectories (26 steps)"
    reuse=()  # a killed run's teacher rollouts (all BEST_OF per task, as sampled) are not sampled again
    [ -s "$S/teacher.jsonl" ] && reuse=(--teacher-trajectories "$S/teacher.jsonl")
    $C1 train sft "$IDX" --tasks "$BASE/tasks_train.jsonl" --out "$S" --teacher learned --policy "$POLICY" \
        --best-of "$BEST_OF" "${reuse[@]}" --epochs 1 --max-steps 26 --lr 1e-3 --batch-size 4 \
        --no-gradient-checkpointing --checkpoint-every 4 $H \
        $( [ -d "$S/checkpoint" ] && echo --resume )
fi
if [ ! -s "$R/sft_learned_192_test_summary.json" ]; then
    stamp "learned-teacher student on held-back"
    $E --max-new-tokens 192 --adapter "$S/adapter" --out "$R/sft_learned_192_test.jsonl" \
        > "$R/sft_learned_192_test_summary.json"
fi
stamp "done"
