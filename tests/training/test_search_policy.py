"""The learned search policy's training (training/search_policy.py) on the mini corpus.

One small real run (warm start + 1 CISPO step, then resumed to 2) covers: gold ids not in the
index are skipped and counted; the folder loads through `make_backend("learned", ...)` and drives
the harness; a run killed after logging a step but before its checkpoint resumes without
counting that step twice. The scorer fit and too-few-tasks paths are checked without a corpus.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from context1 import SearchAgent
from context1.backends import make_backend
from context1.backends.learned import (
    DOC_FEATURES,
    PASSAGE_FEATURES,
    QUERY_FEATURES,
    Decision,
    LearnedSearchPolicy,
    PolicyWeights,
    Scorer,
    open_policy,
)
from eval.types import Task
from training.search_policy import (
    SearchPolicyTrainConfig,
    _Example,
    all_in_topk,
    choose_scorer,
    fine_tune_scorer,
    fit_scorer,
    keep_prior_reason,
    rejection_examples,
    topk_quality,
    train_search_policy,
    usable_tasks,
)

SMALL = dataclasses.replace(SearchPolicyTrainConfig(), min_tasks=4, rl_steps=1, tasks_per_step=2, group_size=3,
                            fit_epochs=40, max_tasks=12)


def _tasks(corpus, mini_tasks) -> list[Task]:
    """One single-hop task per document (its second sentence), plus the 2-hop fixtures."""
    out = list(mini_tasks)
    for doc_id in ("veldhaven", "ilsa-marrow", "korrin-bay"):
        text = " ".join(c.text for c in corpus.chunks(doc_id))
        sentence = text.split(". ")[1] if ". " in text else text
        out.append(Task(f"t-{doc_id}", sentence, gold_doc_ids=(doc_id,), hops=1))
    return out


def test_train_load_run_and_resume_without_double_count(mini_corpus, mini_tasks, tmp_path):
    foreign = [Task(f"f{i}", "Where is the lighthouse of Brannock?", gold_doc_ids=("not-in-this-index",))
               for i in range(3)]
    out = tmp_path / "policy"
    report = train_search_policy(mini_corpus, _tasks(mini_corpus, mini_tasks) + foreign, out, SMALL)
    assert report.skipped_gold_missing == 3
    assert json.loads((out / "report.json").read_text())["skipped_gold_missing"] == 3
    assert (out / "warm" / "policy.json").is_file() and (out / "rl" / "metrics.jsonl").is_file()

    backend = make_backend("learned", corpus=mini_corpus, policy=out)
    assert backend.index_match is True
    result = SearchAgent(mini_corpus, backend).run("Who is the mayor of the river town founded by salt merchants?")
    assert result.doc_ids and "veldhaven" in result.doc_ids
    assert any(s.turn.logprobs for s in result.trajectory.steps)  # action log-probs where token log-probs go

    # A kill after step 2 was logged but before its checkpoint: the line is dropped and step 2 redone once.
    metrics = out / "rl" / "metrics.jsonl"
    metrics.write_text(metrics.read_text() + json.dumps({"step": 2, "reward": 0.5}) + "\n")
    train_search_policy(mini_corpus, _tasks(mini_corpus, mini_tasks), out, dataclasses.replace(SMALL, rl_steps=2))
    steps = [json.loads(ln)["step"] for ln in metrics.read_text().splitlines()]
    assert steps == [1, 2]
    assert len(json.loads((out / "report.json").read_text())["rl_metrics"]) == 2


def test_too_few_tasks_is_a_clear_error(mini_corpus, mini_tasks):
    with pytest.raises(ValueError, match="needs at least 20.*context1 datagen"):
        usable_tasks(mini_corpus, mini_tasks, 20)
    foreign = [Task("f", "q", gold_doc_ids=("nope",))] * 30
    with pytest.raises(ValueError, match=r"only 0 usable task\(s\) \(30 skipped"):
        usable_tasks(mini_corpus, foreign, 20)


def test_fit_learns_what_the_prior_misses():
    """Gold documents are the ones with a high `link`; the prior (iterative score only) cannot see it."""
    rng = np.random.default_rng(0)
    ex = []
    for i in range(120):  # enough decisions for a linear fit over every feature (25) to find `link`
        x = rng.normal(size=(15, len(DOC_FEATURES)))
        y = np.zeros(15)
        gold = np.argsort(-x[:, DOC_FEATURES.index("link")])[:2]
        y[gold] = 0.5
        ex.append(_Example(x, y, i % 4 == 0, 2))
    train, val = [e for e in ex if not e.val], [e for e in ex if e.val]
    prior = PolicyWeights.prior().doc
    fitted = fit_scorer(train, len(DOC_FEATURES), 0, SearchPolicyTrainConfig(fit_epochs=150))
    assert topk_quality(fitted, val) >= 0.85 and topk_quality(prior, val) < 0.4


def test_policy_folder_round_trip(tmp_path):
    w = PolicyWeights.prior()
    w.meta = {"index": {"path": "/elsewhere", "created_at": "x", "documents": 1}}
    w.save(tmp_path / "p", {"note": 1})
    back = open_policy(tmp_path / "p")
    x = np.random.default_rng(1).normal(size=(4, len(DOC_FEATURES)))
    assert np.allclose(back.doc(x), w.doc(x))
    assert back.meta["index"]["path"] == "/elsewhere"


def test_best_of_n_fine_tune_moves_greedy_to_the_kept_rollouts_choices():
    """Rejection sampling: the kept rollout picked candidates the warm scorer ranks low; after the
    fine-tune the greedy choice is theirs (queries as a set, documents in the kept order)."""
    rng = np.random.default_rng(0)
    prior = PolicyWeights.prior()
    decisions = []
    for _ in range(12):
        xq = rng.normal(size=(8, len(QUERY_FEATURES)))
        xq[:, QUERY_FEATURES.index("entity_has_digit")] = 0.0
        xq[[5, 6], QUERY_FEATURES.index("entity_has_digit")] = 1.0  # what the kept rollout's queries share
        decisions.append(Decision("query", xq, [6, 5], [-1.0, -1.0]))
        xd = rng.normal(size=(10, len(DOC_FEATURES)))
        order = list(np.argsort(xd[:, DOC_FEATURES.index("keyword_overlap")]))  # lowest overlap first
        decisions.append(Decision("doc", xd, order[:3], [-1.0] * 3))
    ex = rejection_examples(decisions)
    assert len(ex["query"]) == 12 and len(ex["doc"]) == 12
    first = decisions[1].chosen  # the first answer decision's kept order
    assert np.allclose(ex["doc"][0].target[first] / ex["doc"][0].target[first[0]], [1, 1 / np.log2(3), 0.5])

    cfg = SearchPolicyTrainConfig(best_of_epochs=150)
    q_before = [set(np.argsort(-prior.query(d.features))[:2]) for d in decisions if d.kind == "query"]
    q = fine_tune_scorer(prior.query, ex["query"], cfg)
    d = fine_tune_scorer(prior.doc, ex["doc"], cfg)
    assert sum(b == {5, 6} for b in q_before) < 6
    assert all(set(np.argsort(-q(x.features))[:2]) == {5, 6} for x in decisions if x.kind == "query")
    docs = [x for x in decisions if x.kind == "doc"]
    assert sum(int(np.argmax(d(x.features))) == x.chosen[0] for x in docs) >= 10
    assert np.allclose(q.mean, prior.query.mean)  # the warm scorer's standardisation is kept


def test_best_of_n_stage_writes_its_folder_and_report(mini_corpus, mini_tasks, tmp_path):
    out = tmp_path / "policy"
    cfg = dataclasses.replace(SMALL, rl_steps=0, best_of=3, best_of_tasks=4, best_of_epochs=10)
    train_search_policy(mini_corpus, _tasks(mini_corpus, mini_tasks), out, cfg)
    report = json.loads((out / "report.json").read_text())["best_of"]
    assert report["n"] == 3 and report["tasks"] == 4 and report["rollouts"] == 12
    assert 0 <= report["improved_tasks"] <= 4 and report["best_reward"] >= report["greedy_reward"]
    assert report["doc_decisions"] == 0  # the answer ranking keeps its gold labels (best_of_kinds)
    assert (report["query_decisions"] > 0) <= (report["improved_tasks"] > 0)
    best = open_policy(out / "best")
    assert best.meta["stage"].startswith("warm start + best of 3")
    x = np.random.default_rng(2).normal(size=(5, len(DOC_FEATURES)))
    assert np.allclose(open_policy(out).doc(x), best.doc(x))  # no CISPO steps: the policy is the best-of-N one
    # a rerun reuses OUT/best instead of sampling again
    logs: list[str] = []
    train_search_policy(mini_corpus, _tasks(mini_corpus, mini_tasks), out, cfg, log=logs.append)
    assert any("best of N: reusing" in m for m in logs)


def test_auto_keeps_the_prior_when_no_fit_ranks_the_held_back_tasks_better():
    """Training decisions reward `link`, held-back ones the prior's `iterative_score`: the fits learn
    `link` and rank the held-back tasks worse than the prior, which `auto` then keeps."""
    rng = np.random.default_rng(0)

    def examples(feature: str, n: int, val: bool) -> list[_Example]:
        out = []
        for _ in range(n):
            x = rng.normal(size=(12, len(DOC_FEATURES)))
            y = np.zeros(12)
            y[np.argsort(-x[:, DOC_FEATURES.index(feature)])[:2]] = 0.5
            out.append(_Example(x, y, val, 2))
        return out

    prior = PolicyWeights.prior().doc
    cfg = SearchPolicyTrainConfig(fit_epochs=100, scorer="auto")
    kept, report = choose_scorer(examples("link", 40, False), examples("iterative_score", 15, True),
                                 len(DOC_FEATURES), prior, cfg)
    q = report["val_topk_quality"]
    assert q["prior"] > max(q["linear"], q["mlp"])
    assert report["chosen"] == "prior" and kept is prior
    # where a fit is better held back, it is kept as before
    kept, report = choose_scorer(examples("link", 40, False), examples("link", 15, True), len(DOC_FEATURES),
                                 prior, cfg)
    assert report["chosen"] in ("linear", "mlp") and kept is not prior


def _two_kinds_of_gold(n: int, val: bool, seed: int) -> list[_Example]:
    """Each decision has two gold documents: one stands out by `link`, the other by `bridge_source` (k = 2)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        x = rng.normal(size=(20, len(DOC_FEATURES)))
        y = np.zeros(20)
        a, b = rng.choice(20, size=2, replace=False)
        x[a, DOC_FEATURES.index("link")] += 6.0
        x[b, DOC_FEATURES.index("bridge_source")] += 6.0
        y[[a, b]] = 0.5
        out.append(_Example(x, y, val, 2))
    return out


