"""`context1 index|add|delete|sync|repair|search|read|info`: build and update a hybrid index, and query it.

A thin layer over `corpus_tools` (DESIGN: every CLI command is a function a user can call):
`index` is `Corpus.build`, `add`/`delete`/`sync` are `Corpus.add`/`delete`/`sync`, `repair` is
`corpus_tools.repair_vectors`, `search` is `Corpus.open` + `Corpus.search`. Heavy libraries
(torch, chromadb) are imported inside the commands, so `--help` and argument errors answer at once.
Expected failures (a missing folder, a folder that is not an index, a bad option, an unreachable
Chroma server) print one line saying what to do and exit with status 2, without a traceback.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from corpus_tools.limits import MAX_K, check_k, check_query
from corpus_tools.types import CorpusError, Hit, NothingToIndexError, SkippedFile

EXIT_USAGE = 2  # the exit status of a command given bad input (click's convention for usage errors)
SNIPPET_CHARS = 160  # one or two lines of a terminal per hit
SKIPPED_PATHS_SHOWN = 3  # paths listed per skip reason; the rest are counted


def _console(stderr: bool = False) -> Console:
    # Made per call, not at import: the terminal (or a test runner's stream and COLUMNS) may change.
    return Console(stderr=stderr)


class CommandError(Exception):
    """An expected failure: its message is printed as one line, then the command exits."""


@contextmanager
def _clean_errors() -> Iterator[None]:
    """Turn expected failures into one line on stderr and exit status 2 (no traceback)."""
    try:
        yield
    except CommandError as exc:
        _fail(str(exc))
    except (CorpusError, FileNotFoundError, ValueError) as exc:
        _fail(f"{exc}")


def _fail(message: str) -> None:
    _console(stderr=True).print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_USAGE)


# ---------------------------------------------------------------- shared options

ChromaHost = Annotated[
    str | None,
    typer.Option("--chroma-host", help="Keep vectors on this Chroma server (`chroma run`) instead of in INDEX."),
]
ChromaPort = Annotated[int, typer.Option("--chroma-port", help="Port of the Chroma server.", min=1, max=65535)]
Reranker = Annotated[
    str | None,
    typer.Option(
        "--reranker",
        help="'none' (fused order), 'biencoder', or a folder written by `context1 train reranker` (learned fusion or CrossEncoder).",
    ),
]


IndexArg = Annotated[Path, typer.Argument(metavar="INDEX", help="An index folder built by `context1 index`.")]
# `-k` once meant rollouts in ask/serve/mcp and hits in search; it now means hits only. The old
# spelling still works in ask/serve/mcp for a while, hidden from --help, with a warning.
OldRolloutsK = Annotated[int | None, typer.Option("-k", hidden=True, min=1, help="Deprecated: use --rollouts.")]


def deprecated_rollouts_k(old_k: int | None, rollouts: int) -> int:
    """--rollouts, or the deprecated `-k N` (with a warning on stderr)."""
    if old_k is None:
        return rollouts
    # Name only flags this command has: `ask --k` does not exist, so the hint must not suggest it.
    _console(stderr=True).print(f"[yellow]warning:[/] `-k` for rollouts is deprecated: use --rollouts {old_k} "
                                "(`-k` is the number of hits in `context1 search` only)", highlight=False)
    return old_k


def chroma_client(host: str | None, port: int) -> Any:
    """A Chroma HTTP client for server mode, or None for the embedded store inside the index folder."""
    if host is None:
        return None
    try:
        import chromadb
    except ImportError as exc:  # pragma: no cover - a core dependency
        raise CommandError("server mode needs chromadb: pip install chromadb") from exc
    try:
        client = chromadb.HttpClient(host=host, port=port)
        client.heartbeat()
    except Exception as exc:  # noqa: BLE001 - chromadb raises many types for a server that is not there
        raise CommandError(
            f"cannot reach a Chroma server at {host}:{port} ({type(exc).__name__}); start one with "
            f"`chroma run --port {port}` or drop --chroma-host to keep vectors in the index folder"
        ) from None
    return client


# ---------------------------------------------------------------- index


def index_command(
    source: Annotated[
        str, typer.Argument(metavar="SOURCE", help="A folder or file of documents (txt, md, html, pdf, docx, doc, rtf, odt, pptx, xlsx, eml, msg, mbox, vtt, srt, json, jsonl, csv).")
    ],
    directory: Annotated[
        Path, typer.Argument(metavar="INDEX", help="Folder to write the index into (an index there is replaced).")
    ],
    chunk_tokens: Annotated[int | None, typer.Option(help="Most tokens per chunk.", show_default="256")] = None,
    overlap: Annotated[int | None, typer.Option(help="Tokens shared by consecutive chunks.", show_default="32")] = None,
    id_field: Annotated[str | None, typer.Option(help="Record field holding the document id.")] = None,
    title_field: Annotated[str | None, typer.Option(help="Record field holding the title.")] = None,
    text_field: Annotated[str | None, typer.Option(help="Record field holding the text.")] = None,
    glob: Annotated[
        str | None, typer.Option(help="Only files of a folder matching this pattern, e.g. '**/*.md'.")
    ] = None,
    reranker: Reranker = None,
    chroma_host: ChromaHost = None,
    chroma_port: ChromaPort = 8000,
    no_chroma: Annotated[
        bool,
        typer.Option("--no-chroma", help="Keep no Chroma copy of the vectors (large indexes: the build skips its graph)."),
    ] = False,
    device: Annotated[
        str | None, typer.Option(help="Where to embed: cpu, cuda, cuda:N or mps.", show_default="picked by torch")
    ] = None,
    vector_field: Annotated[
        str | None, typer.Option(help="Record field holding each record's own vector (bring your own vectors).")
    ] = None,
    vector_model: Annotated[
        str | None, typer.Option(help="The model that made the --vector-field vectors (must be the index's).")
    ] = None,
    flat_markup: Annotated[
        bool,
        typer.Option("--flat-markup", help="Read Markdown and reStructuredText as flat text, markup and all (no "
                                           "sections, code blocks or tables), as before session 40."),
    ] = False,
    read_source: Annotated[
        bool | None,
        typer.Option("--source/--no-source", help="Read Python files (.py, .pyi) as documents: a section per class, "
                                                  "function and method, titled by its qualified name and line "
                                                  "(--no-source: skip them).", show_default="CorpusConfig's"),
    ] = None,
    read_notebooks: Annotated[
        bool,
        typer.Option("--notebooks/--no-notebooks", help="Read Jupyter notebooks (.ipynb) as documents: Markdown "
                                                        "cells, code cells and short outputs, images and "
                                                        "tracebacks left out (--no-notebooks: skip them)."),
    ] = True,
    read_slides: Annotated[
        bool,
        typer.Option("--slides/--no-slides", help="Read slide decks (.pptx) as documents: a section per slide, "
                                                  "tables, chart data and speaker notes (--no-slides: skip them)."),
    ] = True,
    read_sheets: Annotated[
        bool,
        typer.Option("--sheets/--no-sheets", help="Read Excel workbooks (.xlsx, .xlsm) as documents: a section per "
                                                  "sheet, each table's rows under its header (--no-sheets: skip them)."),
    ] = True,
    read_calls: Annotated[
        bool,
        typer.Option("--calls/--no-calls", help="Read an earnings call's company and quarter from a .txt file's name "
                                                "and text onto its chunks (--no-calls: as before session 46)."),
    ] = True,
    call_own_titles: Annotated[
        bool,
        typer.Option("--call-own-titles/--call-company-titles",
                     help="In a vendor-exported earnings call, open the company's own people's turns with 'Name "
                          "(Title)', the company named once in the header (--call-company-titles: 'Name (Company - "
                          "Title)' in every turn, as before session 47: the default)."),
    ] = False,
    read_project_files: Annotated[
        bool,
        typer.Option("--project-files/--no-project-files",
                     help="Read a repository's pyproject.toml, setup.cfg and mkdocs.yml for the project name each "
                          "declares (kept with the index for datagen; never searched as content). "
                          "--no-project-files: skip them as unsupported files."),
    ] = True,
    read_man: Annotated[
        bool,
        typer.Option("--man/--no-man", help="Read Unix manual pages (.1 … .9 files of roff: .TH or mdoc's .Dd) as "
                                            "documents: whatis titles, a section per .SH, options and errors with "
                                            "their text, redirect pages as names of their target (--no-man: skip "
                                            "them, as before session 49)."),
    ] = True,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="Hide the progress bars.")] = False,
) -> None:
    """Index SOURCE into INDEX: chunk, embed, and build the BM25 and vector indexes."""
    with _clean_errors():
        from corpus_tools.chunking import ChunkingConfig
        from corpus_tools.config import CorpusConfig, SearchConfig

        if not Path(source).expanduser().exists():
            raise CommandError(f"no such file or folder: {source!r} (give a folder of documents or one file)")
        if directory.exists() and not directory.is_dir():
            raise CommandError(f"{str(directory)!r} is a file; give a folder for the index")
        defaults = ChunkingConfig()
        chunking = ChunkingConfig(
            chunk_tokens=chunk_tokens if chunk_tokens is not None else defaults.chunk_tokens,
            overlap_tokens=overlap if overlap is not None else defaults.overlap_tokens,
        )
        search = SearchConfig() if reranker is None else replace(SearchConfig(), reranker=reranker)
        _check_reranker_option(reranker)
        if no_chroma and chroma_host:
            raise CommandError("--no-chroma and --chroma-host contradict each other: pick one")
        config = CorpusConfig(chunking=chunking, search=search, device=device, chroma=not no_chroma,
                              read_markup=not flat_markup,
                              read_source=CorpusConfig().read_source if read_source is None else read_source,
                              read_notebooks=read_notebooks, read_slides=read_slides, read_sheets=read_sheets,
                              read_calls=read_calls,
                              call_own_titles=call_own_titles,
                              read_project_files=read_project_files, read_man=read_man)
        client = chroma_client(chroma_host, chroma_port)

        started = time.perf_counter()
        from corpus_tools import Corpus

        _quiet_library_logs()
        try:
            corpus = Corpus.build(
                _loader_source(source, id_field, title_field, text_field, glob, vector_field, vector_model,
                               config=config),
                directory,
                config=config,
                client=client,
                progress=not no_progress,
            )
        except NothingToIndexError as exc:
            print_skipped(exc.skipped)
            raise CommandError(
                f"nothing to index in {source!r}: {len(exc.skipped)} file(s) or record(s) skipped (see above); "
                "for record files, name the fields with --id-field/--title-field/--text-field"
            ) from None
        elapsed = time.perf_counter() - started
        print_index_summary(corpus, elapsed)


def _loader_source(
    source: str,
    id_field: str | None,
    title_field: str | None,
    text_field: str | None,
    glob: str | None,
    vector_field: str | None = None,
    vector_model: str | None = None,
    config: Any = None,
) -> Any:
    """What `Corpus.build` reads: the path itself (streamed) unless record options need the loader, which then reads
    as `config` (the index's CorpusConfig) says."""
    options = (id_field, title_field, text_field, glob, vector_field, vector_model)
    if all(option is None for option in options):
        return source
    from corpus_tools.loaders import ReadOptions, load_documents

    # the files read as the index's config says, as `Corpus.build` reads a folder itself (session 49: a `--glob`
    # run read PDFs, source and notebooks with the loader's own defaults)
    read = ReadOptions.from_config(config) if config is not None else ReadOptions()
    return load_documents(source, id_field=id_field, title_field=title_field, text_field=text_field, glob=glob,
                          vector_field=vector_field, vector_model=vector_model, **asdict(read))


def _quiet_library_logs() -> None:
    """The CLI prints its own summary tables; the library's logged summary would repeat them."""
    import logging

    logging.getLogger("corpus_tools").setLevel(logging.ERROR)
    # "Loading weights" bars on every command say nothing actionable. Most commands never load
    # transformers (a search embeds its query without it), and importing it just to silence it cost
    # ~0.9 s of every start: its own environment switches do the same when it does load.
    if "transformers" not in sys.modules:
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        return
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()


def _check_reranker_option(reranker: str | None) -> None:
    if reranker is None or reranker.lower() in ("none", "biencoder", "bi-encoder"):
        return
    if not Path(reranker).expanduser().exists():
        raise CommandError(
            f"unknown reranker {reranker!r}: use 'none', 'biencoder', or the path of a folder written by `context1 train reranker`"
        )


def print_index_summary(corpus: Any, seconds: float) -> None:
    """Documents, chunks and time of a build, then what was skipped and why."""
    skipped = list(corpus.skipped)
    table = Table(title=f"Index {corpus.path}", show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column(justify="right")
    doc_ids = corpus.doc_ids()
    table.add_row("documents", f"{len(doc_ids):,}")
    notebooks = sum(1 for doc_id in doc_ids if doc_id.lower().endswith(".ipynb"))
    if notebooks:  # read by corpus_tools/notebook_reader.py since session 45 (skipped before): say how many
        table.add_row("  notebooks", f"{notebooks:,}")
    table.add_row("chunks", f"{len(corpus):,}")
    table.add_row("skipped", f"{len(skipped):,}")
    table.add_row("time", f"{seconds:.1f} s")
    report = getattr(corpus, "build_report", None)
    if report is not None and report.chunks:
        table.add_row("chunks/s", f"{report.chunks_per_s:,.1f}")
    _console().print(table)
    print_skipped(skipped)
    if report is not None:
        print_notes(report.notes)


def print_notes(notes: Sequence[Any]) -> None:
    """Files indexed with a caveat (a guessed encoding, unreadable pages)."""
    if not notes:
        return
    table = Table(title="Indexed with notes", title_justify="left")
    table.add_column("file", overflow="fold")
    table.add_column("note", overflow="fold")
    for note in notes[:20]:
        table.add_row(escape(note.path), escape(note.note))
    if len(notes) > 20:
        table.add_row("…", f"{len(notes) - 20} more")
    _console().print(table)


def skip_groups(skipped: Sequence[SkippedFile]) -> list[tuple[str, list[str]]]:
    """(reason, paths) groups, largest first; reasons are grouped without their specifics.

    "not valid UTF-8 (byte 0xe9 at offset 3)" and "duplicate doc_id 'x' (first loaded from a.md)"
    group as "not valid UTF-8" and "duplicate doc_id", so a thousand bad files make one row.
    """
    groups: dict[str, list[str]] = defaultdict(list)
    for entry in skipped:
        groups[_reason_kind(entry.reason)].append(entry.path)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))


