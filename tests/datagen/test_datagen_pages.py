"""A person's page as Wikipedia opens it (issue 36, session 29): chains end on people, and most HotpotQA
person pages open with a full name, a pronunciation's residue or a birth name before the dates:

    Christopher Edward Nolan ( ; born 30 July 1970) is an English-American film director, …
    Patrice Leconte (] ; born 12 November 1947) is a French film director, …
    William Smith Jr. (born April 22, 1946) is …     John William Carson (…) for "Johnny Carson"
    Garth Jennings (born 1972) is …   (a year alone never matched: the pattern wanted a character before it)

On the code before, none of these gave a birth date or a class: the page could end no chain (its
only facts pointed back), or its link's description had no type ("untyped_description"). Of a
HotpotQA corpus's 2-document paths, 48 ended on such a page with no answer.
"""

from __future__ import annotations

import random

import pytest

from corpus_tools.types import Chunk
from datagen.mining import mine
from datagen.natural import NaturalGenerator
from datagen.syntax import fuller_name

OPENINGS = [  # (page title, first sentence, birth date it states)
    ("Dorian Vellacourt", "Dorian Edward Vellacourt ( ; born 30 July 1970) is an English film director, producer, "
     "and screenwriter.", "30 July 1970"),
    ("Aurele Fontaine", "Aurele Fontaine (] ; born 12 November 1947) is a French film director, actor, and "
     "screenwriter.", "12 November 1947"),
    ("Wendell Marsh", "Wendell Samuel Marsh Jr. (born April 22, 1946) is an American film director and "
     "screenwriter.", "April 22, 1946"),
    ("Johnny Tarrant", "John William Tarrant (October 23, 1925 – January 23, 2005) was an American film director "
     "and comedian.", "October 23, 1925"),
    ("Garrow Pell", "Garrow Pell (born 1972) is a British film director and screenwriter.", "1972"),  # a year alone
]


def test_full_names_with_suffixes_and_short_first_names_name_the_page() -> None:
    assert fuller_name(("wendell", "samuel", "marsh", "jr"), ("wendell", "marsh"))
    assert fuller_name(("john", "william", "tarrant"), ("johnny", "tarrant"))
    assert not fuller_name(("jo", "william", "tarrant"), ("johnny", "tarrant"))  # two letters say nothing
    assert not fuller_name(("john", "william", "tarrant"), ("johnny", "carson"))  # another surname
    assert not fuller_name(("wendell", "marsh", "jr"), ("wendell", "marsh", "sr"))


@pytest.mark.parametrize(("title", "text", "born"), OPENINGS)
def test_a_page_opening_gives_its_birth_date_and_class(nlp, title: str, text: str, born: str) -> None:  # noqa: ANN001
    from datagen.verbless_facts import defining_class, life_facts

    doc = nlp(text)
    facts = life_facts(doc, "d", "d#0", text, title, True)
    assert [(f.relation, f.answer) for f in facts if f.relation == "bear|in|date"] == [("bear|in|date", born)]
    if "Jr." not in text:  # the parser splits "Marsh Jr." off as an apposition: no class there, a date still
        assert defining_class(doc, title).endswith("director")


def test_a_birth_name_before_the_date_is_skipped(nlp) -> None:  # noqa: ANN001
    from datagen.verbless_facts import life_facts

    text = "Wilbur Jefferson Crane (born Wilbur Jefferson Blythe III; August 19, 1946) is an American politician."
    facts = life_facts(nlp(text), "d", "d#0", text, "Wilbur Crane", True)
    assert [f.answer for f in facts] == ["August 19, 1946"]


def test_a_span_of_dates_after_a_name_that_is_no_person_gives_no_life(nlp) -> None:  # noqa: ANN001
    from datagen.verbless_facts import life_facts

    for title, text in (
        ("Siege of Kut", "The Siege of Kut (7 December 1915 – 29 April 1916) was a siege of British troops."),
        ("Harold Vance", "The Harold Vance Trophy ( ; born 1990) is a cup."),  # the words before it are no name of the page
    ):
        assert life_facts(nlp(text), "d", "d#0", text, title, True) == []


