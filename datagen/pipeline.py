"""`generate`: propose → verify → (hardness, distractors) → append, until n tasks or the corpus is spent.

One loop serves both generators (offline and LLM): each proposes `Candidate`s for a hop count,
the extraction verifier accepts or rejects them (pure functions), accepted ones are written as
`Task` lines to an append-only file with stable ids. Every rejection is counted with its reason.

Hardness and distractors need a search: with a `Corpus`, each accepted candidate's question is
searched once per leg (hybrid, as `context1 eval --retriever hybrid` does, and BM25 and dense alone:
50 chunks collapsed to the top 10 documents). A multi-hop candidate that either the hybrid or the
BM25 search already solves (every supporting document in its top 10) is dropped as
`ONE_SEARCH_SOLVES` (MuSiQue likewise drops questions answerable without every hop); comparisons
name both of their documents by design and are exempt, as they are in HotpotQA. The drop is itself a
budget (`GenerateConfig.solved_budget`): real compositional questions are not all hard (28 % of
MuSiQue's tuning part have every gold document in one hybrid search's top 10, 79 % of HotpotQA's in
BM25's), so that share of the bridges may be solved by one search; dropping every one of them left a
HotpotQA-like corpus 14 bridges of 64 (issue 36). The lexical budget
then bounds how often a bridge question puts two or more of its documents in BM25's top 10
(`GenerateConfig.bm25_budget`, a share matched to real compositional questions); candidates over
it are dropped as `LEXICAL_BUDGET`, so the generator resamples. Every gold document's rank in each
leg is recorded in the task (metadata["ranks"]). The other top documents that do not contain the
answer are kept as distractors.

Stopping: after `n` new tasks; or when every hop count has failed `patience` proposals in a row
("the corpus cannot yield more"); or on Ctrl-C. Whatever was written stays written.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from datagen.mining import MinedCorpus, mine
from datagen.positives import verified_positives
from datagen.records import TaskWriter, to_task
from datagen.types import HOP_UNIT, PASSAGE_HOPS, Candidate, DropReason, GenerationReport, StopGeneration
from datagen.verify import check_candidate, contains, filter_distractors, normalize


class Generator(Protocol):
    """What `generate` drives: the offline generator or the LLM pipeline. Optional hooks, read with getattr:
    `exhausted`, `deferred`, `single_fill`, `deep_hops`, and `refuse(candidate, reason)` (told when a candidate fails
    verification or duplicates a written task, so it need not be drawn again)."""

    def propose(self, hops: int, rng: random.Random) -> Candidate | DropReason: ...

    def commit(self, candidate: Candidate) -> None: ...


# question -> {"hybrid": top-10 doc ids, "bm25": …, "dense": …}; a plain list is read as the hybrid leg.
Searcher = Callable[[str], "Mapping[str, list[str]] | list[str]"]
LEGS = ("hybrid", "bm25", "dense")


@dataclass(frozen=True)
class GenerateConfig:
    """One generation run.

    n: new tasks wanted. hops: hop counts, proposed in rotation (1-4; 1-hop tasks train rerankers).
    seed: the only source of randomness (the same seed over the same index proposes the same
        candidates, which is how a resumed run finds its place).
    exclude_doc_ids: documents never used as support (keep evaluation documents out of training).
    drop_easy: hold multi-hop candidates that one search solves to `solved_budget` (needs a searcher);
        False keeps them all.
    n_distractors: distractors kept per task (needs a searcher); SPEC §4 step 4 used 10.
    patience: failed proposals in a row after which a hop count is given up.
    source: the `Task.source` label.
    bm25_budget: the largest share of bridge tasks (hops >= 2) that may put two or more of their
        documents in BM25's top 10 for the question alone; None for no budget. The default is what
        real compositional questions show: 0.283 of MuSiQue's (tuning part, 60 questions;
        benchmarks/datagen_natural.py).
    solved_budget: with drop_easy, the largest share of bridge tasks (bridges and bridge comparisons)
        that one hybrid or BM25 search solves (every supporting document in its top 10); 0 drops them
        all. The default is MuSiQue's tuning part again: 0.283 of its questions are solved by one
        hybrid search (60 questions; benchmarks/datagen_natural.py --part tune, "hybrid all@10").
    """

    n: int = 100
    hops: tuple[int, ...] = (2, 3, 4)
    seed: int = 0
    exclude_doc_ids: frozenset[str] = field(default_factory=frozenset)
    drop_easy: bool = True
    n_distractors: int = 5
    patience: int = 200
    source: str = "datagen"
    bm25_budget: float | None = 0.28
    solved_budget: float = 0.28

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ValueError(f"n must be at least 1, got {self.n}")
        if not self.hops or any(h not in (1, 2, 3, 4) for h in self.hops):
            raise ValueError(f"hops must be values in 1-4, got {self.hops!r}")
        if not 0.0 <= self.solved_budget <= 1.0:
            raise ValueError(f"solved_budget must be a share in [0, 1], got {self.solved_budget}")


def _ask_deep(generator: object, live: list[int]) -> None:
    """Tell a generator that keeps documents back for deeper chains which hop counts are still asked
    (`NaturalGenerator.deep_hops`): none kept once a run asks for no deeper task, or gives it up."""
    if hasattr(generator, "deep_hops"):
        generator.deep_hops = frozenset(h for h in live if h > 2)


def parse_hops(spec: str) -> tuple[int, ...]:
    """"2-4" → (2, 3, 4); "1,3" → (1, 3); "2" → (2,). Hops are 1-4."""
    spec = spec.strip()
    try:
        if "-" in spec:
            lo, hi = (int(x) for x in spec.split("-", 1))
            values = tuple(range(lo, hi + 1))
        else:
            values = tuple(int(x) for x in spec.split(","))
    except ValueError:
        raise ValueError(f"hops must look like '2-4', '1,3' or '2', got {spec!r}") from None
    if not values or any(v not in (1, 2, 3, 4) for v in values):
        raise ValueError(f"hops must be between 1 and 4, got {spec!r}")
    return values


class CorpusTexts(Mapping[str, str]):
    """doc id -> text of a mined corpus (the chunks joined), built lazily; the verifier's view."""

    def __init__(self, mined: MinedCorpus) -> None:
        self.mined = mined
        self._cache: dict[str, str] = {}

    def __getitem__(self, key: str) -> str:
        if key not in self.mined.chunks:
            raise KeyError(key)
        if key not in self._cache:
            self._cache[key] = self.mined.doc_text(key)
        return self._cache[key]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.mined.chunks)

    def __len__(self) -> int:
        return len(self.mined.chunks)


