"""`context1 train ...`: the training command group, registered through the `context1.commands` entry point."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the `train` group (here: `train reranker`) to the context1 command line."""
    from training import cli_reranker

    train_app = typer.Typer(help="Train: a reranker from generated tasks (SFT and CISPO RL join here).", no_args_is_help=True)
    cli_reranker.register(train_app)
    app.add_typer(train_app, name="train")
