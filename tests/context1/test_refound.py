"""Re-found chunks (issue 34): a later search still never re-shows a chunk, but records which chunks already shown it
matched again and at what rank, so an answer can count agreement between searches."""

from __future__ import annotations

import json

import pytest

from context1 import AgentConfig, Episode, SearchAgent, load_trajectories, save_trajectories, trajectory_from_dict
from context1.answer import parse_citations
from context1.backends.iterative import IterativeConfig, IterativeRetrievalPolicy, agreement
from context1.backends.llm_free import Ranking, visible_rankings
from context1.backends.scripted import call, turn
from context1.context import replay_messages
from context1.prompts import read_refound, render_refound
from context1.trajectory_io import trajectory_to_dict

QUERY = "Who designed the lighthouse of Korrin Bay?"


def test_a_later_search_records_the_shown_chunks_it_matched_again(harness_corpus):
    ep = Episode(harness_corpus, QUERY, AgentConfig(refound=True))
    [first] = ep.act(turn(call("search_corpus", query="lighthouse")))
    [again] = ep.act(turn(call("search_corpus", query="lighthouse keeper")))
    assert first.chunk_ids and again.chunk_ids
    assert not set(first.chunk_ids) & set(again.chunk_ids)  # dedup as before: nothing shown twice
    assert first.metadata["refound"] == []  # nothing was shown before the first search
    # Where the query ranks each chunk with nothing excluded; the re-found ones are those already shown.
    ranking = [h.chunk.chunk_id for h in harness_corpus.search("lighthouse keeper", k=AgentConfig().search_k)]
    expected = [[cid, rank] for rank, cid in enumerate(ranking, 1) if cid in first.chunk_ids]
    assert expected and again.metadata["refound"] == expected
    # ... and the result says so in one line a driver can read back.
    assert read_refound(again.text) == [tuple(x) for x in expected]
    assert '[Also matched, shown before: "' in again.text
    # Off: no second ranking, no line, no record.
    off = Episode(harness_corpus, QUERY, AgentConfig(refound=False))
    off.act(turn(call("search_corpus", query="lighthouse")))
    [plain] = off.act(turn(call("search_corpus", query="lighthouse keeper")))
    assert "refound" not in plain.metadata and "Also matched" not in plain.text
    assert plain.chunk_ids == again.chunk_ids  # the same chunks are shown either way


def test_the_calls_of_one_turn_refind_each_others_chunks(harness_corpus):
    ep = Episode(harness_corpus, QUERY, AgentConfig(refound=True))
    first, second = ep.act(turn(call("search_corpus", query="lighthouse"), call("search_corpus", query="lighthouse")))
    assert not set(first.chunk_ids) & set(second.chunk_ids)
    refound = [cid for cid, _rank in second.metadata["refound"]]
    assert refound[: len(first.chunk_ids)] == list(first.chunk_ids)  # the same query: every shown chunk, in order


class _FailingProbe:
    """A corpus whose search fails when asked without exclusions after the first call: the re-found probe."""

    def __init__(self, corpus):
        self._corpus, self.calls = corpus, 0

    def search(self, query, k=10, exclude=(), **kw):
        self.calls += 1
        if self.calls > 1 and not exclude:
            raise ConnectionError("store went away")
        return self._corpus.search(query, k=k, exclude=exclude, **kw)

    def __getattr__(self, name):
        return getattr(self._corpus, name)


def test_a_failing_probe_keeps_the_search_and_says_why(harness_corpus):
    ep = Episode(_FailingProbe(harness_corpus), QUERY, AgentConfig(refound=True))
    ep.act(turn(call("search_corpus", query="lighthouse")))
    [again] = ep.act(turn(call("search_corpus", query="lighthouse keeper")))
    assert not again.is_error and again.chunk_ids
    assert "refound" not in again.metadata and "store went away" in again.metadata["refound_error"]
    assert "Also matched" not in again.text


class _FailsAfterFirst:
    """A corpus whose every search after the first raises (a store that goes down mid-episode)."""

    def __init__(self, corpus):
        self._corpus, self.calls = corpus, 0

    def search(self, *args, **kw):
        self.calls += 1
        if self.calls > 1:
            raise ConnectionError("store went away")
        return self._corpus.search(*args, **kw)

    def __getattr__(self, name):
        return getattr(self._corpus, name)


def test_a_corpus_failing_in_later_searches_leaves_the_first_searchs_answer(harness_corpus):
    question = "Which engineer designed the Korrin Bay lighthouse and which harbour did Dask build?"
    config = IterativeConfig(cosine_scoring=False, agreement_weight=0.5, agreement_evidence=True)
    result = SearchAgent(_FailsAfterFirst(harness_corpus), IterativeRetrievalPolicy(config=config),
                         AgentConfig(refound=True)).run(question)
    steps = result.trajectory.steps
    first = steps[0].observations[0]
    failed = [o for s in steps[1:] for o in s.observations if o.tool == "search_corpus"]
    assert failed and all(o.is_error and "store went away" in o.text for o in failed)  # the trace says so
    # The earlier answer stands: the first search's top 5 (ordered by the policy's own score).
    assert {e.chunk_id for e in result.evidence[:5]} == set(first.chunk_ids[:5])