def test_all_in_topk_counts_decisions_with_every_gold_in_the_top_k():
    e = _Example(np.array([[3.0], [2.0], [1.0], [0.0]]), np.array([0.5, 0.0, 0.5, 0.0]), True, 2)
    ident = Scorer(np.zeros(1), np.ones(1), [(np.ones((1, 1)), np.zeros(1))])
    assert all_in_topk(ident, [e]) == 0.0  # the second gold is third
    e3 = _Example(e.x, e.target, True, 3)
    assert all_in_topk(ident, [e3]) == 1.0
    assert topk_quality(ident, [e]) == 0.5  # the gold share is half, all-R@k says no


def test_setwise_answer_fit_puts_both_kinds_of_gold_in_the_top_k_and_doc_kind_skips_the_mlp():
    train, val = _two_kinds_of_gold(120, False, 0), _two_kinds_of_gold(30, True, 1)
    prior = PolicyWeights.prior().doc
    cfg = SearchPolicyTrainConfig(fit_epochs=150, scorer="auto", doc_anchor=0.0)
    setwise = fit_scorer(train, len(DOC_FEATURES), 0, cfg, loss="setwise")
    assert all_in_topk(setwise, val) >= 0.8 and all_in_topk(prior, val) < 0.1
    kept, report = choose_scorer(train, val, len(DOC_FEATURES), prior, cfg, kind="doc")
    assert set(report["val_topk_quality"]) == {"prior", "linear"} and report["chosen"] == "linear"
    with pytest.raises(ValueError, match="setwise"):
        fit_scorer(train, len(DOC_FEATURES), 0, cfg, loss="pairwise")


