"""A question that names a meeting of the folder is narrowed to it (issue 34 with issue 36's meeting questions:
`SearchConfig.meeting_names`, `corpus_tools.meeting_names.MeetingCatalog`, read by `constraints="auto"`).

The fixture folder (tests/fixtures/meetings_search_named, invented) holds two look-alike lamp-design series (LD3001a–b,
LD3002a–b: the same roles, the same lamp), two numbered sittings of one committee (harbour_3, harbour_7: the same
member asks in both), a file whose stem is an ordinary word (price.txt) and one whose name has accents, spaces and
parentheses, and a cp1252 sitting with CRLF line ends (tides_2). No passage holds a meeting's name, so a plain search answers from the wrong meeting; narrowing does not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus_tools.meeting_names import MeetingCatalog

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "meetings_search_named"
IDS = sorted(p.name for p in FOLDER.iterdir())
ODD = "réunion été (copie) v2.txt"


def _first_lines() -> dict[str, str]:
    from corpus_tools.readers import read_text  # as the loader decodes them (one fixture is cp1252)

    return {d: "\n".join(read_text(FOLDER / d).split("\n")[:3]) for d in IDS}


@pytest.fixture(scope="module")
def catalog() -> MeetingCatalog:
    return MeetingCatalog(IDS, _first_lines())


@pytest.mark.parametrize("question, named", [
    ("In the LD3002 kick-off meeting, what selling price did the project manager give?", ["LD3002a.txt"]),
    ("In the second LD3001 meeting, what bulb was chosen?", ["LD3001b.txt"]),
    ("What did the LD3002 functional design meeting decide about the neck?", ["LD3002b.txt"]),
    ("In the LD3001 meetings, who was the industrial designer?", ["LD3001a.txt", "LD3001b.txt"]),
    ("In the LD3001 kick-off and the functional design meetings, what price was given?",
     ["LD3001a.txt", "LD3001b.txt"]),
    ("in ld3002b, what did marketing say?", ["LD3002b.txt"]),
    ("What did LD3001 decide?", ["LD3001a.txt", "LD3001b.txt"]),  # the series' stem alone: the whole series
    ("In LD3001a.txt, what price?", ["LD3001a.txt"]),
    ("Compare LD3001a and LD3002a: which price is lower?", ["LD3001a.txt", "LD3002a.txt"]),
    ("What did Ms. Oduya ask at the 7th meeting of the Standing Committee on Coastal Fisheries?", ["harbour_7.txt"]),
    ("At the seventh meeting of the Standing Committee on Coastal Fisheries, what did Ms. Oduya ask?",
     ["harbour_7.txt"]),
    ("In harbour_3, when does the wharf repair money arrive?", ["harbour_3.txt"]),
    ("What did the Standing Committee on Coastal Fisheries hear about wharves?", ["harbour_3.txt", "harbour_7.txt"]),
])
def test_a_question_names_a_meeting_of_the_folder(catalog, question, named):
    assert catalog.named_in(question) == named


@pytest.mark.parametrize("question", [
    "In the LD3009 kick-off meeting, what price was given?",  # a series the folder lacks
    "At the 12th meeting of the Standing Committee on Coastal Fisheries, what was asked?",  # a sitting it lacks
    "In ES2002a, what price did the project manager give?",  # a meeting of another folder
    "What price did the project manager give for the lamp?",  # "price" is a file's stem and an ordinary word
    "What did the functional design of the lamp include?",  # a stage as a topic, no series named
    "Was the réunion été (copie) v2 about the lamp budget?",  # an odd file name is no distinctive stem
])
def test_no_meeting_is_named_unless_the_folder_has_it(catalog, question):
    assert catalog.named_in(question) == []


def test_titles_and_session_ids_are_never_names():
    """HotpotQA / MuSiQue ids are titles ("U2", "Route 66b"), LoCoMo's session ids ("conv26/D1:3"): no file suffix, no
    name, whatever the question says; the ordinary-word stem of a file is none either."""
    ids = ["U2", "Route 66a", "Route 66b", "B52a", "B52b", "conv26/D1:3", "conv26/D2:1", "minutes.txt", "plan.md"]
    catalog = MeetingCatalog(ids)
    assert not catalog
    for question in ("Which U2 album came first?", "Where does Route 66b start?", "Did B52a fly?",
                     "What happened in D1:3?", "What do the minutes say?"):
        assert catalog.named_in(question) == []


def test_an_empty_or_headless_folder_names_nothing():
    assert MeetingCatalog([]).named_in("In the LD3001 kick-off meeting?") == []
    # a sitting's welcome past the first lines, an empty transcript, a transcript with no welcome at all
    late = "Chair: Order.\nChair: Order.\nChair: Order.\nChair: Welcome to the 4th meeting of the Standing Committee on Tides."
    catalog = MeetingCatalog(["tides_4.txt", "empty.txt", "plain.txt"],
                             {"tides_4.txt": late, "empty.txt": "", "plain.txt": "no speaker lines here"})
    assert catalog.named_in("At the 4th meeting of the Standing Committee on Tides, what was said?") == []
    assert catalog.named_in("In tides_4, what was said?") == ["tides_4.txt"]


@pytest.fixture(scope="module")
def index(tmp_path_factory, config) -> Path:
    from corpus_tools import Corpus

    path = tmp_path_factory.mktemp("named") / "idx"
    Corpus.build(FOLDER, path, config=config, progress=False).close()
    return path


def _top_doc(index: Path, question: str, on: bool) -> str:
    from corpus_tools import Corpus
    from corpus_tools.config import SearchConfig

    with Corpus.open(index, search=SearchConfig(meeting_names=on)) as corpus:
        return corpus.search(question, k=5, constraints="auto")[0].chunk.doc_id


@pytest.mark.parametrize("question, meeting", [
    ("In the LD3002 kick-off meeting, what selling price did the project manager give?", "LD3002a.txt"),
    ("In LD3002a, what selling price did the project manager give?", "LD3002a.txt"),
    ("When did Ms. Oduya ask the wharf repair money would arrive, at the 7th meeting of the Standing Committee"
     " on Coastal Fisheries?", "harbour_7.txt"),
])
def test_search_answers_from_the_meeting_named_and_only_with_the_flag(index, question, meeting):
    assert _top_doc(index, question, on=False) != meeting  # the look-alike meeting wins a plain search
    assert _top_doc(index, question, on=True) == meeting


def test_the_named_meetings_are_a_constraint_the_agent_can_pass_back(index):
    """`question_constraints` says which meetings a question names; the dict passed back as `constraints` (as the
    agent's harness does) ranks them first as "auto" does; a name matching no meeting reads as before ({})."""
    from corpus_tools import Corpus
    from corpus_tools.config import SearchConfig

    question = "In the LD3002 kick-off meeting, what selling price did the project manager give?"
    with Corpus.open(index, search=SearchConfig(meeting_names=True)) as corpus:
        read = corpus.question_constraints(question)
        assert read["meeting"] == ["LD3002a.txt"]
        assert corpus.search(question, k=3, constraints=read)[0].chunk.doc_id == "LD3002a.txt"
        assert corpus.question_constraints("In the LD3009 kick-off meeting, what price?") == {}
        missing = [h.chunk.chunk_id for h in corpus.search("In the LD3009 kick-off meeting, what price?", k=5,
                                                           constraints="auto")]
        assert ODD in corpus.doc_ids()
    with Corpus.open(index, search=SearchConfig(meeting_names=False)) as corpus:
        assert corpus.question_constraints(question) == {}
        assert [h.chunk.chunk_id for h in corpus.search("In the LD3009 kick-off meeting, what price?", k=5,
                                                        constraints="auto")] == missing


def test_the_flag_must_be_a_bool():
    from corpus_tools.config import SearchConfig

    with pytest.raises(ValueError, match="meeting_names"):
        SearchConfig(meeting_names=1)


def test_the_command_line_says_which_meeting_it_read():
    from context1.interfaces.cli_corpus import constraints_line

    assert constraints_line({"meeting": ["LD3002a.txt"], "notes": []}) == "constraints: meeting LD3002a.txt"


def test_a_windows_encoded_sitting_with_crlf_lines_is_named_from_its_index(index):
    """tides_2_cp1252_crlf.txt is cp1252 with CRLF line ends (a committee's export from Windows): its first lines
    are read back from the index's first chunk, and its sitting is named ("2nd" said as "second" too)."""
    from corpus_tools import Corpus
    from corpus_tools.config import SearchConfig

    doc = "tides_2_cp1252_crlf.txt"
    question = "At the second meeting of the Standing Committee on Tidal Energy, how many turbines were promised?"
    with Corpus.open(index, search=SearchConfig(meeting_names=True)) as corpus:
        assert corpus.question_constraints(question)["meeting"] == [doc]
        assert corpus.question_constraints("In tides_2_cp1252_crlf, who chaired?")["meeting"] == [doc]
        assert corpus.search(question, k=1, constraints="auto")[0].chunk.doc_id == doc
