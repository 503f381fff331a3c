"""How a chat's speaker says they felt about an event or an activity: the feeling questions conversation
benchmarks ask ("How did Joanna feel when someone wrote her a letter after reading her blog post?" →
"Touched"; "How does John feel while surfing?" → "super exciting and free-feeling"), read from the
speaker's own plain statements:

- "I felt so touched when someone wrote a letter"  → "How did Jo feel when someone wrote a letter?" → "touched"
- "I was nervous about the job interview"           → "How did Jo feel about the job interview?"     → "nervous"
- "I'm thrilled to open a dance studio"             → "How does Jon feel about opening a dance studio?" → "thrilled"
- "Surfing makes me feel free", "Dancing makes me so happy" → "How does John feel while surfing?" → "free"
- "Watching the meteor shower, I felt small"        → "How did Mel feel while watching the meteor shower?"

Read from the parse: a copula or "feel"/"get" whose subject is "I" (never "we": a household's
feeling is no one person's), with no negation, modal or condition on its clause
(datagen.chat_plans.plain_clause: "I would be so happy if…", "I'm not excited about the move"), and a
feeling word (an adjective of `FEELINGS`; after "feel" any adjective but a few that say no feeling:
"sure", "like"); or "X makes/made me (feel) ADJ". The answer is the feeling as said, with its
coordinated feelings ("relieved and grateful") and without its intensifier ("so", "super"). The event
is the sentence's own words: the object of "about"/"for"/"over", an infinitive read as a gerund ("to
open a studio" → "opening a studio"), a "when/while/after/before" clause, a leading "-ing" clause, or
the subject of "makes me feel". It is asked only when it names its event without leaning on the chat:
no pronoun ("when he passed away", "about it", "for you"), no "this"/"that"; the speaker's own "my"/"mine"
is said "their"/"theirs" (singular, no gender guessed, as datagen.chat_mentions says "their mom": "I was so
proud when my son graduated" → "How did Jo feel when their son graduated?"); a clause of the speaker's own past act is said as a gerund ("when I
won the race" → "when winning the race"), any other "I" gives none; a bare noun event needs two
content words ("the interview" could be any interview; "the job interview" less so).
The event is also asked by its feeling and chat, answered as said: "I'm thrilled to open a dance studio"
→ "In the chat of 3 May 2023, what was Jon thrilled to do?" → "open a dance studio"; "I was nervous about
my driving test" → "…, what was Maria nervous about?" → "my driving test" (as "What is Caroline excited
about …?" is asked in real conversation QA); never where the words lean on the chat or the feeling is
another's due ("proud of you for …"); two things one feeling is about in one chat give none.

In a two-person chat "you" is the other speaker, said by name: "I'm so proud of you for spreading
awareness" → "How does Mel feel about Caroline spreading awareness?" → "proud", "grateful for your help
with the move" → "about Gina's help with the move" (never for a program: "Assistant's help"; none where
the act says "you", "their" or nothing: "happy for you").

The relation is the event ("feel:about the job interview"): the same feeling told twice is one task
(its turns are positives), two feelings about one event give two answers and no question
(`datagen.chat_facts.unique_chat_facts`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from datagen.chat_day_plans import act_words
from datagen.chat_facts import SHAPE
from datagen.chat_plans import plain_clause
from datagen.chat_sessions import gerund
from datagen.dates import format_date
from datagen.factbase import Fact
from datagen.mining import fold
from datagen.types import TruthType
from datagen.verify import TOLD_OPENING

FELT = "felt"  # "felt:excited about:3 May 2023|said|other": what the speaker was excited about in that chat
MOOD = "mood"  # "mood:14 June 2023|said|other": how the speaker said they felt in that day's chat

# Adjectives (and participles) that name a feeling after "I am/was/get": "I'm busy" or "I was ready"
# name none.
FEELINGS = frozenset(
    "happy glad excited thrilled nervous anxious scared afraid terrified frightened worried proud grateful "
    "thankful blessed lucky fortunate touched moved relieved sad upset angry mad frustrated disappointed "
    "overwhelmed stressed calm relaxed peaceful content satisfied inspired motivated confident hopeful lonely "
    "bored embarrassed ashamed guilty jealous curious surprised shocked amazed awed pumped stoked psyched "
    "ecstatic elated joyful delighted cheerful heartbroken devastated hurt annoyed irritated furious nostalgic "
    "energized energised empowered fulfilled accomplished humbled honored honoured eager apprehensive uneasy "
    "homesick emotional speechless starstruck giddy exhilarated encouraged discouraged depressed miserable "
    "thrilled grateful appreciative intimidated insecure comfortable uncomfortable refreshed rejuvenated "
    "invigorated victorious triumphant validated welcomed supported loved appreciated connected "
    "exhausted drained".split()
)
# After "feel" almost any adjective is a feeling ("I feel great", "felt free"); these say none.
_NOT_FEELINGS = frozenset("sure like able ready certain due obliged same right wrong".split())
_INTENSIFIERS = frozenset(
    "so very really super pretty quite totally extremely incredibly truly especially absolutely just even "
    "still also kind kinda sort sorta bit little too most more deeply genuinely beyond seriously".split()
)
# Words that lean on the chat: whom or what they point at is not in the question.
_POINTING = frozenset(
    "me my mine myself we us our ours you your yours he him his she her hers it its they them their theirs "
    "this that these those there here everything something anything nothing everyone someone's one ones".split()
)
# The speaker's own: said in the question as the asked person's, with no gender ("their son").
_OWN = {"my": "their", "mine": "theirs"}
# feelings about an act to come, asked "what was Jon thrilled to do?"; "lucky to have my family", "glad to
# help" say how the speaker finds a state, not what they look forward to
_LOOKING_AHEAD = frozenset(
    "excited thrilled stoked pumped psyched eager nervous anxious scared afraid terrified frightened worried "
    "apprehensive".split()
)
# words that end an act without adding to it ("I ran a marathon again!")
_TRAILING = frozenset("lately recently too also now finally again today".split())
_HABITUAL = frozenset("sometimes always often usually never whenever generally normally".split())
_LIKES = frozenset("enjoy love like prefer adore".split())
_WHEN_MARKS = frozenset("when while after before whenever".split())
_ABOUT_PREPS = frozenset("about for over".split())
_CONTENT = frozenset("NOUN PROPN VERB ADJ NUM".split())
_MAX_EVENT_WORDS = 12
_CLAUSE_BREAKS = frozenset("and but because so though when while and or as since".split())


def feeling_facts(
    doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str, day: dt.date | None = None,
    addressee: str = "",
) -> list[Fact]:
    """The speaker's stated feelings in one parsed sentence (see the module docstring). day: the date the
    chat was written (None: not known), which asks a feeling told of no event by its chat; addressee: the
    one other person of a two-person chat ("" when none or a program), whom "you" names."""
    if not speaker or text.rstrip().endswith("?"):
        return []
    out: list[Fact] = []
    for verb in doc:
        mood = _mood(verb)
        if mood is not None and day is not None:
            # "Today I feel a bit tired and stressed": how the speaker was that day; any other present
            # feeling of that chat ("I feel much better now") is a second answer (a witness, no question)
            answer, asked = mood
            told = format_date(day)
            out.append(Fact(
                doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
                relation=f"{MOOD}:{told}|{SHAPE}|{TruthType.OTHER.value}", answer=answer,
                kind=TruthType.OTHER.value, ask=f"{TOLD_OPENING}{told}, how was {{s}} feeling?" if asked else "",
            ))
            continue
        found = _self_feeling(verb, addressee) or _made_feeling(verb)
        if found is None:
            continue
        feeling, event, past = found
        answer = _feeling_phrase(feeling)
        felt = _felt_about(feeling) if answer and day is not None and feeling.lower_ in FEELINGS else None
        if felt is not None:
            # "I'm thrilled to open a dance studio" → "In the chat of 3 May 2023, what was Jon thrilled to
            # do?": the event asked by its feeling, as conversation benchmarks ask "What is Caroline
            # excited about …?"; one answer per feeling and chat
            told, (prep, thing) = format_date(day), felt
            out.append(Fact(
                doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
                relation=f"{FELT}:{fold(answer)} {prep}:{told}|{SHAPE}|{TruthType.OTHER.value}",
                answer=thing or "\x00" + str(verb.i), kind=TruthType.OTHER.value,
                ask=f"{TOLD_OPENING}{told}, what was {{s}} {answer} {prep}?" if thing else "",
            ))
        if not answer or not event:
            continue
        if any(c.lower_ == "been" for c in verb.children):  # "I've been feeling a bit stressed out"
            ask = f"How has {{s}} been feeling {event}?"
        else:
            ask = f"How {'did' if past else 'does'} {{s}} feel {event}?"
        out.append(Fact(
            doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
            relation=f"feel:{fold(event)}|{SHAPE}|{TruthType.OTHER.value}",
            answer=answer, kind=TruthType.OTHER.value, ask=ask,
        ))
    return out


def _mood(verb: Any) -> tuple[str, bool] | None:
    """ "I feel a bit tired and stressed", "I'm feeling down", "I'm so excited!": (the feeling, asked), a
    present feeling told of no event; asked False where it is only a witness ("I feel better now",
    "I'm not excited")."""
    lemma = verb.lemma_.lower()
    aux = _passive_aux(verb)
    if aux is not None:  # "I'm thrilled!"
        lemma, present, feeling = "be", aux.tag_ in ("VBP", "VBZ"), verb
    elif lemma not in ("be", "feel") or not _i_subject(verb):
        return None
    else:
        # "I feel", "I'm feeling", "I've been feeling … these days": how the speaker is now
        present = verb.tag_ in ("VBP", "VBZ") or (verb.tag_ == "VBG" and any(
            c.dep_ == "aux" and c.lower_ in ("am", "'m", "’m", "been") for c in verb.children))
        feeling = next((c for c in verb.children if c.dep_ == "acomp"), None)
    if not present or feeling is None:
        return None
    top = verb
    while top.dep_ == "conj":
        top = top.head
    if any(t.lower_ in ("when", "whenever", "if", "while") for t in verb.doc[: verb.i]):
        return None  # a parse may hang "… when things matter and I'm nervous" on the main verb
    if top.dep_ != "ROOT" or any(
        c.lower_ in _HABITUAL or (c.dep_ == "npadvmod" and any(g.lower_ == "every" for g in c.children))
        for c in verb.children
    ):
        return None  # "you help me when I feel confused", "… when things matter and I'm nervous",
        # "sometimes I feel lonely": no one day's feeling
    if any(c.dep_ == "conj" and c.lemma_.lower() in _LIKES for c in verb.children):
        return None  # "I really feel relaxed and enjoy being in nature": what nature does, not that day
    if lemma == "be" and feeling.lower_ not in FEELINGS:
        return None  # "I'm busy", "I'm sure": no feeling, and no other answer either
    if lemma == "feel" and feeling.tag_ not in ("JJ", "JJR", "VBN", "RB", "RBR"):
        return None
    bound = any(c.dep_ in ("prep", "xcomp", "ccomp", "advcl") for c in (*feeling.children, *verb.children)
                if c.dep_ != "prep" or c.lower_ not in ("today", "now"))
    # "I'm glad tomorrow is a day off": the parser hangs the clause with no "that" on the verb as a bare
    # dep (or parataxis); the gladness is about that fact, not a mood the day had (issue 36, session 37)
    bound = bound or any(c.dep_ in ("dep", "parataxis") and c.pos_ in ("VERB", "AUX") and c.i > feeling.i
                         for c in (*feeling.children, *verb.children))
    if bound:
        return None  # "I'm proud of you", "I'm glad to meet you", "worried that…": about something
    asked = _is_feeling(feeling, lemma == "feel") and feeling.tag_ in ("JJ", "VBN") and plain_clause(verb)
    return _feeling_phrase(feeling) if asked else feeling.lower_, asked


def _self_feeling(verb: Any, addressee: str = "") -> tuple[Any, str, bool] | None:
    """ "I was nervous about X", "I felt touched when X", "I'm thrilled to X": (feeling, event, past)."""
    lemma = verb.lemma_.lower()
    aux = _passive_aux(verb)
    if aux is not None:  # "I was thrilled when …" parsed as a passive: the participle is the feeling
        return (verb, _event(verb, verb, addressee), aux.tag_ == "VBD") if plain_clause(verb) else None
    if lemma not in ("be", "feel", "get") or not _i_subject(verb) or not plain_clause(verb):
        return None
    feeling = next((c for c in verb.children if c.dep_ == "acomp" and c.tag_ in ("JJ", "VBN")), None)
    if feeling is None or not _is_feeling(feeling, lemma == "feel"):
        return None
    past = verb.tag_ == "VBD"
    return feeling, _event(verb, feeling, addressee), past


def _passive_aux(verb: Any) -> Any:
    """The "was"/"am" of "I was thrilled", "I'm touched" where the parse reads the feeling as a passive
    participle with "I" its subject, or None."""
    if verb.tag_ != "VBN" or verb.lower_ not in FEELINGS:
        return None
    if not any(c.dep_ == "nsubjpass" and c.lower_ == "i" for c in verb.children):
        return None
    return next((c for c in verb.children if c.dep_ == "auxpass" and c.lemma_.lower() == "be"), None)


def _made_feeling(verb: Any) -> tuple[Any, str, bool] | None:
    """ "Surfing makes me feel free", "Dancing makes me so happy": the maker is the event."""
    feeling = _made_me(verb)
    maker = _maker(verb) if feeling is not None else None
    if maker is None:
        return None
    words = _owned(_span(maker.left_edge.i, maker.right_edge.i + 1, verb.doc))
    if not words or not _plain_words(words):
        return None
    past = verb.tag_ == "VBD"
    if words[0].tag_ == "VBG" or (words[0].lower_.endswith("ing") and words[0].pos_ in ("NOUN", "VERB")):
        # "Surfing", "Volunteering at the shelter": an activity, asked "while …"
        return feeling, "while " + _text(words), past
    if words[0].lower_ in ("the", "a", "an") and _content(words) >= 2:
        return feeling, "about " + _text(words), past
    return None


def _made_me(verb: Any) -> Any:
    """The feeling of "… makes me (feel) so happy", or None."""
    if verb.lemma_.lower() != "make" or not plain_clause(verb):
        return None
    if not any(c.lower_ == "me" for c in verb.subtree if c.head == verb or c.head.head == verb):
        return None
    feeling = None
    for c in verb.children:
        if c.dep_ in ("ccomp", "xcomp", "acomp") and c.tag_ in ("JJ", "VBN") and _is_feeling(c, False):
            feeling = c  # "makes me so happy"
        elif c.dep_ in ("ccomp", "xcomp") and c.lemma_.lower() == "feel":
            if any(g.lower_ == "me" for g in c.children) or any(g.lower_ == "me" for g in verb.children):
                feeling = next((g for g in c.children if g.dep_ == "acomp" and g.tag_ in ("JJ", "VBN")
                                and _is_feeling(g, True)), None)
    return feeling


def _maker(verb: Any) -> Any:
    return next((c for c in verb.children if c.dep_ in ("nsubj", "csubj") and c.lower_ != "me"), None)


def _i_subject(verb: Any) -> bool:
    doc = verb.doc
    return any(c.dep_ == "nsubj" and c.lower_ == "i" and not (c.i + 1 < len(doc) and doc[c.i + 1].text == ":")
               for c in verb.children)


def _is_feeling(token: Any, after_feel: bool) -> bool:
    word = token.lower_
    if word in FEELINGS:
        return True
    return after_feel and token.tag_ == "JJ" and word not in _NOT_FEELINGS and word.isalpha()


def _feeling_phrase(feeling: Any) -> str:
    """The feeling with the feelings said right after it, as said: "relieved and grateful", "excited and
    kinda nervous", "tired and stressed" (the parse may hang the last on the verb), never its intensifier."""
    doc = feeling.doc
    end, i = feeling.i, feeling.i + 1
    while i + 1 < len(doc) and doc[i].lower_ in ("and", ","):
        j = i + 1
        while j < len(doc) and doc[j].lower_ in _INTENSIFIERS and j - i <= 2:
            j += 1
        if j < len(doc) and (doc[j].lower_ in FEELINGS or (doc[j].tag_ == "JJ" and doc[j].head == feeling)) \
                and not any(c.dep_ in ("nsubj", "dobj", "prep") for c in doc[j].children):
            # ("tired and low on energy": "low" alone is not what was said)
            end, i = j, j + 1
        else:
            break
    words = list(doc[feeling.i : end + 1])
    if len(words) > 6:
        return feeling.text
    return "".join(w.text_with_ws for w in words).strip()


