"""What a speaker told of themself over several sessions, asked as a whole: "What two classes did Maria
take?" → "a creative writing class and a poetry class" (told on two days), "What are the names of Maria's
two dogs?" → "Coco and Shadow" (LoCoMo's multi-hop questions: "What instruments does Melanie play?",
"What are Melanie's pets' names?"; every session that names one is needed, and gold).

The facts are those `datagen.chat_facts` and `datagen.chat_named` read ("What class did Maria take?",
"What movie did Jack watch?"), which `chat_facts.unique_chat_facts` drops when the corpus gives the
speaker and relation two answers: here they are the set. A set is asked only when it is complete as far
as the corpus tells: every mention of that speaker and relation names a thing a question could give (a
mention the reader could not cut, "I'm a fan of both classical like Bach and…", leaves the set unknown),
"another dog" only where the set holds two or more; two or three things surely different (`different`),
told in two or more sessions.
Plans and wishes ("want to visit") change and jobs are one job said twice: not asked. The question says
how many; the verifier finds each thing in a supporting passage (`verify.list_in_support`, the form of
`datagen.chat_lists`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import replace

from datagen.chat_facts import SHAPE
from datagen.factbase import Fact, FactBase
from datagen.mining import fold
from datagen.verify import names_nothing

# chat_facts' witness of "another dog", "my cats": more than one, which a set of two or three is
_SEVERAL = "\x00several"
_POINTING = frozenset("it this that these those them my our your his her their".split())
# relations whose answers are no set: a plan or wish changes, a job or a home said twice is one job or
# place said two ways ("an english teacher", "a middle school teacher"), a favourite is one
_NOT_SETS = re.compile(r"^(?:plan|wish|job|work as|from|live|move|grow up|favorite|favourite|count)\b")
# "What instrument does {s} play?" → "What {n} instruments does {s} play?"
_WHAT_CLASS = re.compile(r"^What (\w+) (does|did) \{s\} (.+\?)$")
_WHAT = re.compile(r"^What (does|did|is|was) \{s\} (.+\?)$")
_NAME_OF = re.compile(r"^What is the name of \{s\}'s (\w+)\?$")


def plural(noun: str) -> str:
    """"class" → "classes", "hobby" → "hobbies", "movie" → "movies"."""
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return noun[:-1] + "ies"
    return noun + "s"


def set_question(ask: str) -> str:
    """The set's question with "{n}" for how many, or "" when the ask has no plural form here."""
    if m := _NAME_OF.match(ask):
        return f"What are the names of {{s}}'s {{n}} {plural(m.group(1))}?"
    if m := _WHAT_CLASS.match(ask):
        if m.group(1) in ("does", "did", "is", "was"):
            return ""
        return f"What {{n}} {plural(m.group(1))} {m.group(2)} {{s}} {m.group(3)}"
    if m := _WHAT.match(ask):
        return f"What {{n}} things {m.group(1)} {{s}} {m.group(2)}"
    return ""


def said_sets(base: FactBase, max_things: int = 3) -> list[tuple[Fact, ...]]:
    """The complete cross-session sets of the speakers' said facts (see the module docstring), one fact
    per thing (its first askable mention), each with its ask turned into the set's question ("{n}" for the
    count, `datagen.chat_lists` fills it). Call before `unique_chat_facts` drops the facts."""
    groups: dict[tuple[str, str], list[Fact]] = defaultdict(list)
    for facts in base.facts.values():
        for f in facts:
            parts = f.relation.split("|")
            if len(parts) == 3 and parts[1] == SHAPE and not f.about_doc:
                groups[(fold(f.subject), f.relation)].append(f)
    out = []
    for (_, relation), mentions in sorted(groups.items()):
        head = relation.split("|")[0].removeprefix("named:")
        if _NOT_SETS.match(head):
            continue
        mentions = [f for f in mentions if f.answer != _SEVERAL]
        if any(f.answer.startswith("\x00") or names_nothing(f.answer) or _points(f.answer) for f in mentions):
            continue  # a mention the reader could not cut: the set may hold a thing we cannot say
        things: dict[str, list[Fact]] = {}
        for f in mentions:
            things.setdefault(_bare(f.answer), []).append(f)
        keys = sorted(things)
        if not 2 <= len(keys) <= max_things or not all(keys) or not different(keys):
            continue
        firsts = []
        for k in keys:
            asked = [f for f in things[k] if f.ask]
            firsts.append(asked[0] if asked else things[k][0])
        if len({f.doc_id for f in firsts}) < 2:
            continue  # told in one session: not this module's (a single-hop list)
        asks = sorted({f.ask for f in mentions if f.ask}, key=len)
        question = set_question(asks[0]) if asks else ""
        if not question:
            continue
        out.append(tuple(_with_ask(f, question) for f in sorted(firsts, key=lambda f: f.doc_id)))
    return out


def add_said_sets(base: FactBase) -> None:
    """Add `said_sets` to `base.lists`, each in place of a set of the same things an act reader gave
    (`datagen.chat_lists`: "What two things does Melanie play?" beside "What two instruments …?")."""
    found = said_sets(base)
    mine = {_set_key(s) for s in found}
    base.lists = [s for s in base.lists if _set_key(s) not in mine] + found


def _set_key(items: tuple[Fact, ...]) -> tuple[str, frozenset[str]]:
    return fold(items[0].subject), frozenset(_bare(f.answer) for f in items)


def _bare(answer: str) -> str:
    return fold(re.sub(r"^(?:a|an|the|some)\s+", "", answer, flags=re.IGNORECASE))


def different(keys: list[str]) -> bool:
    """Whether the things are surely different: none inside another ("shelter" and "homeless shelter":
    maybe one), and two of one head word only when their other words share none ("creative writing class"
    and "poetry class"; "cute pup" and "little pup" may be one dog)."""
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if a in b or b in a:
                return False
            wa, wb = a.split(), b.split()
            if wa[-1] == wb[-1] and (len(wa) == 1 or len(wb) == 1 or set(wa[:-1]) & set(wb[:-1])):
                return False
    return True


def _points(answer: str) -> bool:
    return any(w in _POINTING for w in fold(answer).split())


def _with_ask(fact: Fact, ask: str) -> Fact:
    return replace(fact, ask=ask)