def top_documents(hits: Iterable[Any], k: int) -> list[str]:
    """The first `k` distinct documents of a chunk ranking, each at its best chunk's rank."""
    docs: dict[str, None] = {}
    for hit in hits:
        docs.setdefault(hit.chunk.doc_id, None)
        if len(docs) >= k:
            break
    return list(docs)


def corpus_searcher(corpus: Any, k: int = 10, chunk_factor: int = 5) -> Searcher:
    """Top-k documents of one hybrid search and of each leg alone (k·chunk_factor chunks collapsed
    by best chunk, the same collapse `eval.retrievers.SingleShotRetriever` uses)."""

    def search(question: str) -> Mapping[str, list[str]]:
        return _LazyLegs(
            {
                "hybrid": lambda: corpus.search(question, k=k * chunk_factor),
                "bm25": lambda: corpus.search_leg(question, "bm25", k=k * chunk_factor),
                "dense": lambda: corpus.search_leg(question, "dense", k=k * chunk_factor),
            },
            k=k,
        )

    return search


class _LazyLegs(Mapping[str, list[str]]):
    """Each leg's top-k documents, searched when first read: single-hop tasks need only the hybrid one. Its top-k
    chunks are kept beside them (`chunks`): a task whose hops are passages is judged by them."""

    def __init__(self, legs: Mapping[str, Callable[[], Iterable[Any]]], k: int = 10) -> None:
        self._legs = legs
        self._k = k
        self._done: dict[str, list[str]] = {}
        self._chunks: dict[str, list[str]] = {}

    def __getitem__(self, leg: str) -> list[str]:
        if leg not in self._done:
            hits = list(self._legs[leg]())
            self._done[leg] = top_documents(hits, self._k)
            self._chunks[leg] = [hit.chunk.chunk_id for hit in hits[: self._k]]
        return self._done[leg]

    def chunks(self, leg: str) -> list[str]:
        """The leg's top-k chunk ids (searched now if not yet)."""
        self[leg]
        return self._chunks[leg]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._legs)

    def __len__(self) -> int:
        return len(self._legs)

    def searched(self) -> dict[str, list[str]]:
        """The legs searched so far, hybrid, dense, bm25 first (the order a task's `ranks` records)."""
        first = [leg for leg in ("hybrid", "dense", "bm25") if leg in self._done]
        return {leg: self._done[leg] for leg in [*first, *(leg for leg in self._done if leg not in first)]}


