"""A chat speaker's feelings and plans asked as a person asks them: "How did John feel when his team won
the final?" → "thrilled", "In the chat of 8 May 2023, how was Maria feeling?" → "tired and stressed",
"In the chat of 25 May 2023, what was Maria planning to do?" → "take a pottery class at the community
center"; a feeling told twice in other words, a hedged plan, a feeling about the other speaker's act or
one that leans on the chat ("sad when he passed away") gives no question."""

from __future__ import annotations

from datagen_fixtures import CHAT_S1, CHAT_S2, CHAT_S3, chat_questions, generate_single_hop

from corpus_tools.types import Chunk
from datagen.positives import POSITIVES

FEELINGS = [
    ("chat/D1", CHAT_S1, "John: I felt so thrilled when the Rangers won the regional final.\n"
                    "Maria: Today I feel a bit tired and stressed.\n"
                    "John: Surfing makes me feel free.\n"
                    "Maria: I was nervous about the job interview at the bakery.\n"
                    "John: I'm so proud of you for finishing the charity marathon.\n"
                    "Maria: I was so sad when he passed away."),
    ("chat/D2", CHAT_S2, "John: I was thrilled when the Rangers won the regional final!\n"
                    "Maria: I was excited about the job interview at the bakery.\n"
                    "Maria: I'm planning to take a pottery class at the community center.\n"
                    "John: Maybe I'm going to visit the old lighthouse on the coast.\n"
                    "John: I would be so happy if the Rangers won the league cup."),
    ("chat/D3", CHAT_S3, "John: I'm feeling a bit down today.\n"
                    "John: I feel much better now.\n"
                    "John: I'm really inspired by your drive to make a difference.\n"
                    "Maria: I'm going to repaint the garden shed this weekend.\n"
                    "Maria: I'm also going to bake a lemon cake for the street party."),
]


def test_a_feeling_about_an_event_and_a_chat_s_feeling_and_plan_are_asked_as_said() -> None:
    """Old code: no reader of feelings or of a day's plan; none of these is asked."""
    qs = chat_questions(FEELINGS)
    final = qs["How did John feel when the Rangers won the regional final?"]
    assert final.answer == "thrilled"
    # told in both chats with the same feeling: one task, both turns gold
    gold = {final.supporting[0].doc_id, *(p["doc_id"] for p in final.metadata[POSITIVES])}
    assert gold == {"chat/D1", "chat/D2"}
    assert qs["How does John feel while surfing?"].answer == "free"
    assert qs["In the chat of 8 May 2023, how was Maria feeling?"].answer == "tired and stressed"
    assert qs["In the chat of 25 May 2023, what was Maria planning to do?"].answer == (
        "take a pottery class at the community center")


def test_two_feelings_a_hedge_another_s_act_or_a_pointing_event_give_no_question() -> None:
    qs = chat_questions(FEELINGS)
    asked = set(qs)
    assert "How does John feel while surfing?" in asked  # the reader runs (old code: nothing asked)
    # nervous in one chat and excited in the next about the same interview: two answers, no question
    assert not any("interview" in q for q in asked)
    # "proud of you for finishing …", "inspired by your drive to make a difference": Maria's acts, never
    # asked as John's own (the first is asked naming Maria: test_a_feeling_about_the_other_speaker_s_act…)
    assert not any(q.endswith("about finishing the charity marathon?") or "difference" in q for q in asked)
    # "when he passed away": whom? ; "would be so happy if …": a wish, no feeling
    assert all(c.answer not in ("sad", "happy") for c in qs.values())
    # "Maybe I'm going to visit …": a hedge is no plan
    assert not any(c.answer.startswith("visit") for c in qs.values())
    # down, then better, in one chat; two plans told on 14 June: no one answer for that chat
    assert not any(q.startswith("In the chat of 14 June 2023") for q in asked)


def test_a_relative_named_in_a_story_is_not_the_speaker_s() -> None:
    """Old code: "a father named Chris Gardner" in a film's plot gave "What is the name of Ivy's dad?"."""
    qs = chat_questions([
        ("chat/D1", CHAT_S1, "Ivy: The movie tells the story of an unemployed father named Chris Gardner.\n"
                        "Tom: We have a son named Kyle."),
    ])
    assert "What is the name of Ivy's dad?" not in qs
    assert qs["What is the name of Tom's son?"].answer == "Kyle"


