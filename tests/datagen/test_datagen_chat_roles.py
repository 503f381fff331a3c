"""What a chat's speaker and their relatives do for a living, the field they work in and where they live
or come from, as people type it (lowercase places, "My mom, she is a nurse", "My dad, a farmer"); each
asked only when the corpus gives that person and relation one answer. And the chat facts' phrasing:
a trailing "though" is no part of a job, "my favorite because of …" names no kind of favourite, and a
thing said with no article is asked as said ("In which chat did Kim mention writing books?")."""

from __future__ import annotations

from datagen_fixtures import chat_questions

from datagen.chat_facts import display_place

CHAT_S1 = "Kim & Lou, session 1 (1:56 pm on 8 May, 2023)"
CHAT_S2 = "Kim & Lou, session 2 (3:10 pm on 25 May, 2023)"
CHAT_S3 = "Kim & Lou, session 3 (9:02 am on 14 June, 2023)"

JOBS = [
    ("chat/D1", CHAT_S1, "Kim: I'm a tax accountant, so spring is busy.\n"
                    "Lou: Nice. My mom, she is a nurse. My dad, a farmer.\n"
                    "Kim: I'm from san francisco originally.\n"
                    "Lou: I work in marketing, mostly online ads.\n"
                    "Kim: My sister is a lawyer and my other sister is a doctor."),
    ("chat/D2", CHAT_S2, "Lou: We live in ohio now, close to my parents.\n"
                    "Kim: I want to be a pilot someday.\n"
                    "Lou: My husband was a mechanic before he retired.\n"
                    "Kim: I work as an english teacher though, on weekends.\n"
                    "Lou: Winter is my favorite because of christmas."),
    ("chat/D3", CHAT_S3, "Kim: I also write books.\n"
                    "Lou: I just finished this cute little bookmark!\n"
                    "Lou: I'm not a chef, but I love cooking.\n"
                    "Kim: I moved to the uk last year for work."),
]


def test_jobs_of_the_speaker_and_their_relatives_are_asked() -> None:
    """Old code: no reader of "I'm a tax accountant" or a relative's job; none of these is asked."""
    qs = chat_questions(JOBS)
    assert qs["What does Lou's mom do for a living?"].answer == "nurse"
    assert qs["What does Lou's dad do for a living?"].answer == "farmer"
    assert qs["What did Lou's husband do for a living?"].answer == "mechanic"
    assert qs["What field does Lou work in?"].answer == "marketing"


def test_a_job_with_two_answers_a_wish_a_negation_or_several_relatives_is_no_question() -> None:
    """Kim is a tax accountant and an english teacher (two answers); "I want to be a pilot", "I'm not a
    chef" are no jobs; Kim has two sisters, so "Kim's sister" names no one."""
    qs = chat_questions(JOBS)
    assert "What does Lou's mom do for a living?" in qs  # the reader reads this corpus's jobs
    assert "What does Kim do for a living?" not in qs
    assert not any(c.answer in ("pilot", "chef") for c in qs.values())
    assert not any("sister" in q for q in qs)


def test_places_typed_in_lowercase_are_asked_and_printed_capitalised() -> None:
    """Old code: "I'm from san francisco" (lowercase) was no place; "We live in ohio" no reader."""
    qs = chat_questions(JOBS)
    assert qs["Where is Kim from?"].answer == "San Francisco"
    assert qs["Where does Lou live?"].answer == "Ohio"
    assert qs["Where did Kim move to?"].answer == "the UK"
    assert display_place("uk") == "UK" and display_place("New York") == "New York"


def test_chat_phrasing_asides_function_words_and_articles() -> None:
    """Old code: "english teacher though" was an answer, "What is Lou's favorite because of?" a question,
    and "writing the books" the thing's name."""
    qs = chat_questions(JOBS)
    assert not any("because" in q for q in qs)
    assert not any(c.answer.endswith("though") for c in qs.values())
    assert "In which chat did Kim mention writing books?" in qs
    assert "In which chat did Lou mention finishing the cute little bookmark?" in qs  # "this" → "the"


