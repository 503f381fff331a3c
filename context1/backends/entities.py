"""Text helpers of the LLM-free policy: names in any script, keywords, link names.

Entities are capitalised spans by Unicode case (`str.isupper`, not ASCII `[A-Z]`), with a few
lower-case connectors allowed inside ("Bank of America"), and words of scripts without letter
case (CJK, Arabic, Hebrew, Thai, ...). Pure functions of their text; no corpus, no model.
"""

from __future__ import annotations

import functools
import re

# Words in any script (letters or digits first), and the lower-case connectors allowed inside a
# name ("Bank of America", "Ludwig van Beethoven").
_WORD_RE = re.compile(r"[^\W_][\w'’\-]*")
# Not "in"/"on": they glue a name to a place ("Hartmann in Dortmund") far more often than they sit
# inside one.
_CONNECTORS = frozenset("of the de del da von van der la le du and for y e di das dos".split())
_SENTENCE_END = re.compile(r"[.!?。！？؟\n]")
_QUOTED_RE = re.compile(r'"([^"]{3,80})"|“([^”]{3,80})”')
STOP_WORDS = frozenset(
    "a an the of in on at to for from by with and or but is are was were be been being what which who whom whose "
    "when where why how that this these those it its as into than then there their they he she his her him do does "
    "did has have had not no yes also both either neither same other one two first second many much more most".split()
)
# Spoken text (a meeting transcript, a chat export: three turns or more, `_TURN`) is read with three more rules, so
# that "Marketing: Probably when he …" or "um That's just …" give no name: the agent had searched "Probably the ES2002
# kick off meeting selling price", "Hmm the …", "But I I the …" (session 51).
# - a speaker's label ("Marketing:", "Project Manager:") opens a turn as a full stop opens a sentence;
# - so does a filler said before a capital ("um That's", "uh Now"): transcripts mark few full stops;
# - a span's fillers, openers and the speaker's "I" are no part of a name ("Mm-hmm Okay", "Um I", "So I'm": none;
#   "And Srini" → "Srini").
_TURN = re.compile(r"(?:^|[.!?\n]\s*)[^\W\d_][\w'’\-]*(?: [^\W\d_][\w'’\-]*){0,3}: ", re.MULTILINE)
_TURNS = 3  # a Wikipedia paragraph has at most a subtitle or two ("Illusions: The Adventures of …")
_HESITATIONS = re.compile(r"\b(?:um|uh|umm|uhm|erm)\b")
_LABEL = re.compile(r"(?:^|(?<=[.!?\n]))\s*[^\W\d_][\w'’\-]*(?: [^\W\d_][\w'’\-]*){0,3}:$")
_FILLERS = frozenset("Um Uh Umm Uhm Mm Mmm Hmm Mm-hmm Uh-huh Uh-oh Yeah Okay Kay Alright Erm Er Yep Yup Nope".split())
_SAID_BEFORE = re.compile(r"(?:^|\s)(?:um|uh|umm|uhm|mm|hmm|erm|er|yeah|okay)[,]?$")
_SPEAKER_I = re.compile(r"(?:I|You|We|They|He|She|It|That|There|What|Let)['’](?:s|re|ve|ll|d|m)$|I$")
_SPOKEN_OPENERS = frozenset("And But So Or Now Well Just Oh Right Because Cause".split())
_SENTENCE_START = frozenset(
    "The A An In On At He She It They His Her Its This That These Those After Before During When While "
    "However Although As By For From Since With Following According Born We You I There Today Also Then Later".split()
)


def norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def longest_run(a: list[str], b: list[str]) -> int:
    """The most words `a` and `b` share in a row, in order (longest common substring over words): how much of a
    question a passage quotes, how much of its source a generated question copies."""
    best, prev = 0, [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, 1):
            if x == y:
                cur[j] = prev[j - 1] + 1
                best = max(best, cur[j])
        prev = cur
    return best


def keywords(query: str) -> list[str]:
    return [w for w in re.findall(r"\w+", query) if w.lower() not in STOP_WORDS][:8]


def quoted_names(query: str) -> list[str]:
    """Phrases the question quotes: titles of works, nicknames — worth a verbatim grep."""
    return [a or b for a, b in _QUOTED_RE.findall(query)]


def query_terms(query: str) -> list[str]:
    """The question's names and content words, longest first (for plain-words justifications)."""
    names = [e for e in entities(query, "", keep_sentence_starts=True) if e.lower() not in STOP_WORDS]
    words = [w for w in keywords(query) if len(w) >= 4 and not any(w in n for n in names)]
    return sorted(dict.fromkeys(names + words), key=lambda w: -len(w))


def _cased_start(word: str) -> bool:
    return word[0].isupper()


def uncased(word: str) -> bool:
    """A word of a script without letter case (CJK, Arabic, Hebrew, Thai, ...)."""
    ch = word[0]
    return ch.isalpha() and not ch.isupper() and not ch.islower()


