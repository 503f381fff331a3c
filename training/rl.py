"""On-policy CISPO RL of the search agent, with rollouts through `context1` episodes (SPEC §5).

One step: sample `tasks_per_step` tasks (hop curriculum) → `group_size` rollouts each with the
current policy (the transformers backend, T=1, recording prompt ids, sampled ids and logprobs) →
reward each (β annealed by epoch) → drop rollouts failed by the infrastructure (counted; a rollout
that overflowed the context window is the policy's failure, a −0.5 no-answer kept in the batch:
training.reward), groups with fewer than two survivors and groups with identical rewards → group-centred advantages → datums (a new datum at
every pruning break) → `substeps` optimizer steps, each on its share of the datums, with the
CISPO loss (training.cispo) token-mean normalised over that share. Checkpoint after every step.

Rollouts are sampled by the policy itself (the transformers backend, LoRA merged while sampling)
or by a separate `sampler` with `load_adapter` (the vLLM backend on a GPU): after every update only
the LoRA adapter is saved and handed to it (`publish_adapter`), and it drops its prefix cache.
All tasks × group_size rollouts of a step advance in lockstep (`RLConfig.rollout_mode="batched"`,
context1.lockstep): one batched generate per turn for every live episode, each with its own seed
(`rollout_seed`) and its own token-in/token-out ids. `pool` (training.distributed.RolloutPool)
spreads them over Ray actors instead, which follow the policy through the same `load_adapter`.

Scale: defaults are the reference's (128 tasks × 8 rollouts, 4 substeps, lr 1e-5, LoRA 32); on a
CPU run them far smaller (`context1 train rl --tasks-per-step 2 --group-size 4`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from eval.types import Task
from training.cispo import CLIP_HIGH, cispo_loss, group_advantages, is_constant_group
from training.datums import trajectory_to_datums
from training.policy import (
    LoRAConfig,
    load_adapter_weights,
    load_policy,
    lora_merged_for_sampling,
    make_optimizer,
    pad_datums,
    token_logprobs,
)
from training.reward import (
    EMPTY_ANSWER,
    NO_ANSWER,
    POLICY,
    beta_for_epoch,
    compute_reward,
    failure_cause,
    mean,
    sample_tasks,
)
from training.rollouts import Rollout, call_stats, run_rollout, run_rollouts
from training.run_state import RunDir, check_finite, peak_rss_gb, plot_metrics, tasks_fingerprint
from training.types import CurriculumConfig, Datum, RewardConfig

PLOT_KEYS = (
    "reward",
    "f_beta",
    "trajectory_recall",
    "recall",
    "answer_found",
    "no_answer",
    "entropy",
    "clip_fraction",
    "calls_per_turn",
    "valid_tool_call_rate",
    "turns",
    "rollout_tokens_per_s",
    "step_s",
    "loss",
)


@dataclass(frozen=True)
class RLConfig:
    """CISPO RL. Defaults from SPEC §5 and harness-1's train_rl.py."""

    steps: int = 300  # SPEC §5: ~300 steps over 5 epochs
    epochs: int = 5  # β anneals 4 → 2 across these (epoch = step · epochs // steps)
    tasks_per_step: int = 128  # SPEC §5: 128 queries per step ...
    group_size: int = 8  # ... × 8 rollouts
    substeps: int = 4  # SPEC §5: 4 gradient substeps per step
    lr: float = 1e-5  # harness-1
    clip_high: float = CLIP_HIGH  # clip(r, 0, 5), absolute
    scale_advantages_by_std: bool = False  # group-centred only; True divides by the group's std
    temperature: float = 1.0  # harness-1: sample at T = 1 (on-policy)
    max_new_tokens: int = 512
    # "batched": every rollout of a step advances in lockstep, one batched generate per turn
    # (context1.lockstep); "sequential": one episode after the other (the pre-issue-23 loop).
    rollout_mode: str = "batched"
    max_datum_tokens: int = 8_192  # longer datums are skipped (memory), counted in the metrics
    # Tokens (padded) per forward pass of the update. None: one datum per pass on a CPU (bounded
    # memory), micro-batches of up to 16,384 tokens on CUDA: one datum per pass left an H200 at
    # 0.6 GiB and 3.4k tokens/s (docs/LOG.md, 2026-11-26). The loss is the same either way.
    update_batch_tokens: int | None = None
    grad_clip: float = 1.0
    reward: RewardConfig = field(default_factory=RewardConfig)
    curriculum: CurriculumConfig = field(default_factory=CurriculumConfig)
    lora: LoRAConfig = field(default_factory=LoRAConfig)
    seed: int = 0