def _legs(found: Mapping[str, list[str]] | list[str]) -> Mapping[str, list[str]]:
    return {"hybrid": list(found)} if isinstance(found, list) else found


def _found(candidate: Candidate, legs: Mapping[str, list[str]], leg: str) -> list[bool]:
    """Whether one `leg` search of the question ranks each supporting unit in its top 10: each document, or, for a
    task whose hops are passages (`metadata["hop_unit"]`, datagen.types), one of each supporting item's chunks
    among the top 10 chunks (a searcher that gives no chunks is read by document)."""
    if candidate.metadata.get(HOP_UNIT) == PASSAGE_HOPS and isinstance(legs, _LazyLegs):
        top = legs.chunks(leg)
        return [any(c in top for c in item.chunk_ids) for item in candidate.supporting]
    return [d in legs[leg] for d in candidate.doc_ids]


def lexical_hit(candidate: Candidate, legs: Mapping[str, list[str]]) -> bool:
    """Whether a bridge question alone puts two or more of its documents (or passages) in BM25's top 10: beyond
    the entry document, which the question names, BM25 already finds a later one. Counted without an
    order, so real questions (whose gold documents come unordered) are measured the same way."""
    return "bm25" in legs and sum(_found(candidate, legs, "bm25")) >= 2


def one_search_solves(candidate: Candidate, legs: Mapping[str, list[str]]) -> bool:
    """Whether one hybrid or BM25 search of the question alone puts every supporting document (or passage) in its
    top 10."""
    return any(leg in legs and all(_found(candidate, legs, leg)) for leg in ("hybrid", "bm25"))


def mine_corpus(corpus: Any, exclude: Iterable[str] = ()) -> MinedCorpus:
    """Mine an opened `Corpus` (every chunk of every document)."""
    chunks = [c for doc in corpus.doc_ids() for c in corpus.chunks(doc)]
    mined = mine(chunks, exclude=exclude)
    # what the folder's project files declare, read by the indexer though never content (doc_projects names by it)
    mined.declared = {s.path: s.declares for s in getattr(corpus, "skipped", ()) if getattr(s, "declares", "")}
    return mined