OWN = [
    ("chat/D1", CHAT_S1, "Kim: I sold my old car to a neighbour.\n"
                    "Lou: I sprained my left ankle on a run.\n"
                    "Kim: I learned my lesson, never again.\n"
                    "Lou: I broke my leg skiing once."),
    ("chat/D2", CHAT_S2, "Kim: Hi again.\nLou: Hello there."),
]


def test_the_speakers_own_thing_is_asked_without_the_my() -> None:
    """Old code: "my old car", "my left ankle" leaned on a pronoun, so nothing was asked; an idiom ("learned
    my lesson") and a misparsed injury ("leg skiing") stay no question, and "In which chat did Kim mention
    selling old car?" (whose car?) is not written."""
    qs = chat_questions(OWN)
    assert qs["What did Kim sell?"].answer == "old car"
    assert qs["What did Lou sprain?"].answer == "left ankle"
    assert not any(c.answer.startswith(("lesson", "leg")) for c in qs.values())
    assert not any(q.startswith("In which chat") and "old car" in q for q in qs)


HOME = [
    ("chat/D1", CHAT_S1, "Kim: Playing with my two sweet pet snakes today.\n"
                    "Lou: My mom is certified too, she moved here from canada to be by the beach.\n"
                    "Kim: Nice. My dad works in construction, long hours.\n"
                    "Lou: It was good, I have a cushy government job and took a nap.\n"
                    "Kim: I run an animal shelter, it's draining.\n"
                    "Kim: Teaching is my day job."),
    ("chat/D2", CHAT_S2, "Lou: We have about 12 horses on the farm.\n"
                    "Kim: I wish I had two dogs.\n"
                    "Lou: I'd love to run a bakery someday.\n"
                    "Kim: I live in a small mountain town.\n"
                    "Lou: Sometimes I really miss living in a big city."),
]


def test_counts_of_pets_a_relatives_field_where_they_came_from_and_what_one_runs() -> None:
    """Old code: none of these is read ("Lou:" is parsed as a subject of "have": no speaker's job)."""
    qs = chat_questions(HOME)
    assert qs["How many snakes does Kim have?"].answer == "two"
    assert qs["Where did Lou's mom move from?"].answer == "Canada"
    assert qs["What field does Kim's dad work in?"].answer == "construction"
    assert qs["What kind of job does Lou have?"].answer == "government job"
    assert "What kind of job does Kim have?" not in qs  # "my day job" says when, not which
    assert qs["What does Kim run?"].answer == "an animal shelter"
    # "about 12 horses" is no count to ask; a wish is no pet; "run a bakery someday" is no business run
    assert not any(q.startswith(("How many horses", "How many dogs")) for q in qs)
    assert "What does Lou run?" not in qs
    # a kind of place when no name is said; missing a place is not living there
    assert qs["Where does Kim live?"].answer == "a small mountain town"
    assert not any(c.answer == "a big city" for c in qs.values())


WORK = [
    ("chat/D1", CHAT_S1, "Kim: My daughter is studying french at school.\n"
                    "Lou: I have a job at a skunk farm, believe it or not.\n"
                    "Kim: I learned my lesson- never lend money.\n"
                    "Lou: I cook myself a nice meal on Sundays."),
    ("chat/D2", CHAT_S2, "Kim: My job at the mall has been very boring.\nLou: I am taking some online classes."),
]


def test_workplaces_a_relatives_studies_and_idioms() -> None:
    """Old code: a workplace that is no name, a relative's studies: not read; "I learned my lesson" and
    "I cook myself a nice meal" (one meal, no habit) are no question; classes are asked in the plural."""
    qs = chat_questions(WORK)
    assert qs["What is Kim's daughter studying?"].answer.lower() == "french"
    assert qs["Where does Lou work?"].answer == "a skunk farm"
    assert qs["Where does Kim work?"].answer == "the mall"
    assert qs["What classes was Lou taking?"].answer == "online classes"
    assert not any("lesson" in q or "lesson" in c.answer or "meal" in c.answer for q, c in qs.items())


