"""Conversations nobody tuned on (issue 36): the day of the one chat in which a speaker tells a lasting
fact about themself ("In which chat did Lou mention volunteering at a local animal shelter?"), the name
of a thing a speaker did something with ("What movie did Kim watch?" → "Manchester by the Sea"), and
what gives no question, counted: a chat export's program speaker ("Assistant"), a session with no
speaker line, a mail that only quotes an earlier one."""

from __future__ import annotations

from datagen_fixtures import chat_chunks, generate_single_hop

from corpus_tools.types import Chunk
from datagen.chat_mentions import mention_phrase

S1 = "Kim & Lou, session 1 (1:56 pm on 8 May, 2023)"
S2 = "Kim & Lou, session 2 (3:10 pm on 25 May, 2023)"
S3 = "Kim & Assistant, session 1 (2 June, 2023)"
S4 = "Kim & Lou, session 3 (9:02 am on 14 June, 2023)"

CHATS = [
    ("chat/D1", S1, "Kim: I'm a tax accountant, so spring is busy.\n"
                    "Lou: I volunteer at a local animal shelter on weekends.\n"
                    'Kim: I watched a movie called "Manchester by the Sea" with my sister.\n'
                    "Lou: I have 2 dogs."),
    ("chat/D2", S2, "Kim: Tax season is over, but being a tax accountant is tiring.\n"
                    "Lou: I'm from san francisco originally.\n"
                    'Lou: I\'m currently reading a novel about love called "Silent Separation".\n'
                    "Kim: Yesterday I spent an hour watching my favorite show.\n"
                    "Kim: Yesterday I went to a place I've always wanted to go to.\n"
                    "Lou: Yesterday I went for a walk in the park.\n"
                    "Kim: My inspiration came from a trip I took to Tibet."),
    ("chat/D3", S3, "Kim: Hello again.\n"
                    "Assistant: My favorite cuisine is Italian.\n"
                    "Assistant: I work as a tutor in my free time."),
    # a session exported without "Name: text" lines: no speaker to ask about
    ("chat/D4", S4, "Hello there.\nWe talked about the weather all day."),
]


def test_the_day_a_speaker_told_a_lasting_fact_is_asked() -> None:
    """Old code: a job, a home town, a pastime or a count was asked only for itself, never for its chat."""
    _, qs = generate_single_hop(chat_chunks(CHATS))
    assert qs["In which chat did Lou mention volunteering at a local animal shelter?"].answer == "8 May 2023"
    assert qs["In which chat did Lou mention being from San Francisco?"].answer == "25 May 2023"
    assert qs["In which chat did Lou mention having 2 dogs?"].answer == "8 May 2023"


def test_a_fact_told_in_two_chats_has_no_day() -> None:
    """Kim names "tax accountant" on 8 May and on 25 May: the job is asked, the day is not."""
    _, qs = generate_single_hop(chat_chunks(CHATS))
    assert qs["What does Kim do for a living?"].answer == "tax accountant"
    assert not any("tax accountant" in q for q in qs)


def test_a_thing_the_speaker_names_is_asked_by_its_name() -> None:
    """Old code: "What did Kim watch?" → "a movie" at best; the name after "called" was never the answer."""
    _, qs = generate_single_hop(chat_chunks(CHATS))
    assert qs["What movie did Kim watch?"].answer == "Manchester by the Sea"
    assert qs["What novel was Lou reading?"].answer == "Silent Separation"  # the parse hangs it on "love"
    assert qs["In which chat did Kim mention watching Manchester by the Sea?"].answer == "8 May 2023"
    assert "What did Kim watch?" not in qs and "In which chat did Kim mention watching the movie?" not in qs


def test_a_stretch_of_time_or_a_bare_place_is_no_thing_done() -> None:
    """Old code: "When did Kim spend the hour?", "When did Kim go to the place?" and, from "a trip I took to
    Tibet", "Which place did Kim take to?" (hand-reads of MemoryBank)."""
    _, qs = generate_single_hop(chat_chunks(CHATS))
    assert qs and not any("the hour" in q or "the place" in q or "take to" in q for q in qs)
    assert qs["When did Lou go for the walk in the park?"].answer == "24 May 2023"  # a walk is told


