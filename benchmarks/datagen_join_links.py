"""What stops a folder's workbook joins (session 57, issue 36): links found, and the near links counted by cause.

    PYTHONPATH=. HF_HUB_OFFLINE=1 python benchmarks/datagen_join_links.py INDEX [INDEX …] [--show 10]

For each index (built by `context1 index`) it reads the workbook tables as datagen.grid_joins does and prints:

1. tables, the links found (across workbooks), the joins found and the links' and joins' refusals by reason
   (datagen.grid_joins' stages, counted even where no join is asked);
2. near links: a column and another table of the same folder whose names share a word, whose values are not B's keys
   as written (`MIN_MATCHED` / `MIN_COVERAGE` missed) — counted by what would make them match: a number written two
   ways ("53" / "53.0"), zeros or punctuation in a code ("P-015" / "P015", "007" / "7"), a name's two orders
   ("Smith, J." / "J. Smith"), or none of these (the keys differ: another table's keys, or too few rows); with
   --show, the first such pairs, so that a reader sees the values side by side.

Joins asked, and those the one-search drop refuses, are counted by benchmarks/datagen_sheets.py (its joins table).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

_NUMBER = re.compile(r"^[-+]?\d+(?:\.0+)?$")


def _as_number(value: str) -> str:
    return str(int(float(value))) if _NUMBER.match(value) else value


def _bare_code(value: str) -> str:
    return re.sub(r"(?<![0-9])0+(?=\d)", "", re.sub(r"[\s\-_./]", "", value))


def _name_order(value: str) -> str:
    """ "smith, j." and "j. smith" as one: the name's words, sorted."""
    return " ".join(sorted(re.findall(r"[^\W\d_]+", value)))


WAYS = (
    ("number written two ways", _as_number),
    ("code's zeros or punctuation", _bare_code),
    ("name order", _name_order),
)


def _share(values: list[str], keys: set[str]) -> tuple[int, float]:
    matched = [v for v in values if v in keys]
    return len(set(matched)), len(matched) / max(len(values), 1)


def near_links(tables: list, show: int) -> Counter:
    from datagen.grid_joins import MIN_COVERAGE, MIN_MATCHED, _stems
    from datagen.mining import fold

    causes: Counter = Counter()
    shown = 0
    for a in tables:
        for column in a.columns:
            values = [v for v in (fold(r[2].get(column, "")) for r in a.rows.values()) if v]
            if len(set(values)) < MIN_MATCHED or not _stems(column):
                continue
            for b in tables:
                if b is a or (b.doc_id != a.doc_id and b.folder != a.folder) or b.repeated:
                    continue
                named = _stems(b.corner) | _stems(b.where.split(" sheet of ")[0])
                if not _stems(column) & named:
                    continue
                distinct, share = _share(values, set(b.rows))
                if distinct >= MIN_MATCHED and share >= MIN_COVERAGE:
                    # a link as written, or refused for another reason (counted by find_links); a table whose first
                    # column repeats (a log by date or region) links through another column, but starts no join
                    if a.repeated:
                        causes["values match, first table's keys repeat"] += 1
                        if shown < show:
                            shown += 1
                            print(f"   near (first keys repeat): {a.where} [{a.corner}] [{column}] → {b.where}")
                    continue
                cause = "keys differ"
                for name, way in WAYS:
                    n, s = _share([way(v) for v in values], {way(k) for k in b.rows})
                    if n >= MIN_MATCHED and s >= MIN_COVERAGE:
                        cause = name
                        break
                causes[cause] += 1
                if shown < show:
                    shown += 1
                    print(
                        f"   near ({cause}): {a.where} [{column}] {values[:3]} → {b.where} [{b.corner}] "
                        f"{list(b.labels.values())[:3]} (matched {distinct}, {share:.2f})"
                    )
    return causes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("index", nargs="+", type=Path)
    parser.add_argument("--show", type=int, default=10)
    args = parser.parse_args(argv)
    from corpus_tools import Corpus
    from datagen.grid_joins import GridJoins, find_links, join_counts, read_keyed_tables
    from datagen.pipeline import mine_corpus

    rows = []
    for index in args.index:
        with Corpus.open(str(index)) as corpus:
            mined = mine_corpus(corpus)
        tables = read_keyed_tables(mined)
        links = find_links(tables, Counter())
        # the joins' own figures, counted even where no join is asked (the run's report has none then: with_grid_joins
        # hands back the inner generator, its counts with it)
        counts = join_counts(GridJoins(None, mined).own_stages)
        print(f"\n## {index}")
        for link in links:
            print(f"   link: {link.a.where} [{link.column}] → {link.b.where} [{link.b.corner}]")
        causes = near_links(tables, args.show)
        refused = {k: v for k, v in counts.items() if not k.startswith("links") and k != "joins"}
        rows.append(
            f"| {index.parent.name if index.name == 'index' else index.name} | {len(tables)} | {len({t.doc_id for t in tables})} | {counts.get('links', 0)} "
            f"({counts.get('links across workbooks', 0)}) | {counts.get('joins', 0)} | {', '.join(f'{k} {v}' for k, v in refused.items()) or '—'} "
            f"| {', '.join(f'{k} {v}' for k, v in causes.most_common()) or '—'} |"
        )
    print("\n| folder | tables | workbooks | links (across workbooks) | joins found | refused by reason | near links |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