def test_auto_keeps_the_prior_when_nothing_is_held_back_to_judge_a_fit_by():
    assert keep_prior_reason(23, 0, "auto") == "no held-back decisions to judge a fit by"
    assert keep_prior_reason(3, 4, "auto") == "too few labelled decisions"
    assert keep_prior_reason(23, 4, "auto") is None
    assert keep_prior_reason(23, 0, "linear") is None  # an explicit choice is fitted anyway


def test_anchored_answer_fit_keeps_the_prior_where_a_few_decisions_point_elsewhere():
    """Eight decisions in which a noise feature happens to mark the gold: a free fit learns the noise, the
    fit held to the prior keeps ranking by the iterative score (the prior's only feature)."""
    rng = np.random.default_rng(3)
    it, noise = DOC_FEATURES.index("iterative_score"), DOC_FEATURES.index("keyword_overlap")

    def decision(gold_by: int) -> _Example:
        x = rng.normal(size=(12, len(DOC_FEATURES)))
        y = np.zeros(12)
        y[np.argsort(-x[:, gold_by])[:2]] = 0.5
        return _Example(x, y, False, 2)

    train = [decision(noise) for _ in range(8)]
    test = [decision(it) for _ in range(40)]
    cfg = SearchPolicyTrainConfig(fit_epochs=200)
    prior = PolicyWeights.prior().doc
    free = fit_scorer(train, len(DOC_FEATURES), 0, cfg, loss="setwise")
    held = fit_scorer(train, len(DOC_FEATURES), 0, cfg, loss="setwise", anchor=prior, anchor_weight=10.0)
    assert topk_quality(free, test) < 0.6
    assert topk_quality(held, test) >= 0.9 and topk_quality(prior, test) == 1.0


