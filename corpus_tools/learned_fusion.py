"""A learned fusion of the two legs: the cheapest trained reranker, and the one that transfers.

RRF keeps only each leg's rank. A learned fusion scores each fused candidate with a linear function
of what the legs already measured (no text is read, nothing is encoded again):

    rrf_bm25, rrf_dense   the candidate's RRF term in each leg (0 where the leg missed it)
    bm25/best             its BM25 score over the query's best BM25 score among the candidates
    cosine                its dense cosine (the lowest cosine among the candidates where the leg missed it)
    bm25 missed, dense missed

With weights (1, 1, 0, 0, 0, 0) it is RRF itself, which is where fitting starts. The weights are
fitted on generated tasks over the same index by `training.fusion` (`context1 train reranker
--kind fusion`) and saved as one small JSON file in a folder, which `Corpus.open(reranker=DIR)` and
`context1 index --reranker DIR` accept like a CrossEncoder folder.

Why it exists (benchmarks/README.md, issue 26): on 2 CPU cores the trained cross-encoder never
approached the fused order on real questions, while this linear fusion fitted on natural generated
questions beat RRF on HotpotQA and tied it on MuSiQue; fitted on cloze tasks it put its weight on
BM25 and lost. It costs microseconds per search.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

FUSION_FILE = "learned_fusion.json"
FORMAT = "context1-learned-fusion/1"
FEATURES = ("rrf_bm25", "rrf_dense", "bm25/best", "cosine", "bm25 missed", "dense missed")
RRF_WEIGHTS = (1.0, 1.0, 0.0, 0.0, 0.0, 0.0)


def fusion_features(
    ranks: Sequence[Mapping[str, int]], scores: Sequence[Mapping[str, float]], rrf_k: int
) -> np.ndarray:
    """(n, len(FEATURES)) feature rows of n fused candidates from their per-leg ranks and scores
    (`Hit.ranks` / `Hit.scores`, keys "bm25" and "dense"). The normalisers are taken over the same
    candidates at training and at search time, so both see the same numbers."""
    bm25 = [s["bm25"] for s in scores if "bm25" in s]
    cos = [s["dense"] for s in scores if "dense" in s]
    best_bm25 = max(bm25) if bm25 else 0.0
    floor_cos = min(cos) if cos else 0.0
    rows = []
    for r, s in zip(ranks, scores, strict=True):
        rb, rd = r.get("bm25"), r.get("dense")
        rows.append(
            [
                rrf_k / (rrf_k + rb) if rb else 0.0,
                rrf_k / (rrf_k + rd) if rd else 0.0,
                s.get("bm25", 0.0) / best_bm25 if best_bm25 > 0 else 0.0,
                s.get("dense", floor_cos),
                float(rb is None),
                float(rd is None),
            ]
        )
    return np.asarray(rows, dtype=np.float64).reshape(len(rows), len(FEATURES))


class LearnedFusion:
    """Scores fused candidates by `weights · fusion_features`; higher is more relevant."""

    def __init__(self, weights: Sequence[float], *, path: str | Path | None = None, report: Mapping[str, Any] | None = None) -> None:
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (len(FEATURES),) or not np.all(np.isfinite(w)):
            raise ValueError(f"a learned fusion needs {len(FEATURES)} finite weights ({', '.join(FEATURES)}), got {list(weights)}")
        self.weights = w
        self.path = str(path) if path is not None else None
        self.report = dict(report or {})
        self.name = f"learned-fusion:{self.path}" if self.path else "learned-fusion"

    def score_candidates(
        self, ranks: Sequence[Mapping[str, int]], scores: Sequence[Mapping[str, float]], rrf_k: int
    ) -> np.ndarray:
        if not ranks:
            return np.zeros(0, dtype=np.float32)
        return (fusion_features(ranks, scores, rrf_k) @ self.weights).astype(np.float32)

    def score(self, query: str, chunks: Sequence[Any]) -> np.ndarray:
        """The `Reranker` protocol's text entry point cannot apply: the features are the legs' ranks."""
        raise TypeError(
            "a learned fusion scores the legs' ranks and scores of a search, not (query, text) pairs: "
            "use it through Corpus.search (Corpus.open(index, reranker=FOLDER))"
        )

    def save(self, folder: str | Path) -> Path:
        """Writes FOLDER/learned_fusion.json atomically; returns the folder."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        body = {"format": FORMAT, "features": list(FEATURES), "weights": self.weights.tolist(), "report": self.report}
        tmp = folder / (FUSION_FILE + ".tmp")
        tmp.write_text(json.dumps(body, indent=2), encoding="utf-8")
        os.replace(tmp, folder / FUSION_FILE)
        return folder

    @classmethod
    def load(cls, folder: str | Path) -> LearnedFusion:
        """The fusion saved in `folder`; a clear ValueError for anything else."""
        file = Path(folder) / FUSION_FILE
        try:
            body = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ValueError(f"{str(folder)!r} holds no readable {FUSION_FILE} ({exc})") from exc
        if body.get("format") != FORMAT or list(body.get("features", [])) != list(FEATURES):
            raise ValueError(
                f"{str(file)!r} is not a {FORMAT} file with features {list(FEATURES)}; "
                "retrain it with `context1 train reranker INDEX --tasks FILE --out DIR --kind fusion`"
            )
        return cls(body["weights"], path=Path(folder).absolute(), report=body.get("report"))


def is_fusion_folder(path: str | Path) -> bool:
    return (Path(path) / FUSION_FILE).is_file()
