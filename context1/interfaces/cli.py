"""The `context1` command line: a thin layer over the Python API.

Each command group lives in its own module with a `register(app)` function. Commands that belong
to packages above context1 (eval, training) register through the `context1.commands` entry-point
group, so this module never imports upward (DESIGN.md).
"""

from __future__ import annotations

import sys
from importlib.metadata import entry_points
from typing import Annotated

import typer

app = typer.Typer(
    name="context1",
    help="Agentic retrieval: index a corpus, search it, ask the search agent, evaluate.",
    no_args_is_help=True,
    # Help as plain text: rich markup read "pip install 'context1[gpu]'" as a style tag and dropped it, and
    # drew a "<bool>" beside every flag. Every command group under this app inherits the mode.
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _show_version(value: bool) -> None:
    if value:
        from context1.version import __version__

        typer.echo(f"context1 {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", callback=_show_version, is_eager=True)
    ] = False,
) -> None:
    """Agentic retrieval: index a corpus, search it, ask the search agent, evaluate."""


def _register_all() -> None:
    from context1.interfaces import cli_ask, cli_corpus, cli_serve

    cli_corpus.register(app)
    cli_ask.register(app)
    cli_serve.register(app)
    for ep in entry_points(group="context1.commands"):
        try:
            ep.load()(app)
        except ImportError as exc:  # a plugin with a missing extra must not break the rest
            print(f"context1: command group {ep.name!r} unavailable ({exc})", file=sys.stderr)


def main() -> None:
    from context1.interfaces import cli_corpus

    words = [arg for arg in sys.argv[1:] if not arg.startswith("-")]
    if words and words[0] in cli_corpus.COMMANDS:
        # An index command needs only its own group: registering every group (the agent's, the
        # servers', eval's and training's through entry points) cost a cold `context1 search`
        # ~0.25 s of imports and command building (benchmarks/cold_start.py).
        cli_corpus.register(app)
    else:
        _register_all()
    app()


if __name__ == "__main__":
    main()
