"""CISPO (MiniMax-M1, arXiv 2506.13585) as SPEC §5 uses it, and group-relative advantages.

How this departs from GRPO:
- the importance ratio r = π/π_sampler is *clipped and detached* and used as a weight on the
  log-probability gradient (per token: −sg(min(r, 5))·A·log π), instead of clipping the
  surrogate — so no token (a rare prune or reformulation) ever loses its gradient;
- the ratio is taken against the logprobs the *sampler* recorded during the rollout, not a
  recomputation (with rollouts sampled at T=1 from the same weights r is 1 at the first substep;
  it departs from 1 at later substeps, or when the sampler's numerics differ);
- the bound is absolute, clip(r, 0, 5) (harness-1's train_rl.py, TRL's `epsilon_high=5`), not
  1 ± ε as in verl / SkyRL;
- no KL term, and token-mean normalisation per optimizer step: the per-token losses of one
  substep's share of the datums are summed and divided by the number of action tokens in that
  share (`cispo_loss(..., n_tokens=...)`, which training.rl passes; TRL's `loss_type="cispo"`
  with num_items_in_batch), not by the tokens of the whole step's batch and not per sequence —
  so a long trajectory weighs in proportion to its action tokens;
- groups whose rewards are all equal carry no signal and are dropped (SPEC §5); advantages are
  group-centred, dividing by the group's std is a switch (Dr GRPO argues against it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

CLIP_HIGH = 5.0  # SPEC §5 / harness-1: clip(r, 0, 5), absolute


@dataclass(frozen=True)
class CISPOStats:
    loss: float
    clip_fraction: float  # action tokens whose ratio exceeded the bound (with A > 0, as TRL counts)
    mean_ratio: float
    n_tokens: int


def cispo_token_loss(
    logprobs_BT: torch.Tensor,
    sampler_logprobs_BT: torch.Tensor,
    advantages_B: torch.Tensor,
    mask_BT: torch.Tensor,
    clip_high: float = CLIP_HIGH,
) -> torch.Tensor:
    """Per-token CISPO loss, −sg(clip(r, 0, clip_high))·A·log π, zero where mask is 0.  # (B, T)"""
    ratio_BT = torch.exp(logprobs_BT - sampler_logprobs_BT)
    weight_BT = torch.clamp(ratio_BT, 0.0, clip_high).detach()
    return -weight_BT * advantages_B[:, None] * logprobs_BT * mask_BT


def cispo_loss(
    logprobs_BT: torch.Tensor,
    sampler_logprobs_BT: torch.Tensor,
    advantages_B: torch.Tensor,
    mask_BT: torch.Tensor,
    clip_high: float = CLIP_HIGH,
    n_tokens: int | float | None = None,
) -> tuple[torch.Tensor, CISPOStats]:
    """Token-mean CISPO loss over a (micro)batch.

    n_tokens: the normaliser; None = the action tokens of this batch. Pass the count of the whole
    batch when accumulating gradients over micro-batches (TRL's num_items_in_batch), so the sum of
    the micro-batch losses equals the loss of the whole batch.
    """
    mask_BT = mask_BT.to(logprobs_BT.dtype)
    per_token_BT = cispo_token_loss(logprobs_BT, sampler_logprobs_BT, advantages_B, mask_BT, clip_high)
    count = float(mask_BT.sum()) if n_tokens is None else float(n_tokens)
    loss = per_token_BT.sum() / max(count, 1.0)
    with torch.no_grad():
        ratio_BT = torch.exp(logprobs_BT - sampler_logprobs_BT)
        active = mask_BT > 0
        n = int(active.sum())
        clipped = ((ratio_BT > clip_high) & (advantages_B[:, None] > 0) & active).sum()
        stats = CISPOStats(
            loss=float(loss.detach()),
            clip_fraction=float(clipped) / max(n, 1),
            mean_ratio=float(ratio_BT[active].mean()) if n else 1.0,
            n_tokens=n,
        )
    return loss, stats


def group_advantages(rewards_G: Sequence[float], scale_by_std: bool = False, eps: float = 1e-6) -> list[float]:
    """Group-centred advantages: r − mean(r), divided by the group's std when `scale_by_std`."""
    n = len(rewards_G)
    if n == 0:
        return []
    mu = sum(rewards_G) / n
    adv = [r - mu for r in rewards_G]
    if scale_by_std:
        std = (sum(a * a for a in adv) / n) ** 0.5
        adv = [a / (std + eps) for a in adv]
    return adv


def is_constant_group(rewards_G: Sequence[float], tol: float = 1e-9) -> bool:
    """A group whose rewards are all equal (no learning signal; SPEC §5 drops it)."""
    return len(rewards_G) == 0 or max(rewards_G) - min(rewards_G) <= tol
