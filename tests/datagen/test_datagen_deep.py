"""Deeper chains on MuSiQue-like corpora (issue 36, session 31). What stopped 3- and 4-document chains
there, each a reading gap, not a rule of the verifier:

    Tucson is located 118 mi southeast of Phoenix.   (a later paragraph of the page "Tucson, Arizona":
        92 pages were left in pieces because their paragraphs never say the whole title, so no name
        could link to them and none of their facts was the page's)
    He was born Philip Davis Guggenheim in St. Louis, Missouri.   (the birth name hid the birthplace)
    Orodruin is an American doom metal band from Rochester, New York.   (where a band comes from)
    "What is the capital of the country where X was born?"   (refused as the vague "where is a country")
"""

from __future__ import annotations

import random

import pytest
from datagen_fixtures import NO_PAGE, titled_chunks

from datagen.mining import mine
from datagen.natural import NaturalGenerator

# New South Wales, the middle of deep chains to two ends: Sydney (its capital) and Victoria (the state to its south)
NSW_PAGES = {
    "nsw": ("New South Wales", "New South Wales is a state on the east coast of Australia. It borders Queensland to "
            "the north, Victoria to the south, and South Australia to the west. New South Wales' state capital is Sydney."),
    "syd": ("Sydney", "Sydney is a coastal basin with the Tasman Sea to the east, the Blue Mountains to the west, "
            "and the Woronora Plateau to the south."),
    "vic": ("Victoria (Australia)", "Roman Catholics form the largest religious group in the state. Buddhism is the "
            "state's largest non-Christian religion, with 168,637 members."),
}


def test_a_page_whose_paragraphs_say_its_short_name_is_one_article_and_a_name_links_to_it() -> None:
    """Two paragraphs titled "Tarnford, Vermont" say "Tarnford", two titled "Orlan Vesk" say "Vesk":
    before, neither pair was one article, the two documents shared the name, and "born in Tarnford"
    linked nowhere."""
    from datagen.naming import articles, title_resolver

    docs = {
        "t1": ("Tarnford, Vermont", "Winters in Tarnford are long, and heavy snow falls in most years."),
        "t2": ("Tarnford, Vermont", "Tarnford is a town in Kelby County."),
        "v1": ("Orlan Vesk", "Vesk studied law before he turned to painting."),
        "v2": ("Orlan Vesk", "In 1931 Vesk moved to Paris."),
        "y1": ("Yale University", "The university has twelve schools."),
        "y2": ("Yale University", "Its library holds fifteen million volumes."),
    }
    mined = mine(titled_chunks(docs))
    grouped = articles(mined)
    assert grouped["t2"] == ("t1", "t2") and grouped["v2"] == ("v1", "v2")
    assert "y1" not in grouped  # neither paragraph names the page: "University" is a kind, no short name
    resolve = title_resolver(mined, grouped)
    assert resolve("Tarnford", True, "Ilse Varga was born in Tarnford, Vermont.") == "t1"


def test_a_chat_heading_is_not_an_article_because_its_speakers_are_named() -> None:
    from datagen.naming import articles

    docs = {
        "s1": ("Caroline & Melanie, session 1", "Caroline: I went to the park.\nMelanie: Nice!"),
        "s2": ("Caroline & Melanie, session 1", "Melanie: I painted a lake.\nCaroline: Lovely."),
    }
    assert articles(mine(titled_chunks(docs))) == {}


@pytest.mark.parametrize(("text", "relation", "answer"), [
    ("He was born Philip Davis Guggenheim in St. Louis, Missouri, the son of Marion Davis.", "bear|in|place",
     "St. Louis"),
    ("Gaye was born Marvin Pentz Gay Jr. on April 2, 1939, at Freedman's Hospital.", "bear|on|date", "April 2, 1939"),
])
def test_a_birth_name_does_not_hide_where_and_when_the_person_was_born(
    nlp, text: str, relation: str, answer: str  # noqa: ANN001
) -> None:
    from datagen.verb_facts import verb_facts

    name = "Davis Guggenheim" if "Guggenheim" in text else "Marvin Gaye"
    facts = [f for f in verb_facts(nlp(text), "d", "d#0", text, name, NO_PAGE) if f.relation == relation]
    assert [(f.answer, f.about_doc) for f in facts] == [(answer, True)]
    assert facts[0].ask in ("Where was {s} born?", "When was {s} born?")  # the birth name is no part of it


