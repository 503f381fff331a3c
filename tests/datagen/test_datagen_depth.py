"""Depth and mix of the natural generator (issue 36): 3- and 4-hop chains found wherever the corpus
has them, every hop genuine (no shortcut, a description of the right type, no hub, an answer no
earlier document gives), a hop count with no chains left given up at once with its counts,
comparisons capped in the output, splits without shared facts or questions, and extra positives.

The corpus is hand-built facts over tiny texts (no parse), so each chain rule is tested on its own:

    Silver Tide (film) → Marcus Vell (director) → Harwick (town) → Elmshire (county) → 1821
    Grey Morning (film) → Marcus Vell → Harwick: a shortcut (Grey Morning itself names Harwick)
    Luke Bullen → Static Owls: a place description of a band (type mismatch)

On the code before issue 36 (random walks, a proposal-time comparison share, splits by document):
no 4-hop task is ever proposed here, the shortcut chain is, `--hops 4` waits `patience` failures,
comparisons fill the output, and the split puts the same question on both sides.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from corpus_tools.types import Chunk, Task
from datagen.chains import entity_type
from datagen.factbase import Fact, FactBase
from datagen.mining import mine
from datagen.natural import NaturalConfig, NaturalGenerator, parse_mix
from datagen.pipeline import GenerateConfig, generate
from datagen.records import read_task_file
from datagen.split import split_tasks
from datagen.types import Candidate

TEXTS = {
    "silver": ("Silver Tide", "Silver Tide is a 1961 American drama film directed by Marcus Vell."),
    "grey": ("Grey Morning", "Grey Morning is a 1964 film directed by Marcus Vell and shot in Harwick."),
    "marcus": ("Marcus Vell", "Marcus Vell (4 April 1910 – 2 June 1975) was an American film director. He was born in Harwick."),
    "harwick": ("Harwick", "Harwick is a town in Elmshire. The town has a market."),
    "elmshire": ("Elmshire", "Elmshire is a county. Elmshire was founded in 1821."),
    "luke": ("Luke Bullen", "Luke Bullen (born 9 May 1950) is a drummer. Bullen drummed for Static Owls."),
    "owls": ("Static Owls", "Static Owls is a rock band. The band was formed in 1979 in Leeds."),
    "review": ("Film notes", "Notes on directors. Marcus Vell was born in Harwick, a market town."),
}


def fact(doc, relation, answer, kind, ask, describe="", target="", compare=""):  # noqa: ANN001, ANN201
    sentence = next(s for s in TEXTS[doc][1].split(". ") if answer in s)
    return Fact(doc_id=doc, chunk_id=f"{doc}#0", sentence=sentence.rstrip("."), subject=TEXTS[doc][0], about_doc=True,
                relation=relation, answer=answer, kind=kind, ask=ask, describe=describe, target=target, compare=compare)


BORN_FIRST = "Who was born first, {a} or {b}?"


def corpus(extra_people: int = 0, fillers: int = 0):  # noqa: ANN201
    texts = dict(TEXTS)
    for i in range(fillers):  # pages that all name Elmshire: an answer that says little
        texts[f"f{i}"] = (f"Farm {i}", f"Farm {i} is a farm in Elmshire.")
    people = []
    for i in range(extra_people):  # people to compare by birth year (comparisons need pairs)
        name = f"Person Number{chr(65 + i)}"
        texts[f"p{i}"] = (name, f"{name} (born 1 March {1900 + i}) was a writer.")
        people.append((f"p{i}", name, f"1 March {1900 + i}"))
    chunks = [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": title}) for d, (title, text) in texts.items()]
    mined = mine(chunks)
    facts = {
        "silver": [fact("silver", "direct|by|person", "Marcus Vell", "person", "Who directed {s}?", "the director of {s}", "marcus")],
        "grey": [fact("grey", "direct|by|person", "Marcus Vell", "person", "Who directed {s}?", "the director of {s}", "marcus")],
        "marcus": [
            fact("marcus", "bear|in|place", "Harwick", "place", "Where was {s} born?", "the {c} where {s} was born", "harwick"),
            fact("marcus", "bear|in|date", "4 April 1910", "date", "When was {s} born?", compare=BORN_FIRST),
        ],
        "harwick": [fact("harwick", "be|in|place", "Elmshire", "place", "In which {c} is {s}?", "the {c} that {s} is in", "elmshire")],
        "elmshire": [fact("elmshire", "found|in|date", "1821", "date", "When was {s} founded?")],
        "luke": [
            fact("luke", "drum|for|place", "Static Owls", "place", "Which {c} did {s} drum for?", "the {c} that {s} drummed for", "owls"),
            fact("luke", "bear|in|date", "9 May 1950", "date", "When was {s} born?", compare=BORN_FIRST),
        ],
        "owls": [fact("owls", "form|in|date", "1979", "date", "When was {s} formed?")],
    }
    facts["review"] = [Fact(doc_id="review", chunk_id="review#0", sentence="Marcus Vell was born in Harwick, a market town",
                            subject="Marcus Vell", about_doc=False, relation="bear|in|place", answer="Harwick", kind="place",
                            ask="Where was {s} born?")]
    for doc, name, born in people:
        facts[doc] = [Fact(doc_id=doc, chunk_id=f"{doc}#0", sentence=texts[doc][1], subject=name, about_doc=True,
                           relation="bear|in|date", answer=born, kind="date", ask="When was {s} born?", compare=BORN_FIRST)]
    names = {d: title for d, (title, _) in texts.items() if d != "review"}
    classes = {"silver": "drama film", "grey": "film", "marcus": "film director", "harwick": "town",
               "elmshire": "county", "luke": "drummer", "owls": "rock band"}
    return mined, FactBase(facts=facts, classes=classes, names=names)


def test_entity_types_come_from_the_defining_class_or_a_life() -> None:
    _, base = corpus()
    assert [entity_type(base, d) for d in ("marcus", "harwick", "owls", "silver", "luke")] == [
        "person", "place", "organization", "entity", "person"]


def test_chains_of_three_and_four_documents_are_found_and_the_faulty_ones_counted() -> None:
    mined, base = corpus()
    gen = NaturalGenerator(mined, base)
    chains = {h: [c.docs for c in cs] for h, cs in gen.chains.chains.items()}
    assert chains[4] == [("silver", "marcus", "harwick", "elmshire")]
    assert ("silver", "marcus", "harwick") in chains[3]
    assert ("grey", "marcus", "harwick") not in chains[3]  # Grey Morning names Harwick itself
    assert not any(c[0] == "luke" for cs in chains.values() for c in cs)  # a band described as a place
    blocked = gen.chains.blocked
    assert blocked[3]["shortcut"] >= 1 and blocked[4]["shortcut"] >= 1 and blocked[2]["type_mismatch"] == 1
    assert gen.stages["chains:4:found"] == 1


def test_a_four_hop_question_nests_every_description_and_names_only_its_start() -> None:
    mined, base = corpus()
    cand = NaturalGenerator(mined, base).propose(4, random.Random(0))
    assert isinstance(cand, Candidate), cand
    assert cand.hops == 4 and cand.doc_ids == ("silver", "marcus", "harwick", "elmshire")
    assert cand.answer == "1821"
    assert "Silver Tide" in cand.question
    assert not any(name in cand.question for name in ("Marcus Vell", "Harwick", "Elmshire"))
    assert cand.question.startswith("When was the county that the town where the director of Silver Tide")
    assert len(cand.clues) == 4  # one sub-question per hop (the decomposition)


def test_a_type_word_the_target_page_does_not_give_is_no_description() -> None:
    from dataclasses import replace

    mined, base = corpus()
    del base.classes["owls"]  # the band's page gives no class: "the organization that …" is the parser's guess
    base.facts["luke"][0] = replace(base.facts["luke"][0], kind="organization", relation="drum|for|organization")
    gen = NaturalGenerator(mined, base)
    assert gen.chains.blocked[2]["untyped_description"] == 1
    assert not any(c.docs[0] == "luke" for c in gen.chains.chains[2])


def test_a_hub_ends_one_task(tmp_path: Path) -> None:
    mined, base = corpus()
    gen = NaturalGenerator(mined, base, NaturalConfig(hub_in_links=1))  # Marcus Vell: two films link to him
    assert "marcus" in gen.chains.hubs
    generate(gen, mined, tmp_path / "t.jsonl", GenerateConfig(n=20, hops=(2,), patience=20))
    ends = [t.gold_doc_ids[-1] for t in read_task_file(tmp_path / "t.jsonl")]
    assert ends.count("marcus") == 1  # Silver Tide → Marcus Vell and Grey Morning → Marcus Vell: one of them


def test_an_answer_most_documents_name_ends_no_chain() -> None:
    mined, base = corpus(fillers=30)
    gen = NaturalGenerator(mined, base)
    assert ("silver", "marcus", "harwick") not in [c.docs for c in gen.chains.chains[3]]
    assert gen.chains.blocked[3]["vague_answer"] >= 1
    assert [c.docs for c in gen.chains.chains[4]] == [("silver", "marcus", "harwick", "elmshire")]  # 1821 is no name


def test_hops_with_no_chain_are_given_up_at_once_and_explained(tmp_path: Path) -> None:
    mined, base = corpus()
    gen = NaturalGenerator(mined, base)
    report = generate(gen, mined, tmp_path / "t.jsonl", GenerateConfig(n=10, hops=(3, 4), patience=200))
    tasks = read_task_file(tmp_path / "t.jsonl")
    assert {t.hops for t in tasks} == {3, 4}
    # Silver Tide → Marcus Vell → Harwick, Marcus Vell → Harwick → Elmshire, and the one 4-hop chain, once each
    assert sorted((t.hops, t.gold_doc_ids[0]) for t in tasks) == [(3, "marcus"), (3, "silver"), (4, "silver")]
    assert report.attempted < 20  # not `patience` proposals: the generator says when it is spent
    assert set(report.given_up) == {3, 4}
    assert "1 chain(s) of 4 documents" in report.given_up[4] and "shortcut" in report.given_up[4]
    assert "cannot yield more" in report.stopped


def test_comparisons_stay_within_their_share_of_the_output(tmp_path: Path) -> None:
    mined, base = corpus(extra_people=12)
    gen = NaturalGenerator(mined, base, NaturalConfig(comparison_share=0.25))
    generate(gen, mined, tmp_path / "t.jsonl", GenerateConfig(n=40, hops=(2, 3, 4), patience=50))
    multi = [t for t in read_task_file(tmp_path / "t.jsonl") if t.hops > 1]
    comparisons = [t for t in multi if t.metadata["form"] == "comparison"]
    assert multi and len(comparisons) <= 0.25 * len(multi)


def test_the_mix_option_reads_shares_and_refuses_nonsense() -> None:
    assert parse_mix("comparison=0.25, relation=0.1") == {"comparison_share": 0.25, "relation_share": 0.1}
    assert parse_mix("") == {}
    for bad in ("comparison=2", "bridge=0.5", "comparison", "relation=x"):
        with pytest.raises(ValueError):
            parse_mix(bad)


def test_every_passage_that_states_the_answer_fact_is_gold(tmp_path: Path) -> None:
    mined, base = corpus()
    gen = NaturalGenerator(mined, base, NaturalConfig(max_final_uses=5, max_doc_uses=5))
    generate(gen, mined, tmp_path / "t.jsonl", GenerateConfig(n=10, hops=(2,), patience=20))
    task = next(t for t in read_task_file(tmp_path / "t.jsonl") if t.answers[0] == "Harwick")
    assert task.facts[-1] == ("marcus#0", "review#0")  # the notes page states the same birthplace
    assert task.metadata["extra_positives"][0]["doc_id"] == "review"
    assert "review" not in task.gold_doc_ids  # a positive of the fact, not a hop of the chain


def _task(i: int, query: str, doc: str, key: str) -> Task:
    meta = {"fact_keys": [key], "supporting": [{"doc_id": doc, "quotes": [f"quote {key}"], "contains_truth": True}]}
    return Task(task_id=f"t{i}", query=query, answers=("x",), gold_doc_ids=(doc,), hops=1, metadata=meta)


def test_a_split_never_puts_one_fact_or_question_on_both_sides() -> None:
    # the same question asked of four quarterly filings (four documents), for 10 facts
    tasks = [_task(10 * f + q, f"What was the revenue of company {f}?", f"filing-{f}-q{q}", f"rev{f}")
             for f in range(10) for q in range(4)]
    split = split_tasks(tasks, test_fraction=0.2, seed=0)
    assert split.test and split.train
    assert not split.leaks()
    assert not {t.query for t in split.test} & {t.query for t in split.train}


def test_malformed_subjects_are_refused_and_values_kept_whole() -> None:
    from datagen.factbase import malformed_subject, whole_value

    for bad in ("Inc.", "LLC", "the Company Inc", "Item 2. Management", "RISK FACTORS", "our products", "2023 results"):
        assert malformed_subject(bad), bad
    for good in ("Apple Inc.", "Microsoft", "The Walt Disney Company", "NVIDIA Corporation"):
        assert not malformed_subject(good), good
    sentence = "The case is pending in the United States District Court for the Northern District of California."
    assert whole_value("Northern District", sentence) == "Northern District of California"
    assert whole_value("Western District", "It was filed in the Western District of Washington.") == (
        "Western District of Washington")
    assert whole_value("Paris", "She was born in Paris of course, and of Paris she wrote.") == "Paris"  # twice: unchanged
    assert whole_value("Leeds", "formed in Leeds in 1989") == "Leeds"


def test_a_corpus_without_titles_gives_single_hop_tasks_and_says_why(tmp_path: Path) -> None:
    """Old code: `--hops 2-4` on mail gives nothing after `patience` failures per hop count."""
    from datagen.nlp import load_pipeline
    from datagen.relations import read_facts

    text = "Microsoft was founded by Bill Gates in 1975. Microsoft moved its headquarters to Redmond in 1986."
    mined = mine([Chunk("mail-1#0", "mail-1", text, 0, 20, {})])
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline()))
    report = generate(gen, mined, tmp_path / "t.jsonl", GenerateConfig(n=3, hops=(2, 3, 4)))
    tasks = read_task_file(tmp_path / "t.jsonl")
    assert tasks and all(t.hops == 1 for t in tasks)
    assert "single-hop tasks are written instead" in report.fallback
    assert "0 document(s) have a title" in report.fallback


def test_an_object_named_in_a_list_is_no_hop_and_no_answer() -> None:
    from datagen.chains import one_of_several

    def f(sentence: str, answer: str, kind: str = "person") -> Fact:
        return Fact("d", "d#0", sentence, "X", True, "r", answer, kind, "Who?")

    assert one_of_several(f("He was installed by Harold and Tostig Godwinson as king.", "Tostig Godwinson"))
    assert one_of_several(f("It was written by Ross Lynch, Riker Lynch, Rocky Lynch and Ellington Ratliff.", "Ross Lynch"))
    assert one_of_several(f("It was directed by Ann Lee and Bo Ray.", "Ann Lee"))
    assert not one_of_several(f("It was directed by Elia Kazan (to whom it is dedicated), and won.", "Elia Kazan"))
    assert not one_of_several(f("He was born in Savannah, Georgia, and raised there.", "Savannah", "place"))
    assert not one_of_several(f("Silver Tide is a film directed by Marcus Vell.", "Marcus Vell"))


def test_a_resumed_run_duplicates_nothing_and_keeps_the_mix(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    mined, base = corpus(extra_people=12)
    generate(NaturalGenerator(mined, base), mined, out, GenerateConfig(n=3, hops=(2, 3, 4), patience=50))
    with out.open("a", encoding="utf-8") as f:
        f.write('{"task_id": "gen-cut')  # the run was killed mid-line
    mined, base = corpus(extra_people=12)  # a new process: a fresh generator over the same corpus
    report = generate(NaturalGenerator(mined, base), mined, out, GenerateConfig(n=40, hops=(2, 3, 4), patience=50))
    tasks = read_task_file(out)
    assert report.existing == 3 and len(tasks) == 3 + report.written
    assert len({t.task_id for t in tasks}) == len(tasks) and len({t.query for t in tasks}) == len(tasks)
    multi = [t for t in tasks if t.hops > 1]
    assert sum(t.metadata["form"] == "comparison" for t in multi) <= 0.2 * len(multi)


def test_four_hops_where_the_corpus_has_none_gives_fewer_tasks_each_count_explained(tmp_path: Path) -> None:
    mined, base = corpus()
    base.facts["elmshire"] = []  # no answer at the end of the one 4-document path
    report = generate(NaturalGenerator(mined, base), mined, tmp_path / "t.jsonl", GenerateConfig(n=5, hops=(4,)))
    assert report.written == 0 and not report.fallback  # not single-hop tasks in their place
    assert "no chain of 4 documents in the corpus (2 path(s)" in report.given_up[4], report.given_up
    assert "no_answer 1" in report.given_up[4]
    assert report.attempted == 0


Q3 = ("(In millions) | Three Months Ended Sep 30, 2023 | Three Months Ended Sep 24, 2022\n"
      "Net revenue | $ | 14,158 | $ | 15,338\nGross margin | 6,016 | 6,266")
Q4 = ("(In millions) | Three Months Ended Dec 30, 2023 | Three Months Ended Sep 30, 2023\n"
      "Net revenue | $ | 15,406 | $ | 14,158\nGross margin | 7,047 | 6,016")
LOST = "Net revenue | 14,158 | 15,338\nGross margin | 6,016 | 6,266"  # a later chunk whose header row is lost


def test_table_rows_give_natural_questions_and_the_same_fact_in_two_filings_is_one(tmp_path: Path) -> None:
    """Old code: a table's rows are parsed as sentences and give no question (or "Which place did Inc. …")."""
    from datagen.nlp import load_pipeline
    from datagen.relations import read_facts

    meta = {"kind": "table", "company": "Initech Corporation", "title": "d512345d10q.htm"}
    chunks = [Chunk("q3#0", "q3", Q3, 0, 30, meta), Chunk("q4#0", "q4", Q4, 0, 30, {**meta, "title": "d6789d10q.htm"}),
              Chunk("q3#1", "q3", LOST, 1, 20, {**meta, "header": "Initech Corporation · Item 2"})]
    mined = mine(chunks)
    base = read_facts(mined, load_pipeline())
    assert base.skipped["table_row_without_header"] == 2
    report = generate(NaturalGenerator(mined, base), mined, tmp_path / "t.jsonl", GenerateConfig(n=20, hops=(1,), patience=30))
    tasks = {t.query: t for t in read_task_file(tmp_path / "t.jsonl")}
    q = "What was Initech's net revenue, in millions of dollars, for the quarter ended September 30, 2023?"
    assert q in tasks and tasks[q].answers[0] == "14,158", (list(tasks), report.drops)
    assert {"q3#0", "q4#0"} <= set(tasks[q].facts[-1])  # both filings state it: either finds the fact
    import re

    form = re.compile(r"^What was Initech's (net revenue|gross margin), in millions of dollars, for the quarter ended \w+ \d+, \d{4}\?$")
    assert len(tasks) >= 3 and all(form.match(q) for q in tasks), list(tasks)
    split = split_tasks(list(tasks.values()), test_fraction=0.5, seed=0)
    assert not split.leaks()  # the Sep 30 figure asked of either filing stays on one side
