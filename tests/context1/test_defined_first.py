"""The answer opens with the passage defining what the question names (issue 34, session 41: `AgentConfig.defined_first`).

A documentation index of our own: Flask-like pages where two tutorial pages say SECRET_KEY many times and
config.rst defines it (`.. py:data:: SECRET_KEY`, the chunk's "defines" metadata). A scripted answer cites the
defining passage second, or not at all; the harness puts it first, and leaves every other answer as it is.
"""

from __future__ import annotations

import pytest

from context1 import AgentConfig, Episode, SearchAgent
from context1.backends.scripted import call, turn
from context1.evidence import ShownPassage, defined_first, defines_asked
from corpus_tools import Corpus, CorpusConfig

QUERY = "What does SECRET_KEY do?"


@pytest.fixture(scope="module")
def docs_corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("docs")
    mentions = "\n\n".join(f"What does SECRET_KEY do, step {i}? What SECRET_KEY does, SECRET_KEY does."
                           for i in range(3))
    (root / "tutorial.md").write_text(f"# Tutorial\n\n{mentions}\n", encoding="utf-8")
    (root / "deploy.md").write_text(f"# Deploying\n\n{mentions}\n", encoding="utf-8")
    (root / "config.rst").write_text("Configuration\n=============\n\n.. py:data:: SECRET_KEY\n\n"
                                     "    Used for securely signing the session cookie.\n", encoding="utf-8")
    config = CorpusConfig(embedding_cache=str(tmp_path_factory.mktemp("docs-embedding-cache")))
    path = tmp_path_factory.mktemp("docs-index") / "index"
    with Corpus.build(root, path, config=config, progress=False) as corpus:
        yield corpus


def _ids(corpus) -> tuple[str, list[str]]:
    """The defining chunk's id, and the other chunks' ids."""
    chunks = [c for d in corpus.doc_ids() for c in corpus.chunks(d)]
    [defining] = [c.chunk_id for c in chunks if c.metadata.get("defines") == "SECRET_KEY"]
    return defining, [c.chunk_id for c in chunks if c.chunk_id != defining]


def _episode(corpus, answer: str, query: str = QUERY, **config) -> Episode:
    ep = Episode(corpus, query, AgentConfig(**config))
    ep.act(turn(call("search_corpus", query=query)))
    ep.act(turn(text=answer))
    return ep


def _cite(*ids: str) -> str:
    return "".join(f"<Passage id={c}>why</Passage>" for c in ids)


def test_a_cited_defining_passage_moves_first_and_off_keeps_the_answers_order(docs_corpus):
    defining, others = _ids(docs_corpus)
    answer = _cite(others[0], defining, others[1])
    on = _episode(docs_corpus, answer).trajectory
    assert [e.chunk_id for e in on.evidence] == [defining, others[0], others[1]]
    assert on.metadata["defined_first"] == defining
    assert "Defines “SECRET_KEY”" in on.evidence[0].reason
    scores = [e.score for e in on.evidence]
    assert scores == sorted(scores, reverse=True)  # scores never rise down the list
    assert on.documents[0].doc_id == "config.rst"
    off = _episode(docs_corpus, answer, defined_first=False).trajectory
    assert [e.chunk_id for e in off.evidence] == [others[0], defining, others[1]]
    assert "defined_first" not in off.metadata


def test_a_shown_defining_passage_the_answer_did_not_cite_opens_it(docs_corpus):
    defining, others = _ids(docs_corpus)
    ep = _episode(docs_corpus, _cite(others[0], others[1]))
    assert defining in ep.seen_chunk_ids()
    assert [e.chunk_id for e in ep.trajectory.evidence] == [defining, others[0], others[1]]
    # an answer that cites nothing shown falls back to the passages in view: the rule holds there too
    fallback = _episode(docs_corpus, "<Passage id=made-up#1>y</Passage>").trajectory
    assert fallback.metadata["answer_fallback"] is True and fallback.evidence[0].chunk_id == defining


