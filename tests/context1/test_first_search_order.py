"""Issue 34, "never worse than one search", on documentation (session 42): the answer keeps the first search's order.

A documentation page's file name or title is an ordinary word ("options", "arguments"), so the passage the question's
own search ranks first names the other pages, and each inherited half of its relevance as a "link"
(`IterativeRetrievalPolicy.doc_parts`): re-sorted by that score, main's answer opened with another page.
`IterativeConfig.first_search_order` keeps the first search's top chunks in its order."""

from __future__ import annotations

import dataclasses

import pytest

from context1 import AgentConfig, SearchAgent
from context1.answer import parse_citations
from context1.backends.iterative import (
    DocPart,
    DocParts,
    IterativeConfig,
    IterativeRetrievalPolicy,
    link_bonus,
    rank_passages,
    replace_first_search,
)
from context1.backends.llm_free import Ranking
from corpus_tools import ChunkingConfig, Corpus, CorpusConfig, Document

QUESTION = ("Generally, combining the handling of options and arguments from your own commands with those from "
            "another application is discouraged.")

# A documentation folder of our own: the question is a sentence of guide/advanced.md, whose text names the
# "options" and "arguments" pages by their file names.
DOCS = [
    Document(doc_id="guide/advanced.md", title="Advanced Patterns", text=(
        "Forwarding unknown options. Generally, combining the handling of options and arguments from your own "
        "commands with those from another application is discouraged, and you should avoid it if possible. "
        "Pass the unprocessed arguments on to the other program instead.")),
    Document(doc_id="guide/options.md", title="Options", text=(
        "Adding options to commands is done with the option decorator. Options are optional, have a name and "
        "a default, and their handling is the same for every command.")),
    Document(doc_id="guide/arguments.md", title="Arguments", text=(
        "Arguments are positional. The handling of arguments is simpler than that of options; arguments cannot "
        "be documented in the help page.")),
    Document(doc_id="guide/testing.md", title="Testing", text=(
        "The test runner invokes a command and captures its output. Use it to check exit codes.")),
    Document(doc_id="guide/prompts.md", title="Prompts", text=(
        "A prompt asks the user for input when an option is missing on the command line.")),
]


@pytest.fixture(scope="module")
def docs_corpus(tmp_path_factory) -> Corpus:
    config = CorpusConfig(chunking=ChunkingConfig(chunk_tokens=64, overlap_tokens=8),
                          embedding_cache=str(tmp_path_factory.mktemp("docs-order-cache")))
    with Corpus.build(DOCS, tmp_path_factory.mktemp("docs-order") / "index", config=config, progress=False) as corpus:
        yield corpus


def test_the_agent_opens_with_the_first_searchs_top_passage_on_documentation(docs_corpus):
    result = SearchAgent(docs_corpus).run(QUESTION)
    first = result.trajectory.steps[0].observations[0]
    assert first.tool == "search_corpus" and first.chunk_ids[0] == "guide/advanced.md#0"
    # the first search's top 5, in its order (main opened with arguments.md, linked by its file name)
    assert [e.chunk_id for e in result.evidence] == list(first.chunk_ids[:5])


def test_off_is_mains_order_the_head_re_sorted_by_the_policys_score(docs_corpus):
    off = IterativeRetrievalPolicy(docs_corpus, IterativeConfig(first_search_order=False, link_name_share=0.0,
                                                                first_search_new_documents=False,
                                                                first_search_keeps_top=False))
    result = SearchAgent(docs_corpus, off, AgentConfig()).run(QUESTION)
    first = result.trajectory.steps[0].observations[0].chunk_ids[:5]
    ids = [e.chunk_id for e in result.evidence]
    assert set(ids) == set(first)  # the same five passages ...
    assert ids[0] != "guide/advanced.md#0"  # ... but a page linked by its ordinary-word name opens them


def test_the_answer_step_keeps_the_order_a_link_by_name_would_overturn():
    """The answer step alone, ranks for relevance (no vectors): options.md, 3rd in the first search, is named by the
    top passage ("options"), and its inherited link lifts it above that passage."""
    first = [("guide/advanced.md#0", "guide/advanced.md", "Advanced Patterns", "Handling of options is discouraged."),
             ("guide/testing.md#0", "guide/testing.md", "Testing", "The test runner."),
             ("guide/options.md#2", "guide/options.md", "Options", "Options have a default.")]
    rankings = [Ranking("h1-search", "search_corpus", QUESTION, first, 1.0, 0)]

    def answer(order: bool) -> list[str]:
        cfg = IterativeConfig(cosine_scoring=False, first_search_order=order, link_name_share=0.0 if not order else 0.2)
        text = IterativeRetrievalPolicy(None, cfg)._answer(QUESTION, rankings, cfg)
        return [c.raw_ids[-1] for c in parse_citations(text)]

    assert answer(True) == [c for c, *_ in first]
    assert answer(False)[0] == "guide/options.md#2"  # main: 5/7 + 0.5 * 1.0 > 1.0


