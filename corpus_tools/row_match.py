"""Row match: how well a table chunk's best row names what the question asks for.

A 10-Q's statement of operations is one chunk of thirty rows: "Research and development | 7,709 |
6,306" is one line among "Net sales", "Cost of sales", "Gross margin"… BM25 and the embedder score
the chunk as a whole, so the row that answers "how much did Apple spend on research and
development" is diluted by twenty-nine that do not, and a paragraph that merely talks about R&D
outranks the figure (issue 35: on the filings' tuning half the table chunk holding the answer sat
at fused rank 6-35 inside the right filing). A row label is the table's own name for a metric, so
the question's content words found in one row's label are strong evidence the chunk holds the
figure asked for.

`row_match_scores` gives each candidate a score in [0, 1]: for a chunk with table rows (lines with
" | " cells, as `pdf_layout`/`chunking` write them), the share of the question's term weight that
its best row's label carries; 0 for prose. Terms are BM25's (stemmed, stopwords out), weighted by
their inverse frequency among the candidates' row labels, so a word many labels share ("total",
"net") weighs little and a metric's own words ("research", "inventori") weigh most. `Corpus.search` lifts a
candidate's fused score by 1 + w·score (`SearchConfig.row_match_weight`) on indexes with table
chunks, in searches narrowed to named documents (a constraint tier or a where filter): every
filing of a kind has a "Research and development" row, so the match says which table, never which
filing. A corpus without table rows (every record corpus) is never touched.

`names_of` (`corpus_tools.line_items.canonical_names` in `Corpus.search`) adds the canonical names of
the financial line items a text names to both sides: "R&D" in the question and "Technology and
content" in a row label both read as "research and development", so the row counts as naming it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from corpus_tools.line_items import derived_named

CELL = " | "


def row_labels(text: str) -> list[str]:
    """The labels of a chunk's table rows: each line with cells, up to its first cell separator."""
    return [line.split(CELL, 1)[0] for line in text.splitlines() if CELL in line and line.split(CELL, 1)[0].strip()]


def row_match_scores(query: str, texts: Sequence[str], terms_of: Callable[[str], list[str]],
                     names_of: Callable[[str], list[str]] | None = None) -> list[float]:
    """Per text: the share of the query's (idf-weighted) terms that its best-matching row label holds.

    terms_of: the tokenizer (text → terms), the BM25 leg's so that "inventories" meets "inventory".
    names_of: text → other names of what it names (the line-item vocabulary), added to the question
    and to each row label before their terms are compared; and a row whose label names the question's
    line items scores at least the share of them it names. None compares their own words only.
    Idf is counted over the texts' row labels themselves (the candidates of one search), so the
    score ranks candidates against each other, needs nothing from the index, and reads no prose.
    """
    def with_names(text: str) -> str:
        return " ".join([text, *names_of(text)]) if names_of is not None else text

    wanted = set(terms_of(with_names(query)))
    if not wanted or not texts:
        return [0.0] * len(texts)
    rows = [row_labels(text) if CELL in text else [] for text in texts]  # each table's row labels, read once
    labels = [[set(terms_of(with_names(label))) & wanted for label in per_text] for per_text in rows]
    n = len(texts)
    df = {t: sum(any(t in found for found in per_text) for per_text in labels) for t in wanted}
    idf = {t: math.log(1.0 + n / (1 + df[t])) for t in wanted}
    total = sum(idf.values())
    words = [max((sum(idf[t] for t in found) / total for found in per_text), default=0.0) for per_text in labels]
    items = set(names_of(query)) if names_of is not None else set()
    if not items:
        return words
    # The line items the question asks for, named by a row under any of their names: the question's other
    # words ("NVIDIA", "most recent 10-Q report") are in no row label and would cap the share of words.
    # A derived item a filer does not print (gross profit) is named by a table whose rows name its components.
    named = [max(max((len(items & set(names_of(label))) / len(items) for label in per_text), default=0.0),
                 len(derived_named(items, per_text)) / len(items))
             if CELL in text else 0.0 for text, per_text in zip(texts, rows, strict=True)]
    return [max(w, m) for w, m in zip(words, named, strict=True)]
