#!/usr/bin/env bash
# context1-mini end to end, from the corpus (issue 9): index, datagen tasks, SFT, CISPO, held-back
# evaluations. Every stage is skipped when its output is already there, so a killed run (or a later
# session with the same RUN folder) picks up where it stopped; `train rl` resumes from its last
# step checkpoint. One job at a time: on 2 cores anything beside it slows every stage 2-5x.
#
#   bash benchmarks/train_mini_pipeline.sh runs/mini7 2>&1 | tee -a runs/mini7.log
#   python benchmarks/train_mini.py --session6 runs/mini7 --rl-figure benchmarks/figures/context1-mini-rl7.png
#
# Settings are the sixth session's (benchmarks/README.md): HotpotQA paragraphs as the corpus,
# datagen v1 offline tasks (seed 0), 240 train / 36 held-back multi-hop tasks (seed 9), harness
# budget 2,048, 2 turns, 192 new tokens, greedy evaluation. RL_STEPS (default 10) CISPO steps of
# 2 tasks x 4 rollouts from the piecewise SFT adapter; a later RL_STEPS=20 run resumes the same run
# and evaluates its adapter apart (rl_v2_step20_192_test.jsonl).
set -euo pipefail
cd "$(dirname "$0")/.."
R=${1:?usage: train_mini_pipeline.sh RUN_FOLDER}
IDX=${IDX:-indexes/bench-hotpotqa-256}
TASKS=${TASKS:-runs/tasks/hotpotqa-offline}
RL_STEPS=${RL_STEPS:-10}
export HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
PY=.venv/bin/python
C1=.venv/bin/context1
H="--budget 2048 --max-turns 2 --no-progress"
stamp() { echo "[$(date -u +%H:%M:%S)] $*"; }
mkdir -p "$R" "$(dirname "$TASKS")"

if [ ! -f "$IDX/manifest.json" ]; then
    stamp "index $IDX"
    $C1 eval "$IDX" --benchmark hotpotqa --data-dir ../shared/data --retriever hybrid --max-documents 10 \
        --limit 1 --out "$R/index_probe.jsonl" --no-progress
fi
if [ ! -f "$TASKS-test.jsonl" ]; then
    stamp "datagen tasks $TASKS"
    $PY benchmarks/datagen_tasksets.py --corpus hotpotqa --n 1500 --hops 1,1,2,2,3,4 --seed 0 --form cloze \
        --data-dir ../shared/data --out "$TASKS.jsonl"
fi
if [ ! -f "$R/tasks_test.jsonl" ]; then
    stamp "task subsets"
    $PY benchmarks/train_mini_tasks.py --tasks "$TASKS" --n-train 240 --n-test 36 --out "$R"
fi
E="$C1 train eval $IDX --tasks $R/tasks_test.jsonl $H"
if [ ! -s "$R/teacher_test.jsonl" ]; then
    stamp "teacher on held-back"
    $E --backend iterative --out "$R/teacher_test.jsonl" > "$R/teacher_test_summary.json"
fi
if [ ! -f "$R/sft_v2/adapter/adapter_config.json" ]; then
    stamp "SFT (piecewise tokenization, 26 steps)"
    $C1 train sft "$IDX" --tasks "$R/tasks_train.jsonl" --out "$R/sft_v2" --epochs 1 --max-steps 26 \
        --lr 1e-3 --batch-size 4 --no-gradient-checkpointing --checkpoint-every 4 $H \
        $( [ -d "$R/sft_v2/checkpoint" ] && echo --resume )
fi
if [ ! -f "$R/rl_v2/adapter/adapter_config.json" ] || [ "$(wc -l < "$R/rl_v2/metrics.jsonl")" -lt "$RL_STEPS" ]; then
    stamp "CISPO, $RL_STEPS steps"
    $C1 train rl "$IDX" --tasks "$R/tasks_train.jsonl" --out "$R/rl_v2" --init-adapter "$R/sft_v2/adapter" \
        --steps "$RL_STEPS" --epochs 1 --tasks-per-step 2 --group-size 4 --lr 1e-4 --max-new-tokens 192 --seed 3 \
        --no-gradient-checkpointing $H \
        $( [ -d "$R/rl_v2/checkpoint" ] && echo --resume )
fi
E="$E --max-new-tokens 192"
RL_EVAL=$R/rl_v2_192_test  # the 10-step adapter; other step counts get their own name
[ "$RL_STEPS" = 10 ] || RL_EVAL=$R/rl_v2_step${RL_STEPS}_192_test
if [ ! -s "${RL_EVAL}_summary.json" ]; then
    stamp "CISPO adapter ($RL_STEPS steps) on held-back"
    $E --adapter "$R/rl_v2/adapter" --out "$RL_EVAL.jsonl" > "${RL_EVAL}_summary.json"
fi
if [ ! -s "$R/sft_v2_192_test_summary.json" ]; then
    stamp "SFT adapter on held-back"
    $E --adapter "$R/sft_v2/adapter" --out "$R/sft_v2_192_test.jsonl" > "$R/sft_v2_192_test_summary.json"
fi
stamp "done"
