"""The returned passages (issue 34): citations resolved against what was shown, true reasons, the
passage limits, the drivers that rank passages, constraints, and old records that still load."""

from __future__ import annotations

import dataclasses
import json

import pytest

from context1 import AgentConfig, Episode, SearchAgent, StopReason
from context1.answer import parse_citations
from context1.backends.scripted import ScriptedBackend, call, turn
from context1.evidence import question_words, words_held
from context1.prompts import system_prompt
from context1.trajectory_io import trajectory_from_dict, trajectory_to_dict
from corpus_tools import ChunkingConfig, Corpus, CorpusConfig, Document

QUERY = "Who designed the Korrin Bay lighthouse?"


def test_the_prompt_asks_for_chunk_ids_with_an_example():
    text = system_prompt(token_budget=32_768, hard_limit=24_576, max_documents=10, grep_k=5)
    example = text[text.index("the answer to"):]
    cited = parse_citations(example)
    assert [c.raw_ids[0] for c in cited] == ["town-history#0", "harbour-report#4"]
    assert "<Document" not in text


def test_passage_and_document_blocks_both_parse():
    cited = parse_citations('```\n<Passage id="a b#3" score="0.7"><Justification>Why.</Justification></Passage>\n'
                            "<document id=c&amp;d>loose text\n```")
    assert [(c.raw_ids, c.justification, c.score) for c in cited] == [
        (("a b#3",), "Why.", 0.7), (("c&amp;d", "c&d"), "loose text", None)]


def test_only_shown_chunks_are_returned_and_the_trace_says_what_was_dropped(harness_corpus):
    ep = Episode(harness_corpus, QUERY, AgentConfig())
    [obs] = ep.act(turn(call("search_corpus", query="lighthouse")))
    never = next(c.chunk_id for d in harness_corpus.doc_ids() for c in harness_corpus.chunks(d)
                 if c.chunk_id not in obs.chunk_ids)
    ep.act(turn(text=f"<Passage id={never}>x</Passage><Passage id=made-up#1>y</Passage>"
                     f"<Passage id={obs.chunk_ids[2]}>z</Passage><Passage id={obs.chunk_ids[2]}>again</Passage>"))
    traj = ep.trajectory
    assert [e.chunk_id for e in traj.evidence] == [obs.chunk_ids[2]]
    assert traj.metadata["answer_unseen_ids"] == [never, "made-up#1"]
    assert traj.metadata["answer_duplicates"] == [obs.chunk_ids[2]]
    assert traj.metadata["answer_fallback"] is False
    assert [d.doc_id for d in traj.documents] == [traj.evidence[0].doc_id]


def test_an_answer_citing_nothing_shown_falls_back_to_the_passages_in_view(harness_corpus):
    ep = Episode(harness_corpus, QUERY, AgentConfig(max_passages=3))
    [obs] = ep.act(turn(call("search_corpus", query="lighthouse")))
    ep.act(turn(text="<Passage id=made-up#1>y</Passage>"))
    traj = ep.trajectory
    assert traj.metadata["answer_fallback"] is True and traj.metadata["answer_unseen_ids"] == ["made-up#1"]
    assert [e.chunk_id for e in traj.evidence] == list(obs.chunk_ids[:3])


def test_reasons_are_true_of_their_passage(harness_corpus):
    ep = Episode(harness_corpus, QUERY, AgentConfig())
    [first] = ep.act(turn(call("search_corpus", query="lighthouse")))
    ep.act(turn(call("read_document", doc_id=first.doc_ids[0])))
    cited = "".join(f"<Passage id={c}>claimed</Passage>" for c in first.chunk_ids[:5])
    ep.act(turn(text=cited))
    terms = question_words(QUERY)
    assert terms == ["designed", "Korrin", "Bay", "lighthouse"]
    for e in ep.trajectory.evidence:
        assert e.found_by[0] == "lighthouse"
        rank = list(first.chunk_ids).index(e.chunk_id) + 1
        assert f"Found by the search “lighthouse” (#{rank})" in e.reason
        held = words_held(e.text, terms)
        if held:
            assert "Holds the question's " + ", ".join(f"“{w}”" for w in held) in e.reason
        else:
            assert "Holds none of the question's words." in e.reason
        assert "claimed" not in e.reason  # the model's claim is its documents' justification, not the reason
    # a chunk the read showed again carries both showings
    top = ep.trajectory.evidence[0]
    assert top.doc_id == first.doc_ids[0] and top.found_by == ("lighthouse", f"read:{top.doc_id}")


