"""A meeting's speakers read as people (SearchConfig.speaker_names): a committee's labels with titles, offices,
ridings and parties, a member named by surname, "the professor" of a research meeting; and the bad input a
folder of meetings brings (nested parentheses, no speaker lines, an empty turn, CRLF and Latin-1 bytes).
The fixtures (tests/fixtures/meetings) are invented."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus_tools.speakers import label_speaker, line_speakers, named_speakers, outside_parentheses, person, turns

MEETINGS = Path(__file__).resolve().parents[1] / "fixtures" / "meetings"

COMMITTEE = {"The Chair", "The Acting Chair (Mrs. Dana Whitcombe (Port Alder—Kestrel Bay, Lib.))",
             "Hon. Rosalind Petrakis (Minister of Coastal Transport and Island Communities)",
             "Mr. Tobias Quennell (Harrow Point—Little Fenwick, CPC)", "Ms. Imogen Varga (Stillwater North, NDP)",
             "Mr. Wendell Okafor-Brandt (Saltmarsh—Greywater, BQ)", "Right Hon. Edwin Marlow", "Hon. Edwin Marlow",
             "Mr. Garnet Lindqvist (Fenwick Moor—Abbotsford Reach, CPC)", "Ms. Ada Lindqvist-Roe", "Huw Penrose",
             "Carys Penrose AM", "Professor B", "Grad C", "PhD F", "Project Manager", "Marketing"}


@pytest.mark.parametrize("label, name", [
    ("Hon. Rosalind Petrakis (Minister of Coastal Transport and Island Communities)", "Rosalind Petrakis"),
    ("The Acting Chair (Mrs. Dana Whitcombe (Port Alder—Kestrel Bay, Lib.))", "Dana Whitcombe"),  # nested
    ("The Chair (Hon. Edwin Marlow (Riverside, Lib.)", "Edwin Marlow"),  # a parenthesis never closed
    ("Mr. Wendell Okafor-Brandt (Saltmarsh—Greywater, BQ)", "Wendell Okafor-Brandt"),
    ("Right Hon. Edwin Marlow", "Edwin Marlow"), ("Carys Penrose AM", "Carys Penrose"), ("Huw Penrose", "Huw Penrose"),
    ("Dr David Blakemore", "David Blakemore"),
    # a role, a title and a letter, a chair with no name: no person
    ("Marketing", ""), ("PhD F", ""), ("Professor B", ""), ("The Chair", ""), ("The Acting Chair ()", ""), ("", ""),
])
def test_a_label_is_read_to_the_person_it_names(label, name):
    assert person(label) == name


def test_parentheses_nested_or_unclosed_are_set_apart():
    assert outside_parentheses("The Chair (Hon. A B (X, Lib.))") == ("The Chair", "Hon. A B (X, Lib.)")
    assert outside_parentheses("Mr. A B (Riding") == ("Mr. A B", "Riding")
    assert outside_parentheses("Mr. A B) (x)") == ("Mr. A B)", "x")


@pytest.mark.parametrize("query, named", [
    ("What did Lindqvist-Roe think about the ferry fares?", {"Ms. Ada Lindqvist-Roe"}),
    ("What did Okafor-Brandt say about late payments?", {"Mr. Wendell Okafor-Brandt (Saltmarsh—Greywater, BQ)"}),
    ("What did Rosalind Petrakis think about the rebate?",
     {"Hon. Rosalind Petrakis (Minister of Coastal Transport and Island Communities)"}),
    ("How did Marlow answer the question on fares?", {"Right Hon. Edwin Marlow", "Hon. Edwin Marlow"}),
    ("What did Whitcombe rule on the point of order?",
     {"The Acting Chair (Mrs. Dana Whitcombe (Port Alder—Kestrel Bay, Lib.))"}),
    ("What did the professor think about the back-end?", {"Professor B"}),
    # two speakers share the surname: a surname alone names neither; the full name names one
    ("What did Penrose say about schools?", set()),
    ("What did Huw Penrose say about schools?", {"Huw Penrose"}),
    # lower case, the question's first word, a word inside another: no one
    ("What did the team say about lindqvist fares?", set()),
    ("Quennell-style questions aside, what was decided?", set()),
    ("What did Lindqvist think about fares?", {"Mr. Garnet Lindqvist (Fenwick Moor—Abbotsford Reach, CPC)"}),
    ("Summarize the discussion about a professorship.", set()),
])
def test_a_question_names_a_committee_member_as_a_person(query, named):
    assert named_speakers(query, COMMITTEE, people=True) == named


def test_without_the_flag_the_speakers_named_are_as_before():
    assert named_speakers("What did Okafor-Brandt say about late payments?", COMMITTEE) == set()
    assert named_speakers("What did the professor think about the back-end?", COMMITTEE) == set()
    assert named_speakers("What did Marketing think?", COMMITTEE, people=True) == {"Marketing"}


@pytest.mark.parametrize("line, speaker", [
    ("Hon. Mary Ng (Minister of Small Business, Export Promotion and International Trade): Thank you.",
     "Hon. Mary Ng (Minister of Small Business, Export Promotion and International Trade)"),
    ("The Chair (Hon. Anthony Rota (Nipissing—Timiskaming, Lib.)): Order.",
     "The Chair (Hon. Anthony Rota (Nipissing—Timiskaming, Lib.))"),
    ("Right Hon. Justin Marlow: Yes.", "Right Hon. Justin Marlow"),
    ("Marketing: Mm-hmm.", "Marketing"),
    # no speaker: a sentence with a colon, a header word, a label with nothing after its colon, a lower-case line
    ("The plan was simple: build the towers.", ""), ("Figure 2 (left): the towers", ""),
    ("Note (draft): read later", ""), ("Hon. Mary Ng (Minister of Small Business):", ""), ("minutes: none", ""),
    ("A (" + "x" * 300 + "): too long", ""),
])
def test_a_committee_label_opens_a_line(line, speaker):
    assert label_speaker(line) == speaker


def test_a_passage_of_committee_turns_counts_its_speakers_only_with_labels():
    text = (MEETINGS / "ferries.txt").read_text(encoding="utf-8")
    assert turns(text) < turns(text, labels=True) == len(text.splitlines())
    said = line_speakers(text, labels=True)
    assert "Mr. Garnet Lindqvist (Fenwick Moor—Abbotsford Reach, CPC)" in said
    assert "Mr. Garnet Lindqvist (Fenwick Moor—Abbotsford Reach, CPC)" not in line_speakers(text)
    assert line_speakers((MEETINGS / "minutes.txt").read_text(encoding="utf-8"), labels=True) == {}


def test_a_member_named_by_surname_finds_their_turns_in_a_folder_of_meetings(tmp_path, config):
    """The fixture folder holds a committee meeting, a CRLF Latin-1 one with an empty turn, a product meeting full
    of backchannels and minutes with no speaker line: indexed as a user would, each reads, and with the flag a
    question naming a member by surname ranks their turns first (the flag off: the chair's opening does)."""
    from corpus_tools import Corpus
    from corpus_tools.config import SearchConfig

    Corpus.build(MEETINGS, tmp_path / "meet", config=config, progress=False).close()
    query = "What did Lindqvist think about the ferry subsidy program?"
    with Corpus.open(tmp_path / "meet", search=SearchConfig()) as opened:
        assert sorted(opened.doc_ids()) == ["design.txt", "ferries.txt", "housing_latin1_crlf.txt", "minutes.txt"]
        housing = " ".join(c.text for c in opened.chunks("housing_latin1_crlf.txt"))
        # the bytes are Latin-1 and the lines end in CRLF: the label is still read (the loader guesses a code page,
        # so the accented riding may come out otherwise; the names the question uses are ASCII)
        assert any(s.startswith("Mr. G") and "Tremblay-Ouellet" in s for s in line_speakers(housing, labels=True))
        off = [h.chunk.chunk_id for h in opened.search(query, k=4)]
    with Corpus.open(tmp_path / "meet", search=SearchConfig(speaker_names=True)) as opened:
        on = [h.chunk.chunk_id for h in opened.search(query, k=4)]
        top = opened.search("What did Tremblay-Ouellet say about winter shelters?", k=1)[0]
        plain = [h.chunk.chunk_id for h in opened.search("What did the ferry subsidy program cover?", k=4)]
    lindqvist = "Mr. Garnet Lindqvist (Fenwick Moor—Abbotsford Reach, CPC)"
    assert lindqvist not in line_speakers(_text(tmp_path, off[0]), labels=True)
    assert lindqvist in line_speakers(_text(tmp_path, on[0]), labels=True)
    assert top.chunk.doc_id == "housing_latin1_crlf.txt"
    with Corpus.open(tmp_path / "meet", search=SearchConfig()) as opened:
        assert [h.chunk.chunk_id for h in opened.search("What did the ferry subsidy program cover?", k=4)] == plain


def _text(path: Path, chunk_id: str) -> str:
    from corpus_tools import Corpus

    with Corpus.open(path / "meet") as opened:
        doc_id = chunk_id.rpartition("#")[0]
        return next(c.text for c in opened.chunks(doc_id) if c.chunk_id == chunk_id)


def test_the_flag_must_be_a_bool():
    from corpus_tools.config import SearchConfig

    with pytest.raises(ValueError, match="speaker_names"):
        SearchConfig(speaker_names="yes")


@pytest.mark.parametrize("said, backchannel", [
    ("Mm-hmm.", True), ("Yeah, okay.", True), ("Uh-huh. Right.", True), ("", True), ("  ", True), ("Hmm?", True),
    ("Yeah, the rubber case is cheaper.", False), ("No, twelve euros.", False), ("Okay so the budget", False),
])
def test_a_backchannel_turn(said, backchannel):
    from corpus_tools.speakers import is_backchannel

    assert is_backchannel(said) is backchannel


def test_the_share_of_a_passages_turns_that_are_backchannels():
    from corpus_tools.speakers import backchannel_share

    text = (MEETINGS / "design.txt").read_text(encoding="utf-8")
    assert backchannel_share(text) == pytest.approx(7 / 12)
    assert backchannel_share((MEETINGS / "minutes.txt").read_text(encoding="utf-8")) == 0.0
    # an empty turn says nothing: it counts as one; a committee label is a turn only with labels read
    assert backchannel_share("Hon. Mary Ng (Minister):  \nMarketing: The case is soft.", labels=True) == 0.5
    assert backchannel_share("Hon. Mary Ng (Minister): Yes.\nMarketing: The case is soft.") == 0.0


def test_passages_of_agreement_are_placed_lower_only_with_the_weight(tmp_path, config):
    from corpus_tools import Corpus, Document
    from corpus_tools.config import SearchConfig

    talk = ("Industrial Designer: The rubber case is soft and costs more to mould than plastic.\n"
            "Marketing: Users want a soft rubber case in fruit colours.\nProject Manager: So a rubber case.")
    nods = ("Project Manager: The rubber case then?\nMarketing: Mm-hmm.\nIndustrial Designer: Yeah.\n"
            "User Interface: Okay.\nMarketing: Yeah, right.\nProject Manager: Mm-hmm.")
    other = ("Project Manager: Next, the budget.\nMarketing: Twelve euros.\nUser Interface: Fine.\n"
             "Industrial Designer: The scroll wheel is cheap.")
    docs = [Document("talk", talk), Document("nods", nods), Document("other", other), Document("more", other + " Good.")]
    Corpus.build(docs, tmp_path / "m", config=config, progress=False).close()
    query = "the rubber case"
    with Corpus.open(tmp_path / "m", search=SearchConfig()) as off, \
            Corpus.open(tmp_path / "m", search=SearchConfig(backchannel_weight=0.9)) as on:
        ranked_off = [h.chunk.doc_id for h in off.search(query, k=4)]
        ranked_on = [h.chunk.doc_id for h in on.search(query, k=4)]
    assert ranked_on.index("nods") > ranked_off.index("nods")
    with pytest.raises(ValueError, match="backchannel_weight"):
        SearchConfig(backchannel_weight=1.0)