def test_nothing_moves_when_the_question_names_no_defined_name(docs_corpus):
    defining, others = _ids(docs_corpus)
    answer = _cite(others[0], defining)
    for query in ("How do I sign the session cookie?",  # names no code
                  "SECRET_KEY and the session cookie",  # a heading-like phrase, not a question
                  "What does TESTING do?"):  # a name no passage defines
        traj = _episode(docs_corpus, answer, query=query).trajectory
        assert [e.chunk_id for e in traj.evidence] == [others[0], defining], query
        assert "defined_first" not in traj.metadata
    already = _episode(docs_corpus, _cite(defining, others[0])).trajectory  # already first: nothing to record
    assert [e.chunk_id for e in already.evidence] == [defining, others[0]] and "defined_first" not in already.metadata


def test_the_llm_free_agent_opens_with_the_definition(docs_corpus):
    defining, _ = _ids(docs_corpus)
    result = SearchAgent(docs_corpus).run(QUERY)
    assert result.evidence[0].chunk_id == defining
    off = SearchAgent(docs_corpus, config=AgentConfig(defined_first=False)).run(QUERY)
    assert sorted(e.chunk_id for e in off.evidence) == sorted(e.chunk_id for e in result.evidence)
    assert AgentConfig().defined_first is True  # on by default


def test_bad_defines_metadata_defines_nothing():
    def passage(cid: str, defines: object, rank: int) -> ShownPassage:
        return ShownPassage(cid, cid.split("#")[0], "SECRET_KEY text", rank, rank, metadata={"defines": defines})

    bad = [passage("a#0", 3, 1), passage("b#0", None, 2), passage("c#0", "", 3), passage("d#0", ["SECRET_KEY"], 4)]
    assert not any(defines_asked(p, QUERY) for p in bad)
    assert defined_first(bad, {p.chunk_id: p for p in bad}, QUERY) is None
    good = passage("e#0", "TESTING, SECRET_KEY", 9)
    assert defines_asked(good, QUERY) and defines_asked(good, "what does secret_key do?")  # "_" names: any case
    assert not defines_asked(good, "") and not defines_asked(good, "SECRET_KEY")  # no question: no rule
    shown = {p.chunk_id: p for p in [*bad, good]}
    assert defined_first(bad, shown, QUERY) is good  # not cited: the best-ranked shown one
    assert defined_first([good, *bad], shown, QUERY) is None  # already first


def test_a_papers_acronym_only_used_by_the_question_opens_nothing():
    """A paper's definition opens the answer only when the question asks what the acronym means (as `Corpus.search`
    lifts it: defined_names.asked_defines). The agent's shown passages keep a few metadata keys, not the file's
    name: read from the passage's own document id, a question that only uses "CLRs" no longer moves the paper's
    definition of CLRs above the passage it asks about (session 50: the agent lost hit@1 on 8 of 8 such tuning
    proxies against one search)."""
    defining = ShownPassage("aries.pdf#2", "aries.pdf", "compensation log records (CLRs) are written", 3, 2,
                            metadata={"defines": "CLRs, CLR"})
    asked = ShownPassage("aries.pdf#9", "aries.pdf", "During undo the CLRs are forced to the log", 1, 0)
    shown = {p.chunk_id: p for p in (asked, defining)}
    use = "During undo are the CLRs forced to the log?"
    assert not defines_asked(defining, use)
    assert defined_first([asked, defining], shown, use) is None
    assert defines_asked(defining, "What does CLR stand for?")  # asked what it means: it still opens the answer
    assert defined_first([asked, defining], shown, "What does CLR stand for?") is defining
    docs_page = ShownPassage("config.rst#0", "config.rst", "SECRET_KEY", 1, 0, metadata={"defines": "SECRET_KEY"})
    assert defines_asked(docs_page, "How is SECRET_KEY used?")  # documentation's names: any question naming them
