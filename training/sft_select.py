"""SFT data selection (SPEC §5) as one pure function over candidates and their metrics.

Rules, applied in this order (the first that decides a candidate names the reason):

1. `malformed`: drop malformed outputs (unparseable tool calls, no parsed answer, failed rollout).
2. `concluded_poorly`: drop trajectories that explored well but concluded poorly
   (trajectory recall ≥ 0.5 while output recall < half of it: trajectory recall ≫ output recall).
3. `high_recall`: keep all with trajectory recall > 0.5 and output recall > 0.4 — but of several
   such rollouts of the same query keep one (`duplicate_query` for the others): the best output
   recall, then trajectory recall, then fewest turns, then the earliest.
4. `zero_recall` → `negative`: up to 5% of the kept set may be zero-recall trajectories,
   deduplicated by query (`negative_dropped` beyond that or for a repeated query).
5. the rest (`low_recall_kept` / `low_recall_dropped`): kept at a diminishing rate,
   low_recall_rate · closeness ** power, closeness = max(traj/0.5, out/0.4) clipped to 1.

Randomness (rule 5, and which negatives) comes from `config.seed` only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from training.types import SelectionResult, SFTCandidate, SFTSelectionConfig


def select_sft(
    candidates: Sequence[SFTCandidate], config: SFTSelectionConfig = SFTSelectionConfig()
) -> SelectionResult:
    """Which candidates to keep for SFT, with a reason for every candidate."""
    rng = random.Random(config.seed)
    reasons: dict[int, str] = {}
    high: dict[str, list[int]] = {}
    zero: list[int] = []
    low: list[int] = []
    for i, c in enumerate(candidates):
        if c.malformed:
            reasons[i] = "malformed"
        elif c.trajectory_recall >= config.explored_well and c.output_recall < config.poor_ratio * c.trajectory_recall:
            reasons[i] = "concluded_poorly"
        elif c.trajectory_recall > config.trajectory_recall_min and c.output_recall > config.output_recall_min:
            high.setdefault(c.query, []).append(i)
        elif c.output_recall == 0 and c.trajectory_recall == 0:
            zero.append(i)
        else:
            low.append(i)
    kept: list[int] = []
    for ids in high.values():
        best = min(
            ids, key=lambda i: (-candidates[i].output_recall, -candidates[i].trajectory_recall, candidates[i].turns, i)
        )
        for i in ids:
            reasons[i] = "high_recall" if i == best else "duplicate_query"
        kept.append(best)
    for i in low:
        c = candidates[i]
        closeness = min(
            1.0, max(c.trajectory_recall / config.trajectory_recall_min, c.output_recall / config.output_recall_min)
        )
        p = config.low_recall_rate * closeness**config.low_recall_power
        if rng.random() < p:
            reasons[i] = "low_recall_kept"
            kept.append(i)
        else:
            reasons[i] = "low_recall_dropped"
    # Negatives: at most negative_fraction of the final set, n_neg <= f·(n_pos + n_neg).
    n_pos = len(kept)
    cap = (
        int(config.negative_fraction * n_pos / (1 - config.negative_fraction))
        if config.negative_fraction < 1
        else len(zero)
    )
    order = list(zero)
    rng.shuffle(order)
    seen_queries: set[str] = set()
    for i in order:
        q = candidates[i].query
        if q in seen_queries or cap <= 0:
            reasons[i] = "negative_dropped"
            continue
        seen_queries.add(q)
        cap -= 1
        reasons[i] = "negative"
        kept.append(i)
    return SelectionResult(kept=sorted(kept), reasons=reasons)


def candidate_from_trajectory(trajectory: object, trajectory_recall: float, output_recall: float) -> SFTCandidate:
    """An `SFTCandidate` for a context1 trajectory: malformed when a call failed to parse, the
    answer did not parse (fallback ranking) or the rollout did not end with an answer."""
    steps = getattr(trajectory, "steps", [])
    bad_call = any(c.parse_error is not None or not c.name for s in steps for c in s.turn.tool_calls)
    reason = getattr(trajectory.stop_reason, "value", trajectory.stop_reason)
    malformed = bad_call or reason != "answered" or bool(trajectory.metadata.get("answer_fallback", False))
    return SFTCandidate(
        query=trajectory.query,
        trajectory_recall=trajectory_recall,
        output_recall=output_recall,
        malformed=malformed,
        turns=len(steps),
    )
