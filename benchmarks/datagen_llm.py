"""The LLM pipeline end to end with the packaged SmolLM2-135M behind a real llama.cpp server.

Starts `python -m llama_cpp.server` on the bundled GGUF, runs the LLM pipeline (generate → chain →
extract → deterministic verification) on the datagen test corpus, and prints every stage's
outcome, the drops by reason and the token usage. A 135M model fails most verifications; that is
the honest figure.

    python benchmarks/datagen_llm.py --proposals 6
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from context1.backends import OpenAIBackend  # noqa: E402
from context1.backends.transformers_local import default_model_path  # noqa: E402
from corpus_tools.types import Chunk  # noqa: E402
from datagen.llm import LLMConfig, LLMGenerator  # noqa: E402
from datagen.mining import mine  # noqa: E402
from datagen.pipeline import GenerateConfig, generate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--proposals", type=int, default=6, help="candidates to try (patience per hop count)")
    ap.add_argument("--structured", default="none", help="none, or json_object (llama-cpp-python schema grammar)")
    args = ap.parse_args()
    rows = [json.loads(x) for x in (ROOT / "tests/fixtures/datagen_corpus/docs.jsonl").read_text().splitlines()]
    chunks = [Chunk(f"{r['doc_id']}#0", r["doc_id"], r["text"], 0, 0, {"title": r["title"]}) for r in rows]
    mined = mine(chunks)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(default_model_path()), "--host", "127.0.0.1",
           "--port", str(port), "--n_ctx", "2048", "--n_threads", "2"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(720):
            try:
                if httpx.get(f"{url}/models", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.25)
        backend = OpenAIBackend(url, temperature=0.0, max_tokens=200, seed=0, max_retries=1, timeout_s=600)
        gen = LLMGenerator(backend, None, mined, LLMConfig(structured=args.structured, max_doc_chars=400))
        half = max(1, args.proposals // 2)
        with tempfile.TemporaryDirectory() as tmp:
            report = generate(
                gen, mined, Path(tmp) / "t.jsonl", GenerateConfig(n=args.proposals, hops=(1, 2), patience=half),
                usage=gen.usage_counts,
            )  # fmt: skip
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    d = report.as_dict()
    print("\n| figure | value |\n| --- | --- |")
    for key in ("attempted", "written", "drops", "stages", "usage", "seconds", "stopped"):
        print(f"| {key} | {d[key]} |")


if __name__ == "__main__":
    main()
