"""`AgentConfig`: every knob of the search-agent harness, with defaults from SPEC.md §2.

One config for one component (STYLE 9): the harness (`Episode`) and the public API
(`SearchAgent`) both read it; nothing below the CLI reads environment variables.
"""

from __future__ import annotations

from dataclasses import dataclass

from corpus_tools.limits import MAX_K, MAX_QUERY_CHARS

# Most rollouts one k× request runs (the reference used 4×; each rollout is a whole episode): the
# same bound in Python, `context1 ask --rollouts`, HTTP's `rollouts` and MCP's `ask`.
MAX_ROLLOUTS = 16


def check_rollouts(rollouts: object) -> int:
    """`rollouts` if it is an int in 1..MAX_ROLLOUTS; ValueError saying why (the message of every surface)."""
    if isinstance(rollouts, bool) or not isinstance(rollouts, int) or not 1 <= rollouts <= MAX_ROLLOUTS:
        raise ValueError(f"rollouts must be an integer between 1 and {MAX_ROLLOUTS} (k× mode: each rollout is a "
                         f"whole episode), got {rollouts!r:.40}")
    return rollouts


class AnswerSizeError(ValueError):
    """A request's max_documents / max_passages outside 1..the agent's: a limit, answered as one (HTTP 422)."""


def check_answer_size(value: object, name: str, ceiling: int) -> int | None:
    """A request's `max_documents` / `max_passages`: None (the agent's own), or an int in 1..ceiling.

    ceiling: the agent's configured number. A request may ask for fewer (the answer is cut after
    ranking); more would need another agent, and the message says where that is set.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= ceiling:
        raise AnswerSizeError(f"{name} must be an integer between 1 and {ceiling} (this agent's AgentConfig.{name}), got "
                         f"{value!r:.40}; for more, configure the agent with a larger {name} (`context1 ask "
                         f"--{name.replace('_', '-')}`)")
    return value


@dataclass(frozen=True)
class AgentConfig:
    """Limits and budgets of one search episode (and of k× mode).

    Token figures are counted with the backend's tokenizer when it has one (else a
    word/character estimate, see `context1.budget.estimate_tokens`), over the whole visible
    context: system, user, assistant and tool messages.
    """

    # T_budget: SPEC §2 ("e.g. 32,768; evaluations used ~24k").
    token_budget: int = 32_768
    # Soft threshold as a fraction of T_budget: SPEC §2 puts it at T_budget/2. Past it the
    # harness appends a hint to prune or conclude, but only when `training_hints` is on.
    soft_threshold: float = 0.5
    # Hard cutoff as a fraction of T_budget; SPEC §2 makes it configurable between T_budget/2
    # and T_budget. Past it every tool except prune_chunks is refused.
    hard_cutoff: float = 0.75
    # The soft-threshold hint is shown only during training rollouts (SPEC §2, DESIGN principle 1:
    # a flag, not a fork).
    training_hints: bool = False
    # Tokens always kept free for the model's next reply: a final answer of 10 documents with 1–3
    # sentence justifications is ~600–1,000 tokens; doubled for reasoning and tool-call markup.
    response_reserve: int = 2_048
    # S_budget, the per-call cap on search_corpus / grep_corpus output. 4,096 tokens holds ~10
    # chunks of the default 256-token chunking (~7 of the reference's 512-token ones), so two
    # or three searches per turn (the reference averaged 2.56 calls/turn) stay near 1/3 of T_budget.
    search_token_budget: int = 4_096
    # Most chunks one search_corpus call shows (before the token cap); matches Corpus.search's k.
    search_k: int = 10
    # grep_corpus shows "up to 5 matching chunks" (SPEC §2 tools table).
    grep_k: int = 5
    # Per-call cap on read_document output, on top of "what remains of the budget": a quarter of
    # T_budget, so one long document (the reference's SEC filings average ~31.5k tokens) cannot
    # fill the context on its own.
    read_token_budget: int = 8_192
    # Model turns before the episode stops with MAX_TURNS. The reference averaged 5.2 (trained)
    # to 6.7 (base) turns; the RL turn penalty only starts at 64, so 32 bounds cost without
    # cutting any normal trajectory short. Raise it (up to 128) for RL rollouts.
    max_turns: int = 32
    # Most documents in the final answer ("up to N documents", SPEC §2); 10 is a common top-k for
    # downstream readers and what eval's recall@k tables use.
    max_documents: int = 10
    # Most passages (chunks) in the answer's evidence, best first (issue 34). SPEC §1: "usually one
    # snippet is what matters"; 5 is the top-k the passage metrics (R@5, final-answer-found@5) read,
    # and 5 chunks of 256 tokens are ~1,300 tokens, a small prompt for a downstream reader.
    max_passages: int = 5
    # Most tokens the evidence passages take together (the first passage is always kept): the same
    # cap as one search result (S_budget), so a reader gets at most what one search would show.
    max_passage_tokens: int = 4_096
    # Re-found chunks (issue 34): a search_corpus call after the first also reads the query's ranking with nothing
    # excluded, records which chunks already shown it matched again and at what rank
    # (`Observation.metadata["refound"]`), and notes them in one line of the result; dedup still keeps them out.
    # Several differently worded searches matching one passage is evidence of its relevance (rank fusion across
    # sub-queries, as RAG-Fusion), which exclusion alone hides. What it buys is the LLM-free answer's agreement rule
    # (`IterativeConfig.agreement_weight`): on the tuning parts passage R@5 +1 / -0 (HotpotQA), +7 / -1 (MuSiQue),
    # +2 / -0 (LoCoMo) questions, none on the filings (docs/LOG.md, session 34). On by default since session 35: the
    # ranking comes from the same corpus call as the search (`Corpus.search_pair`, the query encoded once), where
    # session 34's second call had made ask 1.8x slower on the filings (`benchmarks/refound_cost.py`). The line adds
    # ~1,100 tokens (7-8 % of the final context) per LLM-free episode. A corpus without `search_pair` still gets two
    # calls, and so does a served index (`Client.search_pair` is two /search requests).
    refound: bool = True
    # Parse the question's constraints once (company, period, form: `Corpus.question_constraints`,
    # when the corpus has it) and pass them on every search of the episode (issue 35).
    constraints: bool = True
    # The passage defining what the question names comes first (issue 34, session 41): when the question names a
    # code name ("What does SECRET_KEY do?": corpus_tools.defined_names) and a passage the agent was shown defines it
    # (documentation chunks record the names they define, metadata "defines"), the answer's evidence opens with it —
    # the first such passage the answer cites, else the best-ranked one it was shown. The agent's own order otherwise
    # kept its defining passage second or third, and a user reads the first. An index without "defines" (every
    # non-documentation corpus) never fires it. False: the answer's own order exactly.
    defined_first: bool = True
    # Longest query / pattern / id the harness accepts (characters): a real query is < 300;
    # anything larger is a runaway generation and gets an error message instead of a search.
    max_argument_chars: int = 2_000
    # Most chunk ids one prune_chunks call may list (a whole context of 256-token chunks at the
    # default budget is ~120 chunks).
    max_prune_ids: int = 256
    # Most tool calls the harness runs in one turn; calls past it get an error observation each
    # (nothing runs). The reference averaged 2.56 calls/turn and the LLM-free policy issues at most
    # 7; a small model looping on one call can emit dozens, each costing a corpus call and context.
    max_calls_per_turn: int = 16
    # Longest query (characters) an episode accepts; a longer one raises ValueError at once instead of
    # running an episode whose prompt cannot fit. 20,000 characters is ~5k tokens: a pasted paragraph
    # or two fits, a whole document does not (index it instead).
    max_query_chars: int = MAX_QUERY_CHARS  # corpus_tools' limit: Corpus.search accepts the same queries
    # The model's context window in tokens (prompt + reply), when known. None: taken from the backend
    # (`context_window` attribute) when it has one. When the window is smaller than what T_budget
    # plus the reply needs, `SearchAgent` fits the budget to it (see `fit_to_window`).
    context_window: int | None = None
    # Threads that run one turn's tool calls concurrently (the reference averaged 2.56 calls/turn).
    max_parallel_calls: int = 8
    # k× mode: independent rollouts fused with RRF (SPEC §2: 4× lifted scores by 0.05–0.10).
    rollouts: int = 1
    # RRF constant for k× fusion (Cormack et al. 2009 use 60; corpus_tools uses the same).
    rrf_k: int = 60
    # Base seed; rollout i of k× mode gets seed + i (passed to backends that have `with_seed`).
    seed: int = 0
    # Replace the default system prompt (context1.prompts.SYSTEM_PROMPT); None keeps it.
    system_prompt: str | None = None

    def __post_init__(self) -> None:
        if self.token_budget < 512:
            raise ValueError(f"token_budget must be at least 512 tokens, got {self.token_budget}")
        if not 0.5 <= self.hard_cutoff <= 1.0:
            raise ValueError(
                f"hard_cutoff must be a fraction between 0.5 and 1.0 of token_budget (SPEC §2), got {self.hard_cutoff}"
            )
        if not 0.0 < self.soft_threshold <= self.hard_cutoff:
            raise ValueError(
                f"soft_threshold must be in (0, hard_cutoff={self.hard_cutoff}], got {self.soft_threshold}"
            )
        if not 0 <= self.response_reserve < self.token_budget // 2:
            raise ValueError(
                f"response_reserve must be in [0, token_budget/2 = {self.token_budget // 2}), got {self.response_reserve}"
            )
        for name in ("search_token_budget", "read_token_budget", "search_k", "grep_k", "max_turns",
                     "max_documents", "max_passages", "max_passage_tokens", "max_argument_chars", "max_prune_ids", "max_parallel_calls",
                     "rrf_k", "max_calls_per_turn", "max_query_chars"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")

        check_rollouts(self.rollouts)
        for name in ("search_k", "grep_k"):  # what the agent asks of Corpus.search / grep, within its contract
            if getattr(self, name) > MAX_K:
                raise ValueError(f"{name} must be at most {MAX_K:,} (corpus_tools.limits.MAX_K), got {getattr(self, name)}")

        if self.context_window is not None and (not isinstance(self.context_window, int) or self.context_window < 1):
            raise ValueError(f"context_window must be a positive integer or None, got {self.context_window!r}")

    @property
    def soft_limit(self) -> int:
        """Visible tokens past which the training hint is shown."""
        return int(self.token_budget * self.soft_threshold)

    @property
    def hard_limit(self) -> int:
        """Visible tokens past which every tool except prune_chunks is refused."""
        return int(self.token_budget * self.hard_cutoff)


def fit_to_window(config: AgentConfig, context_window: int, reply_tokens: int | None) -> AgentConfig:
    """`config` with T_budget (and the reply reserve) shrunk so that prompt + reply fit the window.

    The harness counts the visible context (the prompt) against T_budget and keeps
    `response_reserve` free for the reply; a server rejects a request whose prompt plus
    `max_tokens` exceeds its window. So T_budget = window − reply_tokens (the backend's max reply
    length; a quarter of the window when unknown), and the reserve is capped at a quarter of it.
    Returns `config` itself when it already fits. Raises ValueError when the window is too small
    for any episode (< 512 tokens of budget).
    """
    reply = reply_tokens if reply_tokens is not None else context_window // 4
    budget = context_window - reply
    if config.token_budget <= budget:
        return config
    if budget < 512:
        raise ValueError(
            f"the model's context window ({context_window:,} tokens) minus its reply length ({reply:,}) leaves "
            f"{budget:,} tokens, below the 512 an episode needs: serve the model with a larger context "
            "(llama.cpp: --n_ctx) or lower the backend's max_tokens"
        )
    import dataclasses

    return dataclasses.replace(
        config, token_budget=budget, response_reserve=min(config.response_reserve, budget // 4),
        search_token_budget=min(config.search_token_budget, budget // 4),
        read_token_budget=min(config.read_token_budget, budget // 3),
    )
