"""`context1 train writer OUT`: a thin layer over `training.question_writer` (the learned question
writer that `context1 datagen --writer learned --writer-model OUT` uses)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer


def writer_command(
    out: Annotated[Path, typer.Argument(metavar="OUT", help="Writer folder: writer.json, adapter/, checkpoint/, metrics.jsonl.")],
    data_dir: Annotated[
        Path, typer.Option(help="The benchmark folders (hotpotqa/, musique/, scifact/); only their tuning parts are read.")
    ] = Path("../shared/data"),
    model: Annotated[str | None, typer.Option(help="Local model folder or .gguf.", show_default="bundled SmolLM2-135M")] = None,
    max_steps: Annotated[int | None, typer.Option(help="Stop after this many optimizer steps.", min=1)] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue from OUT's last checkpoint.")] = False,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="Hide progress bars.")] = False,
) -> None:
    """Train the learned question writer (SmolLM2 + LoRA) on (passage, answer → question) pairs."""
    from training.cli_common import CommandError, _clean_errors

    with _clean_errors():
        from training.question_writer import WriterTrainConfig, train_writer, writer_pairs

        pairs = writer_pairs(data_dir)
        if not pairs:
            raise CommandError(f"no writer pairs under {str(data_dir)!r} (expected hotpotqa/, musique/, scifact/ files)")
        config = WriterTrainConfig()
        config = dataclasses.replace(config, sft=dataclasses.replace(config.sft, max_steps=max_steps))
        typer.echo(f"{len(pairs)} pairs from the tuning parts", err=True)
        result = train_writer(pairs, out, config, model_path=model, resume=resume, progress=not no_progress)
        typer.echo(f"{result.steps} steps on {result.datums} pairs, last loss {result.final_loss}; "
                   f"use it with `context1 datagen INDEX OUT --writer learned --writer-model {out} --hops 1`")


def register(app: typer.Typer) -> None:
    app.command("writer")(writer_command)