def _event(verb: Any, feeling: Any, addressee: str = "") -> str:
    """The event the feeling is about, as the question says it, or ""."""
    doc = verb.doc
    if addressee:
        said = _addressed_event(feeling, addressee)
        if said is not None:
            return said
    if any(c.dep_ in ("prep", "agent") and any(
            (g.lower_ in _POINTING or g.tag_ in ("PRP", "PRP$") or g.pos_ == "PROPN")
            and not (c.lower_ in _ABOUT_PREPS and g.lower_ in _OWN) for g in c.subtree) for c in feeling.children):
        # "proud of you for spreading awareness", "inspired by your drive to make a difference", "proud of
        # my son": the act is another's; "nervous about my exam" is the speaker's own
        return ""
    for c in feeling.children:
        if c.dep_ == "prep" and c.lower_ in _ABOUT_PREPS:
            obj = next((g for g in c.children if g.dep_ in ("pobj", "pcomp")), None)
            if obj is None:
                continue
            words = _owned(_span(obj.left_edge.i, obj.right_edge.i + 1, doc))
            if not _plain_words(words):
                return ""
            if obj.tag_ == "VBG" or _content(words) >= 2:
                return "about " + _text(words)
            return ""
        if c.dep_ == "xcomp" and c.tag_ == "VB":
            # "thrilled to open a dance studio" → "about opening a dance studio"
            rest = [_Word(gerund(w.lemma_.lower())) if w.dep_ == "conj" and w.head == c and w.tag_ == "VB" else w
                    for w in _owned(_span(c.i + 1, c.right_edge.i + 1, doc))]  # "to meet … and learn" → "and learning"
            if not _plain_words(rest) or _content([c, *rest]) < 2:
                return ""
            return "about " + " ".join(filter(None, [gerund(c.lemma_.lower()), _text(rest)]))
    for head in (verb, feeling):
        for c in head.children:
            if c.dep_ != "advcl":
                continue
            mark = next((g for g in c.children if g.dep_ in ("advmod", "mark") and g.lower_ in _WHEN_MARKS
                         and g.i < c.i), None)
            if mark is not None:
                words = _span(mark.i + 1, c.right_edge.i + 1, doc)
                words = _named(words)
                words = None if words is None else _owned(words)
                if words is None or not _plain_words(words) or _content(words) < 2:
                    return ""
                return f"{mark.lower_} {_text(words)}"
            if c.tag_ == "VBG" and c.i < verb.i and c.left_edge.i == c.i:
                # "Watching the meteor shower, I felt …"
                words = _owned(_span(c.i, c.right_edge.i + 1, doc))
                if _plain_words(words) and _content(words) >= 2:
                    return "while " + _text(words)
                return ""
    return ""


