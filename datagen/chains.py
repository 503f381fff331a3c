"""Bridge chains of 2-4 documents, enumerated once over a fact base's links (SPEC §4.5: the answer of
one hop is the bridge entity of the next), each held to what makes every hop genuine; what stops the
rest is counted by reason, so a run can say how many 3- and 4-hop chains its corpus has and why not more.

Before (issue 36) the natural generator found chains by random walks from a random start, 30 walks a
proposal: a 3- or 4-hop chain needs every step to land on a document that links on, so walks rarely
found one, and the pipeline gave a hop count up after `patience` failures in a row. Enumerating the
link graph finds every chain there is, and a hop count with none left is given up at once, with the
counts of what stopped it.

A path d0 → d1 → … → dk (documents as articles, `FactBase.article`) is a chain when:

- each link's object is of the type its description says (`entity_type`): "the place that Luke
  Bullen was drumming for" is dropped when Luke Bullen's band is an organisation (``type_mismatch``);
  a description that shows no type ("the director of X") is read as the reader wrote it, one that
  shows a type the target's own page does not give (no class, no life), guessed by the parser for a person, an
  organisation or a work, is dropped (``untyped_description``);
- the object is named alone, not as one of a list ("installed by Harold and Tostig Godwinson": "the
  person who installed X" would name neither) (``one_of_several``);
- the next document is reachable only through the previous one: no earlier document but the one
  just before names it (``shortcut``), else a reader would skip a hop;
- hubs, documents more than `hub_in_links` articles link to ("New York City"), would end many
  chains: the generator lets a hub end one task (`NaturalGenerator`), and the vague answers they
  tend to give ("Where is the city where 750 7th Avenue is located?" → "United States") are no
  answer (below); in the middle a hub is a hop like any other;
- the last document states an answer once (`factbase.unique_relations`), an answer no earlier
  document already gives and no document of the chain is named by (``answer_in_earlier_document``,
  ``no_answer``), and one that names something: an answer more than `vague_share` of the documents
  name ("the United States") answers nothing in particular, nor does the place a country is in
  (``vague_answer``); a role the country holds once does ("the capital of the country where X was born").

A chain starts only at a document whose name no other page shares ("Boots" the album and "Boots"
the EP), or whose title tells it apart ("Boots (album)": the question names "the album Boots"): the
question names its start, and a shared name would let it start at either (``ambiguous_start``). Chains are counted once per hop count; cycles are never followed.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from datagen.factbase import Fact, FactBase
from datagen.mining import fold
from datagen.types import TruthType
from datagen.verify import contains, normalize

# The head noun of a document's defining class ("American film director" → "director") → its type.
_HEADS = {
    TruthType.PLACE.value: (
        "city town village country county state province region district river island capital municipality "
        "commune suburb neighborhood neighbourhood area lake mountain borough parish settlement territory "
        "peninsula sea ocean valley hamlet metropolis prefecture canton department republic kingdom continent "
        "street avenue square park airport station building church cathedral stadium arena bridge castle capital"
    ).split(),
    TruthType.ORGANIZATION.value: (
        "company band team club university college school party organization organisation corporation label "
        "group agency network channel firm airline bank manufacturer publisher newspaper magazine league "
        "institute society association council ministry department army navy brand franchise conglomerate "
        "studio orchestra choir duo trio quartet hospital railway broadcaster"
    ).split(),
    TruthType.ENTITY.value: (
        "film movie album song single novel book series show opera play poem painting game sitcom episode "
        "musical ep soundtrack documentary anthology comic manga sculpture symphony track drama device"
    ).split(),
    TruthType.PERSON.value: (
        "actor actress singer songwriter director writer author poet player footballer politician musician "
        "composer producer painter artist journalist businessman businesswoman lawyer judge scientist "
        "physicist chemist engineer architect philosopher historian economist rapper guitarist drummer "
        "bassist pianist comedian dancer model presenter broadcaster officer soldier general admiral "
        "bishop priest king queen prince princess emperor president minister senator governor mayor "
        "coach manager athlete cyclist boxer wrestler swimmer cricketer pitcher quarterback novelist "
        "screenwriter filmmaker photographer designer entrepreneur inventor mathematician biologist "
        "physician surgeon nurse teacher professor explorer statesman stateswoman socialite jumper sprinter "
        "aristocrat nobleman noblewoman monarch ruler consort leader character"
    ).split(),
}
_TYPE_OF_HEAD = {head: kind for kind, heads in _HEADS.items() for head in heads}
_LIFE_RELATIONS = ("bear|in|", "die|in|")
_GUESSED_KINDS = (TruthType.PERSON.value, TruthType.ORGANIZATION.value, TruthType.ENTITY.value)
# A place asked "where" whose class is one of these is answered by a region ("Where is the country
# where X is located?" → "the Indian Ocean"): no question.
_WIDE_PLACES = frozenset("country nation state continent region republic kingdom".split())
# …but a role a country holds once names one place: "What is the capital of the country where X was
# born?" → "Ottawa" (MuSiQue's chains through a country end there; they were all refused as vague)
_ONE_PLACE_ROLES = frozenset("capital seat elevation peak summit side".split())


def _held_once(relation: str) -> bool:
    """Whether a relation is a role one place holds once: a role word ("capital", "side") or a role of
    several words, which only the role readers write ("largest city", "state capital": datagen.verbless_facts)."""
    head = relation.split("|")[0]
    return head in _ONE_PLACE_ROLES or len(head.split()) > 1


_NAME = r"[A-Z][\w.'’-]*(?:\s+(?:of\s+|de\s+)?[A-Z][\w.'’-]*)*"
# What may stand between "and" and the second name of a list: a title or a role ("under Thomas Playford II
# and Chief Secretary John Downer", "sung by Sachin Warrier and actress Remya Nambeesan"), not a verb
# ("born in 1950 and raised in Ohio")
_ROLE_WORDS = (
    r"(?:\s+(?:the\s+)?(?:[A-Z][\w.'’-]*|actress|actor|singer|singers|guitarist|drummer|rapper|producer|director|"
    r"writer|his|her|their|friend|wife|husband|brother|sister|partner|fellow|colleague|co-founder|cousin|son|daughter)){0,3}"
)
_LIST_AFTER = re.compile(r"^\s*(?:,\s*" + _NAME + r"\s*)*(?:,\s*|\s+)(?:and|&)\s+[A-Z]|^\s*,\s*" + _NAME + r"\s*,")


def one_of_several(fact: Fact) -> bool:
    """Whether the fact's object is one name of a list ("installed by Harold and Tostig Godwinson",
    "written by Ross Lynch, Riker Lynch, Rocky Lynch and Ellington Ratliff"): "the person who installed
    Bleddyn" then names none of them alone. A place's comma ("Savannah, Georgia") is no list."""
    at = fact.sentence.find(fact.answer)
    if at < 0:
        return False
    before, after = fact.sentence[:at].rstrip(), fact.sentence[at + len(fact.answer) :]
    # an aside after the name hides the list: "trained by Edmund Leach (MPhil, Cambridge) and Raymond Firth"
    after = re.sub(r"^\s*\([^()]*\)", "", after)
    if re.search(r"(?:\band|&)" + _ROLE_WORDS + "$", before) or re.match(r"^\s+(?:and|&)" + _ROLE_WORDS + r"\s+[A-Z]", after):
        return True
    if re.match(r"^\s*,?\s+(?:along |together )?with\s+(?:(?:his|her|their|co-?\w+)\s+)*[A-Z]", after):
        return True  # "written by Susan Olsen with co-authors Ted Nichelson and Lisa Sutton"
    if fact.relation.startswith("bear|to|") and re.match(r"^\s*,?\s+(?:and|&)\s+(?:[a-z][\w-]*\s+){1,3}[A-Z]", after):
        return True  # "born … to church minister Marvin Gay Sr., and domestic worker Alberta Gay": two parents
    prep = fact.relation.split("|")[1] if fact.relation.count("|") >= 2 else ""
    if prep.isalpha() and prep not in ("dobj", "thing", "when") and re.search(
        rf"\b(?:and|or)\s+(?:also\s+)?{prep}\s+(?:the\s+)?[A-Z]", after
    ):
        return True  # "recorded … by Engelbert Humperdinck, who had a hit with it, and by Sergio Franchi"
    if prep in ("under", "for", "with", "alongside", "against") and len(
        re.findall(rf"\b{prep}\s+(?:the\s+)?[A-Z]", fact.sentence)
    ) >= 2:
        return True  # "served as Commissioner … under Thomas Playford II and as Minister … under John Downer"
    if fact.kind == TruthType.PLACE.value:
        return False
    return bool(re.search(r",$", before) and re.search(_NAME + r"\s*,$", before)) or bool(_LIST_AFTER.match(after))


