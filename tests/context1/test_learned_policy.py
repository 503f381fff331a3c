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
        answer = [d for d in rec if d.kind == "passage"][-1]  # the answer ranks passages (issue 34)
        rankings.add(tuple(answer.chosen))
        s = PolicyWeights.prior().passage(answer.features)
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


def _bridge_view():
    """A hand-built answer-turn view: hop 1 found the Bubye River (it names Zimbabwe, no document's
    title) and an unrelated river; the bridge search "Zimbabwe <question phrases>" found Victoria Falls, then Harare."""
    from context1.backends.iterative import DocPart, DocParts
    from context1.backends.learned import _View
    from context1.backends.llm_free import Ranking, question_phrases

    q = "Which waterfall is in the country where the Bubye River flows?"
    text = {"bubye": ("Bubye River", "The Bubye River is a river in Zimbabwe, a tributary of the Limpopo."),
            "falls": ("Victoria Falls", "Victoria Falls is a waterfall of the Zambezi in Zimbabwe."),
            "harare": ("Harare", "Harare is the capital city of Zimbabwe."),
            "other": ("Orange River", "The Orange River flows through Lesotho and Namibia.")}
    rel = {"bubye#0": 1.0, "falls#0": 0.4, "harare#0": 0.3, "other#0": 0.5}
    row = {d: (f"{d}#0", d, t, x) for d, (t, x) in text.items()}
    rankings = [Ranking("h1", "search_corpus", q, [row["bubye"], row["other"]], round=0),
                Ranking("r1-q0", "search_corpus", f"Zimbabwe {' '.join(question_phrases(q))}", [row["falls"], row["harare"]],
                         round=1)]
    parts = DocParts({d: DocPart(rel[f"{d}#0"], f"{d}#0", 0.0, None, "", 0.0, None, "") for d in text},
                     {f"{d}#0": (d, t, x) for d, (t, x) in text.items()}, {"bubye": 1, "other": 2},
                     {d: t for d, (t, _x) in text.items()}, [], "cosine", rel)
    return _View(q, rankings, parts, [], set(text), set())


def test_bridge_features_credit_what_a_bridge_search_brought_in_by_its_source():
    """Victoria Falls shares only "Zimbabwe" (no document's title) with the question's best document,
    so the name link is 0 for it; the bridge features see that the search which topped it came from
    that document (relevance 1.0), Harare came second, and the unrelated river got nothing."""
    from context1.backends.learned import doc_features

    docs, feats = doc_features(_bridge_view())
    f = {d: dict(zip(DOC_FEATURES, row, strict=True)) for d, row in zip(docs, feats, strict=True)}
    assert f["falls"]["link"] == 0.0  # what the hand-tuned score sees
    assert f["falls"]["bridge_source"] == pytest.approx(1.0) and f["falls"]["bridge_source_top1"] == pytest.approx(1.0)
    assert f["harare"]["bridge_source"] == pytest.approx(5 / 6) and f["harare"]["bridge_source_top1"] == 0.0
    assert f["other"]["bridge_source"] == 0.0 and f["other"]["shared_entity_link"] == 0.0
    assert f["falls"]["shared_entity_link"] == pytest.approx(1.0)  # "zimbabwe", shared with the Bubye River
    assert f["bubye"]["bridge_source_of"] == pytest.approx(np.log1p(1)) and f["falls"]["bridge_source_of"] == 0.0


def test_bridge_queries_keep_the_questions_names_whole():
    """Filings: the quarter ("Q3 2023") is what tells a company's filings apart. The hand-tuned policy's
    bridge searches carry the question's phrases (names whole); the first learned version carried its
    keywords, where "Q3 2023" was lost, and ranked the gold filing below other quarters (session 26)."""
    from context1.backends.iterative import DocParts
    from context1.backends.learned import LearnedConfig, _View, query_candidates
    from context1.backends.llm_free import Ranking

    q = "What percentage of Apple's total revenue did the Services segment contribute in Q3 2023?"
    chunk = ("a#0", "2023 Q3 AAPL.pdf", "Apple 10-Q", "Net sales of iPhone and Mac fell; Wearables grew.")
    parts = DocParts({}, {"a#0": chunk[1:]}, {chunk[1]: 1}, {chunk[1]: chunk[2]}, [], "cosine", {"a#0": 1.0})
    view = _View(q, [Ranking("h1", "search_corpus", q, [chunk], round=0)], parts, [], {chunk[1]}, set())
    cands, _feats = query_candidates(view, 1, LearnedConfig(), 0.0)
    with_question = [c for c in cands if c.startswith("Mac ")]
    assert with_question and all("Q3 2023" in c for c in with_question), cands


def test_passages_the_searches_agree_on_are_told_by_the_refound_notes():
    """The bridge search re-found the Bubye River at rank 3 (dedup kept it out of its shown chunks): its
    agreement is the LLM-free answer's (5/5 + 5/7, less the best term: 5/7) and one search re-found it.
    A grep's re-found note is not a search's; without any note (refound off, older records) both are 0."""
    from dataclasses import replace

    from context1.backends.learned import PASSAGE_FEATURES, doc_features, passage_features

    def feats(view):
        docs, x_doc = doc_features(view)
        cids, xp = passage_features(view, docs, np.asarray(x_doc))
        return {c: dict(zip(PASSAGE_FEATURES, row, strict=True)) for c, row in zip(cids, xp, strict=True)}

    view = _bridge_view()
    plain = feats(view)
    assert all(f["chunk_agreement"] == 0.0 and f["chunk_refound_log"] == 0.0 for f in plain.values())
    hop1, bridge = view.rankings
    view.rankings = [hop1, replace(bridge, refound=[("bubye#0", 3)]),
                     replace(bridge, call_id="g1", tool="grep_corpus", chunks=[], refound=[("other#0", 1)])]
    f = feats(view)
    assert f["bubye#0"]["chunk_agreement"] == pytest.approx(5 / 7)
    assert f["bubye#0"]["chunk_refound_log"] == pytest.approx(np.log1p(1))
    for cid in ("falls#0", "harare#0", "other#0"):  # one search each (the grep's note counts for nothing)
        assert f[cid]["chunk_agreement"] == 0.0 and f[cid]["chunk_refound_log"] == 0.0
    for cid in plain:  # the rest of each row is untouched
        old = [v for k, v in plain[cid].items() if k not in ("chunk_agreement", "chunk_refound_log")]
        assert [v for k, v in f[cid].items() if k not in ("chunk_agreement", "chunk_refound_log")] == old