def _reason_kind(reason: str) -> str:
    kind = re.sub(r"\s*\(.*\)", "", reason)  # parenthesised details
    kind = re.sub(r"\s*'[^']*'", "", kind)  # quoted names and ids
    kind = kind.split(";")[0].strip()
    return kind or reason


def print_skipped(skipped: Sequence[SkippedFile]) -> None:
    if not skipped:
        return
    table = Table(title="Skipped", title_justify="left")
    table.add_column("reason")
    table.add_column("count", justify="right")
    table.add_column("examples", overflow="fold")
    for reason, paths in skip_groups(skipped):
        shown = ", ".join(paths[:SKIPPED_PATHS_SHOWN])
        more = len(paths) - SKIPPED_PATHS_SHOWN
        table.add_row(escape(reason), str(len(paths)), escape(shown) + (f", … {more} more" if more > 0 else ""))
    _console().print(table)


# ---------------------------------------------------------------- search


def search_command(
    directory: IndexArg,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What to look for.")],
    k: Annotated[int, typer.Option("-k", "--k", help=f"Most hits to return (1 to {MAX_K:,}).")] = 10,
    budget: Annotated[
        int | None, typer.Option("--budget", help="Most tokens of chunk text to return in all.", show_default="no limit", min=1)
    ] = None,
    reranker: Reranker = None,
    chroma_host: Annotated[
        str | None, typer.Option("--chroma-host", help="The Chroma server holding the index's vectors (server mode).")
    ] = None,
    chroma_port: ChromaPort = 8000,
    as_json: Annotated[bool, typer.Option("--json", help="Print the hits as JSON.")] = False,
    where: Annotated[
        str | None,
        typer.Option(
            "--where",
            help='Filter on document metadata, Chroma syntax as JSON: \'{"file_name": "q3.pdf"}\', '
            '\'{"year": {"$gte": 2022}}\'.',
        ),
    ] = None,
    constraints: Annotated[
        str | None,
        typer.Option(
            "--constraints",
            help="Prefer the documents the query names: 'auto' reads company, period and form from QUERY and "
            'matches them to the index\'s metadata; or JSON such as \'{"company": ["Apple Inc."]}\'.',
        ),
    ] = None,
) -> None:
    """Hybrid search of INDEX for QUERY (BM25 + dense, fused with RRF, then reranked when the index has a reranker)."""
    with _clean_errors():
        check_query(query)  # the limits of every surface (corpus_tools.limits), before the index loads
        check_k(k)
        filters = parse_where(where)
        wanted = parse_constraints(constraints)
        _check_reranker_option(reranker)
        corpus = open_index(directory, chroma_client(chroma_host, chroma_port), reranker)
        _quiet_library_logs()
        started = time.perf_counter()
        hits = corpus.search(query, k=k, token_budget=budget, where=filters, constraints=wanted)
        elapsed = time.perf_counter() - started
        if as_json:
            typer.echo(json.dumps(hits_to_json(hits, corpus), ensure_ascii=False, indent=2))
        else:
            if wanted == "auto":
                typer.echo(constraints_line(corpus.question_constraints(query)))
            print_hits(hits, corpus, query, elapsed)


