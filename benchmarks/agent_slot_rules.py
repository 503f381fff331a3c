"""Fifth-place answer rules for the agent on the filings, tried offline on saved episodes (issue 34).

On a question that names its filing the LLM-free agent answers with its first search's top 5
(`IterativeConfig.constrained_keeps_first`, the never-worse guarantee), so the agent scores what that search
scores. The only place a rule can change without giving up the guarantee's spirit is the 5th: this script
replaces it by what a rule picks, on the episodes `agent_passages.py filings-trace` saved, and counts the
questions won and lost against the agent as it is (the scoring is `episode_held`: the strict figure rule for
docugami, an evidence page for FinanceBench). Only what the policy itself can see is used: the first
search's shown chunks (the harness drops later searches' copies of them), the later searches' shown chunks,
the question's words, and, for `parts-cosine`, the stored vectors (`Corpus.similarity`, the channel the
policy's `cosine_scoring` already reads).

    python benchmarks/agent_passages.py filings-trace --index /work/runs/s31/fil/filings2 --part tuning \\
        --out EP/doc.jsonl
    python benchmarks/agent_passages.py filings-trace --index IDX_V1 --questions financebench --part tuning \\
        --out EP/fb.jsonl    # and --part tuning2 on its own index
    python benchmarks/agent_slot_rules.py --trace EP/doc.jsonl --index /work/runs/s31/fil/filings2

Rules (each gives one chunk for the 5th place, or none: the answer is unchanged):
  parts-cosine[-and]  a compound question ("How did X compare to Y?", "…, and how could they …") split at its joins
                      (with -and: at a bare "and" too); for the first part whose closest shown first-search chunk
                      (cosine) is not in the top 4, that chunk;
  adjacent-topN       a first-search chunk ranked 6-10 that is the next or previous chunk of one of the top N;
  section-diverse     when 3+ of the top 5 (the 5th among them) sit in one section: the best-ranked first-search
                      chunk 6-10 of another section;
  later-top1          the first later search's top chunk;
  part-search         a search per ask of a compound question (bare "and" too), narrowed like the question: its best
                      chunk the question's search did not show (what a parallel search in hop 1 would show first);
  item-search         the same with one search per line item the question names;
  agreement-first10   (a trace saved with refound on, the default) the first-search chunk ranked 6-10 that the searches agree on
                      most (`context1.backends.iterative.agreement`), when more than on the 5th; -any: any chunk;
  ceiling-first10     a perfect pick among the first search's ranks 6-10 (what re-choosing it could reach);
  ceiling-shown       a perfect pick among every chunk any search showed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from agent_passages import chunk_holds, episode_held  # noqa: E402

# Where a compound question joins its asks. A bare "and" also joins names ("research and development",
# "liquidity and capital resources"), so it is a separate reading (`bare_and`).
_JOINS = (r"and (?:how|what|which|whether|why|is|are|was|were|did|does|do|has|have)|compared? (?:to|with)|relate to|"
          r"correlate with|stack up against|in relation to|versus|vs\.?|against|with respect to|as well as|along with")
_JOIN = re.compile(rf",? (?:{_JOINS})\b|, and\b", re.I)
_JOIN_AND = re.compile(rf",? (?:{_JOINS}|and)\b", re.I)
_CONTENT = re.compile(r"[^\W\d_]{3,}")
_STOP = frozenset("""the and for from with that this these those their them they its what which how does did was were
is are has have had been being into about such than then there here when where why who whom whose would could
should will can may might must also any each other over under between after before during most more much many
some report reported reports""".split())


def question_parts(question: str, bare_and: bool = False) -> list[str]:
    """The asks of a compound question, in order; [] for a question of one ask. What follows the first "? " (an
    instruction: FinanceBench's "If the quick ratio is not …, state that") is no ask; a part needs two content
    words of its own ("was the magnitude" is none)."""
    head = re.split(r"\?\s", question.strip())[0]
    parts = [p.strip(" ,?.") for p in (_JOIN_AND if bare_and else _JOIN).split(head)]
    parts = [p for p in parts if sum(w.lower() not in _STOP for w in _CONTENT.findall(p)) >= 2]
    return parts if len(parts) > 1 else []


def _num(cid: str) -> tuple[str, int]:
    doc, _, n = cid.rpartition("#")
    return doc, int(n) if n.isdigit() else -1


def _adjacent(a: str, b: str) -> bool:
    (da, na), (db, nb) = _num(a), _num(b)
    return da == db and na >= 0 and nb >= 0 and abs(na - nb) == 1


def first_shown(ep: dict) -> list[str]:
    """The question's own search's shown chunks (the first search_corpus observation)."""
    return next((o["ids"] for o in ep["observations"] if o["tool"] == "search_corpus"), [])


def parts_cosine(corpus: Any, bare_and: bool = False) -> Callable[[dict], str | None]:
    def pick(ep: dict) -> str | None:
        top, pool = ep["passages"][:5], first_shown(ep)
        for part in question_parts(ep["question"], bare_and):
            sims = [float(x) for x in corpus.similarity(part, pool)] if pool else []
            if not sims:
                return None
            best = pool[max(range(len(pool)), key=lambda i: (sims[i], -i))]
            if best not in top[:4]:
                return best
        return None
    return pick


def adjacent_top(n: int) -> Callable[[dict], str | None]:
    def pick(ep: dict) -> str | None:
        top = ep["passages"][:5]
        return next((c for c in first_shown(ep)[5:] if c not in top and any(_adjacent(c, a) for a in top[:n])), None)
    return pick


def section_diverse(section_of: Callable[[str], Any]) -> Callable[[dict], str | None]:
    def pick(ep: dict) -> str | None:
        top = ep["passages"][:5]
        if len(top) < 5:
            return None
        secs = [section_of(c) for c in top]
        if secs.count(secs[4]) < 3:
            return None
        return next((c for c in first_shown(ep)[5:] if section_of(c) not in secs), None)
    return pick


def sub_search_fill(corpus: Any, kind: str) -> Callable[[dict], str | None]:
    """What a sub-search issued beside the question's own search would put in the 5th place: its best chunk that the
    question's search did not show (the harness drops a shown chunk from a later or parallel search), narrowed to the
    question's filing as every search of the agent is (`AgentConfig.constraints`). kind "part": one search per ask of
    a compound question (`question_parts`, bare "and" too); "item": one per line item it names
    (`corpus_tools.line_items.canonical_names`, with the question's first two phrases)."""
    from context1.backends.llm_free import question_phrases
    from corpus_tools.line_items import canonical_names

    def pick(ep: dict) -> str | None:
        q, shown = ep["question"], set(first_shown(ep))
        if kind == "part":
            queries = question_parts(q, bare_and=True)
        else:
            queries = [" ".join([name, *question_phrases(q)[:2]]) for name in canonical_names(q)]
        constraints = corpus.question_constraints(q) or None
        for sub in queries:
            hits = corpus.search(sub, k=10 + len(shown), constraints=constraints)
            best = next((h.chunk.chunk_id for h in hits if h.chunk.chunk_id not in shown), None)
            if best is not None:
                return best
        return None
    return pick


def later_top1(ep: dict) -> str | None:
    later = [o for o in ep["observations"] if o["tool"] == "search_corpus"][1:]
    return next((o["ids"][0] for o in later if o["ids"]), None)


def agreement(ep: dict) -> dict[str, float]:
    """Per chunk, the agreement of the episode's searches on it (`context1.backends.iterative.agreement`'s sum of
    5/(4+rank) over the search_corpus calls that showed or re-found it, less the largest); {} for a trace saved
    with `--refound off`."""
    terms: dict[str, list[float]] = {}
    for o in ep["observations"]:
        if o["tool"] != "search_corpus":
            continue
        ranks = {c: i for i, c in enumerate(o["ids"], start=1)}
        for c, rank in o.get("refound") or ():
            ranks.setdefault(c, rank)
        for c, rank in ranks.items():
            terms.setdefault(c, []).append(5 / (4 + rank))
    return {c: sum(t) - max(t) for c, t in terms.items() if len(t) > 1}


def agreement_top(first_only: bool) -> Callable[[dict], str | None]:
    """The chunk outside the top 4 that the searches agree on most (first_only: among the first search's ranks
    6-10), when they agree on it more than on the 5th."""
    def pick(ep: dict) -> str | None:
        top = ep["passages"][:5]
        agree = agreement(ep)
        pool = first_shown(ep)[5:] if first_only else [c for c in agree if c not in top]
        best = max(pool, key=lambda c: (agree.get(c, 0.0), -pool.index(c)), default=None)
        if best is None or agree.get(best, 0.0) <= agree.get(top[4] if len(top) > 4 else "", 0.0):
            return None
        return best
    return pick


def ceiling(pool_of: Callable[[dict], list[str]]) -> Callable[[dict], str | None]:
    def pick(ep: dict) -> str | None:
        top = ep["passages"][:5]
        if episode_held(ep, top):
            return None
        return next((c for c in pool_of(ep) if c not in top and episode_held(ep, top[:4] + [c])), None)
    return pick


def score_rule(eps: list[dict], pick: Callable[[dict], str | None], holds: Callable[[dict, str], Any]) -> dict:
    """The rule applied to every episode: how often it fires, the 5th places it turns into a holder of some of the
    answer and out of one, and the questions won and lost against the agent's own top 5."""
    out: dict = {"fired": 0, "gained": 0, "dropped": 0, "won": [], "lost": []}
    for ep in eps:
        top = ep["passages"][:5]
        cand = pick(ep)
        if cand is None or cand in top or len(top) < 5:
            continue
        if cand not in ep["holds"]:
            ep["holds"][cand] = holds(ep, cand)
        out["fired"] += 1
        new = top[:4] + [cand]
        out["gained"] += bool(ep["holds"].get(cand)) and not ep["holds"].get(top[4])
        out["dropped"] += bool(ep["holds"].get(top[4])) and not ep["holds"].get(cand)
        before, after = episode_held(ep, top), episode_held(ep, new)
        if after and not before:
            out["won"].append(ep["id"])
        if before and not after:
            out["lost"].append(ep["id"])
    return out


def trace_rows(trace: Path, index: Path) -> list[str]:
    """The table's rows for one saved trace: every rule scored against the agent's own top 5."""
    from corpus_tools import Corpus

    if not trace.is_file():
        raise SystemExit(f"--trace {trace}: no such file (make it with agent_passages.py filings-trace)")
    eps = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines() if line.strip()]
    corpus = Corpus.open(index)
    if eps and eps[0]["rule"] == "page" and "pages" not in eps[0]:  # traces saved before pages were kept
        import financebench

        pages = {q["id"]: q["pages"] for q in financebench.held_questions(financebench.load_jsonl(None),
                                                                            corpus.doc_ids())}
        for ep in eps:
            ep["pages"] = pages[ep["id"]]

    def holds(ep: dict, cid: str) -> Any:
        return chunk_holds(corpus, ep, cid)

    def section_of(cid: str) -> tuple[str, str]:
        return cid.rpartition("#")[0], corpus.chunk(cid).metadata.get("section") or ""

    rules = {
        "parts-cosine": parts_cosine(corpus), "parts-cosine-and": parts_cosine(corpus, bare_and=True),
        "adjacent-top1": adjacent_top(1), "adjacent-top2": adjacent_top(2),
        "section-diverse": section_diverse(section_of), "later-top1": later_top1,
        "agreement-first10": agreement_top(True), "agreement-any": agreement_top(False),
        "part-search": sub_search_fill(corpus, "part"), "item-search": sub_search_fill(corpus, "item"),
        "ceiling-first10": ceiling(lambda ep: first_shown(ep)[5:]),
        "ceiling-shown": ceiling(lambda ep: [c for o in ep["observations"] for c in o["ids"]]),
    }
    held = sum(episode_held(ep, ep["passages"][:5]) for ep in eps)
    rows = []
    for name, pick in rules.items():
        r = score_rule(eps, pick, holds)
        rows.append(f"| {trace.name} ({len(eps)}, {held}) | {name} | {r['fired']} | {r['gained']} / {r['dropped']} | "
                    f"{len(r['won'])} {r['won']} | {len(r['lost'])} {r['lost']} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trace", type=Path, nargs="+", required=True, help="filings-trace episode files")
    parser.add_argument("--index", type=Path, nargs="+", required=True, help="each trace's index, in order")
    args = parser.parse_args()
    if len(args.trace) != len(args.index):
        raise SystemExit(f"{len(args.trace)} traces but {len(args.index)} indexes: give one index per trace")
    print("| trace (questions, held) | rule | fired | 5th place: holder in / out | won | lost |")
    print("| --- | --- | ---: | ---: | --- | --- |")
    for trace, index in zip(args.trace, args.index, strict=True):
        print("\n".join(trace_rows(trace, index)))


if __name__ == "__main__":
    main()
