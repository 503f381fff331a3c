"""The returned passages (`Evidence`): what the agent was shown, the answer's citations resolved
against it, a reason that is true per passage, and the documents ranked from them.

The harness records every chunk an episode shows (`ShownPassage`: its text, where it sits, and
which tool calls showed it). The final answer cites passages by chunk id (`<Passage id=…>`, see
`context1.answer`); `resolve_citations` turns the citations into passages:

* a chunk id the agent was shown: that passage;
* a document id (the older `<Document id=…>` answers, or a model that cites the document): the
  best passage of that document the agent was shown — the one the tools ranked highest, the
  earliest shown on a tie, a passage still in view before a pruned one;
* anything else (a chunk or document never shown, or no id of the corpus at all): dropped, and
  listed in `Resolution.unseen`, which the harness records in `metadata["answer_unseen_ids"]`.

So only what the agent was shown can be returned. `select_evidence` keeps the first
`max_passages` of the cited passages that fit `max_passage_tokens` (always at least one), and
`documents_from` ranks documents by their best cited passage.

The reason of a passage is built from facts the harness recorded, never from a template the
passage may not match: the tool calls that showed it (`found_by`, with the rank each gave it),
the question words it holds, the question constraints it meets (issue 35's
`Corpus.question_constraints`, when the corpus has them), and, for a table chunk of a corpus whose
search ranks tables by the line-item vocabulary (`corpus_tools.line_items`, `SearchConfig.line_item_names`),
the row that names the searched line item under another name ("Gross profit" for "gross margin") or the
rows that print the components of a derived item the search asked for (`derived_named`: "Total net
sales" and "Cost of sales" for gross margin) — what that search's row match and line-item leg used.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from context1.types import Evidence, RankedDocument
from corpus_tools.defined_names import (
    asked_defines,
    asked_terms,
    is_question,
    names_match,
    query_names,
    split_defines,
)
from corpus_tools.line_items import DERIVED, LINE_ITEMS, canonical_names, derived_named
from corpus_tools.row_match import row_labels
from corpus_tools.speakers import line_speakers, turns

# Chunk-metadata keys a question constraint may name (issue 35) and how a reason words them.
_CONSTRAINT_KEYS = ("company", "ticker", "form", "period_end", "fiscal_year", "fiscal_quarter")
# Kept beside them: whether the chunk is a table ("kind"), which decides whether the line-item vocabulary ranked it.
_KEPT_KEYS = (*_CONSTRAINT_KEYS, "kind", "defines")


@dataclass
class ShownPassage:
    """A chunk an episode showed, with what the harness knows of it.

    rank: the best 1-based position any observation gave it; order: 0-based first-shown order.
    found_by: one label per tool call that showed it, in order (`found_label`), and the rank
    that call gave it (`ranks`, same order).
    """

    chunk_id: str
    doc_id: str
    text: str
    rank: int
    order: int
    title: str | None = None
    page: int | None = None
    section: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    speakers: tuple[str, ...] = ()
    found_by: list[str] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)

    def saw(self, label: str, rank: int) -> None:
        if label not in self.found_by:
            self.found_by.append(label)
            self.ranks.append(rank)
        self.rank = min(self.rank, rank)


def found_label(tool: str, argument: str) -> str:
    """How `Evidence.found_by` names a tool call: the search query itself, `grep:PATTERN`, `read:DOC`."""
    if tool == "search_corpus":
        return argument
    if tool == "grep_corpus":
        return f"grep:{argument}"
    return f"read:{argument}"


def passage_from_hit(hit: Any, rank: int, order: int, title: str | None) -> ShownPassage:
    chunk = hit.chunk
    meta = dict(chunk.metadata or {})
    page = meta.get("page")
    section = meta.get("section")
    return ShownPassage(
        chunk_id=chunk.chunk_id, doc_id=chunk.doc_id, text=chunk.text, rank=rank, order=order,
        title=title, page=int(page) if isinstance(page, int | float) and not isinstance(page, bool) else None,
        section=str(section) if section else None,
        metadata={k: meta[k] for k in _KEPT_KEYS if k in meta},
        speakers=passage_speakers(chunk.text, meta.get("speakers")),
    )


def passage_speakers(text: str, recorded: Any = None) -> tuple[str, ...]:
    """Who talks in a passage: the chunk's "speakers" metadata (a transcript's turns, `corpus_tools.transcripts`),
    else the speakers of its "Name: " lines when at least half of its lines (two or more) open so — a chat or a
    transcript indexed as text; a document with a stray "Label: " line names nobody."""
    if isinstance(recorded, str) and recorded.strip():
        return tuple(s.strip() for s in recorded.split(",") if s.strip())
    lines = sum(1 for line in text.splitlines() if line.strip())
    return tuple(line_speakers(text)) if lines >= 2 and turns(text) * 2 >= lines else ()


@dataclass(frozen=True)
class Citation:
    """One block of the final answer: the id as written, the model's justification, a written score."""

    raw_ids: tuple[str, ...]  # candidate readings of the id, most likely first
    justification: str = ""
    score: float | None = None