def parse_constraints(constraints: str | None) -> str | dict[str, Any] | None:
    """--constraints as search takes it: None, "auto", or a checked dict of metadata values."""
    if constraints is None or constraints.strip() == "auto":
        return None if constraints is None else "auto"
    try:
        value = json.loads(constraints)
    except ValueError:
        raise CommandError(
            f"--constraints takes 'auto' or JSON such as '{{\"company\": [\"Apple Inc.\"]}}', got {constraints!r}"
        ) from None
    from corpus_tools.constraints import check_constraints

    check_constraints(value)  # a ValueError saying what is wrong, shown as the command's error
    return value


def constraints_line(found: dict[str, Any]) -> str:
    """What --constraints auto read from the query, in one line a person reads."""
    if not found:
        return "constraints: none (this index has no company or period metadata)"
    parts = [f"{key} {', '.join(map(str, found[key]))}" for key in ("company", "period_end", "fiscal_year",
                                                                     "fiscal_quarter", "form") if found.get(key)]
    if found.get("meeting"):  # the meetings of the folder the question names (SearchConfig.meeting_names)
        parts.append(f"meeting {', '.join(map(str, found['meeting']))}")
    if found.get("period_preferred"):  # an unqualified quarter read several ways: all rank first, this one lifted
        parts.append(f"preferring period_end {', '.join(map(str, found['period_preferred']))}")
    if found.get("unmatched"):
        parts.append(f"not in this index: {', '.join(found['unmatched'])}")
    line = "constraints: " + ("; ".join(parts) if parts else "none named")
    return line + "".join(f" ({note})" for note in found.get("notes", []))