def generate(
    generator: Generator,
    mined: MinedCorpus,
    out: str | Path,
    config: GenerateConfig,
    *,
    searcher: Searcher | None = None,
    progress: Callable[[GenerationReport], None] | None = None,
    usage: Callable[[], Mapping[str, int]] | None = None,
) -> GenerationReport:
    """Append up to `config.n` new verified tasks to the JSONL file `out`; returns the report.

    usage: returns the generator's token usage so far (LLM generators), copied into the report.
    """
    report = GenerationReport()
    start = time.perf_counter()
    if not mined.chunks:
        raise ValueError("the index holds no documents (after exclusions): index a corpus first")
    rng = random.Random(config.seed)
    texts = CorpusTexts(mined)
    chunk_texts = {c.chunk_id: c.text for chunks in mined.chunks.values() for c in chunks}
    excluded = set(config.exclude_doc_ids)

    def chunks_with(doc_id: str, quote: str) -> tuple[str, ...]:
        q = normalize(quote)
        return tuple(c.chunk_id for c in mined.chunks.get(doc_id, []) if contains(normalize(c.text), q, normalized=True))

    with TaskWriter(out) as writer:
        report.existing = len(writer.existing)
        for task in writer.existing:
            generator.commit(_as_candidate_docs(task.gold_doc_ids, task.metadata.get("form", "")))
        exhausted = getattr(generator, "exhausted", None) or (lambda hops: None)
        deferred = getattr(generator, "deferred", None) or (lambda hops: None)
        live = list(config.hops)  # a value may repeat to weight it: (1, 1, 2) proposes 1-hop twice as often
        if 1 not in live and not writer.existing:
            none = {h: exhausted(h) for h in sorted({2, *live})}
            # not even a 2-hop task in the corpus (no titles, no links): single-hop tasks rather than
            # nothing; a corpus that has shorter chains than asked (--hops 4) writes fewer tasks instead
            if all(none.values()):
                report.given_up.update({h: why for h, why in none.items() if h in live})  # type: ignore[misc]
                report.fallback = (
                    "no multi-hop task can be built from this corpus ("
                    + "; ".join(f"{h}-hop: {why}" for h, why in none.items())
                    + "): single-hop tasks are written instead"
                )
                live = [1]
        failures = dict.fromkeys(live, 0)
        _ask_deep(generator, live)
        turn = 0
        bridges = sum(1 for t in writer.existing if t.hops > 1 and t.metadata.get("form", "bridge") == "bridge")
        lexical = sum(1 for t in writer.existing if t.metadata.get("bm25_later_hit"))
        held = sum(1 for t in writer.existing if t.hops > 1 and _searched_form(t.metadata.get("form", "bridge")))
        solved = sum(1 for t in writer.existing if t.metadata.get("one_search_solves"))
        try:
            while report.written < config.n and live:
                hops = live[turn % len(live)]
                turn += 1
                spent = exhausted(hops)
                if spent is not None:  # the generator knows it has no more of this hop count: no waiting
                    live = [h for h in live if h != hops]
                    _ask_deep(generator, live)
                    report.given_up[hops] = spent
                    live = live or _single_fill(generator, report, failures)
                    continue
                wait = deferred(hops)
                if wait is not None:  # tasks of this hop count are left, but not due now: no failure, no attempt
                    if 1 not in live and 1 not in report.given_up:
                        live += _single_fill(generator, report, failures, wait=f"{hops}-hop: {wait}")
                    # nothing else can be written: past the share rather than a smaller set (given up when no
                    # share can be let go, so the run never waits on itself)
                    if all(deferred(h) is not None for h in set(live)) and not _release_shares(generator, report, wait):
                        live = [h for h in live if h != hops]
                        report.given_up[hops] = wait
                    continue
                result = generator.propose(hops, rng)
                report.attempted += 1
                reason = result if isinstance(result, DropReason) else None
                candidate = result if isinstance(result, Candidate) else None
                if candidate is not None:
                    reason = _check(candidate, texts, chunk_texts, excluded, mined.titles)
                    if reason is not None and hasattr(generator, "refuse"):
                        # a verdict on the candidate alone, so it would fail again: a generator may stop drawing it
                        generator.refuse(candidate, reason)
                task = None
                if candidate is not None and reason is None:
                    task = to_task(candidate, source=config.source, chunks_with=chunks_with,
                                   positives=verified_positives(candidate, chunk_texts, excluded) if searcher is None else ())
                    if task.task_id in writer:
                        reason = DropReason.DUPLICATE
                        if hasattr(generator, "refuse"):  # its task is written: drawn again, it is a duplicate again
                            generator.refuse(candidate, reason)
                hit_later = is_solved = False
                if candidate is not None and reason is None and searcher is not None:
                    legs = _legs(searcher(candidate.question))
                    form = candidate.metadata.get("form", "bridge")
                    bridge = candidate.hops > 1 and form == "bridge"
                    hard = candidate.hops > 1 and _searched_form(form)
                    # Each leg is searched when first read (a dense one encodes the question): a bridge
                    # over the lexical budget is dropped on BM25's ranking alone.
                    # kept easy ones are looked at only once written (the hybrid leg is read then anyway)
                    is_solved = config.drop_easy and hard and one_search_solves(candidate, legs)
                    hit_later = bridge and lexical_hit(candidate, legs)
                    if is_solved and config.drop_easy and (solved + 1) / (held + 1) > config.solved_budget:
                        reason = DropReason.ONE_SEARCH_SOLVES
                    elif (
                        hit_later
                        and config.bm25_budget is not None
                        and (lexical + 1) / (bridges + 1) > config.bm25_budget
                    ):
                        reason = DropReason.LEXICAL_BUDGET
                    else:
                        top = legs["hybrid"]
                        is_solved = is_solved or (hard and one_search_solves(candidate, legs))
                        found = sum(d in top for d in candidate.doc_ids) / len(candidate.doc_ids)
                        if bridge:  # the dense leg is read for the record: the lexical table reports it
                            legs.get("dense")
                        pool = [d for d in top if d not in candidate.doc_ids and d not in excluded]
                        kept, dropped = filter_distractors(candidate.answers, pool, texts)
                        report.distractors_dropped += len(dropped)
                        searched = legs.searched() if isinstance(legs, _LazyLegs) else legs
                        ranks = {
                            leg: [ranked.index(d) + 1 if d in ranked else None for d in candidate.doc_ids]
                            for leg, ranked in searched.items()
                        }
                        task = to_task(
                            _with_distractors(candidate, kept[: config.n_distractors]),
                            source=config.source,
                            chunks_with=chunks_with,
                            extra={"one_search_recall@10": round(found, 4), "ranks": ranks, "bm25_later_hit": hit_later,
                                   "one_search_solves": is_solved},
                            positives=verified_positives(candidate, chunk_texts, excluded),
                        )
                if reason is not None or task is None:
                    report.drop(reason or DropReason.MALFORMED_OUTPUT)
                    failures[hops] += 1
                    if failures[hops] >= config.patience:
                        live = [h for h in live if h != hops]
                        _ask_deep(generator, live)
                        report.given_up[hops] = f"{config.patience} failed proposals in a row"
                        live = live or _single_fill(generator, report, failures)
                else:
                    failures[hops] = 0
                    form = candidate.metadata.get("form", "bridge")  # type: ignore[union-attr]
                    if candidate.hops > 1 and form == "bridge":  # type: ignore[union-attr]
                        bridges += 1
                        lexical += int(hit_later)
                    if candidate.hops > 1 and _searched_form(form) and searcher is not None:  # type: ignore[union-attr]
                        held += 1
                        solved += int(is_solved)
                    writer.write(task)
                    generator.commit(candidate)  # type: ignore[arg-type]
                    report.written += 1
                    report.by_hops[candidate.hops] += 1  # type: ignore[union-attr]
                    report.by_truth_type[candidate.truth_type.value] += 1  # type: ignore[union-attr]
                if usage is not None:
                    report.usage = Counter(usage())
                report.stages = Counter(getattr(generator, "stages", {}))
                if progress is not None:
                    progress(report)
        except StopGeneration as exc:
            report.stopped = f"stopped: {exc}; every task written so far is kept"
        except KeyboardInterrupt:
            report.stopped = "interrupted; every task written so far is kept, rerun the same command to resume"
        if not report.stopped:
            report.stopped = _why_stopped(report, config, live)
    report.seconds = time.perf_counter() - start
    return report