def deep_need(chains: Iterable[Chain], ends_left: Callable[[str], int], max_doc_uses: int) -> dict[str, int]:
    """document → the uses the deeper `chains` through it can still take: one per bridge each end they
    reach may still end (`ends_left`), at most `max_doc_uses`.

    A shorter chain through such a document leaves these (`NaturalGenerator._spent`): MuSiQue's New South
    Wales is the middle of the chains to Sydney and to Victoria (four deep bridges), and with one use kept
    back a two-document chain took a use of its three and a deep bridge was lost (session 32). Only the
    chains still open count: once they are written or spent, what they held is free again."""
    through: dict[str, set[str]] = defaultdict(set)
    for chain in chains:
        for doc in chain.docs:
            through[doc].add(chain.docs[-1])
    return {doc: min(max_doc_uses, sum(ends_left(end) for end in ends)) for doc, ends in through.items()}


def class_type(cls: str) -> str:
    """The type a class noun phrase names by its head ("American film director" → person), or ""."""
    return _TYPE_OF_HEAD.get(cls.split()[-1], "") if cls.strip() else ""


def entity_type(base: FactBase, doc_id: str) -> str:
    """What a document is about: person / place / organization / entity (a work) from the head of
    its defining class, else "person" when it states a birth or death; "" when the corpus does not say."""
    kind = class_type(base.classes.get(doc_id, ""))
    if kind:
        return kind
    if any(f.about_doc and f.relation.startswith(_LIFE_RELATIONS) for f in base.facts.get(doc_id, ())):
        return TruthType.PERSON.value
    return ""


