"""Documentation pages get no sentence template, and one documentation kind does not flood a set (issue 36, session
43, second round).

1. Session 42's folder rule (`doc_projects.documentation_folders`) took a group for documentation only when most of
   its pages were documentation pages, and otherwise handed the whole group, its documentation pages too, back to the
   sentence templates: MkDocs' 7 pages (2 with code) gave "Which work is Deploying your docs pushed to?" → "GitHub".
   `documentation_groups` (`--mix doc_group=1`) keeps a documentation page whatever its group and makes every page
   of a group holding documentation pages documentation.
2. `doc_kind_share` (`--mix doc_kind=SHARE`) caps the share of the single-hop tasks one documentation kind may take,
   as `relation_share` caps bridges, and gives way when no other kind is left.

The fixture is session 43's invented project numbat (tests/datagen/docs_options/): with announce=0 its four
release announcements and its history page are the majority of the folder, as MkDocs' prose pages are of MkDocs'."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from corpus_tools.types import Chunk
from datagen.doc_projects import documentation_folders, documentation_groups
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, _doc_kind, parse_mix
from datagen.nlp import load_pipeline
from datagen.relations import read_facts

sys.path.insert(0, str(Path(__file__).parent))
from datagen_fixtures import folder_chunks  # noqa: E402
from test_datagen_doc_options import PAGES, _generate  # noqa: E402


@pytest.fixture(scope="module")
def chunks() -> list[Chunk]:
    return folder_chunks(PAGES)


def test_a_group_holding_documentation_pages_is_documentation() -> None:
    mkdocs = {f"m/{p}.md": p in ("configuration", "writing") for p in
              ("index", "getting-started", "configuration", "writing", "deploying", "installation", "theme")}
    # the majority rule dropped the group whole, its two documentation pages too
    assert documentation_folders(mkdocs) == frozenset()
    assert documentation_groups(mkdocs) == frozenset(mkdocs)
    # one documentation page in a group, or two in twenty: judged page by page (a stray page with code among
    # Wikipedia articles turns nothing else into documentation)
    wiki = {"": False, "w/a": True, **{f"w/p{i}": False for i in range(9)}}
    assert documentation_groups(wiki) == {"w/a"}
    sparse = {**{f"s/p{i}": False for i in range(18)}, "s/x": True, "s/y": True}
    assert documentation_groups(sparse) == {"s/x", "s/y"}
    assert documentation_groups({"Paris": False, "Rome": False}) == frozenset()
    assert documentation_groups({}) == frozenset()


def test_no_sentence_template_on_a_documentation_group(chunks: list[Chunk]) -> None:
    on = _generate(chunks, NaturalConfig(**parse_mix("announce=0")))
    assert on and all(c.metadata["relations"][0].startswith("doc:") for c in on.values()), sorted(on)
    # flag off = a0654e8: the prose pages are the majority, and the sentence templates ask the history page
    off = _generate(chunks, NaturalConfig(**parse_mix("announce=0,doc_group=0")))
    assert off["Which organization was History migrated to?"].answer == "Mercurial"
    # every documentation task of the old run is still written
    assert {q for q, c in off.items() if c.metadata["relations"][0].startswith("doc:")} <= set(on)


def _generator(chunks: list[Chunk], share: float) -> NaturalGenerator:
    mined = mine(chunks)
    return NaturalGenerator(mined, read_facts(mined, load_pipeline()), NaturalConfig(doc_kind_share=share, doc_trivial_share=1.0, relation_floor=1))


def test_a_kind_at_its_share_is_not_drawn_while_another_is_left(chunks: list[Chunk]) -> None:
    gen = _generator(chunks, 0.3)
    pool = gen._single_pool()
    assert pool == ["numbat/command_line.rst", "numbat/settings.rst", "numbat/usage.rst"]
    # 10 single-hop tasks, 5 of them "Which option …?" and 4 defaults of options: both past their share (3.3)
    gen.singles, gen.single_kinds["doc:opt:which"], gen.single_kinds["doc:opt:default"] = 10, 5, 4
    gen.single_kinds["doc:opt:default:trivial"] = 4  # burrow_cache's default "True" is a kind of its own
    assert gen._kinds_open(pool) == ["numbat/usage.rst"]  # its help output's default is the only kind open
    assert gen.stages["single:doc_kind_capped"] == 1
    # every kind at its share: the cap gives way, the set is never smaller for it
    gen.single_kinds["doc:default"] = 4
    assert gen._kinds_open(pool) == pool
    # no cap (the default 1): the pool as it was
    off = _generator(chunks, 1.0)
    off.singles, off.single_kinds["doc:opt:which"] = 10, 9
    assert off._kinds_open(pool) == pool


def test_a_trivial_default_is_a_kind_of_its_own() -> None:
    assert _doc_kind("doc:opt:default", "False") == "doc:opt:default:trivial"
    assert _doc_kind("doc:default", " None ") == "doc:default:trivial"
    assert _doc_kind("doc:ref:signature_default", "[]") == "doc:ref:signature_default:trivial"
    assert _doc_kind("doc:opt:default", "origin") == "doc:opt:default"
    assert _doc_kind("doc:opt:which", "False") == "doc:opt:which"  # an option's name is no default
    assert _doc_kind("born|in|date", "None") == "born|in|date"  # not documentation: never capped


def test_the_cap_loses_no_task(chunks: list[Chunk]) -> None:
    capped = _generate(chunks, NaturalConfig(doc_kind_share=0.3, doc_trivial_share=1.0, relation_floor=1))
    assert set(capped) == set(_generate(chunks, NaturalConfig(doc_trivial_share=1.0)))


def test_trivial_defaults_held_at_their_share(chunks: list[Chunk]) -> None:
    every = _generate(chunks, NaturalConfig(doc_trivial_share=1.0))
    trivial = {q for q, c in every.items() if _doc_kind(c.metadata["relations"][0], c.answer).endswith(":trivial")}
    assert trivial == {"What is the default value of the burrow_cache setting in numbat?"}
    # share 0: no trivial default is asked, every other task still is (held: the set is smaller, not refilled)
    none = _generate(chunks, NaturalConfig(doc_trivial_share=0.0))
    assert set(none) == set(every) - trivial
    # the default 0.2: one in five, so the one trivial default is asked once four other tasks are written
    assert set(_generate(chunks, NaturalConfig())) == set(every)


def test_mix_keys_and_bad_values() -> None:
    assert parse_mix("doc_group=0,doc_kind=0.3,trivial=0.2") == {
        "doc_group": 0.0, "doc_kind_share": 0.3, "doc_trivial_share": 0.2}
    assert NaturalConfig().doc_group == 1.0
    with pytest.raises(ValueError, match="doc_kind must be a share"):
        parse_mix("doc_kind=1.5")
    with pytest.raises(ValueError, match="doc_kind must be a number"):
        parse_mix("doc_kind=half")
    with pytest.raises(ValueError, match="doc_kind_share must be a share"):
        NaturalConfig(doc_kind_share=-0.1)
    with pytest.raises(ValueError, match="trivial=SHARE"):
        parse_mix("trivials=0")