def _single_fill(generator: Generator, report: GenerationReport, failures: dict[int, int], wait: str = "") -> list[int]:
    """[1] when a multi-hop run has spent its multi-hop tasks on a corpus whose generator says single-hop
    ones may fill the rest (`single_fill`: chats and mail, whose only multi-hop tasks are few), else [].
    wait: why the multi-hop tasks left are not due now (`deferred`: over their share of the output), when
    single-hop ones fill in the meantime rather than for the rest."""
    fill = getattr(generator, "single_fill", None)
    note = fill() if fill is not None and not report.fallback and 1 not in failures else ""
    if not note:
        return []
    due = [f"{wait}, due again as the set grows"] if wait else []
    spent = "; ".join([f"{h}-hop: {why}" for h, why in sorted(report.given_up.items())] + due)
    report.fallback = f"{note} ({spent})"
    failures[1] = 0
    return [1]


def _release_shares(generator: Any, report: GenerationReport, wait: str) -> bool:
    """Let the generator's capped forms past their share (`hold_shares`): every hop count left is only
    deferred, so holding the share would end the run with fewer tasks than the corpus gives. False when
    there was no share to let go."""
    if not getattr(generator, "hold_shares", False):
        return False
    generator.hold_shares = False
    note = f"then past their share, nothing else being left ({wait})"
    report.fallback = f"{report.fallback}; {note}" if report.fallback else note
    return True