def test_query_labels_execute_no_search_where_every_gold_document_was_seen():
    """Labelling every task's decisions is cheap: a state that has seen all the gold executes nothing
    (generated tasks are mostly solved by hop 1); a state missing one executes each candidate."""
    from types import SimpleNamespace

    from training.search_policy import _query_gains

    calls: list[str] = []

    class Corpus:
        def search(self, q, k=10):
            calls.append(q)
            return [SimpleNamespace(chunk=SimpleNamespace(doc_id=d)) for d in ("x", "gold-b")]

    d = Decision("query", np.zeros((2, len(QUERY_FEATURES))), [0], [0.0], ["q1", "q2"],
                 {"round": 1, "seen_docs": ["gold-a", "gold-b", "x"]})
    assert _query_gains(Corpus(), d, {"gold-a", "gold-b"}, 10) == [0.0, 0.0] and calls == []
    d.state["seen_docs"] = ["gold-a", "x"]
    assert _query_gains(Corpus(), d, {"gold-a", "gold-b"}, 10) == pytest.approx([1 / np.log2(3)] * 2)
    assert calls == ["q1", "q2"]


def test_answer_decisions_come_only_from_tasks_with_enough_gold_documents(mini_corpus, mini_tasks):
    from context1 import AgentConfig
    from training.search_policy import collect_examples

    tasks = _tasks(mini_corpus, mini_tasks)
    prior = PolicyWeights.prior()
    every = collect_examples(mini_corpus, tasks, prior, AgentConfig(), 0.0)["doc"]
    multi = collect_examples(mini_corpus, tasks, prior, AgentConfig(), 0.0, doc_min_gold=2)["doc"]
    assert len(every) > len(multi) > 0  # the one-document tasks' answers are left out


def test_train_policy_defaults_are_the_configuration_chosen_on_the_tuning_part():
    """`context1 train policy` with no flags trains what benchmarks/README.md reports (issue 22): a linear
    scorer, the answer fit held to the prior (1.0), answer decisions from multi-gold tasks, no CISPO;
    the CLI's defaults and the Python config's agree."""
    import inspect

    from training.cli_search_policy import policy_command

    cfg = SearchPolicyTrainConfig()
    chosen = {"scorer": "linear", "doc_anchor": 1.0, "doc_min_gold": 2, "rl_steps": 0,
              "max_tasks": 160, "label_tasks": 160}  # every reported figure used 160 tasks (issue 37)
    assert {k: getattr(cfg, k) for k in chosen} == chosen
    params = inspect.signature(policy_command).parameters
    assert {k: params[k].default for k in chosen} == chosen


def test_every_chunk_an_episode_shows_is_a_labelled_passage_decision(mini_corpus, mini_tasks):
    """Issue 34: the answer's passage decision holds every chunk the episode showed, each labelled
    (gold: a chunk of a gold document when the task names no chunks), one-document tasks included."""
    from context1 import AgentConfig
    from training.search_policy import collect_examples

    tasks = _tasks(mini_corpus, mini_tasks)
    prior = PolicyWeights.prior()
    ex = collect_examples(mini_corpus, tasks, prior, AgentConfig(), 0.0, doc_min_gold=2)
    assert len(ex["passage"]) == len(tasks) > len(ex["doc"])  # every task teaches passages, not only multi-gold ones
    for task, e in zip(tasks, ex["passage"], strict=True):
        seen = SearchAgent(mini_corpus, LearnedSearchPolicy(mini_corpus, prior)).run(task.query).trajectory.seen_chunk_ids()
        assert len(e.x) == len(set(seen)) and e.x.shape[1] == len(PASSAGE_FEATURES)
        gold = [c for c in dict.fromkeys(seen) if c.rpartition("#")[0] in task.gold_doc_ids]
        assert int((e.target > 0).sum()) == len(gold) > 0
    assert sum(len(e.x) for e in ex["passage"]) > 5 * len(ex["doc"])  # many more labelled decisions than documents