def _felt_about(feeling: Any) -> tuple[str, str] | None:
    """What the feeling is about, as said, for "what was Jo nervous about?" (("about", "the job interview
    at the bakery")) or "what was Jon thrilled to do?" (("to do", "open a dance studio")); None where the
    words lean on the chat ("about it", "for your help"; the speaker's own "my" is said as it was), name
    too little ("to help") or the feeling is another's due ("proud of you for …")."""
    doc = feeling.doc
    if any(c.dep_ == "prep" and any(g.dep_ == "pobj" and g.tag_ == "PRP" for g in c.children) for c in feeling.children):
        return None
    for c in feeling.children:
        if c.dep_ == "prep" and c.lower_ in _ABOUT_PREPS:
            obj = next((g for g in c.children if g.dep_ in ("pobj", "pcomp")), None)
            if obj is None:
                return None
            words = _span(obj.left_edge.i, obj.right_edge.i + 1, doc)
            if not words or _cut(obj.left_edge.i + len(words), doc) or (obj.tag_ != "VBG" and _content(words) < 2):
                return None
            if any(w.lower_ not in _OWN and (w.lower_ in _POINTING or w.tag_ in ("PRP", "PRP$")) for w in words):
                return None
            return c.lower_, "".join(w.text_with_ws for w in words).strip()
        if c.dep_ == "xcomp" and c.tag_ == "VB" and feeling.lower_ in _LOOKING_AHEAD:
            # an act not read is still a second answer of that chat ("" asks nothing, but witnesses)
            return "to do", "".join(w.text_with_ws for w in act_words(c)).strip()
    return None