def _searched_form(form: str) -> bool:
    """Whether a multi-hop form is held to the one-search budget: a bridge, or a comparison of two
    bridges (it names neither of its answers' documents); a plain comparison names both of its."""
    # an 8-K's event bridged to its quarter's figures (datagen.period_tasks) names the 8-K's event, never the report
    return form in ("bridge", "bridge_comparison", "bridged_comparison", "event_bridge", "event_comparison")


def _check(
    candidate: Candidate, texts: Mapping[str, str], chunk_texts: Mapping[str, str], excluded: set[str],
    titles: Mapping[str, str],
) -> DropReason | None:
    if excluded.intersection(candidate.doc_ids):
        return DropReason.EXCLUDED_DOCUMENT
    verdict = check_candidate(candidate, texts, chunk_texts, titles)
    return verdict.reasons[0] if verdict.reasons else None


def _with_distractors(candidate: Candidate, distractors: Sequence[str]) -> Candidate:
    from dataclasses import replace

    return replace(candidate, distractors=tuple(distractors))


def _as_candidate_docs(doc_ids: Sequence[str], form: str = "") -> Candidate:
    """A stand-in candidate carrying only doc ids and form (to count an existing task's document uses,
    and its form against the output shares)."""
    from datagen.types import SupportingItem

    return Candidate(question="", answer="", supporting=tuple(SupportingItem(d) for d in doc_ids), hops=len(doc_ids),
                     metadata={"form": form} if form else {})


def _why_stopped(report: GenerationReport, config: GenerateConfig, live: list[int]) -> str:
    if report.written >= config.n:
        return f"reached n={config.n}" + (f"; {report.fallback}" if report.fallback else "")
    top = ", ".join(f"{k} {v}" for k, v in report.drops.most_common(3))
    why = "; ".join(  # with a fallback, the multi-hop reasons are said once, in it
        f"{h}-hop: {reason}" for h, reason in sorted(report.given_up.items()) if not (report.fallback and h > 1)
    )
    if report.fallback:
        why = "; ".join(filter(None, (why, report.fallback)))
    return (
        f"the corpus cannot yield more: stopped at {report.written} of n={config.n} new task(s); every hop count "
        f"was given up ({why}; most frequent drops: {top or 'none'}). Use more documents, fewer hops, or a lower --n."
    )
