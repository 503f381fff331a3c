"""What a chat's speaker said they were planning, wanting, hoping or thinking about doing, and what they
wanted to talk about, asked by the chat it was told in: conversation benchmarks ask plans and hopes as
said ("What did Maria plan to do later on the evening of 7 July, 2023?" → "have dinner with friends from
the gym"; "What is Melanie hoping to do?"), answered by the act's own words:

- "I'm planning to take a walk in the nearby park"  → "In the chat of 7 July 2023, what was Maria
  planning to do?" → "take a walk in the nearby park"
- "I am going to explore a cave on easter"            → "…, what was Kim planning to do?"
- "I'd love to travel to Portugal next spring"         → "…, what did Maria want to do?" → "travel to
  Portugal next spring" ("I want to", "I wanna", "I'd like to" alike)
- "I'm hoping to finish the treehouse by July"         → "…, what was John hoping to do?"
- "I'm thinking about adopting a rescue dog"           → "…, what was Maria thinking about doing?" →
  "adopting a rescue dog" ("I'm considering adopting …" alike)
- "Today I want to talk to you about my writing"       → "…, what did Linda want to talk about?" → "writing"

datagen.chat_plans asks a plan's object with no date ("What was Gina hoping to open?"); here the whole
act is the answer, so the chat it was told in is what makes the question one. Read only with the
speaker's own "I", no negation, modal or condition (a wish's own polite "would" aside: "I'd love to") and
no guess (datagen.chat_plans.plain_clause: "if I plan to…", "I might be going to…"; "maybe",
"probably"); not from a past wish ("After losing my job, I wanted to…": the story's reason), a wish for
another's act ("I hope you like it", "I want them to come") or a courtesy ("I want to say thanks").
The act is the sentence's words from the verb to the end of its clause (cut at a comma, "and I", "but",
"so", "because", a purpose "to …"; "go for a walk and buy some new books" is one plan, said whole;
"learn how to play the cello" keeps its "how to"), at most `_MAX_WORDS` words, none pointing at
something said elsewhere ("do it", "show you", "his paintings", "the others": whose?; the speaker's own
"my" is kept as said, "visit my parents"), and not a phrase that names no act ("keep going", "make it",
"have to go", "relax a bit", "create a place for people"). A topic is the noun phrase after "talk/chat
about" or "discuss", its "my" dropped (the answer is the thing, and no gender is guessed).

Each family is its own relation, keyed by the day ("plan-do:7 July 2023", "wish-do:…", "hope-do:…",
"think-do:…", "talk-about:…"): two different acts of one family told that day give no question
(`datagen.chat_facts.unique_chat_facts`); the verifier checks the supporting chat was written that day.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from datagen.chat_facts import SHAPE
from datagen.chat_plans import VAGUE, plain_clause
from datagen.dates import format_date
from datagen.factbase import Fact
from datagen.types import TruthType
from datagen.verify import TOLD_OPENING

DAY_PLAN = "plan-do"
# A wish, a hope and a thought-of plan are asked as said ("what did Maria want to do?", "what was Maria
# hoping to do?"): each family its own relation, so a plan and a wish of one day are two questions
_WISH, _HOPE, _THINK, _TALK = "wish-do", "hope-do", "think-do", "talk-about"
_FRAMES = {
    DAY_PLAN: "what was {s} planning to do?",
    _WISH: "what did {s} want to do?",
    _HOPE: "what was {s} hoping to do?",
    _THINK: "what was {s} thinking about doing?",
    _TALK: "what did {s} want to talk about?",
}
# "I want to talk to you about my writing": the topic is the wish
_TALKS = frozenset("talk chat discuss".split())
_VAGUE_TOPICS = frozenset("something anything everything things stuff life today".split())
# acts that say no plan of their own ("keep going", "make it", "try it", "have to …", "be there")
_LIGHT = frozenset("be keep make try have do get let say tell see stop start continue give come know hear thank ask "
                   "share".split())
# light acts that name a plan with a thing ("start a dance studio", "see the Grand Canyon")
_LIGHT_WITH_THING = frozenset("have try start make get see give do".split())
_POINTING = frozenset(
    "it its this that these those me my mine you your yours he him his she her they them their we us our "
    "there here something anything everything one".split()
)
# The speaker's own: the answer is the plan as the speaker said it ("visit my parents"), whose "my" is the
# asked person's and needs no guess
_OWN = frozenset("my mine".split())
_STOPS = frozenset("but so because though although while when if unless then".split())
_AND = frozenset("and or".split())
_HEDGES = frozenset("maybe perhaps probably possibly hopefully likely".split())
_MAX_WORDS = 12
# words that end an act without adding to it ("learn new skills lately")
_TRAILING = frozenset("lately recently too also now someday though anyway again soon".split())
# words that, after the verb, name nothing ("relax a bit")
_VAGUE_REST = frozenset("bit while little lot time".split())
_SEASONS = frozenset(
    "weekend week month year summer fall autumn spring winter morning afternoon evening monday tuesday "
    "wednesday thursday friday saturday sunday".split()
)
_TIME_WORDS = frozenset("day week month year couple time hour minute".split())


def day_plan_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str, day: dt.date | None) -> list[Fact]:
    """The speaker's stated plan, wish or topic in one parsed sentence, asked by its chat's day (see the
    module docstring)."""
    if not speaker or day is None or text.rstrip().endswith("?"):
        return []
    out: list[Fact] = []
    told = format_date(day)
    for head in doc:
        found = _planned_act(head)
        if found is None:
            found = _wished_act(head)
        if found is None:
            continue
        act, family = found
        if family == _TALK:
            answer = _topic(act)
            key = act.lower_
        else:
            words = act_words(act)
            answer = "".join(w.text_with_ws for w in words).strip()
            key = act.lower_
        if not answer and family in (_WISH, _HOPE) and act.lemma_.lower() in _LIGHT:
            continue  # "I want to say thanks", "I hope to hear from you": a courtesy, no second wish
        if answer and family == DAY_PLAN and any(c.dep_ == "advmod" and c.lower_ == "now" for c in act.children):
            answer = ""  # "I'm going to have dinner now and will talk to you tomorrow": leaving the chat, no plan
        if not answer:
            # still a plan (wish, topic) of that day: a second answer, so a question whose act was read is
            # not asked while another of the same day was said in words not read
            answer, ask = "\x00" + key, ""
        else:
            ask = f"{TOLD_OPENING}{told}, {_FRAMES[family]}"
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"{family}:{told}|{SHAPE}|{TruthType.OTHER.value}", answer=answer,
            kind=TruthType.OTHER.value, ask=ask,
        ))
    return out


def _planned_act(head: Any) -> tuple[Any, str] | None:
    """The act "I'm planning to X" / "I'm going to X" / "I'm gonna X" / "I plan to X" governs, or None."""
    low, lemma = head.lower_, head.lemma_.lower()
    progressive = _progressive(head)
    if any(c.dep_ == "aux" and c.lower_ == "was" for c in head.children):
        return None  # "I was gonna do a shameless plug", "I was going to…, but": a past intent, often dropped
    if lemma == "plan" and head.tag_ in ("VBG", "VBP"):
        if head.tag_ == "VBG" and not progressive:
            return None
    elif low == "going" and progressive:
        pass
    elif low in ("gon", "gonna") and progressive:
        pass
    else:
        return None
    if not _i_subject(head) or not plain_clause(head) or _hedged(head):
        return None
    for c in head.children:
        if c.dep_ == "xcomp" and c.tag_ == "VB":
            return c, DAY_PLAN
        if c.dep_ == "prep" and c.lower_ == "on" and lemma == "plan":  # "planning on visiting X"
            act = next((g for g in c.children if g.dep_ == "pcomp" and g.tag_ == "VBG"), None)
            return (act, DAY_PLAN) if act is not None else None
    return None


def _wished_act(head: Any) -> tuple[Any, str] | None:
    """The act of a wish, a hope or a thought-of plan ("I want to X", "I'd love to X", "I'm hoping to X",
    "I'm thinking about X-ing", "I'm considering X-ing", "I want to talk about X") and its family, or None."""
    low, lemma = head.lower_, head.lemma_.lower()  # the parser lemmatises "hoping" as "hop"
    would = _would(head)
    if lemma in ("want", "wanna") and head.tag_ in ("VBP", "VB") and (head.tag_ != "VB" or low == "wanna"):
        family = _WISH  # not "I wanted to…": a past wish is the story's reason ("After losing my job, I wanted to…")
    elif lemma in ("love", "like") and would:
        family = _WISH  # "I'd love to visit Japan", "I would like to learn the guitar": a wish, said politely
    elif (lemma == "hope" or low == "hoping") and (head.tag_ == "VBP" or (head.tag_ == "VBG" and _progressive(head))):
        family = _HOPE
    elif lemma in ("think", "consider") and head.tag_ == "VBG" and _progressive(head):
        family = _THINK
    else:
        return None
    if not _i_subject(head) or not _plain_wish(head, would) or _hedged(head):
        return None
    if any(c.dep_ in ("dobj", "ccomp") for c in head.children):
        return None  # "I want them to come", "I hope you like it": another's act
    for c in head.children:
        if family in (_WISH, _HOPE) and c.dep_ == "xcomp" and c.tag_ == "VB" and any(
                a.dep_ == "aux" and a.lower_ == "to" for a in c.children) or (low == "wanna" and c.dep_ == "xcomp"):
            if family == _WISH and c.lemma_.lower() in _TALKS:
                return c, _TALK
            return c, family
        if family == _THINK and c.dep_ == "xcomp" and c.tag_ == "VBG" and lemma == "consider":
            return c, family
        if family == _THINK and c.dep_ == "prep" and c.lower_ in ("about", "of") and lemma == "think":
            act = next((g for g in c.children if g.dep_ == "pcomp" and g.tag_ == "VBG"), None)
            return (act, family) if act is not None else None
    return None


def _progressive(head: Any) -> bool:
    return any(c.dep_ == "aux" and c.lower_ in ("am", "'m", "’m", "m", "was") for c in head.children)


def _would(head: Any) -> bool:
    return any(c.dep_ == "aux" and c.lower_ in ("would", "'d", "’d", "d") for c in head.children)


def _plain_wish(head: Any, would: bool) -> bool:
    """No negation, modal or condition on the wish, its own polite "would" ("I'd love to") aside."""
    if would:
        return not any(c.dep_ == "neg" or (c.dep_ == "mark" and c.lower_ in ("if", "unless", "whether"))
                       for c in head.children) and (head.dep_ == "ROOT" or plain_clause(head.head))
    return plain_clause(head)


def _topic(act: Any) -> str:
    """What "talk/chat to you about X" or "discuss X" names: X's noun phrase without the speaker's "my"
    ("my writing" → "writing"), or "" when it leans on the chat or is too long."""
    obj = None
    if act.lemma_.lower() == "discuss":
        obj = next((c for c in act.children if c.dep_ == "dobj"), None)
    else:
        about = next((c for c in act.children if c.dep_ == "prep" and c.lower_ == "about"), None)
        obj = next((g for g in about.children if g.dep_ == "pobj"), None) if about is not None else None
    if obj is None or obj.tag_ in ("PRP", "WP", "WDT") or obj.lower_ in _VAGUE_TOPICS:
        return ""
    words = list(obj.doc[obj.left_edge.i : obj.right_edge.i + 1])
    while words and words[0].lower_ in _OWN | {"the", "some"}:
        words = words[1:]
    while words and (words[-1].is_punct or words[-1].lower_ in _STOPS | _AND):
        words = words[:-1]
    if not words or len(words) > 6 or any(
            w.lower_ in _POINTING or w.tag_ in ("PRP", "PRP$", "WDT", "WP") or w.lower_ in _STOPS for w in words):
        return ""
    return "".join(w.text_with_ws for w in words).strip()


def _hedged(head: Any) -> bool:
    """ "Maybe I'm going to…", "I'm probably gonna…": a guess, no plan."""
    return any(c.dep_ == "advmod" and c.lower_ in _HEDGES for node in (head, *head.ancestors) for c in node.children)


def _i_subject(head: Any) -> bool:
    doc = head.doc
    return any(c.dep_ == "nsubj" and c.lower_ == "i" and not (c.i + 1 < len(doc) and doc[c.i + 1].text == ":")
               for c in head.children)


def _this_time(word: Any) -> bool:
    """ "this weekend", "this fall": a time said from the chat's day, no pointing at something said."""
    doc = word.doc
    return word.lower_ == "this" and word.i + 1 < len(doc) and doc[word.i + 1].lower_ in _SEASONS


