"""`AgentConfig`: every knob of the search-agent harness, with defaults from SPEC.md §2.

One config for one component (STYLE 9): the harness (`Episode`) and the public API
(`SearchAgent`) both read it; nothing below the CLI reads environment variables.
"""

from __future__ import annotations

from dataclasses import dataclass


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
    # Longest query / pattern / id the harness accepts (characters): a real query is < 300;
    # anything larger is a runaway generation and gets an error message instead of a search.
    max_argument_chars: int = 2_000
    # Most chunk ids one prune_chunks call may list (a whole context of 256-token chunks at the
    # default budget is ~120 chunks).
    max_prune_ids: int = 256
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
                     "max_documents", "max_argument_chars", "max_prune_ids", "max_parallel_calls",
                     "rollouts", "rrf_k"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")

    @property
    def soft_limit(self) -> int:
        """Visible tokens past which the training hint is shown."""
        return int(self.token_budget * self.soft_threshold)

    @property
    def hard_limit(self) -> int:
        """Visible tokens past which every tool except prune_chunks is refused."""
        return int(self.token_budget * self.hard_cutoff)
