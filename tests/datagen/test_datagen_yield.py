"""Yield without shallower tasks (issue 36, session 28): bridges one search solves kept up to the share
real compositional questions show, two bridges compared through their descriptions (2WikiMultihopQA's
bridge comparison), and claims read off scientific prose where the relation templates find nothing.

On the code before: every solved bridge is dropped (a HotpotQA-like corpus kept 14 of 64), no task
compares two bridges, and a corpus of abstracts gives no task at all.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from corpus_tools.types import Chunk
from datagen.claims import claim_of, paper_titles
from datagen.factbase import Fact, FactBase
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.pipeline import GenerateConfig, generate
from datagen.records import read_task_file
from datagen.types import Candidate

BORN_FIRST = "Who was born first, {a} or {b}?"
FILMS = {  # film → director (born), each film names only its director
    "silver": ("Silver Tide", "marcus", "Marcus Vell", "4 April 1910"),
    "blue": ("Blue Harbour", "anna", "Anna Reyes", "2 May 1921"),
    "iron": ("Iron Gate", "tomas", "Tomas Brandt", "9 June 1932"),
}


def corpus() -> tuple:
    texts, facts, classes = {}, {}, {}
    for film, (title, person, name, born) in FILMS.items():
        texts[film] = (title, f"{title} is a 1961 drama film directed by {name}.")
        texts[person] = (name, f"{name} (born {born}) was a film director.")
        facts[film] = [Fact(film, f"{film}#0", texts[film][1].rstrip("."), title, True, "direct|by|person", name,
                            "person", "Who directed {s}?", "the director of {s}", target=person)]
        facts[person] = [Fact(person, f"{person}#0", texts[person][1].rstrip("."), name, True, "bear|in|date", born,
                              "date", "When was {s} born?", compare=BORN_FIRST)]
        classes[film], classes[person] = "drama film", "film director"
    chunks = [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": title}) for d, (title, text) in texts.items()]
    names = {d: title for d, (title, _) in texts.items()}
    return mine(chunks), FactBase(facts=facts, classes=classes, names=names)


def test_two_bridges_are_compared_through_their_descriptions() -> None:
    mined, base = corpus()
    gen = NaturalGenerator(mined, base)
    rng = random.Random(0)
    found = [c for c in (gen._bridge_comparison(rng) for _ in range(6)) if isinstance(c, Candidate)]
    assert found
    for cand in found:
        assert cand.metadata["form"] == "bridge_comparison" and cand.hops == 4
        assert cand.question.startswith("Who was born first, the director of ")
        people = [FILMS[d][2] for d in cand.doc_ids if d in FILMS]
        assert not any(p in cand.question for p in people)  # each side's hop must be taken
        assert cand.answer == min(people, key=lambda p: next(v[3][-4:] for v in FILMS.values() if v[2] == p))
        assert not any(cand.answer in clue for clue in cand.clues)


def test_bridge_comparisons_stay_within_their_share(tmp_path: Path) -> None:
    mined, base = corpus()
    gen = NaturalGenerator(mined, base, NaturalConfig(bridge_comparison_share=0.34, comparison_share=0.0))
    generate(gen, mined, tmp_path / "t.jsonl", GenerateConfig(n=20, hops=(2,), patience=30))
    tasks = read_task_file(tmp_path / "t.jsonl")
    forms = [t.metadata["form"] for t in tasks]
    assert "bridge_comparison" in forms and "bridge" in forms
    assert forms.count("bridge_comparison") <= 0.34 * len(forms)
    assert parse_mix("bridge_comparison=0.1") == {"bridge_comparison_share": 0.1}


def search(question: str) -> dict[str, list[str]]:
    """One search that finds both documents of every question but those about Iron Gate (the corpus
    has fewer than 10 documents; Iron Gate's director stays out of the top 10)."""
    docs = ["iron"] if "Iron Gate" in question else ["silver", "marcus", "blue", "anna", "iron", "tomas"]
    return {"hybrid": docs, "bm25": docs, "dense": docs}


@pytest.mark.parametrize("budget", [0.0, 0.5])
def test_bridges_one_search_solves_are_kept_up_to_their_budget(tmp_path: Path, budget: float) -> None:
    mined, base = corpus()
    gen = NaturalGenerator(mined, base, NaturalConfig(comparison_share=0.0, bridge_comparison_share=0.0))
    config = GenerateConfig(n=10, hops=(2,), patience=30, solved_budget=budget, bm25_budget=None)
    report = generate(gen, mined, tmp_path / "t.jsonl", config, searcher=search)
    tasks = read_task_file(tmp_path / "t.jsonl")
    solved = [t for t in tasks if t.metadata["one_search_solves"]]
    assert [t.query for t in tasks if not t.metadata["one_search_solves"]] == ["When was the director of Iron Gate born?"]
    assert report.drops["one_search_solves"] > 0
    if budget == 0.0:
        assert not solved  # the old rule: every solved bridge dropped
    else:
        assert len(solved) == 1  # the one solved bridge the share allows beside the unsolved one


def test_the_solved_budget_is_a_share() -> None:
    with pytest.raises(ValueError, match="solved_budget"):
        GenerateConfig(solved_budget=1.5)


RESULTS = [
    ("In this report, we show that Megator and Mad2 form a conserved complex that localizes to the spindle matrix "
     "(Fig. 2).", "Megator and Mad2 form a conserved complex that localizes to the spindle matrix."),
    ("Thus, CD28 cosignaling is crucial for immunity against S. typhimurium; other signals were dispensable.",
     "CD28 cosignaling is crucial for immunity against S. typhimurium."),
    ("These results indicate that vitamin D deficiency is associated with a higher risk of fracture.",
     "Vitamin D deficiency is associated with a higher risk of fracture."),
]


def test_a_claim_is_the_finding_a_results_sentence_states() -> None:
    for sentence, claim in RESULTS + [
        ("Together, LXR agonists inhibited expression of proapoptotic regulators in macrophages (Table 2).",
         "LXR agonists inhibited expression of proapoptotic regulators in macrophages."),
        ("Together, these data suggest that sMD-2 is a newly recognized acute-phase reactant in serum.",
         "sMD-2 is a newly recognized acute-phase reactant in serum."),  # a gene's case is kept
        ("Thus, the level of CX(3)CR1 expression defines the two major monocyte subsets (Fig. 3), which share phenotype.",
         "The level of CX(3)CR1 expression defines the two major monocyte subsets."),  # a name keeps its parenthesis
    ]:
        assert claim_of(sentence) == claim
    for no_claim in (
        "These mice were highly susceptible to infection.",  # needs its context: which mice?
        "We used mice deficient in CD28 expression to analyze the role of CD28.",  # first person, a method
        "CD28 is one of the molecules that provide costimulatory signals for T cells.",  # the whole sentence
        "Thus, the rates were 35 and 53 in the placebo and SSZ groups, respectively.",  # a count
        "Thus, it works.",  # too short to find anything with
        "Thus, two loci gave replicated evidence of association with the disease.",  # a count: which loci?
        "as births and deaths occur in their locality and the system determines their causes.",  # a cut tail
        "RESULTS Alcohol consumption patterns were compared between 11,511 cases and 6077 controls.",  # a method
        "Thus, JAK mutations cooperate with CRLF2 to promote leukemogenesis in this disease.",  # which disease?
        "Thus, a computational analysis was then used to reveal the loci of ethanol tolerance.",  # a method
    ):
        assert claim_of(no_claim) is None, no_claim


def test_abstracts_without_relations_yield_claim_tasks_by_default(tmp_path: Path) -> None:
    """Old code: no chain and no relation, so no task at all (SciFact: 9 of 2,000)."""
    intro = "Efficient T cell activation requires costimulatory signals. The receptor was studied in mice. "
    chunks = [Chunk(f"a{i}#0", f"a{i}", intro + " ".join(s for s, _ in RESULTS[i:] + RESULTS[:i]), 0, 80,
                    {"title": f"Abstract {i}"}) for i in range(3)]
    mined = mine(chunks)
    gen = NaturalGenerator(mined, FactBase(names={f"a{i}": f"Abstract {i}" for i in range(3)}))
    report = generate(gen, mined, tmp_path / "t.jsonl", GenerateConfig(n=6, hops=(2, 3, 4), patience=40))
    tasks = read_task_file(tmp_path / "t.jsonl")
    assert "single-hop tasks are written instead" in report.fallback
    assert len(tasks) >= 3 and all(t.metadata["form"] == "claim" and t.hops == 1 for t in tasks)
    for t in tasks:
        assert t.query in {c for _, c in RESULTS}
        assert t.answers[0] in {s for s, _ in RESULTS}  # the evidence sentence, in the gold abstract
    # the same sentences in a chat with no title that names it: opinions, not findings (no claims)
    chat = mine([Chunk("s1#0", "s1", intro + " ".join(s for s, _ in RESULTS), 0, 80, {})])
    assert not NaturalGenerator(chat, FactBase()).claims


def test_a_page_is_its_subject_under_its_full_name_or_its_class_word() -> None:
    """Old code: "Cynthia Ellen Nixon (born April 9, 1966) is an American actress." in the page "Cynthia
    Nixon", or "The album was produced by Lee Hazlewood." in "Boots (album)", states nothing about the
    page, so no chain could end on it (HotpotQA: 37 of 158 links stopped there)."""
    from datagen.nlp import load_pipeline
    from datagen.relations import _sentence_facts
    from datagen.syntax import fuller_name, own_class_word

    assert fuller_name(("cynthia", "ellen", "nixon"), ("cynthia", "nixon"))
    assert fuller_name(("kenneth", "charles", "loach"), ("ken", "loach"))
    assert fuller_name(("nicholas", "lofton", "nick", "hexum"), ("nick", "hexum"))
    assert fuller_name(("leeds", "rhinos", "r", "l", "f", "c"), ("leeds", "rhinos"))
    assert not fuller_name(("john", "ford", "house"), ("john", "ford"))  # another thing named after him
    assert not fuller_name(("john", "ford", "coppola"), ("john", "ford"))
    assert not fuller_name(("ford",), ("john", "ford"))
    assert own_class_word("Boots (album)", "") == "album" and own_class_word("Pitfall (1962 film)", "") == "film"
    assert own_class_word("Leeds Rhinos", "rugby league club") == "club"

    nlp = load_pipeline()

    def facts(title: str, text: str, own: str = "") -> dict[str, str]:
        out = _sentence_facts(nlp(text), "d", "d#0", text, title, lambda n, p, context=None: "", True, own_class=own)
        return {f.relation: f.answer for f in out if f.about_doc}

    assert facts("Cynthia Nixon", "Cynthia Ellen Nixon (born April 9, 1966) is an American actress.").get(
        "bear|in|date") == "April 9, 1966"
    assert facts("Boots (album)", "The album was produced by Lee Hazlewood.", "album") == {
        "produce|by|person": "Lee Hazlewood"}
    assert facts("Boots (album)", "The album was produced by Lee Hazlewood.") == {}
    assert facts("Lee Hazlewood", "The film was produced by Lee Hazlewood.", "singer") == {}  # another film


def test_a_quoted_title_is_no_person_and_an_opinion_is_no_relation() -> None:
    """Old code: "Who did the performer of Coco release?" → "Breakthrough"; "Who described the director of
    Baby Doll?" → "The New York Times" (hand-read HotpotQA tasks, session 28)."""
    from datagen.nlp import load_pipeline
    from datagen.relations import _sentence_facts

    nlp = load_pipeline()

    def facts(title: str, text: str) -> dict[str, str]:
        out = _sentence_facts(nlp(text), "d", "d#0", text, title, lambda n, p, context=None: "", True)
        return {f.relation: f.ask for f in out}

    released = facts("Colbie Caillat", 'In August 2009, she released "Breakthrough", her second album.')
    assert released == {"release|dobj|entity": "Which {c} did {s} release?"}
    described = facts("Elia Kazan", 'Elia Kazan was a director, described by "The New York Times" as "one of the best".')
    assert not any(r.startswith("describe|") for r in described)
    # MuSiQue: "Which work was Boston the site of?" → World Series; "Who bordered San Marcos?" → Escondido
    assert facts("Boston", "Boston was the site of the first game of the first modern World Series, in 1903.") == {}
    # (session 31: what lies on a side is read as such, never as who "bordered" it)
    assert facts("San Marcos", "San Marcos is bordered by Escondido to the east and Vista to the north.") == {
        "side|east|place": "What lies to the east of {s}?"}
    assert facts("Steven Spielberg", "Spielberg was a member of the Directors Guild of America.") == {
        "be|of|organization": "Which {c} was {s} a member of?"}


def test_two_documents_are_compared_once_whichever_comes_first() -> None:
    """Old code: "Which song was written first, A or B?" and "…, B or A?" were both written (HotpotQA)."""
    mined, base = corpus()
    gen = NaturalGenerator(mined, base)
    rng = random.Random(0)
    asked = [c for c in (gen._comparison(rng) for _ in range(60)) if isinstance(c, Candidate)]
    pairs = [frozenset(c.metadata["options"]) for c in asked]
    assert asked and len(pairs) == len(set(pairs)) <= 3  # three directors: three pairs at most


def test_a_paper_title_is_asked_by_its_claims_not_as_a_name() -> None:
    """Old code: a paper whose sentence the templates misread got a relation question with its title as the
    subject ("Which organization is GITR, a member of the TNF receptor superfamily, is costimulatory to mouse
    T lymphocyte subpopulations. a member of?" → "TNFR") and no claim. A name that ends with a period is
    still a name."""
    paper = "GITR, a member of the TNF receptor superfamily, is costimulatory to mouse T lymphocyte subpopulations."
    texts = {
        "p1": (paper, "GITR is a member of the TNFR family. Its ligand was cloned. Mice lacking it were studied. "
                      "Thus, GITR costimulation enhances the proliferation of naive CD4 T cells in mouse spleen."),
        "b1": ("My Name Is Bill W.", "My Name Is Bill W. is a 1989 film directed by Daniel Petrie."),
        "d1": ("Daniel Petrie", "Daniel Petrie was a Canadian film director."),
        "h1": ("Blue Harbour", "Blue Harbour is a 1961 drama film."),
    }
    chunks = [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": title}) for d, (title, text) in texts.items()]
    facts = {
        "p1": [Fact("p1", "p1#0", "GITR is a member of the TNFR family", paper, True, "be|of|organization", "TNFR",
                    "organization", "Which organization is {s} a member of?", "the member of {s}")],
        "b1": [Fact("b1", "b1#0", texts["b1"][1].rstrip("."), "My Name Is Bill W.", True, "direct|by|person",
                    "Daniel Petrie", "person", "Who directed {s}?", "the director of {s}")],
    }
    gen = NaturalGenerator(mine(chunks), FactBase(facts=facts, names={d: t for d, (t, _) in texts.items()}))
    assert gen.answerable == ["b1"]
    assert [c for _, c in gen.claims["p1"]] == ["GITR costimulation enhances the proliferation of naive CD4 T cells in mouse spleen."]
    rng = random.Random(0)
    questions = {gen._single(rng).question for _ in range(20)}
    assert not any(paper in q for q in questions)
    assert "Who directed My Name Is Bill W.?" in questions
    # in a corpus of papers, a title is a paper's with or without its period
    assert paper_titles({"p1": paper, "p2": "Bromodomain Proteins Contribute to Stage Identity in the Trypanosome"}) == {
        "p1", "p2"}
    assert paper_titles({"p1": paper, "b1": "My Name Is Bill W.", "d1": "Daniel Petrie", "h1": "Blue Harbour"}) == {"p1"}
