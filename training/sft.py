"""SFT warm-up (SPEC §5): teacher trajectories through the same harness, selected, then LoRA SFT
with the loss on action tokens only (token-mean negative log-likelihood).

    trajs = generate_teacher_trajectories(corpus, tasks, teacher_backend, agent_config, "teacher.jsonl")
    kept = select_teacher_trajectories(trajs, tasks, agent_config)
    # or rejection sampling: N rollouts per task (rollouts_per_task=N), the best by reward
    best, rewards = keep_best_by_reward(trajs, tasks)
    result = train_sft(kept, "runs/sft", SFTConfig())

Any backend can be the teacher (the LLM-free policy here, an OpenAI-compatible endpoint for a
strong model). Its turns have no token ids, so the student's chat template renders each prompt
and reply (`training.datums.teacher_turn_ids`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from eval import metrics
from eval.types import Task
from training.datums import sft_datums
from training.policy import LoRAConfig, load_adapter_weights, load_policy, make_optimizer, pad_datums
from training.rollouts import run_rollouts
from training.run_state import RunDir, check_finite, plot_metrics
from training.sft_select import candidate_from_trajectory, select_sft
from training.types import Datum, RewardConfig, SelectionResult, SFTSelectionConfig


@dataclass(frozen=True)
class SFTConfig:
    """LoRA SFT. lr 2e-4 is the usual LoRA SFT rate for small models (the reference gives none)."""

    lr: float = 2e-4
    epochs: int = 3
    batch_size: int = 4  # datums per optimizer step
    max_datum_tokens: int = 6_144  # longer datums are skipped (memory); counted in the result
    max_steps: int | None = None
    checkpoint_every: int = 10
    lora: LoRAConfig = field(default_factory=LoRAConfig)
    selection: SFTSelectionConfig = field(default_factory=SFTSelectionConfig)
    seed: int = 0


@dataclass
class SFTResult:
    out: Path
    steps: int
    datums: int
    skipped_long: int
    final_loss: float | None


def generate_teacher_trajectories(
    corpus: Any,
    tasks: Sequence[Task],
    backend: Any,
    agent_config: Any,
    out: str | Path,
    *,
    rollouts_per_task: int = 1,
    seed: int = 0,
    progress: bool = True,
    batch: int = 16,
) -> list[Any]:
    """Run the teacher through the harness on every task; save the trajectories as JSONL.

    Rollout j (tasks × rollouts_per_task, in order) samples with seed `seed + j`; `batch` of them
    run in lockstep (`training.rollouts.run_rollouts`). Each trajectory's metadata gets `task_id`.
    Failed rollouts are kept in the file (selection drops them as malformed).
    """
    from tqdm import tqdm

    from context1 import save_trajectories

    trajs = []
    jobs = [(t, seed + i) for i, t in enumerate(t for t in tasks for _ in range(rollouts_per_task))]
    bar = tqdm(total=len(jobs), desc="teacher", disable=not progress)
    for start in range(0, len(jobs), batch):  # `batch` episodes in lockstep (one generate per turn)
        chunk = jobs[start : start + batch]
        for rollout in run_rollouts(corpus, backend, [t for t, _ in chunk], agent_config, [s for _, s in chunk]):
            if rollout.trajectory is not None:
                rollout.trajectory.metadata["task_id"] = rollout.task.task_id
                trajs.append(rollout.trajectory)
        bar.update(len(chunk))
    bar.close()
    save_trajectories(out, trajs)
    return trajs


def keep_best_by_reward(
    trajectories: Sequence[Any],
    tasks: Sequence[Task],
    reward: RewardConfig = RewardConfig(),
    beta: float | None = None,
) -> tuple[list[Any], list[float]]:
    """Rejection sampling: of each task's trajectories, the one with the highest RL reward.

    The reward is `training.reward.compute_reward` at β = `beta` (None: `reward.beta_start`), so a
    trajectory that never concluded (fallback ranking) loses to any that did. Ties keep the first
    sampled. Trajectories whose task is unknown (by metadata task_id, else query) are left out.
    Returns the kept trajectories (in task order) and their rewards.
    """
    from training.reward import compute_reward

    beta = reward.beta_start if beta is None else beta
    by_id = {t.task_id: t for t in tasks}
    by_query = {t.query.strip(): t for t in tasks}
    best: dict[str, tuple[float, Any]] = {}
    for traj in trajectories:
        task = by_id.get(traj.metadata.get("task_id", "")) or by_query.get(traj.query.strip())
        if task is None:
            continue
        r = compute_reward(traj, task, beta=beta, config=reward).reward
        if task.task_id not in best or r > best[task.task_id][0]:
            best[task.task_id] = (r, traj)
    order = [t.task_id for t in tasks if t.task_id in best]
    return [best[i][1] for i in order], [best[i][0] for i in order]


def select_teacher_trajectories(
    trajectories: Sequence[Any],
    tasks: Sequence[Task],
    config: SFTSelectionConfig = SFTSelectionConfig(),
    granularity: str = "document",
) -> tuple[list[Any], SelectionResult]:
    """SPEC §5 selection over teacher trajectories, scored against their tasks (by task_id, else query)."""
    by_id = {t.task_id: t for t in tasks}
    by_query = {t.query.strip(): t for t in tasks}
    cands, usable = [], []
    for traj in trajectories:
        task = by_id.get(traj.metadata.get("task_id", "")) or by_query.get(traj.query.strip())
        if task is None:
            continue
        units = metrics.gold_units(task, granularity)
        out_r = metrics.recall([d.doc_id for d in traj.documents], units) or 0.0
        traj_r = metrics.trajectory_recall(traj, units, granularity) or 0.0
        cands.append(candidate_from_trajectory(traj, traj_r, out_r))
        usable.append(traj)
    result = select_sft(cands, config)
    return [usable[i] for i in result.kept], result


def sft_loss(model: Any, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, int]:
    """Token-mean NLL over action tokens of a padded batch; returns (loss, action tokens)."""
    from training.policy import token_logprobs

    lp_BT, _ = token_logprobs(model, batch["ids"], batch["attn"], mask_BT=batch["mask"])
    n = int(batch["mask"].sum())
    return -(lp_BT * batch["mask"]).sum() / max(n, 1), n


def train_sft(
    trajectories: Sequence[Any],
    out: str | Path,
    config: SFTConfig = SFTConfig(),
    *,
    model_path: str | Path | None = None,
    device: str | None = None,
    resume: bool = False,
    progress: bool = True,
    policy: Any = None,
) -> SFTResult:
    """LoRA SFT on (already selected) teacher trajectories; checkpoints under `out`, resumable.

    policy: an already loaded `training.policy.load_policy` backend to train in place (tests, notebooks).
    """
    if policy is None:
        policy = sft_policy(config, model_path, device)
    datums: list[Datum] = []
    for i, traj in enumerate(trajectories):
        datums += sft_datums(traj, policy.tokenizer, i)
    return train_sft_datums(datums, out, config, policy, resume=resume, progress=progress)


def sft_policy(config: SFTConfig, model_path: str | Path | None, device: str | None) -> Any:
    """The policy to train: a fresh LoRA of `config.lora`'s shape. When resuming, `train_sft_datums`
    copies OUT's checkpointed adapter weights into it (loaded once, not here and again there)."""
    return load_policy(model_path, device=device, lora=config.lora, seed=config.seed)