@dataclass
class RLResult:
    out: Path
    steps: int
    metrics: list[dict[str, Any]]


def rollout_seed(seed: int, step: int, task_index: int, g: int) -> int:
    return ((seed * 1_000_003 + step) * 1_009 + task_index) * 101 + g


ROLLOUT_MODES = ("batched", "sequential")


def collect_rollouts(
    corpus: Any, backend: Any, jobs: Sequence[tuple[Task, int]], agent_config: Any, mode: str = "batched",
    pool: Any = None,
) -> list[Rollout]:
    """One rollout per (task, seed), in order: batched in lockstep, one by one, or spread over `pool`.

    pool: a `training.distributed.RolloutPool` (Ray actors); it runs the jobs, `mode` then unused.
    """
    if pool is not None:
        return pool.run(jobs)
    if mode == "batched":
        return run_rollouts(corpus, backend, [t for t, _ in jobs], agent_config, [s for _, s in jobs])
    if mode == "sequential":
        return [run_rollout(corpus, backend, task, agent_config, seed) for task, seed in jobs]
    raise ValueError(f"rollout_mode must be one of {ROLLOUT_MODES}, got {mode!r}")


def build_batch(
    rollouts: Sequence[Sequence[Rollout]], rewards: Sequence[Sequence[float]], scale_by_std: bool
) -> tuple[list[Datum], dict[str, int]]:
    """Datums of a step from groups of rollouts and their rewards (failed rollouts already marked).

    Drops rollouts failed by the infrastructure (`Rollout.failed`; counted in `rollouts_failed`),
    groups with < 2 surviving rollouts (`groups_all_failed` when none survived) and constant-reward
    groups; every datum of a trajectory carries its advantage. A rollout the policy made fail
    (context overflow: `training.reward.failure_cause` is POLICY) is kept with its no-answer
    reward and counted in `rollouts_overflowed`: dropping it would hide the failure from RL.
    """
    datums: list[Datum] = []
    counts = {
        "groups": len(rollouts),
        "groups_constant": 0,
        "groups_too_few": 0,
        "groups_all_failed": 0,
        "rollouts_failed": 0,
        "rollouts_overflowed": 0,
        "groups_used": 0,
    }
    t_index = 0
    for group, rs in zip(rollouts, rewards, strict=True):
        alive = [(ro, r) for ro, r in zip(group, rs, strict=True) if not ro.failed]
        counts["rollouts_failed"] += len(group) - len(alive)
        counts["rollouts_overflowed"] += sum(failure_cause(ro.trajectory) == POLICY for ro, _ in alive)
        if not alive:
            counts["groups_all_failed"] += 1
            continue
        if len(alive) < 2:
            counts["groups_too_few"] += 1
            continue
        rewards_G = [r for _, r in alive]
        if is_constant_group(rewards_G):
            counts["groups_constant"] += 1
            continue
        counts["groups_used"] += 1
        for (ro, _), adv in zip(alive, group_advantages(rewards_G, scale_by_std), strict=True):
            datums += trajectory_to_datums(ro.trajectory, adv, t_index)
            t_index += 1
    return datums, counts