def test_a_film_chain_ends_on_a_director_page_that_opens_with_residue(nlp) -> None:  # noqa: ANN001
    """The whole reader: a film page links to its director, whose page states a birth date only behind
    the residue; the bridge "When was the director of X born?" now exists (before: no_answer)."""
    from datagen.relations import read_facts

    docs = {"film": ("Glass Orchard", "Glass Orchard is a 1998 drama film directed by Dorian Vellacourt.")}
    docs["person"] = ("Dorian Vellacourt", OPENINGS[0][1])
    chunks = [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": t}) for d, (t, text) in docs.items()]
    mined = mine(chunks)
    gen = NaturalGenerator(mined, read_facts(mined, nlp))
    assert gen.chains.counts()["chains:2:found"] == 1
    cand = gen._bridge(2, random.Random(0))
    assert cand.question == "When was the director of Glass Orchard born?"
    assert cand.answer == "30 July 1970"
    assert cand.doc_ids == ("film", "person")


def test_a_name_followed_by_an_aside_or_a_second_agent_is_one_of_several() -> None:
    """Two bridges of the hand-read HotpotQA sample described one of two people: "the anthropologist who
    trained Alfred Gell" (Leach and Firth), "the recording artist of Quando m'innamoro" (Humperdinck and
    Franchi). Before, both passed as one."""
    from datagen.chains import one_of_several
    from datagen.factbase import Fact

    def link(sentence: str, answer: str, relation: str) -> Fact:
        return Fact("d", "d#0", sentence, "X", True, relation, answer, "person", "Who?", "the one of {s}")

    trained = "He was trained by Edmund Leach (MPhil, Cambridge University) and Raymond Firth (PhD, LSE)."
    assert one_of_several(link(trained, "Edmund Leach", "train|by|person"))
    recorded = ('The song was recorded as "A Man Without Love" by Engelbert Humperdinck, who had a UK hit with it, '
                "and by Sergio Franchi, among others.")
    assert one_of_several(link(recorded, "Engelbert Humperdinck", "record|by|person"))
    alone = "The film was directed by Reginald Barker (credited as R. Barker) and produced in 1915."
    assert not one_of_several(link(alone, "Reginald Barker", "direct|by|person"))
    born = "She was born in Paris (France) and died in Lyon."
    assert not one_of_several(link(born, "Paris", "bear|in|place"))


@pytest.mark.parametrize(("title", "text", "author"), [
    ("The Keeper of Lanterns", "The Keeper of Lanterns is a 1964 novel by Hanae Moriyama.", "Hanae Moriyama"),
    ("Song of Pinewood", "Song of Pinewood (松林の歌 , Shōrin no uta ) is a 1971 novel by Hanae Moriyama.", "Hanae Moriyama"),
])
def test_a_title_whose_head_comes_first_is_the_sentence_subject(nlp, title: str, text: str, author: str) -> None:  # noqa: ANN001
    """ "The Face of Another is a 1964 novel by Kōbō Abe": the parse's subject is "Face", and the words
    up to it ("The Face") are not the title, so before, the page had no class and no author (HotpotQA:
    30 of its 216 links, 21 chains, were lost so)."""
    from datagen.verbless_facts import copular_relations, defining_class

    doc = nlp(text)
    assert defining_class(doc, title) == "novel"
    facts = copular_relations(doc, "d", "d#0", text, title, lambda name, proper=True, context=None: "")
    assert [(f.relation, f.answer, f.describe) for f in facts] == [("author|by|person", author, "the author of {s}")]


@pytest.mark.parametrize(("title", "text", "dates"), [
    # NER splits a quoted nickname off the name, so no PERSON names the page; the class says a person
    ("Andi Kovell", 'Andras "Andi" Kovell (May 26, 1910 – January 9, 1998) was a Hungarian-born Israeli martial artist.',
     ["May 26, 1910", "January 9, 1998"]),
    # the birth date set off by commas, no parenthesis
    ("Lena Marou", 'Lena Marou ("Λένα Μαρού" in Greek), born 6 September 1976, is a Greek American singer and songwriter.',
     ["6 September 1976"]),
])
def test_a_life_without_a_person_entity_or_parenthesis_is_read(nlp, title: str, text: str, dates: list[str]) -> None:  # noqa: ANN001
    from datagen.verbless_facts import life_facts

    assert [f.answer for f in life_facts(nlp(text), "d", "d#0", text, title, True)] == dates


def test_a_second_name_after_a_title_or_a_role_makes_a_list() -> None:
    """Hand-read HotpotQA, session 29: "the person that William Copley served under" (Playford and Downer),
    "the singer of Muthuchippi Poloru" (Warrier and Nambeesan) each named one of two."""
    from datagen.chains import one_of_several
    from datagen.factbase import Fact

    def link(sentence: str, answer: str, relation: str) -> Fact:
        return Fact("d", "d#0", sentence, "X", True, relation, answer, "person", "Who?", "the one of {s}")

    served = "He served as Minister for Agriculture under Thomas Playford II and Chief Secretary John Downer."
    assert one_of_several(link(served, "John Downer", "serve|under|person"))
    assert one_of_several(link(served, "Thomas Playford II", "serve|under|person"))
    sung = "It was sung by Sachin Warrier and actress Remya Nambeesan."
    assert one_of_several(link(sung, "Sachin Warrier", "sing|by|person"))
    written = "It was written by actress Susan Olsen with co-authors Ted Nichelson and Lisa Sutton."
    assert one_of_several(link(written, "Susan Olsen", "write|by|person"))
    assert not one_of_several(link("It was written by Susan Olsen with help from fans.", "Susan Olsen", "write|by|person"))
    raised = "She was born in 1950 and raised in Ohio."
    assert not one_of_several(link(raised, "Ohio", "raise|in|place"))


def test_a_description_takes_a_singular_verb() -> None:
    from datagen.natural import _about_one, _fill

    ask = _about_one("Where were {s} formed?")
    assert _fill(ask, s="the performer of Not If You Were the Last Junkie on Earth", c="") == (
        "Where was the performer of Not If You Were the Last Junkie on Earth formed?"
    )
    assert _about_one("the {c} where {s} are located") == "the {c} where {s} is located"


def test_he_or_she_in_a_page_about_a_work_is_not_the_page(nlp) -> None:  # noqa: ANN001
    """ "After her relationship ended, she made friends with her backing vocalist Annet Artani" in the
    song "Everytime" is the singer: before, it became "the singer that Everytime made friends with"."""
    from datagen.verb_facts import verb_facts

    text = "In 2003 she made friends with her backing vocalist Lena Marou."
    doc = nlp(text)
    resolve = lambda name, proper=True, context=None: ""  # noqa: E731
    assert verb_facts(doc, "d", "d#0", text, "Everytime", resolve, own_class="song") == []
    assert [f.answer for f in verb_facts(doc, "d", "d#0", text, "Britt Sorel", resolve, own_class="singer")] == [
        "Lena Marou"
    ]


def test_an_answer_naming_a_page_of_another_type_ends_no_chain() -> None:
    """ "In 2012, he directed Laloorinu Parayanullathu": NER calls the film a person, and "Who did the
    director of Veena Vaadanam direct?" was asked; the film's own page says it is a film."""
    from corpus_tools.types import Chunk as C
    from datagen.factbase import Fact, FactBase

    texts = {
        "veena": ("Veena Vaadanam", "Veena Vaadanam is a documentary film directed by Sathish Kalathil."),
        "sathish": ("Sathish Kalathil", "In 2012, he directed Laloorinu Parayanullathu."),
        "laloor": ("Laloorinu Parayanullathu", "Laloorinu Parayanullathu is a documentary film."),
    }
    chunks = [C(f"{d}#0", d, t, 0, 9, {"title": title}) for d, (title, t) in texts.items()]
    facts = {
        "veena": [Fact("veena", "veena#0", texts["veena"][1].rstrip("."), "Veena Vaadanam", True, "direct|by|person",
                       "Sathish Kalathil", "person", "Who directed {s}?", "the director of {s}", target="sathish")],
        "sathish": [Fact("sathish", "sathish#0", texts["sathish"][1].rstrip("."), "Sathish Kalathil", True,
                         "direct|dobj|person", "Laloorinu Parayanullathu", "person", "Who did {s} direct?",
                         "the {c} directed by {s}", target="laloor")],
    }
    base = FactBase(facts=facts, classes={"laloor": "documentary film", "veena": "documentary film"},
                    names={d: t for d, (t, _) in texts.items()})
    gen = NaturalGenerator(mine(chunks), base)
    counts = gen.chains.counts()
    # Veena Vaadanam → Sathish Kalathil ends on the misread answer; Sathish Kalathil → the film is a misread hop
    assert counts["chains:2:found"] == 0 and counts["chains:2:type_mismatch"] == 2


def test_a_name_two_documents_share_is_told_apart_by_its_title_or_starts_no_chain() -> None:
    """ "When was the performer of Boots born?": the corpus holds Nancy Sinatra's album "Boots (album)"
    and KMFDM's EP "Boots"; the question could start at either. Before, it was asked so; now the album
    is "the album Boots" (as HotpotQA writes "the 1915 film The Coward") and the bare "Boots" starts
    no chain."""
    from corpus_tools.types import Chunk as C
    from datagen.factbase import Fact, FactBase

    texts = {
        "boots-album": ("Boots (album)", "Boots is a 1966 album by Nancy Sinatra."),
        "boots-ep": ("Boots", "Boots is an EP by KMFDM."),
        "nancy": ("Nancy Sinatra", "Nancy Sinatra (born June 8, 1940) is an American singer."),
        "kmfdm": ("KMFDM", "KMFDM is a band formed in 1984."),
    }
    chunks = [C(f"{d}#0", d, t, 0, 9, {"title": title}) for d, (title, t) in texts.items()]

    def fact(doc: str, relation: str, answer: str, kind: str, ask: str, describe: str = "", target: str = "") -> Fact:
        name = "Boots" if doc.startswith("boots") else texts[doc][0]
        return Fact(doc, f"{doc}#0", texts[doc][1].rstrip("."), name, True, relation, answer, kind, ask, describe,
                    target=target)

    facts = {
        "boots-album": [fact("boots-album", "performer|by|person", "Nancy Sinatra", "person", "Who performed {s}?",
                             "the performer of {s}", "nancy")],
        "boots-ep": [fact("boots-ep", "performer|by|organization", "KMFDM", "organization", "Who performed {s}?",
                          "the performer of {s}", "kmfdm")],
        "nancy": [fact("nancy", "bear|in|date", "June 8, 1940", "date", "When was {s} born?")],
        "kmfdm": [fact("kmfdm", "form|in|date", "1984", "date", "In what year was {s} formed?")],
    }
    base = FactBase(facts=facts, classes={"nancy": "singer", "boots-album": "album", "boots-ep": "ep", "kmfdm": "band"},
                    names={"boots-album": "Boots", "boots-ep": "Boots", "nancy": "Nancy Sinatra", "kmfdm": "KMFDM"})
    gen = NaturalGenerator(mine(chunks), base)
    counts = gen.chains.counts()
    assert counts["chains:2:found"] == 1 and counts["chains:2:ambiguous_start"] == 1
    cand = gen._bridge(2, random.Random(0))
    assert cand.question == "When was the performer of the album Boots born?"
