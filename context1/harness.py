"""`Episode`: one search episode you can step by hand (observe → infer → act).

    episode = Episode(corpus, "who founded ...", AgentConfig(), token_counter=backend.count_tokens)
    while not episode.done:
        turn = backend.generate(episode.messages(), episode.tool_schemas)   # infer
        episode.act(turn)                                                    # act; observe
    episode.trajectory.documents

`SearchAgent` drives exactly this loop (one code path for production, evaluation, SFT data and RL
rollouts); an RL trainer can drive it with its own sampler. `act` runs one turn's tool calls:
corpus calls in parallel threads, then sizing, dedup and pruning one call after the other in call
order, so the result does not depend on thread timing.

Ends: a turn with no tool call is the answer (ANSWERED); otherwise MAX_TURNS after
`config.max_turns` turns, TOKEN_BUDGET when the visible context reaches T_budget, or whatever
`finish` is told (BACKEND_ERROR, CANCELLED). Every end leaves `trajectory.evidence` (the cited
passages the agent was shown, best first, at most `config.max_passages` within
`config.max_passage_tokens`) and `trajectory.documents` (ranked by their best cited passage) set:
the parsed answer, else the fallback ranking of `context1.answer` (see `context1.evidence`).

Re-found chunks (issue 34, `AgentConfig.refound`, on by default): dedup keeps every chunk shown out of later
searches, so no search can say it found a passage again. With the option on, a search_corpus call that excludes
chunks also reads its query's top `search_k` with nothing excluded (`tools.Runtime.refind_k`; one corpus call,
`Corpus.search_pair`, where the corpus offers it), and its observation
records the chunks shown before (earlier turns or earlier calls of this turn) that it matched again, with their rank,
in `metadata["refound"]` ([[chunk_id, rank], ...]; [] when none; absent when off or in records from before) and in
one line of its text (`prompts.render_refound`), which drivers read back (`prompts.read_refound`). A failed ranking
loses only the record (`metadata["refound_error"]`); the search's own result stands.

Question constraints (issue 35): when `config.constraints` is on and the corpus has
`question_constraints`, the question is parsed once at the start and every search_corpus call
of the episode passes the parse (`constraints=`); the parse is kept in
`metadata["constraints"]`, and names the corpus does not hold in `metadata["unmatched"]`.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from context1 import prompts
from context1.answer import fallback_documents, parse_citations
from context1.budget import BudgetState, TokenCounter, estimate_costs
from context1.config import AgentConfig
from context1.context import ContextView, chunk_spans, count_pieces
from context1.evidence import (
    ShownPassage,
    defined_first,
    documents_from,
    found_label,
    passage_from_hit,
    passage_reason,
    question_words,
    ranks_by_line_items,
    resolve_citations,
    select_evidence,
    to_evidence,
)
from context1.prompts import GREP_CORPUS, PRUNE_CHUNKS, READ_DOCUMENT, SEARCH_CORPUS
from context1.tools import (
    Fetched,
    Runtime,
    ToolRequest,
    chunk_title,
    corpus_reranks,
    fetch,
    render_hits,
    tool_schemas,
    validate_call,
)
from context1.types import (
    Evidence,
    Message,
    ModelTurn,
    Observation,
    Role,
    Step,
    StopReason,
    ToolCall,
    Trajectory,
    check_corpus,
)
from corpus_tools import limits

# Tokens a query must leave free (beyond the reply reserve) for the episode to be worth starting:
# one 256-token chunk with its markup and the usage line.
_MIN_ROOM = 320

# search/grep fetch this many times their display limit, so that chunks already shown earlier in
# the same turn (excluded after the parallel fetch) can be backfilled.
_OVERFETCH = 2


class Episode:
    """A steppable search episode over `corpus` for `query`.

    token_counter: counts tokens of a string, normally `backend.count_tokens`; None uses the
    word/character estimate of `context1.budget.estimate_tokens`.
    """

    def __init__(
        self,
        corpus: Any,
        query: str,
        config: AgentConfig | None = None,
        *,
        token_counter: Callable[[str], int] | TokenCounter | None = None,
    ) -> None:
        check_corpus(corpus)
        self.config = config or AgentConfig()
        check_query(query, self.config)
        self.corpus = corpus
        self.query = query.strip()
        self.counter = token_counter if isinstance(token_counter, TokenCounter) else TokenCounter(token_counter)
        self.tool_schemas: list[dict[str, Any]] = tool_schemas(self.config, reranked=corpus_reranks(corpus))
        if self.counter.costs is None:
            self.counter.costs = estimate_costs(self.counter, self.tool_schemas)
        cfg = self.config
        system = cfg.system_prompt or prompts.system_prompt(
            token_budget=cfg.token_budget, hard_limit=cfg.hard_limit, max_documents=cfg.max_documents, grep_k=cfg.grep_k
        )
        initial = [Message(role=Role.SYSTEM, content=system), Message(role=Role.USER, content=self.query)]
        self.trajectory = Trajectory(query=self.query, messages=list(initial), token_budget=cfg.token_budget)
        self.trajectory.metadata["config"] = dataclasses.asdict(cfg)
        self.trajectory.metadata["token_accounting"] = self.counter.costs.source
        self._view = ContextView(initial)
        self._shown: dict[str, ShownPassage] = {}  # chunk id -> what was shown of it, first-shown order
        self._terms = question_words(self.query)
        self.constraints = self._question_constraints(corpus) if cfg.constraints else None
        self._line_items = ranks_by_line_items(corpus)  # reasons say which row named the line item searched
        self._titles: dict[str, str | None] = {}
        self._last_tool = -1  # index (in the view) of the latest tool message
        self.tokens_used = self._view.count(self.counter)
        room = cfg.token_budget - cfg.response_reserve - self.tokens_used
        if room < _MIN_ROOM:  # a query that leaves no room for one search result and a reply
            raise ValueError(
                f"the query does not fit: the system prompt, tool schemas and query take {self.tokens_used:,} of "
                f"the {cfg.token_budget:,}-token budget ({cfg.response_reserve:,} are kept for the reply), leaving "
                f"{max(0, room):,} for search results. Shorten the query (it is {len(self.query):,} characters) "
                "or raise token_budget."
            )

    # -- observe ----------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self.trajectory.stop_reason is not None

    @property
    def stop_reason(self) -> StopReason | None:
        return self.trajectory.stop_reason

    def messages(self) -> list[Message]:
        """The visible context to give the model next (pruned chunks replaced by markers)."""
        return self._view.messages()

    def seen_chunk_ids(self) -> list[str]:
        return list(self._shown)

    def visible_chunk_ids(self) -> list[str]:
        return self._view.visible_chunk_ids()

    # -- act --------------------------------------------------------------------------------
    def act(self, turn: ModelTurn) -> list[Observation]:
        """Apply one model turn: run its tool calls, or take its text as the final answer."""
        if self.done:
            raise RuntimeError(f"the episode is over (stop_reason={self.stop_reason.value}); start a new one")
        t0, cpu0 = time.perf_counter(), time.thread_time()
        n_step = len(self.trajectory.steps)
        turn = normalize_call_ids(turn, n_step)
        self._check_prompt_count(turn)
        self._view.add_assistant(turn)
        if not turn.tool_calls:
            used = self._view.count(self.counter)
            self.tokens_used = used
            act_s = time.perf_counter() - t0
            self.trajectory.steps.append(Step(turn=turn, tokens_used=used, duration_s=act_s))
            self._answer(turn.text)
            self._step_timings(act_s, 0.0, time.thread_time() - cpu0)
            return []
        observations, pruned, corpus_s, inline_cpu_s = self._run_calls(turn.tool_calls)
        used = self._close_turn(observations)
        act_s = time.perf_counter() - t0
        self.trajectory.steps.append(
            Step(turn=turn, observations=tuple(observations), pruned=tuple(pruned), tokens_used=used, duration_s=act_s)
        )
        self._step_timings(act_s, corpus_s, time.thread_time() - cpu0 - inline_cpu_s)
        if len(self.trajectory.steps) >= self.config.max_turns:
            self.finish(StopReason.MAX_TURNS)
        elif BudgetState(used, self.config).exhausted:
            self.finish(StopReason.TOKEN_BUDGET)
        return observations

    def finish(self, reason: StopReason, error: str | None = None) -> None:
        """End the episode from outside (backend error, cancellation) or on a limit.

        Without a parsed answer, `trajectory.documents` gets the fallback ranking.
        """
        if self.done:
            return
        traj = self.trajectory
        traj.stop_reason = reason
        if error is not None:
            traj.error = error
        if reason is not StopReason.ANSWERED:
            self._fallback()

    # -- internals --------------------------------------------------------------------------
    def _step_timings(self, act_s: float, corpus_s: float, harness_cpu_s: float) -> None:
        """Per-step timings in `trajectory.metadata["step_timings"]` (seconds).

        act_s: wall time of `act`; corpus_s: wall time spent in corpus calls (the parallel phase
        counts once); harness_cpu_s: CPU time of the harness's own thread outside corpus calls —
        the overhead figure that other processes on the machine cannot inflate.
        """
        self.trajectory.metadata.setdefault("step_timings", []).append(
            {"act_s": act_s, "corpus_s": corpus_s, "harness_cpu_s": max(0.0, harness_cpu_s)}
        )

    def _check_prompt_count(self, turn: ModelTurn) -> None:
        """Compare the prompt size the backend reported with the harness's own count.

        Recorded per step in `metadata["prompt_token_check"]` as [reported, counted]. When they
        differ by more than 2% (template costs only estimated, or a server that renders its own
        tool format, like llama.cpp's chatml-function-calling), the first report calibrates the
        fixed part, so the budget tracks the server's own count from the next turn on.
        """
        if turn.prompt_tokens <= 0:
            return
        counted = self.tokens_used
        self.trajectory.metadata.setdefault("prompt_token_check", []).append([int(turn.prompt_tokens), counted])
        costs = self.counter.costs
        off = abs(int(turn.prompt_tokens) - counted) > 0.02 * counted + 8
        if costs is not None and off and "calibrated" not in costs.source:
            self.counter.costs = costs.calibrated(int(turn.prompt_tokens), counted)
            self.trajectory.metadata["token_accounting"] = self.counter.costs.source

    def _run_calls(self, calls: Sequence[ToolCall]) -> tuple[list[Observation], list[str], float, float]:
        cfg = self.config
        requests: list[ToolRequest | str] = [
            validate_call(c, cfg) if j < cfg.max_calls_per_turn
            else prompts.TOO_MANY_CALLS.format(limit=cfg.max_calls_per_turn, n=len(calls))
            for j, c in enumerate(calls)
        ]
        # Phase 1: the corpus calls, in parallel. Chunks shown in earlier turns are excluded here;
        # ones shown earlier in this turn are dropped in phase 2 (the fetch over-fetches for that).
        # Nothing is fetched once the context is past the hard cutoff (phase 2 refuses those calls),
        # unless a prune in this turn brings it back under: phase 2 then fetches inline.
        runtime = Runtime(exclude=frozenset(self._shown), rerank_query=self.query, constraints=self.constraints,
                          refind_k=cfg.search_k if cfg.refound else 0)
        todo = [
            (i, r) for i, r in enumerate(requests)
            if isinstance(r, ToolRequest) and r.tool != PRUNE_CHUNKS
        ]
        fetched: dict[int, Fetched] = {}
        inline_cpu_s = 0.0  # CPU time of corpus calls run on this thread (not harness overhead)
        corpus_t0 = time.perf_counter()
        if todo and not BudgetState(self.tokens_used, cfg).past_hard:
            if len(todo) == 1:  # no thread for a lone call
                i, r = todo[0]
                fetched[i] = fetch(self.corpus, r, self._runtime_for(r, runtime))
                inline_cpu_s += fetched[i].cpu_s
            else:
                with ThreadPoolExecutor(max_workers=min(len(todo), cfg.max_parallel_calls)) as pool:
                    futures = {i: pool.submit(fetch, self.corpus, r, self._runtime_for(r, runtime)) for i, r in todo}
                    fetched = {i: f.result() for i, f in futures.items()}
        corpus_s = time.perf_counter() - corpus_t0 if fetched else 0.0
        # Phase 2: in call order, against the running token count.
        observations: list[Observation] = []
        pruned: list[str] = []
        running = self._view.count(self.counter)
        for i, (call, req) in enumerate(zip(calls, requests, strict=True)):
            if isinstance(req, str):
                obs = self._observation(call, req, is_error=True)
            elif req.tool == PRUNE_CHUNKS:
                obs, done = self._prune(req)
                pruned.extend(done)
            elif BudgetState(running, cfg).past_hard:
                text = prompts.HARD_CUTOFF.format(used=running, limit=cfg.hard_limit, token_budget=cfg.token_budget)
                obs = self._observation(call, text, is_error=True, refused=True)
            else:
                got = fetched.get(i)
                if got is None:
                    got = fetch(self.corpus, req, self._runtime_for(req, runtime))
                    corpus_s += got.corpus_s
                    inline_cpu_s += got.cpu_s
                obs = self._show(req, got, running)
            observations.append(obs)
            self._last_tool = self._view.add_tool(obs)
            running = self._view.count(self.counter)
        return observations, pruned, corpus_s, inline_cpu_s

    def _runtime_for(self, req: ToolRequest, base: Runtime) -> Runtime:
        k = {SEARCH_CORPUS: self.config.search_k, GREP_CORPUS: self.config.grep_k}.get(req.tool, 0)
        if not k:
            return base
        return dataclasses.replace(base, fetch_k=min(k * _OVERFETCH, limits.MAX_K),
                                   refind_k=base.refind_k if req.tool == SEARCH_CORPUS else 0)

    def _title(self, doc_id: str) -> str | None:
        if doc_id not in self._titles:
            self._titles[doc_id] = self.corpus.title(doc_id)
        return self._titles[doc_id]

    def _show(self, req: ToolRequest, got: Fetched, running: int) -> Observation:
        cfg = self.config
        call = req.call
        if got.error is not None:
            meta = {"exception": got.exception} if got.exception else {}
            return self._observation(call, got.error, is_error=True, **meta)
        notes = list(got.notes) + list(req.notes)
        refound = self._refound(got)
        if refound:
            notes.append(prompts.render_refound(refound))
        extra: dict[str, Any] = {"refound": [[c, r] for c, r in refound]} if got.ranking is not None else {}
        if got.ranking_error is not None:
            extra["refound_error"] = got.ranking_error
        if req.tool == READ_DOCUMENT:
            hits, limit, cap = got.hits, max(1, len(got.hits)), cfg.read_token_budget
        else:
            # Dedup against chunks shown earlier in this same turn (the fetch excluded older ones).
            hits = [h for h in got.hits if h.chunk.chunk_id not in self._shown]
            limit = cfg.search_k if req.tool == SEARCH_CORPUS else cfg.grep_k
            cap = cfg.search_token_budget
        if not hits:
            return self._observation(call, "\n".join([prompts.NO_RESULTS, *notes]), **extra)
        available = BudgetState(running, cfg).available(cap)
        header = ""
        if req.tool == READ_DOCUMENT:  # sized for the widest count; filled in once the count is known
            header = f"Document {got.doc_id!r}: {got.doc_chunks} of {got.doc_chunks} chunks, most relevant to the query first."
            available = max(0, available - self.counter(header) - 1)
        rendered = render_hits(hits, limit=limit, budget=available, count=self.counter, title_of=self._title, notes=notes)
        if not rendered.hits:
            text = prompts.NO_ROOM.format(
                available=max(0, cfg.token_budget - running), token_budget=cfg.token_budget, reserve=cfg.response_reserve
            )
            return self._observation(call, text, is_error=True)
        text, spans = rendered.text, rendered.spans
        if header:
            header = (
                f"Document {got.doc_id!r}: {len(rendered.hits)} of {got.doc_chunks} chunks, most relevant to the query first."
            )
            shift = len(header) + 2
            text = header + "\n\n" + text
            spans = tuple((c, s + shift, e + shift) for c, s, e in spans)
        label = found_label(req.tool, got.doc_id if req.tool == READ_DOCUMENT else str(req.argument))
        for rank, hit in enumerate(rendered.hits, 1):
            cid = hit.chunk.chunk_id
            if cid not in self._shown:
                self._shown[cid] = passage_from_hit(hit, rank, len(self._shown), chunk_title(hit, self._title))
            self._shown[cid].saw(label, rank)
        return Observation(
            call_id=call.id,
            tool=req.tool,
            text=text,
            chunk_ids=tuple(h.chunk.chunk_id for h in rendered.hits),
            doc_ids=tuple(dict.fromkeys(h.chunk.doc_id for h in rendered.hits)),
            n_tokens=count_pieces(text, spans, self.counter),
            metadata={
                "chunk_spans": [[c, s, e] for c, s, e in spans],
                "scores": [float(h.score) for h in rendered.hits],
                "omitted": rendered.omitted,
                **({"read_doc_id": got.doc_id} if got.doc_id else {}),
                **extra,
            },
        )

    def _refound(self, got: Fetched) -> list[tuple[str, int]]:
        """The chunks shown before this call (earlier turns, or earlier calls of this turn) that its search
        matched again: (chunk id, 1-based rank in the query's ranking with nothing excluded), best first."""
        if got.ranking is None:
            return []
        return [(cid, rank) for rank, cid in enumerate(got.ranking, 1) if cid in self._shown]

    def _prune(self, req: ToolRequest) -> tuple[Observation, list[str]]:
        ids = list(req.argument)
        invalid = [c for c in ids if c not in self._shown]
        already = [c for c in ids if c in self._shown and not self._view.is_visible(c)]
        done = self._view.prune(c for c in ids if c in self._shown)
        lines = []
        if invalid:
            lines.append(
                prompts.ERROR_PREFIX
                + f"these ids were never shown to you (or do not exist), so they were not pruned: {', '.join(invalid)}."
            )
        if done:
            lines.append(f"Pruned {len(done)} chunk(s): {', '.join(done)}.")
        if already:
            lines.append(f"Already pruned: {', '.join(already)}.")
        lines.extend(req.notes)
        text = "\n".join(lines)
        obs = self._observation(
            req.call, text, is_error=bool(invalid), pruned=done, invalid_ids=invalid, already_pruned=already
        )
        return obs, done

    def _observation(self, call: ToolCall, text: str, *, is_error: bool = False, **metadata: Any) -> Observation:
        return Observation(
            call_id=call.id, tool=call.name, text=text, is_error=is_error, n_tokens=self.counter(text), metadata=metadata
        )

    def _close_turn(self, observations: list[Observation]) -> int:
        """Append the usage line (and the training hint) to the turn's last tool message."""
        cfg = self.config
        last = observations[-1]
        base = self._view.count(self.counter)
        suffix = ""
        if cfg.training_hints and BudgetState(base, cfg).past_soft:
            suffix += "\n\n" + prompts.SOFT_HINT.format(token_budget=cfg.token_budget)
        # The line reports the context including itself: start from a guess and settle on a fixed
        # point (a digit more or less rarely changes the count, so this takes one or two rounds).
        shown = base + self.counter(suffix + "\n\n" + prompts.usage_line(base, cfg.token_budget))
        for _ in range(4):
            text = last.text + suffix + "\n\n" + prompts.usage_line(shown, cfg.token_budget)
            self._view.set_tool_text(self._last_tool, text)
            actual = self._view.count(self.counter)
            if actual == shown:
                break
            shown = actual
        observations[-1] = dataclasses.replace(last, text=text, n_tokens=count_pieces(text, chunk_spans(last), self.counter))
        self.tokens_used = self._view.count(self.counter)
        return self.tokens_used

    def _question_constraints(self, corpus: Any) -> dict[str, Any] | None:
        """The question's constraints, parsed once (issue 35); None when the corpus cannot parse them
        or the question names none. A parse failure is recorded, never raised: the episode runs
        unconstrained."""
        parse = getattr(corpus, "question_constraints", None)
        if not callable(parse):
            return None
        try:
            parsed = parse(self.query)
        except Exception as exc:  # noqa: BLE001 - constraints only boost; the search still runs without them
            self.trajectory.metadata["constraints_error"] = f"{type(exc).__name__}: {exc}"
            return None
        if not isinstance(parsed, dict) or not parsed:
            return None
        self.trajectory.metadata["constraints"] = parsed
        if parsed.get("unmatched"):
            self.trajectory.metadata["unmatched"] = list(parsed["unmatched"])
        return parsed

    def _answer(self, text: str) -> None:
        """Take the model's text as the final answer: its citations, resolved against what was shown."""
        traj = self.trajectory
        traj.stop_reason = StopReason.ANSWERED
        citations = parse_citations(text)
        resolved = resolve_citations(citations, self._shown, set(self._view.visible_chunk_ids()))
        if resolved.unseen:
            traj.metadata["answer_unseen_ids"] = resolved.unseen
        if resolved.from_documents:
            traj.metadata["answer_mapped_ids"] = resolved.from_documents
        if resolved.duplicates:
            traj.metadata["answer_duplicates"] = resolved.duplicates
        if not resolved.passages:
            self._fallback()
            return
        notes: dict[str, str] = {}
        scored: list[tuple[ShownPassage, float]] = []
        for pos, (passage, justification, score) in enumerate(resolved.passages, 1):
            scored.append((passage, 1.0 / pos if score is None else score))
            notes[passage.chunk_id] = justification
        ranked = [to_evidence(p, score, passage_reason(p, self._terms, self.constraints, self._line_items, self.query))
                  for p, score in self._defined_first(scored)]
        self._settle(ranked, notes)
        traj.metadata["answer_fallback"] = False

    def _defined_first(self, scored: list[tuple[ShownPassage, float]]) -> list[tuple[ShownPassage, float]]:
        """The answer's passages with the one defining what the question names first (`AgentConfig.defined_first`,
        `evidence.defined_first`): taken from its place, or from the passages shown when the answer does not cite it,
        scored as the first was (scores never rise down the list). Recorded in `metadata["defined_first"]` (its
        chunk id) only when it moved a passage; off, or when none defines a name asked, `scored` as it is."""
        if not self.config.defined_first:
            return scored
        pick = defined_first([p for p, _ in scored], self._shown, self.query)
        if pick is None:
            return scored
        self.trajectory.metadata["defined_first"] = pick.chunk_id
        top = max((s for _, s in scored), default=1.0)
        return [(pick, top), *((p, s) for p, s in scored if p.chunk_id != pick.chunk_id)]

    def _settle(self, ranked: list[Evidence], justifications: dict[str, str]) -> None:
        """Evidence = the head of `ranked` within the passage limits; documents ranked from all of it."""
        cfg = self.config
        traj = self.trajectory
        traj.evidence, left_out = select_evidence(ranked, cfg.max_passages, cfg.max_passage_tokens, self.counter)
        if left_out:
            traj.metadata["evidence_over_token_cap"] = left_out
        traj.documents = documents_from(ranked, justifications, cfg.max_documents)
        cited_docs = len(dict.fromkeys(e.doc_id for e in ranked))
        if cited_docs > cfg.max_documents:
            traj.metadata["answer_truncated"] = cited_docs - cfg.max_documents

    def _fallback(self) -> None:
        """No parsable answer: the passages still in view, by the best rank a tool gave them."""
        visible = [self._shown[c] for c in self._view.visible_chunk_ids() if c in self._shown]
        ordered = sorted(visible, key=lambda p: (p.rank, p.order))
        scored = self._defined_first([(p, 1.0 / pos) for pos, p in enumerate(ordered, 1)])
        ranked = [to_evidence(p, score, passage_reason(p, self._terms, self.constraints, self._line_items, self.query))
                  for p, score in scored]
        self._settle(ranked, {})
        self.trajectory.documents = fallback_documents(visible, self.config.max_documents)
        self.trajectory.metadata["answer_fallback"] = True


def normalize_call_ids(turn: ModelTurn, n_step: int) -> ModelTurn:
    """Give every call a unique, non-empty id (backends without ids, or repeating ones).

    Idempotent; `Episode.act` applies it, and streaming applies it first so events carry the ids.
    """
    seen: set[str] = set()
    calls = []
    changed = False
    for j, call in enumerate(turn.tool_calls):
        cid = call.id
        if not cid or cid in seen:
            cid = f"call_{n_step}_{j}"
            changed = True
            call = dataclasses.replace(call, id=cid)
        seen.add(cid)
        calls.append(call)
    return dataclasses.replace(turn, tool_calls=tuple(calls)) if changed else turn


def check_query(query: Any, config: AgentConfig) -> None:
    """Raise ValueError for a query no episode should start with (empty, or past max_query_chars): the
    message of `Corpus.search` and of every surface (corpus_tools.limits)."""
    limits.check_query(query, config.max_query_chars)