def act_words(act: Any) -> list[Any]:
    """The act's words to the end of its clause, or [] where they name no plan one could check ("have
    dinner with friends", "try some new dishes" are plans; "have to go", "try it" are none)."""
    light = act.lemma_.lower() in _LIGHT and not (
        act.lemma_.lower() in _LIGHT_WITH_THING and any(c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN")
                                                        for c in act.children))
    if light or any(c.dep_ == "neg" for c in act.children):
        return []
    if any(c.dep_ == "prt" for c in act.children) and not any(c.dep_ in ("dobj", "prep") for c in act.children):
        return []  # "join in", "help out", "come along": in what, whom? the chat says
    words = []
    doc = act.doc
    for t in doc[act.i : act.right_edge.i + 1]:
        if (t.is_punct and t.text not in ("'", "’", "-")) or (t.lower_ in _STOPS and t.i > act.i):
            break
        if t.lower_ == "to" and t.dep_ == "aux" and t.i > act.i + 1 and words and words[-1].tag_ != "WRB" \
                and t.head.dep_ not in ("acl", "relcl"):  # "a place for people to grow" names the place
            break  # "visit other museums to experience more culture": the plan, not its purpose
        if t.lower_ in _AND and t.i + 1 < len(doc) and doc[t.i + 1].tag_ in ("PRP", "EX"):
            break  # "…, and I want to bring my camera": another clause; "go for a walk and buy books" is one plan
        words.append(t)
    while words and words[-1].lower_ in _TRAILING:
        words = words[:-1]  # "learning some new skills lately": the act, not when it was said
    if not words or len(words) > _MAX_WORDS or len(words) < 2:
        return []  # "I'm going to relax": one word is no plan one could tell from another
    if all(w.lower_ in _VAGUE_REST or not w.is_alpha or w.is_stop for w in words[1:]):
        return []  # "relax a bit", "go there for a while": the act alone, no plan one could tell apart
    obj = next((c for c in act.children if c.dep_ == "dobj"), None)
    if obj is not None and ((obj.lower_ in VAGUE and not any(c.dep_ in ("amod", "compound") for c in obj.children))
                            or obj.lemma_.lower() in _TIME_WORDS):
        return []  # "create a place for people", "try a couple of days": the object names nothing
    if any(w.lower_ == "others" and w.i > 0 and doc[w.i - 1].lower_ == "the" for w in words):
        return []  # "go to the others": which others?
    if any(w.lower_ not in _OWN and (w.lower_ in _POINTING or w.tag_ in ("PRP", "PRP$")) and not _this_time(w)
           for w in words):
        return []
    return words