def test_gold_chunks_come_from_supporting_chunks_facts_and_extra_positives():
    from training.search_policy import gold_chunks, passage_labels

    task = Task("g", "q", gold_doc_ids=("a", "b"), gold_chunk_ids=("a#0",), facts=(("a#0", "a#2"), ("b",)),
                metadata={"extra_positives": [{"doc_id": "b", "chunk_id": "b#1", "quote": "…"}]})
    assert gold_chunks(task) == {"a#0", "a#2", "b#1"}
    assert passage_labels(["a#0", "a#1", "a#2", "b#0", "b#1", "c#0"], task).tolist() == [1, 0, 1, 0, 1, 0]
    plain = Task("p", "q", gold_doc_ids=("a",))  # a benchmark task: gold documents only
    assert gold_chunks(plain) is None
    assert passage_labels(["a#0", "a#1", "c#0"], plain).tolist() == [1, 1, 0]


def test_passage_scorer_round_trips_and_folders_from_before_passages_still_load_and_answer(mini_corpus, tmp_path):
    w = PolicyWeights.prior()
    w.save(tmp_path / "new")
    back = open_policy(tmp_path / "new")
    x = np.random.default_rng(2).normal(size=(6, len(PASSAGE_FEATURES)))
    assert back.passage is not None and np.allclose(back.passage(x), w.passage(x))
    # the prior is the hand-tuned passage score: the document's score less the passage's relevance gap
    row = np.zeros(len(PASSAGE_FEATURES))
    row[PASSAGE_FEATURES.index("iterative_score")], row[PASSAGE_FEATURES.index("chunk_gap")] = 1.2, -0.3
    assert w.passage(row[None, :])[0] == pytest.approx(4 * (1.2 - 0.3))
    old = PolicyWeights(w.query, w.doc, w.config)  # a folder written before passages: no passage scorer
    old.save(tmp_path / "old")
    assert "passage_features" not in json.loads((tmp_path / "old" / "policy.json").read_text())
    loaded = open_policy(tmp_path / "old")
    assert loaded.passage is None
    result = SearchAgent(mini_corpus, LearnedSearchPolicy(mini_corpus, loaded)).run(
        "Who is the mayor of the river town founded by salt merchants?")
    assert result.evidence and result.doc_ids



def test_a_policy_trained_with_agreement_between_searches_keeps_it_and_older_folders_keep_it_off(mini_corpus, tmp_path):
    """`--agreement-weight` (`LearnedConfig.iterative`) is saved in the folder and read back by the backend; the
    untrained prior reads it at the hand-tuned answer's weight (session 36) while a training run keeps it off
    unless asked (the CLI's default agrees); a folder trained without it and folders from before agreement (no
    saved weight) keep it off."""
    import inspect

    from context1.backends.iterative import IterativeConfig
    from context1.backends.learned import LearnedConfig
    from training.cli_search_policy import policy_command

    hand = IterativeConfig().agreement_weight
    assert hand > 0 and PolicyWeights.prior().config.iterative.agreement_weight == hand
    # (and every name links: session 42's common-name rule and session 43's first-search links are the hand-tuned
    # answer's only)
    assert SearchPolicyTrainConfig().learned == LearnedConfig(iterative=IterativeConfig(agreement_weight=0.0,
                                                                                        link_name_share=0.0,
                                                                                        first_search_links=0,
                                                                                        first_search_floor=0.0))
    assert inspect.signature(policy_command).parameters["agreement_weight"].default == 0.0
    off = PolicyWeights.prior(LearnedConfig(iterative=IterativeConfig(agreement_weight=0.0))).save(tmp_path / "off")
    assert open_policy(off).config.iterative.agreement_weight == 0.0
    assert make_backend("learned", corpus=mini_corpus, policy=off).config.agreement_weight == 0.0
    w = PolicyWeights.prior(LearnedConfig(iterative=IterativeConfig(agreement_weight=0.07)))
    out = w.save(tmp_path / "policy")
    assert open_policy(out).config.iterative.agreement_weight == 0.07
    backend = make_backend("learned", corpus=mini_corpus, policy=out)
    assert backend.config.agreement_weight == 0.07  # what its answer-score parts are computed with
    spec = json.loads((out / "policy.json").read_text())
    del spec["config"]["iterative"]["agreement_weight"]  # a folder from before agreement existed
    (out / "policy.json").write_text(json.dumps(spec))
    assert open_policy(out).config.iterative.agreement_weight == 0.0