def parse_where(where: str | None) -> dict[str, Any] | None:
    """The --where JSON as a checked filter dict (None when not given)."""
    if where is None:
        return None
    try:
        value = json.loads(where)
    except ValueError as exc:
        raise CommandError(f'--where is not valid JSON ({exc}); e.g. --where \'{{"file_name": "q3.pdf"}}\'') from None
    from corpus_tools.filters import check_where

    return check_where(value)


def open_index(directory: Path, client: Any = None, reranker: str | None = None) -> Any:
    """`Corpus.open`, with a message saying what to do when INDEX is not an index."""
    from corpus_tools import Corpus
    from corpus_tools.types import IndexFormatError

    if not directory.exists():
        raise CommandError(f"no index at {str(directory)!r}: build one with `context1 index SOURCE {directory}`")
    if not directory.is_dir():
        raise CommandError(f"{str(directory)!r} is a file, not an index folder")
    if client is None and _manifest_field(directory, "vector_store") == "server":
        raise CommandError(
            f"{str(directory)!r} keeps its vectors on a Chroma server: pass --chroma-host HOST --chroma-port PORT"
        )
    try:
        return Corpus.open(directory, client=client, reranker=reranker)
    except IndexFormatError as exc:
        hint = f"build one with `context1 index SOURCE {directory}`"
        if not (directory / "manifest.json").exists():
            if any(directory.iterdir()):
                # `context1 index` refuses to replace a folder of other files: don't send the user there.
                hint = "build one into a new or empty folder with `context1 index SOURCE NEWDIR`"
            raise CommandError(f"{str(directory)!r} is not a context1 index (no manifest.json); {hint}") from None
        if "context1 repair" in str(exc):  # a damaged vector matrix: repairable in place
            raise CommandError(str(exc)) from None
        raise CommandError(f"{str(directory)!r} is a broken context1 index: {exc} Rebuild it: {hint}") from None


