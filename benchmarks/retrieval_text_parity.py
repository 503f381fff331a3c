"""What the benchmark corpora's chunks are indexed as — a hash to compare two checkouts (issue 35).

    PYTHONPATH=CHECKOUT python benchmarks/retrieval_text_parity.py [hotpotqa musique scifact locomo]

Loads each dev benchmark's documents as /work/indexes/bench-* were built (eval.loaders.registry),
chunks them with the checkout's chunker and default tokenizer, and prints a SHA-256 over every
chunk's id, text, `retrieval_text` (what the embedder sees) and `bm25_text` (what BM25 indexes),
with the count of chunks carrying a contextual header. The same hashes from two checkouts mean
their hybrid figures on these corpora cannot differ: same chunks, same vectors, same BM25 index.
"""

from __future__ import annotations

import hashlib
import sys

DATA = "/work/shared/data"


def main() -> None:
    import corpus_tools
    from corpus_tools.build import make_tokenizer
    from corpus_tools.chunking import chunk_document
    from corpus_tools.config import CorpusConfig
    from corpus_tools.embed import bm25_text, retrieval_text
    from eval.loaders.registry import load_benchmark

    names = sys.argv[1:] or ["hotpotqa", "musique", "scifact", "locomo"]
    config = CorpusConfig()
    tokenizer = make_tokenizer(config)
    print(f"code: {corpus_tools.__file__}")
    print("| corpus | documents | chunks | with header | sha256 (id, text, retrieval text, bm25 text) |")
    print("|---|---:|---:|---:|---|")
    for name in names:
        bench = load_benchmark(name, DATA)
        digest = hashlib.sha256()
        n_chunks = headed = 0
        for doc in bench.documents:
            for chunk in chunk_document(doc, tokenizer, config.chunking):
                n_chunks += 1
                headed += "header" in chunk.metadata
                for part in (chunk.chunk_id, chunk.text, retrieval_text(chunk), bm25_text(chunk)):
                    digest.update(part.encode("utf-8"))
                    digest.update(b"\x00")
        print(f"| {name} | {len(bench.documents)} | {n_chunks} | {headed} | {digest.hexdigest()[:16]} |", flush=True)


if __name__ == "__main__":
    main()