@pytest.mark.parametrize(("title", "text", "answer"), [
    ("Orodruin", "Orodruin is an American doom metal band from Rochester, New York, who play traditional doom.",
     "Rochester"),
    ("Rachel Goodrich", "Rachel Goodrich is an American musician from Miami, Florida.", "Miami"),
])
def test_where_a_band_or_a_person_comes_from_describes_the_place(nlp, title: str, text: str, answer: str) -> None:  # noqa: ANN001
    from datagen.verbless_facts import copular_relations

    facts = copular_relations(nlp(text), "d", "d#0", text, title, NO_PAGE)
    assert [(f.relation, f.answer, f.describe) for f in facts] == [("from|from|place", answer, "the {c} that {s} is from")]


def test_a_work_from_a_studio_is_not_where_it_comes_from(nlp) -> None:  # noqa: ANN001
    from datagen.verbless_facts import copular_relations

    text = "Casablanca is a 1942 American film from Warner Bros."
    assert copular_relations(nlp(text), "d", "d#0", text, "Casablanca", NO_PAGE) == []


def test_a_three_document_chain_through_a_page_in_paragraphs(nlp) -> None:  # noqa: ANN001
    """song → its band (performer) → the town the band is from (a page of two paragraphs, the fact in the
    second): "In which county is the town that the performer of Kestrel Song is from?" Before: no link
    from the band (no "from" relation) and none to the town (two documents shared its name)."""
    from datagen.relations import read_facts

    docs = {
        "song": ("Kestrel Song", "\"Kestrel Song\" is a 1994 song by Glasswing, an American rock band."),
        "band": ("Glasswing", "Glasswing is an American rock band from Tarnford, Vermont, formed in 1988."),
        "tarn1": ("Tarnford, Vermont", "Winters in Tarnford are long, and heavy snow falls in most years."),
        "tarn2": ("Tarnford, Vermont", "Tarnford is a town in Kelby County, Vermont."),
    }
    mined = mine(titled_chunks(docs))
    gen = NaturalGenerator(mined, read_facts(mined, nlp))
    assert gen.chains.counts()["chains:3:found"] == 1
    cand = gen._bridge(3, random.Random(0))
    assert cand.doc_ids == ("song", "band", "tarn2")
    assert cand.answer == "Kelby County"
    assert cand.question == "In which county is the town that the performer of Kestrel Song is from?"


def test_the_capital_of_a_country_ends_a_chain_but_where_the_country_is_does_not(nlp) -> None:  # noqa: ANN001
    from datagen.relations import read_facts

    docs = {
        "ilse": ("Ilse Varga", "Ilse Varga (born 3 March 1961 in Veldmark) is a Veldish painter."),
        "veld": ("Veldmark", "Veldmark is a country in Northern Europe. Veldmark's capital is Orsberg."),
    }
    mined = mine(titled_chunks(docs))
    gen = NaturalGenerator(mined, read_facts(mined, nlp))
    chains = gen.chains.chains[2]
    assert [c.docs for c in chains] == [("ilse", "veld")]
    assert [f.answer for f in chains[0].answers] == ["Orsberg"]  # not "Northern Europe"


def test_a_river_is_asked_as_a_river_where_no_page_says_what_it_is() -> None:
    from datagen.factbase import FactBase, class_of

    assert class_of(FactBase(), "", "place", "the Ottawa River") == "river"
    assert class_of(FactBase(), "", "place", "Ottawa") == "place"


def test_one_of_two_parents_describes_neither() -> None:
    """ "born … to church minister Marvin Gay Sr., and domestic worker Alberta Gay": "the person that X
    was born to" names neither parent; a director followed by what else the film did still names one."""
    from datagen.chains import one_of_several
    from datagen.factbase import Fact

    sentence = "Gaye was born on April 2, 1939, to church minister Marvin Gay Sr., and domestic worker Alberta Gay."
    parent = Fact("d", "d#0", sentence, "Marvin Gaye", True, "bear|to|person", "Marvin Gay Sr.", "person", "")
    assert one_of_several(parent)
    film = "Vice Squad is a 1953 film directed by Arnold Laven, and stars Edward G. Robinson."
    director = Fact("d", "d#0", film, "Vice Squad", True, "direct|by|person", "Arnold Laven", "person", "")
    assert not one_of_several(director)