def test_learned_episodes_see_the_refound_notes_by_default(harness_corpus):
    """The learned backend drives the same harness: with the default config (refound on) its answer turn's
    passage features count agreement; with refound off they are all 0."""
    from context1.backends.learned import PASSAGE_FEATURES

    cols = [PASSAGE_FEATURES.index("chunk_agreement"), PASSAGE_FEATURES.index("chunk_refound_log")]

    def passage_x(config):
        rec: list[Decision] = []
        SearchAgent(harness_corpus, LearnedSearchPolicy(harness_corpus).recording(rec), config).run(QUESTION)
        return next(d for d in rec if d.kind == "passage").features[:, cols]

    assert AgentConfig().refound
    on = passage_x(AgentConfig())
    assert (on > 0).any(axis=0).all(), on
    assert not passage_x(AgentConfig(refound=False)).any()


def test_a_policy_trained_before_the_agreement_features_loads_and_scores_as_before(tmp_path, harness_corpus):
    """A folder whose passage scorer was fitted without `LATER_PASSAGE_FEATURES` keeps its scores (they weigh
    0) and its episodes; a folder with other, unknown passage features still fails."""
    from context1.backends.learned import LATER_PASSAGE_FEATURES, PASSAGE_FEATURES, Scorer

    n_old = len(PASSAGE_FEATURES) - len(LATER_PASSAGE_FEATURES)
    rng = np.random.default_rng(3)
    fitted = Scorer(rng.normal(size=n_old), rng.uniform(0.5, 2, size=n_old),
                    [(rng.normal(size=(n_old, 4)), np.ones(4)), (rng.normal(size=(4, 1)), np.zeros(1))])
    w = PolicyWeights.prior()
    PolicyWeights(w.query, w.doc, w.config, passage=fitted).save(tmp_path / "old")
    spec = json.loads((tmp_path / "old" / "policy.json").read_text())
    spec["passage_features"] = list(PASSAGE_FEATURES[:n_old])
    (tmp_path / "old" / "policy.json").write_text(json.dumps(spec))
    back = open_policy(tmp_path / "old")
    x = rng.normal(size=(7, len(PASSAGE_FEATURES)))
    assert np.allclose(back.passage(x), fitted(x[:, :n_old]))
    x2 = x.copy()
    x2[:, n_old:] += 5.0  # the later features move nothing
    assert np.allclose(back.passage(x2), back.passage(x))
    back.save(tmp_path / "again")  # saved again, it is a folder of the current features
    assert json.loads((tmp_path / "again" / "policy.json").read_text())["passage_features"] == list(PASSAGE_FEATURES)
    assert np.allclose(open_policy(tmp_path / "again").passage(x), back.passage(x))
    spec["passage_features"] = list(PASSAGE_FEATURES[: n_old - 1]) + ["something_else"]
    (tmp_path / "old" / "policy.json").write_text(json.dumps(spec))
    with pytest.raises(ValueError, match="retrain it"):
        open_policy(tmp_path / "old")


def test_the_untrained_prior_reads_agreement_between_searches_as_the_hand_tuned_answer_does():
    """Session 36: the prior's answer-score parts are the hand-tuned policy's, agreement between searches
    included — a passage a later search re-found scores above the same passage unconfirmed, with the relevance
    the hand-tuned answer gives it; a prior at weight 0 (folders from before) is unmoved by the note."""
    from dataclasses import replace

    from context1.backends import IterativeRetrievalPolicy
    from context1.backends.iterative import IterativeConfig
    from context1.backends.learned import LearnedConfig, _View, doc_features, passage_features

    base = _bridge_view()
    hop1, bridge = base.rankings
    agreed = [hop1, replace(bridge, refound=[("other#0", 1)])]

    def score(policy, rankings, cid="other#0"):
        view = _View.of(policy, base.query, rankings, [])
        docs, x_doc = doc_features(view)
        cids, xp = passage_features(view, docs, np.asarray(x_doc))
        return float(policy.weights.passage(xp)[cids.index(cid)]), view.parts.chunk_relevance[cid]

    prior, hand = LearnedSearchPolicy(None), IterativeRetrievalPolicy(None)
    # the same parts, but for session 42's common-name rule, session 43's first-search links, session 44's floor and
    # session 45's conversation rule, measured on the hand-tuned answer only (learned.py)
    assert prior.config == replace(hand.config, link_name_share=0.0, first_search_links=0, first_search_floor=0.0,
                                   conversation_first_search="off")
    assert prior.config.agreement_weight > 0
    (s0, r0), (s1, r1) = score(prior, base.rankings), score(prior, agreed)
    assert s1 > s0 and r1 > r0
    assert hand.doc_parts(base.query, agreed, hand.config).chunk_relevance["other#0"] == r1
    off = LearnedSearchPolicy(None, PolicyWeights.prior(LearnedConfig(iterative=IterativeConfig(agreement_weight=0.0))))
    assert score(off, agreed) == score(off, base.rankings)
