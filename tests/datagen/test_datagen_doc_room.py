"""A documentation run that stops early leaves no question unasked (issue 36, session 45: `doc_room`).

A page whose facts are all asked stayed in the single-hop draw (every article is a key of the generator's
relations, most with none), and drawn it could only fail (`no_answer_span`). On HTTPX + pytest at `--n 2000` such
pages were most of the pool, so "200 failed proposals in a row" ended the run with option questions unasked on the
few pages that had some. Here: twenty pages of one note each and one page of eight, with a patience of 8.
Old code (9354232): the run gives up on "8 failed proposals in a row" with questions left.
"""

from __future__ import annotations

import pytest

from corpus_tools.types import Chunk
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.pipeline import GenerateConfig, generate
from datagen.relations import read_facts

NAMES = ["ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT", "GOLF", "HOTEL", "INDIA", "JULIET", "KILO", "LIMA",
         "MIKE", "NOVEMBER", "OSCAR", "PAPA", "QUEBEC", "ROMEO", "SIERRA", "TANGO", "UNIFORM", "VICTOR", "WHISKEY",
         "XRAY", "YANKEE", "ZULU", "AMBER", "BASALT"]


def _entry(name: str, version: str) -> str:
    return f".. py:data:: {name}_LIMIT\n\n   How many {name.lower()} items Quokka keeps.\n\n   .. versionadded:: {version}\n"


def _chunks() -> list[Chunk]:
    pages = {f"quokka/page{i}.rst": (f"Page {i}", f"Page {i}\n=======\n\nQuokka reads this setting.\n\n"
                                     + _entry(NAMES[i], f"1.{i}")) for i in range(20)}
    pages["quokka/reference.rst"] = ("Reference", "Reference\n=========\n\nQuokka reads these settings.\n\n"
                                     + "\n".join(_entry(NAMES[20 + i], f"2.{i}") for i in range(8)))
    return [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": title}) for d, (title, text) in pages.items()]


@pytest.fixture(scope="module")
def folder():
    mined = mine(_chunks())
    return mined, read_facts(mined, load_pipeline())


def _run(folder, tmp_path, config: NaturalConfig, seed: int):
    mined, facts = folder
    gen = NaturalGenerator(mined, facts, config)
    report = generate(gen, mined, tmp_path / f"tasks-{seed}-{id(config)}.jsonl",
                      GenerateConfig(n=100, hops=(1,), seed=seed, drop_easy=False, patience=8))
    left = sum(len(gen._unasked(d)) for d in gen._page_cap)
    return gen, report, left


def test_the_folder_has_a_question_a_note(folder) -> None:
    mined, facts = folder
    gen = NaturalGenerator(mined, facts)
    assert sum(len(gen._unasked(d)) for d in gen._page_cap) == 28


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_run_asks_every_note_and_says_why_it_stopped(folder, tmp_path, seed: int) -> None:
    """Old code: the spent pages stayed in the draw; with a patience of 8 the run gave up with notes unasked."""
    gen, report, left = _run(folder, tmp_path, NaturalConfig(), seed)
    assert left == 0 and report.written == 28
    assert sum(report.drops.values()) == 0  # no proposal drawn from a spent page
    assert "every question the documentation pages' facts give is written" in report.given_up[1]
    assert all(d not in gen._single_pool() for d in gen._page_cap)


def test_off_is_the_old_draw(folder, tmp_path) -> None:
    """`--mix doc_room=0`: spent pages stay in the draw and the run gives up on failed proposals, notes left."""
    assert parse_mix("doc_room=0") == {"doc_room": 0.0}
    stopped = [_run(folder, tmp_path, NaturalConfig(doc_room=0.0), seed) for seed in (0, 1, 2)]
    assert all("failed proposals in a row" in r.given_up[1] for _, r, _ in stopped)
    assert any(left > 0 for _, _, left in stopped)


def test_a_share_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="doc_room"):
        NaturalConfig(doc_room=2.0)
    with pytest.raises(ValueError, match="doc_room"):
        parse_mix("doc_room=x")


def _bridged(tmp_path, config: NaturalConfig, seed: int):
    """A run over the two-project folder of the documentation bridges' tests, whose reference page holds notes that
    both bridges and comparisons use."""
    from tests.datagen.test_datagen_doc_bridges import _chunks as bridged_chunks

    mined = mine(bridged_chunks())
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline(), release_names=True), config)
    report = generate(gen, mined, tmp_path / f"bridged-{seed}-{id(config)}.jsonl",
                      GenerateConfig(n=100, hops=(2,), seed=seed, drop_easy=False, patience=8))
    left = {d: len(gen._unasked(d)) for d in gen._page_cap if gen._unasked(d)}
    return gen, report, left


@pytest.mark.parametrize("seed", [0, 1])
def test_two_page_questions_leave_a_page_its_single_hop_questions(tmp_path, seed: int) -> None:
    """Old code: a bridge or comparison used one of the page's uses, whose cap is its usual 3 plus one per fact, so
    the notes' own questions were left at the cap (HTTPX + pytest: 10 option questions, 13 release days)."""
    gen, report, left = _bridged(tmp_path, NaturalConfig(comparison_share=1.0), seed)
    assert report.by_hops[2] >= 2  # bridges and comparisons were written
    assert not left, left
    _, off, held = _bridged(tmp_path, NaturalConfig(comparison_share=1.0, doc_room=0.0), seed)
    assert held and off.written < report.written


def test_a_fact_verification_refuses_is_not_drawn_again(folder) -> None:
    """Old code: a page fact whose candidate verification refuses (HTTPX + pytest: an `opt:default` whose answer names
    nothing, `empty_answer`) stayed unasked and was drawn again, 318 times at `--n 2000`; off keeps drawing it."""
    import random

    from datagen.types import Candidate, DropReason

    mined, facts = folder
    for room, kept in ((1.0, 27), (0.0, 28)):
        gen = NaturalGenerator(mined, facts, NaturalConfig(doc_room=room))
        found = gen.propose(1, random.Random(0))
        assert isinstance(found, Candidate)
        gen.refuse(found, DropReason.EMPTY_ANSWER)
        assert sum(len(gen._unasked(d)) for d in gen._page_cap) == kept


def test_the_pipeline_tells_the_generator_what_it_refused(folder, tmp_path) -> None:
    """Old code: nothing told the generator; a duplicate (or a verification refusal) was drawn again and again."""
    import random

    from datagen.types import DropReason

    mined, facts = folder
    first = NaturalGenerator(mined, facts).propose(1, random.Random(0))
    refused: list[DropReason] = []

    class Again:  # proposes one candidate for ever
        def propose(self, hops, rng):
            return first

        def commit(self, candidate) -> None:
            pass

        def refuse(self, candidate, reason) -> None:
            refused.append(reason)

    report = generate(Again(), mined, tmp_path / "again.jsonl",
                      GenerateConfig(n=5, hops=(1,), seed=0, drop_easy=False, patience=3))
    assert report.written == 1 and refused == [DropReason.DUPLICATE] * 3