def _addressed_event(feeling: Any, addressee: str) -> str | None:
    """The other speaker's act or thing the feeling is about, "you" said by their name (a two-person chat
    has one "you"): "proud of you for spreading awareness" → "about Caroline spreading awareness",
    "grateful for your help with the move" → "about Gina's help with the move"; "" where the act leans on
    the chat or is missing ("happy for you"), None where no "you" is the feeling's object."""
    doc = feeling.doc
    preps = [c for c in feeling.children if c.dep_ == "prep"]
    you = next((c for c in preps if c.lower_ in ("of", "for") and [g.lower_ for g in c.children] == ["you"]), None)
    if you is not None:
        act = next((c for c in preps if c is not you and c.lower_ == "for"), None)
        done = next((g for g in act.children if g.dep_ == "pcomp" and g.tag_ == "VBG"), None) if act else None
        if done is None:
            return ""  # "I'm so happy for you": about no act one could name
        words = _owned(_span(done.i, done.right_edge.i + 1, doc))
        if not _plain_words(words) or _content(words) < 2 or any(w.lower_ == "their" for w in words) \
                or _cut(done.i + len(words), doc):
            return ""  # "their" would be the asked person's or the other's: no guess
        return f"about {addressee} {_text(words)}"
    for c in preps:
        obj = next((g for g in c.children if g.dep_ == "pobj"), None) if c.lower_ in _ABOUT_PREPS else None
        if obj is None or not any(g.dep_ == "poss" and g.lower_ == "your" for g in obj.children):
            continue
        span = _span(obj.left_edge.i, obj.right_edge.i + 1, doc)
        words = [_Word(addressee + "'s", "NNP", "PROPN", w.text_with_ws[len(w.text):]) if w.lower_ == "your" and
                 w.head == obj else w for w in span]
        if not _plain_words(words) or _content(words) < 2 or any(w.lower_ in _OWN for w in span) \
                or _cut(obj.left_edge.i + len(span), doc):
            return ""
        return f"about {_text(words)}"
    return None


