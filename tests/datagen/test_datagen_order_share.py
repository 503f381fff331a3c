"""The share of orders of dated acts in datagen's output over chats (issue 36: `NaturalConfig.order_share`).

On chats the orders are the whole multi-hop output, so a share of the multi-hop tasks caps nothing: the
cap is a share of *all* the tasks written, and an order over it is deferred (single-hop tasks fill), not
given up, so the set is never smaller for it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from corpus_tools.types import Chunk
from datagen.mining import MinedCorpus, mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.pipeline import GenerateConfig, generate
from datagen.relations import FactBase, read_facts

# Six dated sessions; each speaker does one dated thing in each: many orders of one person's acts
# (15 pairs each), and single-hop questions of the same acts ("When did Priya plant an apple tree?").
SESSIONS = [
    ("pt/s1", "Priya & Tom, session 1 (9:15 am on 4 January, 2024)",
     "Priya: I joined a rowing club yesterday!\nTom: I adopted a parrot last Friday."),
    ("pt/s2", "Priya & Tom, session 2 (8:40 am on 1 February, 2024)",
     "Priya: Last Tues I donated my old bike to a youth club.\nTom: I built a treehouse last week."),
    ("pt/s3", "Priya & Tom, session 3 (9:15 am on 14 March, 2024)",
     "Priya: I went to a pottery fair yesterday.\nTom: I painted my garage door last week."),
    ("pt/s4", "Priya & Tom, session 4 (6:02 pm on 2 April, 2024)",
     "Priya: I bought a vintage guitar yesterday.\nTom: I visited my sister in Leeds last Friday."),
    ("pt/s5", "Priya & Tom, session 5 (4:00 pm on 3 May, 2024)",
     "Priya: I planted an apple tree yesterday.\nTom: I sold my old car last week."),
    ("pt/s6", "Priya & Tom, session 6 (4:00 pm on 7 June, 2024)",
     "Priya: I ran a half marathon yesterday.\nTom: I fixed the kitchen sink last Friday."),
]


@pytest.fixture(scope="module")
def chat() -> tuple[MinedCorpus, FactBase]:
    chunks = [
        Chunk(f"{d}#{i}", d, line, i, len(line.split()), {"title": title})
        for d, title, text in SESSIONS for i, line in enumerate(text.split("\n"))
    ]
    mined = mine(chunks)
    return mined, read_facts(mined, load_pipeline())


def _run(chat: tuple[MinedCorpus, FactBase], tmp_path: Path, n: int, **shares: float) -> tuple[int, Counter]:
    mined, facts = chat
    out = tmp_path / f"tasks-{n}-{shares}.jsonl"
    report = generate(NaturalGenerator(mined, facts, NaturalConfig(**shares)), mined, out,
                      GenerateConfig(n=n, hops=(2, 3, 4), seed=0, patience=50))
    forms = Counter(json.loads(line)["metadata"]["form"] for line in out.read_text().splitlines())
    assert sum(forms.values()) == report.written
    return report.written, forms


def test_orders_are_held_to_their_share_of_all_tasks_and_the_run_fills_with_single_hop_ones(chat, tmp_path) -> None:
    """Old code wrote every order first (12 of 12, 15 of 20 here), then single-hop tasks; now at most a
    quarter of the tasks written are orders, with the same total."""
    for n in (12, 20):
        total, uncapped = _run(chat, tmp_path, n, order_share=1.0)
        assert total == n and uncapped["order"] > 0.5 * n  # the old behaviour: orders first
        total, forms = _run(chat, tmp_path, n, order_share=0.25)
        assert total == n
        assert 0 < forms["order"] <= 0.25 * n and forms["single"] == n - forms["order"]
    _, low = _run(chat, tmp_path, 20, order_share=0.1)
    assert 0 < low["order"] <= 2


def test_orders_resume_past_their_share_when_nothing_else_is_left_so_the_yield_is_kept(chat, tmp_path) -> None:
    """More asked than the corpus gives: once single-hop tasks are spent, the deferred orders are written
    past their share instead of the run giving them up; the total is what the uncapped run writes."""
    total, uncapped = _run(chat, tmp_path, 60, order_share=1.0)
    assert total < 60
    capped_total, forms = _run(chat, tmp_path, 60, order_share=0.25)
    assert capped_total == total and forms["order"] == uncapped["order"]


def test_a_resumed_run_counts_its_written_orders_against_the_share(chat, tmp_path) -> None:
    """The tasks already in the output count: a run resumed to a larger n keeps the share."""
    mined, facts = chat
    out = tmp_path / "tasks.jsonl"
    for n in (8, 8):  # 8 written, then 8 more
        generate(NaturalGenerator(mined, facts, NaturalConfig(order_share=0.25)), mined, out,
                 GenerateConfig(n=n, hops=(2, 3, 4), seed=0, patience=50))
    forms = Counter(json.loads(line)["metadata"]["form"] for line in out.read_text().splitlines())
    assert sum(forms.values()) == 16 and forms["order"] <= 4


def test_mix_sets_the_order_share_and_refuses_bad_values() -> None:
    assert parse_mix("order=0.2") == {"order_share": 0.2}
    assert parse_mix("comparison=0.3, order=0") == {"comparison_share": 0.3, "order_share": 0.0}
    with pytest.raises(ValueError, match="--mix order must be a share in"):
        parse_mix("order=1.5")
    with pytest.raises(ValueError, match="--mix order must be a number"):
        parse_mix("order=many")
    with pytest.raises(ValueError, match="order=SHARE"):
        parse_mix("orders=0.2")
    with pytest.raises(ValueError, match="order_share must be a share"):
        NaturalConfig(order_share=-0.1)


def test_order_hold_keeps_the_share_when_nothing_else_is_left(chat, tmp_path) -> None:
    """`--mix order_hold=1`: a smaller set rather than orders past their share (old code: no such option, the
    deferred orders always came back once the single-hop tasks were spent)."""
    assert parse_mix("order_hold=1") == {"order_hold": 1.0}
    total, uncapped = _run(chat, tmp_path, 60, order_share=1.0)
    held_total, forms = _run(chat, tmp_path, 60, order_share=0.25, order_hold=1.0)
    assert held_total < total and 0 < forms["order"] <= 0.25 * held_total < uncapped["order"]
    _, none = _run(chat, tmp_path, 60, order_share=0.0, order_hold=1.0)
    assert none["order"] == 0 and none["single"] > 0


def test_by_default_orders_are_written_only_once_nothing_else_is_left(chat, tmp_path) -> None:
    """Default `order_share` 0 (s38: an order names both acts, so BM25 finds both sessions; the multi-hop set
    is as easy as its orders): a set the single-hop questions can fill has none (old code: a quarter), and a
    run past them writes every order still, so the total is the uncapped run's."""
    total, forms = _run(chat, tmp_path, 12)
    assert total == 12 and forms["order"] == 0
    total, uncapped = _run(chat, tmp_path, 60, order_share=1.0)
    default_total, forms = _run(chat, tmp_path, 60)
    assert default_total == total and forms["order"] == uncapped["order"] > 0
