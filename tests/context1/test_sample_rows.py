"""The sampler's draw (`sample_rows`): the distribution it claims, per-row streams, nucleus truncation."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")

from context1.backends.transformers_local import sample_rows  # noqa: E402


def test_draws_follow_the_tempered_distribution_and_report_its_logprob() -> None:
    probs = torch.tensor([0.5, 0.25, 0.15, 0.1, 0.0])
    logits = torch.log(probs.clamp(min=1e-30))
    g = torch.Generator().manual_seed(0)
    counts = [0] * 5
    for _ in range(4_000):
        (tok,), (lp,) = sample_rows(logits[None], [g], temperature=1.0)
        counts[tok] += 1
        assert lp == pytest.approx(math.log(probs[tok]), abs=1e-5)
    assert counts[4] == 0  # a token of probability 0 is never drawn
    for p, c in zip(probs.tolist(), counts, strict=True):
        assert c / 4_000 == pytest.approx(p, abs=0.025)
    hot = [sample_rows(logits[None] / 0.01, [g], 1.0)[0][0] for _ in range(50)]
    assert set(hot) == {0}  # sharpened: the mode


def test_a_batch_draws_what_each_row_would_draw_alone() -> None:
    torch.manual_seed(3)
    logits = torch.randn(6, 50) * 3
    batched_gens = [torch.Generator().manual_seed(s) for s in range(6)]
    alone_gens = [torch.Generator().manual_seed(s) for s in range(6)]
    for _ in range(20):
        tokens, lps = sample_rows(logits, batched_gens, temperature=0.8, top_p=0.9)
        for b in range(6):
            t, lp = sample_rows(logits[b : b + 1], [alone_gens[b]], temperature=0.8, top_p=0.9)
            assert (t[0], lp[0]) == pytest.approx((tokens[b], lps[b]))


def test_top_p_keeps_the_nucleus_and_renormalises() -> None:
    probs = torch.tensor([0.6, 0.3, 0.06, 0.04])
    g = torch.Generator().manual_seed(1)
    seen = {sample_rows(torch.log(probs)[None], [g], 1.0, top_p=0.8)[0][0] for _ in range(300)}
    assert seen == {0, 1}  # 0.6 + 0.3 reach 0.8: the tail is cut
    _, (lp,) = sample_rows(torch.log(probs)[None], [torch.Generator().manual_seed(0)], 1.0, top_p=0.8)
    assert lp in (pytest.approx(math.log(0.6 / 0.9), abs=1e-5), pytest.approx(math.log(0.3 / 0.9), abs=1e-5))


def test_greedy_takes_the_argmax_with_its_untempered_logprob() -> None:
    logits = torch.tensor([[0.0, 2.0, 1.0], [3.0, 0.0, 0.0]])
    tokens, lps = sample_rows(logits, [torch.Generator(), torch.Generator()], temperature=0.0)
    assert tokens == [1, 0]
    assert lps[0] == pytest.approx(float(torch.log_softmax(logits[0], -1)[1]))