def _manifest_field(directory: Path, key: str) -> Any:
    try:
        return json.loads((directory / "manifest.json").read_text(encoding="utf-8")).get(key)
    except (OSError, ValueError, AttributeError):
        return None  # Corpus.open reports a missing or broken manifest


def _title(hit: Hit, corpus: Any) -> str:
    title = hit.chunk.metadata.get("title") if hit.chunk.metadata else None
    return title or corpus.title(hit.chunk.doc_id) or ""


def hits_to_json(hits: Sequence[Hit], corpus: Any) -> list[dict[str, Any]]:
    """Machine-readable hits: rank, ids, title, score, every leg's rank and score, and the text."""
    return [
        {
            "rank": rank,
            "chunk_id": hit.chunk.chunk_id,
            "doc_id": hit.chunk.doc_id,
            "title": _title(hit, corpus),
            "position": hit.chunk.position,
            "n_tokens": hit.chunk.n_tokens,
            "score": float(hit.score),
            "ranks": {str(getattr(leg, "value", leg)): int(r) for leg, r in hit.ranks.items()},
            "scores": {str(getattr(leg, "value", leg)): float(s) for leg, s in hit.scores.items()},
            "text": hit.chunk.text,
        }
        for rank, hit in enumerate(hits, start=1)
    ]


