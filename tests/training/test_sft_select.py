"""SFT data selection (SPEC §5): each rule on hand-made candidates."""

from __future__ import annotations

from training.sft_select import select_sft
from training.types import SFTCandidate, SFTSelectionConfig


def C(q: str, traj: float, out: float, malformed: bool = False, turns: int = 3) -> SFTCandidate:
    return SFTCandidate(query=q, trajectory_recall=traj, output_recall=out, malformed=malformed, turns=turns)


def test_high_recall_ones_are_all_kept() -> None:
    res = select_sft([C("a", 0.6, 0.5), C("b", 1.0, 1.0), C("c", 0.5, 0.5)])
    assert res.kept == [0, 1]  # c: trajectory recall 0.5 is not > 0.5
    assert res.reasons[0] == res.reasons[1] == "high_recall"


def test_malformed_are_dropped_whatever_their_recall() -> None:
    res = select_sft([C("a", 1.0, 1.0, malformed=True)])
    assert res.kept == [] and res.reasons[0] == "malformed"


def test_explored_well_but_concluded_poorly_is_dropped() -> None:
    res = select_sft([C("a", 1.0, 0.2), C("b", 0.9, 0.42), C("c", 0.8, 0.5)])
    assert res.reasons[0] == "concluded_poorly" and res.reasons[1] == "concluded_poorly"
    assert res.kept == [2]


def test_one_of_several_high_recall_rollouts_per_query() -> None:
    res = select_sft([C("a", 0.9, 0.6), C("a", 0.9, 0.8, turns=5), C("a", 0.9, 0.8, turns=2), C("b", 0.9, 0.6)])
    assert res.kept == [2, 3]  # best output recall, then fewest turns
    assert res.reasons[0] == res.reasons[1] == "duplicate_query"


def test_low_recall_kept_at_a_diminishing_rate() -> None:
    cands = [C(f"q{i}", 0.4, 0.3) for i in range(400)] + [C(f"r{i}", 0.1, 0.05) for i in range(400)]
    res = select_sft(cands)
    near = sum(1 for i in res.kept if i < 400) / 400
    far = sum(1 for i in res.kept if i >= 400) / 400
    # closeness 0.8 → 0.5·0.64 = 0.32; closeness 0.2 → 0.5·0.04 = 0.02
    assert 0.22 < near < 0.42 and far < 0.06 and near > far
    assert select_sft(cands).kept == res.kept  # seeded: deterministic
    assert select_sft(cands, SFTSelectionConfig(seed=1)).kept != res.kept


def test_zero_recall_negatives_capped_at_5_percent_and_deduplicated_by_query() -> None:
    pos = [C(f"p{i}", 1.0, 1.0) for i in range(38)]
    zeros = [C("z", 0.0, 0.0), C("z", 0.0, 0.0)] + [C(f"z{i}", 0.0, 0.0) for i in range(10)]
    res = select_sft(pos + zeros)
    negatives = [i for i in res.kept if res.reasons[i] == "negative"]
    assert len(negatives) == 2  # 2 / (38 + 2) = 5%
    assert len({(pos + zeros)[i].query for i in negatives}) == 2
    assert len(res.kept) == 40
    assert select_sft(zeros).kept == []  # no positives: no room for negatives
    assert res.counts()["negative_dropped"] == 10