def _cut(end: int, doc: Any) -> bool:
    """Whether the phrase ending before `end` runs on in words the parse hung elsewhere ("your help with
    staying | motivated"): said cut, it would not be what was said."""
    return end < len(doc) and doc[end].is_alpha and doc[end].lower_ not in _CLAUSE_BREAKS


def _span(start: int, end: int, doc: Any) -> list[Any]:
    """The tokens from start to end, cut at the first comma, dash or stop ("…, even if just for a bit")."""
    words = []
    for t in doc[start:end]:
        if t.is_punct and t.text not in ("'", "’", "-") or t.lower_ in ("but", "because", "so", "though"):
            break
        words.append(t)
    return words if len(words) <= _MAX_EVENT_WORDS else []


def _named(words: list[Any]) -> list[Any] | None:
    """The clause said of the speaker as a gerund ("when I won the race" → "when winning the race");
    None where another "I" or a present verb would need the speaker's pronoun or agreement."""
    if not any(w.lower_ == "i" for w in words):
        return words
    if words[0].lower_ != "i" or len(words) < 2 or words[1].tag_ != "VBD" or any(w.lower_ == "i" for w in words[1:]):
        return None
    if words[1].lemma_.lower() == "be":
        return None  # "when I was a kid": no act to say as a gerund
    return [_Word(gerund(words[1].lemma_.lower())), *words[2:]]


class _Word:
    """A word the question says in place of the sentence's ("winning" for "I won", "their" for "my")."""

    is_punct = False
    dep_ = ""  # no parse of its own: never read as a conjunct ("to meet … and learn")
    head = None

    def __init__(self, text: str, tag: str = "VBG", pos: str = "VERB", ws: str = " ") -> None:
        self.text = text
        self.text_with_ws = text + ws
        self.lower_ = text.lower()
        self.tag_ = tag
        self.pos_ = pos


def _owned(words: list[Any]) -> list[Any]:
    """The speaker's "my"/"mine" said as the question's "their"/"theirs" ("when my son graduated" → "when
    their son graduated", "my own" → "their own"); every other pronoun is left for _plain_words to refuse."""
    return [_Word(_OWN[w.lower_], "PRP$", "PRON", w.text_with_ws[len(w.text):]) if w.lower_ in _OWN else w
            for w in words]


