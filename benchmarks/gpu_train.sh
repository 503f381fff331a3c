#!/usr/bin/env bash
# One command on a GPU machine: datagen → SFT (teacher: the LLM-free policy, best-of-4) → CISPO with
# vLLM sampling, then the held-back evaluation of both adapters (issue 23).
#
#   bash benchmarks/gpu_train.sh MODEL_DIR INDEX RUN [N_TASKS]
#   bash benchmarks/gpu_train.sh /models/SmolLM2-135M-Instruct indexes/bench-hotpotqa-256 runs/gpu 300
#   SAMPLER=transformers RL_STEPS=2 TASKS_PER_STEP=8 bash benchmarks/gpu_train.sh model.gguf INDEX runs/gpu
#
# MODEL_DIR: a local Hugging Face model folder (vLLM's LoRA path needs safetensors weights); with
# SAMPLER=transformers (the policy samples its own rollouts, batched) a .gguf file works too.
# INDEX: a `context1 index` folder. Needs `pip install 'context1[train,gpu]'` and one CUDA GPU
# (trainer in bf16 and vLLM share it: --sampler-gpu-memory). RUN/tasks/tasks-{train,test}.jsonl
# already there skip datagen (tasks made elsewhere). Every stage is skipped when its output exists,
# and `train sft` / `train rl` resume from their checkpoints.
# Knobs (environment): SAMPLER (vllm), RL_STEPS (50), TASKS_PER_STEP (16), GROUP (8), MAX_NEW (512),
# BEST_OF (4), SFT_EPOCHS (2; on a few dozen tasks that is too few, see below).
# Status: ran on an H200 with SAMPLER=transformers RL_STEPS=3 TASKS_PER_STEP=8 MAX_NEW=256
# on 40/24 HotpotQA tasks (benchmarks/README.md, "GPU path"; its stage limit stopped CISPO after step 1);
# the vLLM sampler has never run (no vLLM wheel reaches this project's GPU machine). On 40 tasks,
# 2 SFT epochs are 10 steps (final loss 0.80 nats/token): greedy it made 53 % valid calls, sampled at
# T = 1 none, so CISPO had nothing to reinforce (`train rl` now warns at its first step).
set -euo pipefail
MODEL=${1:?usage: gpu_train.sh MODEL_DIR INDEX RUN [N_TASKS]}
IDX=${2:?usage: gpu_train.sh MODEL_DIR INDEX RUN [N_TASKS]}
R=${3:?usage: gpu_train.sh MODEL_DIR INDEX RUN [N_TASKS]}
N=${4:-300}
RL_STEPS=${RL_STEPS:-50}
SAMPLER=${SAMPLER:-vllm}
TASKS_PER_STEP=${TASKS_PER_STEP:-16}
GROUP=${GROUP:-8}
MAX_NEW=${MAX_NEW:-512}
BEST_OF=${BEST_OF:-4}
SFT_EPOCHS=${SFT_EPOCHS:-2}
S="--sampler $SAMPLER"
[ "$SAMPLER" = vllm ] && S="$S --sampler-gpu-memory 0.35"
C1=${C1:-context1}
H="--budget 4096 --max-turns 4 --no-progress"
export HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
stamp() { echo "[$(date -u +%H:%M:%S)] $*"; }
mkdir -p "$R"
{ nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || echo "no nvidia-smi: not a CUDA machine"; } | tee "$R/gpu.txt"

if [ ! -s "$R/tasks/tasks-train.jsonl" ]; then
    stamp "datagen: $N offline tasks"
    $C1 datagen "$IDX" "$R/tasks" --n "$N" --hops 1-3 --backend offline --seed 0 --no-progress
fi
TRAIN=$R/tasks/tasks-train.jsonl
TEST=$R/tasks/tasks-test.jsonl
if [ ! -f "$R/sft/adapter/adapter_config.json" ]; then
    stamp "SFT: best-of-$BEST_OF teacher rollouts, then SPEC §5 selection"
    $C1 train sft "$IDX" --tasks "$TRAIN" --out "$R/sft" --best-of "$BEST_OF" --model "$MODEL" \
        --epochs "$SFT_EPOCHS" --lr 2e-4 --batch-size 8 --lora-rank 32 $H $( [ -d "$R/sft/checkpoint" ] && echo --resume )
fi
if [ ! -f "$R/rl/adapter/adapter_config.json" ] || [ "$(wc -l < "$R/rl/metrics.jsonl")" -lt "$RL_STEPS" ]; then
    stamp "CISPO: $RL_STEPS steps, $TASKS_PER_STEP tasks x $GROUP rollouts, $SAMPLER sampler"
    $C1 train rl "$IDX" --tasks "$TRAIN" --out "$R/rl" --init-adapter "$R/sft/adapter" --model "$MODEL" \
        $S --steps "$RL_STEPS" --epochs 2 --tasks-per-step "$TASKS_PER_STEP" --group-size "$GROUP" \
        --lr 1e-5 --max-new-tokens "$MAX_NEW" --lora-rank 32 --seed 0 $H $( [ -d "$R/rl/checkpoint" ] && echo --resume )
fi
for name in sft rl; do
    if [ ! -s "$R/${name}_test_summary.json" ]; then
        stamp "held-back evaluation: $name adapter"
        $C1 train eval "$IDX" --tasks "$TEST" --model "$MODEL" --adapter "$R/$name/adapter" \
            --max-new-tokens "$MAX_NEW" --batch 32 --out "$R/${name}_test.jsonl" $H > "$R/${name}_test_summary.json"
    fi
done
stamp "figures: per-step reward/recall in $R/rl/plots; step time and tokens/s in $R/rl/metrics.jsonl"
python - "$R" <<'PY'
import json, sys
rows = [json.loads(x) for x in open(f"{sys.argv[1]}/rl/metrics.jsonl")]
for r in rows[-3:]:
    print({k: r.get(k) for k in ("step", "reward", "recall", "rollout_tokens_per_s", "rollout_s", "step_s", "peak_gpu_mem_gb")})
PY
stamp done