def test_a_capital_is_asked_by_its_role(nlp) -> None:  # noqa: ANN001
    from datagen.verbless_facts import role_facts

    text = "Veldmark's capital is Orsberg, and its largest port is Kessel."
    facts = role_facts(nlp(text), "d", "d#0", text, "Veldmark", NO_PAGE)
    asks = {f.answer: f.ask for f in facts}
    assert asks["Orsberg"] == "What is the capital of {s}?"  # not "Which capital city is the capital of …"
    assert asks["Kessel"] == "What is the largest port of {s}?"


def test_which_after_an_of_phrase_is_not_the_page(nlp) -> None:  # noqa: ANN001
    """"Rome became the capital of the Kingdom of Italy, which, in 1946, became the Italian Republic": the
    kingdom became the republic; before, Rome did ("In what year did the place where Farnese Gardens are
    located become the Italian Republic?")."""
    from datagen.verb_facts import verb_facts

    text = "In 1871, Rome became the capital of the Kingdom of Italy, which, in 1946, became the Italian Republic."
    facts = verb_facts(nlp(text), "d", "d#0", text, "Rome", NO_PAGE)
    assert "1946" not in [f.answer for f in facts]
    text = "Hebron Academy is a school that was founded in 1804."
    assert [f.answer for f in verb_facts(nlp(text), "d", "d#0", text, "Hebron Academy", NO_PAGE)] == ["1804"]


def test_a_comparison_of_first_publications_says_first_once(nlp) -> None:  # noqa: ANN001
    from datagen.verb_facts import verb_facts

    text = "The Journal of Mathematical Physics was first published in January 1960."
    facts = verb_facts(nlp(text), "d", "d#0", text, "Journal of Mathematical Physics", NO_PAGE)
    assert [f.compare for f in facts] == ["Which {c} was published first, {a} or {b}?"]


def test_a_direction_is_not_the_neighbour_named_after_it(nlp) -> None:  # noqa: ANN001
    """"bordered by Kentucky and Virginia to the north, North Carolina to the east": the parser hangs North
    Carolina on "north" as an apposition; before, "Which place is Tennessee bordered to?" → North Carolina."""
    from datagen.verb_facts import verb_facts

    text = "Tennessee is bordered by Kentucky and Virginia to the north, North Carolina to the east, and Georgia to the south."
    assert [f for f in verb_facts(nlp(text), "d", "d#0", text, "Tennessee", NO_PAGE) if f.relation.startswith("border|to")] == []


def test_a_quoted_name_loses_the_quote_ner_cut_it_from(nlp) -> None:  # noqa: ANN001
    from datagen.verb_facts import verb_facts

    text = 'He has been an active member of "The Science Fiction and Fantasy Writers of America" since 1989.'
    answers = [f.answer for f in verb_facts(nlp(text), "d", "d#0", text, "Ken St. Andre", NO_PAGE)]
    assert answers == ["The Science Fiction and Fantasy Writers of America"]


def test_a_capital_is_described_as_a_city() -> None:
    from datagen.factbase import FactBase, class_of

    base = FactBase(classes={"strasbourg": "capital", "ottawa": "capital city"})
    assert class_of(base, "strasbourg", "place") == "city"  # "the city where Jean-Louis Aumer was born"
    assert class_of(base, "ottawa", "place") == "capital city"


