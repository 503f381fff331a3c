"""A cold search imports only what it uses: no torch, transformers, bm25s, scipy or chromadb; the CLI alone no httpx.

Each of these cost a cold `context1 search` between 0.2 and several seconds of start-up
(benchmarks/cold_start.py). Checked in a fresh interpreter, as a user's first search runs.
"""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("torch", "transformers", "sentence_transformers", "bm25s", "scipy", "httpx", "pydantic", "chromadb")

CHILD = f"""
import json, sys
from context1.interfaces.cli import _register_all
_register_all()
at_cli = sorted(m for m in {HEAVY!r} if m in sys.modules)
from corpus_tools import Corpus
with Corpus.open(sys.argv[1]) as corpus:
    hits = corpus.search("Who founded the river town?", k=3)
loaded = sorted(m for m in {HEAVY!r} if m in sys.modules)
print(json.dumps({{"hits": len(hits), "at_cli": at_cli, "loaded": loaded}}))
"""


def test_a_cold_search_loads_no_heavy_library(mini_index):
    done = subprocess.run([sys.executable, "-c", CHILD, str(mini_index)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["hits"] == 3
    assert out["at_cli"] == [], f"the CLI's start imported {out['at_cli']}"
    # The dense leg reads the vector matrix: Chroma (and its httpx, pydantic) is left for writes.
    assert out["loaded"] == [], f"a cold search imported {out['loaded']}"
