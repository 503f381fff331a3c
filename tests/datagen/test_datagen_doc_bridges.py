"""Documentation questions across two pages (issue 36, session 45: datagen.doc_bridges): the day the release that
added a documented thing came out, read off the thing's version note and the changelog's release heading.

An invented folder of two projects side by side, "quokka" and "marmot", as a user indexes several projects' docs:
both document a MAX_TRIES added in 2.1 and both released a 2.1.0, on different days (the trap: the project must
decide which day), their changelogs head releases with the project's name ("Quokka 2.1.0 (2024-03-05)", as pytest's
does), and Marmot's writes a "Python 3.12 (2023-10-02)" line (no release of Marmot's). Refused and counted: a note
whose own page writes the day (the first passage would answer alone), a note of a version never released.
Old code (f12de0e): no heading naming its project read, no task of two pages, no `--mix doc_bridges`.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from corpus_tools.types import Chunk
from datagen.doc_bridges import BRIDGE_FORM, COMPARE_FORM, version_key
from datagen.doc_releases import heading_project, release_facts
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts
from datagen.types import Candidate, DropReason
from datagen.verify import check_candidate


def _entry(name: str, what: str, version: str) -> str:
    return f".. py:data:: {name}\n\n   {what}\n\n   .. versionadded:: {version}\n"


PAGES = {
    "quokka/reference.rst": ("Reference", "Reference\n=========\n\nQuokka reads these settings. Quokka is a client.\n\n"
                             + _entry("MAX_TRIES", "How many times Quokka tries a request.", "2.1") + "\n"
                             + _entry("POOL_SIZE", "How many connections Quokka keeps open.", "1.4") + "\n"
                             + _entry("RETRY_JITTER", "How much Quokka varies its waits.", "3.0")),
    "quokka/timeout.rst": ("Timeouts", "Timeouts\n========\n\nQuokka waits this long. Quokka 1.5.0 came out on "
                           "2023-12-01.\n\n" + _entry("CONNECT_TIMEOUT", "How long Quokka waits to connect.", "1.5")),
    "quokka/changes.rst": ("Changelog", "Changelog\n=========\n\nQuokka 2.1.0 (2024-03-05)\n-------------------------\n\n"
                           "- Retries.\n\nQuokka 1.5.0 (2023-12-01)\n-------------------------\n\n- Timeouts.\n\n"
                           "Quokka 1.4.0 (2023-11-20)\n-------------------------\n\n- Pools.\n"),
    "marmot/reference.rst": ("Reference", "Reference\n=========\n\nMarmot reads these settings. Marmot is a server.\n\n"
                             + _entry("MAX_TRIES", "How many times Marmot tries a write.", "2.1")),
    "marmot/changes.rst": ("Changelog", "Changelog\n=========\n\nMarmot supports this Python:\n\nPython 3.12 (2023-10-02)\n\n"
                           "Marmot 2.1.0 (2024-07-09)\n-------------------------\n\n- Retries for Marmot.\n"),
}


def _chunks() -> list[Chunk]:
    return [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": title}) for d, (title, text) in PAGES.items()]


def _multi(config: NaturalConfig | None = None, **read: bool) -> tuple[NaturalGenerator, dict[str, Candidate]]:
    """The generator over the folder and its 2-hop tasks (question → candidate), each committed and verified."""
    chunks = _chunks()
    mined = mine(chunks)
    config = config or NaturalConfig()
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline(), release_names=bool(config.doc_release_names), **read),
                           config)
    rng, out = random.Random(0), {}
    for _ in range(20):
        if gen.exhausted(2) is not None:
            break
        c = gen.propose(2, rng)
        if isinstance(c, Candidate):
            verdict = check_candidate(c, {d: mined.doc_text(d) for d in mined.chunks}, {ch.chunk_id: ch.text for ch in chunks},
                                      mined.titles)
            assert verdict.accepted, (c.question, verdict.details)
            gen.commit(c)
            out[c.question] = c
    return gen, out


def test_a_release_heading_naming_its_project_is_read_only_when_asked() -> None:
    chunk = Chunk("c#0", "pytest/changelog.rst", "Bug fixes\n\npytest 8.4.0 (2025-06-02)\n\n- #1: fixed.\n", 0, 8, {})
    assert release_facts(chunk, Counter()) == []  # session 44's reader: no bare version, no day
    [fact] = release_facts(chunk, Counter(), named=True)
    assert (fact.subject, fact.answer, heading_project(fact.sentence)) == ("8.4.0", "2025-06-02", "pytest")
    assert heading_project("0.141.1 (2026-07-29)") == "" and heading_project("Version 3.1.0 (2024-11-13)") == ""


def test_a_notes_release_day_is_asked_across_two_pages_in_its_own_project() -> None:
    gen, asked = _multi()
    bridges = {q: c for q, c in asked.items() if c.metadata["form"] == BRIDGE_FORM}
    # one MAX_TRIES per project, each its own project's 2.1.0 day (the trap: both released a 2.1.0)
    assert bridges["When was the Quokka version that added MAX_TRIES released?"].answer == "2024-03-05"
    assert bridges["When was the Marmot version that added MAX_TRIES released?"].answer == "2024-07-09"
    assert bridges["When was the Quokka version that added POOL_SIZE released?"].answer == "2023-11-20"
    c = bridges["When was the Quokka version that added MAX_TRIES released?"]
    # gold: the note's page, then the changelog's; the version named in neither the question nor its answer's page
    assert c.doc_ids == ("quokka/reference.rst", "quokka/changes.rst") and c.hops == 2
    assert [i.contains_truth for i in c.supporting] == [False, True] and "2.1" not in c.question
    assert c.metadata["split_by"] == "fact" and len(c.metadata["fact_keys"]) == 2
    # refused and counted: the day written on the note's own page, a version with no release in the folder
    assert not any("CONNECT_TIMEOUT" in q or "RETRY_JITTER" in q for q in asked)
    funnel = gen.doc_funnel
    assert (funnel["day_on_first_page"], funnel["no_release_day"], funnel["asked"]) == (1, 1, 3)
    assert gen.stages["doc_bridge:asked"] == 3


def test_a_heading_naming_another_project_gives_no_day() -> None:
    mined = mine(_chunks())
    base = read_facts(mined, load_pipeline(), release_names=True)
    days = {(f.doc_id, f.subject): f.answer for fs in base.facts.values() for f in fs if f.relation == "doc:released"}
    assert days[("marmot/changes.rst", "2.1.0")] == "2024-07-09" and ("marmot/changes.rst", "3.12") not in days
    assert base.skipped["doc_release_other_project"] == 1


def test_comparisons_stay_within_their_share_and_answer_the_earlier() -> None:
    gen, asked = _multi()
    compared = [c for c in asked.values() if c.metadata["form"] == COMPARE_FORM]
    # 3 bridges, then a comparison is due at the 0.2 share only after 4 multi-hop tasks: none here
    assert compared == [] and gen.written[BRIDGE_FORM] == 3
    gen, asked = _multi(NaturalConfig(comparison_share=0.5))
    [c] = [c for c in asked.values() if c.metadata["form"] == COMPARE_FORM][:1]
    assert c.question.startswith("Which was added to Quokka first, ") and c.answer in c.metadata["options"]
    first = {"MAX_TRIES": "2.1", "POOL_SIZE": "1.4", "RETRY_JITTER": "3.0", "CONNECT_TIMEOUT": "1.5"}
    other = next(o for o in c.metadata["options"] if o != c.answer)
    assert version_key(first[c.answer]) < version_key(first[other])
    assert gen.written[COMPARE_FORM] <= 0.5 * sum(gen.written.values())


def test_flags_off_ask_nothing_across_pages() -> None:
    gen, asked = _multi(NaturalConfig(doc_bridges=0.0, doc_release_names=0.0))
    assert asked == {} and gen.exhausted(2) is not None
    assert isinstance(gen.propose(2, random.Random(0)), DropReason)
    base = read_facts(mine(_chunks()), load_pipeline())  # read_facts' default: no heading naming its project
    assert not any(f.relation == "doc:released" for fs in base.facts.values() for f in fs)


def test_the_mix_keys_and_bad_values() -> None:
    assert parse_mix("doc_bridges=0,release_names=0") == {"doc_bridges": 0.0, "doc_release_names": 0.0}
    with pytest.raises(ValueError, match="doc_bridges must be a share"):
        parse_mix("doc_bridges=2")
    assert version_key("v2.3") == (2, 3) and version_key("1.0.0b9") is None


def test_single_hop_tasks_fill_the_rest_once_the_bridges_are_spent() -> None:
    # without it a documentation run stopped after its bridges: the pipeline falls back to single-hop tasks only
    # when the generator says so (`single_fill`)
    gen, asked = _multi()
    assert len(asked) == 3 and gen.exhausted(2) is not None
    assert "single-hop tasks are written for the rest" in gen.single_fill()
    off, _ = _multi(NaturalConfig(doc_bridges=0.0))
    assert off.single_fill() == ""  # as main: the pipeline's own fallback (no multi-hop at all) writes them
