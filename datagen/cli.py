"""`context1 datagen INDEX OUT`, registered through the `context1.commands` entry point.

A thin layer over `datagen.run.run_datagen` (DESIGN: every command is a function a user can call).
Expected failures print one line and exit with status 2, without a traceback; a run that cannot
reach --n stops with what it found, says why, and exits 0 (its tasks are usable).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

EXIT_USAGE = 2


def datagen_command(
    index: Annotated[Path, typer.Argument(metavar="INDEX", help="An index folder built by `context1 index`.")],
    out: Annotated[Path, typer.Argument(metavar="OUT", help="Output folder; an existing one is resumed (tasks are appended).")],
    n: Annotated[int, typer.Option("--n", help="New tasks wanted.", min=1)] = 100,
    hops: Annotated[str, typer.Option(help="Hop counts, e.g. 2-4, 1-4 or 1,3 (1-hop tasks train rerankers).")] = "2-4",
    backend: Annotated[
        str, typer.Option(help="offline (no model), openai, transformers, or scripted (a JSONL script: --script).")
    ] = "offline",
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible server URL (backend openai).")] = None,
    model: Annotated[str | None, typer.Option(help="Model name (openai) or local path (transformers).")] = None,
    script: Annotated[Path | None, typer.Option(help="Script file of the scripted backend (JSONL turns).")] = None,
    structured: Annotated[
        str, typer.Option(help="JSON output constraint sent to OpenAI-compatible servers: json_schema, json_object, none.")
    ] = "json_schema",
    explorer: Annotated[
        str,
        typer.Option(help="LLM backends: how supporting documents are gathered: mined (a walk over the corpus's "
                     "title links) or agent (the model gathers them with the search agent's tools, SPEC §4)."),
    ] = "mined",
    seed: Annotated[int, typer.Option(help="Seed of every random choice (same seed + index = same tasks).")] = 0,
    exclude: Annotated[
        list[Path] | None,
        typer.Option(help="Doc ids to keep out: a file of ids (one per line) or a task file (its gold documents)."),
    ] = None,
    test_fraction: Annotated[float, typer.Option(help="Share of tasks in the test split.", min=0.0, max=1.0)] = 0.2,
    keep_easy: Annotated[
        bool, typer.Option("--keep-easy", help="Keep multi-hop tasks that one hybrid search already solves.")
    ] = False,
    distractors: Annotated[int, typer.Option(help="Distractor documents kept per task.", min=0)] = 5,
    form: Annotated[
        str,
        typer.Option(
            help="Offline question form: natural (questions a person would ask, written from a parse of the "
            "corpus; needs the spaCy model) or cloze (masked sentence windows, no model)."
        ),
    ] = "natural",
    bm25_budget: Annotated[
        float,
        typer.Option(
            help="Largest share of bridge tasks whose later documents BM25 already finds in its top 10 "
            "(1 turns the budget off).",
            min=0.0,
            max=1.0,
        ),
    ] = 0.28,
    solved_budget: Annotated[
        float,
        typer.Option(
            help="Largest share of bridge tasks that one search already solves (every supporting document "
            "in its top 10); 0 drops them all, --keep-easy keeps them all.",
            min=0.0,
            max=1.0,
        ),
    ] = 0.28,
    writer: Annotated[
        str,
        typer.Option(help="Who writes natural questions: templates (over the parsed corpus) or learned (a "
                     "SmolLM2 LoRA question writer: --writer-model; single-hop, --hops 1)."),
    ] = "templates",
    writer_model: Annotated[
        Path | None, typer.Option(help="The learned writer's folder (writer.json + adapter/), for --writer learned.")
    ] = None,
    writer_form: Annotated[
        str, typer.Option(help="What the learned writer drafts: question (for an answer span) or claim (scientific abstracts).")
    ] = "question",
    mix: Annotated[
        str,
        typer.Option(metavar="comparison=SHARE,bridge_comparison=SHARE,relation=SHARE,order=SHARE,order_hold=0|1,bridges=0|1,sets=0|1,acts=0|1,speaker_words=0|1,defaults=0|1,versions=0|1,releases=0|1,doc_prose=0|1,meeting_guard=0|1",
                     help="Output mix of the natural templates: comparison=SHARE (largest share of multi-hop tasks "
                     "that are comparisons, default 0.2), bridge_comparison=SHARE (that compare two bridges, "
                     "default 0.25), relation=SHARE (largest share of bridges one relation describes, default "
                     "0.2), order=SHARE (largest share of all the tasks that order one person's dated acts in chats "
                     "or mail, default 0: written once nothing else is left), order_hold=0|1 (1: never exceeded, a "
                     "smaller set instead; default 0), bridges=0|1 (ask a chat's day-asked thing "
                     "through another sentence of its session too, once the plain questions are written; default 1), "
                     "sets=0|1 (ask what a speaker told of themself over several sessions as a set, default 1), "
                     "acts=0|1 (ask what a speaker did with one verb over several sessions as a set, default 1), "
                     "speaker_words=0|1 (ask a chat thing whose answer keeps the speaker's \"my\", \"our\"; default 0), "
                     "defaults=0|1 (ask a documented option's default value, default 1), versions=0|1 (ask the "
                     "version that added, changed, deprecated or removed a documented thing, default 1), releases=0|1 (ask a "
                     "release-notes page's release days and added support, default 1), doc_prose=0|1 (ask "
                     "a documentation page's prose with the sentence templates too, default 0), "
                     "meeting_guard=0|1 (ask a meeting transcript's facts only where safe: named subjects and "
                     "answers, no role or letter-code speaker, no chat reader on speech; default 1), "
                     "e.g. comparison=0.25,order=0.2."),
    ] = "",
    no_progress: Annotated[bool, typer.Option("--no-progress", help="Hide the progress bar.")] = False,
) -> None:
    """Generate verified multi-hop tasks from an index: JSONL, HF dataset, BEIR folder and a card in OUT."""
    from corpus_tools.types import CorpusError
    from datagen.natural import parse_mix
    from datagen.nlp import ParseModelError
    from datagen.pipeline import GenerateConfig, parse_hops
    from datagen.run import exclusions, run_datagen

    try:
        config = GenerateConfig(
            n=n,
            hops=parse_hops(hops),
            seed=seed,
            exclude_doc_ids=exclusions(exclude or []),
            drop_easy=not keep_easy,
            n_distractors=distractors,
            bm25_budget=None if bm25_budget >= 1.0 else bm25_budget,
            solved_budget=solved_budget,
        )
        learned = _writer(writer, writer_model, backend)
        chosen, options = _backend(backend, base_url, model, script, seed, structured)
        if explorer != "mined":
            if chosen is None:
                raise ValueError("--explorer agent needs an LLM --backend (openai, transformers, scripted)")
            options["explorer"] = explorer
        report, split = run_datagen(
            index, out, config, backend=chosen, llm_options=options, test_fraction=test_fraction,
            progress=not no_progress, form=form, writer=learned, writer_options={"form": writer_form} if learned else None,
            mix=parse_mix(mix),
        )
    except (CorpusError, FileNotFoundError, ValueError, ParseModelError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    typer.echo(f"{report.written} new task(s) in {out / 'tasks.jsonl'} ({report.existing} were already there)")
    typer.echo(f"stopped: {report.stopped}")
    typer.echo(f"proposed {report.attempted}, dropped {sum(report.drops.values())}: " + (
        ", ".join(f"{k} {v}" for k, v in report.drops.most_common()) or "none"
    ))
    if report.fallback:
        typer.echo(f"note: {report.fallback}")
    for hops, why in sorted(report.given_up.items()):
        typer.echo(f"{hops}-hop tasks: {report.by_hops.get(hops, 0)} written; no more because {why}")
    if report.stages:
        typer.echo("stages: " + ", ".join(f"{k} {v}" for k, v in sorted(report.stages.items())))
    if report.usage:
        typer.echo("token usage: " + ", ".join(f"{k} {v}" for k, v in sorted(report.usage.items())))
    typer.echo(
        f"split: {len(split.train)} train / {len(split.test)} test / {len(split.dropped)} left out; "
        f"card: {out / 'README.md'}"
    )


def _writer(kind: str, folder: Path | None, backend: str) -> Path | None:
    """The learned writer's folder, or None for the templates; a clear error for a bad combination."""
    if kind not in ("templates", "learned"):
        raise ValueError(f"unknown --writer {kind!r}; choose templates or learned")
    if kind == "templates":
        if folder is not None:
            raise ValueError("--writer-model needs --writer learned")
        return None
    if folder is None:
        raise ValueError("--writer learned needs --writer-model DIR (a folder written by the writer's training)")
    if backend not in ("offline", "scripted"):
        raise ValueError("--writer learned runs its own model (or --backend scripted in tests), not --backend " + backend)
    return folder


def _backend(
    kind: str, base_url: str | None, model: str | None, script: Path | None, seed: int, structured: str
) -> tuple[object, dict[str, object]]:
    """(backend, LLMConfig options) for a kind; (None, {}) for the offline generator."""
    if kind == "offline":
        if base_url or model or script:
            raise ValueError("--base-url/--model/--script need an LLM --backend (openai, transformers, scripted)")
        return None, {}
    from context1.backends import make_backend

    if kind == "scripted":
        if script is None:
            raise ValueError("--backend scripted needs --script FILE (JSONL, one turn per line)")
        return make_backend("scripted", path=script), {"structured": "none"}
    if kind == "openai":
        # The key is read here, below the CLI nothing reads the environment (STYLE 9).
        backend = make_backend("openai", base_url=base_url, model=model, api_key=os.environ.get("OPENAI_API_KEY"),
                               seed=seed, temperature=0.7)
        return backend, {"structured": structured}
    if kind == "transformers":
        return make_backend("transformers", model=model, seed=seed), {"structured": "none"}
    raise ValueError(f"unknown --backend {kind!r}; choose offline, openai, transformers or scripted")


def register(app: typer.Typer) -> None:
    """Add `datagen` to the context1 command line."""
    app.command("datagen")(datagen_command)