def _plain_words(words: list[Any]) -> bool:
    # (a word the question puts in, "their" for "my", points at the asked person)
    return bool(words) and not any(
        not isinstance(w, _Word) and (w.lower_ in _POINTING or w.tag_ in ("PRP", "PRP$")) for w in words)


def _content(words: list[Any]) -> int:
    return sum(1 for w in words if w.pos_ in _CONTENT)


def _text(words: list[Any]) -> str:
    """The words as the question says them: a sentence's capital dropped ("Surfing makes me…" → "while
    surfing"), a name's kept."""
    text = "".join(w.text_with_ws for w in words).strip()
    if words and words[0].pos_ != "PROPN" and text[:1].isupper() and text[1:2].islower():
        text = text[0].lower() + text[1:]
    return text


# what a feeling's "it" may stand for when it points back at the sentence said just before
_BACK = frozenset("it that this".split())
# words that say how an event went for the one who did it ("It was so fulfilling", "such a rewarding
# experience"): asked "How did Maria describe …?", not as a feeling of hers; "good", "nice" say too little
_FELT_LIKE = frozenset(
    "fun amazing awesome incredible wonderful fantastic special fulfilling rewarding gratifying relaxing "
    "refreshing inspiring exciting thrilling scary terrifying stressful exhausting tough challenging emotional "
    "empowering encouraging therapeutic liberating freeing peaceful calming humbling memorable unforgettable "
    "magical intense overwhelming satisfying informative interesting eye-opening nerve-wracking surreal great "
    "cool beautiful".split()
)
# nouns that say when or how often, not what was done
_WHEN_NOUNS = frozenset("time day week weekend month year night morning evening afternoon hour minute".split())
# praise that, said of what is so now ("It's so great to make a difference"), cheers more than it describes
_PRAISE = frozenset("great cool awesome amazing wonderful fantastic incredible beautiful".split())
# "such a rewarding experience": the noun says nothing, its adjective is how it went
_EXPERIENCE = frozenset("experience feeling time moment thing day".split())
# words a parse may read as nouns that name nothing ("Thanks, John!", "Congrats!")
_REACTIONS = frozenset("thanks thank thx congrats congratulations wow yeah yes aww omg haha lol hey hi".split())
# the clauses that make the previous sentence more than one act ("I ran and then swam", "… so I left")
_MORE_ACTS = frozenset("conj ccomp advcl parataxis".split())


def after_feeling_facts(
    doc: Any, before: Any, doc_id: str, chunk_id: str, text: str, speaker: str,
) -> list[Fact]:
    """A feeling said of "it", "that" or "this" right after the speaker told of their own act, the act
    read from the sentence before (`before`: the same speaker's previous sentence of the same turn, parsed;
    None when there is none):

    - "I finished my first marathon last week. It made me so proud!" → "How did Jon feel after finishing
      their first marathon?" → "proud" ("I'm so proud of it", "… of myself" alike)
    - "I gave a talk at the homeless shelter. It was really fulfilling." → "How did Maria describe giving a
      talk at the homeless shelter?" → "fulfilling"

    The act is the sentence's one act with "I" (or "we") its subject, past (the feeling said in the past) or present
    (said in the present), said as a gerund with "my" said "their" (datagen.chat_feelings) and its day
    left out ("last week", "on Saturday": the question names no day the chat would have to confirm). None
    where the sentence before is a question, tells two acts ("I ran and then swam"), no act of the
    speaker's ("The weather was great"), or one leaning on the chat ("I finally did it", "I met him").
    The relation is the one the event would have said in the feeling's own sentence ("feel:after
    finishing their first marathon"): the same event felt two ways gives two answers and no question."""
    if not speaker or text.rstrip().endswith("?"):
        return []
    found = _back_feeling(doc) if before is not None else None
    if found is not None:
        word, shape, past = found
        act = _told_act(before, past)
    else:
        # "It was so gratifying to talk to young people": the act said in the same sentence
        word, act, past = _forward_feeling(doc) or (None, "", False)
        shape = "describe"
    if not act:
        return []
    answer = _feeling_phrase(word)
    if shape == "feel":
        event = ("after " if past else "about ") + act
        ask, relation = f"How {'did' if past else 'does'} {{s}} feel {event}?", f"feel:{fold(event)}"
    else:
        ask, relation = f"How {'did' if past else 'does'} {{s}} describe {act}?", f"describe:{fold(act)}"
    return [Fact(
        doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
        relation=f"{relation}|{SHAPE}|{TruthType.OTHER.value}", answer=answer, kind=TruthType.OTHER.value,
        ask=ask,
    )]


