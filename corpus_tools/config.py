"""Configuration of an index and of its searches (defaults from SPEC.md §1, each number explained)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from corpus_tools.chunking import ChunkingConfig
from corpus_tools.models import DEFAULT_EMBEDDING_MODEL

# Embeddings are cached by content here unless CorpusConfig.embedding_cache says otherwise.
DEFAULT_EMBEDDING_CACHE = "~/.cache/context1/embeddings"

BM25_METHODS = ("lucene", "robertson", "atire", "bm25l", "bm25+")


@dataclass(frozen=True)
class SearchConfig:
    """How `Corpus.search` ranks.

    leg_k: candidates each leg (BM25, dense) fetches before fusion; each leg fetches
        leg_k + len(exclude) so that excluded chunks never shrink the result. 100 = twice the
        reranked pool, so both legs can fill it on their own.
    rrf_k: the reciprocal-rank-fusion constant (SPEC §1; Cormack et al. 2009 use 60).
    candidates: fused candidates handed to the reranker (SPEC §1: "keeps the top 50").
    reranker: "none" (fused order), "biencoder" (cosine with the index's embedder), or a local
        path to a sentence-transformers CrossEncoder or a learned-fusion folder (both written by
        `context1 train reranker`). "none" until a reranker is trained on the corpus.
    first_stage_weight: when a reranker runs, the final order is the RRF (k = rrf_k) of the
        reranker's order (weight 1 - w) and the fused first-stage order (weight w), so a reranker
        cannot bury what both legs agree on. 0 = the reranker's order alone (the classic rerank).
    boilerplate_weight: how far chunks whose "boilerplate" metadata (0..1, set at build) is high are
        placed down: a chunk of boilerplate b at rank r sorts as if at r·(1 + w·b) (4: a certification
        found first in every filing drops to fifth). 0 = off; an index without that metadata is
        unaffected either way.
    constraint_boost: how `search(constraints=...)` ranks the documents meeting every constraint. 0 =
        strictly first, then the named company's other documents, then the rest (tiers). > 0 = the
        first two tiers share one ranking, the full matches' fused scores multiplied by 1 + boost, so
        a period read wrongly (a filing named by another calendar) cannot push the right one out.
    period_lift: when an unqualified period ("Q1 2023") names several of a company's documents (its
        fiscal quarter, the calendar quarter, the n-th report of the year; corpus_tools.constraints),
        all rank first and the one most readings agree on has its fused scores multiplied by
        1 + period_lift: a preference, not a filter. 0 = no preference among them.
    row_match_weight: on indexes with table chunks, in a search narrowed to named documents (a
        constraint tier or a where filter), a candidate's fused score is multiplied by 1 + w·m, m in
        [0, 1] the share of the query's terms its best table row's label holds (corpus_tools.row_match):
        the row that names the metric asked for lifts its chunk. Not narrowed, the same row of every
        filing would be lifted alike, so it is not applied. 0 = off; a corpus without table rows is
        unaffected either way.
    line_item_names: in that row match, the question and each row label also carry the canonical names
        of the financial line items they name (corpus_tools.line_items: "R&D" and "Technology and
        content" both read "research and development"). False = their own words only.
    line_item_expansion: in a search narrowed to named documents on an index with table chunks (where
        row match applies), the BM25 leg's text also carries the other names of the line items the
        query names ("gross margin" → "profit"). The dense leg and every unnarrowed search are untouched.
    line_item_rows: in such a search (with line_item_names), the table chunks whose rows name the query's line
        items join the fusion as a third ranking, this many at most (most items named first, then document
        order). 0 = off.
    prose_beside_tables: in such a search, when the first `corpus_tools.table_pieces.WINDOW` (5) hits are all
        table chunks and two of them are pieces of one table (same document, same contextual header), the prose
        passage the BM25 or dense leg ranks best among the other candidates takes the lower piece's place
        (`corpus_tools.table_pieces`). False = off.
    aside_section_weight: in such a search (narrowed to named documents), chunks of the sections that set out
        risks, proceedings, controls, exhibits and signatures (`corpus_tools.section_prior`), unless the question
        names them, have their fused scores multiplied by 1 - w. 0 = off; an index without section metadata is
        unaffected either way.
    figureless_weight: in such a search (narrowed to named documents, on an index with table chunks), a passage
        that states no figure (no amount, percentage, grouped number or scaled decimal: corpus_tools.figure_prior)
        at rank r sorts as if at r·(1 + w), after every other rule. 0 = off.
    call_figureless_weight: the figure prior (as figureless_weight) in a search narrowed to named documents on an
        index of earnings calls: chunks with a document identity ("form": call_identity.py) and no laid-out tables
        (no "kind"), where figureless_weight never reads. 0 = off (main exactly).
    continue_figures: in such a search, after the figure prior, the first five hits show the figures that continue
        a passage (corpus_tools.neighbour_prior): the neighbour (same document and section) of a figure-less hit
        that states figures, and a chunk stating figures between two shown neighbours, each take the place of
        the lowest figure-less hit shown. False = off.
    named_sections: in such a search (narrowed to named documents, on an index with table chunks), last, when the
        question names the heading of a section (every content word of it: "Note 5 — DEBT" for a question about
        debt) of which at least three chunks are candidates and one is among the first five hits, the first five
        show three of its chunks, the best-ranked below taking the places of the lowest hits of other sections
        (corpus_tools.named_section). False = off; an index without section metadata is unaffected.
    speaker_lift: on a conversation index whose passages hold several turns (meeting transcripts, chat sessions:
        corpus_tools.corpus_kind, speakers.MIN_TURNS; not an index of one turn a document), when the
        question names a speaker of the candidates ("What did Marketing say about …", "What did Kirsty Williams
        think …": corpus_tools.speakers), a candidate's fused score is multiplied by 1 + w·s, s in [0, 1] the
        share of its speaker lines the named speakers say. 0 = off; other indexes are unaffected either way.
    speaker_names: with speaker_lift on, the speakers are read as people too (speakers.names_person): a
        committee's labels with office, riding and party in parentheses ("Mr. Garnett Genuis (Sherwood Park—Fort
        Saskatchewan, CPC): …") are speakers, a question names one by full name or by a surname no other speaker
        has ("What did Genuis think …?"), and "the professor" names the "Professor X" of a research meeting.
        False = off (labels and names read as before).
    meeting_names: `search(constraints="auto")` reads the meetings a question names the way a user names one of a
        folder of meetings (corpus_tools.meeting_names.MeetingCatalog: "the ES2002 kick-off meeting", "the second
        ES2002 meeting", "the ES2002 meetings", a file stem the folder has, "in Bmr009", "the 14th meeting of the
        Special Committee on the COVID-19 Pandemic") and ranks those meetings first, as a named filing is (a
        boost, not a filter). Names are read from the doc ids (file names only: a title is no name) and each
        document's first lines, once per index snapshot. False = off (questions read as before).
    backchannel_weight: on such a transcript index, a candidate's fused score is multiplied by 1 − w·b, b in
        [0, 1] the share of its turns that say only "Mm-hmm.", "Yeah, okay." and the like
        (speakers.backchannel_share): a stretch of agreement rarely answers. 0 = off; in [0, 1).
    defined_names: on an index whose chunks record the names they define (documentation read by the Markdown /
        rst readers: a `.. py:data::` entry, a heading that is a code name, a parameter list's item), when the
        question names one as code ("What does SECRET_KEY do?"), the chunks defining it join the fusion as a
        ranking of their own (BM25 and dense may miss an entry that opens at a chunk's tail) and a candidate
        defining it has its fused score multiplied by 1 + w (corpus_tools.defined_names). 0 = off (main's
        order exactly); an index without "defines" is unaffected.
    defined_words: with defined_names on, a plain word of the question (not shaped as code: "openat2", "chdir",
        "mount") is a name too when the question asks it as one ("What does openat2 do?", "What is utmp for?",
        "the mount command": defined_names.asked_as_name) and the index records that very word as defined.
        False = off (code-shaped tokens only, as before); an index without "defines" is unaffected.
    source_weight: on an index that reads Python source as documents (CorpusConfig.read_source), the fused score of
        a chunk of a source file (.py, .pyi) is multiplied by 1 - w before the defined-name lift, so the prose a
        documentation page writes for a question stays above the code that implements it, while the definition
        a question names as code is still lifted (session 43: with source beside the docs, .py chunks took
        0.85 of the top 5 of documentation questions). Not applied to a query that asks about code by the words
        of its kinds ("Which function …", "the parameters of …", "return": corpus._ASKS_CODE). 0 = off; an index
        without source is unaffected.
    bibliography_weight: the fused score of a chunk of a PDF's bibliography (a section under a "References" /
        "Bibliography" / "Literature cited" heading, corpus_tools.bibliography) is multiplied by 1 - w, in every
        search, unless the query asks for references, citations or who cites: another paper's reference entry
        ("[12] … Skew binomial queues …") names the field's terms a question asks about but never answers it
        (session 49, issue 34). Placed lower, never removed. 0 = off (main's order exactly); an index without such
        sections is unaffected. The sections an index built before session 49 holds are the headings set in large
        or bold type; `CorpusConfig.paper_references` reads those in body type too (re-index).
    """

    leg_k: int = 100
    rrf_k: int = 60
    candidates: int = 50
    reranker: str = "none"
    first_stage_weight: float = 0.0
    # 4: on the filings' tuning half (issue 35) 4 and 8 put one more question's figures in the top 5 than
    # 0, 1 or 2, and lost none; indexes without "boilerplate" metadata (every record corpus) are untouched.
    boilerplate_weight: float = 4.0
    constraint_boost: float = 0.0
    # 0.25: the preferred document's chunk at fused rank r outranks another's first chunk up to r ≈ 15.
    period_lift: float = 0.25
    # 2: on the filings' tuning half (issue 35, constraints on) figures in the top 5 0.41 → 0.50 (1: 0.44, 4: 0.50,
    # with fewer in the top 10); scanning every row of the constrained filings as well added nothing there.
    # Applied unnarrowed (constraints off) it cost 0.31 → 0.25, hence narrowed searches only.
    row_match_weight: float = 2.0
    line_item_names: bool = True
    line_item_expansion: bool = True
    line_item_rows: int = 10
    # True: on the filings' tuning half (issue 35) figures in the top 5 0.656 → 0.688 (1 won, 0 lost), and on the
    # agent benchmark's 49 tuning questions 0.714 → 0.755 (2 won, 0 lost); indexes without "kind" metadata untouched.
    prose_beside_tables: bool = True
    # 0.5: on both filings tuning halves (session 33) FinanceBench evidence page in the top 5 0.72 → 0.80 (2 won,
    # 0 lost), docugami figures 0.69 = 0.69 (0 won, 0 lost); 0.15-0.9 gave the same.
    aside_section_weight: float = 0.5
    # 3: on both filings tuning halves (session 34) docugami figures in the top 5 22 → 24 of 32 (2 won, 0 lost; the
    # agent benchmark's 49: 38 → 41, 4 won, 1 lost), FinanceBench evidence page 20 = 20 of 25 (0 / 0); 2 and 4 gave
    # the same, 8 won one more figure question and lost a phrase answer and a FinanceBench page. Reporting, run once:
    # docugami 15 → 16 of 27 (1 / 0), FinanceBench 14 → 15 of 25 (1 / 0).
    figureless_weight: float = 3.0
    # 3: on ECTSum's tuning part (session 46, benchmarks/earnings_calls.py, 682 summary lines with figures, one search,
    # constraints auto) figures@5 0.921 → 0.928 against 0, +0.007 [+0.001, +0.015] 5 won / 0 lost; 1: +0.001 1/0; 8:
    # +0.010 7/0. 3 as the filings' figureless_weight: every line asked there has a figure (a question with none
    # would only lose), and 8 lost a phrase answer on the filings.
    call_figureless_weight: float = 3.0
    # True: on docugami's tuning half (session 35) figures in the top 5 24 → 26 of 32, units on 27 → 29 (won q124,
    # q136, lost 0; the phrase rule's 37: 25 → 27, lost 0); FinanceBench tuning and tuning2 page@1/5/10 and fig@5
    # identical question for question (0 / 0).
    continue_figures: bool = True
    # True: on docugami's tuning half (session 36) figures in the top 5 26 → 27 of 32, units on 29 → 30 (won q138,
    # lost 0; with the phrase answers 30 → 31 of 36; the agent 29 → 30); FinanceBench tuning page@1/5/10 identical,
    # fig@5 4 → 5 of 14 (won 01079, lost 0); tuning2 identical. A parent section's heading or a heading named in part
    # lost tuning questions, two slots won none (see corpus_tools.named_section). Reporting, run once: docugami
    # 16 → 17 of 27 (units off and on; won q71, lost 0), FinanceBench page@5 0.60 =, fig@5 5 → 6 of 23.
    named_sections: bool = True
    # 0.25: on QMSum's tuning queries that name a speaker of their meeting (448 of 1,332; session 39), one hybrid
    # search's hit@5 of the shortest gold span 0.391 → 0.438 (+0.047 [+0.027, +0.069], 23 won / 2 lost); 0.5 +0.040,
    # 0.75 +0.033, 1 +0.025, 2 +0.004, 4 −0.011 (a stronger lift lets a passage where the speaker says anything
    # outrank the one on the topic). On LoCoMo's index of single turns it lost (passage R@5 −0.063, 2/8), hence
    # passages of several turns only (speakers.MIN_TURNS); there and on non-conversation indexes it is off.
    speaker_lift: float = 0.25
    # False (off): a tie on QMSum's tuning meetings (session 50, benchmarks/meetings_search.py, 1,095 queries; 51 name
    # a speaker only as a person is read): one search hit@5 +0.000 [−0.003, +0.003] 1 won ("What did Chrystia
    # Freeland think …") / 1 lost ("Why did the professor not like latency?"), coverage@5 +0.001, 5/4; the agent on
    # 150 evenly spaced queries 0/0. On the 24 committee meetings indexed alone it changes nothing: their turns are
    # long, so their passages hold under speakers.MIN_TURNS turns and no lift reads there, with or without it.
    speaker_names: bool = False
    # True (on): QMSum's tuning meetings (session 51, benchmarks/meetings_named_search.py, one search, on − off): datagen's
    # 92 questions naming their meeting hit@5 0.196 → 0.848 (60 won / 0 lost), gold@1 +0.337 (32/1); QMSum's real
    # queries with their meeting's name put in (677, a proxy) hit@5 0.337 → 0.867 (359/0), gold@1 +0.338 (237/8), with
    # the file stem ("In ES2002a, …") 0.644 → 0.894 (171/2); the same queries unnamed unchanged (0/0). The losses are
    # reorderings inside the named meeting (its own passages fill the top 5, as a search scoped to it does). HotpotQA
    # 150 / MuSiQue 120 / LoCoMo 95 tuning questions: top 10s byte-identical (titles and session ids are no file names).
    meeting_names: bool = True
    # 0 (off): on QMSum's tuning meetings (session 50, benchmarks/meetings_search.py, 1,095 queries) 0.3 lost — one
    # search hit@5 −0.007 [−0.016, +0.002] 9 won / 17 lost, scoped to the query's meeting −0.016 [−0.027, −0.005]
    # 14/31: the gold passages hold as many backchannels as the ones that outrank them (share 0.230 vs 0.241).
    backchannel_weight: float = 0.0
    # Tuning (session 41, docs41 tuning folder, 829 proxy queries, benchmarks/docs_reading.py): the definition
    # proxy's hit@5 0.709 → 0.814 (9 won / 0 lost), the same at 0.25, 0.5 and 1.0 once the defining chunks are
    # a ranking of their own (the lift alone: 0.779 at 0.5, 0.802 at 1.0); lifting heading-like phrases (not
    # questions) cost heading MRR −0.010, hence questions only. 0.5: no other kind moved.
    defined_names: float = 0.5
    # Tuning (session 49, benchmarks/defined_words.py, one search, on − off): the man tuning folder's proxies
    # (/work/scratch49-man/tune) name hit@1 0.433 → 0.912 (273 won / 0 lost), tag and sentence unchanged, sentences
    # asked as questions −0.004 (0 / 1: "… the iopl(2) system call had to be used …?"); documentation tuning folders (session 46's A: HTTPX + pytest, B: Starlette +
    # debug-toolbar) definition hit@1 +0.043 / +0.200, nothing lost. Taking also a word rare in the folder
    # (≤ 2 % of chunks) or written "X()" / "X(2)" lifted the NAME line over the paragraph a sentence asked as a
    # question wanted: hit@1 −0.095 (0 / 23). HotpotQA, MuSiQue, LoCoMo: no chunk defines a name, unchanged.
    defined_words: bool = True
    # Tuning (session 43, the four tuning projects' docs + source, benchmarks/source_reading.py, 786 docs proxies and
    # 250 source questions, one search): docs proxies hit@1 / hit@5 with source beside the docs 0.645 / 0.842 at 0,
    # 0.672 / 0.849 at 0.1, 0.676 / 0.851 at 0.2, 0.677 / 0.860 at 0.4 (docs only: 0.670 / 0.855); source questions
    # 0.880 / 0.980, 0.800 / 0.956, 0.788 / 0.916, 0.752 / 0.832 (plain text: 0.324 / 0.684): lowered, the questions
    # with no code name ("Which function converts a value into a valid string?") lost to the docs (hit@1 0.30 as
    # text → 0.18). Not lowering a query that says function / method / parameters / return …: docs 0.668 / 0.847,
    # source 0.880 / 0.980 at 0.1 (every source question says such a word: by construction, as w = 0).
    source_weight: float = 0.1
    # 0.5 (session 49, benchmarks/papers_search.py, two 27-paper tuning subsets of papers-we-love, re-read with
    # CorpusConfig.paper_references): the bibliography's share of one search's top 5 0.017 → 0.000 and 0.015 → 0.001,
    # questions with a reference chunk above the gold 5 → 0 and 4 → 0, MRR +0.001 (1/0, 2/0), nothing lost; 0.3 left
    # reference chunks in the top 5 of both (one above the gold), 0.7 and 0.9 ranked the gold as 0.5 did. HotpotQA, MuSiQue, LoCoMo and the docugami
    # 10-Qs (no chunk in a bibliography) unchanged.
    bibliography_weight: float = 0.5

    def __post_init__(self) -> None:
        for name in ("line_item_names", "line_item_expansion", "prose_beside_tables", "continue_figures",
                     "named_sections", "defined_words", "speaker_names", "meeting_names"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"SearchConfig.{name} must be true or false, got {getattr(self, name)!r}")
        if not isinstance(self.line_item_rows, int) or isinstance(self.line_item_rows, bool) or self.line_item_rows < 0:
            raise ValueError(f"SearchConfig.line_item_rows must be an integer >= 0, got {self.line_item_rows!r}")
        for name in ("leg_k", "rrf_k", "candidates"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"SearchConfig.{name} must be a positive integer, got {value!r}")
        for name in ("boilerplate_weight", "constraint_boost", "period_lift", "row_match_weight", "figureless_weight",
                     "call_figureless_weight", "speaker_lift", "defined_names"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0):
                raise ValueError(f"SearchConfig.{name} must be a number >= 0, got {value!r}")
        if not (isinstance(self.source_weight, (int, float)) and not isinstance(self.source_weight, bool)
                and 0.0 <= self.source_weight < 1.0):
            raise ValueError(f"SearchConfig.source_weight must be in [0, 1), got {self.source_weight!r}")
        if not (isinstance(self.backchannel_weight, (int, float)) and not isinstance(self.backchannel_weight, bool)
                and 0.0 <= self.backchannel_weight < 1.0):
            raise ValueError(f"SearchConfig.backchannel_weight must be in [0, 1), got {self.backchannel_weight!r}")
        if not (isinstance(self.bibliography_weight, (int, float)) and not isinstance(self.bibliography_weight, bool)
                and 0.0 <= self.bibliography_weight < 1.0):
            raise ValueError(f"SearchConfig.bibliography_weight must be in [0, 1), got {self.bibliography_weight!r}")
        if not 0.0 <= self.aside_section_weight < 1.0:
            raise ValueError(f"SearchConfig.aside_section_weight must be in [0, 1), got {self.aside_section_weight!r}")
        if not 0.0 <= self.first_stage_weight <= 1.0:
            raise ValueError(f"SearchConfig.first_stage_weight must be in [0, 1], got {self.first_stage_weight!r}")


@dataclass(frozen=True)
class BM25Config:
    """The sparse leg.

    method: the bm25s scoring variant; "lucene" (its default) keeps every idf positive, which
        matters for small corpora where a query term occurs in more than half the chunks.
    k1, b: term-frequency saturation and length normalisation; 1.5 / 0.75 are the defaults of
        bm25s and rank-bm25 (Robertson & Zaragoza 2009 suggest k1 in [1.2, 2.0], b = 0.75).
    stem: English Snowball stemming (PyStemmer) so "towns" finds "town".
    stopwords: "en" drops bm25s's English stopword list; None keeps every word.
    """

    method: str = "lucene"
    k1: float = 1.5
    b: float = 0.75
    stem: bool = True
    stopwords: str | None = "en"

    def __post_init__(self) -> None:
        if self.method not in BM25_METHODS:
            raise ValueError(f"BM25Config.method must be one of {BM25_METHODS}, got {self.method!r}")
        if self.stopwords not in (None, "en"):
            raise ValueError(f"BM25Config.stopwords must be 'en' or None, got {self.stopwords!r}")


@dataclass(frozen=True)
class CorpusConfig:
    """How `Corpus.build` indexes.

    embedding_model: the default's name, or a local sentence-transformers folder (never a hub id).
    chunking: token windows (see ChunkingConfig). search: defaults recorded in the manifest, used
        by every later `Corpus.open`. bm25: the sparse leg.
    embedding_cache: folder of the content-addressed embedding cache (sqlite), shared by every
        index on the machine so rebuilding never re-embeds unchanged chunks; None disables it.
    batch_size: chunks embedded (and committed to cache and vector store) per step; 64 keeps a
        killed build's loss under ~3 s of embedding on a laptop CPU.
    collection_name: the Chroma collection. Embedded: used as is ("context1" when None). On a
        server, each build gets a fresh "<name>-<random>" collection (the old one is dropped after
        the new index is in place), so a build never touches the collection being served.
    device: torch device for the embedder ("cpu", "cuda", ...); None lets sentence-transformers pick.
    chroma: keep a copy of the vectors in an embedded Chroma collection (the default). The dense
        leg searches the index's own vector matrix (and FAISS past a size); Chroma is the copy other
        tools read. False ("vector_store": "matrix" in the manifest) skips it: a large build spends
        most of its time inserting into Chroma's HNSW graph, and opening that graph costs a process's
        first add tens of seconds at 100k chunks. Ignored when a Chroma server client is given.
    read_markup: Markdown (.md, .markdown) and reStructuredText (.rst) files read as documents: headings as
        sections, code blocks and tables as parts, front matter as title and metadata, markup (anchors,
        roles, admonition fences, includes, HTML tags) removed (markdown_reader.py, rst_reader.py). False =
        read as flat text, as before session 40. An index built before it records no value and reads True:
        `sync` reads a changed file with the new readers; unchanged files keep their old chunks.
    read_myst: with read_markup, session 41's reading as well: MyST (Sphinx in Markdown) directive fences
        (```{eval-rst} read by the rst reader, ```{note}, ```{code-block}, toctree / contents dropped), roles
        ({func}`click.echo` → click.echo), labels ((options)= dropped), a code fence indented inside a list
        item, an extension's directive whose body is code (`.. click:example::`) read as code. False = the
        readers as session 40 left them (every page not in those styles reads the same either way).
    read_source: Python files (.py, .pyi) read as documents (source_reader.py, session 43): the module
        docstring first, each class / function / method a section titled by its qualified name and line, holding
        its signature and docstring (marked as the place defining the name, for `defined_names`) and its code; a
        file that is not Python 3 or is over 1 M characters is read as plain text, with a note. False = .py files
        skipped as an unsupported type, as before (main exactly). An index built before records no value and reads
        False, so `sync` never adds a repository's source to an index built without it. Default True (session 43,
        tuning: 244 questions about an API, hit@1 0.332 with the .py files read as plain text → 0.898 read so;
        786 documentation questions 0.670 → 0.668 with SearchConfig.source_weight 0.1; benchmarks/source_reading.py).
    read_notebooks: Jupyter notebooks (.ipynb) read as documents (notebook_reader.py, session 45): Markdown cells'
        headings as sections, code cells as code parts, short outputs marked "Output:", DataFrame tables as
        tables; images, widgets and tracebacks dropped and counted. False = .ipynb files skipped as an unsupported
        type, as before (main exactly). An index built before records no value and reads False, so `sync` never
        adds notebooks to an index built without them (benchmarks/notebooks_search.py).
    read_slides: slide decks (.pptx) read as documents (pptx_reader.py, session 52): a section per slide in
        presentation order, its text in reading order, tables and chart data as rows, speaker notes under it. False =
        .pptx files skipped as an unsupported type, as before (main exactly). An index built before records no value
        and reads False, so `sync` never adds decks to an index built without them (benchmarks/slides_search.py).
    read_calls: an earnings call's identity read onto a .txt file's chunks (call_identity.py, session 46): company,
        ticker, form "earnings call", fiscal year and quarter, from the file name ("Q3 2022 Equinix Inc Earnings
        Call.txt", "AA_q3_2021.txt") and the text (the participants list, the operator's welcome line), so
        `constraints="auto"` narrows a question naming the company and quarter to that call. A file that does not
        read as a call gets nothing. False = as before (main exactly); an index built before reads False.
    read_project_files: a repository's `pyproject.toml`, `setup.cfg` and `mkdocs.yml` are read for the one name each
        declares (project_files.py, session 46) and that name kept with the file's skip entry
        (`SkippedFile.declares`, in the index's skipped.jsonl), never indexed as content: chunks, BM25 and vectors
        are the same either way. datagen names a documentation folder's project from it
        (datagen.doc_projects). False = those files skipped as an unsupported type, as before (main exactly). An
        index built before records no value and reads False.
    call_own_titles: with `read_calls`, a vendor-exported call's own people's turns open "Name (Title)" and the
        company is named once, in the chunks' contextual header (call_reader.py, session 47): their full company
        name ("… (Allied Properties Real Estate Investment Trust - President …)") in every turn made a question
        naming the company rank turns above the passage stating the figure asked. Analysts keep their firm.
        False = "Name (Company - Title)", as session 46 (main exactly); an index built before reads False.
        Default False (tuning, calls-tune's 47 datagen figure questions, benchmarks/call_titles.py: the narrowed
        search and the agent hit@5 +0.064 [+0.000, +0.128] 3/0 but MRR a tie, -0.015 [-0.073, +0.036] 8/5; one
        search without constraints MRR -0.072 [-0.152, +0.005] 7/10: the company's words on its turns helped find
        its call. The reporting run, session 46's 74 unseen vendor calls' 58 figure questions: hit@5 +0.034 [+0.000,
        +0.086] 2/0 in each ranking, MRR ties, -0.029 / +0.006 / +0.013: still mixed, still off).
    pdf_columns: a PDF's two-column pages (research papers) read column by column (pdf_layout.column_lines, session
        48): the gutter is found where the fewest rows cross the page's middle; full-width rows (title, authors, a
        wide figure) read where they stand, the left column's lines before the right one's between them; a word
        broken at a line's end ("distrib-" / "uted") joined; turned text (arXiv's margin stamp) left out; a PDF
        with no filing's cover is titled by what its first page sets in its largest type (its metadata title is
        often another thing, "System Model", or none: then the file's name). Read across the whole width, a
        two-column paper's lines paired the two columns' lines, and where their baselines drifted apart grew
        into a soup of words sorted left to right (session 48, 108 tuning papers, benchmarks/papers_reading.py:
        words in run-on lines 36 % → 4.2 %). A page with no gutter of prose on both sides (a filing's statement,
        a one-column paper) keeps the base's lines, except a word broken at a line's end joined as the document
        writes it elsewhere ("forward-looking" kept; pdf_layout.joined_word), and a page whose
        lines ran together (a line over 40 words: inline mathematics) grouped by each line's first word. False = as
        before (main exactly); an index built before reads False.
    paper_references: a PDF that is no filing has its bibliography's heading ("References", "5 REFERENCES",
        "Bibliography") start a section even where it is set in body type (structure.build_structure,
        corpus_tools.bibliography, session 49): what follows is the reference list, which
        `SearchConfig.bibliography_weight` places lower. Set in body type the heading was no heading, and the list
        ran on under the paper's last section ("Acknowledgements", "8. Conclusion"). False = as before (main
        exactly); an index built before reads False.
    read_man: Unix manual pages (`.1` … `.9`, `.n`, `.man` whose text is roff: `.TH`, or mdoc's `.Dd` / `.Dt`) read as
        documents (man_reader.py, session 49): the title `whatis` shows ("openat2(2) — open and possibly create a
        file (extended)"), a section per `.SH`, an option's or error's tagged paragraph kept with its tag and its
        names recorded as defined there (defined_names.py), examples and synopses as code, tbl tables as tables,
        comments and layout requests dropped; a redirect page (`.so man2/stat.2`) is no document, its name added
        to its target's names. Before, these files were skipped as an unsupported type; a file with such a suffix
        that is no roff page (`notes.1`, a rotated `syslog.1`) still is. False = as before (main exactly); an
        index built before reads False.
    paper_definitions: a PDF that is no filing records where it first defines a name (corpus_tools.paper_definitions,
        session 49): an acronym, "Log-Structured Merge-Tree (LSM-tree)" (the expansion's initials spelling it), and a
        term, "A tablet is a range of rows …". The chunk holding it defines the name ("defines"), and a question
        naming it ("What does LSM-tree stand for?", "What is a tablet?") ranks that chunk as a documentation page's
        definition is ranked (`SearchConfig.defined_names`). False = as before (main exactly); an index built before
        reads False.
    man_macros: a manual page's own macro definitions (`.de`, `.de1`, `.am` … `..`) and register settings before its
        `.TH` do not hide it, and the macros it defines, and its number registers (`\\n[…]`), are layout (session 50):
        the pages rst2man or pandoc writes (Unbound's six, read by no reader before: "unsupported file type") read as
        pages, and no "0.0" of `.INDENT 0.0` or "[rst2man-indent-level]" comes into their text; mdoc's `.Fl Fl oneshot`
        reads "--oneshot" (not "- -oneshot"). False = as before
        (main exactly); an index built before reads False.
    read_sheets: Excel workbooks (.xlsx, .xlsm) read as documents (xlsx_reader.py, session 52): a section per sheet,
        each table one row a line under its header row, figures as the sheet shows them (dates, percentages). False =
        skipped as an unsupported file type, as before (main exactly); an index built before reads False.
    """

    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    chunking: ChunkingConfig = field(default_factory=ChunkingConfig)
    search: SearchConfig = field(default_factory=SearchConfig)
    bm25: BM25Config = field(default_factory=BM25Config)
    embedding_cache: str | None = DEFAULT_EMBEDDING_CACHE
    batch_size: int = 64
    collection_name: str | None = None
    device: str | None = None
    chroma: bool = True
    read_markup: bool = True
    read_myst: bool = True
    read_source: bool = True
    read_notebooks: bool = True
    read_slides: bool = True
    read_calls: bool = True
    read_project_files: bool = True
    call_own_titles: bool = False
    pdf_columns: bool = True
    paper_references: bool = True
    read_man: bool = True
    paper_definitions: bool = True
    man_macros: bool = True
    read_sheets: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.batch_size, int) or self.batch_size < 1:
            raise ValueError(f"CorpusConfig.batch_size must be a positive integer, got {self.batch_size!r}")
        if self.device is not None and (
            not isinstance(self.device, str) or self.device.split(":")[0] not in ("cpu", "cuda", "mps")
        ):
            raise ValueError(f"CorpusConfig.device must be 'cpu', 'cuda', 'cuda:N', 'mps' or None, got {self.device!r}")
        if not isinstance(self.chroma, bool):
            raise ValueError(f"CorpusConfig.chroma must be True or False, got {self.chroma!r}")
        if not isinstance(self.read_markup, bool):
            raise ValueError(f"CorpusConfig.read_markup must be True or False, got {self.read_markup!r}")
        if not isinstance(self.read_myst, bool):
            raise ValueError(f"CorpusConfig.read_myst must be True or False, got {self.read_myst!r}")
        if not isinstance(self.read_source, bool):
            raise ValueError(f"CorpusConfig.read_source must be True or False, got {self.read_source!r}")
        if not isinstance(self.read_notebooks, bool):
            raise ValueError(f"CorpusConfig.read_notebooks must be True or False, got {self.read_notebooks!r}")
        if not isinstance(self.read_slides, bool):
            raise ValueError(f"CorpusConfig.read_slides must be True or False, got {self.read_slides!r}")
        if not isinstance(self.read_calls, bool):
            raise ValueError(f"CorpusConfig.read_calls must be True or False, got {self.read_calls!r}")
        if not isinstance(self.read_project_files, bool):
            raise ValueError(f"CorpusConfig.read_project_files must be True or False, got {self.read_project_files!r}")
        if not isinstance(self.pdf_columns, bool):
            raise ValueError(f"CorpusConfig.pdf_columns must be True or False, got {self.pdf_columns!r}")
        if not isinstance(self.paper_references, bool):
            raise ValueError(f"CorpusConfig.paper_references must be True or False, got {self.paper_references!r}")
        if not isinstance(self.read_man, bool):
            raise ValueError(f"CorpusConfig.read_man must be True or False, got {self.read_man!r}")
        if not isinstance(self.man_macros, bool):
            raise ValueError(f"CorpusConfig.man_macros must be True or False, got {self.man_macros!r}")
        if not isinstance(self.paper_definitions, bool):
            raise ValueError(f"CorpusConfig.paper_definitions must be True or False, got {self.paper_definitions!r}")
        if not isinstance(self.read_sheets, bool):
            raise ValueError(f"CorpusConfig.read_sheets must be True or False, got {self.read_sheets!r}")
        if not isinstance(self.call_own_titles, bool):
            raise ValueError(f"CorpusConfig.call_own_titles must be True or False, got {self.call_own_titles!r}")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CorpusConfig:
        """The config a manifest recorded (unknown keys from newer versions are ignored)."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known.setdefault("read_source", False)  # built before session 43: its folder's .py files were never read
        known.setdefault("read_notebooks", False)  # built before session 45: its folder's .ipynb files were never read
        known.setdefault("read_slides", False)  # built before session 52: its folder's .pptx files were never read
        known.setdefault("read_calls", False)  # built before session 46: no call's identity was read
        known.setdefault("read_project_files", False)  # built before session 46: no project file's name was read
        known.setdefault("call_own_titles", False)  # built before session 47: every turn named the company
        known.setdefault("pdf_columns", False)  # built before session 48: a PDF's lines read across the whole page
        known.setdefault("paper_references", False)  # built before session 49: a bibliography in body type no section
        known.setdefault("read_man", False)  # built before session 49: its folder's manual pages were never read
        known.setdefault("paper_definitions", False)  # built before session 49: a paper defined no name
        known.setdefault("read_sheets", False)  # built before session 52: its folder's workbooks were never read
        known.setdefault("man_macros", False)  # built before session 50: a page defining macros before .TH was skipped
        for key, sub in (("chunking", ChunkingConfig), ("search", SearchConfig), ("bm25", BM25Config)):
            if isinstance(known.get(key), dict):
                known[key] = sub(**{k: v for k, v in known[key].items() if k in sub.__dataclass_fields__})
        return cls(**known)
