"""Questions across manual pages: a link one page states to another, then the other page's fact (issue 36: chains
wherever the corpus has them; session 50).

A manual page (read by corpus_tools.man_reader) states some links a reader can verify, each in one sentence that
names the other page as "name(section)":

- its errors are another call's too (`ERRORS_OF`): "In addition, the errors documented in stat(2) can also occur."
  (getxattr.2), "pread() can fail and set errno to any error specified for read(2) or lseek(2).", "The set of errors
  returned by openat2() includes all of the errors returned by openat(2)";
- it is carried out by another call (`CALLS`): "the glibc mmap() wrapper function invokes mmap2(2)", "wait() is … a
  library function that (in glibc) is implemented as a call to wait4(2)", "A call to fork() is equivalent to a call
  to clone(2) …".

SEE ALSO only names candidates and states no relation: it is never a hop. A link counts only where the sentence
names one of the page's own calls (or the page documents one call) and the other page is in the folder under that
name and section; a sentence opening with a condition ("If either of these flags is specified, then the wrapper
function employs fstatat(2)") states no link for every call, and one naming "this system call" points nowhere.

The questions (the last page's fact, read by datagen.doc_manpages, is the answer; the first page names the call):
- `ERRORS_OF`+ → an error (2 or more hops: getxattr → stat, or A → B → C when B's errors are C's too): "Which error
  can getxattr return when a component of the path prefix is not a directory?" → ENOTDIR, gold getxattr's sentence
  then stat's entry;
- `CALLS` then `ERRORS_OF`* → an error: "Which error can the system call that the glibc mmap() wrapper invokes
  return when …?";
- `CALLS` → the Linux version: "In which Linux version was the system call that the glibc wait() wrapper calls
  added?" → wait4's version (one hop of `CALLS` only: a version is a call's own, never inherited);
- a comparison of two pages' Linux versions (`ADDED`) where either page's SEE ALSO names the other (related calls,
  so the question reads as one a person asks): "Which came to Linux first, eventfd or signalfd?" → the lower version;
  held by the generator to `comparison_share` of the multi-hop tasks.

Refused, each counted (`funnel`): a cycle (mmap → mmap2 → mmap: a page already on the path), an answer an earlier
page gives (its error name or version on that page: one page would answer alone), no fact on the last page, no
question for the path's links (an error's link after a version's), a hub (more than `hub_cap` questions ending on one
page), and the same question twice. Paths of 2, 3 and 4 pages are counted whether or not they are asked.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from datagen.doc_bridges import version_key
from datagen.doc_manpages import ADDED, ERROR, is_man_page
from datagen.factbase import Fact

BRIDGE_FORM = "man_bridge"
COMPARE_FORM = "man_compare"
ERRORS_OF = "doc:man_errors_of"
CALLS = "doc:man_calls"
HUB_CAP = 6
MAX_PAGES = 4

_REF = r"([A-Za-z_][\w.-]*)\((\d)\w*\)"
# "the errors documented in stat(2)", "any error specified for read(2) or lseek(2)", "all of the errors returned by
# openat(2)", "The errors are as given for read(2) and write(2)"
_ERRORS_OF = re.compile(r"\berrors?\b[^.;]{0,50}?\b(?:described|specified|documented|listed|given|returned)\s+"
                        r"(?:in|for|by)\s+" + _REF + r"((?:\s*(?:,|or|and|, or|, and)\s+" + _REF + r")*)")
# "the glibc mmap() wrapper function invokes mmap2(2)", "implemented as a call to wait4(2)", "is equivalent to a call
# to clone(2)": the other call right after the verb
_CALLS = re.compile(r"\b(?:wrapper(?: function)?(?: that is [^.;]{0,60}?)?\s+(?:actually\s+)?(?:invokes|calls|employs)|"
                    r"implemented as a call to|is equivalent to (?:a call to|calling))\s+(?:the\s+)?" + _REF)
_OWN_CALL = re.compile(r"\b([A-Za-z_]\w*)\(\)")
_CONDITIONAL = re.compile(r"^(?:if|when|unless|on\s+\w+\s+where|where)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z(])")

ASK_ERROR = "Which error can {who} return when {c}?"
ASK_ADDED = "In which Linux version was the system call that {via} added?"
ASK_COMPARE = "Which came to Linux first, {a} or {b}?"
_VIA = {"wrapper": "the glibc {f}() wrapper invokes", "implemented": "glibc implements {f}() with",
        "equivalent": "a call to {f}() is equivalent to"}


@dataclass(frozen=True)
class ManLink:
    """One page's sentence stating a link to another page (`fact`: the sentence as quote, the other page's call as
    answer, the relation ERRORS_OF or CALLS), and who the sentence is about (`source`: the page's own calls)."""

    fact: Fact
    target: str  # the other page's doc id
    source: tuple[str, ...]
    how: str = ""  # CALLS: wrapper | implemented | equivalent


@dataclass(frozen=True)
class ManChain:
    """One question across 2-4 pages: the links' facts, then the answer's fact on the last page."""

    facts: tuple[Fact, ...]
    question: str

    @property
    def docs(self) -> tuple[str, ...]:
        return tuple(f.doc_id for f in self.facts)

    @property
    def answer(self) -> Fact:
        return self.facts[-1]


@dataclass(frozen=True)
class ManComparison:
    """Two pages' Linux versions; `first` the one of the lower version."""

    first: Fact
    second: Fact
    question: str


def _names(chunks: Sequence[Any]) -> tuple[list[str], set[str]]:
    meta = chunks[0].metadata or {}
    names = [n for n in str(meta.get("man_names") or "").split(", ") if n]
    aliases = {n for n in str(meta.get("man_aliases") or "").split(", ") if n}
    return names, aliases


def _sentences(text: str) -> list[str]:
    """A chunk's sentences with their words as the chunk writes them (a quote must be found in the chunk)."""
    out = []
    for paragraph in re.split(r"\n\s*\n", text):
        # a heading the reader writes on its own line ("ERRORS") is no part of the sentence under it
        paragraph = re.sub(r"^(?:[A-Z][A-Z /&-]*|[A-Z][a-z]+(?: [a-z/]+)*)\n(?=\S)", "", paragraph.strip())
        out.extend(s.strip() for s in _SENTENCE.split(paragraph) if s.strip())
    return out


def man_links(chunks_by_doc: Mapping[str, Sequence[Any]], funnel: Counter) -> list[ManLink]:
    """Every link the folder's manual pages state (see the module docstring); refusals counted in `funnel`."""
    pages = {d: cs for d, cs in chunks_by_doc.items() if cs and is_man_page(cs[0].metadata)}
    where: dict[tuple[str, str], str] = {}
    for d, cs in sorted(pages.items()):
        names, _ = _names(cs)
        section = str((cs[0].metadata or {}).get("man_section") or "")[:1]
        for n in names:
            where.setdefault((n, section), d)
    out: list[ManLink] = []
    seen: set[tuple[str, str, str]] = set()
    for d, cs in sorted(pages.items()):
        names, aliases = _names(cs)
        calls = [n for n in names if n not in aliases] or names[:1]
        for chunk in cs:
            for sentence in _sentences(chunk.text):
                for relation, rx in ((ERRORS_OF, _ERRORS_OF), (CALLS, _CALLS)):
                    for m in rx.finditer(sentence):
                        refs = [(m.group(1), m.group(2))]
                        if relation == ERRORS_OF and m.group(3):
                            refs += re.findall(_REF, m.group(3))
                        own = [n for n in _OWN_CALL.findall(sentence[:m.start()]) if n in names]
                        if relation == CALLS:
                            # "the glibc mmap() wrapper …": the call named before the verb, one of the page's own
                            if not own:
                                funnel["link_call_not_named"] += 1
                                continue
                            source: tuple[str, ...] = (own[-1],)
                        else:
                            source = (own[-1],) if own else tuple(calls)
                        if _CONDITIONAL.match(sentence):
                            funnel["link_conditional"] += 1
                            continue
                        for name, section in refs:
                            target = where.get((name, section))
                            if target is None:
                                funnel["link_target_not_in_folder"] += 1
                                continue
                            if target == d:
                                funnel["link_to_itself"] += 1
                                continue
                            if (d, target, relation) in seen:
                                continue
                            seen.add((d, target, relation))
                            how = ""
                            if relation == CALLS:
                                how = ("wrapper" if "wrapper" in m.group(0) else
                                       "implemented" if "implemented" in m.group(0) else "equivalent")
                            funnel[f"link:{relation}"] += 1
                            out.append(ManLink(Fact(doc_id=d, chunk_id=chunk.chunk_id, sentence=sentence,
                                                    subject=source[0], about_doc=False, relation=relation,
                                                    answer=name, kind="entity", ask=""), target, source, how))
    return out


def _on_page(text: str, value: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(value)}(?![\w]|\.\d)", text) is not None


def man_chains(links: Sequence[ManLink], facts: Mapping[str, Sequence[Fact]], texts: Mapping[str, str],
               funnel: Counter, *, max_pages: int = MAX_PAGES, hub_cap: int = HUB_CAP) -> list[ManChain]:
    """Every question along the pages' links (see the module docstring), paths of 2 to `max_pages` pages; `funnel`
    counts the paths found per length and why each one not asked was refused."""
    out_links: dict[str, list[ManLink]] = defaultdict(list)
    for link in links:
        out_links[link.fact.doc_id].append(link)
    candidates: list[ManChain] = []
    asked: set[str] = set()

    def walk(path: tuple[ManLink, ...]) -> None:
        docs = [path[0].fact.doc_id, *(link.target for link in path)]
        pages = len(docs)
        funnel[f"paths:{pages}"] += 1
        candidates.extend(_ask(path, docs, facts, texts, funnel, asked))
        if pages >= max_pages:
            return
        for nxt in out_links.get(docs[-1], ()):
            if nxt.target in docs:
                funnel[f"refused:{pages + 1}:cycle"] += 1  # mmap → mmap2 → mmap
                continue
            walk((*path, nxt))

    for start in sorted(out_links):
        for link in out_links[start]:
            walk((link,))
    # a hub: at most `hub_cap` questions end on one page (stat(2)'s errors are four xattr pages' too), taken in turn
    # from the paths that reach it (each first page's first question, then each one's second …)
    turn: Counter[tuple[str, ...]] = Counter()
    ranked = []
    for chain in candidates:
        ranked.append((turn[chain.docs[:-1]], chain))
        turn[chain.docs[:-1]] += 1
    ends: Counter[str] = Counter()
    out = []
    for _turn, chain in sorted(ranked, key=lambda tc: tc[0]):
        if ends[chain.docs[-1]] >= hub_cap:
            funnel[f"refused:{len(chain.facts)}:hub"] += 1
            continue
        ends[chain.docs[-1]] += 1
        funnel[f"asked:{len(chain.facts)}"] += 1
        out.append(chain)
    for n in range(2, max_pages + 1):
        funnel.setdefault(f"paths:{n}", 0)
        funnel.setdefault(f"asked:{n}", 0)
    return out


def _ask(path: tuple[ManLink, ...], docs: list[str], facts: Mapping[str, Sequence[Fact]], texts: Mapping[str, str],
         funnel: Counter, asked: set[str]) -> list[ManChain]:
    """The questions one path of links gives (its last page's facts), each refusal counted."""
    pages = len(docs)
    first = path[0]
    kinds = [link.fact.relation for link in path]
    if all(k == ERRORS_OF for k in kinds):
        calls = first.source
        who = calls[0] if len(calls) == 1 else ", ".join(calls[:-1]) + f" or {calls[-1]}"
        wanted = (ERROR,)
        if len(calls) > 4:
            funnel[f"refused:{pages}:many_calls"] += 1
            return []
    elif kinds[0] == CALLS and all(k == ERRORS_OF for k in kinds[1:]):
        who = "the system call that " + _VIA[first.how].format(f=first.source[0])
        wanted = (ERROR, ADDED) if pages == 2 else (ERROR,)
    else:
        funnel[f"refused:{pages}:no_question_for_links"] += 1  # an error's link then a call's: whose is the answer
        return []
    called = path[-1].fact.answer  # the call the last link names
    # a version is the named call's own (clone.2's is clone3's); through a call's link, an error the page gives that
    # call alone ("Which error does mmap2 return …"), not one of the page's other calls (the glibc clone() wrapper's)
    ends = [f for f in facts.get(docs[-1], ()) if f.relation in wanted
            and (f.relation != ADDED or f.subject == called)
            and (f.relation != ERROR or kinds[-1] == ERRORS_OF or f"does {called} return" in f.ask)]
    if not ends:
        funnel[f"refused:{pages}:no_fact_on_last_page"] += 1
        return []
    out = []
    for end in ends:
        earlier = [texts.get(d, "") for d in docs[:-1]]
        if any(_on_page(t, end.answer) for t in earlier):
            funnel[f"refused:{pages}:answer_on_earlier_page"] += 1  # getxattr lists E2BIG too: one page answers
            continue
        if end.relation == ERROR:
            if any(end.subject.lower() in " ".join(t.split()).lower() for t in earlier):
                funnel[f"refused:{pages}:condition_on_earlier_page"] += 1
                continue
            question = ASK_ERROR.format(who=who, c=end.subject)
        else:
            question = ASK_ADDED.format(via=_VIA[first.how].format(f=first.source[0]))
        if question in asked:
            funnel[f"refused:{pages}:same_question"] += 1
            continue
        asked.add(question)
        out.append(ManChain((*(link.fact for link in path), end), question))
    return out


def _padded(version: tuple[int, ...]) -> tuple[int, ...]:
    return version + (0,) * (4 - len(version))


def _states(text: str, fact: Fact) -> bool:
    """Whether a page has a sentence naming `fact`'s call and its version."""
    return any(_on_page(s, fact.subject) and _on_page(s, fact.answer) for s in _SENTENCE.split(" ".join(text.split())))


def see_also(text: str) -> set[tuple[str, str]]:
    """The (name, section) pairs a page's SEE ALSO section names (candidates for a comparison, never a hop)."""
    m = re.search(r"(?m)^SEE ALSO\s*$(?P<s>.*?)(?=^[A-Z][A-Z ]{2,}$|\Z)", text, re.DOTALL)
    return set(re.findall(_REF, m.group("s"))) if m else set()


def man_comparisons(facts: Mapping[str, Sequence[Fact]], chunks_by_doc: Mapping[str, Sequence[Any]],
                    texts: Mapping[str, str], funnel: Counter) -> list[ManComparison]:
    """Pairs of pages' Linux versions (`ADDED`) where either page's SEE ALSO names the other, the versions differing
    and neither page giving the other's version (see the module docstring)."""
    added = {d: [f for f in fs if f.relation == ADDED][0] for d, fs in sorted(facts.items())
             if any(f.relation == ADDED for f in fs) and d in chunks_by_doc}
    names = {d: set(_names(chunks_by_doc[d])[0]) for d in added}
    related = {d: {n for n, _s in see_also(texts.get(d, ""))} for d in added}
    out = []
    docs = sorted(added)
    for i, a in enumerate(docs):
        for b in docs[i + 1:]:
            if not (related[a] & names[b] or related[b] & names[a]):
                continue
            fa, fb = added[a], added[b]
            va, vb = version_key(fa.answer), version_key(fb.answer)
            funnel["compare:related_pairs"] += 1
            if va is None or vb is None or _padded(va) == _padded(vb):
                funnel["compare:same_version"] += 1
                continue
            if fa.subject == fb.subject or fa.subject in names[b] or fb.subject in names[a]:
                funnel["compare:same_name"] += 1
                continue
            if _states(texts.get(a, ""), fb) or _states(texts.get(b, ""), fa):
                funnel["compare:both_on_one_page"] += 1  # a page that gives the other's version answers alone
                continue
            first, second = (fa, fb) if va < vb else (fb, fa)
            funnel["compare:asked"] += 1
            out.append(ManComparison(first, second, ASK_COMPARE.format(a=fa.subject, b=fb.subject)))
    return out