MINE = [
    ("chat/D1", CHAT_S1, "John: I was so proud when my son graduated from the police academy.\n"
                    "Maria: I was nervous about my driving test at the city depot.\n"
                    "John: I was so happy when his band won the county contest.\n"
                    "Maria: I felt so relieved when it finally stopped raining on the farm."),
    ("chat/D2", CHAT_S2, "Maria: I'm planning to visit my parents in the mountains.\n"
                    "John: I'm so excited about her new bakery downtown.\n"
                    "Maria: I'm thrilled to open my own pottery studio downtown."),
]


def test_the_speaker_s_own_event_is_asked_with_their_and_a_plan_keeping_my_is_not() -> None:
    """Old code: "my" refused every event and plan it was in, so none of these was asked. A plan whose answer
    keeps the speaker's "my" ("visit my parents in the mountains") is the chat's words, not a reader's answer:
    not asked since session 37 (`NaturalConfig.speaker_words`, datagen.natural)."""
    qs = chat_questions(MINE)
    assert qs["How did John feel when their son graduated from the police academy?"].answer == "proud"
    assert qs["How did Maria feel about their driving test at the city depot?"].answer == "nervous"
    assert "In the chat of 25 May 2023, what was Maria planning to do?" not in qs
    assert qs["How does Maria feel about opening their own pottery studio downtown?"].answer == "thrilled"
    # "his band", "it … stopped raining", "her new bakery": another's, or whose? — still not asked
    assert all(c.answer not in ("happy", "relieved", "excited") for c in qs.values())
    assert not any("his " in q or "her " in q or " it " in q for q in qs)


ADDRESSED = [
    ("chat/D1", CHAT_S1, "John: I'm so proud of you for finishing the charity marathon in Boston.\n"
                    "Maria: Thanks! I'm really grateful for your help with the garden shed.\n"
                    "John: I'm so happy for you.\n"
                    "Maria: I'm proud of you for sticking with it."),
    ("chat/D2", "Emily & Assistant, session 2 (3:10 pm on 25 May, 2023)",
     "Emily: I'm really grateful for your advice on the job interview.\n"
     "Assistant: You are welcome, Emily."),
]


def test_a_feeling_about_the_other_speaker_s_act_names_them() -> None:
    """Old code: "you" refused every feeling it was in ("proud of you for …"); none of these was asked."""
    qs = chat_questions(ADDRESSED)
    assert qs["How does John feel about Maria finishing the charity marathon in Boston?"].answer == "proud"
    assert qs["How does Maria feel about John's help with the garden shed?"].answer == "grateful"
    # no act ("happy for you"), an act that points ("sticking with it"), a program's help: none
    assert not any("Assistant" in q or "sticking" in q for q in qs)
    assert all(c.answer != "happy" for c in qs.values())


FELT = [
    ("chat/D1", CHAT_S1, "Maria: I'm so excited about the pottery class at the community center.\n"
                    "John: I'm thrilled to open a dance studio downtown next spring.\n"
                    "John: I'm so grateful for your help.\n"
                    "Maria: I'm nervous about it."),
    ("chat/D2", CHAT_S2, "John: I'm thrilled to coach the junior soccer team this fall.\n"
                    "John: I'm also thrilled to repaint the old barn with my kids."),
]


def test_what_a_speaker_felt_about_is_asked_by_the_feeling_and_the_chat() -> None:
    """Old code: a feeling's event was asked only as "How does Maria feel about …?", never the event
    by its feeling ("What was Caroline excited about?" in real conversation QA)."""
    qs = chat_questions(FELT)
    day = "In the chat of 8 May 2023, "
    assert qs[day + "what was Maria excited about?"].answer == "the pottery class at the community center"
    assert qs[day + "what was John thrilled to do?"].answer == "open a dance studio downtown next spring"
    # "grateful for your help", "nervous about it": the chat says what; two things John was thrilled to
    # do on 25 May: no one answer
    assert not any(q.startswith(day) and ("grateful" in q or "nervous" in q) for q in qs)
    assert not any(q.startswith("In the chat of 25 May 2023") and "thrilled" in q for q in qs)


