"""A learned passage ranker: which of one document's passages answers the question.

Inside the right 10-Q the passage that holds the figure is a table chunk ("Research and development |
7,709 | 6,306", thirty rows to a chunk), and the question's cosine to it is 0.46-0.68 while the prose
that merely talks about research and development scores near the top (docs/LOG.md, issue 34: 11 of
the tuning half's 22 misses were in the agent's view below its top 5). Cosine scores the chunk as a
whole; what tells the answering chunk apart is lexical and structural: a row label holding the
question's metric words, the question's terms in the chunk, the question's years among the table's column heads, figures at all.

`PassageRanker` scores the candidates of one document with a linear function of those measures
(`FEATURES`, computed from the question, the chunks' text, their cosine and the first
search's rank; nothing is encoded again, microseconds per answer). With the weights `COSINE_WEIGHTS`
it is the cosine order itself, which is where fitting starts. The weights are fitted on generated
tasks over the same index (`training.passage_ranker`, `context1 train reranker INDEX --kind passage`)
and saved as one small JSON file in a folder; the LLM-free policy reorders a one-document answer's
passages with it when the agent is given one (`AgentConfig.passage_ranker`) or the index folder holds
one (`PASSAGE_RANKER_DIR`). A corpus without one is never touched.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from corpus_tools.bm25 import BM25Tokenizer
from corpus_tools.row_match import CELL, row_match_scores

RANKER_FILE = "passage_ranker.json"
FORMAT = "context1-passage-ranker/1"
# Where an index keeps its own ranker: `context1 train reranker INDEX --kind passage --out INDEX/passage_ranker`.
PASSAGE_RANKER_DIR = "passage_ranker"
FEATURES = ("cosine gap", "row match", "table", "term share", "first search", "years", "figures")
COSINE_WEIGHTS = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

_TERMS = BM25Tokenizer()
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_FIGURE = re.compile(r"\d[\d,]*\.?\d+")


class PassageRankerError(ValueError):
    """A passage-ranker folder that is missing, unreadable, or of another format."""


def passage_features(
    query: str,
    texts: Sequence[str],
    cosines: Sequence[float],
    first_ranks: Sequence[int | None],
    terms_of: Callable[[str], list[str]] = _TERMS,
) -> np.ndarray:
    """One row of `FEATURES` per candidate passage of one document (the candidates are ranked
    against each other: idf and the cosine gap are counted over them).

    cosine gap: its cosine less the best candidate's; row match: `row_match.row_match_scores`;
    table: it has table rows; term share: the idf-weighted share of the question's terms in its text
    (its heading is not read: the agent sees a chunk's text and title only); first search: 5/(4 + rank) in the question's own search,
    0 outside it; years: the share of the question's years (1900-2099) in its text (0 when the question
    names none); figures: its share of numbers of two digits or more, capped at 1 for 20.
    """
    n = len(texts)
    if not len(cosines) == len(first_ranks) == n:
        raise ValueError(f"passage_features needs one cosine and one first-search rank per text: "
                         f"{n} texts, {len(cosines)} cosines, {len(first_ranks)} ranks")
    if n == 0:
        return np.zeros((0, len(FEATURES)), dtype=np.float64)
    wanted = set(terms_of(query))
    text_terms = [set(terms_of(t)) for t in texts]
    df = {t: sum(t in terms for terms in text_terms) for t in wanted}
    idf = {t: math.log(1.0 + n / (1 + df[t])) for t in wanted}
    total = sum(idf.values()) or 1.0
    years = set(_YEAR.findall(query))
    best = max(cosines)
    rows = row_match_scores(query, texts, terms_of)
    out = np.zeros((n, len(FEATURES)), dtype=np.float64)
    for i, text in enumerate(texts):
        out[i] = (
            float(cosines[i]) - best,
            rows[i],
            1.0 if CELL in text else 0.0,
            sum(idf[t] for t in wanted & text_terms[i]) / total,
            5.0 / (4 + first_ranks[i]) if first_ranks[i] else 0.0,
            sum(y in text for y in years) / len(years) if years else 0.0,
            min(1.0, len(_FIGURE.findall(text)) / 20.0),
        )
    return out


class PassageRanker:
    """A linear score over `passage_features`; `weights` in `FEATURES` order."""

    name = "passage-ranker"

    def __init__(self, weights: Sequence[float], path: Path | None = None, report: dict[str, Any] | None = None) -> None:
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (len(FEATURES),) or not np.all(np.isfinite(w)):
            raise PassageRankerError(f"a passage ranker needs {len(FEATURES)} finite weights ({', '.join(FEATURES)})")
        self.weights = w
        self.path = path
        self.report = report or {}

    def score(
        self,
        query: str,
        texts: Sequence[str],
        cosines: Sequence[float],
        first_ranks: Sequence[int | None],
    ) -> np.ndarray:
        """The candidates' scores, higher is better (one document's passages, ranked against each other)."""
        return passage_features(query, texts, cosines, first_ranks) @ self.weights

    def save(self, folder: str | Path) -> Path:
        """Writes the weights to folder/passage_ranker.json (atomically); returns the file."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / RANKER_FILE
        body = {"format": FORMAT, "features": list(FEATURES),
                "weights": [float(x) for x in self.weights], "report": self.report}
        tmp = target.with_suffix(".tmp")
        tmp.write_text(json.dumps(body, indent=2), encoding="utf-8")
        os.replace(tmp, target)
        return target

    @classmethod
    def load(cls, folder: str | Path) -> PassageRanker:
        """The ranker saved in `folder`; PassageRankerError naming what is wrong otherwise."""
        folder = Path(folder).expanduser()
        target = folder / RANKER_FILE if folder.is_dir() else folder
        if not target.is_file():
            raise PassageRankerError(
                f"no passage ranker at {str(folder)!r} (train one with "
                "`context1 train reranker INDEX --tasks FILE --out DIR --kind passage`)")
        try:
            body = json.loads(target.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise PassageRankerError(f"cannot read the passage ranker {str(target)!r}: {exc}") from None
        if not isinstance(body, dict) or body.get("format") != FORMAT or body.get("features") != list(FEATURES):
            raise PassageRankerError(
                f"{str(target)!r} is not a {FORMAT} file with features {list(FEATURES)}; retrain it with "
                "`context1 train reranker INDEX --tasks FILE --out DIR --kind passage`")
        return cls(body.get("weights") or (), path=target.parent, report=body.get("report"))


def index_passage_ranker(index_path: str | Path | None) -> PassageRanker | None:
    """The ranker an index folder holds (INDEX/passage_ranker), or None when it holds none."""
    if index_path is None:
        return None
    folder = Path(index_path) / PASSAGE_RANKER_DIR
    return PassageRanker.load(folder) if (folder / RANKER_FILE).is_file() else None