@dataclass(frozen=True)
class Chain:
    """A genuine path of documents: links[i] leads from docs[i] to docs[i+1]; answers: the last
    document's facts that may end it (one is chosen per task)."""

    docs: tuple[str, ...]
    links: tuple[Fact, ...]
    answers: tuple[Fact, ...]

    @property
    def hops(self) -> int:
        return len(self.docs)

    def template(self) -> str:
        """The relations it is composed of: what the per-template diversity cap counts."""
        return ">".join(f.relation for f in self.links)


class ChainIndex:
    """Every chain of 2..max_hops documents of a fact base (see the module docstring).

    relations: article → its relations stated once (what `NaturalGenerator` asks); links: article →
    its facts whose object names another document; text: article → its whole text.
    chains[h]: the chains of h documents; blocked[h]: paths of h documents that are no chain, by reason.
    max_paths: a bound on the paths walked per hop count, so a dense link graph cannot run away
    (reported as ``unexplored`` when reached). titles: doc id → its full title ("Boots (album)"), to
    tell a name two pages share from one page's paragraphs.
    """

    def __init__(
        self,
        base: FactBase,
        relations: Mapping[str, Mapping[str, Fact]],
        links: Mapping[str, Sequence[Fact]],
        text: Callable[[str], str],
        *,
        max_hops: int = 4,
        hub_in_links: int = 12,
        max_paths: int = 200_000,
        documents: Sequence[str] = (),
        vague_share: float = 0.02,
        titles: Mapping[str, str] | None = None,
    ) -> None:
        self.base = base
        self.relations = relations
        self.links = links
        self.max_hops = max_hops
        self.max_paths = max_paths
        self._text = text
        self._norm: dict[str, str] = {}
        self._documents = list(documents)
        self._vague_at = max(25, vague_share * len(self._documents))
        self._df: dict[str, int] = {}
        linked_from: dict[str, set[str]] = defaultdict(set)
        for doc, facts in links.items():
            for f in facts:
                linked_from[base.article(f.target)].add(doc)
        self.hubs = {d for d, sources in linked_from.items() if len(sources) > hub_in_links}
        self.types = {d: entity_type(base, d) for d in {base.article(f.target) for fs in links.values() for f in fs}}
        self.chains: dict[int, list[Chain]] = {h: [] for h in range(2, max_hops + 1)}
        self.blocked: dict[int, Counter] = {h: Counter() for h in range(2, max_hops + 1)}
        # …and where those paths end, by reason: what a deeper chain would need read ("no_answer" at
        # Victoria ×6: its one paragraph states nothing with one answer), so a run can show what stops the rest
        self.blocked_ends: dict[int, dict[str, Counter]] = {h: defaultdict(Counter) for h in range(2, max_hops + 1)}
        self._walked: Counter = Counter()
        titles = titles or {}
        self.qualified: dict[str, str] = {}  # start → its name told apart from a page that shares it
        # a name two articles share ("Boots" the Nancy Sinatra album and "Boots" the KMFDM EP) says
        # neither: a question naming it could start at either, so no chain starts there
        # (paragraphs titled alike are one page however they are grouped: titles are counted, not documents)
        named: dict[str, set[str]] = defaultdict(set)
        for d, name in base.names.items():
            if name:
                named[fold(name)].add(titles.get(d, d))
        for start in sorted(links):
            if not base.names.get(start):
                continue
            if len(named[fold(base.names[start])]) > 1:
                # as HotpotQA writes it: "the 1915 film The Coward" for "The Coward (1915 film)"; a bare
                # title ("Boots" beside "Boots (album)") has nothing to tell it apart
                m = re.search(r"\(([^()]+)\)\s*$", titles.get(start, ""))
                if m is None:
                    self.blocked[2]["ambiguous_start"] += 1
                    continue
                self.qualified[start] = f"the {m.group(1).strip()} {base.names[start]}"
            self._extend((start,), (), None)

    # -- the walk ----------------------------------------------------------------------------------
    def _extend(self, docs: tuple[str, ...], links: tuple[Fact, ...], reason: str | None) -> None:
        if len(docs) >= self.max_hops:
            return
        for link in self.links.get(docs[-1], ()):
            target = self.base.article(link.target)
            if target in docs:
                continue  # a cycle is no chain of distinct documents
            h = len(docs) + 1
            if self._walked[h] >= self.max_paths:
                self.blocked[h]["unexplored"] += 1
                continue
            self._walked[h] += 1
            fault = reason or self._hop_fault(docs, link, target)
            why = fault
            path, chain_links = (*docs, target), (*links, link)
            if why is None:
                answers, why = self._answers(path)
                if why is None:
                    self.chains[h].append(Chain(path, chain_links, answers))
            if why is not None:
                self.blocked[h][why] += 1
                self.blocked_ends[h][why][target] += 1
            self._extend(path, chain_links, fault)

    def _hop_fault(self, docs: tuple[str, ...], link: Fact, target: str) -> str | None:
        """Why the hop docs[-1] → target is not genuine, or None."""
        if one_of_several(link):
            return "one_of_several"
        kind = self.types.get(target, "")
        if kind and link.kind != kind and "{c}" in link.describe:
            return "type_mismatch"  # "the place that Luke Bullen drummed for", "the city who passed Great Falls"
        if not kind and "{c}" in link.describe and link.kind in _GUESSED_KINDS:
            # no class of its own: the description would show the parser's guess ("the person whose
            # current head coach is Brian McDermott" for a rugby club); NER tells places well, not these
            return "untyped_description"
        name = self.base.names.get(target, "")
        if name and any(contains(self._normed(d), normalize(name), normalized=True) for d in docs[:-1]):
            return "shortcut"
        if not self.base.names.get(target):
            return "unnamed"
        return None

    def _answers(self, docs: tuple[str, ...]) -> tuple[tuple[Fact, ...], str | None]:
        last = docs[-1]
        facts = [f for f in self.relations.get(last, {}).values() if not f.target or self.base.article(f.target) not in docs]
        if not facts:
            return (), "no_answer"
        names = {fold(self.base.names.get(d, "")) for d in docs}
        facts = [f for f in facts if fold(f.answer) not in names]
        earlier = [self._normed(d) for d in docs[:-1]]
        facts = [f for f in facts if not one_of_several(f)]
        if not facts:
            return (), "one_of_several"
        # an answer naming a document of another type than the fact says is misread ("Who did the director
        # of Veena Vaadanam direct?" → a documentary film NER took for a person)
        facts = [f for f in facts if not (f.target and entity_type(self.base, self.base.article(f.target)) not in ("", f.kind))]
        if not facts:
            return (), "type_mismatch"
        fresh = [f for f in facts if not any(contains(t, normalize(f.answer), normalized=True) for t in earlier)]
        if not fresh:
            return (), "answer_in_earlier_document"
        wide = (self.base.classes.get(last, "").split() or [""])[-1] in _WIDE_PLACES
        specific = tuple(
            f for f in fresh if not self._vague(f.answer)
            and not (wide and f.kind == TruthType.PLACE.value and not _held_once(f.relation))
        )
        if not specific:
            return (), "vague_answer"
        return specific, None

    def _vague(self, answer: str) -> bool:
        """Whether an answer is named by so many documents that it says little ("the United States",
        "North America"): more than `vague_share` of them (at least 25). Dates and numbers never are."""
        key = normalize(answer)
        if not self._documents or not any(c.isalpha() for c in key) or key in {"a", "an", "the"}:
            return False
        key = key.removeprefix("the ")
        if key not in self._df:
            self._df[key] = sum(1 for d in self._documents if contains(self._normed(d), key, normalized=True))
        return self._df[key] > self._vague_at

    def _normed(self, doc: str) -> str:
        if doc not in self._norm:
            self._norm[doc] = normalize(self._text(doc))
        return self._norm[doc]

    # -- what it found -----------------------------------------------------------------------------
    def ends(self, hops: int) -> Counter:
        """The documents the chains of `hops` documents end on, with how many end on each: a document
        ends at most `NaturalConfig.max_final_uses` bridges, so these, not the chains, bound the deep tasks."""
        return Counter(c.docs[-1] for c in self.chains.get(hops, ()))

    def counts(self) -> dict[str, int]:
        """"chains:<h>:found" and "chains:<h>:<reason>" for every hop count (the run's stages)."""
        out: dict[str, int] = {}
        for h in sorted(self.chains):
            out[f"chains:{h}:found"] = len(self.chains[h])
            for why, n in sorted(self.blocked[h].items()):
                out[f"chains:{h}:{why}"] = n
        return out
