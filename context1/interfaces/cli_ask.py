"""`context1 ask INDEX "QUERY"`: run the search agent over an index, with a live trace.

A thin layer over `SearchAgent.stream` (DESIGN: every CLI command is a function a user can call):
it opens the index, builds the backend with `context1.backends.make_backend`, prints each turn,
tool call, observation, prune and token-usage line as it happens, then the answer: the ranked
passages as a person reads them (an excerpt with the question's words marked — `context1.interfaces.excerpt`
picks the sentences or whole table rows that answer —, the source, page and section when the index
knows them, and why each was returned), each word-wrapped as one indented block, then the documents
they come from.
`--json` prints one JSON object instead (no trace); `--save-trajectories` writes every rollout's
full trajectory as JSONL. Exit status: 0, or 1 when a rollout stopped on a backend error (the
partial result is still printed), or 2 for bad input.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from context1.config import MAX_ROLLOUTS, AgentConfig
from context1.events import (
    FinalEvent,
    ModelTurnEvent,
    ObservationEvent,
    PruneEvent,
    RolloutEndEvent,
    ToolCallEvent,
    UsageEvent,
)
from context1.evidence import question_words
from context1.interfaces.cli_corpus import (
    CommandError,
    IndexArg,
    OldRolloutsK,
    _clean_errors,
    chroma_client,
    deprecated_rollouts_k,
    open_index,
)
from context1.interfaces.excerpt import excerpt, place_labels, term_pattern
from context1.types import SearchResult, StopReason
from corpus_tools import limits

BACKENDS = ("iterative", "learned", "openai", "transformers", "vllm", "scripted")
TEXT_CHARS = 240  # model text shown per turn in the trace
ARG_CHARS = 120  # tool-call arguments shown per call


def _short(text: str, n: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= n else flat[: n - 1] + "…"


def build_backend(
    kind: str,
    corpus: Any,
    *,
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    script: Path | None = None,
    adapter: Path | None = None,
    tokenizer: Path | None = None,
    tools_in_prompt: bool = False,
    policy: Path | None = None,
) -> Any:
    """The backend a CLI invocation asks for (None for the default LLM-free policy)."""
    if (tokenizer is not None or tools_in_prompt) and kind != "openai":
        raise CommandError("--tokenizer / --tools-in-prompt go with --backend openai")
    if tokenizer is not None and not tokenizer.exists():
        raise CommandError(
            f"--tokenizer {tokenizer}: no such file or folder; give the served model's Hugging Face tokenizer "
            "folder or its .gguf file"
        )
    if adapter is not None and kind != "transformers":
        raise CommandError("--adapter goes with --backend transformers (a LoRA adapter from `context1 train`)")
    if kind not in BACKENDS:
        raise CommandError(f"unknown backend {kind!r}; choose one of {', '.join(BACKENDS)}")
    if script is not None and kind != "scripted":
        raise CommandError("--script goes with --backend scripted")
    if (policy is not None) != (kind == "learned"):
        raise CommandError("--backend learned needs --policy DIR (from `context1 train policy`), and --policy goes "
                           "with --backend learned only")
    if kind == "learned":
        if base_url or model:
            raise CommandError("--base-url / --model do not apply to the learned policy")
        from context1.backends import make_backend

        return make_backend("learned", corpus=corpus, policy=policy)
    if kind == "iterative":
        if base_url or model:
            raise CommandError("--base-url / --model do not apply to the iterative (LLM-free) backend")
        return None
    if kind == "scripted":
        if script is None:
            raise CommandError("--backend scripted needs --script FILE (JSONL, one turn per line)")
        from context1.backends.scripted import ScriptedBackend

        return ScriptedBackend(path=script)
    from context1.backends import make_backend

    if kind == "openai":
        # a tokenizer makes the template's token costs exact (else estimated, then calibrated from usage)
        return make_backend("openai", base_url=base_url, model=model, api_key=api_key,
                            tokenizer_path=str(tokenizer) if tokenizer is not None else None,
                            tools_in_prompt=tools_in_prompt)
    if base_url:
        raise CommandError(f"--base-url applies to --backend openai, not {kind}")
    if adapter is not None:
        return make_backend(kind, model=model, adapter=adapter)
    return make_backend(kind, model=model)


# The upstream model's key is --model-api-key everywhere: `serve --api-key` read as "this server's
# key" served without one. `ask --api-key` still works, with a warning; serve and mcp refuse it.
ModelApiKey = Annotated[str | None, typer.Option(
    "--model-api-key", envvar="OPENAI_API_KEY", show_envvar=True,
    help="Key of the --backend openai endpoint (the upstream model server).")]
OldApiKey = Annotated[str | None, typer.Option("--api-key", hidden=True, help="Deprecated: use --model-api-key.")]


def deprecated_api_key(old: str | None, key: str | None) -> str | None:
    """--model-api-key, or the deprecated `ask --api-key` (with a warning on stderr)."""
    if old is None:
        return key
    Console(stderr=True).print("[yellow]warning:[/] `--api-key` is deprecated in `ask`: use --model-api-key "
                               "(the key of the --backend openai endpoint)", highlight=False)
    return old


def ask_command(
    directory: IndexArg,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="The question to find supporting documents for.")],
    backend: Annotated[
        str, typer.Option("--backend", "-b", help=f"Inference backend: {', '.join(BACKENDS)}.")
    ] = "iterative",
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1.")
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="Model name (openai) or local model path.")] = None,
    api_key: ModelApiKey = None,
    old_api_key: OldApiKey = None,
    script: Annotated[
        Path | None, typer.Option("--script", help="Turns to replay for --backend scripted (JSONL).")
    ] = None,
    budget: Annotated[int, typer.Option("--budget", help="Token budget T_budget of the context.", min=512)] = 32_768,
    hard_cutoff: Annotated[
        float, typer.Option("--hard-cutoff", help="Fraction of the budget past which only pruning is allowed.")
    ] = 0.75,
    rollouts: Annotated[int, typer.Option("--rollouts", help=f"k× mode: rollouts fused with RRF (1 to {MAX_ROLLOUTS}).")] = 1,
    old_k: OldRolloutsK = None,
    max_turns: Annotated[int, typer.Option("--max-turns", help="Most model turns per rollout.", min=1)] = 32,
    max_documents: Annotated[int, typer.Option("--max-documents", help="Most documents returned.", min=1)] = 10,
    max_passages: Annotated[
        int, typer.Option("--max-passages", help="Most passages (chunks) in the answer, best first.", min=1)
    ] = 5,
    seed: Annotated[int, typer.Option("--seed", help="Base seed (rollout i uses seed + i).")] = 0,
    context_window: Annotated[
        int | None,
        typer.Option("--context-window", help="The model's context length (e.g. llama.cpp's --n_ctx); the budget "
                     "is fitted to it.", min=512),
    ] = None,
    chroma_host: Annotated[str | None, typer.Option("--chroma-host", help="Chroma server holding the vectors.")] = None,
    chroma_port: Annotated[int, typer.Option("--chroma-port", help="Port of the Chroma server.", min=1, max=65535)] = 8000,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON (no live trace).")] = False,
    save: Annotated[
        Path | None, typer.Option("--save-trajectories", help="Write every rollout's trajectory to this JSONL file.")
    ] = None,
    adapter: Annotated[
        Path | None, typer.Option("--adapter", help="LoRA adapter folder for --backend transformers (context1 train).")
    ] = None,
    tokenizer: Annotated[
        Path | None,
        typer.Option("--tokenizer", help="--backend openai: the served model's tokenizer folder or .gguf file, so "
                     "token counts and chat-template costs are exact instead of estimated."),
    ] = None,
    tools_in_prompt: Annotated[
        bool,
        typer.Option("--tools-in-prompt", help="--backend openai: describe the tools in the system prompt and carry "
                     "calls and results as text (servers whose template drops tool messages, e.g. llama.cpp)."),
    ] = False,
    policy: Annotated[
        Path | None, typer.Option("--policy", help="--backend learned: the folder `context1 train policy` wrote.")
    ] = None,
) -> None:
    """Ask the search agent for the passages that support answering QUERY."""
    from context1.agent import SearchAgent
    from context1.trajectory_io import save_trajectories

    with _clean_errors():
        rollouts = deprecated_rollouts_k(old_k, rollouts)
        api_key = deprecated_api_key(old_api_key, api_key)
        config = AgentConfig(
            token_budget=budget, hard_cutoff=hard_cutoff, rollouts=rollouts, max_turns=max_turns,
            max_documents=max_documents, max_passages=max_passages, seed=seed, context_window=context_window,
        )
        limits.check_query(query, config.max_query_chars)  # before the index and the model load
        corpus = open_index(directory, chroma_client(chroma_host, chroma_port))
        chosen = build_backend(backend, corpus, base_url=base_url, model=model, api_key=api_key, script=script,
                               adapter=adapter, tokenizer=tokenizer, tools_in_prompt=tools_in_prompt, policy=policy)
        agent = SearchAgent(corpus, chosen, config)
        console = Console()
        result: SearchResult | None = None
        for event in agent.stream(query):
            if isinstance(event, FinalEvent):
                result = event.result
            elif not as_json:
                print_event(console, event, rollouts > 1)
        assert result is not None
        if save is not None:
            save_trajectories(save, result.rollouts)
        if as_json:
            typer.echo(json.dumps(result_to_json(result, corpus), ensure_ascii=False, indent=2))
        else:
            print_result(console, result, corpus)
            if save is not None:
                console.print(f"[dim]trajectories saved to {escape(str(save))}[/]")
        if any(t.stop_reason is StopReason.BACKEND_ERROR for t in result.rollouts):
            raise typer.Exit(1)


def print_event(console: Console, event: Any, tag_rollout: bool) -> None:
    """One line (or a few) of the live trace."""
    tag = f"[magenta]r{event.rollout}[/] " if tag_rollout else ""
    if isinstance(event, ModelTurnEvent):
        console.print(f"{tag}[bold]turn {event.step + 1}[/]", highlight=False)
        if not event.turn.tool_calls:  # the final answer: its passages are printed, readable, at the end
            console.print(f"{tag}  [dim]final answer (its passages follow)[/]", highlight=False)
        elif event.turn.text.strip():
            console.print(f"{tag}  [dim]{escape(_short(event.turn.text, TEXT_CHARS))}[/]", highlight=False)
    elif isinstance(event, ToolCallEvent):
        call = event.call
        args = _readable_arguments(call.raw_arguments) or json.dumps(dict(call.arguments), ensure_ascii=False)
        console.print(f"{tag}  [cyan]→ {escape(call.name)}[/]({escape(_short(args, ARG_CHARS))})", highlight=False)
    elif isinstance(event, ObservationEvent):
        obs = event.observation
        if obs.is_error:
            first = obs.text.splitlines()[0] if obs.text else ""
            console.print(f"{tag}  [red]← {escape(_short(first, TEXT_CHARS))}[/]", highlight=False)
        elif obs.chunk_ids:
            docs = ", ".join(obs.doc_ids[:6]) + (f", … {len(obs.doc_ids) - 6} more" if len(obs.doc_ids) > 6 else "")
            console.print(
                f"{tag}  [green]← {len(obs.chunk_ids)} chunk(s)[/] from {escape(docs)} [dim]({obs.n_tokens:,} tokens)[/]",
                highlight=False,
            )
        else:
            console.print(f"{tag}  [yellow]← {escape(_short(obs.text.splitlines()[0], TEXT_CHARS))}[/]", highlight=False)
    elif isinstance(event, PruneEvent):
        console.print(f"{tag}  [yellow]✂ pruned {len(event.chunk_ids)}:[/] {escape(', '.join(event.chunk_ids))}",
                      highlight=False)
    elif isinstance(event, UsageEvent):
        share = event.tokens_used / event.token_budget
        color = "green" if share < 0.5 else "yellow" if share < 0.75 else "red"
        console.print(f"{tag}  [{color}][Token usage: {event.tokens_used:,}/{event.token_budget:,}][/]",
                      highlight=False)
    elif isinstance(event, RolloutEndEvent):
        line = f"{tag}[bold]ended:[/] {event.stop_reason.value} after {event.n_steps} turn(s)"
        if event.error:
            line += f" [red]({escape(event.error)})[/]"
        console.print(line, highlight=False)


def _title(corpus: Any, doc_id: str) -> str:
    try:
        return corpus.title(doc_id) or ""
    except Exception:  # noqa: BLE001 - a title is decoration; never fail the command for it
        return ""


def mark(text: str, terms: Sequence[str], style: str | None) -> Text:
    """`text` with the question's words marked: styled on a terminal (`style`), else between « » so a
    pasted or piped answer still shows them. A `Text`, never markup: brackets and backslashes in a
    passage print as they are."""
    out = Text()
    if not any(terms):
        return out.append(text)
    pos = 0
    for m in term_pattern(terms).finditer(text):
        out.append(text[pos:m.start()])
        out.append(m.group(0), style) if style else out.append(f"«{m.group(0)}»")
        pos = m.end()
    return out.append(text[pos:])


INDENT = 3  # a passage's lines, under its number


def block(segments: Sequence[tuple[str, str | None]], width: int, indent: int = INDENT, first: int | None = None,
          terms: Sequence[str] = (), mark_style: str | None = None) -> list[Text]:
    """The lines of `segments` ((text, style or None) in order) word-wrapped to `width` cells: the first
    line at `first` spaces (default `indent`), every following line at `indent` (a wrapped table row two
    further), so a passage reads as one indented block. No line ends in a space (rich's Padding pads every
    line to the full width). The question's words are marked (`mark`) when `terms` are given. Every "\n"
    in a text starts a new line."""
    first = indent if first is None else first
    lines: list[Text] = []
    words: list[tuple[Text, int]] = []  # (one word, styled, and its width in cells)
    paragraphs: list[list[tuple[Text, int]]] = [words]
    for text, style in segments:
        for k, part in enumerate(text.split("\n")):
            if k:
                words = []
                paragraphs.append(words)
            for word in part.split():
                piece = mark(word, terms, mark_style)
                piece.style = style or ""  # the segment's style, under the marks
                words.append((piece, cell_len(piece.plain)))
    for paragraph in paragraphs:
        # a table row that wraps goes on two spaces further in, so each row still starts at the block's edge
        rest = indent + 2 if any(w.plain == "|" for w, _ in paragraph) else indent
        lead = first if not lines else indent  # this line's indent
        line: list[Text] = []
        used = lead
        for word, n in paragraph:
            if line and used + 1 + n > width:
                lines.append(_joined(line, lead))
                line, lead, used = [], rest, rest
            used += (1 if line else 0) + n
            line.append(word)
        if line or not paragraph:
            lines.append(_joined(line, lead))
    return lines


def _joined(words: Sequence[Text], indent: int) -> Text:
    """One line: its words after `indent` spaces, one space apart (an empty Text for none: no line of spaces)."""
    if not words:
        return Text()
    return Text(" " * indent) + Text(" ").join(words)


def print_result(console: Console, result: SearchResult, corpus: Any) -> None:
    """The ranked passages as a person reads them, then the documents, usage and timings."""
    u, t = result.usage, result.timings
    terms = question_words(result.query)
    style = "bold yellow" if console.is_terminal else None
    width = console.width

    def say(segments: Sequence[tuple[str, str | None]], indent: int = INDENT, first: int | None = None,
            marked: bool = False) -> None:
        for line in block(segments, width, indent, first, terms if marked else (), style):
            console.print(line, highlight=False, soft_wrap=True)

    unmatched = result.trajectory.metadata.get("unmatched")
    console.print()
    if unmatched:
        console.print(f"[yellow]note:[/] the index holds nothing about {escape(', '.join(map(str, unmatched)))}; "
                      "the passages below are the closest it has.", highlight=False)
    say([(f"{len(result.evidence)} passage(s) for {result.query}", "bold")], indent=0)
    for rank, e in enumerate(result.evidence, 1):
        title = e.title or _title(corpus, e.doc_id) or e.doc_id
        where = place_labels(e.doc_id, e.page, e.section, title)
        if e.speakers:
            where.append(", ".join(e.speakers))
        console.print()
        say([(f"{rank}. {title}", "bold")] + ([(f"— {' · '.join(where)}", None)] if where else []), first=0)
        source = e.doc_id if title != e.doc_id else ""
        say([(f"{source + ' · ' if source else ''}passage {e.chunk_id} · score {e.score:.3g}", "dim")])
        say([(excerpt(e.text, result.query), None)], marked=True)
        if e.reason:
            say([(f"why: {e.reason}", "dim")])
    if not result.evidence:
        console.print("   (no passage)")
    docs = ", ".join(d.doc_id for d in result.documents)
    console.print()
    say([(f"documents: {docs or '(none)'}", "dim")], indent=0)
    say([(f"{u.turns} turn(s), {u.tool_calls} tool call(s), context {u.context_tokens:,} tokens; "
          f"{t.get('total_s', 0):.2f} s (model {t.get('model_s', 0):.2f} s, corpus {t.get('corpus_s', 0):.2f} s, "
          f"harness {t.get('harness_s', 0) * 1000:.0f} ms)", "dim")], indent=0)
    if any(t.metadata.get("answer_fallback") for t in result.rollouts):
        console.print("[yellow]note:[/] no parsable final answer in some rollout; its passages are the chunks "
                      "still in view, by search rank (fallback ranking).")
    unseen = [i for t in result.rollouts for i in t.metadata.get("answer_unseen_ids", ())]
    if unseen:
        console.print(f"[yellow]note:[/] the answer cited {len(unseen)} id(s) the agent was never shown, dropped: "
                      f"{escape(', '.join(unseen[:8]))}", highlight=False)


def result_to_json(result: SearchResult, corpus: Any) -> dict[str, Any]:
    """A machine-readable summary (the trajectories go to --save-trajectories)."""
    return {
        "query": result.query,
        "passages": [
            {"rank": i, "chunk_id": e.chunk_id, "doc_id": e.doc_id, "title": e.title or _title(corpus, e.doc_id),
             "page": e.page, "section": e.section, "speakers": list(e.speakers), "score": e.score, "reason": e.reason,
             "found_by": list(e.found_by), "text": e.text}
            for i, e in enumerate(result.evidence, 1)
        ],
        "unmatched": result.trajectory.metadata.get("unmatched", []),
        "documents": [
            {"rank": i, "doc_id": d.doc_id, "title": _title(corpus, d.doc_id), "score": d.score,
             "justification": d.justification}
            for i, d in enumerate(result.documents, 1)
        ],
        "stop_reason": result.stop_reason.value if result.stop_reason else None,
        "rollouts": [
            {"stop_reason": t.stop_reason.value if t.stop_reason else None, "turns": len(t.steps), "error": t.error,
             "answer_fallback": bool(t.metadata.get("answer_fallback")),
             "answer_unseen_ids": list(t.metadata.get("answer_unseen_ids", ()))}
            for t in result.rollouts
        ],
        "usage": {
            "context_tokens": result.usage.context_tokens, "prompt_tokens": result.usage.prompt_tokens,
            "completion_tokens": result.usage.completion_tokens, "turns": result.usage.turns,
            "tool_calls": result.usage.tool_calls,
        },
        "timings": result.timings,
    }


def register(app: typer.Typer) -> None:
    """Add `ask` to the context1 command line."""
    app.command("ask")(ask_command)


def _readable_arguments(raw: str | None) -> str | None:
    """The call's arguments as written, with JSON's \\uXXXX escapes shown as the characters they are
    ("Company\\u2019s" reads "Company’s"); text that is not a JSON object is shown as it came."""
    if not raw:
        return raw
    try:
        parsed = json.loads(raw)
    except ValueError:
        return raw
    return json.dumps(parsed, ensure_ascii=False) if isinstance(parsed, dict) else raw
