"""Fixtures of the datagen tests: the invented linked corpus of tests/fixtures/datagen_corpus.

Its documents form one 5-document chain by titles (Marrow Lighthouse → Ilsa Venn → Kestrel
Institute → Orvald Pike → Tarn), a painter/cathedral side branch, a document that names nothing,
a look-alike distractor, two German documents and a Japanese one.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from corpus_tools import load_documents
from corpus_tools.chunking import ChunkingConfig, chunk_documents
from corpus_tools.types import Chunk, Document
from datagen.factbase import FactBase
from datagen.mining import MinedCorpus, mine
from datagen.natural import NaturalConfig, NaturalGenerator
from datagen.nlp import load_pipeline
from datagen.relations import read_facts
from datagen.table_facts import is_table, table_facts
from datagen.types import Candidate, DropReason
from datagen.verify import check_candidate

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "datagen_corpus" / "docs.jsonl"


def fixture_documents() -> list[Document]:
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Document(r["doc_id"], r["text"], r["title"]) for r in rows]


# a page resolver that finds no page: what a fact's target is when no title names it
NO_PAGE = lambda name, proper=True, context=None: ""  # noqa: E731


def titled_chunks(docs: dict[str, tuple[str, str]]) -> list[Chunk]:
    """doc id → (title, text): one chunk per document, the title in its metadata."""
    return [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": t}) for d, (t, text) in docs.items()]


def as_chunks(docs: list[Document]) -> list[Chunk]:
    """One chunk per document (what a 256-token index makes of these short texts)."""
    return [
        Chunk(f"{d.doc_id}#0", d.doc_id, d.text, 0, len(d.text.split()), {"title": d.title or ""}) for d in docs
    ]


class NoProseGenerator:
    """The natural generator of a corpus whose prose gives nothing: every task the filings' or the report
    forms' generators wrap it with is theirs."""

    stages: Counter = Counter()

    def propose(self, hops: int, rng: random.Random) -> DropReason:
        return DropReason.NO_CHAIN

    def commit(self, candidate: object) -> None:
        pass

    def exhausted(self, hops: int) -> str:
        return "no prose facts"


# three dated sessions of one chat export (the date in the title, as a user exports them)
CHAT_S1 = "John & Maria, session 1 (1:56 pm on 8 May, 2023)"
CHAT_S2 = "John & Maria, session 2 (3:10 pm on 25 May, 2023)"
CHAT_S3 = "John & Maria, session 3 (9:02 am on 14 June, 2023)"


def chat_chunks(docs: list[tuple[str, str, str]]) -> list[Chunk]:
    """(doc id, title, "speaker: text" lines) → one passage a line, as a long session is indexed: a session's use
    cap counts its passages."""
    return [
        Chunk(f"{d}#{i}", d, line, i, len(line.split()), {"title": title})
        for d, title, text in docs for i, line in enumerate(text.split("\n"))
    ]


def chat_questions(docs: list[tuple[str, str, str]], n: int = 200) -> dict[str, Candidate]:
    """question → Candidate: the natural generator's single-hop questions over `chat_chunks(docs)`, `n` draws of
    seed 0, each committed and each checked to pass the verifier."""
    return generate_single_hop(chat_chunks(docs), n)[1]


def chat_sets_asked(docs: list[tuple[str, str, str]], config: NaturalConfig | None = None) -> dict[str, Candidate]:
    """question → Candidate: the two-hop "list" questions (sets told over sessions) of the natural generator over
    `chat_chunks(docs)`, 30 draws of seed 0, each committed and each checked to pass the verifier."""
    chunks = chat_chunks(docs)
    mined = mine(chunks)
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline()), config)
    rng = random.Random(0)
    out: dict[str, Candidate] = {}
    for _ in range(30):
        c = gen.propose(2, rng)
        if isinstance(c, Candidate) and c.metadata.get("form") == "list":
            gen.commit(c)
            verdict = check_candidate(c, {d: mined.doc_text(d) for d in c.doc_ids},
                                      {ch.chunk_id: ch.text for ch in chunks}, mined.titles)
            assert verdict.accepted, (c.question, verdict.details)
            out[c.question] = c
    return out


def generate_single_hop(chunks: list[Chunk], n: int = 200, config: NaturalConfig | None = None,
                        **read: bool) -> tuple[NaturalGenerator, dict[str, Candidate]]:
    """The natural generator over `chunks` (`config`, and `read` passed to read_facts: a reader's flag) and its
    single-hop questions (question → Candidate), `n` draws of seed 0, each committed and each checked to pass the
    verifier."""
    mined = mine(chunks)
    gen = NaturalGenerator(mined, read_facts(mined, load_pipeline(), **read), config)
    rng = random.Random(0)
    out: dict[str, Candidate] = {}
    for _ in range(n):
        c = gen.propose(1, rng)
        if isinstance(c, Candidate):
            gen.commit(c)
            out[c.question] = c
            verdict = check_candidate(c, {d: mined.doc_text(d) for d in c.doc_ids},
                                      {ch.chunk_id: ch.text for ch in chunks}, mined.titles)
            assert verdict.accepted, (c.question, verdict.details)
    return gen, out