def _spans(text: str, spoken: bool = False) -> list[tuple[str, bool]]:
    """Candidate names: (span, starts a sentence). Capitalised runs by Unicode case, allowing
    connectors and numbers inside ("Bank of America", "Item 1A"); words of uncased scripts."""
    out: list[tuple[str, bool]] = []
    words = list(_WORD_RE.finditer(text))
    i = 0
    while i < len(words):
        w = words[i].group(0)
        if uncased(w):
            if 2 <= len(w) <= 24:
                out.append((w, _starts_sentence(text, words[i].start(), spoken)))
            i += 1
            continue
        if not _cased_start(w):
            i += 1
            continue
        j = i + 1
        while j < len(words):
            gap = text[words[j - 1].end(): words[j].start()]
            if gap not in (" ", "\t"):
                break
            nxt = words[j].group(0)
            if _cased_start(nxt) or nxt[0].isdigit():
                j += 1
                continue
            if nxt.lower() in _CONNECTORS and j + 1 < len(words) and _cased_start(words[j + 1].group(0)) \
                    and text[words[j].end(): words[j + 1].start()] in (" ", "\t"):
                j += 2
                continue
            break
        span = text[words[i].start(): words[j - 1].end()]
        out.append((span, _starts_sentence(text, words[i].start(), spoken)))
        i = j
    return out


def _starts_sentence(text: str, pos: int, spoken: bool = False) -> bool:
    before = text[:pos].rstrip()
    if not before or _SENTENCE_END.match(before[-1]):
        return True
    if not spoken:
        return False
    tail = before[-80:]
    return bool(_SAID_BEFORE.search(tail)) or (tail[-1] == ":" and bool(_LABEL.search(tail)))


def entities(text: str, title: str, *, keep_sentence_starts: bool = False) -> list[str]:
    """Candidate bridge entities of a chunk, most salient first (frequency, then position).

    A single capitalised word that only ever opens a sentence ("Hikers", "Today") is no name
    (unless `keep_sentence_starts`). Memoised: a policy re-reads the same chunks every turn.
    """
    return list(_entities(text, title, keep_sentence_starts))


@functools.lru_cache(maxsize=50_000)
def _entities(text: str, title: str, keep_sentence_starts: bool) -> tuple[str, ...]:
    counts: dict[str, int] = {}
    first: dict[str, int] = {}
    mid_sentence: set[str] = set()
    title_norm = norm(title)
    # a transcript or chat: its labels open turns, its fillers are no names (a long turn alone shows its "um"s)
    spoken = len(_TURN.findall(text)) >= _TURNS or len(_HESITATIONS.findall(text)) >= _TURNS
    for i, (span, at_start) in enumerate(_spans(text, spoken)):
        ent = span.strip(" ,'’-")
        words = ent.split()
        if spoken and words:  # "Mm-hmm Okay", "Um I", "So I'm", "And Srini", "Now I" (the module's spoken rules)
            core, after_filler = list(words), False
            while core and (core[0] in _FILLERS or _SPEAKER_I.match(core[0]) or core[0].islower()):
                core, after_filler = core[1:], True  # "Um and Sure", "That's the Kestrel"
            while len(core) > 1 and core[0] in _SPOKEN_OPENERS:
                core = core[1:]
            while core and _SPEAKER_I.match(core[-1]):
                core = core[:-1]
            if not core:
                continue
            if core != words:
                # a capital after a filler opens what is said ("um That's"); after "And" it is a name ("And Srini")
                at_start = after_filler or (at_start and core[0] == words[0])
                words, ent = core, " ".join(core)
        if words and words[0] in _SENTENCE_START:
            ent = " ".join(words[1:])
            at_start = False if len(words) > 2 else at_start
        if len(ent) < 2 or (len(ent) < 3 and not uncased(ent)) or ent.lower() in STOP_WORDS:
            continue
        n = norm(ent)
        if not n or (title_norm and (n == title_norm or n in title_norm)):
            continue
        if keep_sentence_starts or len(ent.split()) > 1 or not at_start or uncased(ent):
            mid_sentence.add(ent)
        counts[ent] = counts.get(ent, 0) + 1
        first.setdefault(ent, i)
    return tuple(sorted((e for e in counts if e in mid_sentence), key=lambda e: (-counts[e], first[e])))


_EXTENSIONS = re.compile(r"\.(txt|md|markdown|html?|pdf|eml|mbox|json|jsonl|csv|docx?|rst)$", re.I)


def link_names(doc_id: str, title: str) -> list[str]:
    """Names by which another text may refer to a document: its title and its file name."""
    out: list[str] = []
    t = norm(title)
    if len(t) >= 4:
        out.append(t)
    stem = _EXTENSIONS.sub("", doc_id.rsplit("/", 1)[-1].split("#")[0])
    words = [w for w in re.split(r"[\W_]+", stem.lower()) if w and not w.isdigit() and not re.fullmatch(r"q\d|\d+\w{0,2}", w)]
    name = " ".join(words)
    if len(name) >= 4 and name not in out and any(len(w) >= 3 for w in words):
        out.append(name)
    return out