def test_a_program_speaker_and_a_session_without_speaker_lines_give_no_question_and_are_counted() -> None:
    gen, qs = generate_single_hop(chat_chunks(CHATS))
    assert qs  # the other sessions are read
    assert not any("Assistant" in q or "tutor" in c.answer or "Italian" in c.answer for q, c in qs.items())
    assert not any("chat/D4" in c.doc_ids for c in qs.values())
    assert gen.stages["no question:chat_without_speaker_lines"] == 1
    assert gen.base.skipped["not_a_person"] >= 1


def test_a_mail_that_only_quotes_an_earlier_one_gives_no_question_and_is_counted() -> None:
    """Old code: "Who sent the email "Fw: Offsite lunch"?" asked of a message with nothing of its own."""
    mails = [
        ("mail-1", "Budget draft (5 March 2001)",
         "From: Sara Lind <sara.lind@corp.example>\nTo: Tom Reyes <tom.reyes@corp.example>\n\n"
         "Here is the first draft of the budget.\n\n - budget_2001_draft.xls"),
        ("mail-2", "Fw: Offsite lunch (7 March 2001)",
         "From: Tom Reyes <tom.reyes@corp.example>\nTo: Ana Ruiz <ana.ruiz@corp.example>\n\n"
         " -----Original Message-----\nFrom: Sara Lind\nSent: Tuesday, March 06, 2001 3:12 PM\n"
         "To: Tom Reyes\nSubject: Offsite lunch\n\nThe lunch is at noon in the Lakeview Hall."),
    ]
    chunks = [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": title}) for d, title, text in mails]
    gen, qs = generate_single_hop(chunks, n=100)
    assert any(c.doc_ids == ("mail-1",) or "mail-1" in c.doc_ids for c in qs.values())  # a message of its own is asked
    assert not any("mail-2" in c.doc_ids for c in qs.values())
    assert gen.stages["no question:mail_only_quoted"] == 1


def test_the_mention_phrase_is_the_sentences_own_words() -> None:
    assert mention_phrase("volunteer at", "local homeless shelter", "I volunteer at a local homeless shelter sometimes.") \
        == "volunteering at a local homeless shelter"
    assert mention_phrase("work as", "travel agent", "I am also a travel agent.") == "being a travel agent"
    assert mention_phrase("grow up", "the country", "Yes I grew up in the country.") == "growing up in the country"
    # "'s" of a possessive is no "is"; "applied to be" is no being; "my" would need whose
    assert mention_phrase("work as", "assistant", "I work at a local doctor's office as an assistant") == ""
    assert mention_phrase("apply to be", "a diver", "I applied to be a diver.") == "applying to be a diver"
    assert mention_phrase("live", "house", "I live in my parents' house.") == ""


def test_a_passive_act_keeps_its_voice() -> None:
    """Old code: "I just got accepted for a fashion internship" → "mention accepting for a fashion
    internship" (the speaker was accepted; they accepted nothing)."""
    assert mention_phrase("accept for", "fashion internship", "A lot's happened - I just got accepted for a fashion internship!") \
        == "getting accepted for a fashion internship"
    assert mention_phrase("hire at", "the bakery", "I was hired at the bakery last month.") == "being hired at the bakery"
    # an active past stays active
    assert mention_phrase("volunteer at", "the shelter", "I volunteered at the shelter.") == "volunteering at the shelter"


def test_a_quoted_title_the_speaker_reads_is_asked_as_a_book() -> None:
    """Old code: "I'm currently reading "The Lean Startup"" named no book (no "a book called"): not asked."""
    _, qs = generate_single_hop(chat_chunks([
        ("chat/D1", S1, 'Kim: I\'m currently reading "The Lean Startup" and hoping it helps my shop.\n'
                        'Lou: I watched "Up" with my nephew.'),
    ]))
    assert qs["What book was Kim reading?"].answer == "The Lean Startup"
    # a quoted title one watched could be a film or a show: never asked as a book
    assert not any(q.startswith("What book") and c.answer == "Up" for q, c in qs.items())