def test_max_passages_and_the_token_cap(harness_corpus):
    cfg = AgentConfig(max_passages=2)
    ep = Episode(harness_corpus, QUERY, cfg)
    [obs] = ep.act(turn(call("search_corpus", query="lighthouse")))
    ep.act(turn(text="".join(f"<Passage id={c}></Passage>" for c in obs.chunk_ids)))
    traj = ep.trajectory
    assert [e.chunk_id for e in traj.evidence] == list(obs.chunk_ids[:2])
    # documents are ranked from every cited passage, not only the two kept
    assert [d.doc_id for d in traj.documents] == list(dict.fromkeys(harness_corpus.chunk(c).doc_id
                                                                    for c in obs.chunk_ids))
    ep = Episode(harness_corpus, QUERY, AgentConfig(max_passage_tokens=1))
    [obs] = ep.act(turn(call("search_corpus", query="lighthouse")))
    ep.act(turn(text="".join(f"<Passage id={c}></Passage>" for c in obs.chunk_ids)))
    assert [e.chunk_id for e in ep.trajectory.evidence] == [obs.chunk_ids[0]]  # the first always stays
    assert ep.trajectory.metadata["evidence_over_token_cap"] == len(obs.chunk_ids) - 1
    with pytest.raises(ValueError, match="max_passages"):
        AgentConfig(max_passages=0)


def test_an_old_trajectory_without_evidence_still_loads(harness_corpus):
    backend = ScriptedBackend([turn(call("search_corpus", query="lighthouse")), "<Document id=korrin-bay></Document>"])
    result = SearchAgent(harness_corpus, backend).run(QUERY)
    saved = trajectory_to_dict(result.trajectory)
    assert trajectory_from_dict(json.loads(json.dumps(saved))).evidence == result.trajectory.evidence
    old = {k: v for k, v in saved.items() if k != "evidence"}
    loaded = trajectory_from_dict(json.loads(json.dumps(old)))
    assert loaded.metadata["evidence"] == "recomputed"
    [e] = loaded.evidence
    assert e.chunk_id == result.evidence[0].chunk_id and e.text == harness_corpus.chunk(e.chunk_id).text
    assert e.reason.startswith("(recomputed from a saved trajectory) Found by the search “lighthouse”")
    # nothing of its documents in the record: the passages are unknown, and it still loads
    bare = {**old, "steps": []}
    loaded = trajectory_from_dict(json.loads(json.dumps(bare)))
    assert loaded.evidence == [] and loaded.metadata["evidence"] == "unknown"
    assert [d.doc_id for d in loaded.documents] == ["korrin-bay"]


# -- the drivers ------------------------------------------------------------------------------
FILLER = ("The condensed consolidated financial statements are unaudited and were prepared in accordance with "
          "generally accepted accounting principles for interim financial information. ")


def _filing(company: str, margin: str, revenue: str) -> Document:
    parts = [f"{company} Quarterly Report on Form 10-Q.", FILLER * 3,
             f"Risk factors. Supply chain disruptions could affect {company}. " + FILLER * 2,
             f"Results of operations. Net sales of {company} were {revenue} for the quarter. " + FILLER,
             f"Gross margin. Total gross margin of {company} was {margin} for the quarter, up from last year. "
             + FILLER,
             "Controls and procedures were effective. " + FILLER * 2]
    return Document(doc_id=f"{company.lower().split()[0]}-10q.txt", text="\n\n".join(parts),
                    title=f"{company} 10-Q")


