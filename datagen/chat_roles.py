"""What a chat's speaker says they and their relatives do for a living, the field they work in and where
they live: the facts people tell each other when they first meet, and that conversation benchmarks ask
("What does Melanie's husband do for a living?", "Where does Jon live?").

Read from the parse of the speaker's plain statements:

- an occupation: "I'm a tax accountant", "I am a chef and …", "Im a middle school teacher" → "What does
  Dana do for a living?" → "tax accountant"; a relative's: "My mother is a nurse", "My mom, she is a
  nurse", "My dad, a farmer", "my dad was a farmer" → "What did Kim's dad do for a living?" → "farmer";
- a field:      "I work in marketing" → "What field does Alex work in?" → "marketing" (a bare noun,
  never "an office", "town");
- a workplace:  "my job at the mall", "I have a job at a skunk farm" → "Where does Terry work?";
- a relative's studies: "My daughter is studying french" → "What is Lee's daughter studying?";
- a relative's past act, where: "My dad served in the army" → "Where did Quinn's dad serve?" → "the
  army" (an institution or place "in"/"at", never a time); what one applied to be ("I applied to be a
  scuba diving instructor"); a job held before ("I used to work as a veterinarian" → "What did Dana use to
  do for a living?"); age ("I am 42 years old", "I just turned 30"); diet ("I am vegan");
- a home:       "I live in california", "We live in Ohio" → "Where does Robin live?" → "California"; a
  kind of place when no name is said ("I live in a condo" → "a condo", "I grew up in the country");
  "I moved to Denver" → "Where did Robin move to?" (and another answer to where they live).

An occupation is a noun of `OCCUPATIONS` (what one is paid to be; "reader", "fan", "mom" are no job),
with the nouns and adjectives that make it one ("middle school teacher", "car salesman"), never a
praising one ("a great nurse" → "nurse"); "retired", "former", "aspiring", "future" name no present job,
and nothing is read from a question, a negation, a modal, a wish ("I want to be a nurse") or a
condition. Places are the parse's GPE/LOC entities, which it finds in lowercase chat too ("california",
"the uk"); they are printed capitalised ("California", "the UK").

Facts carry the chat facts' shape (datagen.chat_facts.SHAPE): `unique_chat_facts` keeps one only when
the whole corpus gives that person and relation one answer ("my sisters" anywhere tells that "What does
Kim's sister do?" has more than one), and every turn that states it is a positive of its task.
"""

from __future__ import annotations

import re
from typing import Any

from datagen.chat_facts import _SEVERAL, KIN, SHAPE, _kind_of, _singular, display_place
from datagen.chat_plans import plain_clause, speaker_subject
from datagen.factbase import Fact
from datagen.types import TruthType

# What one is paid to be. Kinship ("mom"), roles ("fan", "reader", "member") and student are no job.
OCCUPATIONS = frozenset("""
    accountant actor actress administrator agent analyst animator architect artist assistant astronaut athlete
    attorney auditor author baker banker barber barista bartender biologist blogger bookkeeper broker builder
    butcher buyer carpenter caregiver cashier caterer ceo chef chemist clerk coach comedian composer consultant
    contractor cook cop counselor counsellor courier dancer dentist designer detective developer dietitian
    director dispatcher doctor driver economist editor electrician engineer entrepreneur farmer filmmaker
    firefighter fireman fisherman florist gardener geologist guard hairdresser hairstylist homemaker
    housekeeper housewife illustrator instructor interpreter janitor jeweler journalist judge landscaper lawyer
    lecturer librarian lifeguard machinist mailman manager marine mathematician mechanic midwife miner minister
    model musician nanny novelist nurse nutritionist officer optometrist painter paralegal paramedic pastor
    pharmacist photographer physician physicist pilot plumber poet policeman politician postman preacher
    priest producer professor programmer psychiatrist psychologist rancher realtor receptionist reporter
    researcher sailor salesman saleswoman salesperson scientist screenwriter sculptor secretary senator server
    sheriff singer soldier surgeon surveyor tailor teacher technician teller therapist trainer translator
    trucker tutor underwriter veterinarian vet waiter waitress welder writer youtuber zookeeper
""".split())
# "a stay at home mom": a job said in words the parse splits
_HOME_PARENT = re.compile(r"\bstay[- ]at[- ]home (?:mom|mum|dad|mother|father|parent)\b", re.IGNORECASE)
# words that praise or size the job, not name it ("a great nurse", "a full-time chef")
_NOT_PART = frozenset(
    "good great bad terrible awesome amazing proud big huge little small real true professional full-time "
    "part-time busy happy hard-working hardworking new young old successful famous local lucky".split()
)
# words that say the job is not held now
_NOT_NOW = frozenset("retired former ex ex- aspiring future wannabe would-be student trainee".split())
# a head above the job that makes it a wish or a plan: "I want to be a nurse", "I'd love to become a chef"
_WISH = frozenset("want wanna hope plan wish like love dream try need aim intend consider think".split())
# a field that is a place or a building: "I work in town", "I work in an office"
_NOT_FIELD = frozenset(
    "town city downtown home house office building school hospital store shop place area field industry job "
    "person front back morning evening afternoon night day week shifts shift".split()
)
_MAX_WORDS = 4