AFTER = [
    ("chat/D1", CHAT_S1, "John: I finished my first marathon last week. It made me so proud!\n"
                    "Maria: I gave a talk at the homeless shelter. It was really fulfilling.\n"
                    "John: Did you finish the pottery class? It made me so happy!\n"
                    "Maria: I went hiking at the lake and then swam in the river. It was so relaxing.\n"
                    "John: The weather at the coast was great. It made me so calm.\n"
                    "Maria: I met him at the farmers market. It was so fun.\n"
                    "John: We go a few times a week. It's great for family bonding."),
    ("chat/D2", CHAT_S2, "John: I painted the old barn with my kids.\n"
                    "Maria: It was so beautiful.\n"
                    "John: Hey, I had to shut down my bakery downtown. It was tough, but I needed to.\n"
                    "Maria: We visited the aquarium in Boston. It was magical!"),
    ("chat/D3", CHAT_S3, "Maria: It was so gratifying to talk to the young volunteers at the food bank.\n"
                    "John: It was great to see you.\n"
                    "Maria: It was so encouraging to be surrounded by old friends."),
]


def test_a_feeling_of_it_is_asked_about_the_act_told_just_before() -> None:
    """Old code: "It made me so proud" leans on the chat ("it"), so the feeling was never asked."""
    qs = chat_questions(AFTER)
    assert qs["How did John feel after finishing their first marathon?"].answer == "proud"
    assert qs["How did Maria describe giving a talk at the homeless shelter?"].answer == "fulfilling"
    assert qs["How did John describe shutting down their bakery downtown?"].answer == "tough"
    assert qs["How did Maria describe visiting the aquarium in Boston?"].answer == "magical"  # "we": Maria among them
    # "it" standing for the act said after it, in the same sentence
    assert qs["How did Maria describe talking to the young volunteers at the food bank?"].answer == "gratifying"


def test_a_feeling_of_it_after_a_question_two_acts_no_act_or_another_s_act_gives_no_question() -> None:
    qs = chat_questions(AFTER)
    assert "How did John feel after finishing their first marathon?" in qs  # the reader runs
    # after a question, after two acts ("hiked … and then swam"), after no act of the speaker's, after an
    # act leaning on the chat ("met him"), after the other speaker's act: none
    assert all(c.answer not in ("happy", "relaxing", "calm", "fun", "beautiful") for c in qs.values())
    assert not any("a few times" in q for q in qs)  # go where? and "great for …" is what it is good for
    # "great to see you": whom?; "encouraging to be surrounded by …": nothing the speaker did
    assert all(c.answer not in ("great", "encouraging") for c in qs.values())
    assert not any(("describe" in q or " feel " in q) and any(w in q for w in ("pottery", "hik", "weather", "barn", "him"))
                   for q in qs)


def test_a_cheer_said_of_now_is_no_description_of_an_act() -> None:
    """Old code (the reader's first form) asked "How does John describe making a real difference …?" →
    "great": a cheer at what is so, not how an act of John's went."""
    qs = chat_questions([("chat/D3", CHAT_S3, "Maria: It was so gratifying to talk to the young volunteers at the food bank.\n"
                                         "John: It's so great to make a real difference at the food bank.")])
    assert qs["How did Maria describe talking to the young volunteers at the food bank?"].answer == "gratifying"
    assert not any("difference" in q for q in qs)


# one passage holding several turns, as a session is indexed in 256-token chunks
TURNS = [
    ("Maria: I baked my first sourdough loaf for the church fair.\n"
     "John: Wow, how did it go?\n"
     "Maria: Thanks, John! It made me so proud."),
    ("John: I repaired the fence around the old orchard.\n"
     "Maria: That's great news! Did you see the new museum?\n"
     "John: It was so relaxing."),
]


def test_a_feeling_of_it_answers_the_speaker_s_previous_turn_past_a_reaction() -> None:
    """Old code: only the same turn's sentence before was read, so Maria's answer to "how did it go?"
    gave nothing; the other speaker naming something else ("the new museum") still gives none."""
    chunks = [Chunk(f"chat/D{i}#0", f"chat/D{i}", text, 0, len(text.split()), {"title": title})
              for i, (title, text) in enumerate(zip((CHAT_S1, CHAT_S2), TURNS, strict=True), 1)]
    qs = generate_single_hop(chunks)[1]
    assert qs["How did Maria feel after baking their first sourdough loaf for the church fair?"].answer == "proud"
    assert all(c.answer != "relaxing" for c in qs.values())