def cispo_update(
    model: Any,
    optimizer: Any,
    datums: Sequence[Datum],
    config: RLConfig,
    pad_id: int,
    device: str,
    step: int,
    out: Path,
) -> dict[str, float]:
    """`config.substeps` optimizer steps over shares of `datums`; returns loss, entropy, clip fraction."""
    model.train()
    order = list(range(len(datums)))
    random.Random(config.seed + step).shuffle(order)
    n_sub = max(1, min(config.substeps, len(datums)))
    shares = [order[i::n_sub] for i in range(n_sub)]
    losses, ent_sum, ent_n, clipped, tokens = [], 0.0, 0, 0.0, 0
    budget = config.update_batch_tokens or (GPU_UPDATE_TOKENS if str(device).startswith("cuda") else 0)
    for share in shares:
        optimizer.zero_grad(set_to_none=True)
        n_total = sum(datums[j].n_actions for j in share)
        loss_sum = 0.0
        for group in micro_batches([len(datums[j].input_ids_T) for j in share], budget):
            batch = pad_datums([datums[share[i]] for i in group], pad_id, device)
            mask = batch["mask"] if len(group) == 1 else None  # one datum: logits of its actions only
            lp_BT, ent_BT = token_logprobs(model, batch["ids"], batch["attn"], config.temperature, mask)
            loss, stats = cispo_loss(lp_BT, batch["old"], batch["adv"], batch["mask"], config.clip_high, n_total)
            check_finite(float(loss.detach()), "the CISPO loss", step, out)
            loss.backward()
            loss_sum += float(loss.detach())
            ent_sum += float((ent_BT * batch["mask"]).sum())
            ent_n += stats.n_tokens
            clipped += stats.clip_fraction * stats.n_tokens
            tokens += stats.n_tokens
        grad_norm = torch.nn.utils.clip_grad_norm_([p for p in model.parameters() if p.requires_grad], config.grad_clip)
        check_finite(float(grad_norm), "the gradient norm", step, out)
        optimizer.step()
        losses.append(loss_sum)
    model.eval()
    return {
        "loss": mean(losses),
        "entropy": ent_sum / max(ent_n, 1),
        "clip_fraction": clipped / max(tokens, 1),
        "action_tokens": float(tokens),
    }


GPU_UPDATE_TOKENS = 16_384


def micro_batches(lengths: Sequence[int], budget: int) -> list[list[int]]:
    """Indices into `lengths` grouped so that each group's padded size (count x longest) stays within
    `budget` tokens; similar lengths together (less padding). budget <= 0: one index per group."""
    if budget <= 0:
        return [[i] for i in range(len(lengths))]
    groups: list[list[int]] = []
    for i in sorted(range(len(lengths)), key=lambda i: lengths[i]):
        if groups and (len(groups[-1]) + 1) * lengths[i] <= budget:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def publish_adapter(model: Any, sampler: Any, folder: Path, step: int) -> Path:
    """Save only the policy's LoRA adapter under `folder/step-N` and point `sampler` at it.

    A folder per step, because an engine may read the adapter lazily at its next request; the
    one before is kept for that reason and older ones are removed.
    """
    target = folder / f"step-{step:05d}"
    if target.exists():  # a step redone after a kill
        shutil.rmtree(target)
    model.save_pretrained(str(target))
    sampler.load_adapter(str(target))
    for old in sorted(folder.glob("step-*"))[:-2]:
        shutil.rmtree(old, ignore_errors=True)
    return target