def _policy_answer(rankings, weight: float) -> list[str]:
    cfg = IterativeConfig(cosine_scoring=False, agreement_weight=weight)
    text = IterativeRetrievalPolicy(None, cfg)._answer("Where did the falls' explorer die?", rankings, cfg)
    return [c.raw_ids[-1] for c in parse_citations(text)]


def test_the_answer_ranks_a_refound_passage_above_an_equal_one_found_once():
    hop1 = [("intro#0", "intro", "Intro", "An overview of the falls.")]
    # Two bridge searches of equal weight each show one passage first: equal relevance. The second search also
    # matched the first one's passage again (shown before, so not re-shown): two searches agree on it.
    a = ("b-explorer#0", "b-explorer", "B explorer", "The explorer died at Chitambo.")
    b = ("a-river#0", "a-river", "A river", "The river below the falls.")
    rankings = [Ranking("h1-search", "search_corpus", "falls explorer", hop1, 1.0, 0),
                Ranking("r1-s0-e0", "search_corpus", "explorer falls", [a], 0.8, 1),
                Ranking("r1-s0-e1", "search_corpus", "river falls", [b], 0.8, 1, refound=[(a[0], 2)])]
    assert agreement(rankings) == {a[0]: pytest.approx(5 / 6)}  # one term beyond its best: the re-finding search's rank 2
    off, on = _policy_answer(rankings, 0.0), _policy_answer(rankings, 0.1)
    assert off.index(b[0]) < off.index(a[0])  # without agreement the tie goes by document id
    assert on.index(a[0]) < on.index(b[0])


def test_refound_round_trips_and_old_trajectories_load(harness_corpus, tmp_path):
    result = SearchAgent(harness_corpus, config=AgentConfig(refound=True)).run(QUERY)
    record = [o.metadata["refound"] for s in result.trajectory.steps[1:] for o in s.observations
              if o.tool == "search_corpus"]
    assert any(record)  # the LLM-free policy's bridge searches match chunks its first search showed
    path = tmp_path / "t.jsonl"
    save_trajectories(path, [result.trajectory])
    [back] = load_trajectories(path)
    assert [o.metadata.get("refound") for s in back.steps for o in s.observations] == \
        [o.metadata.get("refound") for s in result.trajectory.steps for o in s.observations]
    assert any(r.refound for r in visible_rankings(replay_messages(back), IterativeConfig()))
    # An old record: no re-found record, no note in the text. It loads and reads as no agreement.
    old = json.loads(json.dumps(trajectory_to_dict(result.trajectory)))
    for step in old["steps"]:
        for obs in step["observations"]:
            obs["metadata"].pop("refound", None)
            obs["text"] = "\n".join(x for x in obs["text"].split("\n") if not x.startswith("[Also matched"))
    traj = trajectory_from_dict(old)
    rankings = visible_rankings(replay_messages(traj), IterativeConfig())
    assert rankings and not any(r.refound for r in rankings)
    assert agreement(rankings) == {}
    # ... and is answered under agreement as without it (nothing re-found is known, nothing is made up).
    answers = []
    for weight in (0.0, 0.5):
        cfg = IterativeConfig(agreement_weight=weight, agreement_evidence=True)
        answers.append(IterativeRetrievalPolicy(harness_corpus, cfg)._answer(QUERY, rankings, cfg))
    assert answers[0] == answers[1]


def test_refound_note_escapes_quotes():
    line = render_refound([('say "hi"#0', 1), ("AT&T#2", 7)])
    assert read_refound("chunks...\n\n" + line + "\n\n[Token usage: 1/2]") == [('say "hi"#0', 1), ("AT&T#2", 7)]
    assert render_refound([]) == "" and read_refound("no note") == []


def test_the_untrained_prior_reads_agreement_and_an_old_policy_folder_none():
    from context1.backends.learned import LearnedConfig

    assert IterativeConfig().agreement_weight > 0  # the LLM-free answer's tuned rule
    # the untrained prior reads what the hand-tuned answer reads (session 36) ...
    assert LearnedConfig().iterative.agreement_weight == IterativeConfig().agreement_weight
    # ... a folder saved before agreement existed reads none (training's own default: tests/training)
    assert LearnedConfig.from_dict({"iterative": {"hybrid_weight": 0.35}}).iterative.agreement_weight == 0.0
    assert LearnedConfig.from_dict({"iterative": {"agreement_weight": 0.05}}).iterative.agreement_weight == 0.05


# ---------------------------------------------------------------- one corpus call (session 35)


