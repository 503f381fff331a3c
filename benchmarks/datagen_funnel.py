"""Where a natural datagen run's facts and proposals end, stage by stage (issue 36's conversation funnel).

Runs `context1 datagen`'s natural generator in process over INDEX into OUT (its parse cache is reused
when OUT holds one) and prints: facts with a question before and after each corpus-wide uniqueness pass;
the questions the generator may ask (one answer per session); proposals by hop count, form and fate
(written, or the drop reason; "proposer:" when the generator had nothing to offer); the questions left
unwritten in sessions under and at their cap; and why the run stopped.

    python benchmarks/datagen_funnel.py INDEX OUT --n 300 [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import datagen.relations as relations  # noqa: E402
from datagen.types import Candidate, DropReason, GenerationReport  # noqa: E402

PASSES = ("unique_activities", "unique_chat_facts", "_unique_spoken")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("index")
    parser.add_argument("out")
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if (out / "tasks.jsonl").exists():
        sys.exit(f"{out}/tasks.jsonl exists: give an empty OUT (or one holding only a parse cache)")

    stages: list[tuple[str, int]] = []
    for name in PASSES:  # count the facts with a question around each uniqueness pass
        inner = getattr(relations, name)

        def counted(base: Any, *rest: Any, _inner: Any = inner, _name: str = name, **kw: Any) -> Any:
            stages.append((f"before {_name}", _asked(base)))
            result = _inner(base, *rest, **kw)
            stages.append((f"after {_name}", _asked(base)))
            return result

        setattr(relations, name, counted)
    fates: list[dict[str, Any]] = []
    drop = GenerationReport.drop

    def noted(self: GenerationReport, reason: DropReason | str, n: int = 1) -> None:
        if fates and "fate" not in fates[-1]:
            fates[-1]["fate"] = DropReason(reason).value
        drop(self, reason, n)

    GenerationReport.drop = noted  # type: ignore[method-assign]

    from corpus_tools import Corpus
    from datagen.natural import NaturalConfig, NaturalGenerator
    from datagen.period_tasks import with_period_tasks
    from datagen.pipeline import GenerateConfig, corpus_searcher, generate, mine_corpus
    from datagen.report_fields import with_report_fields
    from datagen.run import _facts

    with Corpus.open(args.index) as corpus:
        mined = mine_corpus(corpus, exclude=frozenset())
        base = _facts(mined, out, False)
        gen = NaturalGenerator(mined, base, NaturalConfig())
        propose = gen.propose

        def traced(hops: int, rng: Any) -> Candidate | DropReason:
            found = propose(hops, rng)
            entry: dict[str, Any] = {"hops": hops}
            if isinstance(found, Candidate):
                entry["form"] = found.metadata.get("form", "")
            else:
                entry["fate"] = "proposer:" + found.value
            fates.append(entry)
            return found

        gen.propose = traced  # type: ignore[method-assign]
        wrapped = with_report_fields(with_period_tasks(gen, mined, base), mined)
        report = generate(wrapped, mined, out / "tasks.jsonl", GenerateConfig(n=args.n, seed=args.seed),
                          searcher=corpus_searcher(corpus))
    for entry in fates:
        entry.setdefault("fate", "written")

    print(f"| stage | count |\n|---|--:|\n| documents | {len(mined.chunks)} |")
    for name, n in stages:
        print(f"| facts with a question, {name} | {n} |")
    named = sum(len(fs) for fs in gen.named.values())
    print(f"| questions the generator may ask (one answer a session) | {named} in {len(gen.named)} documents |")
    under = sum(len(gen._unasked(d)) for d in gen.named if gen.usable(d))
    held = sum(len(gen._unasked(d)) for d in gen.named if not gen.usable(d))
    at_cap = sum(1 for d in gen._doc_cap if not gen.usable(d))
    print(f"| proposals | {report.attempted} |")
    for (hops, form, fate), n in sorted(Counter((e["hops"], e.get("form", "-"), e["fate"]) for e in fates).items(),
                                        key=lambda kv: -kv[1]):
        print(f"| {hops}-hop {form}: {fate} | {n} |")
    print(f"| written | {report.written} |")
    print(f"| questions left unwritten: under the cap / past it ({at_cap} of {len(gen._doc_cap)} sessions past) "
          f"| {under} / {held} |")
    print(f"\n{report.stopped}")
    return 0


def _asked(base: Any) -> int:
    return sum(1 for facts in base.facts.values() for f in facts if f.ask)


if __name__ == "__main__":
    raise SystemExit(main())