def sentence_before(said: list[tuple[str, str, Any]], chunk_id: str, speaker: str) -> Any:
    """The parse of the speaker's sentence that their "it" may point back at, from the chat's sentences so
    far (chunk, speaker, parse), or None: their sentence just before in the same turn, or, past a bare
    "Thanks, John!", the last of their previous turn when the other speaker only reacted in between
    ("Wow, how did it go?"; "That's great news! Did you see the new museum?" names something else "it"
    may be). Only within one chunk, which then holds the act the question names."""
    others = False
    for chunk, who, doc in reversed(said[-8:]):
        if chunk != chunk_id or not who:
            return None
        words = _after_speaker(doc)
        nouns = any(t.pos_ == "NOUN" and t.lower_ not in _REACTIONS for t in words)
        if who != speaker:
            if nouns or any(t.dep_ in ("nsubj", "nsubjpass") and t.lower_ in ("i", "we") for t in words):
                return None  # the other speaker told of something of their own
            others = True
        elif nouns or any(t.dep_ in ("nsubj", "nsubjpass") for t in words):
            return doc
        elif others:
            return None  # ("Yeah!" ending the speaker's previous turn: nothing to point at)
    return None


def _after_speaker(doc: Any) -> Any:
    """The sentence's words after its "Maria:" speaker line opening, if any."""
    colon = next((t.i for t in doc[:4] if t.text == ":"), None)
    return doc[colon + 1:] if colon is not None and all(t.is_title for t in doc[:colon]) else doc[:]


def _back_feeling(doc: Any) -> tuple[Any, str, bool] | None:
    """(the feeling word, "feel" or "describe", past) of a sentence whose one clause says how "it" felt:
    "It made me so proud", "I'm so proud of it", "It was so relaxing", "It was such a rewarding
    experience"; None for any other sentence."""
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1 or not plain_clause(roots[0]):
        return None
    verb = roots[0]
    past = verb.tag_ == "VBD" or any(c.dep_ in ("aux", "auxpass") and c.tag_ == "VBD" for c in verb.children)
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subject is None or any(True for _ in subject.children):
        return None
    back = subject.lower_ in _BACK
    feeling = _made_me(verb) if back else None
    if feeling is not None:  # "It made me so proud", "It makes me feel so calm"
        clauses = [c for c in verb.children if c.dep_ in ("advcl", "ccomp", "xcomp", "mark", "conj")]
        return (feeling, "feel", past) if _bare(feeling) and clauses == [feeling.head if feeling.head != verb
                                                                          else feeling] else None
    if any(c.dep_ in ("advcl", "ccomp", "xcomp", "mark") for c in verb.children):
        return None  # "It made me realize …", "It was great when …": about more than the act before
    if back and verb.tag_ == "VBG" and verb.lower_ in _FELT_LIKE and any(
            c.dep_ == "aux" and c.lemma_.lower() == "be" for c in verb.children):
        return verb, "describe", past  # "It was really fulfilling" (read as a progressive)
    if subject.lower_ == "i" and verb.lemma_.lower() in ("be", "feel"):
        # "I'm so proud of it", "I felt so proud of myself"
        feeling = next((c for c in verb.children if c.dep_ == "acomp" and c.tag_ in ("JJ", "VBN")), None)
        if feeling is None or not _is_feeling(feeling, verb.lemma_.lower() == "feel"):
            return None
        preps = [c for c in feeling.children if c.dep_ == "prep"]
        if len(preps) != 1 or preps[0].lower_ not in ("of", "about", "with"):
            return None
        said = [g.lower_ for g in preps[0].children]
        if said == ["myself"] and feeling.lower_ == "proud" or said and said[0] in _BACK and len(said) == 1:
            return (feeling, "feel", past) if _bare(feeling, preps[0]) else None
        return None
    if not back or verb.lemma_.lower() not in ("be", "feel") or any(c.dep_ in ("prep", "dative", "agent")
                                                                   for c in verb.children):
        return None  # "It's great for family bonding": what it is good for, not how the act went
    for c in verb.children:
        if c.dep_ == "acomp" and c.lower_ in _FELT_LIKE:  # "It was so relaxing", "It felt amazing"
            return (c, "describe", past) if _bare(c) else None
        if c.dep_ == "attr" and c.lemma_.lower() in _EXPERIENCE and _bare(c, *(g for g in c.children if g.dep_ == "amod")):
            # "It was such a rewarding experience"
            said = [g for g in c.children if g.dep_ == "amod" and g.lower_ in _FELT_LIKE]
            return (said[0], "describe", past) if len(said) == 1 else None
    return None