class WordTokenizer:
    """One token a whitespace-separated word: chunk sizes a test can count by eye, no model loaded."""

    def offsets(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in re.finditer(r"\S+", text)]

    def count(self, text: str) -> int:
        return len(text.split())


def folder_chunks(folder: Path) -> list[Chunk]:
    """A fixture folder of pages read by the real readers and chunked (a word a token); nothing may be skipped."""
    report = load_documents(folder)
    assert not report.skipped
    return list(chunk_documents(report.documents, WordTokenizer(), ChunkingConfig()))


def table_fact_base(chunks: list[Chunk]) -> tuple[MinedCorpus, FactBase]:
    """The corpus mined and a fact base holding only its table rows' facts (no parse: the filings tests)."""
    mined = mine(chunks)
    base = FactBase()
    for doc, cs in mined.chunks.items():
        for c in cs:
            if is_table(c.metadata):
                base.facts.setdefault(doc, []).extend(table_facts(c, str(c.metadata.get("company", "")), base.skipped))
    return mined, base


def release_fact_base(chunks: list[Chunk]) -> tuple[MinedCorpus, FactBase]:
    """The fact base as datagen.relations builds it for tables: the company from datagen.release_facts."""
    from datagen.release_facts import filing_company

    mined = mine(chunks)
    base = FactBase()
    for doc, cs in mined.chunks.items():
        for c in cs:
            if is_table(c.metadata):
                company = filing_company(c.metadata, [x.text for x in cs[:4]], mined.titles.get(doc, ""))
                base.facts.setdefault(doc, []).extend(table_facts(c, company, base.skipped))
    return mined, base


# --- meetings: the readers of datagen.meeting_statements / meeting_decisions / meeting_replies -----------------

def paren_meeting(lines: list[str]) -> str:
    """A "(PERSONn) text" meeting: `lines`, then thirty short turns of three speakers (a meeting runs long)."""
    fill = [f"(PERSON{1 + i % 3}) Okay.\nYeah." for i in range(30)]
    return "\n".join([*lines, *fill])


def meeting_chunks(docs: dict[str, str]) -> list[Chunk]:
    """Each document of `docs` (id → text) as one chunk with no title."""
    return [Chunk(f"{d}#0", d, text, 0, len(text.split()), {"title": ""}) for d, text in docs.items()]


def read_meeting(reader, docs: dict[str, str], tags: set[str]) -> tuple[dict[str, str], Counter]:
    """question → answer of what `reader` (`statement_facts`, `decision_facts`, `meeting_reply_facts`) reads in
    `docs`, every document a meeting here, and its skips. tags: the folded speaker labels that name no one."""
    mined = mine(meeting_chunks(docs))
    skipped: Counter = Counter()
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    found = reader(mined.chunks, list(texts), texts, tags, skipped)
    return {f.ask.replace("{s}", f.subject): f.answer for fs in found.values() for f in fs}, skipped


def facts_asked(reader, chunks: list[Chunk], skipped: Counter | None = None, **kw) -> tuple[dict[str, str], Counter]:
    """question → answer of what a per-chunk documentation reader (`option_facts`, `reference_facts`) reads in
    `chunks`, and its skips (into `skipped` when given)."""
    skipped = Counter() if skipped is None else skipped
    return {f.ask.replace("{s}", f.subject): f.answer for c in chunks for f in reader(c, skipped, **kw)}, skipped


def sheet_table(chunk_id: str, source: str, sheet: str, head: str, rows: str, *, at: int = 0, title: str = "",
                continued: bool = False) -> Chunk:
    """A workbook table's chunk as corpus_tools.xlsx_reader and chunk_context write it (datagen.grid_facts reads
    both): the column line "(Corner) | A | B" over the rows, and the contextual header "columns: A | B · Corner".
    `head` is "Corner | A | B", `rows` one line a row; `continued`: a chunk that continues a table, its column line in
    an earlier chunk and no corner in its header (the reader names it "columns")."""
    corner, *columns = head.split(" | ")
    names = " | ".join(columns)
    text = rows if continued else f"({corner}) | {names}\n{rows}"
    header = f"columns: {names}" if continued else f"columns: {names} · {corner}"
    return Chunk(chunk_id, source, text, at, 20,
                 {"source": source, "section": sheet, "kind": "table", "header": header, "title": title})


def asked_of(facts: Sequence[Any]) -> dict[str, str]:
    """Each fact's question, its subject put in, and its answer: what a reader's facts ask, as the office tests read
    them."""
    return {f.ask.replace("{s}", f.subject): f.answer for f in facts}
