"""Where a conversation run's questions end (issue 36): once every session under its use cap is spent,
a session whose questions outnumber its cap gives the rest (up to `cap_overflow` times the cap), and a
run whose facts are all asked stops on that reason at once, not on "200 failed proposals in a row"
counted as `no_answer_span` drops (the generator had drawn from an empty pool 200 times)."""

from __future__ import annotations

import random

import pytest

from corpus_tools.types import Chunk
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator
from datagen.nlp import load_pipeline
from datagen.pipeline import GenerateConfig, generate
from datagen.relations import read_facts
from datagen.types import Candidate

TITLE = "Priya & Tom, session 3 (9:15 am on 14 March, 2024)"
# six acts in one session of two passages: more questions than its cap (5 a passage) when each act is
# asked undated and by its day
LINES = [
    "Tom: I built a treehouse last week.", "Tom: I painted a mural yesterday.",
    "Tom: I adopted a parrot last Friday.", "Tom: I sold my old van last month.",
    "Tom: I joined a rowing club last weekend.", "Tom: I baked a lemon cake this morning.",
]


def _session() -> list[Chunk]:
    return [Chunk(f"me/s3#{i}", "me/s3", "\n".join(LINES[3 * i : 3 * i + 3]), i, 30, {"title": TITLE}) for i in range(2)]


def _draw(config: NaturalConfig) -> tuple[NaturalGenerator, list[str]]:
    mined = mine(_session())
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline()), config)
    rng = random.Random(0)
    written: list[str] = []
    for _ in range(200):
        c = gen.propose(1, rng)
        if isinstance(c, Candidate) and c.question not in written:
            written.append(c.question)
            gen.commit(c)
    return gen, written


def test_a_spent_chat_corpus_gives_the_questions_held_at_the_cap() -> None:
    """Old code: 10 tasks (the cap, 2 passages x 5) and 3 questions never written, although no other
    session had one left."""
    gen, written = _draw(NaturalConfig())
    capped, held = _draw(NaturalConfig(cap_overflow=1.0))
    assert len(held) == 10 and len(written) > 10
    assert set(held) < set(written)
    assert not any(gen._unasked(d) for d in gen.named)  # every question asked
    assert any(capped._unasked(d) for d in capped.named)  # the cap alone leaves some


def test_the_generator_says_when_every_single_hop_question_is_written() -> None:
    """`exhausted(1)` names the reason once nothing is left; old code said nothing (None) and the
    pipeline drew 200 more times."""
    fresh = NaturalGenerator(mine(_session()), read_facts(mine(_session()), load_pipeline()))
    assert fresh.exhausted(1) is None  # questions left
    gen, _ = _draw(NaturalConfig())
    assert "is written" in (gen.exhausted(1) or "")
    capped, _ = _draw(NaturalConfig(cap_overflow=1.0))
    assert "left in sessions at 1 times their cap" in (capped.exhausted(1) or "")


def test_a_run_over_spent_chats_stops_without_failed_proposals(tmp_path) -> None:
    """Old code: the run ended on "1-hop: 200 failed proposals in a row" with 200 `no_answer_span` drops
    and 10 tasks; now every question is written and no proposal is dropped."""
    mined = mine(_session())
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline()))
    report = generate(gen, mined, tmp_path / "tasks.jsonl", GenerateConfig(n=50, hops=(1,), seed=0, drop_easy=False))
    assert report.written > 10
    assert sum(report.drops.values()) == 0
    assert "failed proposals" not in report.given_up.get(1, "")
    assert "is written" in report.given_up[1]


def test_an_overflow_below_the_cap_is_refused() -> None:
    with pytest.raises(ValueError, match="cap_overflow"):
        NaturalConfig(cap_overflow=0.5)
