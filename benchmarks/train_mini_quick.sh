#!/usr/bin/env bash
# context1-mini through the fixed reward on a shared CPU (issue 37): the same tasks, harness and CISPO
# settings as train_mini_pipeline.sh (cloze tasks, 240 train / 36 held-back, budget 2,048, 2 turns, 192
# new tokens, 2 tasks x 4 rollouts a step, lr 1e-4, seed 3), from a smaller SFT: SFT_STEPS steps of
# SFT_BATCH teacher trajectories of the first SFT_TASKS train tasks (the iterative teacher keeps ~40 %),
# lr 1e-3 (constant, so a run cut after step k equals one run with SFT_STEPS=k). The defaults are what
# session 28 ran: 12 steps of 1 (loss 1.30 -> 0.37), ~2 min a step at nice 15 on a loaded machine.
# CHECK_TASKS > 0 first samples the SFT adapter at T = 1 on that many held-back tasks; 0 leaves the
# pre-RL check to CISPO's first step, whose rollouts come from the SFT adapter (valid_tool_call_rate).
# Every stage is skipped when its output is there, and `train rl --resume` continues after its last
# step, so the script can be killed and started again on the same RUN folder. --save-rollouts keeps
# every step's rollouts for benchmarks/reward_rescore.py.
#
#   nohup nice -n 15 bash benchmarks/train_mini_quick.sh RUN >> RUN.log 2>&1 &
#   python benchmarks/train_mini_fixed_reward.py RUN   # the per-step table
#   python benchmarks/reward_rescore.py RUN/rl --tasks RUN/tasks_train.jsonl --index "$IDX"
set -euo pipefail
cd "$(dirname "$0")/.."
R=${1:?usage: train_mini_quick.sh RUN_FOLDER}
IDX=${IDX:-indexes/bench-hotpotqa-256}
TASKS=${TASKS:-runs/tasks/hotpotqa-offline}
SFT_TASKS=${SFT_TASKS:-96}
SFT_STEPS=${SFT_STEPS:-12}
SFT_EPOCHS=${SFT_EPOCHS:-1}
SFT_BATCH=${SFT_BATCH:-1}
CHECK_TASKS=${CHECK_TASKS:-0}
RL_STEPS=${RL_STEPS:-20}
export HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
PY=.venv/bin/python
C1=.venv/bin/context1
H="--budget 2048 --max-turns 2 --no-progress"
stamp() { echo "[$(date -u +%H:%M:%S)] $*"; }
mkdir -p "$R"

if [ ! -f "$R/tasks_test.jsonl" ]; then
    stamp "task subsets"
    $PY benchmarks/train_mini_tasks.py --tasks "$TASKS" --n-train 240 --n-test 36 --out "$R"
fi
[ -f "$R/tasks_sft.jsonl" ] || head -n "$SFT_TASKS" "$R/tasks_train.jsonl" > "$R/tasks_sft.jsonl"
if [ ! -f "$R/sft/adapter/adapter_config.json" ]; then
    stamp "SFT ($SFT_TASKS tasks, $SFT_STEPS steps of $SFT_BATCH)"
    $C1 train sft "$IDX" --tasks "$R/tasks_sft.jsonl" --out "$R/sft" --epochs "$SFT_EPOCHS" \
        --max-steps "$SFT_STEPS" --lr 1e-3 --batch-size "$SFT_BATCH" --no-gradient-checkpointing --checkpoint-every 2 $H \
        $( [ -d "$R/sft/checkpoint" ] && echo --resume )
fi
if [ "$CHECK_TASKS" -gt 0 ] && [ ! -s "$R/sft_check_t1_summary.json" ]; then
    stamp "SFT adapter at T = 1 on $CHECK_TASKS held-back tasks (valid calls before RL)"
    $C1 train eval "$IDX" --tasks "$R/tasks_test.jsonl" --limit "$CHECK_TASKS" --temperature 1 \
        --max-new-tokens 192 --adapter "$R/sft/adapter" --out "$R/sft_check_t1.jsonl" $H \
        > "$R/sft_check_t1_summary.json"
    cat "$R/sft_check_t1_summary.json"
fi
if [ ! -f "$R/rl/metrics.jsonl" ] || [ "$(wc -l < "$R/rl/metrics.jsonl")" -lt "$RL_STEPS" ]; then
    stamp "CISPO, $RL_STEPS steps"
    $C1 train rl "$IDX" --tasks "$R/tasks_train.jsonl" --out "$R/rl" --init-adapter "$R/sft/adapter" \
        --steps "$RL_STEPS" --epochs 1 --tasks-per-step 2 --group-size 4 --lr 1e-4 --max-new-tokens 192 --seed 3 \
        --no-gradient-checkpointing --save-rollouts $H \
        $( [ -d "$R/rl/checkpoint" ] && echo --resume )
fi
stamp "done"