@pytest.mark.parametrize(("title", "text", "sides"), [
    ("Sydney", "Sydney is a coastal basin with the Tasman Sea to the east, the Blue Mountains to the west, and the "
     "Woronora Plateau to the south.", {"east": "the Tasman Sea", "west": "the Blue Mountains", "south": "the Woronora Plateau"}),
    ("New South Wales", "It borders Queensland to the north, Victoria to the south, and South Australia to the west.",
     {"north": "Queensland", "south": "Victoria", "west": "South Australia"}),
    # a side named by a list names no one neighbour: only North Carolina is asked
    ("Tennessee", "Tennessee is bordered by Kentucky and Virginia to the north, North Carolina to the east, Georgia, "
     "Alabama, and Mississippi to the south.", {"east": "North Carolina"}),
    ("Tennessee", "The Appalachian Mountains lie to the east of Knoxville.", {}),  # not about the page
])
def test_what_lies_on_each_side_of_a_place(nlp, title: str, text: str, sides: dict[str, str]) -> None:  # noqa: ANN001
    from datagen.verbless_facts import side_facts

    facts = side_facts(nlp(text), "d", "d#0", text, title, NO_PAGE)
    assert {f.relation.split("|")[1]: f.answer for f in facts} == sides
    assert all(f.ask == f"What lies to the {f.relation.split('|')[1]} of {{s}}?" for f in facts)


def test_a_three_document_chain_ends_on_a_side_of_a_big_place(nlp) -> None:  # noqa: ANN001
    """river → its state → the state's capital, whose paragraph says only what lies around it (MuSiQue's
    Sydney): before, no_answer; the side the state's own page names is no answer (it gives it away)."""
    from datagen.relations import read_facts

    docs = {
        "river": ("Mehi River", "Mehi River is a watercourse located in the Orana district of New South Wales, Australia."),
        "nsw": ("New South Wales", "New South Wales' state capital is Sydney. Its coast borders the Tasman Sea to the east."),
        "syd": ("Sydney", "Sydney is a coastal basin with the Tasman Sea to the east, the Blue Mountains to the west, "
                "and the Woronora Plateau to the south."),
    }
    mined = mine(titled_chunks(docs))
    gen = NaturalGenerator(mined, read_facts(mined, nlp))
    [chain] = gen.chains.chains[3]
    assert chain.docs == ("river", "nsw", "syd")
    # the Tasman Sea is given by the state's page; the plateau after ", and the" is held one of a list
    assert [f.answer for f in chain.answers] == ["the Blue Mountains"]
    cand = gen._bridge(3, random.Random(0))
    assert cand.question.startswith("What lies to the west of the state capital of the ")  # "… where Mehi River …"
    assert cand.answer == "the Blue Mountains" and cand.doc_ids == ("river", "nsw", "syd")


# -- session 32: a role the other way round ("Memphis is the state's largest city") -----------------


@pytest.mark.parametrize(("title", "own", "text", "asked"), [
    ("Florida", "state", "Jacksonville is the most populous city in Florida, and the largest city by area in the "
     "contiguous United States.", {"Jacksonville": "What is the most populous city in {s}?"}),
    ("Tennessee", "state", "Memphis is the state's largest city, with a population of 653,450.",
     {"Memphis": "What is the largest city of {s}?"}),
    ("Veldmark", "country", "Orsberg is Veldmark's largest city.", {"Orsberg": "What is the largest city of {s}?"}),
    # "the state's" is the page only in a state's page
    ("Tennessee", "", "Memphis is the state's largest city, with a population of 653,450.", {}),
    # a clause makes the role ("the only part … that shares a land border"), a phrase changes it ("by area")
    ("United Kingdom", "country", "Northern Ireland is the only part of the United Kingdom that shares a land border "
     "with another sovereign state.", {}),
    ("Florida", "state", "Jacksonville is the largest city by area in Florida.", {}),
    # no role of one holder: "a player of", "the last Chief Minister … under the alliance"
    ("Florida", "state", "Nick Bowen is a player of Florida.", {}),
    ("Maharashtra", "state", "Prithviraj Chavan of the Congress party was the last Chief Minister of Maharashtra "
     "under the Congress / NCP alliance.", {}),
])
def test_a_role_the_other_way_round_is_the_pages(nlp, title: str, own: str, text: str, asked: dict[str, str]) -> None:  # noqa: ANN001
    from datagen.verbless_facts import role_facts

    facts = role_facts(nlp(text), "d", "d#0", text, title, NO_PAGE, own)
    assert {f.answer: f.ask for f in facts} == asked
    assert all(f.about_doc and f.kind == "place" for f in facts)