def test_a_passage_that_earns_a_place_takes_the_place_of_the_one_it_displaced():
    first = ["f1#0", "f2#0", "f3#0", "f4#0", "f5#0"]
    rel = {"f1#0": 0.9, "f2#0": 0.8, "f3#0": 0.7, "f4#0": 0.6, "f5#0": 0.3, "y#0": 0.5}
    chunks = {c: (c[:-2], "", "") for c in rel}
    docs = {c[:-2]: DocPart(r, c, 0.9 if c == "y#0" else 0.0, "f1" if c == "y#0" else None, "", 0.0, None, "")
            for c, r in rel.items()}
    parts = DocParts(docs, chunks, {}, {}, [], "cosine", rel)
    bonus = link_bonus(parts, IterativeConfig(first_search_links=0))
    scores = {d: p.relevance + bonus[d] for d, p in docs.items()}  # y: 0.5 + 0.45 = 0.95, above f1
    ranked = rank_passages(parts, scores, 5)
    kept = replace_first_search(parts, scores, ranked, first, 5, 0.1, bonus, keep_order=True)
    assert [c for c, _ in kept] == ["f1#0", "f2#0", "f3#0", "f4#0", "y#0", "f5#0"]  # y in f5's place, f5 after
    assert all(a >= b for (_, a), (_, b) in zip(kept, kept[1:], strict=False))  # scores never rise down the list
    # main's order (keep_order False): the same five, y first by its score
    resorted = replace_first_search(parts, scores, ranked, first, 5, 0.1, bonus)
    assert [c for c, _ in resorted][:5] == ["y#0", "f1#0", "f2#0", "f3#0", "f4#0"]
    # fewer first-search chunks than places: the policy's best fill the places after them
    short = replace_first_search(parts, scores, ranked, first[:2], 5, 0.1, bonus, keep_order=True)
    assert [c for c, _ in short][:2] == ["f1#0", "f2#0"]


def test_the_flags_are_fields_with_their_defaults_on():
    assert IterativeConfig().first_search_order is True and IterativeConfig().link_name_share == 0.2
    off = dataclasses.replace(IterativeConfig(), first_search_order=False, link_name_share=0.0)
    assert (off.first_search_order, off.link_name_share) == (False, 0.0)


def _linking(share: float, pages: int) -> tuple[float, str]:
    """options.md's link and via when the top passage writes "options" and `pages` other pages write it too."""
    top = ("guide/advanced.md#0", "guide/advanced.md", "Advanced Patterns", "Forwarding unknown options to a program.")
    page = ("guide/options.md#0", "guide/options.md", "Options", "The option decorator.")
    others = [(f"guide/p{i}.md#0", f"guide/p{i}.md", f"Page {i}", "Click options, again.") for i in range(pages)]
    others += [(f"guide/q{i}.md#0", f"guide/q{i}.md", f"Other {i}", "Nothing in common.") for i in range(10 - pages)]
    rankings = [Ranking("h1-search", "search_corpus", QUESTION, [top, page, *others], 1.0, 0)]
    cfg = IterativeConfig(cosine_scoring=False, link_name_share=share)
    part = IterativeRetrievalPolicy(None, cfg).doc_parts(QUESTION, rankings, cfg).docs["guide/options.md"]
    return part.link, part.via


def test_a_page_name_written_by_many_of_the_pages_seen_links_none_of_them():
    # 12 pages seen; "options" in the top passage and in 3 others (4 of 12 >= 0.2 share, >= 3): no link
    assert _linking(0.2, 3) == (0.0, "")
    # in the top passage and one other page only (2 of 12): still a name, the link stands (a bridge's second hop)
    link, via = _linking(0.2, 1)
    assert link > 0 and via == "options"
    # 0 (main): every name links, however common
    link, via = _linking(0.0, 8)
    assert link > 0 and via == "options"


def test_the_share_applies_to_documents_not_chunks():
    from context1.backends.iterative import common_names_dropped

    names = {"a": ["options"], "b": ["bridge town"]}
    chunks = {f"x#{i}": ("x", "", "") for i in range(5)} | {"y#0": ("y", "", ""), "z#0": ("z", "", "")}
    texts = {c: " options bridge town " if c.startswith("x") else " nothing " for c in chunks}
    # five chunks of one document write both names: one document of three, under 3 documents
    assert common_names_dropped(names, chunks, texts, 0.2) == names
    texts |= {"y#0": " options ", "z#0": " options "}
    assert common_names_dropped(names, chunks, texts, 0.2) == {"a": [], "b": ["bridge town"]}


def test_the_learned_policy_reads_every_name_as_before():
    """The common-name rule was measured on the hand-tuned policy only: the learned policy's features stay main's."""
    from context1.backends.learned import LearnedConfig

    assert LearnedConfig().iterative.link_name_share == 0.0
    assert LearnedConfig.from_dict({"iterative": {"agreement_weight": 0.05}}).iterative.link_name_share == 0.0
    saved = LearnedConfig.from_dict(LearnedConfig(iterative=IterativeConfig(link_name_share=0.2)).to_dict())
    assert saved.iterative.link_name_share == 0.2  # a folder that saved the rule keeps it