@pytest.fixture(scope="module")
def filings_corpus(tmp_path_factory):
    docs = [_filing("Korrin Foods", "$36,413 million", "$81,797 million"),
            _filing("Velmora Industries", "$12,020 million", "$40,100 million"),
            _filing("Pellis Marine", "$4,210 million", "$9,900 million")]
    config = CorpusConfig(chunking=ChunkingConfig(chunk_tokens=64, overlap_tokens=0),
                          embedding_cache=str(tmp_path_factory.mktemp("evidence-cache")))
    with Corpus.build(docs, tmp_path_factory.mktemp("evidence") / "index", config=config, progress=False) as c:
        yield c


@pytest.mark.parametrize("backend", ["iterative", "learned"])
def test_the_llm_free_drivers_return_the_passage_that_answers(filings_corpus, backend):
    """A 10-Q is one long document: the answer is one of its passages, not its first chunk."""
    from context1.backends import LearnedSearchPolicy

    policy = None if backend == "iterative" else LearnedSearchPolicy(filings_corpus)
    result = SearchAgent(filings_corpus, policy).run("What was the gross margin of Korrin Foods in the quarter?")
    assert result.stop_reason is StopReason.ANSWERED and 1 <= len(result.evidence) <= 5
    assert any("$36,413 million" in e.text for e in result.evidence[:2])
    assert result.evidence[0].doc_id == "korrin-10q.txt" and result.doc_ids[0] == "korrin-10q.txt"
    shown = set(result.trajectory.seen_chunk_ids())
    assert all(e.chunk_id in shown for e in result.evidence)
    # documents are ranked by their best passage
    firsts = list(dict.fromkeys(e.doc_id for e in result.evidence))
    assert result.doc_ids[: len(firsts)] == firsts


class ConstrainedCorpus:
    """A corpus with issue 35's question constraints, recording what each search was given."""

    def __init__(self, corpus):
        self._corpus = corpus
        self.searches = []

    def __getattr__(self, name):
        return getattr(self._corpus, name)

    def question_constraints(self, question):
        return {"company": ["Korrin Foods"], "unmatched": ["Microsoft"]}

    def search(self, query, k=10, exclude=(), constraints=None, **kw):
        self.searches.append((query, constraints))
        return self._corpus.search(query, k=k, exclude=exclude, **kw)

    def grep(self, pattern, k=5, exclude=()):
        return self._corpus.grep(pattern, k=k, exclude=exclude)

    def read(self, doc_id, query=None, token_budget=None):
        return self._corpus.read(doc_id, query=query, token_budget=token_budget)

    def chunk(self, chunk_id):
        return self._corpus.chunk(chunk_id)

    def has_doc(self, doc_id):
        return self._corpus.has_doc(doc_id)

    def title(self, doc_id):
        return self._corpus.title(doc_id)

    def count_tokens(self, text):
        return self._corpus.count_tokens(text)


def test_question_constraints_go_on_every_search(filings_corpus):
    corpus = ConstrainedCorpus(filings_corpus)
    backend = ScriptedBackend([turn(call("search_corpus", query="gross margin"), call("search_corpus", query="sales")),
                               "<Passage id=korrin-10q.txt#0></Passage>"])
    result = SearchAgent(corpus, backend).run("Gross margin of Korrin Foods and Microsoft?")
    wanted = {"company": ["Korrin Foods"], "unmatched": ["Microsoft"]}
    assert sorted(corpus.searches) == [("gross margin", wanted), ("sales", wanted)]
    assert result.trajectory.metadata["constraints"] == wanted
    assert result.trajectory.metadata["unmatched"] == ["Microsoft"]
    corpus.searches.clear()
    off = SearchAgent(corpus, ScriptedBackend([turn(call("search_corpus", query="gross margin")), "done"]),
                      AgentConfig(constraints=False)).run("Gross margin of Korrin Foods?")
    assert corpus.searches == [("gross margin", None)] and "constraints" not in off.trajectory.metadata


