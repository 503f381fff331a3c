"""What a user's office document states, asked naming the document (datagen.doc_office, session 53, issue 36).
Invented text."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

from corpus_tools.types import Chunk
from datagen.doc_office import FIELD, MEANS, UPDATED, drop_copies, is_office, office_facts
from datagen.natural import _MIX_KEYS, NaturalConfig, parse_mix
from datagen.office_names import office_names
from tests.datagen.datagen_fixtures import asked_of, generate_single_hop

MINUTES = """Harbour Board Meeting
Meeting Title:
Quarterly Harbour Board Review
Date: 14 March 2024
Chairperson: Wendy Marsh
Note taker: | Colin Hart |  |
Venue: Room 12
Attendees:
Wendy Marsh, Colin Hart, Ines Okafor

Action Items:
- Repaint the north quay
- Order two buoys
Budget: ______
Your name: ____Colin Hart____
Objective 1: Reopen the ferry slip. The slip closed in May.
Detect Over Provisioning: Azure Advisor"""

POLICY = """Quay Access Policy
Last Updated: 2 February 2025
This policy says who may use the quays.
“Berth Holder” means a person who rents a berth for a season.
Harbour Master means the officer in charge of the harbour.
The Vessel Traffic Service (VTS) watches the channel."""


def _chunk(doc_id: str, text: str, title: str = "") -> Chunk:
    return Chunk(f"{doc_id}#0", doc_id, text, 0, len(text.split()), {"title": title, "file_name": doc_id.split("/")[-1]})


def test_a_word_processors_file_is_an_office_document_and_nothing_else_is():
    assert is_office("x/minutes.docx", None) and is_office("a.DOC", {}) and is_office("b", {"file_name": "c.odt"})
    assert is_office("memo.rtf", None)
    assert not is_office("paper.pdf", None) and not is_office("notes.md", None) and not is_office("Boston", {})


def test_a_document_is_named_by_a_title_it_says_its_first_line_or_its_file_and_only_where_no_other_is():
    skipped: Counter = Counter()
    names = office_names(
        {"a/Project Plan.docx": "Template for project plan", "b/Meeting Minutes.docx": "",
         "c/Meeting Minutes.docx": "", "d/07-Risk Register (Template)(1) (1).doc": "Template for project plan",
         "e/Report.odt": "INTRODUCTION", "f/Report.odt": "", "g/brief.docx": "Contact App Design Brief"},
        {"a/Project Plan.docx": "Temasek Polytechnic\nProject plan text.",
         "b/Meeting Minutes.docx": MINUTES, "c/Meeting Minutes.docx": "Meeting Minutes\nNothing else.",
         "d/07-Risk Register (Template)(1) (1).doc": "Temasek Polytechnic\nRisks.",
         "e/Report.odt": "INTRODUCTION\nEvery day a fire starts somewhere.", "f/Report.odt": "Introduction\nText.",
         "g/brief.docx": "Contact App Design Brief\nContact details:"}, skipped)
    # a template's stale core title, said by no text, names neither document; their files do
    assert names["a/Project Plan.docx"] == "the Project Plan"
    assert names["d/07-Risk Register (Template)(1) (1).doc"] == "the Risk Register"
    assert names["b/Meeting Minutes.docx"] == "the document “Harbour Board Meeting”"  # its first line
    assert names["g/brief.docx"] == "the Contact App Design Brief"  # its core title, which its text says
    # "INTRODUCTION" is every report's heading, "Meeting Minutes" and "Report" two files' names: no name at all
    assert {"c/Meeting Minutes.docx", "e/Report.odt", "f/Report.odt"}.isdisjoint(names)
    assert skipped["office_no_unique_name"] == 3


def test_a_generic_name_is_qualified_by_the_company_a_field_names():
    texts = {"x/Privacy Policy.docx": "Privacy Policy\nService/Company Name: LBM\nWe keep little.",
             "y/Privacy Policy.docx": "Privacy Policy\nWe keep everything."}
    names = office_names({d: "Privacy Policy" for d in texts}, texts, Counter())
    assert names == {"x/Privacy Policy.docx": "the LBM Privacy Policy"}


def test_labelled_fields_are_asked_naming_the_document():
    skipped: Counter = Counter()
    asked = asked_of(office_facts("m.docx", "the Harbour Board minutes", [_chunk("m.docx", MINUTES)], skipped))
    assert asked["According to the Harbour Board minutes, what is the meeting title?"] == "Quarterly Harbour Board Review"
    assert asked["According to the Harbour Board minutes, what is the date?"] == "14 March 2024"
    assert asked["According to the Harbour Board minutes, who is the chairperson?"] == "Wendy Marsh"
    assert asked["According to the Harbour Board minutes, who is the note taker?"] == "Colin Hart"  # a table's cells
    assert asked["According to the Harbour Board minutes, who are the attendees?"] == "Wendy Marsh, Colin Hart, Ines Okafor"
    assert asked["According to the Harbour Board minutes, what is objective 1?"] == "Reopen the ferry slip"
    # a list's first item, an empty field, a form's prompt and a label that is no noun phrase are no answer
    assert not [q for q in asked if "action items" in q or "budget" in q or "your name" in q]
    assert skipped["office_value_empty"] >= 1 and skipped["office_label_shape"] >= 1


def test_a_label_given_twice_with_two_values_is_no_question():
    text = "Minutes of Meeting # 1\nDate: 27/2/18\nVenue: Rm 308\nMinutes of Meeting # 2\nDate: 06/03/18\nVenue: Rm 308"
    skipped: Counter = Counter()
    asked = asked_of(office_facts("m.docx", "the Fire Safety minutes", [_chunk("m.docx", text)], skipped))
    assert "According to the Fire Safety minutes, what is the date?" not in asked
    assert asked["According to the Fire Safety minutes, what is the venue?"] == "Rm 308"  # the same value twice: one answer
    assert skipped["office_field_two_values"] == 2


def test_a_policys_update_day_definitions_and_acronyms_are_asked():
    facts = office_facts("p.docx", "the Quay Access Policy", [_chunk("p.docx", POLICY)], Counter())
    asked = asked_of(facts)
    assert asked["When was the Quay Access Policy last updated?"] == "2 February 2025"
    assert asked["In the Quay Access Policy, what does “Berth Holder” mean?"] == "a person who rents a berth for a season"
    assert asked["In the Quay Access Policy, what does “Harbour Master” mean?"] == "the officer in charge of the harbour"
    assert asked["What does VTS stand for in the Quay Access Policy?"] == "Vessel Traffic Service"
    assert {UPDATED, MEANS} <= {f.relation for f in facts}
    assert FIELD not in {f.relation for f in facts}  # "Last Updated" is asked as an update day, not a field


def test_a_fact_two_copies_state_is_asked_of_the_first_only():
    skipped: Counter = Counter()
    a = office_facts("a.doc", "the draft", [_chunk("a.doc", POLICY)], Counter())
    b = office_facts("b.odt", "the final version", [_chunk("b.odt", POLICY)], Counter())
    facts = {"a.doc": a, "b.odt": b, "c.md": [SimpleNamespace(relation="x", subject="s", answer="a")]}
    drop_copies(facts, {"a.doc", "b.odt"}, skipped)
    assert facts["a.doc"] == a and "b.odt" not in facts and "c.md" in facts
    assert skipped["office_fact_in_another_copy"] == len(b)


def test_office_questions_are_written_and_verified_by_default_and_none_when_off():
    chunks = [_chunk("club/Harbour Board Minutes.docx", MINUTES), _chunk("club/Quay Access Policy.docx", POLICY),
              _chunk("club/Report.docx", "INTRODUCTION\nSkerry Quay was built in 1851 by Tom Orr.", "INTRODUCTION")]
    assert _MIX_KEYS["office"] == "doc_office" and NaturalConfig().doc_office == 1.0
    _, asked = generate_single_hop(chunks, 60, NaturalConfig(), office=True)
    questions = set(asked)
    assert "According to the document “Harbour Board Meeting”, who is the chairperson?" in questions
    assert "When was the Quay Access Policy last updated?" in questions
    assert all("INTRODUCTION" not in q for q in questions)  # the prose templates' "Who built INTRODUCTION?" is gone
    # off: the folder is read as before (the reader's questions none)
    _, before = generate_single_hop(chunks, 60, NaturalConfig(**parse_mix("office=0")), office=False)
    assert not any(q.startswith(("According to", "When was the Quay")) for q in before)


def test_an_abbreviations_tables_rows_are_asked_where_the_words_spell_the_acronym():
    table = "(Abbreviation) | Meaning\nQMS | Quay Mooring Schedule\nDB | Database\nHW | High Water"
    asked = asked_of(office_facts("t.docx", "the Harbour Handbook", [_chunk("t.docx", table)], Counter()))
    assert asked == {"What does QMS stand for in the Harbour Handbook?": "Quay Mooring Schedule",
                     "What does HW stand for in the Harbour Handbook?": "High Water"}


def test_a_value_ends_at_the_next_label_a_numbered_list_is_no_value_and_a_mail_line_names_nothing():
    # seen on session 53's reporting folder (mended after that read): a value that ran into the next field's label,
    # a list's number kept as a value, and a document named by the mail line copied into its top
    text = "Sprint Plan\nTotal Story Point: 36 Total Hours:\nFlow of Events: | 1. After starting the game, user selects Start."
    skipped: Counter = Counter()
    asked = asked_of(office_facts("s.docx", "the Sprint Plan", [_chunk("s.docx", text)], skipped))
    assert asked["According to the Sprint Plan, what is the total story point?"] == "36"
    assert not [q for q in asked if "flow of events" in q] and skipped["office_value_list"] == 1
    texts = {"r/confirmation requirements.docx": "Many thanks for the email below please see my responses\nText.",
             "q/notes.docx": "Harbour Crane Review\nText."}
    names = office_names({d: "" for d in texts}, texts, Counter())
    assert names == {"r/confirmation requirements.docx": "the document “confirmation requirements”",  # its file
                     "q/notes.docx": "the Harbour Crane Review"}


def test_a_field_line_a_placeholder_a_run_together_word_a_persons_name_and_a_coded_file_name_name_nothing():
    # session 55 (files of 29 repositories): names no person would call a document by; invented text
    texts = {"s/Sprint 1 Planning.docx": "End Date: 3-17-21\nScrum Master: Ann",
             "t/Test Plan.docx": "<Master> Test Plan\nText.",
             "m/Design Review.docx": "Ending of Design PHASEMeeting minutes\nText.",
             "r/Relazione.odt": "Fabio Rossi\nMatricola: 1156381",
             "k/11th_minutes_Sept18.docx": "Date: | September 18th\nText.",
             "u/Standup - 10_19.docx": "Team name: Group 2\nText.",
             "w/Meeting Minutes wk10.docx": "Meeting Date: | 9th May 2019\nText."}
    names = office_names({d: "" for d in texts}, texts, Counter(), lambda p: p == "Fabio Rossi")
    assert names == {"s/Sprint 1 Planning.docx": "the document “Sprint 1 Planning”",  # its file, not the field
                     "t/Test Plan.docx": "the Test Plan",
                     "m/Design Review.docx": "the Design Review",
                     "r/Relazione.odt": "the document “Relazione”",
                     # session 56: not by its coded file name but by its meeting's one date
                     "w/Meeting Minutes wk10.docx": "the minutes of the meeting on 9th May 2019"}


def test_an_answer_the_documents_name_gives_and_a_pronouns_consequence_are_no_question():
    text = "User Acceptance Tests (UAT) for sprint 2 are listed here.\nThis means that there should be a search bar."
    skipped: Counter = Counter()
    asked = asked_of(office_facts("u.docx", "the document “User Acceptance Tests (UAT) – Sprint 2”",
                                [_chunk("u.docx", text)], skipped))
    assert asked == {} and skipped["office_value_in_name"] == 1 and skipped["office_definition_shape"] == 1


def test_a_field_is_asked_only_for_a_property_with_a_value_of_its_type():
    # session 55 (files of 29 repositories): labels that are no property of what the document is about, and values
    # that are a template's, a clause, uncertain or of another type than the label's; invented text
    from datagen.doc_office import noun_labels
    from datagen.nlp import load_pipeline

    text = """Pier Works Sprint Review