def test_another_corpus_s_tasks_add_answer_decisions_only_and_are_part_of_the_run(mini_corpus, mini_tasks, tmp_path):
    """Issue 36: a corpus with few deep chains borrows another corpus's. The extra tasks' episodes add
    document and passage decisions to the warm start, never query ones (what to search for is the main
    corpus's own), and they are part of what a resumed run must match."""
    from context1 import AgentConfig
    from training.run_state import RunMismatch
    from training.search_policy import ExtraTasks, warm_start

    tasks = _tasks(mini_corpus, mini_tasks)
    cfg = dataclasses.replace(SMALL, rl_steps=0, doc_min_gold=1)
    _, alone = warm_start(mini_corpus, tasks, cfg, AgentConfig(), lambda m: None)
    logged: list[str] = []
    _, joined = warm_start(mini_corpus, tasks, cfg, AgentConfig(), logged.append, extra=[ExtraTasks(mini_corpus, tasks)])

    def decisions(report, kind):
        return report[kind]["train_decisions"] + report[kind]["val_decisions"]

    assert decisions(alone, "passage") > 0 and decisions(alone, "doc") > 0
    assert decisions(joined, "passage") == 2 * decisions(alone, "passage")  # the same tasks again, elsewhere
    assert decisions(joined, "doc") == 2 * decisions(alone, "doc")
    assert decisions(joined, "query") == decisions(alone, "query")
    assert joined["passage"]["labelled_chunks"] == 2 * alone["passage"]["labelled_chunks"]
    assert any("other corpus" in m for m in logged)

    out = tmp_path / "policy"
    extra = [ExtraTasks(mini_corpus, tasks[:2])]
    train_search_policy(mini_corpus, tasks, out, cfg, extra=extra)
    assert json.loads((out / "run.json").read_text())["config"]["extra"][0]["tasks"]["n"] == 2
    with pytest.raises(RunMismatch):  # resuming with other extra tasks is refused, as any other change is
        train_search_policy(mini_corpus, tasks, out, cfg, extra=[ExtraTasks(mini_corpus, tasks)])


def test_extra_tasks_from_another_corpus_with_no_gold_in_their_index_are_a_clear_error(mini_corpus):
    from training.search_policy import ExtraTasks

    foreign = [Task("f", "Where is the lighthouse of Brannock?", gold_doc_ids=("not-in-this-index",))]
    with pytest.raises(ValueError, match="none of the 1 extra task"):
        ExtraTasks(mini_corpus, foreign).usable()


def test_a_run_from_the_chat_prior_keeps_it_is_held_to_it_and_is_part_of_the_run(mini_corpus, mini_tasks, tmp_path):
    """Issue 34, sessions 37-38: `start="chat"` starts the warm start from the conversation prior: a scorer
    left untrained keeps it, the answer fit is anchored to it, and resuming with another start is refused.
    The default, "auto", starts a corpus of pages (the mini corpus) from the hand-set prior, and says so."""
    from context1 import AgentConfig
    from training.run_state import RunMismatch
    from training.search_policy import NothingLearned, warm_start

    assert SearchPolicyTrainConfig().start == "auto"
    tasks = _tasks(mini_corpus, mini_tasks)
    chat, hand = PolicyWeights.start("chat"), PolicyWeights.prior()
    rng = np.random.default_rng(5)
    x = rng.normal(size=(30, len(PASSAGE_FEATURES)))
    assert not np.array_equal(np.argsort(-chat.passage(x))[:5], np.argsort(-hand.passage(x))[:5])
    cfg = dataclasses.replace(SMALL, rl_steps=0, doc_min_gold=1, start="chat")
    said: list[str] = []
    w, report = warm_start(mini_corpus, tasks, cfg, AgentConfig(), said.append)
    assert report["start"] == "chat" and "warm start: from the chat prior (--start chat)" in said
    assert report["passage"]["chosen"].startswith("prior (too few")  # a dozen tasks: nothing to fit it on
    assert np.array_equal(w.passage(x), chat.passage(x))
    said.clear()
    w, report = warm_start(mini_corpus, tasks, dataclasses.replace(cfg, start="auto"), AgentConfig(), said.append)
    assert report["start"] == "hand" and np.array_equal(w.passage(x), hand.passage(x))
    assert any("from the hand prior (--start auto: the index is no conversation corpus)" in m for m in said)
    # the answer fit held hard to the chat prior ranks as it does, whatever the few decisions say
    train = []
    for _ in range(8):
        xe = rng.normal(size=(12, len(PASSAGE_FEATURES)))
        y = np.zeros(12)
        y[np.argsort(-xe[:, 0])[:2]] = 0.5  # the gold marked by an unrelated feature
        train.append(_Example(xe, y, False, 2))
    held = fit_scorer(train, len(PASSAGE_FEATURES), 0, SearchPolicyTrainConfig(fit_epochs=50), loss="setwise",
                      anchor=chat.passage, anchor_weight=1e6)
    assert np.array_equal(np.argsort(-held(x))[:5], np.argsort(-chat.passage(x))[:5])
    out = tmp_path / "policy"
    with pytest.raises(NothingLearned):  # the same dozen tasks: the run keeps the chat prior, and says so
        train_search_policy(mini_corpus, tasks, out, cfg)
    assert json.loads((out / "run.json").read_text())["config"]["config"]["start"] == "chat"
    with pytest.raises(RunMismatch):
        train_search_policy(mini_corpus, tasks, out, dataclasses.replace(cfg, start="hand"))