def train_sft_datums(
    datums: Sequence[Datum], out: str | Path, config: SFTConfig, policy: Any, *, resume: bool = False, progress: bool = True
) -> SFTResult:
    """The SFT loop over ready datums (any prompt → reply pairs: teacher trajectories through
    `train_sft`, the question writer's pairs through `training.question_writer`); checkpoints under
    `out`, resumable. policy: a `training.policy.load_policy` backend (e.g. `sft_policy`'s); when
    resuming, it gets the checkpoint's adapter weights here."""
    from tqdm import tqdm

    run = RunDir(out)
    # every setting but how far to run (epochs, max_steps), and the datums themselves
    digest = hashlib.sha256()
    for d in datums:
        digest.update(repr((d.input_ids_T, d.action_mask_T)).encode())
    run_config = {"kind": "sft", "sft": {k: v for k, v in dataclasses.asdict(config).items()
                                         if k not in ("epochs", "max_steps")},
                  "datums": {"n": len(datums), "sha256": digest.hexdigest()[:16]}}
    resuming = run.begin(run_config, resume, "SFT run")
    if resuming:
        load_adapter_weights(policy.model, run.checkpoint / "adapter")
    model, tok = policy.model, policy.tokenizer
    long = [d for d in datums if len(d.input_ids_T) > config.max_datum_tokens]
    datums = [d for d in datums if len(d.input_ids_T) <= config.max_datum_tokens]
    if not datums:
        raise ValueError("no SFT datums: the selection kept no trajectory (or all exceeded max_datum_tokens)")
    per_epoch = max(1, -(-len(datums) // config.batch_size))
    total = per_epoch * config.epochs
    if config.max_steps is not None:
        total = min(total, config.max_steps)
    optimizer = make_optimizer(model, config.lr)
    start = 0
    if resuming:
        state = run.load_state()
        optimizer.load_state_dict(state["optimizer"])
        start = int(state["step"])
    pad = tok.pad_token_id if tok.pad_token_id is not None else 0
    model.train()
    last_loss = None
    bar = tqdm(range(start, total), desc="sft", disable=not progress, initial=start, total=total)
    for step in bar:
        epoch, k = divmod(step, per_epoch)
        order = list(range(len(datums)))
        random.Random(config.seed + epoch).shuffle(order)  # the same order on resume
        batch_datums = [datums[j] for j in order[k * config.batch_size : (k + 1) * config.batch_size]]
        t0 = time.perf_counter()
        optimizer.zero_grad(set_to_none=True)
        n_total = sum(d.n_actions for d in batch_datums)
        loss_sum = 0.0
        for d in batch_datums:  # micro-batches of one datum: memory stays bounded on CPU
            batch = pad_datums([d], pad, policy.device)
            loss, n = sft_loss(model, batch)
            scaled = loss * (n / max(n_total, 1))
            value = float(scaled.detach())
            check_finite(value, "the SFT loss", step + 1, run.out)
            scaled.backward()
            loss_sum += value
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        dt = time.perf_counter() - t0
        last_loss = loss_sum
        tokens = sum(len(d.input_ids_T) for d in batch_datums)
        run.log(
            step + 1,
            {
                "epoch": epoch,
                "loss": loss_sum,
                "action_tokens": n_total,
                "tokens": tokens,
                "step_s": dt,
                "train_tokens_per_s": tokens / dt if dt > 0 else None,
            },
        )
        bar.set_postfix(loss=f"{loss_sum:.3f}")
        if (step + 1) % config.checkpoint_every == 0 or step + 1 == total:
            run.save(model, optimizer, step + 1)
    model.eval()  # hand the policy back ready to sample (train mode turns the KV cache off: checkpointing)
    plot_metrics(run.read_metrics(), ["loss", "train_tokens_per_s"], run.out / "plots", "sft")
    return SFTResult(run.out, total, len(datums), len(long), last_loss)