def test_a_three_document_chain_ends_on_a_role_a_later_paragraph_states(nlp) -> None:  # noqa: ANN001
    """singer → the town he was born in → its state, whose later paragraph says "Orsberg is the state's
    largest city": before, that paragraph gave nothing (and a state's place answers were all refused as
    vague), so the path ended with no answer; a path to a page that states nothing is reported by its end."""
    from datagen.relations import read_facts

    docs = {
        "penn": ("Arlo Penn", "Arlo Penn is an American singer who was born in Ashford."),
        "dun": ("Ashford", "Ashford is a town in Velland."),
        "v1": ("Velland", "Velland is a state of Norland."),
        "v2": ("Velland", "Orsberg is the state's largest city, with a population of 653,450."),
        "tess": ("Tess Arden", "Tess Arden is an American singer who was born in Carrow."),
        "car": ("Carrow", "Carrow is a town in Harlan."),
        "har": ("Harlan", "Winters in Harlan are long, and heavy snow falls in most years."),
    }
    mined = mine(titled_chunks(docs))
    gen = NaturalGenerator(mined, read_facts(mined, nlp))
    [chain] = gen.chains.chains[3]
    assert chain.docs == ("penn", "dun", "v1")
    assert "Orsberg" in [f.answer for f in chain.answers]
    assert gen.chains.ends(3) == {"v1": 1}
    assert dict(gen.chains.blocked_ends[3]["no_answer"]) == {"har": 1}  # what stops the rest, by its end


def test_a_page_with_no_class_is_the_place_word_its_role_is_read_through(nlp) -> None:  # noqa: ANN001
    """MuSiQue's "Victoria (Australia)" is one paragraph on religion, which defines nothing but says "the
    state" and "Buddhism is the state's largest non-Christian religion": its role is read, and the page is
    a state, so the bridge says "the state to the south of …" (before: no answer, no chain)."""
    from datagen.relations import read_facts

    docs = {
        "river": ("Mehi River", "Mehi River is a watercourse located in the Orana district of New South Wales."),
        "nsw": ("New South Wales", "New South Wales is a state on the east coast of Australia. It borders Queensland to "
                "the north, Victoria to the south, and South Australia to the west."),
        "vic": ("Victoria (Australia)", "Roman Catholics form the largest religious group in the state. Buddhism is the "
                "state's largest non-Christian religion, with 168,637 members."),
    }
    mined = mine(titled_chunks(docs))
    facts = read_facts(mined, nlp)
    assert facts.classes["vic"] == "state"
    gen = NaturalGenerator(mined, facts)
    [chain] = gen.chains.chains[3]
    assert chain.docs == ("river", "nsw", "vic")
    assert [f.answer for f in chain.answers] == ["Buddhism"]
    cand = gen._bridge(3, random.Random(0))
    assert cand.question == ("What is the largest non-Christian religion of the state to the south of the state where "
                             "Mehi River was located?")
    assert cand.answer == "Buddhism"


def test_a_middle_two_deep_ends_share_is_left_to_the_deep_chains(nlp) -> None:  # noqa: ANN001
    """New South Wales is the middle of chains to Sydney and to Victoria: four deep bridges could use it,
    more than its three uses. Before, one use was kept back, a two-document chain (river → state) took
    another, and one deep bridge was lost; now the shorter chains through it wait."""
    from datagen.relations import read_facts

    docs = {
        "river": ("Mehi River", "Mehi River is a watercourse located in the Orana district of New South Wales."),
        "pages": ("Pages River", "Pages River is a watercourse located in the Hunter district of New South Wales."),
        **NSW_PAGES,
    }
    mined = mine(titled_chunks(docs))
    gen = NaturalGenerator(mined, read_facts(mined, nlp))
    gen.deep_hops = frozenset({3, 4})  # as the pipeline tells it: --hops 2-4
    assert {c.docs[-1] for c in gen.chains.chains[3]} == {"syd", "vic"}
    shorter = [c for c in gen.chains.chains[2] if "nsw" in c.docs]
    assert shorter and all(gen._spent(c) for c in shorter)
    assert not any(gen._spent(c) for c in gen.chains.chains[3])
    gen.deep_hops = frozenset()  # a run of 2-hop tasks (or one whose deeper hop counts were given up) keeps none
    assert not any(gen._spent(c) for c in shorter)