@dataclass
class Resolution:
    """What `resolve_citations` made of an answer's citations.

    passages: (passage, justification, score or None) in the answer's order, deduplicated.
    unseen: ids that named no passage the agent was shown (dropped).
    from_documents: document id -> the chunk id it was resolved to.
    duplicates: chunk ids cited more than once (kept at their first position).
    """

    passages: list[tuple[ShownPassage, str, float | None]] = field(default_factory=list)
    unseen: list[str] = field(default_factory=list)
    from_documents: dict[str, str] = field(default_factory=dict)
    duplicates: list[str] = field(default_factory=list)


def best_of_document(shown: Mapping[str, ShownPassage], visible: set[str] | None = None) -> dict[str, ShownPassage]:
    """Each shown document's best passage: still in view first, then best rank, then first shown."""
    best: dict[str, ShownPassage] = {}

    def key(p: ShownPassage) -> tuple[int, int, int]:
        return (0 if visible is None or p.chunk_id in visible else 1, p.rank, p.order)

    for p in shown.values():
        cur = best.get(p.doc_id)
        if cur is None or key(p) < key(cur):
            best[p.doc_id] = p
    return best


def resolve_citations(citations: Sequence[Citation], shown: Mapping[str, ShownPassage],
                      visible: set[str] | None = None) -> Resolution:
    """Citations → the passages the agent was shown (see the module docstring)."""
    out = Resolution()
    by_doc = best_of_document(shown, visible)
    taken: set[str] = set()
    for c in citations:
        passage = None
        for raw in c.raw_ids:
            if raw in shown:
                passage = shown[raw]
            elif raw in by_doc:
                passage = by_doc[raw]
                out.from_documents[raw] = passage.chunk_id
            if passage is not None:
                break
        if passage is None:
            if c.raw_ids:
                out.unseen.append(c.raw_ids[0])
            continue
        if passage.chunk_id in taken:
            out.duplicates.append(passage.chunk_id)
            continue
        taken.add(passage.chunk_id)
        out.passages.append((passage, c.justification, c.score))
    return out


# -- the reason -------------------------------------------------------------------------------
_WORD = re.compile(r"\w+")
# Words that say what is asked, not what a passage should hold.
_STOP = frozenset(
    "a an the of in on at to for from by with and or but is are was were be been being what which who whom whose "
    "when where why how that this these those it its as into than then there their they he she his her him do does "
    "did has have had not no yes also both either neither same other one two many much more most can could would "
    "should will shall may might about after before during over under between any all each per our your my me "
    "we you i tell show give find list name".split()
)


def norm(text: str) -> str:
    """Lower-cased words joined by single spaces (punctuation dropped): what word matching compares."""
    return " ".join(_WORD.findall(text.lower()))


def question_words(query: str) -> list[str]:
    """The question's content words as written (3+ characters, or two mixing a letter and a digit:
    "Q3", not the "10" of "10-Q"; no stop words), in question order, each once."""
    out: list[str] = []
    seen: set[str] = set()
    for w in _WORD.findall(query):
        low = w.lower()
        short_code = len(w) == 2 and any(ch.isdigit() for ch in w) and any(ch.isalpha() for ch in w)  # "Q3"
        if low in _STOP or low in seen or (len(w) < 3 and not short_code) or "_" in w:
            continue
        seen.add(low)
        out.append(w)
    return out


def words_held(text: str, terms: Sequence[str]) -> list[str]:
    """The terms of `terms` that occur in `text` as whole words, or with a plural "s"/"es"
    ("lighthouse" holds in "lighthouses"); case and punctuation ignored."""
    padded = " " + norm(text) + " "
    return [t for t in terms if norm(t) and any(f" {norm(t)}{end} " in padded for end in ("", "s", "es"))]


def constraints_met(passage: ShownPassage, constraints: Mapping[str, Any] | None) -> list[str]:
    """`key value` for each question constraint (issue 35) the passage's metadata satisfies."""
    if not constraints:
        return []
    out = []
    for key in _CONSTRAINT_KEYS:
        wanted = constraints.get(key)
        if wanted is None or key not in passage.metadata:
            continue
        values = wanted if isinstance(wanted, list | tuple | set) else [wanted]
        have = passage.metadata[key]
        if any(str(v).lower() == str(have).lower() for v in values):
            out.append(f"{key.replace('_', ' ')} {have}")
    return out


