"""The `context1` command line: a thin layer over the Python API.

Each command group lives in its own module with a `register(app)` function. Commands that belong
to packages above context1 (eval, training) register through the `context1.commands` entry-point
group, so this module never imports upward (DESIGN.md).
"""

from __future__ import annotations

import sys
from importlib.metadata import entry_points

import typer

app = typer.Typer(
    name="context1",
    help="Agentic retrieval: index a corpus, search it, ask the search agent, evaluate.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _register_all() -> None:
    from context1 import cli_ask, cli_corpus, cli_serve

    cli_corpus.register(app)
    cli_ask.register(app)
    cli_serve.register(app)
    for ep in entry_points(group="context1.commands"):
        try:
            ep.load()(app)
        except ImportError as exc:  # a plugin with a missing extra must not break the rest
            print(f"context1: command group {ep.name!r} unavailable ({exc})", file=sys.stderr)


def main() -> None:
    _register_all()
    app()


if __name__ == "__main__":
    main()
