"""Questions across manual pages (session 50, datagen/man_hops.py, `--mix man_hops`).

The pages are tests/fixtures/man_hops (made up): gadget_read's errors are gadget_open2's, whose errors are
gadget_open's; the glibc gadget_peek() wrapper invokes gadget_read(2) and names a gadget_stat(2) the folder does not
have; ping_gadget and pong_gadget each point at the other's errors (a cycle).
"""

from __future__ import annotations

import random
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from corpus_tools.chunking import ChunkingConfig, chunk_document
from corpus_tools.loaders import load_documents
from datagen.doc_manpages import man_facts
from datagen.man_hops import (
    BRIDGE_FORM,
    CALLS,
    COMPARE_FORM,
    ERRORS_OF,
    man_chains,
    man_comparisons,
    man_links,
)
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts
from datagen.types import Candidate, DropReason
from datagen.verify import check_candidate

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "man_hops"


class _Words:
    def offsets(self, text):
        return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]

    def count(self, text):
        return len(text.split())


def _pages(folder: Path = FIXTURES):
    chunks = {}
    for doc in load_documents(folder, man=True).documents:
        chunks[doc.doc_id] = chunk_document(doc, _Words(), ChunkingConfig(chunk_tokens=120, overlap_tokens=10))
    facts = {d: man_facts(d, cs, Counter()) for d, cs in chunks.items()}
    texts = {d: "\n\n".join(c.text for c in cs) for d, cs in chunks.items()}
    return chunks, facts, texts


def test_links_are_the_sentences_that_state_them_and_a_call_never_documented_is_counted():
    chunks, _facts, _texts = _pages()
    funnel: Counter = Counter()
    links = {(link.fact.doc_id, link.target, link.fact.relation): link for link in man_links(chunks, funnel)}
    assert set(links) == {
        ("man2/gadget_open2.2", "man2/gadget_open.2", ERRORS_OF),
        ("man2/gadget_read.2", "man2/gadget_open2.2", ERRORS_OF),
        ("man2/gadget_peek.2", "man2/gadget_read.2", CALLS),
        ("man2/ping_gadget.2", "man2/pong_gadget.2", ERRORS_OF),
        ("man2/pong_gadget.2", "man2/ping_gadget.2", ERRORS_OF),
    }
    # SEE ALSO names gadget_open2 on gadget_open's page: no link; gadget_stat(2) is in no page of the folder
    assert funnel["link_target_not_in_folder"] == 1
    peek = links[("man2/gadget_peek.2", "man2/gadget_read.2", CALLS)]
    assert peek.how == "wrapper" and peek.source == ("gadget_peek",)
    # the quote is the page's own words, so the passage verifies the hop
    chunk = next(c for c in chunks["man2/gadget_peek.2"] if c.chunk_id == peek.fact.chunk_id)
    assert peek.fact.sentence in chunk.text and "gadget_read(2)" in peek.fact.sentence


def test_chains_of_two_to_four_pages_answer_on_the_last_page_and_a_cycle_is_refused():
    chunks, facts, texts = _pages()
    funnel: Counter = Counter()
    chains = {c.question: c for c in man_chains(man_links(chunks, funnel), facts, texts, funnel)}
    two = chains["Which error can gadget_open2 return when another process has locked the gadget in exclusive mode?"]
    assert two.docs == ("man2/gadget_open2.2", "man2/gadget_open.2") and two.answer.answer == "EGADGETBUSY"
    three = chains["Which error can gadget_read return when another process has locked the gadget in exclusive mode?"]
    assert three.docs == ("man2/gadget_read.2", "man2/gadget_open2.2", "man2/gadget_open.2")
    four = chains["Which error can the system call that the glibc gadget_peek() wrapper invokes return when the gadget "
                  "has not finished warming up after power on?"]
    assert len(four.docs) == 4 and four.answer.answer == "EGADGETCOLD"
    # every answer is on the last page only: an earlier page would answer alone
    for c in chains.values():
        assert all(c.answer.answer not in texts[d] for d in c.docs[:-1]), c.question
        assert c.answer.answer in c.answer.sentence
    # ping → pong → ping is a cycle: counted, never asked
    assert funnel["refused:3:cycle"] == 2
    assert not any(c.docs.count(d) > 1 for c in chains.values() for d in c.docs)
    assert (funnel["asked:2"], funnel["asked:3"], funnel["asked:4"]) == (6, 3, 2)


