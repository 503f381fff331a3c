"""The GPU path measured (issue 23): batched sampling, sampler-vs-trainer log-prob parity and bf16
CISPO update time for the policy on one CUDA GPU, on real prompts of the search harness.

    # here (CPU): a small HotpotQA index from the tuning questions, its tasks, and real prompts
    python benchmarks/gpu_check.py prepare --data-dir ../shared/data --out .gpu/hotpot
    # on the GPU machine (needs only torch, transformers, peft, gguf: no index, no Chroma)
    python benchmarks/gpu_check.py model --model MODEL --prompts .gpu/hotpot/prompts.jsonl --out OUT

`prepare` runs the LLM-free search policy on HotpotQA tuning questions (1-150; never the reporting
part, 151-449) through the harness and keeps the trajectories: every step's prompt is then a real
harness context (system prompt, tool schemas, the question, search results, prune markers).
`model` loads the policy (bf16 + LoRA) on the GPU and, over those prompts:
  1. samples replies at T = 1 in batches of 8, 32 and 128 episodes (`generate_batch`, the lockstep
     rollout path) and one by one (`generate`, the sequential loop), tokens/s and peak memory;
  2. recomputes the log-prob of every sampled token with the trainer's forward (`token_logprobs`,
     the CISPO path, one datum per pass and padded batches) against what the sampler recorded, and
     against an fp32 forward (how much of the gap is bf16 itself);
  3. checks a policy update changes the samples (greedy, before and after a LoRA perturbation);
  4. times bf16 CISPO updates (`cispo_update`, 4 substeps) over datums of the sampled replies
     with alternating advantages (a timing run: the rewards of a real run need the index).
It writes `gpu_check.json` and prints one table. The full loop with rewards (SFT, then CISPO
through the index) is `benchmarks/gpu_train.sh`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
TUNING = 150  # HotpotQA questions 1-150 are the tuning part (benchmarks/agent_llm_free.py)


def prepare(args: argparse.Namespace) -> None:
    import random

    from context1 import SearchAgent
    from context1.backends.iterative import IterativeRetrievalPolicy
    from context1.trajectory_io import save_trajectories
    from corpus_tools import ChunkingConfig, Corpus, CorpusConfig
    from corpus_tools.tasks import save_tasks
    from eval.loaders import load_benchmark
    from training.rl import agent_config_for_small_model

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    bench = load_benchmark("hotpotqa", args.data_dir)
    tasks = [t for t in bench.tasks if t.gold_doc_ids][:TUNING]
    gold = {d for t in tasks for d in t.gold_doc_ids}
    others = [d for d in bench.documents if d.doc_id not in gold]
    random.Random(0).shuffle(others)
    docs = [d for d in bench.documents if d.doc_id in gold] + others[: max(0, args.docs - len(gold))]
    config = CorpusConfig(chunking=ChunkingConfig(chunk_tokens=256, overlap_tokens=32))
    index = out / "index"
    if not (index / "manifest.json").is_file():
        Corpus.build(docs, index, config=config, progress=True).close()
    n_train = int(len(tasks) * 0.8)
    (out / "tasks").mkdir(exist_ok=True)
    save_tasks(tasks[:n_train], out / "tasks" / "tasks-train.jsonl")
    save_tasks(tasks[n_train:], out / "tasks" / "tasks-test.jsonl")
    agent_config = agent_config_for_small_model(max_turns=3)
    with Corpus.open(index) as corpus:
        trajs = []
        for task in tasks[: args.prompt_tasks]:
            agent = SearchAgent(corpus, backend=IterativeRetrievalPolicy(), config=agent_config)
            trajs.append(agent.run(task.query).trajectory)
            schemas = agent.episode(task.query).tool_schemas
    save_trajectories(out / "prompts.jsonl", trajs)
    (out / "tool_schemas.json").write_text(json.dumps(schemas))
    steps = sum(len(t.steps) for t in trajs)
    print(f"{len(docs)} documents indexed in {index}; {n_train}/{len(tasks) - n_train} train/test tasks; "
          f"{len(trajs)} trajectories ({steps} prompts) in {out / 'prompts.jsonl'}")


def _states(prompts: Path) -> list[tuple[list, list]]:
    """Every step's prompt (messages, tool schemas) of the recorded trajectories."""
    from context1.context import replay_messages
    from context1.trajectory_io import load_trajectories

    tools = json.loads((prompts.parent / "tool_schemas.json").read_text())
    return [(replay_messages(t, s), tools) for t in load_trajectories(prompts) for s in range(len(t.steps))]