def train_rl(
    corpus: Any,
    tasks: Sequence[Task],
    out: str | Path,
    config: RLConfig = RLConfig(),
    *,
    agent_config: Any = None,
    model_path: str | Path | None = None,
    init_adapter: str | Path | None = None,
    device: str | None = None,
    resume: bool = False,
    progress: bool = True,
    chunk_text: Any = None,
    policy: Any = None,
    sampler: Any = None,
    pool: Any = None,
    save_rollouts: bool = False,
) -> RLResult:
    """Run CISPO RL; checkpoints and metrics under `out`; `resume` continues after the last checkpoint.

    resume: continue the run `out` holds; a run made with other settings (anything but `steps`),
        tasks, model or starting adapter, or by another version, is a `RunMismatch` before any rollout.

    init_adapter: the SFT adapter to start from (ignored when resuming: the checkpoint's is used).
    chunk_text: chunk id → text for the final-answer bonus (r_fa, chunk-level); None reads the text of
        each returned chunk as the agent was shown it (training.reward.returned_chunks).
    policy: an already loaded `training.policy.load_policy` backend to train in place (tests, notebooks);
        its adapter weights are replaced by the checkpoint's when resuming.
    sampler: a backend with `load_adapter(folder)` that samples the rollouts instead of the policy
        (context1.backends.vllm_backend.VLLMBackend); it is given the policy's adapter before the
        first step and after every update.
    pool: a `training.distributed.RolloutPool` that runs the rollouts on Ray actors instead.
    save_rollouts: append every step's rollouts (task, seed, reward, trajectory) to OUT/rollouts.jsonl,
        so that a reward can be audited or re-scored on exactly what was trained on
        (`read_rollouts`; benchmarks/reward_rescore.py). Off by default: ~35 kB a rollout (context1-mini).
    """
    from tqdm import tqdm

    from context1 import AgentConfig
    if not tasks:
        raise ValueError("train_rl needs at least one task")
    agent_config = agent_config or AgentConfig(training_hints=True)
    run = RunDir(out)
    # every setting but `steps` (extending a run is a resume): another one is an error before any rollout
    run_config = {"kind": "rl", "rl": {k: v for k, v in dataclasses.asdict(config).items() if k != "steps"},
                  "agent": dataclasses.asdict(agent_config), "tasks": tasks_fingerprint(tasks),
                  "model": None if model_path is None else str(model_path),
                  "init_adapter": None if init_adapter is None else str(init_adapter)}
    resuming = run.begin(run_config, resume, "CISPO run")
    adapter = run.checkpoint / "adapter" if resuming else init_adapter
    if policy is None:
        policy = load_policy(
            model_path,
            device=device,
            adapter=adapter,
            lora=config.lora,
            max_new_tokens=config.max_new_tokens,
            temperature=config.temperature,
            seed=config.seed,
        )
    else:
        policy.max_new_tokens, policy.temperature = config.max_new_tokens, config.temperature
        if adapter is not None:
            load_adapter_weights(policy.model, adapter)
    model = policy.model
    # Rollouts sample in eval mode: a policy handed over in train mode (e.g. straight from
    # train_sft) would generate without the KV cache (gradient checkpointing turns it off in train mode).
    model.eval()
    if pool is not None:  # the pool's actors sample, and follow the policy like a sampler does
        if sampler is not None:
            raise ValueError("pass a sampler or a pool of Ray workers, not both")
        sampler = pool
    if sampler is not None and not callable(getattr(sampler, "load_adapter", None)):
        raise TypeError(f"sampler {type(sampler).__name__} has no load_adapter(folder): it could not follow the policy")
    optimizer = make_optimizer(model, config.lr)
    start = 0
    if resuming:
        state = run.load_state()
        optimizer.load_state_dict(state["optimizer"])
        start = int(state["step"])
    pad = policy.tokenizer.pad_token_id if policy.tokenizer.pad_token_id is not None else 0
    if sampler is not None:
        publish_adapter(model, sampler, run.out / "sampler_adapter", start)
    bar = tqdm(range(start, config.steps), desc="rl", disable=not progress, initial=start, total=config.steps)
    for step in bar:
        t_step = time.perf_counter()
        epoch = step * config.epochs // config.steps
        beta = beta_for_epoch(epoch, config.epochs, config.reward)
        rng = random.Random(config.seed * 7_919 + step)  # the same tasks when a step is redone after a kill
        chosen = sample_tasks(tasks, config.tasks_per_step, step / max(config.steps - 1, 1), rng, config.curriculum)
        groups: list[list[Rollout]] = []
        rewards: list[list[float]] = []
        breakdowns = []
        t_roll = time.perf_counter()
        jobs = [(task, rollout_seed(config.seed, step, ti, g)) for ti, task in enumerate(chosen)
                for g in range(config.group_size)]
        with lora_merged_for_sampling(model) if sampler is None else contextlib.nullcontext():
            flat = collect_rollouts(corpus, sampler or policy, jobs, agent_config, config.rollout_mode, pool)
        for ti, task in enumerate(chosen):
            group, rs = flat[ti * config.group_size : (ti + 1) * config.group_size], []
            for ro in group:
                if ro.failed:
                    rs.append(0.0)
                    continue
                b = compute_reward(ro.trajectory, task, beta=beta, chunk_text=chunk_text, config=config.reward,
                                   max_turns=agent_config.max_turns)
                breakdowns.append((b, call_stats(ro.trajectory, agent_config)))
                rs.append(b.reward)
            groups.append(group)
            rewards.append(rs)
        roll_s = time.perf_counter() - t_roll
        if save_rollouts:
            write_rollouts(run.out / ROLLOUTS_FILE, step + 1, jobs, flat, sum(rewards, []))
        datums, counts = build_batch(groups, rewards, config.scale_advantages_by_std)
        too_long = [d for d in datums if len(d.input_ids_T) > config.max_datum_tokens]
        datums = [d for d in datums if len(d.input_ids_T) <= config.max_datum_tokens]
        upd: dict[str, float] = {"loss": 0.0, "entropy": float("nan"), "clip_fraction": 0.0, "action_tokens": 0.0}
        if datums:
            upd = cispo_update(model, optimizer, datums, config, pad, policy.device, step + 1, run.out)
        policy.reset()  # the weights changed: no cached ids / KV cache from the old policy
        if sampler is not None and datums:
            publish_adapter(model, sampler, run.out / "sampler_adapter", step + 1)
        sampled = sum(cs["sampled_tokens"] for _, cs in breakdowns)
        calls = sum(cs["calls"] for _, cs in breakdowns)
        turns = sum(cs["turns"] for _, cs in breakdowns)
        values = {
            "epoch": epoch,
            "beta": beta,
            "reward": mean(b.reward for b, _ in breakdowns),
            "f_beta": mean(b.f_beta for b, _ in breakdowns),
            "recall": mean(b.recall for b, _ in breakdowns),
            "trajectory_recall": mean(b.trajectory_recall for b, _ in breakdowns),
            "answer_found": mean(b.answer_found for b, _ in breakdowns),
            "prune_penalty": mean(b.prune_penalty for b, _ in breakdowns),
            "turn_penalty": mean(b.turn_penalty for b, _ in breakdowns),
            "floored": mean(float(b.floored) for b, _ in breakdowns),
            # shares of the scored rollouts: never answered (overflow included), and overflowed
            "no_answer": mean(float(b.ending == NO_ANSWER) for b, _ in breakdowns),
            # answered, but with no usable document (-0.2): a 2-turn episode's usual degenerate ending
            "empty_answer": mean(float(b.ending == EMPTY_ANSWER) for b, _ in breakdowns),
            "overflowed": mean(float(b.failure == POLICY) for b, _ in breakdowns),
            "repeat_penalty": mean(b.repeat_penalty for b, _ in breakdowns),
            "calls_per_turn": calls / turns if turns else 0.0,
            "valid_tool_call_rate": (sum(cs["valid_calls"] for _, cs in breakdowns) / calls) if calls else None,
            "prune_calls": mean(cs["prune_calls"] for _, cs in breakdowns),
            "turns": mean(cs["turns"] for _, cs in breakdowns),
            "rollout_tokens_per_s": sampled / roll_s if roll_s > 0 else None,
            "rollout_s": roll_s,
            "datums": len(datums),
            "datums_too_long": len(too_long),
            **counts,
            **upd,
            "step_s": time.perf_counter() - t_step,
        }
        if torch.cuda.is_available():
            values["peak_gpu_mem_gb"] = torch.cuda.max_memory_allocated() / 2**30
        values["peak_rss_gb"] = peak_rss_gb()
        if pool is not None:  # cumulative: workers lost, jobs re-run on survivors, rollouts dropped
            values.update({f"ray_{k}": v for k, v in pool.stats.items()})
        run.log(step + 1, values)
        run.save(model, optimizer, step + 1, {"beta": beta})
        if step == start and not values["valid_tool_call_rate"]:
            warn_no_valid_calls(values, config.temperature, step + 1)
        bar.set_postfix(reward=f"{values['reward']:.3f}", used=counts["groups_used"])
    rows = run.read_metrics()
    plot_metrics(rows, PLOT_KEYS, run.out / "plots", "rl")
    return RLResult(run.out, config.steps, rows)


