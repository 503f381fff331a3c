"""CISPO loss and group advantages, on hand-computed tensors."""

from __future__ import annotations

import math

import pytest
import torch

from context1.types import ModelTurn, Step, StopReason, Trajectory
from eval.types import Task
from training.cispo import cispo_loss, group_advantages, is_constant_group
from training.rl import build_batch
from training.rollouts import Rollout


def test_loss_is_the_detached_clipped_ratio_times_advantage_times_logprob_token_mean() -> None:
    lp = torch.tensor([[math.log(0.5), math.log(0.9), 0.0]], requires_grad=True)  # (1, 3)
    old = torch.tensor([[math.log(0.25), math.log(0.1), 0.0]])  # ratios 2 and 9 (clipped to 5)
    adv = torch.tensor([2.0])
    mask = torch.tensor([[1.0, 1.0, 0.0]])
    loss, stats = cispo_loss(lp, old, adv, mask)
    expected = -(2.0 * 2.0 * math.log(0.5) + 5.0 * 2.0 * math.log(0.9)) / 2
    assert float(loss.detach()) == pytest.approx(expected, rel=1e-6)
    loss.backward()
    # the weight is detached: d loss / d lp = -clip(r)·A / n_tokens, exactly (no ratio gradient)
    assert lp.grad.tolist()[0] == pytest.approx([-2.0 * 2.0 / 2, -5.0 * 2.0 / 2, 0.0])
    assert stats.clip_fraction == pytest.approx(0.5) and stats.n_tokens == 2


def test_negative_advantage_and_explicit_normaliser() -> None:
    lp = torch.tensor([[-1.0, -2.0]], requires_grad=True)
    old = torch.tensor([[-1.0, -2.0]])  # ratio 1
    loss, stats = cispo_loss(lp, old, torch.tensor([-1.0]), torch.ones(1, 2), n_tokens=4)
    assert float(loss.detach()) == pytest.approx(1.0 * (-1.0 - 2.0) / 4)  # -A·sum(lp)/4 with A = -1
    assert stats.clip_fraction == 0.0 and stats.mean_ratio == pytest.approx(1.0)


def test_group_advantages_centre_and_optionally_scale() -> None:
    assert group_advantages([1.0, 0.0, 0.5, 0.5]) == pytest.approx([0.5, -0.5, 0.0, 0.0])
    scaled = group_advantages([1.0, 0.0], scale_by_std=True)
    assert scaled == pytest.approx([1.0, -1.0], abs=1e-4)
    assert is_constant_group([0.3, 0.3, 0.3]) and not is_constant_group([0.3, 0.31])


def _rollout(ok: bool = True) -> Rollout:
    turn = ModelTurn(text="x", prompt_token_ids=(1, 2), token_ids=(3,), logprobs=(-1.0,))
    traj = Trajectory(query="q", steps=[Step(turn=turn)],
                      stop_reason=StopReason.ANSWERED if ok else StopReason.BACKEND_ERROR,
                      error=None if ok else "BackendError: boom")
    return Rollout(Task("t", "q"), traj, traj.error)


def test_build_batch_drops_failed_rollouts_constant_groups_and_all_failed_groups() -> None:
    groups = [
        [_rollout(), _rollout(), _rollout(False)],  # one failed: dropped; two left with different rewards
        [_rollout(), _rollout()],  # constant rewards: dropped
        [_rollout(False), _rollout(False)],  # every rollout failed
        [_rollout(), _rollout(False)],  # only one survivor: no group to compare with
    ]
    rewards = [[1.0, 0.0, 0.0], [0.5, 0.5], [0.0, 0.0], [1.0, 0.0]]
    datums, counts = build_batch(groups, rewards, scale_by_std=False)
    assert [d.advantage for d in datums] == [0.5, -0.5]
    assert counts == {"groups": 4, "groups_constant": 1, "groups_too_few": 1, "groups_all_failed": 1,
                      "rollouts_failed": 4, "rollouts_overflowed": 0, "groups_used": 1}
