"""The learned search policy as a Backend (context1/backends/learned.py): folder checks, fallbacks, sampling."""

from __future__ import annotations

import json

import numpy as np
import pytest

from context1 import AgentConfig, SearchAgent
from context1.backends import make_backend
from context1.backends.learned import (
    DOC_FEATURES,
    Decision,
    LearnedSearchPolicy,
    PolicyWeights,
    open_policy,
)

QUESTION = "Who is the mayor of the river town founded by salt merchants?"


def test_missing_and_foreign_folders_fail_at_open(tmp_path, harness_corpus):
    with pytest.raises(FileNotFoundError, match="no learned policy.*context1 train policy"):
        make_backend("learned", corpus=harness_corpus, policy=tmp_path / "nothing-here")
    foreign = tmp_path / "reranker"
    foreign.mkdir()
    (foreign / "config.json").write_text("{}")
    with pytest.raises(ValueError, match="not a learned search policy folder"):
        open_policy(foreign)
    (foreign / "policy.json").write_text(json.dumps({"kind": "cross-encoder"}))
    with pytest.raises(ValueError, match="holds a 'cross-encoder'"):
        open_policy(foreign)
    with pytest.raises(ValueError, match="needs policy="):
        make_backend("learned", corpus=harness_corpus)


def test_policy_from_another_index_is_allowed_and_recorded(tmp_path, harness_corpus):
    w = PolicyWeights.prior()
    w.meta = {"index": {"path": "/other/index", "created_at": "2020-01-01", "documents": 3}}
    w.save(tmp_path / "p")
    with pytest.warns(UserWarning, match="trained on another index"):
        backend = make_backend("learned", corpus=harness_corpus, policy=tmp_path / "p")
    assert backend.index_match is False
    assert SearchAgent(harness_corpus, backend).run(QUESTION).doc_ids


class _NoVectors:
    """A corpus without stored vectors (`similarity`), like some server-backed indexes."""

    def __init__(self, corpus):
        self._c = corpus

    def __getattr__(self, name):
        if name == "similarity":
            raise AttributeError(name)
        return getattr(self._c, name)


def test_without_stored_vectors_it_falls_back_to_ranks(harness_corpus):
    corpus = _NoVectors(harness_corpus)
    rec: list[Decision] = []
    backend = LearnedSearchPolicy(corpus).recording(rec)
    result = SearchAgent(corpus, backend).run(QUESTION)
    assert "veldhaven" in result.doc_ids[:3]
    answer = [d for d in rec if d.kind == "doc"][-1]
    assert set(answer.features[:, DOC_FEATURES.index("cosine_available")]) == {0.0}
    # with vectors the same feature says so: the fallback is what changed
    rec2: list[Decision] = []
    SearchAgent(harness_corpus, LearnedSearchPolicy(harness_corpus).recording(rec2)).run(QUESTION)
    assert set([d for d in rec2 if d.kind == "doc"][-1].features[:, DOC_FEATURES.index("cosine_available")]) == {1.0}


def test_sampling_varies_with_seed_and_logprobs_are_plackett_luce(harness_corpus):
    base = LearnedSearchPolicy(harness_corpus, temperature=1.0)
    assert base.varies_with_seed and not base.deterministic
    rankings = set()
    for seed in range(4):
        rec: list[Decision] = []
        SearchAgent(harness_corpus, base.recording(rec), AgentConfig(seed=seed)).run(QUESTION)  # the agent seeds it
        answer = [d for d in rec if d.kind == "doc"][-1]
        rankings.add(tuple(answer.chosen))
        s = PolicyWeights.prior().doc(answer.features)
        left = list(range(len(s)))
        for j, lp in zip(answer.chosen, answer.logprobs, strict=True):
            z = s[left]
            expect = s[j] - (z.max() + np.log(np.exp(z - z.max()).sum()))
            assert lp == pytest.approx(expect)
            left.remove(j)
    assert len(rankings) > 1
    assert LearnedSearchPolicy(harness_corpus).deterministic


def test_cli_ask_with_a_learned_policy(tmp_path, harness_corpus):
    import typer
    from typer.testing import CliRunner

    from context1.interfaces import cli_ask

    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """context1 (test)."""

    cli_ask.register(app)

    def ask(*args):
        return CliRunner().invoke(app, ["ask", str(harness_corpus.path), QUESTION, "--json", *map(str, args)])

    no_policy = ask("--backend", "learned")
    assert no_policy.exit_code == 2 and "--policy" in no_policy.output
    missing = ask("--backend", "learned", "--policy", tmp_path / "none")
    assert missing.exit_code == 2 and "context1 train policy" in missing.output
    PolicyWeights.prior().save(tmp_path / "p")
    ok = ask("--backend", "learned", "--policy", tmp_path / "p")
    assert ok.exit_code == 0, ok.output
    assert "veldhaven" in ok.output