class _Counting:
    """Forwards to a real Corpus and counts the calls of each kind; `search_pair` is the class's own, so the harness
    sees a corpus that offers it (a forwarding `__getattr__` alone would not: see `tools._pairs`)."""

    def __init__(self, corpus, fail_pair: bool = False):
        self._corpus, self.fail_pair, self.calls = corpus, fail_pair, []

    def search(self, *args, **kw):
        self.calls.append("search")
        return self._corpus.search(*args, **kw)

    def search_pair(self, *args, **kw):
        self.calls.append("search_pair")
        if self.fail_pair:
            raise ConnectionError("store went away")
        return self._corpus.search_pair(*args, **kw)

    def __getattr__(self, name):
        return getattr(self._corpus, name)


class _CountingEncoder:
    def __init__(self, embedder):
        self._embedder, self.queries = embedder, []

    def encode_query(self, texts):
        self.queries.extend(texts)
        return self._embedder.encode_query(texts)

    def __getattr__(self, name):
        return getattr(self._embedder, name)


def test_on_by_default_and_each_search_is_one_corpus_call_encoding_its_query_once(harness_corpus, monkeypatch):
    assert AgentConfig().refound  # on by default since the record costs one corpus call, not two
    encoder = _CountingEncoder(harness_corpus.embedder)
    monkeypatch.setattr(harness_corpus, "embedder", encoder)
    counting = _Counting(harness_corpus)
    ep = Episode(counting, QUERY, AgentConfig())
    [first] = ep.act(turn(call("search_corpus", query="lighthouse")))
    [again] = ep.act(turn(call("search_corpus", query="lighthouse keeper")))
    assert counting.calls == ["search", "search_pair"]  # the first search excludes nothing: its own order is the ranking
    assert encoder.queries == ["lighthouse", "lighthouse keeper"]
    # The record is the one two separate calls give (session 34's): the unexcluded top 10's shown chunks, ranked.
    ranking = [h.chunk.chunk_id for h in harness_corpus.search("lighthouse keeper", k=AgentConfig().search_k)]
    expected = [[cid, rank] for rank, cid in enumerate(ranking, 1) if cid in first.chunk_ids]
    assert expected and again.metadata["refound"] == expected
    plain = harness_corpus.search("lighthouse keeper", k=2 * AgentConfig().search_k, exclude=first.chunk_ids)
    assert list(again.chunk_ids) == [h.chunk.chunk_id for h in plain][: len(again.chunk_ids)]


def test_search_pair_is_both_searches_exactly(office_corpus):
    """`Corpus.search_pair` returns what `search` returns for each of its two argument sets, constraints included."""
    queries = ["revenue for the quarter", "What was Acme's net income in the latest 10-Q?", "risk factors"]
    for query in queries:
        base = office_corpus.search(query, k=10, constraints="auto")
        exclude = [h.chunk.chunk_id for h in base[:4]]
        for constraints in (None, "auto"):
            hits, unexcluded = office_corpus.search_pair(query, k=20, exclude=exclude, unexcluded_k=10,
                                                         constraints=constraints)
            want = office_corpus.search(query, k=20, exclude=exclude, constraints=constraints)
            want_all = office_corpus.search(query, k=10, constraints=constraints)
            assert [(h.chunk.chunk_id, h.score, dict(h.ranks)) for h in hits] == \
                [(h.chunk.chunk_id, h.score, dict(h.ranks)) for h in want]
            assert [(h.chunk.chunk_id, h.score) for h in unexcluded] == [(h.chunk.chunk_id, h.score) for h in want_all]
            assert not set(exclude) & {h.chunk.chunk_id for h in hits}
            assert set(exclude) & {h.chunk.chunk_id for h in unexcluded}  # the excluded ones, ranked again


def test_search_pair_refuses_bad_input_as_search_does(office_corpus):
    from corpus_tools.types import EmptyQueryError

    with pytest.raises(EmptyQueryError):
        office_corpus.search_pair("  ", k=10, exclude=["x#0"])
    with pytest.raises(ValueError, match="unexcluded_k"):
        office_corpus.search_pair("revenue", k=10, exclude=["x#0"], unexcluded_k=0)
    with pytest.raises(TypeError):
        office_corpus.search_pair("revenue", k=10, exclude=["x#0"], unexcluded_k="10")


def test_a_failing_pair_call_keeps_the_search_and_says_why(harness_corpus):
    counting = _Counting(harness_corpus, fail_pair=True)
    ep = Episode(counting, QUERY, AgentConfig())
    [first] = ep.act(turn(call("search_corpus", query="lighthouse")))
    [again] = ep.act(turn(call("search_corpus", query="lighthouse keeper")))
    assert counting.calls == ["search", "search_pair", "search"]  # the search is asked alone once the pair fails
    assert not again.is_error and again.chunk_ids and not set(first.chunk_ids) & set(again.chunk_ids)
    assert "refound" not in again.metadata and "store went away" in again.metadata["refound_error"]
    assert "Also matched" not in again.text