def occupation_facts(doc: Any, doc_id: str, chunk_id: str, text: str, speaker: str) -> list[Fact]:
    """The occupations, fields and homes one parsed sentence states (see the module docstring)."""
    if not speaker or text.rstrip().endswith("?"):
        return []
    out: list[Fact] = []

    def add(relation: str, answer: str, ask: str, kind: str) -> None:
        out.append(Fact(doc_id=doc_id, chunk_id=chunk_id, sentence=text, subject=speaker, about_doc=False,
                        relation=f"{relation}|{SHAPE}|{kind}", answer=answer, kind=kind, ask=ask))

    body = re.sub(r"^\s*[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}:\s+", "", text)
    for m in _SEVERAL.finditer(body):  # "my sisters", "my older sister": which sister's job?
        kin = KIN.get(_singular((m.group(1) or m.group(2) or "").lower()), "")
        if kin and not re.match(r"(?i)your\b", m.group(0)):
            add(f"job:{kin}", "\x00several", "", TruthType.OTHER.value)
    for m in _HOME_PARENT.finditer(body):
        if re.search(r"\bI(?:'m| am|m)\s+(?:a|an)\s+$", body[: m.start()]):
            add("work as", m.group(0).lower(), "What does {s} do for a living?", TruthType.OTHER.value)
    for tok in doc:
        if tok.lower_ in OCCUPATIONS and tok.pos_ in ("NOUN", "PROPN") and tok.tag_ != "NNS":
            holder, past = _holder(tok)
            if holder is None and tok.dep_ == "attr" and tok.head.lemma_ == "be" and _used_to(tok.head):
                holder, past = "", True  # "I used to be a nurse": "I" hangs on "used", not on "be"
            if holder is None or not plain_clause(tok) or _wished(tok):
                continue
            job = _job_phrase(tok)
            if not job:
                continue
            if holder == "":
                if not past:
                    add("work as", job, "What does {s} do for a living?", TruthType.OTHER.value)
                elif _used_to(tok.head):  # "I used to be a nurse": a job held before, not now
                    add("former job", job, "What did {s} use to do for a living?", TruthType.OTHER.value)
            else:
                verb = "did" if past else "does"
                add(f"job:{holder}", job, f"What {verb} {{s}}'s {holder} do for a living?", TruthType.OTHER.value)
        elif tok.lemma_ == "work" and (job := _worked_as(tok)) and not _wished(tok) and plain_clause(tok):
            # "I work as a nurse"; "(I) used to work as a veterinarian": a job held before
            if _used_to(tok):
                add("former job", job, "What did {s} use to do for a living?", TruthType.OTHER.value)
            elif tok.tag_ in ("VBP", "VBG") and speaker_subject(tok):
                add("work as", job, "What does {s} do for a living?", TruthType.OTHER.value)
        elif tok.lemma_ == "work" and tok.pos_ == "VERB" and plain_clause(tok) and tok.tag_ != "VBD":
            field = _field(tok)
            kin = next((_my_kin(c) for c in tok.children if c.dep_ == "nsubj" and _my_kin(c)), "")
            if field and speaker_subject(tok):
                add("work in", field, "What field does {s} work in?", TruthType.OTHER.value)
            workplace = _workplace(tok) if speaker_subject(tok) and tok.tag_ in ("VBP", "VBG") else ""
            if workplace:  # "I work at a bakery" (a named one is chat_facts' "I work at Acme")
                add("work at", workplace, "Where does {s} work?", TruthType.ORGANIZATION.value)
            elif field and kin:  # "my dad works in computers"
                add(f"work in:{kin}", field, f"What field does {{s}}'s {kin} work in?", TruthType.OTHER.value)
        elif tok.lower_ == "job" and tok.pos_ == "NOUN" and plain_clause(tok):
            kind = _job_kind(tok)
            if kind:
                add("job kind", kind, "What kind of job does {s} have?", TruthType.OTHER.value)
            # "I have a job at X": the parse may hang "at X" on "have"
            workplace = (_workplace(tok) or (_workplace(tok.head) if tok.dep_ == "dobj" else "")) if _own_job(tok) else ""
            if workplace:  # "my job at the mall", "I have a job at a skunk farm"
                add("work at", workplace, "Where does {s} work?", TruthType.ORGANIZATION.value)
        elif tok.lemma_ in ("study", "learn", "major") and tok.tag_ == "VBG" and plain_clause(tok) and not _wished(tok):
            kin = next((_my_kin(c) for c in tok.children if c.dep_ == "nsubj" and _my_kin(c)), "")
            subject = _studied(tok)
            if kin and subject:  # "My daughter is studying french"
                add(f"study:{kin}", subject, f"What is {{s}}'s {kin} studying?", TruthType.OTHER.value)
        elif tok.lemma_ in ("live", "move", "grow") and tok.pos_ == "VERB" and speaker_subject(tok) and plain_clause(tok):
            grew = tok.lemma_ == "grow" and tok.tag_ == "VBD" and any(c.dep_ == "prt" and c.lower_ == "up" for c in tok.children)
            if (tok.lemma_ == "grow" and not grew) or (tok.tag_ == "VBG" and not any(c.dep_ == "aux" for c in tok.children)):
                continue  # "I miss living in a smaller town": a living under another verb is no home
            place = _place_after(tok, "to" if tok.lemma_ == "move" else "in")
            if not place and tok.lemma_ != "move":  # "I live in a condo", "I grew up in the country"
                place = _kind_of_place(tok)
            if not place or _wished(tok):
                continue
            if grew:  # one answer with chat_facts' "I grew up in Ohio"
                add("grow up", place, "Where did {s} grow up?", TruthType.PLACE.value)
            elif tok.lemma_ == "live" and tok.tag_ in ("VBP", "VBG", "VBZ"):
                add("live", place, "Where does {s} live?", TruthType.PLACE.value)
            elif tok.lemma_ == "move" and tok.tag_ in ("VBD", "VBN"):
                add("move", place, "Where did {s} move to?", TruthType.PLACE.value)
                add("live", place, "", TruthType.PLACE.value)  # another answer to where they live
    for m in _MOVED_FROM.finditer(body):  # "she moved here from canada", "I came here from India"
        shift = doc.text.find(body) if doc.text.find(body) >= 0 else 0  # the parse holds "Name: " before the body
        place = _place_in(doc, m.start(4) + shift, m.end(4) + shift)
        if not place or _HEDGED.search(body[max(0, m.start() - 30) : m.start(4)]):
            continue
        kin = KIN.get((m.group(1) or "").lower(), "")
        if kin:  # "my mom moved from …", "my mom … she moved here from …"
            add(f"move from:{kin}", place, f"Where did {{s}}'s {kin} move from?", TruthType.PLACE.value)
        elif not m.group(1) and m.group(3) == "I":
            add("move from", place, "Where did {s} move from?", TruthType.PLACE.value)
    for tok in doc:
        if tok.tag_ != "VBD" or tok.pos_ != "VERB" or not plain_clause(tok) or _wished(tok):
            continue
        kin = next((_my_kin(c) for c in tok.children if c.dep_ == "nsubj" and _my_kin(c)), "")
        if kin:  # "My dad served in the army" → "Where did Quinn's dad serve?" → "the army"
            act = " ".join([tok.lemma_, *(c.lower_ for c in tok.children if c.dep_ == "prt")])  # "grow up"
            for where in _kin_places(tok):
                add(f"kin act:{kin}:{act}:in", where, f"Where did {{s}}'s {kin} {act}?", TruthType.PLACE.value)
        elif tok.lemma_ == "apply" and speaker_subject(tok) and (role := _applied_to_be(tok)):
            # "I applied to be a scuba diving instructor" → "What did Avery apply to be?"
            add("apply to be", role, "What did {s} apply to be?", TruthType.OTHER.value)
    for m in _AGE.finditer(body):  # "I am 30 years old", "I just turned 40": how old the speaker is
        if not _HEDGED.search(body[max(0, m.start() - 25) : m.start()]):
            add("age", m.group("age") or m.group("age2"), "How old is {s}?", TruthType.NUMBER.value)
    for m in _DIET.finditer(body):  # "I am vegan", "I'm a vegetarian": what the speaker eats
        if not _HEDGED.search(body[max(0, m.start() - 25) : m.start()]):
            add("diet", m.group("diet").lower(), "What diet does {s} follow?", TruthType.OTHER.value)
    for m in _PETS_COUNT.finditer(body):  # "I have two cats", "my two sweet pet snakes", "We have about 12 horses"
        if _HEDGED.search(body[max(0, m.start() - 25) : m.start()]) or m.group("about"):
            continue
        count, pet = m.group("count").lower(), m.group("pet").lower()
        kind = _kind_of(_singular(pet))
        if kind and count in _COUNTS:
            plural = pet if pet.endswith("s") else pet + "s"
            add(f"count:{kind}", _COUNTS[count], f"How many {plural} does {{s}} have?", TruthType.NUMBER.value)
    return out


