"""Fixtures shared by every test folder."""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the suite never downloads anything
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

# glibc's malloc keeps freed memory in its heaps: a CPU forward/backward of SmolLM2 churns thousands of
# 1-4 MiB activations, and the heap that held them stayed at ~2.9 GB after one 1.4k-token SFT step
# (the tensors it saves for backward are 0.3 GB). Allocations of MMAP_THRESHOLD or more get their own
# mapping, returned to the system when freed: the same step then peaks at 2.4 GB (1 MiB: 1.5 GB, but
# 3x the system time in page faults). The notebook kernels get the same setting through the
# environment (MALLOC_MMAP_THRESHOLD_, tests/notebooks).
MMAP_THRESHOLD = 4 << 20
_M_MMAP_THRESHOLD = -3  # mallopt's parameter number (malloc.h)


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


_LIBC = _libc()  # None off glibc (macOS, musl): nothing to tune there
if _LIBC is not None:
    _LIBC.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)


def release_memory() -> None:
    """Collect garbage and hand the heap's free pages back to the system (glibc keeps them otherwise)."""
    gc.collect()
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _rss_bytes() -> int:
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


@pytest.fixture(scope="module", autouse=True)
def _release_memory_after_each_module():
    """After a module's own fixtures are gone (its models, indexes), hand the freed heap back to the
    system, so the next module does not start on the last one's high-water mark."""
    yield
    release_memory()


@pytest.fixture(autouse=True)
def _release_memory_after_a_heavy_test():
    """The same after a test that grew the process by 256 MiB or more (a model forward, a training step),
    and a trim alone (no collection) whenever the process holds over 1 GiB: a model loaded and dropped
    inside a test leaves its pages in the heap. The next test then starts low, and the largest process
    stays what one test needs."""
    before = _rss_bytes()
    yield
    after = _rss_bytes()
    if after - before >= 256 << 20:
        release_memory()
    elif after >= 1 << 30 and _LIBC is not None:
        _LIBC.malloc_trim(0)


@pytest.fixture(scope="session")
def smollm2(tmp_path_factory) -> Path:
    """The bundled SmolLM2-135M GGUF, loaded once through the default (GGUF) path and saved as a
    transformers folder (fp32 safetensors + tokenizer) that the model tests load instead.

    Loading the GGUF costs ~15-25 s of CPU each time (transformers parses the file three times and
    dequantizes every tensor); the folder loads in ~0.5 s with bit-identical logits, the same
    tokenizer, chat template and stop ids (checked when this fixture was written). The GGUF path
    itself stays tested here and in tests/context1/test_backend_transformers.py.
    """
    from safetensors.torch import save_model

    from context1.backends.transformers_local import TransformersBackend

    backend = TransformersBackend(max_new_tokens=1)
    out = tmp_path_factory.mktemp("smollm2") / "smollm2-135m"
    out.mkdir()
    # save_pretrained refuses a GGUF-loaded model; its weights are plain fp32 tensors once loaded
    config = backend.model.config
    config.__dict__.pop("quantization_config", None)
    config.save_pretrained(str(out))
    backend.model.generation_config.save_pretrained(str(out))
    save_model(backend.model, str(out / "model.safetensors"), metadata={"format": "pt"})
    backend.tokenizer.save_pretrained(str(out))
    del backend, config
    release_memory()  # the GGUF's dequantization leaves ~0.6 GB of free heap behind
    return out