def test_rank_passages_keeps_the_document_order_and_lets_a_documents_second_passage_compete():
    from context1.backends.iterative import DocPart, DocParts, rank_passages

    chunks = {"a#0": ("a", "", ""), "a#1": ("a", "", ""), "b#0": ("b", "", ""), "c#0": ("c", "", ""),
              "d#3": ("d", "", "")}
    rel = {"a#0": 0.9, "a#1": 0.85, "b#0": 0.6, "c#0": 0.5, "d#3": 0.2}
    docs = {d: DocPart(rel[c], c, 0.0, None, "", 0.0, None, "") for d, c in
            (("a", "a#0"), ("b", "b#0"), ("c", "c#0"), ("d", "d#3"))}
    parts = DocParts(docs, chunks, {}, {}, [], "cosine", rel)
    scores = {"a": 0.9, "b": 0.6 + 0.5, "c": 0.5, "d": 0.2}  # b is lifted by a link: it ranks first
    ranked = rank_passages(parts, scores, max_passages=2, cited_docs=["b", "a", "c"])
    assert [c for c, _ in ranked] == ["b#0", "a#0", "c#0"]  # a#1 is past the first two places; d is not cited
    assert dict(ranked)["b#0"] == pytest.approx(1.1)
    ranked = rank_passages(parts, scores, max_passages=3, cited_docs=["b", "a", "c"])
    assert [c for c, _ in ranked] == ["b#0", "a#0", "a#1", "c#0"]  # a's second passage competes for place 3
    # the first search's top chunks: always cited, in search order, keeping their place unless beaten by the margin
    ranked = rank_passages(parts, scores, max_passages=2, cited_docs=["b", "a"], first=["d#3", "c#0"], margin=0.8)
    assert [c for c, _ in ranked] == ["b#0", "d#3", "c#0", "a#0"]  # b (1.1) beats d (0.2) by 0.8; a (0.9) does not
    # a kept passage ties the passage it held back (a, 0.9), capped by the one above: scores never rise
    assert [s for _, s in ranked] == pytest.approx([1.1, 0.9, 0.9, 0.9])


def test_the_first_search_rule_keeps_its_top_chunks_in_place(filings_corpus):
    """With a margin no later evidence beats, the answer's top passages are the first search's, in its order."""
    from context1.backends.iterative import IterativeConfig, IterativeRetrievalPolicy

    question = "What was the gross margin of Korrin Foods in the quarter?"
    policy = IterativeRetrievalPolicy(filings_corpus, IterativeConfig(first_search_margin=100.0, first_search_keep=5,
                                                                      first_search_rule="insert"))
    result = SearchAgent(filings_corpus, policy).run(question)
    first = result.trajectory.steps[0].observations[0]
    assert first.tool == "search_corpus" and first.metadata["scores"]
    assert [e.chunk_id for e in result.evidence] == list(first.chunk_ids[:5])
    # without the rule the answer prefers the gold filing's other passages over the first search's 4th and 5th
    off = IterativeRetrievalPolicy(filings_corpus, IterativeConfig(first_search_margin=0.0, first_search_rule="insert"))
    plain = SearchAgent(filings_corpus, off).run(question)
    assert plain.trajectory.steps[0].observations[0].chunk_ids == first.chunk_ids
    assert [e.chunk_id for e in plain.evidence] != list(first.chunk_ids[:5])
    # the default rule: those passages win on relevance alone, which the first search already ranked
    # by, so they do not displace its chunks (the top 5 are the first search's, best first)
    default = SearchAgent(filings_corpus, config=AgentConfig(refound=False)).run(question)
    assert {e.chunk_id for e in default.evidence} == set(first.chunk_ids[:5])
    # with the later searches' agreement recorded (`AgentConfig.refound`, the default since session 35), agreement is
    # the evidence the first search lacked: the asked company's passage the later searches re-found more takes the
    # place of another company's (this corpus has no company metadata, so no constraint keeps the first top 5)
    agreed = SearchAgent(filings_corpus).run(question)
    assert [e.chunk_id for e in agreed.evidence][:3] == list(first.chunk_ids[:3])
    assert {e.chunk_id for e in agreed.evidence} - set(first.chunk_ids[:5]) == {"korrin-10q.txt#4"}