_COUNTS = {w: w for w in "two three four five six seven eight nine ten".split()} | {
    str(n): str(n) for n in range(2, 21)
}
# "I have two cats", "my two sweet pet snakes", "we have 3 dogs" (never "about 12": no count to ask)
_PETS_COUNT = re.compile(
    r"\b(?:I have|I've got|I own|we have|we've got|[Mm]y)\s+(?P<about>about |around |like |over |almost )?"
    r"(?P<count>\w+)\s+(?:(?:[a-z]+|pet)\s+){0,2}?(?P<pet>dogs|cats|puppies|kittens|rabbits|hamsters|snakes|birds|"
    r"fish|horses|turtles|lizards|guinea pigs|parrots|chickens|goats|ferrets)\b",
    re.IGNORECASE,
)
_HEDGED = re.compile(r"\b(?:if|wish|would|want|not|never|n't|used to)\b", re.IGNORECASE)
# "my mom … moved here from canada", "I came here from India", "she moved from Texas"
_MOVED_FROM = re.compile(
    r"\b(?:[Mm]y (\w+)(?:[^.!?]{0,40}?\b(she|he)\b)?|\b(I|she|he))\s+(?:moved|came|immigrated|emigrated)\s+"
    r"(?:here |over |to the us |to america )?from\s+((?:the )?[A-Za-z][\w .'’-]+)"
)


