"""Every text the harness shows the model: system prompt, tool descriptions, notices, and the
observation format.

Observation format (stable: the LLM-free policies read it back through `read_chunks`, `read_usage`
and `is_hard_cutoff` below, and trajectory tools parse it from tool messages, so changing it is a
breaking change):

* Every chunk is rendered as

      <chunk id="{chunk_id}" doc="{doc_id}" title="{title}">
      {text}
      </chunk>

  Attribute values are written as they are, except a double quote, written `&quot;` (read them
  back with `unescape_attr`): ids a model copies carry no entities (`AT&T` stays `AT&T`), and a
  value still cannot close its attribute. A missing title is `title=""`. In the chunk text, the
  two sequences that could fake a chunk boundary, `<chunk` and `</chunk`, are written
  `&lt;chunk` and `&lt;/chunk`; nothing else in the text is changed. Blocks of one observation
  are separated by a blank line.
* A chunk pruned from view is replaced, wherever it was shown, by `<chunk id="{chunk_id}" pruned/>`.
* A refused or malformed call gets a tool message whose text starts with `Error: `.
* The final answer cites passages by chunk id: `<Passage id=CHUNK_ID><Justification>…</Justification></Passage>`
  blocks, best first (`context1.answer`; the older `<Document id=DOC_ID>` blocks are still read).
* After every turn, the last tool message of the turn ends with the usage line
  `[Token usage: 14,203/32,768]` (visible context tokens / T_budget).
"""

from __future__ import annotations

import re
from typing import NamedTuple

SEARCH_CORPUS = "search_corpus"
GREP_CORPUS = "grep_corpus"
READ_DOCUMENT = "read_document"
PRUNE_CHUNKS = "prune_chunks"
TOOL_NAMES = (SEARCH_CORPUS, GREP_CORPUS, READ_DOCUMENT, PRUNE_CHUNKS)

ERROR_PREFIX = "Error: "

SYSTEM_PROMPT = """\
You are a retrieval subagent. Given a query, search the corpus over several turns and return a \
ranked list of the passages that support answering it. Do not answer the question yourself: a \
downstream model reads the passages you return.

Tools (you may call several in one turn; they run in parallel):
- search_corpus(query): hybrid keyword + semantic search. Returns new chunks only: chunks you have \
already been shown never come back, so rephrase and follow leads to find more.
- grep_corpus(pattern): regular-expression (RE2) search over the chunk texts; up to {grep_k} new matching chunks.
- read_document(doc_id): the chunks of one document, most relevant to the query first, as many as fit.
- prune_chunks(chunk_ids): remove chunks you no longer need from your context, to make room.

Each chunk is shown as <chunk id="..." doc="..." title="...">text</chunk>. A pruned chunk appears \
as <chunk id="..." pruned/>. Your context holds at most {token_budget:,} tokens; after each turn you \
see [Token usage: used/total]. Past {hard_limit:,} tokens only prune_chunks is allowed: prune \
irrelevant chunks early and often, and conclude when you have what you need.

When you are done, reply with no tool call and only the passages that answer, most relevant \
first (at most {max_documents}). Cite each passage by the id attribute of its chunk (not its doc), \
exactly as you were shown it, one block per passage:
<Passage id=CHUNK_ID><Justification>1-3 sentences on what this passage contributes.</Justification></Passage>
Only chunks you were shown can be cited; other ids are dropped. Several passages of one document \
may be cited. For example, after being shown
<chunk id="harbour-report#4" doc="harbour-report" title="Harbour report">The new pier opened in 1998 ...</chunk>
<chunk id="town-history#0" doc="town-history" title="Town history">Mayor Ilse Varga ordered the pier ...</chunk>
the answer to "Who ordered the pier that opened in 1998?" is
<Passage id=town-history#0><Justification>Names Ilse Varga as the mayor who ordered the pier.</Justification></Passage>
<Passage id=harbour-report#4><Justification>Dates the pier's opening to 1998, tying it to the question.</Justification></Passage>
"""

TOOL_DESCRIPTIONS = {
    SEARCH_CORPUS: "Hybrid BM25 + dense search{reranked}. Returns the best chunks not yet shown to you.",
    GREP_CORPUS: "Regular-expression (RE2 syntax) search over chunk texts. Returns up to {grep_k} chunks not yet shown.",
    READ_DOCUMENT: "Read one document: its chunks, most relevant to the query first, truncated to fit your budget.",
    PRUNE_CHUNKS: "Remove chunks from your context by chunk id, freeing tokens. Pruned chunks stay excluded from searches.",
}

# Filled into the search_corpus description only when the corpus has a reranker (issue 8).
RERANKED = " with reranking"