ROLLOUTS_FILE = "rollouts.jsonl"


def write_rollouts(path: Path, step: int, jobs: Sequence[tuple[Task, int]], rollouts: Sequence[Rollout],
                   rewards: Sequence[float]) -> None:
    """Append one step's rollouts as JSONL, all in one write (a step redone after a kill appends
    its block again; `read_rollouts` keeps the last block of each step)."""
    from context1.trajectory_io import trajectory_to_dict

    lines, block = [], time.time_ns()  # tells a redone step's block from the first one
    for (task, seed), ro, reward in zip(jobs, rollouts, rewards, strict=True):
        lines.append(json.dumps({
            "step": step, "block": block, "task_id": task.task_id, "seed": seed, "failed": ro.failed, "error": ro.error,
            "reward": reward, "trajectory": None if ro.trajectory is None else trajectory_to_dict(ro.trajectory),
        }, ensure_ascii=False, default=str))
    with path.open("a", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))


def read_rollouts(path: str | Path) -> list[dict[str, Any]]:
    """The rows `write_rollouts` wrote, trajectories rebuilt; of a step written twice, the last block."""
    from context1.trajectory_io import trajectory_from_dict

    by_step: dict[int, list[dict[str, Any]]] = {}
    last_block = None
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a kill mid-write; its step is redone and written again
        if (row["step"], row["block"]) != last_block:  # a new block replaces an earlier one of its step
            by_step[row["step"]] = []
            last_block = (row["step"], row["block"])
        if row["trajectory"] is not None:
            row["trajectory"] = trajectory_from_dict(row["trajectory"])
        by_step[row["step"]].append(row)
    return [row for step in sorted(by_step) for row in by_step[step]]