def passage_reason(passage: ShownPassage, terms: Sequence[str], constraints: Mapping[str, Any] | None = None,
                   line_items: bool = False, query: str = "") -> str:
    """Why this passage: the calls that showed it (with ranks), the question words it holds, the names the
    question asks about that it defines (documentation: its "defines" metadata, corpus_tools.defined_names; read
    from `query`), how its rows name the line item a search that found it asked for (only with `line_items`,
    the corpus ranking tables by that vocabulary: `ranks_by_line_items`), the constraints it meets. Every clause
    is checkable against the trajectory and the passage."""
    found = []
    for label, rank in zip(passage.found_by, passage.ranks, strict=False):
        if label.startswith("grep:"):
            found.append(f"grep “{label[5:]}” (#{rank})")
        elif label.startswith("read:"):
            found.append(f"reading its document (#{rank} for the question)")
        else:
            found.append(f"the search “{label}” (#{rank})")
    parts = []
    if found:
        shown = found[:3] + ([f"{len(found) - 3} more"] if len(found) > 3 else [])
        parts.append("Found by " + ", ".join(shown) + ".")
    held = words_held(passage.text, terms)
    if held:
        parts.append("Holds the question's " + ", ".join(f"“{w}”" for w in held[:6]) + ".")
    else:
        parts.append("Holds none of the question's words.")
    # a paper's term ("a tablet") is asked as "What is a tablet?" (asked_terms): never a documentation name
    asked = query_names(query) | asked_terms(query) if query and passage.metadata.get("defines") else set()
    defined = [n for n in split_defines(asked_defines(query, passage.metadata, passage.doc_id)) if names_match(asked, n)] if asked else []
    if defined:
        parts.append("Defines " + ", ".join(f"“{n}”" for n in defined[:3]) + ".")
    if line_items and passage.metadata.get("kind") == "table":
        searches = [label for label in passage.found_by if not label.startswith(("grep:", "read:"))]
        clause = next((c for c in (line_item_reason(passage.text, q) for q in searches) if c), "")
        if clause:
            parts.append(clause)
    met = constraints_met(passage, constraints)
    if met:
        parts.append("Meets " + ", ".join(met) + ".")
    return " ".join(parts)


def defines_asked(passage: ShownPassage, query: str) -> bool:
    """Whether `passage` defines a name `query` asks about as a question (its "defines" metadata, read as
    `Corpus.search` reads it for its lift: corpus_tools.defined_names). A passage without "defines" never does."""
    defined = split_defines(asked_defines(query, passage.metadata, passage.doc_id))
    if not defined or not is_question(query):
        return False
    asked = query_names(query) | asked_terms(query)
    return bool(asked) and any(names_match(asked, name) for name in defined)


def defined_first(cited: Sequence[ShownPassage], shown: Mapping[str, ShownPassage], query: str
                  ) -> ShownPassage | None:
    """The passage that should open the answer because it defines what the question names (`AgentConfig.defined_first`):
    the first of `cited` (the answer's order) that does, else the best-ranked of `shown` that does (best tool
    rank, then first shown). None when none does, or when it already opens the answer."""
    pick = next((p for p in cited if defines_asked(p, query)), None)
    if pick is None:
        candidates = [p for p in shown.values() if defines_asked(p, query)]
        pick = min(candidates, key=lambda p: (p.rank, p.order)) if candidates else None
    if pick is None or (cited and cited[0].chunk_id == pick.chunk_id):
        return None
    return pick


def ranks_by_line_items(corpus: Any) -> bool:
    """Whether `corpus`'s search ranks table chunks by the line-item vocabulary (corpus_tools'
    `SearchConfig.line_item_names`); False for a corpus that does not say."""
    search = getattr(getattr(corpus, "config", None), "search", None)
    return getattr(search, "line_item_names", False) is True


def _asked_as(text: str, item: str) -> str | None:
    """How `text` names the line item `item` (a canonical name): the longest of its names found in `text`,
    as written there; None when it names it by none."""
    group = next((g for g in LINE_ITEMS if g[0] == item), (item,))
    low = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    for phrase in sorted(group, key=len, reverse=True):
        m = re.search(rf"(?<![\w&']){re.escape(phrase)}(?![\w&])", low)
        if m:
            return text[m.start():m.end()]
    return None