def test_a_later_passage_replaces_a_first_search_chunk_only_with_evidence_the_first_search_lacked():
    from context1.backends.iterative import (
        DocPart,
        DocParts,
        IterativeConfig,
        link_bonus,
        rank_passages,
        replace_first_search,
    )

    first = ["f1#0", "f2#0", "f3#0", "f4#0", "f5#0"]  # the first search's top 5; f5 (gold, say) scores low
    rel = {"f1#0": 0.9, "f2#0": 0.8, "f3#0": 0.7, "f4#0": 0.6, "f5#0": 0.3, "x#0": 0.75, "y#0": 0.5}
    chunks = {c: (c[:-2], "", "") for c in rel}
    links = {"y": 0.9}  # a relevant passage of f1 names y: evidence no single search has
    docs = {c[:-2]: DocPart(r, c, links.get(c[:-2], 0.0), "f1" if c == "y#0" else None, "", 0.0, None, "")
            for c, r in rel.items()}
    parts = DocParts(docs, chunks, {}, {}, [], "cosine", rel)
    bonus = link_bonus(parts, IterativeConfig(first_search_links=0))
    scores = {d: p.relevance + bonus[d] for d, p in docs.items()}  # y: 0.5 + 0.5 * 0.9 = 0.95
    ranked = rank_passages(parts, scores, 5)
    assert [c for c, _ in ranked][:5] == ["y#0", "f1#0", "f2#0", "x#0", "f3#0"]  # unprotected: f4 and f5 drop out
    out = replace_first_search(parts, scores, ranked, first, 5, 0.1, bonus)
    # y (linked) takes the weakest first-search place (f5); x beats f4 on relevance alone and does not
    assert [c for c, _ in out][:5] == ["y#0", "f1#0", "f2#0", "f3#0", "f4#0"]
    assert {c for c, _ in out} == set(rel)  # every document still cited, after the head
    assert all(a >= b for (_, a), (_, b) in zip(out, out[1:], strict=False))  # scores never rise down the list
    # without the evidence test, any margin win replaces: x takes f4's place
    loose = replace_first_search(parts, scores, ranked, first, 5, 0.1, None)
    assert [c for c, _ in loose][:5] == ["y#0", "f1#0", "f2#0", "x#0", "f3#0"]
    # no linked passage at all: the head is exactly the first search's top 5
    plain = {d: p.relevance for d, p in docs.items()}
    no_links = DocParts({d: dataclasses.replace(p, link=0.0) for d, p in docs.items()}, chunks, {}, {}, [], "cosine", rel)
    out = replace_first_search(no_links, plain, rank_passages(no_links, plain, 5), first, 5, 0.1,
                               link_bonus(no_links, IterativeConfig(first_search_links=0)))
    assert [c for c, _ in out][:5] == first