def warn_no_valid_calls(values: dict[str, Any], temperature: float, step: int) -> None:
    """The run's first step made no valid tool call: RL can only learn from the rewards of answers
    given blind. On an H200 a 10-step SFT (final loss 0.80 nats/token) made 53 % valid calls
    greedily and none at T = 1, while the CPU recipe's 26-step SFT (loss 0.22) made 70-100 %
    at T = 1 (docs/LOG.md, session 24): sampling exposes an under-trained adapter."""
    import warnings

    warnings.warn(
        f"step {step}: no valid tool call in {values['turns']:.1f} turns a rollout at T = {temperature:g} "
        f"(calls per turn {values['calls_per_turn']:.2f}); the policy samples text, not calls, so RL "
        "has nothing to reinforce. Train the SFT adapter longer (more tasks or --epochs) until its "
        "loss is well under 0.5, or check the adapter given to --init-adapter.",
        stacklevel=2,
    )


def agent_config_for_small_model(token_budget: int = 2_048, max_turns: int = 3, **overrides: Any) -> Any:
    """A harness budget that fits a small model on a CPU (SmolLM2-135M: 8k context, and every
    token of a datum costs a forward and backward pass): ~550 tokens of system prompt and tools,
    searches cut to 384 tokens (1–2 chunks of 256), 3 documents per answer, 3 turns.
    Training hints on (SPEC §2: the soft-threshold hint is shown during training rollouts)."""
    from context1 import AgentConfig

    base = dict(
        token_budget=token_budget,
        response_reserve=384,
        search_token_budget=384,
        read_token_budget=384,
        search_k=3,
        grep_k=2,
        max_turns=max_turns,
        max_documents=3,
        training_hints=True,
    )
    base.update(overrides)
    return dataclasses.replace(AgentConfig(), **base)