def print_hits(hits: Sequence[Hit], corpus: Any, query: str, seconds: float) -> None:
    if not hits:
        _console().print(f"No hits for {query!r} in {corpus.path}.", markup=False)
        return
    reranker = getattr(getattr(corpus, "reranker", None), "name", "none")
    table = Table(
        title=f"{len(hits)} hits for {escape(repr(query))}  ({len(corpus):,} chunks, reranker {escape(reranker)}, {seconds * 1000:.0f} ms)",
        title_justify="left",
    )
    # One wide text column (chunk id, document, snippet) and narrow rank columns: readable from
    # 80 columns up, where a separate snippet column would be squeezed to a few characters.
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("chunk · document · text", overflow="fold", ratio=1)
    for leg in ("bm25", "dense", "fused", "rerank"):
        table.add_column(leg, justify="right", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    for rank, hit in enumerate(hits, start=1):
        title = _title(hit, corpus)
        doc = escape(hit.chunk.doc_id)
        document = doc if not title or title == hit.chunk.doc_id else f"{escape(title)} [dim]({doc})[/]"
        ranks = {str(getattr(leg, "value", leg)): r for leg, r in hit.ranks.items()}
        table.add_row(
            str(rank),
            f"[bold]{escape(hit.chunk.chunk_id)}[/] · {document}\n[dim]{escape(_snippet(hit.chunk.text))}[/]",
            *(str(ranks[leg]) if leg in ranks else "–" for leg in ("bm25", "dense", "fused", "rerank")),
            f"{hit.score:.4g}",
        )
    _console().print(table)


def _snippet(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SNIPPET_CHARS else flat[: SNIPPET_CHARS - 1].rstrip() + "…"


# ---------------------------------------------------------------- updates

IndexDir = IndexArg


NoProgress = Annotated[bool, typer.Option("--no-progress", help="Hide the progress display.")]


@contextmanager
def progress_display(enabled: bool) -> Iterator[Any]:
    """A one-line live display on stderr (spinner, what is happening, elapsed time); `.say(text)` updates it."""
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    class _Line:
        def __init__(self, progress: Any) -> None:
            self._progress = progress
            self._task = progress.add_task("", total=None) if progress is not None else None

        def say(self, text: str) -> None:
            if self._progress is not None:
                self._progress.update(self._task, description=escape(text))

    if not enabled:
        yield _Line(None)
        return
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=_console(stderr=True), transient=True) as progress:
        yield _Line(progress)


def add_command(
    directory: IndexDir,
    source: Annotated[
        str, typer.Argument(metavar="SOURCE", help="A folder or file of documents; a known doc_id is replaced.")
    ],
    chroma_host: ChromaHost = None,
    chroma_port: ChromaPort = 8000,
    no_progress: NoProgress = False,
) -> None:
    """Add documents to INDEX (incremental and crash-safe: a kill leaves the old or the new index)."""
    with _clean_errors():
        if not Path(source).expanduser().exists():
            raise CommandError(f"no such file or folder: {source!r} (give a folder of documents or one file)")
        corpus = open_index(directory, chroma_client(chroma_host, chroma_port))
        _quiet_library_logs()
        before = len(corpus.skipped)
        started = time.perf_counter()
        from corpus_tools.loaders import ReadOptions, load_documents

        with progress_display(not no_progress) as line:
            # Read here rather than inside Corpus.add, so the display can name the file being read.
            # read as the index was (its config's readers), as `Corpus.add` reads a path itself
            report = load_documents(source, on_file=lambda where: line.say(f"reading {where}"),
                                    **asdict(ReadOptions.from_config(corpus.config)))
            line.say(f"chunking, embedding and committing {len(report.documents):,} document(s)")
            n = corpus.add(report)
        elapsed = time.perf_counter() - started
        _console().print(
            f"Added {n:,} document(s) to {corpus.path} in {elapsed:.1f} s; it now holds "
            f"{len(corpus.doc_ids()):,} documents, {len(corpus):,} chunks.",
            markup=False,
        )
        print_skipped(corpus.skipped[before:])
        _compaction_hint(corpus)


def delete_command(
    directory: IndexDir,
    doc_ids: Annotated[list[str], typer.Argument(metavar="DOC_ID...", help="Ids of the documents to remove.")],
    chroma_host: ChromaHost = None,
    chroma_port: ChromaPort = 8000,
) -> None:
    """Remove documents from INDEX by doc_id."""
    with _clean_errors():
        corpus = open_index(directory, chroma_client(chroma_host, chroma_port))
        unknown = [d for d in doc_ids if not corpus.has_doc(d)]
        if unknown and len(unknown) == len(doc_ids):
            from corpus_tools.types import UnknownDocumentError

            try:
                corpus.chunks(unknown[0])
            except UnknownDocumentError as exc:
                raise CommandError(f"{exc} Nothing deleted.") from None
        n = corpus.delete(doc_ids)
        message = f"Deleted {n:,} document(s) from {corpus.path}; {len(corpus.doc_ids()):,} remain."
        if unknown:
            message += f" Not in the index (ignored): {', '.join(unknown)}."
        _console().print(message, markup=False)
        _compaction_hint(corpus)


def _compaction_hint(corpus: Any) -> None:
    """Commits never compact (that is O(index)); say when the deltas have grown enough to be worth it."""
    if corpus.manifest.get("compaction_due"):
        _console().print(
            f"The changes since the last compaction passed 10% of {corpus.path}: `context1 repair {corpus.path}` "
            "folds them into one base (searches stay correct meanwhile, a little slower).",
            markup=False,
        )


def repair_command(directory: IndexDir) -> None:
    """Repair and compact INDEX: its vector matrix from Chroma when damaged, then one base and a new FAISS index."""
    with _clean_errors():
        from corpus_tools.maintenance import repair_index

        done = repair_index(directory)
        _console().print(f"Repaired {directory}: {done}.", markup=False)


def sync_command(
    directory: IndexDir,
    folder: Annotated[str, typer.Argument(metavar="FOLDER", help="The folder of documents the index should mirror.")],
    glob: Annotated[str | None, typer.Option(help="Only files matching this pattern, e.g. '**/*.pdf'.")] = None,
    chroma_host: ChromaHost = None,
    chroma_port: ChromaPort = 8000,
    no_progress: NoProgress = False,
) -> None:
    """Re-index only the files of FOLDER added, changed or removed since INDEX last saw them."""
    with _clean_errors():
        if not Path(folder).expanduser().is_dir():
            raise CommandError(f"no such folder: {folder!r}")
        corpus = open_index(directory, chroma_client(chroma_host, chroma_port))
        _quiet_library_logs()
        started = time.perf_counter()
        with progress_display(not no_progress) as line:
            line.say(f"syncing {corpus.path} with {folder}: comparing sizes and modification times")
            # Each changed file is named as it is read; embedding and committing follow the last one.
            report = corpus.sync(
                folder, glob=glob, on_file=lambda where: line.say(f"reading {where} (then embedding and committing)")
            )
        elapsed = time.perf_counter() - started
        _console().print(
            f"Synced {corpus.path} with {folder} in {elapsed:.1f} s: {len(report.added)} added, "
            f"{len(report.updated)} updated, {len(report.deleted)} deleted, {report.unchanged} unchanged.",
            markup=False,
        )
        print_skipped(report.skipped)


# Chunk-metadata keys that describe where a passage sits, not the document (shown per chunk).
_CHUNK_KEYS = ("page", "section", "kind", "boilerplate")
# Keys that are bookkeeping, not something a reader looks for.
_HIDDEN_KEYS = ("header", "source_size", "source_mtime_ns")


def read_command(
    directory: IndexArg,
    doc_id: Annotated[str, typer.Argument(metavar="DOC_ID", help="A document id (see `context1 search`), or a chunk id with --chunk.")],
    chunk: Annotated[bool, typer.Option("--chunk", help="DOC_ID is a chunk id: print that passage alone.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the chunks and their metadata as JSON.")] = False,
) -> None:
    """Print a document of INDEX as it is indexed: its metadata (company, form, period, ...), then each chunk
    with its page, section and contextual header."""
    with _clean_errors():
        corpus = open_index(directory, None)
        chunks = [corpus.chunk(doc_id)] if chunk else corpus.chunks(doc_id)
        if as_json:
            typer.echo(json.dumps([{"chunk_id": c.chunk_id, "doc_id": c.doc_id, "text": c.text,
                                    "metadata": dict(c.metadata)} for c in chunks], ensure_ascii=False, indent=2))
            return
        console = _console()
        first = chunks[0]
        console.print(f"{first.doc_id} · {corpus.title(first.doc_id) or first.doc_id}", markup=False, style="bold")
        fields = {k: v for k, v in first.metadata.items() if k not in (*_CHUNK_KEYS, *_HIDDEN_KEYS, "title")}
        for key, value in fields.items():
            console.print(f"  {key}: {value}", markup=False)
        for c in chunks:
            where = ", ".join(f"{k} {c.metadata[k]}" for k in _CHUNK_KEYS if c.metadata.get(k) not in (None, ""))
            console.print(f"\n{c.chunk_id}" + (f" · {where}" if where else ""), markup=False, style="bold")
            if c.metadata.get("header"):
                console.print(f"[{c.metadata['header']}]", markup=False, style="dim")
            console.print(c.text, markup=False)


def info_command(
    directory: IndexArg,
    as_json: Annotated[bool, typer.Option("--json", help="Print the account as JSON.")] = False,
) -> None:
    """What INDEX holds: documents, chunks, metadata fields, embedding model, reranker, size on disk, how
    the dense leg searches (exact or approximate), and when it was built."""
    with _clean_errors():
        from corpus_tools.info import index_info

        with open_index(directory, None) as corpus:
            info = index_info(corpus)
        if as_json:
            typer.echo(json.dumps(info, ensure_ascii=False, indent=2))
            return
        console = _console()
        tokens = f" ({info['tokens']:,} tokens)" if info.get("tokens") else ""
        fields = ", ".join(info["fields"]) or "(none)"
        rows = [
            ("index", info["path"]),
            ("documents", f"{info['documents']:,}" + _by_type(info.get("file_types", {}))),
            ("chunks", f"{info['chunks']:,}{tokens}; {info['chunking']['chunk_tokens']} tokens each, "
                       f"{info['chunking']['overlap_tokens']} overlap"),
            ("fields", fields + (f" (from {FIELD_SAMPLE_NOTE})" if info["fields_sampled"] else "")),
            ("embedding model", f"{info['embedding_model']} ({info['embedding_dim']} dimensions)"),
            ("reranker", info["reranker"]),
            ("dense search", info["dense_search"]),
            ("vectors", info["vector_store"]),
            ("size on disk", _size(info["size_bytes"])),
            ("built", f"{info['built']} (updated {info['updated']}, generation {info['generation']})"),
        ]
        width = max(len(k) for k, _ in rows)
        for key, value in rows:
            console.print(f"{key:<{width}}  {value}", markup=False, highlight=False, soft_wrap=True)


FIELD_SAMPLE_NOTE = "a sample of documents spread over the index"


def _by_type(types: dict[str, int]) -> str:
    """" (.eml 80, .mbox 23, .docx 4)": documents per file type, when any came from files."""
    if not types or set(types) == {"other"}:
        return ""
    return " (" + ", ".join(f"{kind} {n:,}" for kind, n in types.items()) + ")"


def _size(n: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:,} bytes" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1024
    return f"{n:,.1f} TB"  # pragma: no cover


COMMANDS = {
    "index": index_command,
    "add": add_command,
    "delete": delete_command,
    "sync": sync_command,
    "repair": repair_command,
    "search": search_command,
    "read": read_command,
    "info": info_command,
}


def register(app: typer.Typer) -> None:
    """Add `index`, `add`, `delete`, `sync`, `repair`, `search`, `read` and `info` to the context1 command line."""
    for name, command in COMMANDS.items():
        app.command(name)(command)