@pytest.mark.parametrize(("text", "name", "asked"), [
    # MuSiQue's St. Louis: its river was an adjunct, so From the Sky Down → Davis Guggenheim → St. Louis had
    # no answer the earlier pages did not give ("Missouri")
    ("St. Louis is an independent city and major U.S. port in the state of Missouri, built along the western bank "
     "of the Mississippi River, on the border with Illinois.", "St. Louis",
     {"the Mississippi River": "Which {c} was {s} built along?"}),
    # a road NER cut from its number is no answer ("Which place is Nemours located along?" → "West Virginia Route")
    ("Nemours is located along West Virginia Route 102 east of Pocahontas, Virginia.", "Nemours", {}),
    ("Glade Farms is located on West Virginia Route 7.", "Glade Farms", {}),
])
def test_where_a_place_lies_along(nlp, text: str, name: str, asked: dict[str, str]) -> None:  # noqa: ANN001
    from datagen.verb_facts import verb_facts

    facts = verb_facts(nlp(text), "d", "d#0", text, name, NO_PAGE)
    assert {f.answer: f.ask for f in facts if f.kind == "place" and f.relation.split("|")[1] in ("along", "on")} == asked


def test_a_deep_chain_dropped_early_is_tried_again_and_a_middle_carries_four(nlp) -> None:  # noqa: ANN001
    """The pipeline drops a bridge over its BM25 budget, a share of the bridges written so far: early on,
    any deep bridge BM25 half-finds. Before, that chain was never drawn again (MuSiQue runs lost their
    chains to Ottawa); now a deeper chain is proposed up to three times. And New South Wales, the middle of
    chains to Sydney and to Victoria, carries four deep bridges (two an end), not three."""
    from datagen.relations import read_facts

    docs = {
        "river": ("Mehi River", "Mehi River is a watercourse located in the Orana district of New South Wales."),
        "tess": ("Tess Arden", "Tess Arden is an Australian singer who was born in New South Wales."),
        **NSW_PAGES,
    }
    mined = mine(titled_chunks(docs))
    gen = NaturalGenerator(mined, read_facts(mined, nlp))
    gen.deep_hops = frozenset({3, 4})
    rng = random.Random(0)
    pairs = sum(len(c.answers) for c in gen.chains.chains[3])
    proposed = 0
    while hasattr(gen._bridge(3, rng), "question"):  # none committed: each was "dropped"
        proposed += 1
    assert proposed == 3 * pairs  # before: each (chain, answer) once
    gen = NaturalGenerator(mined, read_facts(mined, nlp))
    gen.deep_hops = frozenset({3, 4})
    written: list[str] = []
    for _ in range(40):
        cand = gen._bridge(3, rng)
        if hasattr(cand, "question") and cand.question not in written:
            gen.commit(cand)
            written.append(cand.question)
    assert gen.uses["nsw"] == 4 and len(written) == 4
    assert sorted(gen.final_uses.values()) == [2, 2]  # the hub cap holds: two bridges an end


def test_a_town_named_with_a_tilde_is_not_the_country_without_it() -> None:
    """"born October 21, 1904 in Cañada de Gómez": NER cut the Argentine town to "Cañada", which folded to
    the page "Canada", and a deep bridge asked for "the capital of the country where Arturo Chini Ludueña
    was born" → Ottawa. The name now runs on through "de", and ñ names no page spelled with n."""
    from datagen.factbase import whole_value
    from datagen.naming import title_resolver

    docs = {"ca": ("Canada", "Canada is a country in North America."),
            "mdz": ("Mondelez International", "Mondelez International is a food company.")}
    resolve = title_resolver(mine(titled_chunks(docs)))
    assert resolve("Cañada", True) == ""
    assert resolve("Canada", True) == "ca"
    assert resolve("Mondelēz International", True) == "mdz"  # a dropped macron is the same name
    sentence = "Arturo Chini Ludueña (born October 21, 1904 in Cañada de Gómez; died in 1993) was a footballer."
    assert whole_value("Cañada", sentence) == "Cañada de Gómez"
    assert whole_value("Rio Grande", "Lajes is a municipality in the state of Rio Grande do Norte.") == "Rio Grande do Norte"
