"""Fixtures shared by every test folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the suite never downloads anything
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


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
    return out
