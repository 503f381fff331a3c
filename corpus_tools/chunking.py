"""Chunking: documents → token-bounded, overlapping windows that are exact slices of the text.

Windows are measured in the embedding model's tokens (via `Tokenizer.offsets`), so no chunk is
silently truncated by the embedder. A window ends, by preference, at a paragraph break, else at a
sentence end, else at a line break, else between words, as long as that boundary lies in the last
quarter of the window; only a single "word" longer than that quarter is cut mid-word. The next
window starts `overlap_tokens` before the end, moved forward to the start of a word. Chunk text is
`text[start:end]` of the source, so verbatim quotes found in a chunk occur in the document too.
Everything is a pure function of (text, tokenizer, config): the same input gives the same chunks.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from corpus_tools.chunk_context import contextual_header
from corpus_tools.corpus_kind import opening_speaker
from corpus_tools.defined_names import DEFINES_SEPARATOR
from corpus_tools.doc_metadata import DOCUMENT_KEYS
from corpus_tools.types import Chunk, Document, DocumentPart, Tokenizer

# Texts longer than this are tokenised piecewise (see token_spans); 100k characters is ~25k tokens.
TOKENIZE_WINDOW_CHARS = 100_000
_LIST_TOKENS = 200_000
# Text regions shorter than this (characters) join the region after them (see _regions).
TINY_REGION_CHARS = 120

# A boundary is looked for in the last quarter of a window: late enough that chunks stay near
# full size, early enough that most windows can end on a sentence.
_BOUNDARY_SEARCH_FRACTION = 0.25
_SENTENCE_END = (".", "!", "?", "。", "！", "？")
_CLOSERS = "\"')]}»”’"


@dataclass(frozen=True)
class ChunkingConfig:
    """How documents are split.

    chunk_tokens: the most tokens in a chunk. 256 is all-MiniLM-L6-v2's max sequence length, so
        the default embedder sees every token of every chunk (SPEC §1's public-benchmark corpora
        used 512 with a longer-context embedder).
    overlap_tokens: tokens shared by consecutive chunks of a document, so a fact cut by a window
        boundary is whole in at least one chunk. 32 = 1/8 of the window.
    turn_starts: in a transcript (a document most of whose lines open with a speaker, "Name: text":
        `is_transcript`), a window ends, by preference, where a turn ends (before the next "Name: "
        line, as at a paragraph break), and the next starts at a turn: the last one starting in the
        window's last 2 × overlap_tokens, else the one the window ends before, else (a turn longer than
        the window) as in prose. So a passage opens with who is talking. False = prose windows (on
        QMSum's tuning meetings 10 % of chunks then start at a turn).
    """

    chunk_tokens: int = 256
    overlap_tokens: int = 32
    turn_starts: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.chunk_tokens, int) or self.chunk_tokens < 1:
            raise ValueError(f"chunk_tokens must be a positive integer, got {self.chunk_tokens!r}")
        if not isinstance(self.overlap_tokens, int) or not 0 <= self.overlap_tokens < self.chunk_tokens:
            raise ValueError(
                f"overlap_tokens must be an integer in [0, chunk_tokens={self.chunk_tokens}), got {self.overlap_tokens!r}"
            )
        if not isinstance(self.turn_starts, bool):
            raise ValueError(f"turn_starts must be true or false, got {self.turn_starts!r}")


def chunk_document(doc: Document, tokenizer: Tokenizer, config: ChunkingConfig) -> list[Chunk]:
    """The chunks of one document, in order; none for a whitespace-only document.

    A document with `parts` (a laid-out PDF) is chunked part by part: see `chunk_parts`.
    """
    text = doc.text
    if not text.strip():
        return []
    if doc.parts and all(p.kind == "turn" for p in doc.parts):
        return chunk_turns(doc, tokenizer, config)
    if doc.parts:
        return chunk_parts(doc, tokenizer, config)
    metadata = {**doc.metadata, "title": doc.title if doc.title is not None else ""}
    if any(metadata.get(key) for key in DOCUMENT_KEYS):
        # A document whose cover was read (a PDF read flat, an HTML filing): a header without a section.
        metadata["header"] = contextual_header(metadata)
    chunks = []
    for position, (start, end, n_tokens) in enumerate(_plain_spans(text, tokenizer, config)):
        piece = text[start:end]
        chunks.append(
            Chunk(
                chunk_id=f"{doc.doc_id}#{position}",
                doc_id=doc.doc_id,
                text=piece,
                position=position,
                n_tokens=n_tokens,
                metadata=dict(metadata),
            )
        )
    return chunks


def is_transcript(text: str, sample_lines: int = 200) -> bool:
    """Whether most of the first `sample_lines` non-blank lines of `text` open with a speaker ("Name: text",
    `corpus_kind.opening_speaker`), two speakers or more: a meeting transcript or a chat session."""
    lines = []
    for line in text.splitlines():
        if line.strip():
            lines.append(line)
            if len(lines) >= sample_lines:
                break
    speakers = [s for line in lines if (s := opening_speaker(line))]
    return len(lines) >= 2 and 2 * len(speakers) >= len(lines) and len(set(speakers)) >= 2


def _plain_spans(text: str, tokenizer: Tokenizer, config: ChunkingConfig) -> list[tuple[int, int, int]]:
    """(start, end, n_tokens) of the windows of a text without parts."""
    offsets = token_spans(text, tokenizer)
    turns = config.turn_starts and is_transcript(text)
    spans = list(_windows(text, offsets, config.chunk_tokens, config.overlap_tokens, turns))
    if spans == [(0, len(text))] and len(text) <= TOKENIZE_WINDOW_CHARS and len(offsets) <= config.chunk_tokens:
        # One window that is the whole text, tokenised once already: its count is known. (Most
        # records of a large corpus are one chunk; counting them again was a third of a build.)
        return [(0, len(text), len(offsets))]
    return _fit(text, spans, tokenizer, config.chunk_tokens)


def chunk_turns(doc: Document, tokenizer: Tokenizer, config: ChunkingConfig) -> list[Chunk]:
    """Chunks of a transcript (parts of kind "turn": corpus_tools/transcripts.py): the windows plain text gets,
    each saying where it is. Metadata adds "section", the start time of the turn the chunk starts in (what
    `ask` prints beside a passage, as a filing's section), and "speakers", the speakers of the turns it
    overlaps, first-heard first, joined by ", " (the speaker of a turn the chunk starts inside included,
    though its name line lies in the chunk before).

    The windows are those of the same text read as a .txt file, so a transcript exported both ways is
    searched alike.
    """
    metadata = {**doc.metadata, "title": doc.title if doc.title is not None else ""}
    parts = doc.parts
    starts = [p.start for p in parts]
    chunks = []
    for position, (a, b, n_tokens) in enumerate(_plain_spans(doc.text, tokenizer, config)):
        first = max(0, bisect_right(starts, a) - 1)
        touched = parts[first:bisect_left(starts, b)] or [parts[first]]  # the turns starting before the chunk ends
        speakers = list(dict.fromkeys(p.context for p in touched if p.context))
        meta = dict(metadata)
        if parts[first].section:
            meta["section"] = parts[first].section
        if any(metadata.get(key) for key in DOCUMENT_KEYS):
            # An earnings call (call_reader.py): title · company · quarter · section, as a filing's chunk says them.
            meta["header"] = contextual_header(metadata, parts[first].section)
        if speakers:
            meta["speakers"] = ", ".join(speakers)
        chunks.append(Chunk(f"{doc.doc_id}#{position}", doc.doc_id, doc.text[a:b], position, n_tokens, meta))
    return chunks


def chunk_parts(doc: Document, tokenizer: Tokenizer, config: ChunkingConfig) -> list[Chunk]:
    """Chunks of a document with parts: windows within a section, cut between table rows.

    The parts of one section form one region (a paragraph may run across a page break), tables
    included: a table's figures stay in the windows of the prose that explains them (chunked
    apart, tables lost figures-in-top-5 on the 10-Q tuning half, 0.31 → 0.19). A table is one row
    a line and windows end at line ends, and a window starting inside a table starts at a row, so a
    row is never split; every chunk holding rows of a table carries the table's caption, columns
    and units in its header, so a row is never indexed apart from its headers. Each chunk's
    metadata adds "page" (where it starts), "section", "kind" ("table" when it holds table rows)
    and "header" (chunk_context.contextual_header); the window leaves room for the header's
    tokens, so the embedder sees header and text whole. A chunk holding the place where a part defines a
    name (DocumentPart.defines: a documentation entry's opening line) adds "defines", its names joined
    by DEFINES_SEPARATOR, first-defined first, and "programs" for those a `.. program::` governs
    (DocumentPart.programs: "--timeout dmypy", joined alike).
    """
    base = {**doc.metadata, "title": doc.title if doc.title is not None else ""}
    text = doc.text
    pieces: list[tuple[int, int, int, dict]] = []
    for region in _regions(doc.parts):
        section = region[-1].section
        tables = [p for p in region if p.kind == "table"]
        widest = max((tokenizer.count(p.context) for p in tables), default=0)
        room = tokenizer.count(contextual_header(base, section)) + min(widest, config.chunk_tokens // 4) + 2
        budget = max(config.chunk_tokens // 4, config.chunk_tokens - room)
        start, end = region[0].start, region[-1].end
        region_text = text[start:end]
        overlap = min(config.overlap_tokens, budget - 1)
        # a table's rows, as spans of the region's text: a window never ends inside one at a "sentence" ("P.J."),
        # only at a line end, when the window's last quarter holds one
        rows = [(p.start - start, p.end - start) for p in tables]
        local = _windows(region_text, token_spans(region_text, tokenizer), budget, overlap, rows=rows)
        for a, b, n in _fit(region_text, list(local), tokenizer, budget):
            a, b = start + a, start + b
            row_start = _row_start(text, a, b, tables)
            if row_start != a:
                a, n = row_start, tokenizer.count(text[row_start:b])
            table = next((p for p in tables if p.start < b and a < p.end), None)
            header = contextual_header(base, section, table.context if table else "")
            page = next((p.page for p in region if p.start <= a < p.end), region[0].page)
            meta = {"page": page, "section": section, "kind": "table" if table else "text", "header": header}
            defined = [name for p in region for at, name in p.defines if a <= at < b]
            if defined:
                meta["defines"] = DEFINES_SEPARATOR.join(dict.fromkeys(defined))
            # each option name an entry under a `.. program::` defines here, with its program ("--timeout dmypy"):
            # the passage's text stays Sphinx's ("--timeout TIMEOUT"), datagen asks "Which dmypy option …?"
            owned = [f"{name} {program}" for p in region for at, program in p.programs if a <= at < b
                     for at2, name in p.defines if at2 == at]
            if owned:
                meta["programs"] = DEFINES_SEPARATOR.join(dict.fromkeys(owned))
            pieces.append((a, b, n, {k: v for k, v in meta.items() if v not in (None, "")}))
    return [
        Chunk(f"{doc.doc_id}#{i}", doc.doc_id, text[a:b], i, n, {**base, **meta})
        for i, (a, b, n, meta) in enumerate(pieces)
        if text[a:b].strip()
    ]


def _row_start(text: str, a: int, b: int, tables: list[DocumentPart]) -> int:
    """`a`, moved to the start of the next row when a window's overlap starts it inside a table row."""
    if a == 0 or text[a - 1] == "\n" or not any(p.start < a < p.end for p in tables):
        return a
    nxt = text.find("\n", a, b)
    return nxt + 1 if 0 <= nxt < b - 1 else a


def _regions(parts: Iterable[DocumentPart]) -> Iterator[list[DocumentPart]]:
    """Runs of parts chunked together: consecutive parts of one section, tables included.

    A run of text shorter than TINY_REGION_CHARS (a heading alone, a page's running head) is not
    a region of its own: it joins the run after it, whose section the chunk takes.
    """
    run: list[DocumentPart] = []
    for part in parts:
        if run and part.section != run[-1].section:
            if run[-1].end - run[0].start >= TINY_REGION_CHARS or any(p.kind == "table" for p in run):
                yield run
                run = []
            else:
                run = [replace(p, section=part.section) for p in run]
        run.append(part)
    if run:
        yield run


def chunk_documents(docs: Iterable[Document], tokenizer: Tokenizer, config: ChunkingConfig) -> Iterator[Chunk]:
    """The chunks of every document, lazily, document by document."""
    for doc in docs:
        yield from chunk_document(doc, tokenizer, config)


def token_spans(text: str, tokenizer: Tokenizer) -> np.ndarray:
    """(start, end) character span of every token of `text`, as an (N, 2) int64 array.

    Long texts are tokenised in windows of about TOKENIZE_WINDOW_CHARS cut at whitespace: one
    call on a 20 MB document built ~5M Python offset tuples and the tokenizer's whole encoding at
    once (gigabytes); the array costs 16 bytes a token.
    """
    if len(text) <= TOKENIZE_WINDOW_CHARS:
        return np.asarray(tokenizer.offsets(text), dtype=np.int64).reshape(-1, 2)
    parts, start = [], 0
    while start < len(text):
        end = min(start + TOKENIZE_WINDOW_CHARS, len(text))
        if end < len(text):
            floor = start + TOKENIZE_WINDOW_CHARS // 2
            cut = max(text.rfind(" ", floor, end), text.rfind("\n", floor, end))
            if cut > start:
                end = cut
        spans = np.asarray(tokenizer.offsets(text[start:end]), dtype=np.int64).reshape(-1, 2)
        parts.append(spans + start)
        start = end
    return np.concatenate(parts) if parts else np.zeros((0, 2), dtype=np.int64)


def _windows(text: str, offsets: np.ndarray, size: int, overlap: int, turns: bool = False,
             rows: Sequence[tuple[int, int]] = ()) -> Iterator[tuple[int, int]]:
    """Character spans of the token windows. rows: spans of `text` that are tables (one row a line)."""
    offsets = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    # Some tokenizers report zero-width spans (e.g. for dropped characters); they cannot bound a chunk.
    kept = offsets[offsets[:, 1] > offsets[:, 0]]
    # Plain lists index faster; a huge document stays a compact array.
    tokens = kept.tolist() if len(kept) <= _LIST_TOKENS else kept
    if not len(tokens):
        stripped = text.strip()
        start = text.index(stripped[0])
        yield start, start + len(stripped)
        return
    n = len(tokens)
    start = 0
    while True:
        if n - start <= size:
            yield int(tokens[start][0]), int(tokens[n - 1][1])
            return
        end = _best_end(text, tokens, start, start + size, size, turns, rows)
        yield int(tokens[start][0]), int(tokens[end - 1][1])
        start = (_next_turn(text, tokens, start, end, overlap) if turns else None) \
            or (_cut_row(text, tokens, start, end, rows) if rows else None) \
            or _next_start(text, tokens, start, end, overlap)


def _best_end(text: str, tokens: list[tuple[int, int]], start: int, limit: int, size: int, turns: bool = False,
              rows: Sequence[tuple[int, int]] = ()) -> int:
    """Exclusive token index ending the window [start, limit): the best boundary in its last quarter. Inside a
    table (`rows`) a line end is the best boundary: a row's "P.J." or "No." ends no sentence, and a window cut
    there left a row's first cell alone at its end (session 52: 3,010 of 6,736 row lines on the workbooks)."""
    lowest = max(start + 1, limit - max(1, int(size * _BOUNDARY_SEARCH_FRACTION)))
    best, best_rank = limit, -1
    # Walk back from the limit; the first boundary of the highest class found wins (the latest one).
    for end in range(limit, lowest - 1, -1):
        rank = 4 if turns and _turn_starts_at(text, tokens, end) else _boundary_rank(text, tokens[end - 1], tokens[end])
        if rows and rank == 3 and any(a <= int(tokens[end][0]) < b for a, b in rows):
            # inside a table: a line end ("… Inc.\n") is a row's end, any other gap a word gap, not a sentence's end
            rank = 2 if "\n" in text[tokens[end - 1][1]:tokens[end][0]] else 1
        if rank > best_rank:
            best, best_rank = end, rank
            if rank == 4:
                break
    return best


def _boundary_rank(text: str, left: tuple[int, int], right: tuple[int, int]) -> int:
    """How good the gap between two tokens is as a cut: 4 paragraph, 3 sentence, 2 line, 1 word, 0 mid-word."""
    gap = text[left[1] : right[0]]
    if not gap:
        return 0  # "play|ing", "word|."
    if gap.count("\n") >= 2:
        return 4
    # The left token ends a sentence: "end." or a closer after one ('end."', "end.)").
    if text[max(0, left[0] - 3) : left[1]].rstrip(_CLOSERS).endswith(_SENTENCE_END):
        return 3
    return 2 if "\n" in gap else 1


def _cut_row(text: str, tokens: list[tuple[int, int]], start: int, end: int, rows: Sequence[tuple[int, int]]) -> int | None:
    """First token of the next window when this one ends inside a table row (a row longer than the window's last
    quarter): the row's first token, so the row is whole in the next window (before, the next window skipped to the
    row after it, and the rest of the row was in no passage); None when the window ends at a line end or the row
    began before the window did."""
    at = int(tokens[end][0])
    if text[int(tokens[end - 1][1]):at].count("\n") or not any(a <= at < b for a, b in rows):
        return None
    line = text.rfind("\n", 0, at) + 1
    k = end - 1
    while k > start and int(tokens[k][0]) > line:
        k -= 1
    return k if k > start and int(tokens[k][0]) == line else None


def _turn_starts_at(text: str, tokens: list[tuple[int, int]], i: int) -> bool:
    """Whether token i opens a line that opens with a speaker ("Name: ")."""
    at = int(tokens[i][0])
    return at > 0 and text[at - 1] == "\n" and bool(opening_speaker(text[at:at + 80]))


def _next_turn(text: str, tokens: list[tuple[int, int]], start: int, end: int, overlap: int) -> int | None:
    """First token of the next window of a transcript: the last turn starting in the window's last 2 × overlap
    tokens (a short turn cut from the window's end is whole in the next), else the turn the window ends before;
    None when neither is (inside a long turn)."""
    for candidate in range(end - 1, max(start, end - 2 * overlap), -1):
        if _turn_starts_at(text, tokens, candidate):
            return candidate
    return end if end < len(tokens) and _turn_starts_at(text, tokens, end) else None


def _next_start(text: str, tokens: list[tuple[int, int]], start: int, end: int, overlap: int) -> int:
    """First token of the next window: `overlap` tokens back from `end`, moved forward to a word start."""
    first = max(start + 1, end - overlap)
    for candidate in range(first, end):
        if tokens[candidate][0] > tokens[candidate - 1][1]:  # whitespace before it: a word starts here
            return candidate
    return first


def _fit(text: str, spans: list[tuple[int, int]], tokenizer: Tokenizer, size: int) -> list[tuple[int, int, int]]:
    """(start, end, n_tokens) of each span, shrunk if its text alone re-tokenizes to more than `size`.

    Cutting inside a word ("…iz|ation") can re-tokenize into more pieces than the window held; such
    a span is trimmed from the end until it fits (rare: only words longer than a quarter window).
    """
    fitted = []
    for start, end in spans:
        count = tokenizer.count(text[start:end])
        while count > size:
            offsets = tokenizer.offsets(text[start:end])
            new_end = start + offsets[size - 1][1]
            end = new_end if new_end < end else end - 1
            count = tokenizer.count(text[start:end])
        fitted.append((start, end, count))
    return fitted
