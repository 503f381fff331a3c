"""Prose beside tables: a search's first hits are not all pieces of the same statement.

A 10-Q's statement is chunked into pieces that share one contextual header (the statement's name,
its period columns, its units). In a search narrowed to a filing, the row match and the line-item
ranking (`corpus_tools.row_match`, `corpus_tools.line_items`) lift every piece of a statement whose
rows name the question's line item, and all five first hits can be tables, two or three of them
pieces of one statement. Questions that ask *why* a figure moved ("the primary driver behind the
change in Apple's net income") are answered by the narrative beside the statement ("net sales
decreased 3% or $2.4 billion…"), which a leg may rank first and the lifted tables push to rank 17
(issue 35, filings tuning half: q70).

The rule, `prose_beside_tables`: when the first WINDOW hits are all table chunks and two of them are
pieces of one table, the prose passage that the BM25 or dense leg ranks best among the other
candidates takes the place of the lower piece, which moves to just after it. The statement stays in
the window (its best piece), the narrative gets one slot, nothing leaves the result. Measured on the
filings' tuning half before it was kept (one passage per table without the prose slot lost 2 of 32;
lowering the row lift lost 3): see `SearchConfig.prose_beside_tables`.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

WINDOW = 5  # the hits a reader (and the agent's answer) takes first


def prose_beside_tables(table_of: Sequence[Hashable | None], leg_rank: Sequence[int | None],
                        window: int = WINDOW) -> list[int]:
    """The new order of a ranking (a permutation of its positions, best first).

    table_of: per hit, the table it is a piece of (any key naming one table: document and contextual
    header), None for a passage that is not a table. leg_rank: per hit, its best rank in the BM25 or
    dense leg (1 = first), None when neither leg ranked it (a chunk only the line-item ranking brought).
    Unchanged unless the first `window` hits are all tables, two of them share a table, and a prose hit
    below the window has a leg rank.
    """
    if len(table_of) != len(leg_rank):
        raise ValueError(f"table_of and leg_rank differ in length: {len(table_of)} and {len(leg_rank)}")
    order = list(range(len(table_of)))
    if window < 1 or len(order) <= window or any(table_of[i] is None for i in order[:window]):
        return order
    seen: set[Hashable] = set()
    repeated = []
    for i in order[:window]:
        if table_of[i] in seen:
            repeated.append(i)
        seen.add(table_of[i])
    prose = [i for i in order[window:] if table_of[i] is None and leg_rank[i] is not None]
    if not repeated or not prose:
        return order
    chosen = min(prose, key=lambda i: (leg_rank[i], i))
    dropped = repeated[-1]
    kept = [i for i in order[:window] if i != dropped]
    return kept + [chosen, dropped] + [i for i in order[window:] if i != chosen]
