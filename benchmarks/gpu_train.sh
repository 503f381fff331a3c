#!/usr/bin/env bash
# One command on a GPU machine: datagen → SFT (teacher: the LLM-free policy, best-of-4) → CISPO with
# vLLM sampling, then the held-back evaluation of both adapters (issue 23).
#
#   bash benchmarks/gpu_train.sh MODEL_DIR INDEX RUN [N_TASKS]
#   bash benchmarks/gpu_train.sh /models/SmolLM2-135M-Instruct indexes/bench-hotpotqa-256 runs/gpu 300
#
# MODEL_DIR: a local Hugging Face model folder (vLLM's LoRA path needs safetensors weights, not the
# bundled GGUF). INDEX: a `context1 index` folder. Needs `pip install 'context1[train,gpu]'` and one
# CUDA GPU (trainer in bf16 and vLLM share it: --sampler-gpu-memory). Every stage is skipped when its
# output exists, and `train sft` / `train rl` resume from their checkpoints.
# Status: written without a GPU (none on this project's machines); NOT RUN YET — record its figures
# (tokens/s, step time, log-prob parity from tests/training/test_gpu.py) in benchmarks/README.md.
set -euo pipefail
MODEL=${1:?usage: gpu_train.sh MODEL_DIR INDEX RUN [N_TASKS]}
IDX=${2:?usage: gpu_train.sh MODEL_DIR INDEX RUN [N_TASKS]}
R=${3:?usage: gpu_train.sh MODEL_DIR INDEX RUN [N_TASKS]}
N=${4:-300}
RL_STEPS=${RL_STEPS:-50}
C1=${C1:-context1}
H="--budget 4096 --max-turns 4 --no-progress"
export HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1
stamp() { echo "[$(date -u +%H:%M:%S)] $*"; }
mkdir -p "$R"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$R/gpu.txt"

if [ ! -s "$R/tasks/tasks-train.jsonl" ]; then
    stamp "datagen: $N offline tasks"
    $C1 datagen "$IDX" "$R/tasks" --n "$N" --hops 1-3 --backend offline --seed 0 --no-progress
fi
TRAIN=$R/tasks/tasks-train.jsonl
TEST=$R/tasks/tasks-test.jsonl
if [ ! -f "$R/sft/adapter/adapter_config.json" ]; then
    stamp "SFT: best-of-4 teacher rollouts, then SPEC §5 selection"
    $C1 train sft "$IDX" --tasks "$TRAIN" --out "$R/sft" --best-of 4 --model "$MODEL" \
        --epochs 2 --lr 2e-4 --batch-size 8 --lora-rank 32 $H $( [ -d "$R/sft/checkpoint" ] && echo --resume )
fi
if [ ! -f "$R/rl/adapter/adapter_config.json" ] || [ "$(wc -l < "$R/rl/metrics.jsonl")" -lt "$RL_STEPS" ]; then
    stamp "CISPO: $RL_STEPS steps, 16 tasks x 8 rollouts, vLLM sampler"
    $C1 train rl "$IDX" --tasks "$TRAIN" --out "$R/rl" --init-adapter "$R/sft/adapter" --model "$MODEL" \
        --sampler vllm --sampler-gpu-memory 0.35 --steps "$RL_STEPS" --epochs 2 --tasks-per-step 16 --group-size 8 \
        --lr 1e-5 --max-new-tokens 512 --lora-rank 32 --seed 0 $H $( [ -d "$R/rl/checkpoint" ] && echo --resume )
fi
for name in sft rl; do
    if [ ! -s "$R/${name}_test_summary.json" ]; then
        stamp "held-back evaluation: $name adapter"
        $C1 train eval "$IDX" --tasks "$TEST" --model "$MODEL" --adapter "$R/$name/adapter" \
            --max-new-tokens 512 --batch 32 --out "$R/${name}_test.jsonl" $H > "$R/${name}_test_summary.json"
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