def _upside_down(w: PolicyWeights) -> PolicyWeights:
    """The same policy with its document and passage scorers negated: it answers with what the start puts last."""
    flip = lambda s: Scorer(s.mean, s.std, [(-a, -b) for a, b in s.layers])  # noqa: E731
    return PolicyWeights(w.query, flip(w.doc), w.config, dict(w.meta), passage=flip(w.passage))


def test_start_check_keeps_the_start_where_the_trained_policy_falls_below_it_on_held_back_tasks(mini_corpus, mini_tasks):
    """Issue 34: a trained policy below its start on tasks whose decisions it never fitted is not shipped, and the
    verdict says so; one that ties or wins is; no held-back task (or a task whose gold is not in the index) is
    said, never a crash."""
    from context1 import AgentConfig
    from training.search_policy import start_check

    tasks = _tasks(mini_corpus, mini_tasks)
    start = PolicyWeights.prior()
    bad = start_check(mini_corpus, tasks, start, _upside_down(start), AgentConfig())
    assert bad["kept_start"] and bad["trained_pr5"] < bad["start_pr5"] and bad["lost"] > bad["won"] == 0
    assert "START is shipped" in bad["why"] and f"on {len(tasks)} held-back task(s)" in bad["why"]
    same = start_check(mini_corpus, tasks, start, PolicyWeights.prior(), AgentConfig())
    assert not same["kept_start"] and same["won"] == same["lost"] == 0 and "trained policy is shipped" in same["why"]
    none = start_check(mini_corpus, [], start, _upside_down(start), AgentConfig())
    assert none == {"tasks": 0, "kept_start": False, "why": none["why"]} and "unchecked" in none["why"]
    lost = [Task("gone", "Where is the lighthouse of Brannock?", gold_doc_ids=("not-in-this-index",)),
            Task("empty", "Who founded Veldhaven?", gold_doc_ids=())]
    odd = start_check(mini_corpus, lost, start, _upside_down(start), AgentConfig())
    assert odd["start_pr5"] == odd["trained_pr5"] == 0.0 and not odd["kept_start"]


def test_training_ships_its_start_not_a_policy_below_it_and_says_so(mini_corpus, mini_tasks, tmp_path, monkeypatch):
    """`start_check=True`: a warm start that answers worse than its start on the held-back tasks is replaced by
    the start in the folder, the report and the log say so. Off (the default): the policy as before, its report
    without the check (base's report, key for key)."""
    import training.search_policy as sp

    assert SearchPolicyTrainConfig().start_check is False
    monkeypatch.setattr(sp, "warm_start", lambda corpus, tasks, config, agent, log, extra=(): (
        _upside_down(PolicyWeights.start(config.start, config.learned, corpus)), {"query": {"chosen": "linear"}}))
    cfg = dataclasses.replace(SMALL, rl_steps=0, val_fraction=0.6, start_check=True)
    said: list[str] = []
    out = tmp_path / "checked"
    report = train_search_policy(mini_corpus, _tasks(mini_corpus, mini_tasks), out, cfg, log=said.append)
    assert report.start_check["kept_start"] and report.start_check["tasks"] > 0
    assert any(m.startswith("start check: ") and "START is shipped" in m for m in said)
    saved = json.loads((out / "report.json").read_text())
    assert saved["start_check"]["kept_start"] and saved["config"]["start_check"] is True
    shipped, start = open_policy(out), PolicyWeights.prior()
    x = np.random.default_rng(3).normal(size=(20, len(PASSAGE_FEATURES)))
    assert np.allclose(shipped.passage(x), start.passage(x)) and shipped.meta["stage"].startswith("start (kept")
    plain = tmp_path / "plain"
    report = train_search_policy(mini_corpus, _tasks(mini_corpus, mini_tasks), plain,
                                 dataclasses.replace(cfg, start_check=False))
    saved = json.loads((plain / "report.json").read_text())
    assert report.start_check is None and "start_check" not in saved and "start_check" not in saved["config"]
    assert np.allclose(open_policy(plain).passage(x), -start.passage(x))