NO_RESULTS = "No new chunks match (chunks already shown to you are excluded). Try other words, grep_corpus, or conclude."
NO_ROOM = (
    "Error: no room left for results ({available:,} tokens free of {token_budget:,}, and {reserve:,} are kept for your "
    "reply). Prune chunks you no longer need with prune_chunks, or give your final answer."
)
HARD_CUTOFF = (
    "Error: the context holds {used:,} tokens, past the hard limit of {limit:,} of {token_budget:,}. Only prune_chunks "
    "is allowed now: prune chunks you no longer need, or give your final answer."
)
SOFT_HINT = (
    "[Note: your context is past half of its {token_budget:,}-token budget. Prune chunks that do not help "
    "(prune_chunks), or conclude with the passages that answer.]"
)
TOO_MANY_CALLS = (
    "Error: not run: this turn has {n} tool calls and at most {limit} run per turn. Make fewer, "
    "better-chosen calls."
)
TRUNCATED = "[{omitted} more result(s) omitted to fit the token budget; prune chunks to see more.]"
USAGE_LINE = "[Token usage: {used:,}/{total:,}]"
# A search_corpus result's note (issue 34): the chunks already shown that this search matched again, with the rank
# it gave each. Dedup still keeps them out of the result; the note lets a driver count agreement between searches.
REFOUND_OPENING = "[Also matched, shown before: "


def system_prompt(*, token_budget: int, hard_limit: int, max_documents: int, grep_k: int) -> str:
    """The default system prompt, filled with this episode's limits."""
    return SYSTEM_PROMPT.format(
        token_budget=token_budget, hard_limit=hard_limit, max_documents=max_documents, grep_k=grep_k
    )


def usage_line(used: int, total: int) -> str:
    """`[Token usage: 14,203/32,768]`."""
    return USAGE_LINE.format(used=used, total=total)


def _attr(value: str) -> str:
    # Only the quote: it is the one character that could end the attribute (module docstring).
    return value.replace('"', "&quot;").replace("\n", " ")


def unescape_attr(value: str) -> str:
    """The inverse of the attribute escaping of `render_chunk`."""
    return value.replace("&quot;", '"')


def render_chunk(chunk_id: str, doc_id: str, title: str | None, text: str) -> str:
    """One chunk in the stable observation format (see the module docstring)."""
    safe = text.replace("<chunk", "&lt;chunk").replace("</chunk", "&lt;/chunk")
    return f'<chunk id="{_attr(chunk_id)}" doc="{_attr(doc_id)}" title="{_attr(title or "")}">\n{safe}\n</chunk>'


def render_pruned(chunk_id: str) -> str:
    """What replaces a pruned chunk in the model's view."""
    return f'<chunk id="{_attr(chunk_id)}" pruned/>'


# -- reading the format back (for the LLM-free policies and trajectory tools) ----------------------
_CHUNK_BLOCK = re.compile(
    r'<chunk id="(?P<id>[^"]*)" doc="(?P<doc>[^"]*)" title="(?P<title>[^"]*)">\n(?P<text>.*?)\n</chunk>', re.S
)
_REFOUND_ENTRY = re.compile(r'"([^"]*)" \(rank (\d+)\)')
_USAGE = re.compile(r"\[Token usage: ([\d,]+)/([\d,]+)\]")
_HARD_CUTOFF_OPENING = HARD_CUTOFF.split("{", 1)[0]


class ShownChunk(NamedTuple):
    """One chunk as an observation showed it (the fields of `render_chunk`)."""

    chunk_id: str
    doc_id: str
    title: str
    text: str


def read_chunks(text: str) -> list[ShownChunk]:
    """The chunks a tool message shows, in order: the inverse of `render_chunk` (pruned ones are gone)."""
    return [
        ShownChunk(unescape_attr(m["id"]), unescape_attr(m["doc"]), unescape_attr(m["title"]), m["text"])
        for m in _CHUNK_BLOCK.finditer(text)
    ]


def render_refound(refound: list[tuple[str, int]]) -> str:
    """`[Also matched, shown before: "a#3" (rank 1), "b#0" (rank 4)]`; "" for none."""
    if not refound:
        return ""
    return REFOUND_OPENING + ", ".join(f'"{_attr(cid)}" (rank {rank})' for cid, rank in refound) + "]"


def read_refound(text: str) -> list[tuple[str, int]]:
    """The (chunk id, rank) pairs of a tool message's re-found note (`render_refound`); [] without one."""
    start = text.rfind(REFOUND_OPENING)
    if start < 0:
        return []
    line = text[start + len(REFOUND_OPENING):].split("\n", 1)[0]
    return [(unescape_attr(m[1]), int(m[2])) for m in _REFOUND_ENTRY.finditer(line)]


def read_usage(text: str) -> tuple[int, int] | None:
    """(tokens used, budget) of the usage line in a tool message (`usage_line`), None without one."""
    m = _USAGE.search(text)
    return (int(m[1].replace(",", "")), int(m[2].replace(",", ""))) if m else None


def is_hard_cutoff(text: str) -> bool:
    """Whether a tool message is the harness refusing a call past the hard limit (`HARD_CUTOFF`)."""
    return text.startswith(_HARD_CUTOFF_OPENING)