def _place_in(doc: Any, start: int, end: int) -> str:
    """The place entity (GPE/LOC) that opens the text between two character offsets, printed capitalised."""
    for ent in doc.ents:
        if ent.label_ in ("GPE", "LOC") and start <= ent.start_char < end and not doc.text[start : ent.start_char].strip(" the"):
            return display_place(ent.text, the=doc.text[start : ent.start_char].strip() == "the")
    return ""


# "I am 30 years old", "I'm 25 yrs old", "I just turned 40" (the speaker's "I" only; never "my son is 5")
_AGE = re.compile(
    r"(?:^|[.!?,]\s+|\band\s+)I(?:'m|’m| am|m)\s+(?:now\s+|only\s+|just\s+)?(?P<age>[1-9]\d)\s*(?:years?|yrs?)[ -]old\b"
    r"|(?:^|[.!?,]\s+|\band\s+)I\s+(?:just\s+|recently\s+)?turned\s+(?P<age2>[1-9]\d)\b",
    re.IGNORECASE,
)
_DIET = re.compile(
    r"(?:^|[.!?,]\s+|\bbut\s+|\band\s+)I(?:'m|’m| am|m)\s+(?:also\s+|now\s+|a\s+|an\s+|strictly\s+)*"
    r"(?P<diet>vegan|vegetarian|pescatarian|pescetarian)\b(?!\s+(?:food|recipes?|restaurant|blog|cook|chef))",
    re.IGNORECASE,
)