def test_train_policy_checks_its_start_by_default_and_no_start_check_is_base():
    """`context1 train policy` runs the start check unless told `--no-start-check` (issue 34: never a policy below
    its start); the Python config's default stays off, which is the training before session 51."""
    import inspect

    from training.cli_search_policy import policy_command

    assert inspect.signature(policy_command).parameters["start_check"].default is True
    assert SearchPolicyTrainConfig().start_check is False


def test_the_anchor_is_chosen_on_held_back_decisions_first_listed_on_a_tie_and_off_is_base(tmp_path):
    """Session 52 (issue 34): `doc_anchor_choices` fits the linear answer scorer at each weight and keeps the one that
    ranks the held-back decisions best. Where the decisions point away from the prior (two kinds of gold the prior's
    iterative score does not see) a looser anchor is chosen; where they agree with the prior every weight ties and the
    first listed is kept. Empty (the default) is the fixed `doc_anchor`: the same scorer and report as before, and no
    new key in the run's record."""
    from training.search_policy import _plain_config

    prior = PolicyWeights.prior().doc
    cfg = SearchPolicyTrainConfig(fit_epochs=150, doc_anchor_choices=(100.0, 0.0))
    train, val = _two_kinds_of_gold(120, False, 0), _two_kinds_of_gold(30, True, 1)
    kept, report = choose_scorer(train, val, len(DOC_FEATURES), prior, cfg, kind="doc")
    assert report["anchor"]["chosen"] == 0.0 and set(report["anchor"]["held_back"]) == {"100.0", "0.0"}
    assert report["anchor"]["held_back"]["0.0"] > report["anchor"]["held_back"]["100.0"]
    assert all_in_topk(kept, val) == report["anchor"]["held_back"]["0.0"]
    # decisions the prior already ranks perfectly: every weight ties, the first listed is kept
    rng = np.random.default_rng(5)
    it = DOC_FEATURES.index("iterative_score")

    def agreeing(n: int, val: bool) -> list[_Example]:
        out = []
        for _ in range(n):
            x = rng.normal(size=(12, len(DOC_FEATURES)))
            y = np.zeros(12)
            y[np.argsort(-x[:, it])[:2]] = 0.5
            out.append(_Example(x, y, val, 2))
        return out

    tie = dataclasses.replace(cfg, doc_anchor_choices=(10.0, 1.0))
    _kept, report = choose_scorer(agreeing(40, False), agreeing(20, True), len(DOC_FEATURES), prior, tie, kind="doc")
    assert report["anchor"]["held_back"]["10.0"] == report["anchor"]["held_back"]["1.0"] == 1.0
    assert report["anchor"]["chosen"] == 10.0
    # off: the fixed anchor's fit and report, byte for byte, and the record without the new key
    off = SearchPolicyTrainConfig(fit_epochs=150)
    a, ra = choose_scorer(train, val, len(DOC_FEATURES), prior, off, kind="doc")
    b = fit_scorer(train, len(DOC_FEATURES), 0, off, loss="setwise", anchor=prior, anchor_weight=1.0)
    assert "anchor" not in ra and np.array_equal(a.layers[0][0], b.layers[0][0])
    assert "doc_anchor_choices" not in _plain_config(off)
    assert _plain_config(cfg)["doc_anchor_choices"] == (100.0, 0.0)


def test_train_policy_reads_its_anchor_choices_and_refuses_bad_ones():
    from training.cli_common import CommandError
    from training.cli_search_policy import _anchors

    assert _anchors("") == () and _anchors(" ") == ()
    assert _anchors("1,0.3, 0.1,0") == (1.0, 0.3, 0.1, 0.0)
    for bad, why in (("1,x", "'x' is not a number"), ("-1", "not a weight >= 0"), ("nan", "not a weight >= 0"),
                     ("inf", "not a weight >= 0"), ("1,1.0", "given twice")):
        with pytest.raises(CommandError, match=why):
            _anchors(bad)
