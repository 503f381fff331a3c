"""The LLM pipeline end to end against a real llama.cpp server with the packaged SmolLM2-135M.

A 135M model fails most verifications: the test asserts that the run completes, that every stage
reports its outcome, that token usage is counted, and that whatever the model wrote never crashes it.
Prompt-only JSON (structured="none"): llama-cpp-python's schema grammar samples ~20x slower on
this CPU (1.7 s vs 0.07 s per token, measured), too slow for the suite; the request field itself is
tested in test_llm.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "context1"))
from llama_server import llama_server  # noqa: E402, F401  (pytest fixture)

from context1.backends import OpenAIBackend  # noqa: E402
from datagen.llm import LLMConfig, LLMGenerator  # noqa: E402
from datagen.mining import mine  # noqa: E402
from datagen.pipeline import GenerateConfig, generate  # noqa: E402
from datagen.records import read_task_file  # noqa: E402


@pytest.mark.slow
def test_smollm2_through_llama_cpp_completes_and_reports(chunks, tmp_path: Path, llama_server: str) -> None:  # noqa: ANN001, F811
    mined = mine(chunks)
    with OpenAIBackend(llama_server, temperature=0.0, max_tokens=160, seed=0, max_retries=1, timeout_s=300) as backend:
        gen = LLMGenerator(backend, None, mined, LLMConfig(structured="none", max_doc_chars=400))
        out = tmp_path / "tasks.jsonl"
        report = generate(
            gen, mined, out, GenerateConfig(n=1, hops=(1,), seed=0, patience=1), usage=gen.usage_counts
        )
    print("\nSmolLM2-135M via llama.cpp:", report.as_dict())
    assert report.stopped  # it ended, with a reason
    assert report.attempted >= 1
    assert report.attempted == report.written + sum(report.drops.values())
    assert any(k.startswith("generate:") for k in report.stages)
    assert report.usage["calls"] >= 1 and report.usage["prompt_tokens"] > 0 and report.usage["completion_tokens"] > 0
    assert len(read_task_file(out)) == report.written  # whatever passed is on disk, nothing else