LONG = [
    ("chat/D1", CHAT_S1, "Kim: I've been a dentist for the past 14 years.\n"
                    "Lou: We've been married for 5 years already!\n"
                    "Kim: I have been working on it for 3 months.\n"
                    "Lou: A sign business we've had for 11 years keeps me busy.\n"
                    "Kim: I've played piano for a few years."),
    ("chat/D2", CHAT_S2, "Lou: I lost my job at the paper mill.\nKim: Oh no. How long have you been into pottery?\n"
                    "Lou: Seven years now, and I love it.\nKim: How long have you had your dog?\nLou: 3 years!"),
]


def test_how_long_a_speaker_has_been_something() -> None:
    """Old code: no duration is read. "working on it" (on what?), "we've had" (had what?) and "a few
    years" are no question; "I lost my job at the paper mill" says no place Lou works."""
    qs = chat_questions(LONG)
    assert qs["How long has Kim been a dentist?"].answer == "14 years"
    assert qs["How long has Lou been married?"].answer == "5 years"
    # a reply to the other speaker's question on the line before ("your dog": whose? no question)
    assert qs["How long has Lou been into pottery?"].answer == "Seven years"
    assert sorted(q for q in qs if q.startswith("How long")) == ["How long has Kim been a dentist?",
                                                                  "How long has Lou been into pottery?",
                                                                  "How long has Lou been married?"]
    assert "Where does Lou work?" not in qs


MEETING = [
    ("meet/D1", "Ash & Bo, session 1 (10:53 am on 14 September, 2022)",
     "Ash: Wow, that's a lot. Pets too? I love them. Used to work as a veterinarian.\n"
     "Bo: I love fun! My dad served in the army.\n"
     "Ash: No kids, but I am vegan! I write about food on my blog.\n"
     "Bo: I am 42 years old and I still feel young.\n"
     "Ash: I typically catch rainbow trout on weekends.\n"
     "Bo: I applied to be a scuba diving instructor.\n"
     "Ash: My mom died in 2010. I am not 30 years old, I am older."),
]


def test_what_people_say_when_they_meet_past_jobs_age_diet_relatives_acts_habits() -> None:
    """Old code read none of these (MSC sessions that gave no task)."""
    qs = chat_questions(MEETING)
    assert qs["What did Ash use to do for a living?"].answer == "veterinarian"
    assert qs["Where did Bo's dad serve?"].answer == "the army"
    assert qs["What diet does Ash follow?"].answer == "vegan"
    assert qs["How old is Bo?"].answer == "42"
    assert qs["What does Ash catch?"].answer == "rainbow trout"
    assert qs["What did Bo apply to be?"].answer == "a scuba diving instructor"
    assert "How old is Ash?" not in qs  # a negation is no age
    assert not any("mom" in q for q in qs)  # "died in 2010": a time is no place


def test_a_line_that_runs_into_the_next_speakers_and_a_clause_before_so_are_read() -> None:
    """Old code: ":)" closed no sentence, so Pat's line ran into Cy's and had no speaker; the parser hung
    "I live in a condo" under "it's not ideal", and its negation hid the home."""
    qs = chat_questions([
        ("home/D1", "Pat & Cy, session 1 (12:47 pm on 31 March, 2023)",
         "Pat: Yes I grew up in the country and so listening to country music was almost mandatory :)\n"
         "Cy: Same here.\n"
         "Cy: I live in a condo, so it's not ideal for BBQ."),
    ])
    assert qs["Where did Pat grow up?"].answer == "the country"
    assert qs["Where does Cy live?"].answer == "a condo"
    assert "Where did Cy grow up?" not in qs


def test_no_job_is_a_denial() -> None:
    """Found on session 33's reporting read: "I'm no writer like you" gave "What does Nate do?" → "writer"."""
    qs = chat_questions([("deny/D1", "Nate & Jo, session 1 (1:56 pm on 8 May, 2023)",
                          "Nate: Hey Jo, I'm no writer like you, but something pretty awesome happened.")])
    assert "What does Nate do for a living?" not in qs
