"""Region links (session 48, `--mix regions=1`): a place answer's region after a comma ("moved to Tallow Creek,
Kelbria") links to the region's page, so a 3-hop chain the old finder missed is found; every fake stays refused."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from datagen_fixtures import titled_chunks

from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix

CORPUS = json.loads((Path(__file__).parents[1] / "fixtures" / "deep_regions" / "corpus.json").read_text())


def _generator(nlp, case: str, regions: float) -> NaturalGenerator:  # noqa: ANN001
    from datagen.relations import read_facts

    mined = mine(titled_chunks({d: tuple(v) for d, v in CORPUS[case].items()}))
    return NaturalGenerator(mined, read_facts(mined, nlp), NaturalConfig(region_links=regions))


def test_regions_is_a_mix_key_off_by_default() -> None:
    assert parse_mix("regions=1") == {"region_links": 1.0}
    assert NaturalConfig().region_links == 0.0


def test_a_three_hop_chain_through_a_region_is_found_only_with_region_links(nlp) -> None:  # noqa: ANN001
    off = _generator(nlp, "genuine", 0.0)
    assert off.chains.chains[3] == []  # the old finder: no hop from Orla Brenn to Kelbria
    on = _generator(nlp, "genuine", 1.0)
    assert [c.docs for c in on.chains.chains[3]] == [("song", "orla", "kelb")]
    cand = on._bridge(3, random.Random(0))
    assert cand.doc_ids == ("song", "orla", "kelb")
    assert cand.answer == "Orsberg"
    assert cand.question == "What is the capital of the state that the performer of Amber Lantern moved to?"
    assert "What is the state that Orla Brenn moved to?" in cand.clues


def test_a_region_fact_links_but_never_answers(nlp) -> None:  # noqa: ANN001
    on = _generator(nlp, "genuine", 1.0)
    assert all(not r.endswith(">region") for rels in on.relations.values() for r in rels)
    assert [(f.answer, f.target) for f in on.links["orla"] if f.relation.endswith(">region")] == [("Kelbria", "kelb")]


@pytest.mark.parametrize(("case", "reason"), [
    ("answer_given_early", "answer_in_earlier_document"),  # the song's page already says Orsberg
    ("shortcut", "shortcut"),  # the song's page names Kelbria: the middle hop is not needed
])
def test_a_fake_deep_chain_through_a_region_stays_refused(nlp, case: str, reason: str) -> None:  # noqa: ANN001
    from datagen.chains import ChainIndex
    from datagen.naming import title_resolver
    from datagen.region_links import region_links

    on = _generator(nlp, case, 1.0)
    assert on.chains.chains[3] == []
    assert not any(f.relation.endswith(">region") for fs in on.links.values() for f in fs)  # kept for no chain
    assert on.stages["regions:found"] == 1 and on.stages["regions:kept"] == 0
    # the path through the region link is read, and refused for the reason a fake is
    found = region_links(on.base, on.relations, title_resolver(on.mined, on.base.articles), on._article_text)
    links = {a: [*on.links.get(a, ()), *found.get(a, ())] for a in {*on.links, *found}}
    trial = ChainIndex(on.base, on.relations, links, on._article_text, documents=sorted(on.mined.chunks))
    assert trial.chains[3] == [] and trial.blocked[3][reason] >= 1


def test_a_person_after_the_comma_is_no_region(nlp) -> None:  # noqa: ANN001
    on = _generator(nlp, "not_a_place", 1.0)
    assert not any(f.relation.endswith(">region") for fs in on.links.values() for f in fs)


def test_a_region_link_that_makes_no_deep_chain_is_left_out(nlp) -> None:  # noqa: ANN001
    """Orla Brenn → Kelbria alone is a 2-document chain: region links are for depth, so a corpus where they make no
    3-4-document chain keeps its chains (and its tasks) exactly as with them off (HotpotQA's dev pages)."""
    off, on = _generator(nlp, "two_documents_only", 0.0), _generator(nlp, "two_documents_only", 1.0)
    assert on.links == off.links
    assert on.chains.counts() == off.chains.counts()
