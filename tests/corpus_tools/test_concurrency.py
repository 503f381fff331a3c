"""Many threads on one Corpus: the results equal the sequential ones, and nothing raises."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from corpus_tools import Corpus, Document

QUERIES = [
    "who designed the lighthouse",
    "Ostmere river barges",
    "steamship captain memoir",
    "glassworks nephew",
    "island ferry wool",
    "university engineering academy",
    "spotted salamander beech forest",
    "lantern festival October",
]
PATTERNS = [r"\b1[0-9]{3}\b", "Quell", "(?i)herring", "Marrow"]


def run_all(corpus: Corpus, i: int):
    query = QUERIES[i % len(QUERIES)]
    searched = [(h.chunk.chunk_id, round(h.score, 6), dict(h.ranks)) for h in corpus.search(query, k=8)]
    excluded = [h.chunk.chunk_id for h in corpus.search(query, k=8, exclude=[f"{d}#0" for d in ("pellis", "ostmere")])]
    grepped = [h.chunk.chunk_id for h in corpus.grep(PATTERNS[i % len(PATTERNS)], k=5)]
    read = [h.chunk.chunk_id for h in corpus.read(corpus.doc_ids()[i % 20], query=query)]
    return searched, excluded, grepped, read


def test_32_threads_get_the_sequential_results(corpus):
    n_calls = 32 * 2
    # The baseline runs the calls one after another (in one worker thread, like the others).
    with ThreadPoolExecutor(max_workers=1) as one:
        sequential = one.submit(lambda: [run_all(corpus, i) for i in range(n_calls)]).result()
    barrier = threading.Barrier(32)

    def worker(t: int):
        barrier.wait()  # start together, to maximise overlap
        return [(i, run_all(corpus, i)) for i in range(t, n_calls, 32)]

    with ThreadPoolExecutor(max_workers=32) as pool:
        results = [r for batch in pool.map(worker, range(32)) for r in batch]
    assert len(results) == n_calls
    for i, got in results:
        assert got == sequential[i]


def test_biencoder_reranker_under_threads(mini_index):
    with Corpus.open(mini_index, reranker="biencoder") as corpus:
        with ThreadPoolExecutor(max_workers=1) as one:
            expected = one.submit(
                lambda: {q: [h.chunk.chunk_id for h in corpus.search(q, k=5)] for q in QUERIES}
            ).result()
        with ThreadPoolExecutor(max_workers=24) as pool:
            got = list(pool.map(lambda q: (q, [h.chunk.chunk_id for h in corpus.search(q, k=5)]), QUERIES * 3))
        assert all(ids == expected[q] for q, ids in got)


def test_searches_during_updates_see_a_consistent_index(fresh_corpus):
    corpus = fresh_corpus
    stop = threading.Event()
    errors: list[BaseException] = []
    seen_sizes: set[int] = set()

    def reader():
        while not stop.is_set():
            try:
                hits = corpus.search("windmill barley Ostmere", k=30)
                ids = {h.chunk.chunk_id for h in hits}
                seen_sizes.add(len(ids))
                for h in hits:  # every hit resolves in the snapshot the search used
                    assert h.chunk.text
                corpus.grep("Zephyr")
            except BaseException as exc:  # noqa: BLE001 - collected and re-raised below
                errors.append(exc)
                return

    readers = [threading.Thread(target=reader) for _ in range(8)]
    for t in readers:
        t.start()
    try:
        for i in range(3):
            corpus.add([Document(f"zephyr-{i}", f"Zephyr windmill number {i} grinds barley by the Ostmere.")])
        corpus.delete(["zephyr-0"])
    finally:
        stop.set()
        for t in readers:
            t.join()
    assert not errors, errors[0]
    assert len(corpus) == 22
    assert {h.chunk.doc_id for h in corpus.grep("Zephyr", k=10)} == {"zephyr-1", "zephyr-2"}