# what "in" names that is no place: a time ("in 2010", "in the morning"), a state ("in love"), a manner
_NOT_PLACES = frozenset(
    "morning afternoon evening night day week month year years summer winter spring fall autumn time past end "
    "beginning love trouble pain fact way general particular person advance total order case hospital".split()
)


def _kin_places(verb: Any) -> list[str]:
    """What a relative's past act was "in" or "at" when it names an institution or a place: "served in
    the army" → "the army", "worked at a bank" → "a bank"; never a time, a pronoun or a list."""
    out = []
    for prep in (c for c in verb.children if c.dep_ == "prep" and c.lower_ in ("in", "at")):
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if obj is None or obj.pos_ not in ("NOUN", "PROPN") or obj.lower_ in _NOT_PLACES:
            continue
        if obj.ent_type_ in ("DATE", "TIME", "CARDINAL", "PERSON") or any(c.dep_ == "conj" for c in obj.children):
            continue
        words = list(verb.doc[obj.left_edge.i : obj.i + 1])
        if len(words) > 4 or any(t.tag_ in ("PRP$", "PRP", "CD") for t in words):
            continue
        if obj.pos_ == "NOUN" and words[0].lower_ not in ("a", "an", "the"):
            continue  # "in school", "at home": a state, not a place to name
        out.append(" ".join(t.text for t in words))
    return out


def _applied_to_be(verb: Any) -> str:
    """The role of "applied to be a scuba diving instructor" ("a scuba diving instructor"), else ""."""
    be = next((c for c in verb.children if c.dep_ == "xcomp" and c.lemma_ == "be"), None)
    attr = next((c for c in be.children if c.dep_ == "attr" and c.pos_ == "NOUN"), None) if be is not None else None
    if attr is None or attr.tag_ == "NNS":
        return ""
    words = list(verb.doc[attr.left_edge.i : attr.i + 1])
    if len(words) > 5 or words[0].lower_ not in ("a", "an") or any(t.tag_ in ("PRP$", "PRP") for t in words):
        return ""
    return " ".join(t.text for t in words)


