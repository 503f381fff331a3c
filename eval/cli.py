"""`context1 eval` and `context1 report`, registered through the `context1.commands` entry point.

A thin layer (DESIGN: every command is a function a user can call): `eval` is `load_benchmark` +
(`Corpus.build` when the index is missing) + `open_retriever` + `run_eval`; `report` is
`write_report`. Expected failures print one line and exit with status 2, without a traceback.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

EXIT_USAGE = 2  # click's status for bad input, as the rest of the context1 CLI uses


class CommandError(Exception):
    """An expected failure: printed as one line, then the command exits with status 2."""


@contextmanager
def _clean_errors() -> Iterator[None]:
    from corpus_tools.types import CorpusError

    try:
        yield
    except (CommandError, CorpusError, FileNotFoundError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None


def ensure_index(index: Path, benchmark: Any, progress: bool = True) -> bool:
    """Builds the benchmark's corpus into `index` unless an index is already there; True if built."""
    if (index / "manifest.json").is_file():
        return False
    if not benchmark.documents:
        raise CommandError(
            f"no index at {str(index)!r} and benchmark {benchmark.name!r} carries no documents to build one; "
            "index its corpus first with `context1 index SOURCE INDEX`"
        )
    from corpus_tools import Corpus

    typer.echo(f"building the {benchmark.name} index ({len(benchmark.documents)} documents) into {index} ...", err=True)
    Corpus.build(benchmark.documents, index, progress=progress).close()
    return True


def eval_command(
    index: Annotated[
        Path, typer.Argument(metavar="INDEX", help="Index folder; the benchmark's corpus is built into it when absent.")
    ],
    benchmark: Annotated[
        str,
        typer.Option(help="hotpotqa, musique, locomo, scifact, or the path of a task file (JSONL / saved dataset)."),
    ],
    out: Annotated[Path, typer.Option(help="Run file (JSONL); an existing one is resumed.")],
    data_dir: Annotated[Path, typer.Option(help="Folder holding the benchmark folders.")] = Path("../shared/data"),
    retriever: Annotated[str, typer.Option(help="bm25, dense, hybrid, hybrid+rerank, or agent.")] = "hybrid",
    backend: Annotated[
        str | None, typer.Option(help="Agent backend kind: iterative (default), openai, transformers, vllm.")
    ] = None,
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible server URL (backend openai).")] = None,
    model: Annotated[str | None, typer.Option(help="Model name (openai) or local path (transformers, vllm).")] = None,
    policy: Annotated[
        Path | None, typer.Option(help="Backend learned: the folder `context1 train policy` wrote.")
    ] = None,
    reranker: Annotated[
        str | None, typer.Option(help="Reranker for hybrid+rerank: biencoder (default) or a CrossEncoder folder.")
    ] = None,
    max_documents: Annotated[
        int, typer.Option("--max-documents", help="Documents returned per task (the agent's max_documents).", min=1)
    ] = 10,
    max_passages: Annotated[
        int, typer.Option("--max-passages", help="Passages returned per task (the agent's max_passages; a single "
                          "search's top chunks), scored by the passage.* metrics.", min=1)
    ] = 5,
    token_budget: Annotated[int | None, typer.Option(help="Agent token budget.", show_default="AgentConfig's")] = None,
    limit: Annotated[int | None, typer.Option(help="Evaluate only the first N tasks.", min=1)] = None,
    workers: Annotated[int, typer.Option(help="Tasks evaluated concurrently.", min=1)] = 1,
    locomo_unit: Annotated[str, typer.Option(help="LoCoMo documents: turn or session.")] = "turn",
    retry_errors: Annotated[
        bool, typer.Option("--retry-errors", help="Re-run tasks whose record has an error.")
    ] = False,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="Hide the progress bar.")] = False,
) -> None:
    """Evaluate a retriever or the agent on a benchmark; one JSONL record per task in OUT."""
    with _clean_errors():
        from eval.loaders import load_benchmark
        from eval.report import overview_table
        from eval.retrievers import RETRIEVERS, open_retriever
        from eval.runners import corpus_texts, document_texts, run_eval

        if retriever not in RETRIEVERS:
            raise CommandError(f"unknown retriever {retriever!r}; choose one of {RETRIEVERS}")
        if (policy is not None) != (backend == "learned"):
            raise CommandError("--backend learned needs --policy DIR, and --policy goes with --backend learned only")
        if retriever != "agent" and (backend or base_url or model or token_budget):
            raise CommandError("--backend/--base-url/--model/--token-budget apply to --retriever agent only")
        bench = load_benchmark(benchmark, data_dir, locomo_unit=locomo_unit)
        for note in bench.notes[:5]:
            typer.echo(f"note: {note}", err=True)
        if len(bench.notes) > 5:
            typer.echo(f"note: ... and {len(bench.notes) - 5} more", err=True)
        tasks = bench.tasks[:limit] if limit else bench.tasks
        ensure_index(index, bench, progress=not no_progress)

        agent_config = None
        options: dict[str, Any] = {}
        if retriever == "agent":
            from context1 import AgentConfig

            agent_config = AgentConfig(max_documents=max_documents, max_passages=max_passages,
                                       **({"token_budget": token_budget} if token_budget else {}))
            options = {key: v for key, v in (("base_url", base_url), ("model", model), ("policy", policy))
                       if v is not None}
        run = open_retriever(
            retriever,
            index,
            k=max_documents,
            passage_k=max_passages,
            reranker=reranker,
            backend=backend or None,
            backend_options=options,
            agent_config=agent_config,
        )
        corpus = run.corpus
        missing = {g for t in tasks for g in t.gold_doc_ids if not corpus.has_doc(g)}
        if missing:
            typer.echo(
                f"warning: {len(missing)} gold doc id(s) are not in the index (e.g. {sorted(missing)[:3]}); "
                "was it built from another corpus?",
                err=True,
            )
        doc_text = document_texts(bench.documents) if bench.documents else corpus_texts(corpus)
        try:
            records = run_eval(
                tasks,
                run,
                out,
                workers=workers,
                k=max_documents,
                doc_text=doc_text,
                progress=not no_progress,
                retry_errors=retry_errors,
            )
        finally:
            corpus.close()
        typer.echo(f"{len(records)} task(s) in {out}")
        typer.echo(overview_table({out.stem: records}))


def report_command(
    runs: Annotated[list[Path], typer.Argument(metavar="RUNS...", help="Run files (JSONL) to report on, side by side.")],
    out: Annotated[Path, typer.Option(help="Folder for summary.md and the PNG plots.")],
    title: Annotated[str, typer.Option(help="Title of the report.")] = "Evaluation report",
) -> None:
    """Write a markdown summary, plots and a side-by-side comparison of one or more runs."""
    with _clean_errors():
        from eval.report import write_report

        for p in runs:
            if not p.is_file():
                raise CommandError(f"no such run file: {str(p)!r}")
        path = write_report(runs, out, title=title)
        typer.echo(f"wrote {path}")


def register(app: typer.Typer) -> None:
    """Add `eval` and `report` to the context1 command line."""
    app.command("eval")(eval_command)
    app.command("report")(report_command)
