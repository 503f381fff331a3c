"""What every `context1 train …` command shares: expected failures as one line, opening an index and a
task file. Its own module so the command modules (cli, cli_reranker, cli_search_policy) import it
downward and never each other."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

EXIT_USAGE = 2


class CommandError(Exception):
    """An expected failure: one line, exit status 2."""


@contextmanager
def _clean_errors() -> Iterator[None]:
    from corpus_tools.types import CorpusError
    from training.run_state import TrainingDiverged

    try:
        yield
    except TrainingDiverged as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    except (CommandError, CorpusError, FileNotFoundError, ValueError, ImportError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_USAGE) from None


def _open(index: Path) -> Any:
    from corpus_tools import Corpus

    if not (index / "manifest.json").is_file():
        raise CommandError(f"no index at {str(index)!r}; build one with `context1 index SOURCE DIR`")
    return Corpus.open(index)


def _tasks(path: Path, limit: int | None) -> list[Any]:
    from training.rollouts import load_task_file

    tf = load_task_file(path)
    for s in tf.skipped[:3]:
        typer.echo(f"skipped: {s}", err=True)
    return tf.tasks[:limit] if limit else tf.tasks


def _extra_spec(spec: str) -> tuple[Path, Path]:
    """`--extra-tasks INDEX=TASKS`: another corpus's index folder and a task file over it, both checked.
    ValueError, not CommandError: `train reranker` reports errors through the corpus commands' handler,
    which prints a ValueError as one line too."""
    index, sep, tasks = spec.partition("=")
    if not sep or not index or not tasks:
        raise ValueError(f"--extra-tasks {spec!r}: give an index folder and a task file as INDEX=TASKS")
    if not (Path(index) / "manifest.json").is_file():
        raise ValueError(f"--extra-tasks {spec!r}: no index at {index!r}")
    if not Path(tasks).is_file():
        raise ValueError(f"--extra-tasks {spec!r}: no task file at {tasks!r}")
    return Path(index), Path(tasks)
