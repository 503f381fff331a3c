"""Parity: our CISPO loss equals TRL 1.16's `loss_type="cispo"` (epsilon_high=5) on identical tensors.

TRL's `GRPOTrainer._compute_loss` is called unbound with a minimal stand-in `self` (one process,
no gradient accumulation, no KL, no entropy mask) whose `_get_per_token_logps_and_entropies`
returns our per-token logprobs: the rest — ratio against the old logprobs, clamp(max=5),
detach, −w·A·log π, normalisation by `num_items_in_batch` — is TRL's own code.
"""

from __future__ import annotations

from collections import defaultdict
from types import SimpleNamespace

import pytest
import torch

from training.cispo import cispo_loss

trl_grpo = pytest.importorskip("trl.trainer.grpo_trainer", reason="the parity reference needs trl (dev extra)")


def _trl_loss(logps_BT, old_BT, adv_B, mask_BT):
    fake = SimpleNamespace(
        loss_type="cispo", epsilon_high=5.0, epsilon_low=0.2, beta=0.0, top_entropy_quantile=1.0,
        off_policy_mask_threshold=None, importance_sampling_level="token", use_vllm=False,
        vllm_importance_sampling_correction=False, aux_loss_enabled=False, _entropy_bonus_enabled=False,
        current_gradient_accumulation_steps=1, model=SimpleNamespace(training=True),
        args=SimpleNamespace(steps_per_generation=1, use_bias_correction_kl=False, delta=None),
        accelerator=SimpleNamespace(num_processes=1, reduce=lambda t, reduction="sum": t, gather=lambda t: t),
        _metrics={"train": defaultdict(list), "eval": defaultdict(list)},
    )
    fake._get_per_token_logps_and_entropies = lambda *a, **k: (logps_BT, torch.zeros_like(logps_BT), None)
    B, T = logps_BT.shape
    inputs = {
        "prompt_ids": torch.zeros(B, 0, dtype=torch.long), "prompt_mask": torch.zeros(B, 0, dtype=torch.long),
        "completion_ids": torch.zeros(B, T, dtype=torch.long), "completion_mask": mask_BT.long(),
        "advantages": adv_B, "old_per_token_logps": old_BT, "num_items_in_batch": mask_BT.sum(),
    }
    loss = trl_grpo.GRPOTrainer._compute_loss(fake, None, inputs)
    return loss, fake._metrics["train"]["cispo_clip_ratio"][0]


def test_loss_gradient_and_clip_ratio_match_trl() -> None:
    g = torch.Generator().manual_seed(0)
    B, T = 4, 9
    base = -torch.rand(B, T, generator=g) * 3  # (B, T) current logprobs
    old = base + torch.randn(B, T, generator=g) * 1.5  # ratios spread well beyond 5 and below 1
    adv = torch.tensor([1.0, -0.5, 0.25, -1.5])
    mask = (torch.rand(B, T, generator=g) > 0.3).float()
    mask[:, 0] = 1.0
    ours_lp = base.clone().requires_grad_(True)
    theirs_lp = base.clone().requires_grad_(True)
    ours, stats = cispo_loss(ours_lp, old, adv, mask, clip_high=5.0)
    theirs, clip_ratio = _trl_loss(theirs_lp, old, adv, mask)
    ours.backward()
    theirs.backward()
    assert float(ours.detach()) == pytest.approx(float(theirs.detach()), rel=1e-6)
    assert torch.allclose(ours_lp.grad, theirs_lp.grad, atol=1e-7)
    assert stats.clip_fraction == pytest.approx(clip_ratio)
    assert 0 < stats.clip_fraction < 1  # the case exercises the clip


def test_trl_default_epsilon_high_is_the_trap() -> None:
    """With TRL's default epsilon_high=0.2 the weights differ: ratios are capped at 0.2, not 5."""
    lp = torch.tensor([[-1.0]])
    old = torch.tensor([[-1.0]])  # ratio 1
    ours, _ = cispo_loss(lp, old, torch.tensor([1.0]), torch.ones(1, 1))
    assert float(ours) == pytest.approx(1.0)  # weight 1: the ratio is inside [0, 5]
    capped, _ = cispo_loss(lp, old, torch.tensor([1.0]), torch.ones(1, 1), clip_high=0.2)
    assert float(capped) == pytest.approx(0.2)