def line_item_reason(text: str, query: str) -> str:
    """The clause saying how a table chunk's rows name the line item `query` asks for, when they name it
    the way `corpus_tools`' row match and line-item leg count it but not in the query's own words:

    * a row names it under another name: "Its row “Gross profit” is the “gross margin” asked for, under
      another name.";
    * no row names it, and the rows name every component of it (`derived_named`): "Its rows “Total net
      sales”, “Cost of sales” print what “gross margin” is computed from (revenue, cost of revenue).".

    "" otherwise: a query naming no line item, a table naming it in the query's words (the question words
    it holds say so already), or missing one of a derived item's components.
    """
    labels = row_labels(text)
    if not labels:
        return ""
    for item in canonical_names(query):
        asked = _asked_as(query, item) or item
        naming = [label for label in labels if item in canonical_names(label)]
        if naming:
            if any(asked.lower() in " ".join(label.lower().split()) for label in naming):
                continue  # named in the query's words: no vocabulary needed
            return f"Its row “{naming[0].strip()}” is the “{asked}” asked for, under another name."
        if derived_named({item}, labels):
            rows = [next(label.strip() for label in labels if part in canonical_names(label)) for part in DERIVED[item]]
            shown = list(dict.fromkeys(rows))
            noun = "row" if len(shown) == 1 else "rows"
            return (f"Its {noun} {', '.join(f'“{r}”' for r in shown)} print{'s' if len(shown) == 1 else ''} what "
                    f"“{asked}” is computed from ({', '.join(DERIVED[item])}).")
    return ""


def to_evidence(passage: ShownPassage, score: float, reason: str) -> Evidence:
    return Evidence(
        chunk_id=passage.chunk_id, doc_id=passage.doc_id, text=passage.text, score=float(score), reason=reason,
        title=passage.title, page=passage.page, section=passage.section, found_by=tuple(passage.found_by),
        speakers=passage.speakers,
    )


def select_evidence(ranked: Sequence[Evidence], max_passages: int, max_tokens: int,
                    count: Callable[[str], int]) -> tuple[list[Evidence], int]:
    """The first `max_passages` passages that fit `max_tokens` together (the first always stays).

    Greedy like the tools' rendering: a passage that does not fit is skipped and a shorter,
    lower-ranked one may still fit. Returns (kept, how many were left out for the token cap).
    """
    kept: list[Evidence] = []
    used = 0
    left_out = 0
    for e in ranked:
        if len(kept) >= max_passages:
            break
        n = count(e.text)
        if kept and used + n > max_tokens:
            left_out += 1
            continue
        kept.append(e)
        used += n
    return kept, left_out


def documents_from(ranked: Sequence[Evidence], justifications: Mapping[str, str], max_documents: int
                   ) -> list[RankedDocument]:
    """Documents ranked by their best passage; a document's justification is its best passage's
    (the driver's words when it wrote some, else the passage's reason) and its score that passage's."""
    out: list[RankedDocument] = []
    seen: set[str] = set()
    for e in ranked:
        if e.doc_id in seen:
            continue
        seen.add(e.doc_id)
        out.append(RankedDocument(e.doc_id, justifications.get(e.chunk_id) or e.reason, e.score))
        if len(out) == max_documents:
            break
    return out


# -- old records ------------------------------------------------------------------------------
_BLOCK = re.compile(r'<chunk id="(?P<id>[^"]*)" doc="(?P<doc>[^"]*)" title="(?P<title>[^"]*)">\n(?P<text>.*?)\n</chunk>',
                    re.S)


def recompute_evidence(trajectory: Any, max_passages: int = 5) -> list[Evidence]:
    """Evidence for a trajectory saved before passages existed: each returned document's best
    shown passage (the one its observations ranked highest), read back from the observation text.

    Reasons say they were recomputed. A document none of whose chunks the trajectory shows gets
    no passage (its passages are unknown).
    """
    from context1.prompts import unescape_attr

    shown: dict[str, ShownPassage] = {}
    calls = {c.id: c for s in trajectory.steps for c in s.turn.tool_calls}
    for step in trajectory.steps:
        for obs in step.observations:
            call = calls.get(obs.call_id)
            arg = ""
            if call is not None:
                arg = str(next(iter(dict(call.arguments).values()), "")) if call.arguments else ""
            for rank, m in enumerate(_BLOCK.finditer(obs.text), 1):
                cid = unescape_attr(m.group("id"))
                p = shown.get(cid)
                if p is None:
                    title = unescape_attr(m.group("title")) or None
                    text = m.group("text").replace("&lt;chunk", "<chunk").replace("&lt;/chunk", "</chunk")
                    p = shown[cid] = ShownPassage(cid, unescape_attr(m.group("doc")), text, rank, len(shown), title,
                                                 speakers=passage_speakers(text))
                p.saw(found_label(obs.tool, arg), rank)
    best = best_of_document(shown)
    terms = question_words(trajectory.query)
    out = []
    for d in trajectory.documents:
        p = best.get(d.doc_id)
        if p is None:
            continue
        out.append(to_evidence(p, d.score, "(recomputed from a saved trajectory) "
                               + passage_reason(p, terms, query=trajectory.query)))
        if len(out) == max_passages:
            break
    return out
