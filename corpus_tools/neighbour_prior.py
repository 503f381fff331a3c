"""Figures that continue a passage: beside a figure-less hit, its neighbour that states the figures is shown.

A filing states one subject over consecutive chunks, and the chunk that repeats a question's words is
often the one that opens the subject, not the one that holds its amounts: "Legal Proceedings — The
Company is involved from time to time in claims …" opens a note whose patent suits and damages follow in
the next three chunks; a paragraph about the Tower Semiconductor agreement ends where the next chunk
gives its $5.4 billion price; a table's rows continue in the next chunk under the same header. Inside
the right filing the legs rank the opening chunk first and its continuation at 8, 12 or 43 (issue 35,
session 35: two of the five misses of docugami's tuning half, with units on, were such runs, q124 and q136;
a lift of every chunk by its neighbours' scores was measured first and lost three to seven tuning
questions, since runs of figure-less risk-factor prose rose with it).

The rule, `continue_figureless`, in two steps, both over the first WINDOW hits:
- a hit that states no figure (`corpus_tools.figure_prior.has_figure`) keeps its place, and the chunk just
  after or just before it in the same document and section that states one (the better ranked of the two, the
  following one on a tie), when not shown yet, takes the place of the lowest figure-less hit shown below it;
  that hit moves to the place the neighbour left (or to just after the window, when the neighbour was not among
  the candidates);
- a chunk that states figures and whose two neighbours are both shown (the middle of a passage shown in
  pieces, e.g. the price of an acquisition between the paragraphs that announce and qualify it) takes the
  place of the lowest shown hit that states no figure.
The best-ranked figure-less hit shown always keeps its place: a figure-less passage may itself be the answer
("the impact … was not significant"), and replacing the opener lost such a question on the tuning half (q103).
A hit that states a figure never moves down, so no holder of figures leaves the window; nothing is removed.
`Corpus.search` applies it where the figure prior applies (searches narrowed to named documents, on indexes
with table chunks), after it (`SearchConfig.continue_figures`, False = off). Measured on both filings tuning
parts: see `SearchConfig.continue_figures`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from corpus_tools.table_pieces import WINDOW


def position(chunk_id: str) -> tuple[str, int] | None:
    """(document id, chunk number) of an id `<doc_id>#<n>`; None for an id of another form."""
    doc_id, sep, n = chunk_id.rpartition("#")
    return (doc_id, int(n)) if sep and n.isdigit() else None


def continue_figureless(
    ranking: Sequence[str],
    figured: Callable[[str], bool | None],
    section: Callable[[str], str | None],
    window: int = WINDOW,
) -> list[str]:
    """The new ranking (chunk ids, best first; it may hold ids the ranking did not).

    ranking: the candidates' chunk ids, best first. figured(chunk_id): whether that chunk states a figure,
    None when it is not a chunk the search may return (unknown, excluded, or outside the filter).
    section(chunk_id): its section path, None or "" when it has none (then any section matches).
    """
    if window < 1:
        raise ValueError(f"window must be >= 1, got {window}")
    order = list(ranking)
    sources: set[str] = set()  # figure-less hits whose neighbour has been shown: they keep their places
    for i in range(min(window, len(order))):
        cid = order[i]
        at = position(cid)
        if at is None or figured(cid) is not False or cid in sources:
            continue
        own = section(cid) or ""
        options = []
        for step, n in ((0, at[1] + 1), (1, at[1] - 1)):  # the following chunk first on a tie
            near = f"{at[0]}#{n}"
            if n < 0 or figured(near) is not True or near in order[:window]:  # already shown
                continue
            theirs = section(near) or ""
            if own and theirs and own != theirs:
                continue
            rank = order.index(near) if near in order else len(order)
            options.append((rank, step, near))
        if not options:
            continue
        _, _, near = min(options)
        low = [j for j in range(i + 1, min(window, len(order))) if figured(order[j]) is False and order[j] not in sources]
        if low:  # the lowest figure-less hit shown below it makes room
            sources.add(cid)
            _give_place(order, low[-1], near, window)
    _fill_gaps(order, figured, section, window, sources)
    return order


def _give_place(order: list[str], i: int, near: str, window: int) -> None:
    """`near` takes place i; the hit there takes `near`'s old place, or just after the window when it had none."""
    cid = order[i]
    if near in order:
        j = order.index(near)
        order[i], order[j] = near, cid
    else:
        order[i] = near
        order.insert(window, cid)


def _fill_gaps(order: list[str], figured: Callable[[str], bool | None], section: Callable[[str], str | None],
               window: int, keep: set[str]) -> None:
    """A chunk stating figures whose two neighbours are both in the window (the middle of a passage shown in
    pieces) takes the place of the window's lowest hit that states no figure, never the best-ranked one nor one
    in `keep` (those whose neighbour was shown)."""
    shown = order[:window]
    for cid in shown:
        at = position(cid)
        if at is None:
            continue
        gap, after = f"{at[0]}#{at[1] + 1}", f"{at[0]}#{at[1] + 2}"
        if after not in order[:window] or gap in order[:window] or figured(gap) is not True:
            continue
        if len({section(c) or "" for c in (cid, gap, after)} - {""}) > 1:
            continue
        low = [i for i in range(min(window, len(order))) if figured(order[i]) is False and order[i] not in keep]
        if len(low) > 1:  # never the best-ranked figure-less hit
            _give_place(order, low[-1], gap, window)
