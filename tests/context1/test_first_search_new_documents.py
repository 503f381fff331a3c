"""Issue 34, "never worse than one search" (session 42, second round): which first-search passage a later one may
displace (`replace_first_search`).

On the documentation tuning proxies the answer's top 5 still lost gold first-search passages to a linked page's
*other* passages when that page was already in the head (Click's prompts.md #1 / #2 for parameter-types.md#9), and once
the first search's top passage itself (FastAPI's manually.md#5). `IterativeConfig.first_search_new_documents`: only a
passage of a document the head does not cite yet displaces one; `first_search_keeps_top`: the top one never is."""

from __future__ import annotations

import dataclasses

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

OFF = {"first_search_new_documents": False, "first_search_keeps_top": False}  # 0ffd2a9's answer


def _parts(rel: dict[str, float], linked: dict[str, float]) -> tuple[DocParts, dict[str, float], dict[str, float]]:
    """Parts, document scores and link evidence: every chunk "doc#i" of relevance `rel`; `linked`: document -> the
    relevance of the (other) passage that names it."""
    chunks = {c: (c.split("#")[0], "", "") for c in rel}
    best: dict[str, str] = {}
    for c, r in rel.items():
        d = chunks[c][0]
        if d not in best or r > rel[best[d]]:
            best[d] = c
    docs = {d: DocPart(rel[c], c, linked.get(d, 0.0), "x" if d in linked else None, "", 0.0, None, "")
            for d, c in best.items()}
    parts = DocParts(docs, chunks, {}, {}, [], "cosine", rel)
    bonus = link_bonus(parts, IterativeConfig(first_search_links=0))
    scores = {d: p.relevance + bonus[d] for d, p in docs.items()}
    return parts, scores, bonus


def test_a_document_already_in_the_head_displaces_nothing():
    # p (2nd in the first search) is linked; its other passages p#1, p#2 outscore f4 / f5 by its link
    first = ["f1#0", "p#0", "f3#0", "f4#0", "f5#0"]
    rel = {"f1#0": 0.9, "p#0": 0.8, "f3#0": 0.7, "f4#0": 0.5, "f5#0": 0.4, "p#1": 0.75, "p#2": 0.7, "y#0": 0.3}
    parts, scores, bonus = _parts(rel, {"p": 0.9, "y": 0.9})
    ranked = rank_passages(parts, scores, 5)
    main = replace_first_search(parts, scores, ranked, first, 5, 0.1, bonus, keep_order=True)
    assert [c for c, _ in main][:5] == ["f1#0", "p#0", "f3#0", "p#2", "p#1"]  # 0ffd2a9: p fills f4's, f5's places
    new = replace_first_search(parts, scores, ranked, first, 5, 0.1, bonus, keep_order=True, cited_evidence={})
    # p#1 / p#2 displace nothing (p is cited); y, a document the head lacks, still takes the weakest one's place
    assert [c for c, _ in new][:5] == ["f1#0", "p#0", "f3#0", "f4#0", "y#0"]
    assert "f5#0" in [c for c, _ in new]  # displaced, still among the answer's passages
    assert all(a >= b for (_, a), (_, b) in zip(new, new[1:], strict=False))  # scores never rise down the list


def test_the_first_searchs_top_passage_is_never_displaced():
    # the top passage scores lowest of the head (other pages carry links); a linked page beats it by the margin
    first = ["t#0", "a#0", "b#0", "c#0", "d#0"]
    rel = {"t#0": 0.6, "a#0": 0.9, "b#0": 0.85, "c#0": 0.8, "d#0": 0.75, "z#0": 0.5}
    parts, scores, bonus = _parts(rel, {"z": 0.9})  # z: 0.5 + 0.45 = 0.95 > t's 0.6 + 0.1
    ranked = rank_passages(parts, scores, 5)
    main = replace_first_search(parts, scores, ranked, first, 5, 0.1, bonus, keep_order=True)
    assert [c for c, _ in main][0] == "z#0"  # 0ffd2a9: t, the weakest, is the one replaced
    kept = replace_first_search(parts, scores, ranked, first, 5, 0.1, bonus, keep_order=True, keep_top=True)
    assert [c for c, _ in kept][:5] == ["t#0", "a#0", "b#0", "c#0", "z#0"]  # z takes d's place, the next weakest
    # a head of the top passage alone: nothing left to displace, the top 1 stands
    alone = replace_first_search(parts, scores, ranked, first[:1], 1, 0.1, bonus, keep_order=True, keep_top=True)
    assert [c for c, _ in alone][0] == "t#0"


def test_the_flags_are_fields_with_their_defaults_on_and_off_is_0ffd2a9():
    cfg = IterativeConfig()
    assert cfg.first_search_new_documents is True and cfg.first_search_keeps_top is True
    off = dataclasses.replace(cfg, **OFF)
    assert (off.first_search_new_documents, off.first_search_keeps_top) == (False, False)


QUESTION = "How are values converted when the user enters them?"


def _answer(**fields) -> list[str]:
    """The answer step alone, ranks for relevance (no vectors): prompts.md#0 is 2nd in the question's own search and
    its file name "prompts" is written in the top passage (a link); a later search finds two more of its passages."""
    first = [("guide/types.md#9", "guide/types.md", "Parameter Types", "Values typed at the prompts are strings."),
             ("guide/prompts.md#0", "guide/prompts.md", "Prompts", "Prompts ask for input."),
             ("guide/a.md#0", "guide/a.md", "A", "Converting values."),
             ("guide/b.md#0", "guide/b.md", "B", "Entering values."),
             ("guide/c.md#0", "guide/c.md", "C", "User values.")]
    later = [("guide/prompts.md#1", "guide/prompts.md", "Prompts", "A prompt converts the value."),
             ("guide/prompts.md#2", "guide/prompts.md", "Prompts", "Confirmation prompts.")]
    rankings = [Ranking("h1-search", "search_corpus", QUESTION, first, 1.0, 0),
                Ranking("r1-s0-e0", "search_corpus", "prompts value", later, 1.0, 1)]
    cfg = IterativeConfig(cosine_scoring=False, **fields)
    text = IterativeRetrievalPolicy(None, cfg)._answer(QUESTION, rankings, cfg)
    return [c.raw_ids[-1] for c in parse_citations(text)][:5]


def test_the_agents_answer_keeps_first_search_passages_a_cited_page_would_take():
    on = _answer()
    assert on == ["guide/types.md#9", "guide/prompts.md#0", "guide/a.md#0", "guide/b.md#0", "guide/c.md#0"]
    off = _answer(**OFF)  # 0ffd2a9: the linked page's other passages take the last places
    assert "guide/prompts.md#1" in off and "guide/c.md#0" not in off