def _used_to(verb: Any) -> bool:
    """"I used to work as …" / "Used to work as …": the verb hangs under "used to" (the parse makes
    "used" its head, or an aux "used" before it)."""
    head = verb.head if verb.dep_ == "xcomp" else None
    if head is not None and head.lower_ == "used" and not any(c.dep_ == "neg" for c in head.children):
        subject = next((c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        return subject is None or subject.lower_ == "i"
    return False


def _worked_as(work: Any) -> str:
    """The job of "work as a veterinarian" ("veterinarian"), when it is one of `OCCUPATIONS`; else ""."""
    prep = next((c for c in work.children if c.dep_ == "prep" and c.lower_ == "as"), None)
    obj = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep is not None else None
    if obj is None or obj.lower_ not in OCCUPATIONS or obj.tag_ == "NNS":
        return ""
    return _job_phrase(obj)


def _own_job(job: Any) -> bool:
    """"my job …" (the clause's subject) or "I have a job": the speaker's present job."""
    if any(c.dep_ == "poss" and c.lower_ == "my" for c in job.lefts):
        return job.dep_ in ("nsubj", "nsubjpass", "attr")  # "my job at X is …"; never "I lost my job at X"
    head = job.head
    return job.dep_ == "dobj" and head.lemma_ == "have" and head.tag_ in ("VBP", "VBZ") and speaker_subject(head)


def _workplace(word: Any) -> str:
    """The common noun a job or "work" is at: "at the mall" → "the mall", "at a skunk farm" → "a skunk
    farm"; "" for a name (chat_facts reads those), a pronoun, "home" or "work"."""
    for prep in (c for c in word.children if c.dep_ == "prep" and c.lower_ == "at"):
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if obj is None or obj.pos_ != "NOUN" or obj.lower_ in ("home", "work", "night", "times", "moment", "least"):
            continue
        words = list(word.doc[obj.left_edge.i : obj.i + 1])
        if any(t.tag_ in ("PRP$", "PRP", "CD") or t.pos_ == "PROPN" for t in words) or len(words) > 4:
            continue
        if words[0].lower_ not in ("a", "an", "the"):
            continue
        return " ".join(t.text for t in words)
    return ""


def _studied(verb: Any) -> str:
    """What a relative studies: the direct object ("studying french") or "majoring in biology"; one or two
    words, no pronoun or list."""
    obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
    if obj is None:
        prep = next((c for c in verb.children if c.dep_ == "prep" and c.lower_ == "in"), None)
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None) if prep is not None else None
    if obj is None or obj.pos_ not in ("NOUN", "PROPN", "ADJ") or any(c.dep_ == "conj" for c in obj.children):
        return ""
    words = [t for t in obj.doc[obj.left_edge.i : obj.i + 1] if t.dep_ != "det"]
    if not words or len(words) > 2 or any(t.tag_ in ("PRP$", "PRP") for t in words):
        return ""
    text = " ".join(t.text for t in words)
    return text.capitalize() if obj.ent_type_ in ("NORP", "LANGUAGE") and text.islower() else text


_WHEN_JOBS = frozenset("day night side summer weekend dream time part full evening morning holiday".split())


def _job_kind(job: Any) -> str:
    """"I have a cushy government job" → "government job": the nouns that say which job, when the speaker
    has it ("I have a … job", "my … job"); "" for a bare "job" or a praised one ("a great job")."""
    compounds = [c for c in job.lefts if c.dep_ == "compound" and c.pos_ == "NOUN"]
    if any(c.lower_ in _WHEN_JOBS for c in compounds):
        return ""  # "my day job", "a summer job": when one works, not which job
    if not compounds or any(c.i != job.i - len(compounds) + k for k, c in enumerate(compounds)):
        return ""
    owner = next((c for c in job.lefts if c.dep_ == "poss"), None)
    head = job.head
    had = job.dep_ == "dobj" and head.lemma_ == "have" and speaker_subject(head) and head.tag_ in ("VBP", "VBZ")
    mine = owner is not None and owner.lower_ == "my" and job.dep_ in ("nsubj", "attr")
    if not (had or mine):
        return ""
    return " ".join(t.lower_ for t in compounds) + " job"


def _holder(job: Any) -> tuple[str | None, bool]:
    """Whose job the noun is: "" the speaker, a kin word ("mom") theirs, None no one's; and whether it
    is said in the past ("my dad was a farmer")."""
    head = job.head
    if job.dep_ == "appos" and _my_kin(head):  # "My dad, a farmer."
        return _my_kin(head), False
    if job.dep_ == "attr" and head.lemma_ in ("be", "become"):
        subject = next((c for c in head.children if c.dep_ == "nsubj"), None)
        if subject is None:
            return None, False
        past = head.tag_ == "VBD"
        if subject.lower_ == "i":
            return "", past
        if _my_kin(subject):
            return _my_kin(subject), past
        if subject.lower_ in ("she", "he"):  # "My mom, she is a nurse": the kin just before the pronoun
            before = job.doc[max(0, subject.i - 4) : subject.i]
            kin = next((_my_kin(t) for t in before if _my_kin(t)), "")
            if kin and any(t.text == "," for t in before):
                return kin, past
    return None, False


def _my_kin(token: Any) -> str:
    """The kin word of "my mom" / "my mother" ("mom"), or ""."""
    kin = KIN.get(token.lower_, "")
    if kin and _kind_of(token.lower_) and any(c.dep_ == "poss" and c.lower_ == "my" for c in token.children):
        return kin
    return ""


def _wished(token: Any) -> bool:
    """Whether a verb above the token makes it a wish or plan ("I want to be a nurse")."""
    return any(a.lemma_ in _WISH and a.pos_ in ("VERB", "AUX") for a in token.ancestors)


def _job_phrase(job: Any) -> str:
    """The job with the words that make it one: "tax accountant", "middle school teacher"; "" for a job
    not held now ("retired nurse") or a phrase that leans on someone ("my dad's assistant")."""
    if any(t.dep_ == "det" and t.lower_ == "no" for t in job.doc[job.left_edge.i : job.i]):
        return ""  # "I'm no writer like you": a denial, no job (found on the reporting read, session 33)
    words = [t for t in job.doc[job.left_edge.i : job.i + 1] if t.dep_ not in ("det", "punct")]
    if any(t.lower_ in _NOT_NOW for t in words) or any(t.dep_ == "poss" or t.tag_ in ("PRP$", "POS") for t in words):
        return ""
    while words and (words[0].lower_ in _NOT_PART or words[0].pos_ not in ("NOUN", "PROPN", "ADJ")):
        words = words[1:]
    if not words or len(words) > _MAX_WORDS:
        return ""
    return " ".join(t.text.lower() if t.pos_ != "PROPN" else t.text for t in words)


def _field(work: Any) -> str:
    """"I work in marketing" → "marketing": a bare noun (no article or possessive) that is no place."""
    for prep in (c for c in work.children if c.dep_ == "prep" and c.lower_ == "in"):
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if obj is None or obj.pos_ != "NOUN" or obj.lower_ in _NOT_FIELD or obj.ent_type_:
            continue
        words = list(obj.doc[obj.left_edge.i : obj.i + 1])
        if any(t.dep_ in ("det", "poss", "nummod") or t.tag_ in ("PRP$", "CD") for t in words) or len(words) > 3:
            continue
        return " ".join(t.lower_ for t in words)
    return ""


# the kinds of place one lives in, named by no name: "a condo", "a small mountain town", "the country"
_DWELLINGS = frozenset(
    "apartment condo flat house home townhouse trailer cabin farm ranch dorm houseboat bungalow cottage "
    "town city village suburb suburbs country countryside neighborhood neighbourhood island".split()
)


def _kind_of_place(verb: Any) -> str:
    """"I live in a condo" → "a condo", "I grew up in the country" → "the country": a dwelling or a kind
    of place (`_DWELLINGS`) with its article, at most four words, leaning on no one ("my parents' house")."""
    for prep in (c for c in verb.children if c.dep_ == "prep" and c.lower_ == "in"):
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if obj is None or obj.lower_ not in _DWELLINGS or any(c.dep_ in ("prep", "relcl", "acl") for c in obj.rights):
            continue
        words = list(verb.doc[obj.left_edge.i : obj.i + 1])
        if words[0].lower_ not in ("a", "an", "the") or len(words) > 4 or any(
            t.tag_ in ("PRP$", "PRP", "POS") or t.lower_ in ("same", "other", "this", "that") for t in words
        ):
            continue
        return " ".join(t.text for t in words)
    return ""


def _place_after(verb: Any, preposition: str) -> str:
    """The place (a GPE or LOC entity) the verb's preposition governs, printed capitalised."""
    for prep in (c for c in verb.children if c.dep_ == "prep" and c.lower_ == preposition):
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if obj is None:
            continue
        for ent in verb.doc.ents:
            if ent.label_ in ("GPE", "LOC") and ent.start <= obj.i < ent.end and ent.start == obj.left_edge.i + (
                1 if obj.doc[obj.left_edge.i].lower_ == "the" else 0
            ):
                return display_place(ent.text, the=obj.doc[obj.left_edge.i].lower_ == "the")
    return ""
