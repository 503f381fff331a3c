"""Figure prior: in a search narrowed to named filings, passages that state no figure are placed lower.

A question put to a folder of financial reports ("How did foreign exchange rates affect Apple's results in
the latest 10-Q?", "Did Intel change its accounting policies?") is answered by a passage that states an
amount: "net sales decreased 1% or $1.2 billion", "an approximate $690 million increase to gross margin".
Inside the right filing, both legs rank the filing's figure-less prose about the same words above it: the
forward-looking-statements list, the critical-accounting-estimates preamble, "we may use derivative
instruments …" (issue 35, session 34: on docugami's tuning half the holders sat at ranks 13–14 below such
prose, and no lever of the legs or the row match moved them without a loss elsewhere).

`has_figure` reads what a reader of a filing counts as a figure: an amount ("$1.2", "$ 690"), a percentage
("15%", "15 percent"), a number with thousands separators ("36,413"), a decimal with a scale word ("12.9
billion"), or a table cell that is a number ("Reported Growth | (6) | 4": a growth table prints its percents
without the sign). In prose a bare decimal is not one ("Exhibit 32.1", "IDM 2.0", "Item 1.01" are headings),
nor a year, a page or a note number.

`lower_figureless` re-sorts a ranking the way `Corpus`'s boilerplate demotion does: a passage with no
figure at rank r sorts as if at r·(1 + weight); nothing is removed, so a question whose answer is a name
still finds it, one or two places lower. `Corpus.search` applies it only where the row match applies
(searches narrowed to named documents, on indexes with table chunks), so a Wikipedia-style corpus is never
touched (`SearchConfig.figureless_weight`, 0 = off).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

FIGURE = re.compile(
    r"\$\s?\d"  # an amount: "$1.2 billion", "$ 690"
    r"|\d\s?%|\d\s?percent\b"  # a percentage
    r"|(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\d,])"  # thousands separators: "36,413" (never a year "2023")
    r"|\d\.\d+\s?(?:billion|million|thousand)\b"  # a decimal with a scale word: "12.9 billion"
    r"| \| \(?[$\d][\d,.]*\)?\s?%?(?= \||$)",  # a table cell that is a number: "Reported Growth | (6) | 4"
    re.IGNORECASE | re.MULTILINE,
)


def has_figure(text: str) -> bool:
    """Whether `text` states an amount, a percentage, a grouped number or a scaled decimal (module docstring)."""
    return FIGURE.search(text) is not None


def lower_figureless(texts: Sequence[str], weight: float) -> list[int]:
    """The order (indexes into `texts`, a ranking best first) with each text that states no figure sorted as if
    at rank r·(1 + weight); ties keep the ranking's order. weight 0 keeps the order."""
    if weight < 0:
        raise ValueError(f"weight must be >= 0, got {weight}")
    penalty = [0.0 if has_figure(t) else weight for t in texts]
    return sorted(range(len(texts)), key=lambda i: ((i + 1) * (1.0 + penalty[i]), i))
