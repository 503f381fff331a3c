"""`load_benchmark(name, data_dir)`: every file of a benchmark's folder through the right loader.

The folder layout is the shared development data's (`<data_dir>/<name>/`, see its README):
hotpotqa/ and musique/ hold question files plus HippoRAG `*_corpus.json` paragraph files,
locomo/ one JSON file per conversation, scifact/ the CSV layout (or a BEIR folder). Files are read
in sorted name order so task order and doc ids never depend on the file system.
A `name` that is a path to a task file or saved dataset is read as generated tasks.
"""

from __future__ import annotations

from pathlib import Path

from eval.loaders.beir import load_beir, load_scifact
from eval.loaders.hotpotqa import is_corpus_file, load_hotpotqa
from eval.loaders.locomo import load_locomo
from eval.loaders.musique import load_musique
from eval.loaders.tasks import load_tasks
from eval.types import Benchmark

BENCHMARKS = ("hotpotqa", "musique", "locomo", "scifact")
DEFAULT_DATA_DIR = Path("../shared/data")  # the shared development data beside the checkout


def _files(folder: Path, pattern: str) -> list[Path]:
    return sorted(p for p in folder.glob(pattern) if p.is_file())


def load_benchmark(
    name: str, data_dir: str | Path = DEFAULT_DATA_DIR, *, locomo_unit: str = "turn", split: str = "test"
) -> Benchmark:
    """The named benchmark from `<data_dir>/<name>/`, or generated tasks when `name` is a path.

    locomo_unit: "turn" or "session" (LoCoMo's document unit). split: the qrels split of a BEIR folder.
    """
    if name not in BENCHMARKS:
        path = Path(name)
        if path.exists():
            return load_tasks(path)
        raise ValueError(f"unknown benchmark {name!r}: choose one of {BENCHMARKS} or give a task file path")
    folder = Path(data_dir) / name
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder} is not a folder (data_dir={str(data_dir)!r})")
    if name in ("hotpotqa", "musique"):
        files = _files(folder, "*.json") + _files(folder, "*.jsonl")
        questions = [p for p in files if not is_corpus_file(p)]
        corpora = [p for p in files if is_corpus_file(p)]
        loader = load_hotpotqa if name == "hotpotqa" else load_musique
        return loader(questions, corpus_paths=corpora, name=name)
    if name == "locomo":
        return load_locomo(_files(folder, "*.json"), unit=locomo_unit, name=name)
    if (folder / "corpus.jsonl").is_file():
        return load_beir(folder, split=split, name=name)
    return load_scifact(folder / "corpus.csv", _files(folder, "claims*.csv"), _files(folder, "qrels*.tsv"), name=name)