def _perturb(model, scale: float, seed: int) -> None:
    """Move the LoRA B matrices off zero, so the adapter changes the model (a fresh one does not)."""
    import torch

    g = torch.Generator(device="cpu").manual_seed(seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.add_((scale * torch.randn(p.shape, generator=g)).to(p.device, p.dtype))


def _datum(turn, advantage: float = 0.0):
    from training.types import Datum

    prompt, sampled = list(turn.prompt_token_ids), list(turn.token_ids)
    return Datum(
        input_ids_T=tuple(prompt + sampled),
        action_mask_T=tuple([0] * len(prompt) + [1] * len(sampled)),
        sampler_logprobs_T=tuple([0.0] * len(prompt) + list(turn.logprobs)),
        advantage=advantage,
    )


def _sync() -> None:
    import torch

    if torch.cuda.is_available():
        torch.cuda.synchronize()


def _sample(policy, states, n: int, batched: bool) -> dict:
    """n episodes' next turn (states cycled), batched in one call or one after the other."""
    import torch

    requests = [(policy.with_seed(1000 + i), *states[i % len(states)]) for i in range(n)]
    if torch.cuda.is_available():
        torch.cuda.reset_peak_memory_stats()
    _sync()
    t0 = time.perf_counter()
    if batched:
        turns = policy.generate_batch(requests)
    else:
        turns = [stream.generate(messages, tools) for stream, messages, tools in requests]
    _sync()
    wall = time.perf_counter() - t0
    turns = [t for t in turns if hasattr(t, "token_ids")]
    tokens = sum(len(t.token_ids) for t in turns)
    peak = torch.cuda.max_memory_allocated() / 2**30 if torch.cuda.is_available() else float("nan")
    return {"episodes": n, "mode": "batched" if batched else "sequential", "turns": len(turns), "tokens": tokens,
            "wall_s": round(wall, 2), "tokens_per_s": round(tokens / wall, 1), "turns_per_s": round(len(turns) / wall, 2),
            "peak_gpu_gb": round(peak, 2), "_turns": turns}


def _parity(model, turns, pad: int, device: str, batch: int) -> dict:
    """|trainer log-prob - sampler log-prob| over every sampled token (one datum per pass, or padded)."""
    import torch

    from training.policy import pad_datums, token_logprobs

    datums = [_datum(t) for t in turns if t.token_ids]
    deltas, biases = [], []
    with torch.no_grad():
        for i in range(0, len(datums), batch):
            b = pad_datums(datums[i : i + batch], pad, device)
            lp, _ = token_logprobs(model, b["ids"], b["attn"], 1.0, b["mask"] if batch == 1 else None)
            m = b["mask"] > 0
            d = (lp[m] - b["old"][m]).float().cpu()
            deltas.append(d.abs())
            biases.append(d)
    delta, bias = torch.cat(deltas), torch.cat(biases)
    ratio = bias.exp()
    return {"tokens": int(delta.numel()), "mean_abs": round(float(delta.mean()), 4),
            "p99_abs": round(float(delta.quantile(0.99)), 4), "max_abs": round(float(delta.max()), 4),
            "mean_signed": round(float(bias.mean()), 4),
            "ratio_outside_0.8_1.2": round(float(((ratio < 0.8) | (ratio > 1.2)).float().mean()), 4)}


def model_check(args: argparse.Namespace) -> None:
    import copy

    import torch

    from training.policy import LoRAConfig, load_policy, make_optimizer
    from training.rl import RLConfig, cispo_update

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report: dict = {"torch": torch.__version__, "cuda": torch.cuda.is_available(),
                    "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None}
    device = "cuda" if torch.cuda.is_available() else "cpu"
    t0 = time.perf_counter()
    policy = load_policy(args.model, device=device, lora=LoRAConfig(rank=args.lora_rank, alpha=2 * args.lora_rank),
                         max_new_tokens=args.max_new_tokens, temperature=1.0, seed=0)
    report["load_s"] = round(time.perf_counter() - t0, 1)
    report["dtype"] = str(next(p for n, p in policy.model.named_parameters() if "base_layer" in n).dtype)
    _perturb(policy.model, 0.02, 3)
    states = _states(Path(args.prompts))
    report["prompts"] = len(states)
    print(f"policy on {device} ({report['dtype']}) in {report['load_s']} s; {len(states)} real harness prompts", flush=True)

    speed = []
    for n in args.episodes:
        for batched in (True, False):
            if not batched and n > args.sequential_max:
                continue
            row = _sample(policy, states, n, batched)
            speed.append(row)
            print({k: v for k, v in row.items() if not k.startswith("_")}, flush=True)
    report["sampling"] = [{k: v for k, v in r.items() if not k.startswith("_")} for r in speed]

    pad = policy.tokenizer.pad_token_id if policy.tokenizer.pad_token_id is not None else 0
    batched_turns = next(r["_turns"] for r in speed if r["mode"] == "batched" and r["episodes"] == args.parity_episodes)
    seq_turns = next((r["_turns"] for r in speed if r["mode"] == "sequential"), [])
    report["parity"] = {
        "batched sampler vs trainer (1 datum/pass)": _parity(policy.model, batched_turns, pad, device, 1),
        "batched sampler vs trainer (padded x8)": _parity(policy.model, batched_turns, pad, device, 8),
    }
    if seq_turns:
        report["parity"]["sequential sampler vs trainer (1 datum/pass)"] = _parity(policy.model, seq_turns, pad, device, 1)
    if device == "cuda":  # how much of the gap is bf16 itself: the same tokens under an fp32 forward
        ref = copy.deepcopy(policy.model).float()
        report["parity"]["batched sampler vs fp32 trainer"] = _parity(ref, batched_turns, pad, device, 1)
        del ref
        torch.cuda.empty_cache()
    for k, v in report["parity"].items():
        print(f"parity, {k}: {v}", flush=True)

    greedy = policy.with_seed(0)
    greedy.temperature = 0.0
    state = states[0]
    before = list(greedy.generate(*state).token_ids)
    _perturb(policy.model, 0.2, 4)
    policy.reset()
    greedy = policy.with_seed(0)
    greedy.temperature = 0.0
    after = list(greedy.generate(*state).token_ids)
    report["update_changes_samples"] = before != after
    print(f"a policy update changes the greedy reply: {before != after}", flush=True)

    big = max(speed, key=lambda r: (r["mode"] == "batched", r["episodes"]))["_turns"]
    datums = [_datum(t, 1.0 if i % 2 else -1.0) for i, t in enumerate(big) if t.token_ids]
    opt = make_optimizer(policy.model, 1e-5)
    lora = {n: p.detach().float().clone() for n, p in policy.model.named_parameters() if "lora_A" in n}
    updates = []
    # 1 token a pass = one datum a pass (the CPU default); larger budgets pack datums into micro-batches
    for step, budget in enumerate(b for b in args.update_batch_tokens for _ in range(args.updates)):
        cfg = RLConfig(substeps=4, lr=1e-5, update_batch_tokens=budget)
        if device == "cuda":
            torch.cuda.reset_peak_memory_stats()
        _sync()
        t0 = time.perf_counter()
        stats = cispo_update(policy.model, opt, datums, cfg, pad, device, step + 1, out)
        _sync()
        wall = time.perf_counter() - t0
        tokens = sum(len(d.input_ids_T) for d in datums)
        updates.append({"update_batch_tokens": budget, "datums": len(datums), "tokens": tokens,
                        "action_tokens": int(stats["action_tokens"]),
                        "update_s": round(wall, 2), "train_tokens_per_s": round(tokens / wall, 1),
                        "loss": round(stats["loss"], 5), "finite": stats["loss"] == stats["loss"],
                        "peak_gpu_gb": round(torch.cuda.max_memory_allocated() / 2**30, 2) if device == "cuda" else None})
        print(f"cispo update {step + 1}: {updates[-1]}", flush=True)
    report["cispo_updates"] = updates
    report["adapter_moved"] = any(not torch.equal(p.detach().float(), lora[n])
                                  for n, p in policy.model.named_parameters() if n in lora)
    print(f"the bf16 updates moved the adapter: {report['adapter_moved']}", flush=True)
    (out / "gpu_check.json").write_text(json.dumps(report, indent=1))
    _table(report)


def _table(report: dict) -> None:
    print(f"\n{report.get('gpu') or 'CPU'} · torch {report['torch']} · {report['dtype']} · {report['prompts']} prompts")
    print("| episodes | mode | turns | tokens | wall s | tokens/s | peak GPU GiB |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for r in report["sampling"]:
        print(f"| {r['episodes']} | {r['mode']} | {r['turns']} | {r['tokens']} | {r['wall_s']} | {r['tokens_per_s']} "
              f"| {r['peak_gpu_gb']} |")
    print("\n| log-prob parity | tokens | mean abs | p99 abs | max abs | mean signed | ratio outside [0.8, 1.2] |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for k, v in report["parity"].items():
        print(f"| {k} | {v['tokens']} | {v['mean_abs']} | {v['p99_abs']} | {v['max_abs']} | {v['mean_signed']} "
              f"| {v['ratio_outside_0.8_1.2']} |")
    print("\n| CISPO update: tokens a pass | datums | tokens | wall s | tokens/s | peak GPU GiB |")
    print("|---:|---:|---:|---:|---:|---:|")
    for u in report["cispo_updates"]:
        print(f"| {u['update_batch_tokens']} | {u['datums']} | {u['tokens']} | {u['update_s']} | {u['train_tokens_per_s']} "
              f"| {u['peak_gpu_gb']} |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("prepare", help="index HotpotQA tuning questions, write tasks and real harness prompts")
    a.add_argument("--data-dir", default=str(ROOT.parent / "shared" / "data"))
    a.add_argument("--out", required=True)
    a.add_argument("--docs", type=int, default=1_500, help="documents in the index (the gold ones, then others)")
    a.add_argument("--prompt-tasks", type=int, default=32, help="trajectories recorded for the prompts")
    b = sub.add_parser("model", help="sampling speed, log-prob parity and bf16 CISPO updates on the GPU")
    b.add_argument("--model", required=True, help="a local Hugging Face model folder or .gguf file")
    b.add_argument("--prompts", required=True, help="prompts.jsonl written by `prepare`")
    b.add_argument("--out", required=True)
    b.add_argument("--episodes", type=int, nargs="+", default=[8, 32, 128])
    b.add_argument("--sequential-max", type=int, default=32, help="largest episode count also run one by one")
    b.add_argument("--parity-episodes", type=int, default=32)
    b.add_argument("--max-new-tokens", type=int, default=128)
    b.add_argument("--lora-rank", type=int, default=16)
    b.add_argument("--updates", type=int, default=2, help="CISPO updates timed per --update-batch-tokens value")
    b.add_argument("--update-batch-tokens", type=int, nargs="+", default=[16_384],
                   help="padded tokens per forward pass of the update (1: one datum a pass)")
    args = p.parse_args()
    (prepare if args.cmd == "prepare" else model_check)(args)


if __name__ == "__main__":
    main()