Recorder of the Meeting: | Pia Lund
Number of Hours: 24
DATE: 27 NOV 2018
FROM: Pia Lund, Ole Dahl
Concerns:
No concerns were raised

Priority: | Low, medium or critical
Date Created: | Month dd, yyyy
Last Updated By: | Name 2
Confidentiality Level: Client only?
Tested: F. Crowther.
Consequences: Failure to fulfil contract
Ole Dahl: Worked on the crane rails.
Minutes issued by: | Ole Dahl
Preconditions: | Precondition 1 … or none
Pre-condition: /* System not involved */
Total overhead costs: | $90,000"""
    nlp = load_pipeline()
    skipped: Counter = Counter()
    asked = asked_of(office_facts("r.docx", "the Pier Works Review", [_chunk("r.docx", text)], skipped,
                                noun_labels(nlp), nlp))
    assert asked == {"According to the Pier Works Review, who is the recorder of the meeting?": "Pia Lund",
                     "According to the Pier Works Review, what is the number of hours?": "24",
                     "According to the Pier Works Review, what is the date?": "27 NOV 2018",
                     "According to the Pier Works Review, what are the total overhead costs?": "$90,000"}
    assert skipped["office_label_not_a_property"] >= 1 and skipped["office_value_shape"] >= 3
    assert skipped["office_value_type"] >= 2 and skipped["office_label_person"] == 1


def test_an_office_documents_prose_is_no_claim_while_the_reader_is_on():
    # session 55: a design document's "Therefore, …" sentence was written as a claim task, which names no document
    prose = ("Quay Lighting Design\nThe harbour has four quays and one crane. The crane was built in 1851. "
             "The lights were replaced in 1990. The quays are lit at night. Lamps hang on the crane. "
             "Therefore, brighter lamps on the north quay reduce night accidents among the harbour crews.")
    chunks = [_chunk("club/Quay Lighting Design.docx", prose, "Quay Lighting Design")]
    _, asked = generate_single_hop(chunks, 60, NaturalConfig(), office=True)
    assert not [c for c in asked.values() if c.metadata.get("form") == "claim"]
    _, before = generate_single_hop(chunks, 60, NaturalConfig(**parse_mix("office=0")), office=False)
    assert [c for c in before.values() if c.metadata.get("form") == "claim"]  # off: read as before


def test_a_line_of_several_fields_gives_each_and_a_title_of_a_name_is_not_cut():
    # session 55: "Total Story Points" given per release and per sprint (two values, no one answer), a tutor's
    # "St." read as a sentence's end, a university's name over a test plan; invented text
    text = ("Release Plan\nTutor: Jesse St. Germain\nDelivery date: 30/08/17 Total Story Points: 68\n"
            "Total Story Points: 13 Total Hours: 43")
    skipped: Counter = Counter()
    asked = asked_of(office_facts("r.docx", "the Release Plan", [_chunk("r.docx", text)], skipped))
    assert asked["According to the Release Plan, who is the tutor?"] == "Jesse St. Germain"
    assert asked["According to the Release Plan, what is the delivery date?"] == "30/08/17"
    assert asked["According to the Release Plan, what are the total hours?"] == "43"
    assert not [q for q in asked if "story points" in q] and skipped["office_field_two_values"] == 2
    texts = {"u/Test Plan.docx": "Universiti Tunku Abdul Rahman\nText.", "v/Test Plan.docx": "Pier Test Plan\nText."}
    assert office_names({d: "" for d in texts}, texts, Counter()) == {"v/Test Plan.docx": "the Pier Test Plan"}


def test_a_fields_label_as_a_title_a_numbered_part_and_a_forms_prompts_name_and_answer_nothing():
    # session 55: a scope document's first line "Project Name", an assignment's "Question 1", a form's signature
    # block "Print Name: | Print Title"; invented text
    texts = {"a/Project scope document.docx": "Project Name\nText.", "b/Prac1.docx": "Question 1\nText.",
             "c/Pier Scope.docx": "Pier Scope\nText."}
    assert office_names({d: "" for d in texts}, texts, Counter()) == {
        "a/Project scope document.docx": "the Project scope document", "c/Pier Scope.docx": "the document “Pier Scope”"}
    form = "Print Name: | Print Title\nStatus: | Open Item"
    asked = asked_of(office_facts("q.docx", "the Pier Quote", [_chunk("q.docx", form)], Counter()))
    assert asked == {"According to the Pier Quote, what is the status?": "Open Item"}


def test_a_code_is_a_code_a_rows_points_are_no_documents_and_a_team_of_people_is_asked_who():
    # session 55, seen on the held-out read (mended after it): a course's name under "Course Code", a user story's
    # "Points: 5", "what is the team?" of six names; invented text
    text = "Course Code: Harbour Studies\nUnit Code: HS101\nPoints: 5\nTeam: Ann Lee, Bo Dahl, Cy Moss\nName: Ann Lee"
    asked = asked_of(office_facts("f.docx", "the Pier Review Form", [_chunk("f.docx", text)], Counter()))
    assert asked == {"According to the Pier Review Form, what is the unit code?": "HS101",
                     "According to the Pier Review Form, who is on the team?": "Ann Lee, Bo Dahl, Cy Moss"}


def test_a_label_given_a_value_refused_elsewhere_is_still_given_twice_and_a_decimal_is_no_list_item():
    # session 55: a release plan's sprint 1 "Total Hours: 50" was asked, its sprint 2 "Total Hours: 94.3" having been
    # refused as a list's "94." item; invented text
    text = "Sprint 1\nTotal Hours: 50\nSprint 2\nTotal Hours: 94.3\nEstimated Velocity: 12.5"
    skipped: Counter = Counter()
    asked = asked_of(office_facts("p.docx", "the Pier Release Plan", [_chunk("p.docx", text)], skipped))
    assert asked == {"According to the Pier Release Plan, what is the estimated velocity?": "12.5"}
    assert skipped["office_field_two_values"] == 2


def test_a_table_cell_holding_a_field_before_its_label_gives_both():
    # session 55: a release plan's story rows "Story Points: 2 Total Hours: | 13 |" read as one label "Story Points:
    # 2 Total Hours", so the plan's "Total Hours: 43" seemed the only total; invented text
    text = ("Total Story Points: 13 Total Hours: 43\n | Story Points: 2 Total Hours: | 13 |\n"
            " | Story Points: 1 Total Hours: | 4 |")
    skipped: Counter = Counter()
    asked = asked_of(office_facts("p.docx", "the Pier Release Plan", [_chunk("p.docx", text)], skipped))
    assert not [q for q in asked if "hours" in q] and skipped["office_field_two_values"] >= 1


def test_the_authors_names_and_a_coded_first_line_name_no_document():
    # session 55 (seen on held-out slice 2, mended after its read): a status report's first line "Sachin Lal and
    # Rahul Matta", a history export's "DXP-FE-SALES-MOTOR-V3"; invented names
    texts = {"a/Status Report.docx": "Ann Lee and Bo Dahl\nText.", "b/History.docx": "PIER-FE-SALES-V3\nText.",
             "c/Jetty Plan.docx": "Jetty and Slipway Plan\nText."}
    names = office_names({d: "" for d in texts}, texts, Counter(), lambda p: p in {"Bo Dahl", "Ann Lee"})
    assert names == {"a/Status Report.docx": "the Status Report", "b/History.docx": "the document “History”",
                     "c/Jetty Plan.docx": "the Jetty and Slipway Plan"}


def test_an_office_tables_header_ending_in_a_bar_is_read_in_linear_time():
    # session 55: held-out slice 2's receipts table "(columns) | NAME … | OR Num. | Amt | … |" hung datagen in
    # datagen.doc_reference's header pattern (4 s for these 12 cells on main, 75 s for 14); invented cells
    import time

    from datagen.doc_reference import _TABLE_HEAD

    line = "(columns) | " + " | ".join(["Receipt No.", "Fee"] * 6) + " |"
    start = time.perf_counter()
    assert _TABLE_HEAD.search(line) is None  # a header whose last cell is empty is none, as before
    assert time.perf_counter() - start < 1.0
    assert _TABLE_HEAD.search("(parameter) | Default | Type").group("cols") == " | Default | Type"


def test_a_shared_title_is_said_with_the_project_the_document_is_about_where_that_is_unique():
    # session 56: "Project Charter" in every project's folder named none of them; invented projects
    texts = {"a/Project Charter.docx": "PROJECT CHARTER\nProject Name\nQuayWatch\nDate Produced\nMay 1, 2024",
             "b/Project Charter.docx": "CS490\nBerthly\nProject Charter\nAnn Lee, Bo Dahl\nProblem Statement",
             "b/Design Document.docx": "CS490\nBerthly\nDesign Document\nAnn Lee, Bo Dahl\n1. Purpose",
             "c/Design Document.docx": "Team 17\nDesign Document\nCS 30700\nPurpose\nText.",
             "d/Project Charter.docx": "(PROJECT CHARTER) | PROJECT CHARTER\nProject Name | Slipway Planner [SP].\nText",
             "e/Project Charter.docx": "Team 17\nProject Charter\nText.",
             "f/Project Charter.docx": "Project Charter\nProject Title: QuayWatch\nText."}
    names = office_names({d: "" for d in texts}, texts, Counter())
    assert names["b/Project Charter.docx"] == "the Project Charter for Berthly"  # its title page's one title line
    assert names["b/Design Document.docx"] == "the Design Document for Berthly"
    assert names["d/Project Charter.docx"] == "the Project Charter for Slipway Planner"  # a table's field
    # a team or a course names nothing; two charters of one project name neither
    assert {"a/Project Charter.docx", "c/Design Document.docx", "e/Project Charter.docx",
            "f/Project Charter.docx"}.isdisjoint(names)


def test_minutes_a_folder_shares_are_named_by_their_meeting_number_or_their_one_date():
    # session 56: "Meeting Minutes" of every project, or a coded "wk1", named none; invented minutes
    texts = {"a/Meeting Minutes wk1.docx": "(Meeting Minutes) | Meeting Minutes\nMeeting Date: | 14th February 2019\n"
                                          "Meeting location: | Room 3\nAnn Lee | Paint the quay | 21st February 2019",
             "b/Meeting Minutes.docx": "Meeting Minutes\nMeeting Name | Meeting 2: Quay Planning\nVenue: Pier",
             "c/Meeting Minutes.docx": "Meeting Minutes\n30/6/20\n- Met.\n7/7/20\n- Met again.",
             "d/Meeting Minutes.docx": "Meeting Minutes\nDate: 9/9/2021\nLocation: Shed 4"}
    names = office_names({d: "" for d in texts}, texts, Counter())
    # an action's due date in a table row is not the meeting's; a log of two meetings names neither
    assert names == {"a/Meeting Minutes wk1.docx": "the minutes of the meeting on 14th February 2019",
                     "b/Meeting Minutes.docx": "the minutes of meeting 2",
                     "d/Meeting Minutes.docx": "the minutes of the meeting on 9/9/2021"}


def test_a_role_is_asked_only_of_people_and_a_value_of_a_run_on_list_is_none():
    # session 56: the role's type check was unreachable ("Project Manager: Ann Lee - ann@quay.example" was asked),
    # and "Marketing Costs: 0 - Ongoing Maintenance: Free" gave "0 -"; invented text
    text = ("Project Manager: Ann Lee - ann@quay.example\nProject Sponsor: Bo Dahl\n"
            "Costs: - Development Costs: Free - Marketing Costs: 0 - Ongoing Maintenance: Free/year")
    asked = asked_of(office_facts("c.docx", "the Quay Charter", [_chunk("c.docx", text)], Counter()))
    assert asked == {"According to the Quay Charter, who is the project sponsor?": "Bo Dahl",
                     # (later that session: the person before a holder's apposition is the answer)
                     "According to the Quay Charter, who is the project manager?": "Ann Lee"}


def test_a_charters_form_labels_without_a_colon_are_read_and_its_production_day_asked_when():
    # session 56: a charter's table rows "Project Sponsor | Dr. Ann Lee. | Dr. Ann Lee." and its label-over-value
    # paragraphs ("Date Produced" / "October 1, 2023") had no colon, so none was read; invented text
    table = ("(PROJECT CHARTER) | PROJECT CHARTER | PROJECT CHARTER\nDate Produced | Tuesday 10th October 2023. | "
             "Tuesday 10th October 2023.\nProject Sponsor | Dr. Ann Lee. | Dr. Ann Lee.\n"
             "Architecture Design | Bo Dahl")
    paragraphs = ("PROJECT CHARTER\nDate Produced\nOctober 1, 2023\nProject Goals\nA quay.\nProject Manager\n"
                  "Ann Lee\nBo Dahl\nAdditional Key Project Stakeholders")
    revised = "Date Produced | October 20 2020; Updated: November 23 2020 | October 20 2020; Updated: November 23 2020"
    asked = asked_of(office_facts("a.docx", "the Quay Charter", [_chunk("a.docx", table)], Counter()))
    assert asked == {"When was the Quay Charter produced?": "Tuesday 10th October 2023",
                     "According to the Quay Charter, who is the project sponsor?": "Dr. Ann Lee"}
    asked = asked_of(office_facts("b.docx", "the Pier Charter", [_chunk("b.docx", paragraphs)], Counter()))
    assert asked == {"When was the Pier Charter produced?": "October 1, 2023"}  # two managers: a list, not asked
    assert office_facts("c.docx", "the Slip Charter", [_chunk("c.docx", revised)], Counter()) == []


def test_a_charters_milestones_are_asked_by_their_dates_and_the_schedule_ends_at_its_last_dated_row():
    # session 56: a charter's milestone schedule, as a table and as paragraphs; invented text
    table = ("Overall Project Milestones | Overall Project Milestones | Dates\n"
             "Quay survey | Quay survey | The week of September 18th\nSlipway design | Slipway design | May 2, 2024\n"
             "Overall Project Risks | Overall Project Risks | Overall Project Risks\nStorms | 2024 | 2025")
    paragraphs = "Overall Project Milestones\nDates\nPrototype\nNovember 25, 2023\nOverall Project Risks\nStorms"
    asked = asked_of(office_facts("a.docx", "the Quay Charter", [_chunk("a.docx", table)], Counter()))
    assert asked == {"In the Quay Charter, what is the date of the milestone “Quay survey”?": "The week of September 18th",
                     "In the Quay Charter, what is the date of the milestone “Slipway design”?": "May 2, 2024"}
    asked = asked_of(office_facts("b.docx", "the Pier Charter", [_chunk("b.docx", paragraphs)], Counter()))
    assert asked == {"In the Pier Charter, what is the date of the milestone “Prototype”?": "November 25, 2023"}


def test_office_documents_sharing_a_title_are_each_their_own_article_and_each_asked_in_full():
    # session 56: three projects' "Project Charter"s, each saying its title, were one article, so one use cap held
    # all their questions; invented charters
    chunks = [_chunk(f"{p}/Project Charter.docx",
                     f"Project Charter\nProject Name: {name}\nProject Sponsor: {a}\nProject Manager: {b}\n"
                     f"Venue: {v}\nProject Deadline: {v[-1]} May 2024", "Project Charter")
              for p, name, a, b, v in (("a", "QuayWatch", "Ann Lee", "Bo Dahl", "Pier 3"),
                                       ("b", "Berthly", "Cy Moss", "Di Ray", "Shed 4"),
                                       ("c", "Slipway", "Ed Fox", "Flo Kerr", "Dock 9"))]
    _, asked = generate_single_hop(chunks, 200, NaturalConfig(), office=True)
    assert len([q for q in asked if "Project Charter for" in q]) == 12  # four a charter: sponsor, manager, venue, deadline


def test_a_plans_standing_meetings_are_asked_when_the_team_meets_and_its_developers_who():
    # session 56: sprint plans' "Meeting Plan:" and "Scrum Meeting Time:", a charter's "Developers:"; invented text
    text = ("Scrum Meeting Time: 7PM Tuesdays and Sundays\nDevelopers: Ann Lee, Bo Dahl\nMeeting Time: | 10am-12pm\n"
            "Meeting Plan: whenever possible")
    asked = asked_of(office_facts("p.docx", "the Sprint 1 Plan for Quay", [_chunk("p.docx", text)], Counter()))
    assert asked == {"According to the Sprint 1 Plan for Quay, when does the team meet?": "7PM Tuesdays and Sundays",
                     "According to the Sprint 1 Plan for Quay, who are the developers?": "Ann Lee, Bo Dahl",
                     "According to the Sprint 1 Plan for Quay, what is the meeting time?": "10am-12pm"}


def test_a_phase_schedule_asks_each_phases_start_and_end():
    # session 56: a charter's "Description | Start Date | End Date" table; invented text
    text = ("(Project Phases & Milestones) | Project Phases & Milestones | —\nDescription | Start Date | End Date\n"
            "Quay Survey | 2018-05-07 | 2018-05-15\n(Risks) | Impact (High, Medium, Low)")
    asked = asked_of(office_facts("a.docx", "the Quay Charter", [_chunk("a.docx", text)], Counter()))
    assert asked == {"In the Quay Charter, what is the start date of “Quay Survey”?": "2018-05-07",
                     "In the Quay Charter, what is the end date of “Quay Survey”?": "2018-05-15"}


def test_a_phases_start_and_end_are_both_written_as_tasks():
    # session 56: the two shared a subject and a relation, so the generator's one-answer rule dropped both
    text = ("Description | Start Date | End Date\nQuay Survey | 2018-05-07 | 2018-05-15\n"
            "Slipway Design | 2018-05-16 | 2018-06-01")
    _, asked = generate_single_hop([_chunk("club/Quay Charter.docx", "Quay Charter\n" + text)], 60, NaturalConfig(),
                                   office=True)
    assert {q for q in asked if "date of" in q} == {
        f"In the Quay Charter, what is the {e} date of “{p}”?" for e in ("start", "end") for p in ("Quay Survey",
                                                                                                "Slipway Design")}


def test_a_label_over_a_value_running_into_another_label_and_a_bare_title_field_are_no_question():
    # session 56, seen on the held-out read (mended after it): a design document's "Tipsy Tunnel Trek Room:" over
    # "11:59 Room:" was asked → "11:59", and a rationale's "Title: Adventure Game" "what is the title?"; invented
    text = "Quay Room:\n11:59 Room:\n\nTitle: Harbour Game\nVenue: Shed 4"
    asked = asked_of(office_facts("d.docx", "the Quay Design", [_chunk("d.docx", text)], Counter()))
    assert asked == {"According to the Quay Design, what is the venue?": "Shed 4"}


def test_two_meetings_minutes_in_one_room_are_each_asked_not_dropped_as_copies():
    # session 56: "Meeting location: | CIS 003" in the minutes of three weekly meetings was asked of the first only
    texts = {f"w/Meeting Minutes wk{n}.docx": f"(Meeting Minutes) | Meeting Minutes\nMeeting Date: | {d}\n"
                                              "Meeting location: | Room 3" for n, d in ((1, "14th February 2019"),
                                                                                        (2, "21st February 2019"))}
    names = office_names({d: "" for d in texts}, texts, Counter())
    facts = {d: office_facts(d, names[d], [_chunk(d, t)], Counter()) for d, t in texts.items()}
    drop_copies(facts, set(facts), Counter())
    assert sorted(f.ask for fs in facts.values() for f in fs) == [
        "According to the minutes of the meeting on 14th February 2019, what is the meeting location?",
        "According to the minutes of the meeting on 21st February 2019, what is the meeting location?"]


def test_a_roles_holder_is_asked_without_what_they_are_and_a_subtitled_project_names_its_charter():
    # session 56: "Project Manager: Erika McCluskey - Developer" (refused whole), "Project Name | Progress: Your Path
    # to Success" (read as a field line, so no name); invented text
    text = "Project Manager: Ann Lee - Developer\nProject Sponsor: Dr. Bo Dahl - Professor (our tutor)"
    asked = asked_of(office_facts("c.docx", "the Quay Charter", [_chunk("c.docx", text)], Counter()))
    assert asked == {"According to the Quay Charter, who is the project manager?": "Ann Lee",
                     "According to the Quay Charter, who is the project sponsor?": "Dr. Bo Dahl"}
    texts = {"a/Project Charter.docx": "(PROJECT CHARTER) | PROJECT CHARTER\nProject Name | Quay: Your Path to Sea",
             "b/Project Charter.docx": "Project Charter\nText."}
    assert office_names({d: "" for d in texts}, texts, Counter()) == {
        "a/Project Charter.docx": "the Project Charter for Quay: Your Path to Sea"}


def test_a_value_that_is_another_fields_label_and_number_is_none():
    # session 56 (tuning): a test report's "Module: | Version 1.1" was asked "what is the module?" → "Version 1.1"
    text = "Module: | Version 1.1\nVersion: 2\nVenue: Shed 4"
    asked = asked_of(office_facts("t.docx", "the Quay Test Report", [_chunk("t.docx", text)], Counter()))
    assert asked == {"According to the Quay Test Report, what is the version?": "2",
                     "According to the Quay Test Report, what is the venue?": "Shed 4"}


def test_a_teams_initials_are_no_acronyms_and_a_pasted_release_note_names_no_project():
    # session 56's reporting reads (mended after, not clean): "What does MK stand for in the Intermediate Report?" →
    # "Matthias Klass" (a team table), "When was version 1.0.0 released?" (a changelog inside a requirements document)
    from datagen.nlp import load_pipeline

    team = "(Short) | Member\nMK | Matthias Klass\nRL | Rico Lieback\nFW | Florian Wiedenmann\nJL | Johannes Leimer"
    terms = "(Abbreviation) | Meaning\nQMS | Quay Mooring Schedule\nML | Machine Learning\nHW | High Water"
    skipped: Counter = Counter()
    facts = office_facts("r.docx", "the Intermediate Report", [_chunk("r.docx", team), _chunk("r.docx", terms)], skipped,
                         nlp=load_pipeline())
    assert asked_of(facts) == {"What does QMS stand for in the Intermediate Report?": "Quay Mooring Schedule",
                             "What does ML stand for in the Intermediate Report?": "Machine Learning",
                             "What does HW stand for in the Intermediate Report?": "High Water"}
    assert skipped["office_glossary_people"] == 4
    notes = ("Login Requirements\nThe login page must accept a password.\n\n## [1.0.0] - 2023-10-01\n- Add support for "
             "passkeys.\n\n## [0.9.0] - 2023-09-01\n- First draft.")
    _, asked = generate_single_hop([_chunk("p/Login Requirements.docx", notes, "Login Requirements")], 30, NaturalConfig(),
                                   office=True)
    assert not [q for q in asked if "released" in q or "version" in q], set(asked)


def test_a_blank_lines_value_is_kept_whole_a_field_left_empty_in_words_a_dutch_paper_and_an_authors_line():
    # session 56's third unseen folder (mended after, not clean): "what is the project title?" → "Hasta" (cut from
    # "_Hasta Akış Optimizasyonu_________ Prepared Date:"), "who is the timekeeper?" → "No Timekeeper", a Dutch paper's
    # "recurrent neuraal netwerk (RNN)", documents named "Zekai Hu, Bofei Xu (EDUC 244), …" and "Document Title …"
    closeout = ("Project Close-out\nProject Title: _Hasta Akış Optimizasyonu_________ Prepared Date: ___________\n"
                "Timekeeper: No Timekeeper\nFacilitator: Ana Ruiz")
    asked = asked_of(office_facts("c.docx", "the Project Close-out", [_chunk("c.docx", closeout)], Counter()))
    assert asked == {"According to the Project Close-out, what is the project title?": "Hasta Akış Optimizasyonu",
                     "According to the Project Close-out, who is the facilitator?": "Ana Ruiz"}, asked
    dutch = ("LSTM\nLong Short-Term Memory (LSTM) is een speciale vorm van een recurrent neuraal netwerk (RNN). Het netwerk "
             "wordt gebruikt voor tijdreeksen en is niet zoals een gewoon netwerk. Deze vorm van een netwerk kan ook "
             "lange reeksen onthouden, maar het trainen is traag. Het model wordt vaak gebruikt voor taal en voor "
             "spraak, en het werkt ook bij muziek.")
    _, made = generate_single_hop([_chunk("nl/LSTM.docx", dutch, "LSTM")], 30, NaturalConfig(), office=True)
    assert not made, set(made)
    names = office_names({"a/r.docx": "Zekai Hu, Bofei Xu (EDUC 244), Esther Jeongwon Choi, Kylie Ren",
                          "b/s.docx": "Document Title Extraterrestrial Robot Explorer"},
                         {"a/r.docx": "Zekai Hu, Bofei Xu (EDUC 244), Esther Jeongwon Choi, Kylie Ren\nFake products",
                          "b/s.docx": "Document Title Extraterrestrial Robot Explorer\nA rover."}, Counter())
    assert not [n for n in names.values() if "Zekai" in n or "Document Title" in n], names


def test_a_label_merged_over_two_cells_names_a_charter_and_is_asked_and_a_revision_line_or_a_list_is_not():
    # session 57: "(Project Name) | Project Name | InterviewAnalyzer" named the charter "for Updated (10/20/21) -
    # Version (1.0)", and "Team Members: | A" over " | B" asked A alone; invented projects
    texts = {"a/Project Charter.docx": "Project Charter\nUpdated (10/20/21) - Version (1.0)\n"
                                       "(Project Name) | Project Name | QuayWatch\n"
                                       "Executive Sponsor | Executive Sponsor | Professor Ann Lee\n"
                                       "Project Manager: | Bo Dahl | Bo Dahl\nTeam Members: | Cy Moor | Cy Moor\n"
                                       " | Di Park | Di Park",
             "b/Project Charter.docx": "Project Charter\nUpdated (1/2/22) - Version (2.0)\nText.",
             "c/Project Charter.docx": "Project Charter\nProject Title: Berthly\nText."}
    names = office_names({d: "" for d in texts}, texts, Counter())
    assert names["a/Project Charter.docx"] == "the Project Charter for QuayWatch"
    assert "b/Project Charter.docx" not in names  # a revision line names no project
    chunk = _chunk("a/Project Charter.docx", texts["a/Project Charter.docx"])
    asked = asked_of(office_facts("a/Project Charter.docx", names["a/Project Charter.docx"], [chunk], Counter()))
    assert asked == {"According to the Project Charter for QuayWatch, who is the executive sponsor?": "Professor Ann Lee",
                     "According to the Project Charter for QuayWatch, who is the project manager?": "Bo Dahl"}


def test_a_risk_matrixs_axis_on_a_title_page_names_no_project():
    # session 57's held-out read: "Risk Register Assignment" over the matrix's "Impact" named "the Risk Register for
    # Impact"; invented registers
    texts = {"a/Risk Register.docx": "Prepared by: Ann Lee\nRisk Register Assignment\nImpact\nSignificant 4 | | GTS4",
             "b/Risk Register.docx": "Risk Register\nProject Title: Berthly\nText."}
    assert "a/Risk Register.docx" not in office_names({d: "Risk Register" for d in texts}, texts, Counter())


def test_an_institution_on_a_title_page_names_no_project():
    # session 57's held-out rerun: with the revision line no title, "Department of Computer Science" was the title
    # page's one line left and named "the Testing document for Department of Computer Science"; invented documents
    texts = {"a/Testing Document.docx": "Testing Document\nDepartment of Computer Science\nVersion 1.0\nText.",
             "b/Testing Document.docx": "Testing Document\nProject Title: Berthly\nText."}
    assert "a/Testing Document.docx" not in office_names({d: "Testing Document" for d in texts}, texts, Counter())