class _NamedFilings:
    """A corpus stand-in for the answer step only: it parses the question's constraints (or none)."""

    def __init__(self, constraints):
        self.constraints = constraints

    def question_constraints(self, question):
        return self.constraints

    def count_tokens(self, text):
        return max(1, len(text) // 4)


def test_a_question_naming_its_filing_keeps_its_first_search_top_5():
    """Issue 34, never worse than one search: a company's other filing is named by (so linked to) a passage
    of the filing the question names, and that link must not displace the constrained search's own passages."""
    from context1.backends.iterative import IterativeConfig, IterativeRetrievalPolicy
    from context1.backends.llm_free import Ranking

    question = "What was Orchard's gross margin in the first quarter of 2023?"
    first = [(f"orchard-q1.pdf#{i}", "orchard-q1.pdf", "Orchard Q1 10-Q", f"Gross margin table part {i}.")
             for i in range(5)]
    first[0] = (*first[0][:3], "Compared with the Orchard Annual Report, gross margin for the quarter was $49,975 million.")
    later = [("orchard-annual.pdf#7", "orchard-annual.pdf", "Orchard Annual Report", "Gross margin for the year.")]
    rankings = [Ranking("h1-search", "search_corpus", question, first, 1.0, 0),
                Ranking("r1-s0-e0", "search_corpus", "Orchard Annual Report gross margin", later, 0.8, 1)]
    cfg = IterativeConfig(cosine_scoring=False)

    def answer(constraints, config=cfg):
        text = IterativeRetrievalPolicy(_NamedFilings(constraints), config)._answer(question, rankings, config)
        return [c.raw_ids[-1] for c in parse_citations(text)][:5]

    named = {"company": ["Orchard Computer, Inc."], "period_end": ["2022-12-31"], "unmatched": [], "notes": []}
    assert answer(named) == [c for c, *_ in first]  # the constrained search's top 5, in its order
    # The same link on a corpus without company metadata (a multi-hop question) still earns its place,
    # and so it did with constraints before this rule: the named filing's fifth passage was pushed out.
    assert "orchard-annual.pdf#7" in answer({})
    assert "orchard-annual.pdf#7" in answer(named, dataclasses.replace(cfg, constrained_keeps_first=False))
    # A parse that names nothing the corpus holds (only unmatched names) narrows nothing either.
    assert "orchard-annual.pdf#7" in answer({"company": [], "unmatched": ["Microsoft"], "notes": []})


# -- reasons that say how a table's rows name the line item asked for ------------------------------
GROSS_Q = "What was Amazon's gross margin in the most recent 10-Q filing?"
STATEMENT = ("(in millions) | Q3 2023 | Q3 2022\nNet product sales | 63,171 | 59,340\nTotal net sales | 143,083 | 127,101\n"
             "Operating expenses: Cost of sales | 75,022 | 70,268\nOperating expenses: Fulfillment | 22,314 | 20,583")


def _table(text: str, found_by: tuple[str, ...] = (GROSS_Q,), kind: str = "table"):
    from context1.evidence import ShownPassage

    return ShownPassage("f#1", "f", text, 1, 0, metadata={"kind": kind}, found_by=list(found_by),
                        ranks=[1] * len(found_by))


def _reason(passage, line_items: bool = True) -> str:
    from context1.evidence import passage_reason

    return passage_reason(passage, question_words(GROSS_Q), None, line_items)


def test_a_reason_names_a_derived_item_only_when_all_its_components_are_rows():
    """Amazon prints no gross-profit row: its statement's "Total net sales" and "Cost of sales" rows are what
    the row match counted (corpus_tools.line_items.derived_named), and the reason says so; a table printing
    only one of the two says nothing of gross margin."""
    both = _reason(_table(STATEMENT))
    assert ("Its rows “Total net sales”, “Operating expenses: Cost of sales” print what “gross margin” is "
            "computed from (revenue, cost of revenue).") in both
    one = _reason(_table(STATEMENT.replace("Operating expenses: Cost of sales", "Operating expenses: Marketing")))
    assert "“gross margin”" not in one and "computed from" not in one


def test_a_reason_names_the_row_that_calls_the_item_by_another_name():
    text = "Revenue | 18,120 | 5,931\nCost of revenue | 4,720 | 2,754\nGross profit | 13,400 | 3,177"
    assert "Its row “Gross profit” is the “gross margin” asked for, under another name." in _reason(_table(text))
    # a row in the question's own words needs no vocabulary: the words it holds say it
    literal = _reason(_table("Total net sales | 1 | 2\nCost of sales | 3 | 4\nGross margin | 5 | 6"))
    assert "Its row" not in literal and "computed from" not in literal


@pytest.mark.parametrize("case", ["vocabulary off", "prose", "found by grep only"])
def test_no_line_item_clause_where_the_search_did_not_use_the_vocabulary(case):
    passage = _table(STATEMENT, found_by=("grep:(?i)net sales",) if case == "found by grep only" else (GROSS_Q,),
                     kind="text" if case == "prose" else "table")
    reason = _reason(passage, line_items=case != "vocabulary off")
    assert "computed from" not in reason and "another name" not in reason


def test_the_agent_knows_when_its_corpus_ranks_tables_by_line_items(harness_corpus):
    from types import SimpleNamespace

    from context1.evidence import ranks_by_line_items

    assert ranks_by_line_items(harness_corpus) is True  # corpus_tools' default SearchConfig
    off = SimpleNamespace(config=SimpleNamespace(search=SimpleNamespace(line_item_names=False)))
    assert ranks_by_line_items(off) is False and ranks_by_line_items(object()) is False


class _NamedFilingsWithVectors(_NamedFilings):
    """As `_NamedFilings`, with the stored-vector cosine the answer step reads (`Corpus.similarity`)."""

    def __init__(self, constraints, cosine):
        super().__init__(constraints)
        self.cosine = cosine

    def similarity(self, query, ids):
        return [self.cosine[c] for c in ids]


def test_a_named_filings_first_5_are_rechosen_from_its_top_6_by_the_agents_relevance():
    """Issue 34: the constrained question keeps its first search, but which 5 of its top 6: the 6th passage, which
    reads far closer to the question than the 5th (MD&A prose beside a table row), takes the 5th's place; the
    first 4 stay whatever their cosine (the hop-1 rank bonus); a later search's passage never enters."""
    from context1.backends.iterative import IterativeConfig, IterativeRetrievalPolicy
    from context1.backends.llm_free import Ranking

    question = "What is the relationship between NVIDIA's R&D spending and new GPU technologies in Q1 2023?"
    first = [(f"nvda-q1.pdf#{i}", "nvda-q1.pdf", "NVIDIA Q1 10-Q", f"Passage {i}.") for i in range(6)]
    later = [("nvda-q1.pdf#40", "nvda-q1.pdf", "NVIDIA Q1 10-Q", "Research and development investments.")]
    rankings = [Ranking("h1-search", "search_corpus", question, first, 1.0, 0),
                Ranking("r1-s0-e0", "search_corpus", "GPU research", later, 0.8, 1)]
    cosine = {"nvda-q1.pdf#0": 0.30, "nvda-q1.pdf#1": 0.20, "nvda-q1.pdf#2": 0.35, "nvda-q1.pdf#3": 0.30,
              "nvda-q1.pdf#4": 0.20, "nvda-q1.pdf#5": 0.60, "nvda-q1.pdf#40": 0.95}
    named = {"company": ["NVIDIA Corporation"], "period_end": ["2023-04-30"], "unmatched": [], "notes": []}

    def answer(constraints, config=IterativeConfig()):  # the answer's first 5 passages, as a set
        text = IterativeRetrievalPolicy(_NamedFilingsWithVectors(constraints, cosine), config)._answer(
            question, rankings, config)
        return sorted([c.raw_ids[-1] for c in parse_citations(text)][:5])

    got = answer(named, IterativeConfig(constrained_first_pool=6))
    assert got == sorted(f"nvda-q1.pdf#{i}" for i in (0, 1, 2, 3, 5))  # #5 in, #4 (the weakest) out; #40 never
    # constrained_first_pool 5, the default, is the search's own top 5 (session 31's rule), whatever the cosine
    assert answer(named) == sorted(f"nvda-q1.pdf#{i}" for i in range(5))
    assert answer(named, IterativeConfig(constrained_first_pool=5)) == sorted(f"nvda-q1.pdf#{i}" for i in range(5))
    assert answer(named, IterativeConfig(constrained_first_pool=2)) == sorted(f"nvda-q1.pdf#{i}" for i in range(5))
    # a question naming no documents keeps its first search's own top 5 (no link here earns a place): unchanged
    assert answer({}) == sorted(f"nvda-q1.pdf#{i}" for i in range(5))
