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

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from corpus_tools.chunk_context import contextual_header
from corpus_tools.doc_metadata import DOCUMENT_KEYS
from corpus_tools.types import Chunk, Document, DocumentPart, Tokenizer

# Texts longer than this are tokenised piecewise (see token_spans); 100k characters is ~25k tokens.
TOKENIZE_WINDOW_CHARS = 100_000
_LIST_TOKENS = 200_000
# Text regions shorter than this (characters) join the region after them (see _regions).
TINY_REGION_CHARS = 120
# A paragraph shorter than this right before a table is the table's lead-in and is chunked with it.
LEAD_IN_CHARS = 600

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
    """

    chunk_tokens: int = 256
    overlap_tokens: int = 32

    def __post_init__(self) -> None:
        if not isinstance(self.chunk_tokens, int) or self.chunk_tokens < 1:
            raise ValueError(f"chunk_tokens must be a positive integer, got {self.chunk_tokens!r}")
        if not isinstance(self.overlap_tokens, int) or not 0 <= self.overlap_tokens < self.chunk_tokens:
            raise ValueError(
                f"overlap_tokens must be an integer in [0, chunk_tokens={self.chunk_tokens}), got {self.overlap_tokens!r}"
            )


def chunk_document(doc: Document, tokenizer: Tokenizer, config: ChunkingConfig) -> list[Chunk]:
    """The chunks of one document, in order; none for a whitespace-only document.

    A document with `parts` (a laid-out PDF) is chunked part by part: see `chunk_parts`.
    """
    text = doc.text
    if not text.strip():
        return []
    if doc.parts:
        return chunk_parts(doc, tokenizer, config)
    metadata = {**doc.metadata, "title": doc.title if doc.title is not None else ""}
    if any(metadata.get(key) for key in DOCUMENT_KEYS):
        # A document whose cover was read (a PDF read flat, an HTML filing): a header without a section.
        metadata["header"] = contextual_header(metadata)
    spans = list(_windows(text, token_spans(text, tokenizer), config.chunk_tokens, config.overlap_tokens))
    chunks = []
    for position, (start, end, n_tokens) in enumerate(_fit(text, spans, tokenizer, config.chunk_tokens)):
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


def chunk_parts(doc: Document, tokenizer: Tokenizer, config: ChunkingConfig) -> list[Chunk]:
    """Chunks of a document with parts: text windows within a section, tables by whole rows.

    Consecutive text parts of one section form one region (a paragraph may run across a page
    break); every table is a region of its own. Text regions are windowed as plain documents are;
    table regions are cut only between rows, so a row is never split and, since every chunk of
    the table carries the table's caption, columns and units in its header, never separated
    from its headers. Each chunk's metadata adds "page" (where it starts), "section", "kind" and
    "header" (chunk_context.contextual_header); the window leaves room for the header's tokens,
    so the embedder sees header and text whole.
    """
    base = {**doc.metadata, "title": doc.title if doc.title is not None else ""}
    pieces: list[tuple[int, int, int, dict]] = []
    for region in _regions(doc.parts):
        own = region[-1]  # a tiny lead-in was re-labelled; the region's own part is the last
        header = contextual_header(base, own.section, own.context if own.kind == "table" else "")
        budget = max(config.chunk_tokens // 4, config.chunk_tokens - tokenizer.count(header) - 1)
        start, end = region[0].start, region[-1].end
        if own.kind == "table":
            spans = _row_spans(doc.text, start, end, tokenizer, budget)
        else:
            region_text = doc.text[start:end]
            overlap = min(config.overlap_tokens, budget - 1)
            local = _windows(region_text, token_spans(region_text, tokenizer), budget, overlap)
            spans = [(start + a, start + b, n) for a, b, n in _fit(region_text, list(local), tokenizer, budget)]
        for a, b, n in spans:
            page = next((p.page for p in region if p.start <= a < p.end), region[0].page)
            meta = {"page": page, "section": own.section, "kind": own.kind, "header": header}
            pieces.append((a, b, n, {k: v for k, v in meta.items() if v not in (None, "")}))
    return [
        Chunk(f"{doc.doc_id}#{i}", doc.doc_id, doc.text[a:b], i, n, {**base, **meta})
        for i, (a, b, n, meta) in enumerate(pieces)
        if doc.text[a:b].strip()
    ]


def _regions(parts: Iterable[DocumentPart]) -> Iterator[list[DocumentPart]]:
    """Runs of parts chunked together: consecutive text parts of one section; each table alone.

    A run of text shorter than TINY_REGION_CHARS (a heading alone, a page's running head) is not
    a chunk of its own: it joins the run after it, whose section and kind the chunk takes. The
    paragraph just before a table (under LEAD_IN_CHARS) joins the table: on the 10-Qs, a table
    chunked apart from its lead-in lost figures-in-top-5 (0.31 → 0.19 on the tuning half).
    """
    run: list[DocumentPart] = []
    for part in parts:
        if run and (part.kind == "table" or run[-1].kind == "table" or part.section != run[-1].section):
            tiny = run[-1].kind == "text" and run[-1].end - run[0].start < TINY_REGION_CHARS
            lead_in: list[DocumentPart] = []
            if not tiny and part.kind == "table" and run[-1].kind == "text" and len(run) > 1 and \
                    run[-1].end - run[-1].start < LEAD_IN_CHARS:
                # The paragraph introducing a table ("…gross margin … were as follows (in millions):")
                # says what its figures are: it goes with the table, not into the text before.
                lead_in = [run.pop()]
            elif not tiny and part.kind == "table" and run[-1].kind == "text" and \
                    run[-1].end - run[0].start < LEAD_IN_CHARS:
                lead_in, run = run, []
            if not tiny:
                if run:
                    yield run
                run = lead_in
            if run:
                # Re-label the text as part of what follows (its section, its kind and context).
                run = [DocumentPart(p.start, p.end, p.page, part.section, part.kind, part.context) for p in run]
        run.append(part)
    if run:
        yield run


def _row_spans(text: str, start: int, end: int, tokenizer: Tokenizer, budget: int) -> list[tuple[int, int, int]]:
    """(start, end, tokens) of row-aligned pieces of a table: as many whole lines as fit in `budget`.

    A single line longer than the budget (a very wide row) is windowed alone, the only case where
    a row is cut.
    """
    spans: list[tuple[int, int, int]] = []
    lines: list[tuple[int, int, int]] = []
    pos = start
    for raw in text[start:end].split("\n"):
        if raw.strip():
            lines.append((pos, pos + len(raw), tokenizer.count(raw)))
        pos += len(raw) + 1
    piece_start = piece_end = -1
    piece_tokens = 0
    for a, b, n in lines:
        if piece_start >= 0 and piece_tokens + n + 1 > budget:
            spans.append((piece_start, piece_end, tokenizer.count(text[piece_start:piece_end])))
            piece_start = -1
        if n > budget:
            line_text = text[a:b]
            local = _windows(line_text, token_spans(line_text, tokenizer), budget, 0)
            spans.extend((a + x, a + y, m) for x, y, m in _fit(line_text, list(local), tokenizer, budget))
            continue
        if piece_start < 0:
            piece_start, piece_tokens = a, 0
        piece_end = b
        piece_tokens += n + 1
    if piece_start >= 0:
        spans.append((piece_start, piece_end, tokenizer.count(text[piece_start:piece_end])))
    return spans


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


def _windows(text: str, offsets: np.ndarray, size: int, overlap: int) -> Iterator[tuple[int, int]]:
    """Character spans of the token windows."""
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
        end = _best_end(text, tokens, start, start + size, size)
        yield int(tokens[start][0]), int(tokens[end - 1][1])
        start = _next_start(text, tokens, start, end, overlap)


def _best_end(text: str, tokens: list[tuple[int, int]], start: int, limit: int, size: int) -> int:
    """Exclusive token index ending the window [start, limit): the best boundary in its last quarter."""
    lowest = max(start + 1, limit - max(1, int(size * _BOUNDARY_SEARCH_FRACTION)))
    best, best_rank = limit, -1
    # Walk back from the limit; the first boundary of the highest class found wins (the latest one).
    for end in range(limit, lowest - 1, -1):
        rank = _boundary_rank(text, tokens[end - 1], tokens[end])
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
