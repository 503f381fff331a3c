"""Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009).

score(d) = Σ_i w_i / (k + rank_i(d)), rank 1-based, summed over the rankings that contain d.
Generic over ids: `Corpus.search` fuses chunk ids from BM25 and dense retrieval; the agent's k×
mode fuses doc ids from k rollouts with the same function.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

Id = TypeVar("Id", bound=Hashable)

DEFAULT_RRF_K = 60  # SPEC §1 and the RRF paper's constant


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[Id]],
    k: int = DEFAULT_RRF_K,
    weights: Sequence[float] | None = None,
) -> list[tuple[Id, float]]:
    """Fuse rankings (each best first) into one: (id, fused score), best first.

    An id repeated within one ranking counts at its first (best) rank only. Ties are broken by
    first appearance, reading the rankings in order, so the result is deterministic.
    """
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    if weights is None:
        weights = [1.0] * len(rankings)
    elif len(weights) != len(rankings):
        raise ValueError(f"got {len(weights)} weights for {len(rankings)} rankings; give one weight per ranking")
    scores: dict[Id, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        seen: set[Id] = set()
        for rank, item in enumerate(ranking, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    order = {item: i for i, item in enumerate(scores)}  # dicts keep first-insertion order
    return sorted(scores.items(), key=lambda pair: (-pair[1], order[pair[0]]))