def _forward_feeling(doc: Any) -> tuple[Any, str, bool] | None:
    """ "It was so gratifying to talk to similar young people", "It's so rewarding to volunteer at the
    shelter": (how it went, the act as a gerund phrase, past), where "it" stands for the act said after it
    ("talking to similar young people"); None for any other sentence."""
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1 or roots[0].lemma_.lower() != "be" or not plain_clause(roots[0]):
        return None
    verb = roots[0]
    subject = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    said = next((c for c in verb.children if c.dep_ == "acomp" and c.lower_ in _FELT_LIKE), None)
    if subject is None or subject.lower_ != "it" or any(True for _ in subject.children) or said is None:
        return None
    acts = [c for c in (*verb.children, *said.children) if c.dep_ in ("xcomp", "ccomp", "advcl", "prep", "relcl")]
    if len(acts) != 1 or acts[0].dep_ != "xcomp" or any(c.dep_ == "auxpass" for c in acts[0].children):
        return None  # "It was so encouraging to be surrounded by …": no act of the speaker's
    act = acts[0]
    if act.lemma_.lower() == "have" or any(c.dep_ in _MORE_ACTS and c.pos_ in ("VERB", "AUX") for c in act.children):
        return None  # "great to have a supporter": no act; "… to unplug and hang with the kids": two
    if any(c.dep_ == "aux" and c.lower_ in ("can", "will", "'ll", "’ll") for c in verb.children):
        return None  # "It can be rewarding to try new things": what may be, not what was
    if not (act.tag_ == "VBG" or act.tag_ == "VB" and any(c.dep_ == "aux" and c.lower_ == "to" for c in act.children)):
        return None
    words = act_words(act)
    if len(words) < 2 or any(not (t.is_punct or t.lower_ in _TRAILING) for t in doc[words[-1].i + 1:]) \
            or any(w.ent_type_ in ("DATE", "TIME") for w in words) or not _bare(said, act):
        return None
    past = verb.tag_ == "VBD"
    if not past and (said.lower_ in _PRAISE or act.lemma_.lower() in ("see", "hear")):
        return None  # "It's great to see community power in action": a cheer, not how an act went
    return said, _text([_Word(gerund(act.lemma_.lower())), *_owned(words[1:])]), past


def _bare(word: Any, *allowed: Any) -> bool:
    """Whether nothing hangs on the feeling but its intensifier and what is said with it ("so proud",
    "relieved and grateful"): "proud to be here", "relaxing after a long week" say more than the act."""
    return not any(c.dep_ in ("prep", "xcomp", "ccomp", "advcl", "relcl", "acl") and c not in allowed
                   for c in word.children)


def _told_act(before: Any, past: bool) -> str:
    """The one act the speaker tells in the sentence before, as a gerund phrase ("finishing their first
    marathon"), or "" (see after_feeling_facts). past: whether the feeling was said in the past, which the
    act's tense must match ("I run every week. It makes me happy" is about running; "I adopted a dog. It
    makes me happy" may be about the dog)."""
    if before.text.rstrip().endswith("?"):
        return ""
    roots = [t for t in before if t.dep_ == "ROOT"]
    if len(roots) != 1:
        return ""
    act = roots[0]
    subjects = [c for c in act.children if c.dep_ in ("nsubj", "nsubjpass")]
    if len(subjects) != 1 or subjects[0].lower_ not in ("i", "we") or not plain_clause(act):
        # ("we went to the beach": the speaker among them, as datagen.chat_named reads "we saw")
        return ""
    if any(c.dep_ in _MORE_ACTS and c.pos_ in ("VERB", "AUX") for c in act.children):
        return ""  # "I ran and then swam", "I went biking - we saw a lot": which one felt so?
    perfect = act.tag_ == "VBN" and any(c.dep_ == "aux" and c.lemma_.lower() == "have" for c in act.children)
    if not perfect and (act.tag_ == "VBD") != past or (not past and act.tag_ not in ("VBP", "VBZ", "VBN")):
        return ""  # ("I've just finished my painting. I'm so proud of it": done, felt now)
    if act.tag_ == "VBN" and not perfect or any(c.dep_ == "auxpass" for c in act.children):
        return ""
    # the act's day is left out: "finished my first marathon last week" → "finishing their first marathon"
    dated = set()
    for c in act.children:
        if c.dep_ in ("npadvmod", "advmod", "prep") and any(t.ent_type_ in ("DATE", "TIME") for t in c.subtree):
            dated.update(t.i for t in c.subtree)
    done = _done(act)
    if done is None:
        return ""
    said = act_words(done)
    words = [w for w in said if w.i not in dated]
    if len(words) < 2 or any(w.ent_type_ in ("DATE", "TIME") for w in words):
        return ""
    if not any(w.pos_ in ("NOUN", "PROPN", "VERB") and w.lemma_.lower() not in _WHEN_NOUNS for w in words[1:]):
        return ""  # "we go a few times a week": go where?
    if any(not (t.is_punct or t.i in dated or t.lower_ in _TRAILING) for t in before[said[-1].i + 1:]):
        # "I've found my real muses: painting and pottery. It's so calming": "it" may be what follows
        return ""
    return _text([_Word(gerund(done.lemma_.lower())), *_owned(words[1:])])


def _done(act: Any) -> Any:
    """The verb that says what was done: the act itself, or the one after "had to" ("I had to shut down my
    bank account") or after a liking ("I love to paint" → painting); None where that act has a second
    ("I like to listen to music or go for a run")."""
    lemma = act.lemma_.lower()
    if lemma in _LIKES or (lemma == "have" and not any(c.dep_ == "dobj" for c in act.children)):
        act = next((c for c in act.children if c.dep_ == "xcomp" and c.tag_ in ("VB", "VBG")), None)
        if act is None or act.tag_ == "VB" and not any(c.dep_ == "aux" and c.lower_ == "to" for c in act.children):
            return None
        if any(c.dep_ in _MORE_ACTS and c.pos_ in ("VERB", "AUX") for c in act.children):
            return None
    return act