def test_a_comparison_pairs_related_pages_and_answers_the_earlier_version():
    chunks, facts, texts = _pages()
    funnel: Counter = Counter()
    compared = {c.question: c for c in man_comparisons(facts, chunks, texts, funnel)}
    assert compared["Which came to Linux first, gadget_open or gadget_open2?"].first.subject == "gadget_open"
    assert compared["Which came to Linux first, ping_gadget or pong_gadget?"].first.subject == "pong_gadget"
    # gadget_open (4.2) and ping_gadget (4.2) name each other in no SEE ALSO: not compared
    assert len(compared) == 2 and funnel["compare:asked"] == 2


def _generator(folder: Path = FIXTURES, config: NaturalConfig | None = None):
    chunks = [c for cs in _pages(folder)[0].values() for c in cs]
    mined = mine(chunks)
    config = config or NaturalConfig()
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline(), man=bool(config.doc_man)), config)
    return gen, mined, chunks


def _written(gen, mined, chunks, hops: int) -> list[Candidate]:
    rng, out = random.Random(0), []
    for _ in range(40):
        if gen.exhausted(hops) is not None:
            break
        c = gen.propose(hops, rng)
        if isinstance(c, Candidate):
            verdict = check_candidate(c, {d: mined.doc_text(d) for d in mined.chunks},
                                      {ch.chunk_id: ch.text for ch in chunks}, mined.titles)
            assert verdict.accepted, (c.question, verdict.details)
            gen.commit(c)
            out.append(c)
    return out


def test_the_generator_writes_verified_chains_and_holds_comparisons_to_their_share():
    gen, mined, chunks = _generator()
    two = _written(gen, mined, chunks, 2)
    forms = Counter(c.metadata["form"] for c in two)
    assert forms[BRIDGE_FORM] >= 3 and forms[COMPARE_FORM] <= 0.2 * len(two) + 1e-9
    for c in two:
        assert c.hops == 2 and [i.contains_truth for i in c.supporting] == [False, True] or c.metadata["form"] == COMPARE_FORM
    three = _written(gen, mined, chunks, 3)
    assert three and all(c.hops == 3 and c.metadata["form"] == BRIDGE_FORM for c in three)
    assert "manual pages' only multi-hop tasks" in gen.single_fill()
    assert gen.stages["man_hop:asked:3"] == 3


def test_hops_four_on_pages_with_no_four_page_chain_writes_none_and_says_why(tmp_path):
    folder = tmp_path / "pages"
    shutil.copytree(FIXTURES, folder)
    (folder / "man2" / "gadget_peek.2").unlink()  # the only page that starts a chain of four
    gen, mined, chunks = _generator(folder)
    assert _written(gen, mined, chunks, 4) == []
    why = gen.exhausted(4)
    assert why is not None and "manual pages: 0 path(s) of 4 pages" in why
    assert gen.man_funnel["refused:3:cycle"] == 2 and gen.man_funnel["asked:3"] == 2  # ping → pong → ping, counted
    assert isinstance(gen.propose(4, random.Random(0)), DropReason)


def test_the_mix_key_off_asks_nothing_across_pages():
    assert NaturalConfig().man_hops == 1.0 and parse_mix("man_hops=0") == {"man_hops": 0.0}
    with pytest.raises(ValueError):
        NaturalConfig(man_hops=1.5)
    gen, mined, chunks = _generator(config=NaturalConfig(man_hops=0.0))
    assert not any(c.metadata["form"] in (BRIDGE_FORM, COMPARE_FORM) for c in _written(gen, mined, chunks, 2))
    assert not any(k.startswith("man_hop:") for k in gen.stages)


def test_the_command_with_hops_four_on_pages_with_no_four_page_chain_exits_zero_and_says_why(tmp_path):
    import typer
    from typer.testing import CliRunner

    from corpus_tools import Corpus, CorpusConfig
    from datagen.cli import register

    folder = tmp_path / "pages"
    shutil.copytree(FIXTURES, folder)
    (folder / "man2" / "gadget_peek.2").unlink()
    Corpus.build(folder, tmp_path / "index", config=CorpusConfig(embedding_cache=str(tmp_path / "c")), progress=False).close()
    import eval.cli

    app = typer.Typer()
    register(app)
    eval.cli.register(app)  # two commands: `datagen` is a subcommand, as in `context1`
    result = CliRunner().invoke(app, ["datagen", str(tmp_path / "index"), str(tmp_path / "out"), "--n", "12", "--hops", "2-4",
                                      "--keep-easy", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "4-hop tasks: 0 written; no more because" in result.output
    assert "manual pages: 0 path(s) of 4 pages along stated links" in result.output
    tasks = [line for line in (tmp_path / "out" / "tasks.jsonl").read_text(encoding="utf-8").splitlines() if line]
    assert 0 < len(tasks) <= 12 and '"man_bridge"' in "".join(tasks)
