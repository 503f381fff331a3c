"""A build's memory does not grow with the corpus in the scans it makes of its own files.

At 1M chunks the build's peak RSS came from reading back what it wrote: the chunk table scanned
for its per-line numbers (a byte mask and a match object per line of the whole file), the
metadata columns (six lists of Python numbers the length of the table), every mapped page of the
table and of the vector matrix kept resident, and a {doc id: where} dict for the duplicate check.
Bytes are measured (tracemalloc for Python and numpy buffers, /proc for mapped pages), never time.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from corpus_tools import Corpus, Document, index_format, pages
from corpus_tools.ann import AnnIndex
from corpus_tools.seen_ids import SeenDocIds
from corpus_tools.table import scan_table
from corpus_tools.types import Chunk


def _table(path: Path, n: int) -> Path:
    """A chunk table of `n` rows of ~2.7 KB each, as a build writes it (metadata a `where` can use)."""
    words = "revenue supply chain quarter guidance capital board dividend".split()
    with open(path, "wb") as f:
        for start in range(0, n, 1000):
            chunks = [
                Chunk(f"rec-{i}#0", f"rec-{i}", " ".join(words[(i + j) % 8] for j in range(360)) + f" (record {i})",
                      0, 360, {"title": f"Title {i % 97}", "company": f"Company {i % 20}", "fiscal_year": 2015 + i % 10})
                for i in range(start, min(n, start + 1000))
            ]
            index_format.write_rows(f, chunks)
    return path


def _traced(call):
    """(what `call()` returns, the peak bytes tracemalloc saw while it ran)."""
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _unit_vectors(path: Path, n: int, dim: int, block: int, seed: int) -> Path:
    """An (n, dim) float32 .npy of random unit rows, written a block at a time (never whole in memory)."""
    rng = np.random.default_rng(seed)
    out = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=(n, dim))
    for start in range(0, n, block):
        rows = rng.standard_normal((min(block, n - start), dim)).astype(np.float32)
        out[start : start + len(rows)] = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    out.flush()
    del out
    return path


def _resident_kb(path: Path) -> float:
    """Resident kB of this process's mappings of `path` (/proc/self/smaps walks the page tables: exact)."""
    smaps = Path("/proc/self/smaps")
    if not smaps.exists():
        pytest.skip("no /proc/self/smaps")
    total, inside = 0.0, False
    for line in smaps.read_text().splitlines():
        head = line.split()
        if head and "-" in head[0] and len(head) >= 5:  # a mapping's header line: range perms offset dev inode [path]
            inside = len(head) >= 6 and head[5] == str(path)
        elif inside and line.startswith("Rss:"):
            total += float(head[1])
    return total


def test_windowed_scan_gives_the_same_line_numbers_as_one_window(tmp_path, monkeypatch):
    table = _table(tmp_path / "chunks.0.jsonl", 3_000)
    monkeypatch.setattr(pages, "WINDOW", 1 << 40)
    whole = scan_table(table)
    monkeypatch.setattr(pages, "WINDOW", 10_007)  # windows that end mid-row: a window runs to the row's end
    windowed = scan_table(table)
    assert whole.keys() == windowed.keys()
    for name in whole:
        assert np.array_equal(whole[name], windowed[name]), name


def test_saving_a_tables_line_numbers_and_columns_holds_a_window_not_the_table(tmp_path, monkeypatch):
    # 20k rows, 53 MB. The one-pass scan held a byte mask of the whole file (53 MB) and a match
    # object and Python numbers per line; windows of 1 MB and blocks of 1,000 lines hold a little
    # of each, plus the saved columns themselves (≈ 60 bytes a line).
    table = _table(tmp_path / "chunks.0.jsonl", 20_000)
    size = table.stat().st_size
    monkeypatch.setattr(pages, "WINDOW", 1 << 20)
    monkeypatch.setattr("corpus_tools.metadata_index._SCAN_BLOCK", 1_000)
    index_format.write_line_index(_table(tmp_path / "small.jsonl", 10))  # imports outside the trace
    _, peak = _traced(lambda: index_format.write_line_index(table))
    assert peak < size / 4, f"peak {peak / 2**20:.1f} MiB scanning a {size / 2**20:.1f} MiB table"


def test_a_scanned_table_keeps_no_mapped_pages_resident(tmp_path, monkeypatch):
    from corpus_tools.table import ChunkTable

    table = _table(tmp_path / "chunks.0.jsonl", 20_000)  # no saved line numbers: opening scans it
    size_kb = table.stat().st_size / 1024
    monkeypatch.setattr(pages, "WINDOW", 1 << 20)
    opened = ChunkTable.open([table])
    grown = _resident_kb(table)
    assert len(opened) == 20_000 and opened[19_999].doc_id == "rec-19999"
    assert grown < size_kb / 4, f"{grown:.0f} kB of {size_kb:.0f} kB mapped table resident after the scan"


def test_training_the_ann_keeps_no_vector_pages_resident(tmp_path):
    # 40k × 384 float32, 61 MB, memory-mapped as write_ann maps the base vector file.
    path = _unit_vectors(tmp_path / "vectors.npy", 40_000, 384, block=5_000, seed=0)
    base = np.load(path, mmap_mode="r")
    index = AnnIndex.train(base, nlist=8)
    grown = _resident_kb(path)
    assert index.index.ntotal == 40_000
    assert grown < path.stat().st_size / 1024 / 4, f"{grown:.0f} kB of the vector file resident after training"


def test_seen_doc_ids_find_duplicates_from_a_file_not_a_dict(tmp_path):
    path = tmp_path / "seen.sqlite"
    ids = [f"doc-{i:06d}-{'x' * 40}" for i in range(100_000)]
    with SeenDocIds(path) as seen:
        tracemalloc.start()
        try:
            firsts = [seen.first(doc_id, f"file-{i}.txt") for i, doc_id in enumerate(ids)]
            size, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert firsts == [None] * len(ids)
        assert seen.first(ids[4_321], "again.txt") == "file-4321.txt"
        assert seen.first("doc-new", "new.txt") is None
        assert path.exists()
        # A dict of these ids and sources holds ~20 MB; the table lives in the file (the list of
        # 100k Nones, 0.8 MB, is the test's own).
        assert peak < 4 * 2**20, f"peak {peak / 2**20:.1f} MiB for 100k ids"
    assert not path.exists()
    with pytest.raises(ValueError, match="closed"):
        seen.first("doc-1", "x")


def test_a_build_reports_a_duplicate_id_with_its_first_source_and_leaves_no_scratch(tmp_path):
    docs = [Document("a", "The first document about rivers."), Document("b", "A second one about hills."),
            Document("a", "A third that reuses the first id.")]
    path = tmp_path / "idx"
    with Corpus.build(docs, path, progress=False) as corpus:
        reasons = [s.reason for s in corpus.build_report.skipped]
        assert reasons == ["duplicate doc_id 'a' (first loaded from <documents>[0])"]
        assert sorted({chunk.doc_id for chunk in corpus._state.chunks}) == ["a", "b"]
        assert "rivers" in " ".join(chunk.text for chunk in corpus._state.chunks)
    assert not [p for p in tmp_path.rglob("*") if p.name.startswith(".seen")]


def test_boilerplate_scoring_keeps_no_pages_of_the_mapped_signature_spill(tmp_path, monkeypatch):
    # 48k chunks in groups of 16 near copies (each its own document): every LSH band compares
    # every row, so a scorer that released pages only between bands left the whole file resident.
    from corpus_tools import boilerplate
    from corpus_tools.boilerplate import N_HASHES, score_signatures

    n, group = 48_000, 16
    rng = np.random.default_rng(2)
    sigs = np.repeat(rng.integers(0, 2**63, size=(n // group, N_HASHES), dtype=np.uint64), group, axis=0)
    sigs[:, :8] = rng.integers(0, 2**63, size=(n, 8), dtype=np.uint64)  # 56 of 64 hashes shared: near copies
    path = tmp_path / "sigs.npy"
    np.save(path, sigs)
    monkeypatch.setattr(boilerplate, "_GATHER_ROWS", 4_096)
    mapped = np.load(path, mmap_mode="r")
    scores = score_signatures(np.arange(n) % 100, mapped, np.ones(n, dtype=bool))  # a group: 16 documents
    resident = _resident_kb(path)
    assert np.allclose(scores, round((group - 1) / 99, 3))
    assert resident < path.stat().st_size / 1024 / 4, f"{resident:.0f} kB of the signature spill resident"


def test_boilerplate_pairs_go_to_disk_however_often_a_passage_repeats(tmp_path, monkeypatch):
    # 10k chunks in groups of 200 near copies, each its own document: 2M (chunk, document) pairs.
    # The former scorer held every pair as an int64 in memory (16 MB here, with sorting copies ~3×;
    # ~1 GB on the 1M-chunk benchmark, whose paragraphs recur ~48 times): the pairs grow with the
    # square of a group, so a passage in every filing of a large index had no bound at all.
    from corpus_tools import boilerplate
    from corpus_tools.boilerplate import N_HASHES, score_signatures

    n, group = 10_000, 200
    rng = np.random.default_rng(3)
    sigs = np.repeat(rng.integers(0, 2**63, size=(n // group, N_HASHES), dtype=np.uint64), group, axis=0)
    sigs[:, :12] = rng.integers(0, 2**63, size=(n, 12), dtype=np.uint64)  # 52 of 64 hashes shared: near copies
    monkeypatch.setattr(boilerplate, "_PAIR_BUFFER", 1 << 16)
    monkeypatch.setattr(boilerplate, "_PAIR_RANGE_ROWS", 1_000)
    docs = np.arange(n)
    score_signatures(docs[:50], sigs[:50], np.ones(50, dtype=bool), scratch=tmp_path)  # imports outside the trace
    scores, peak = _traced(lambda: score_signatures(docs, sigs, np.ones(n, dtype=bool), scratch=tmp_path))
    assert np.allclose(scores, round((group - 1) / (n - 1), 3))
    assert peak < 8 * 2**20, f"peak {peak / 2**20:.1f} MiB for {n * (group - 1):,} pairs"
    assert not list(tmp_path.iterdir())  # the pair files are gone


def test_a_pair_sharing_several_bands_is_counted_once_and_collisions_change_no_score(monkeypatch):
    # Identical copies share all 16 bands; a bucket key that mixes two different bands into one
    # (forced here) only costs comparisons: a pair counts in a band where its values are equal.
    from corpus_tools import boilerplate
    from corpus_tools.boilerplate import N_HASHES, score_signatures

    rng = np.random.default_rng(4)
    sigs = rng.integers(0, 2**63, size=(40, N_HASHES), dtype=np.uint64)
    sigs[1:4] = sigs[0]  # four identical copies in documents 0, 1, 1, 2
    sigs[10, :40] = sigs[0, :40]  # shares 10 bands' values but only 40/64 hashes (0.625 ≥ NEAR_COPY): near
    docs = np.array([0, 1, 1, 2] + list(range(3, 39)))
    valid = np.ones(40, dtype=bool)
    expected = score_signatures(docs, sigs, valid)
    assert expected[0] == round(3 / 38, 3) and expected[1] == round(3 / 38, 3) and expected[10] == round(3 / 38, 3)
    monkeypatch.setattr(boilerplate, "_band_keys", lambda sigs, index, band: np.zeros(len(index), dtype=np.uint64))
    assert score_signatures(docs, sigs, valid).tolist() == expected.tolist()


def test_the_ann_file_is_written_a_block_of_lines_at_a_time_with_the_same_bytes(tmp_path, monkeypatch):
    # AnnIndex.train held every line's SQ8 code (394 MB at 1M lines) before the file was written;
    # write_index holds one block's lines in FAISS, and writes the bytes faiss.write_index wrote.
    import io

    import faiss

    from corpus_tools import ann

    rng = np.random.default_rng(5)
    vectors = rng.standard_normal((12_000, 32)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    monkeypatch.setattr(ann, "_ADD_BLOCK", 1_000)
    held = []
    add_core = faiss.IndexIVF.add_core

    def counted(self, n, *args):
        held.append(self.ntotal + n)  # lines in the index once this add is done
        return add_core(self, n, *args)

    monkeypatch.setattr(faiss.IndexIVF, "add_core", counted)
    out = io.BytesIO()
    written = ann.write_index(vectors, out, nlist=16)
    streamed_max = max(held)
    monkeypatch.setattr(faiss.IndexIVF, "add_core", add_core)
    whole = faiss.serialize_index(ann.AnnIndex.train(vectors, nlist=16).index).tobytes()
    assert out.getvalue() == whole and written == len(whole)
    # One block, or one list when a list is larger (12k lines in 16 lists: ~750 a list).
    assert len(held) > 5 and streamed_max < 2_500, held
    index = faiss.deserialize_index(np.frombuffer(out.getvalue(), dtype=np.uint8))
    assert index.ntotal == 12_000


def test_a_spilled_bm25_build_holds_one_blocks_vocabulary_and_scores_as_before(tmp_path, monkeypatch):
    # Every document brings new terms (as "(record 123456)" does on the scale benchmark, and names,
    # numbers and typos do in real text): the build's {term: id} dict grew with the corpus.
    from corpus_tools import BM25Config, bm25
    from corpus_tools.bm25 import BM25Builder, BM25Index

    monkeypatch.setattr(bm25, "_VOCAB_BLOCK_DOCS", 4_096)
    words = "revenue supply chain quarter guidance capital board dividend".split()
    texts = [f"{words[i % 8]} {words[(i * 3) % 8]} report {i} code{i}x item{i * 7}z" for i in range(30_000)]
    builder = BM25Builder(BM25Config(), spill=tmp_path / "terms.spill")
    builder.add("warm up")
    most = 0
    tracemalloc.start()
    try:
        for i, text in enumerate(texts):
            builder.add(text)
            if i % 500 == 0:
                most = max(most, len(builder.vocab))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    builder.write(tmp_path / "bm25")
    # 90k distinct terms: the dict of all of them held ~10 MB (more with the ids' int objects).
    assert most <= 3 * 4_096 + 4_096 + 20, most
    assert peak < 5 * 2**20, f"peak {peak / 2**20:.1f} MiB"
    spilled = BM25Index.load(tmp_path / "bm25", BM25Config())
    whole = BM25Index.build(["warm up", *texts], BM25Config())  # one dict, in memory: the reference
    for query in ("revenue report", "code123x", "item70z dividend", "board", "warm", "nothing here"):
        assert np.array_equal(spilled.scores(query), whole.scores(query)), query
    assert len(spilled._term_lookup()) == len(whole.vocab()) > 90_000
    assert not list(tmp_path.glob("terms.spill*"))


def test_a_tables_line_numbers_and_metadata_columns_are_saved_from_disk_a_block_at_a_time(tmp_path, monkeypatch):
    # 60k short rows, each its own document with its own title: what grows with the corpus is then
    # the per-line columns (≈ 64 bytes a line) and the metadata columns (13 bytes a field a line,
    # and a dict entry per distinct doc id and title). Held whole, they were ~480 MB at 1M chunks.
    from corpus_tools import metadata_index
    from corpus_tools.metadata_index import meta_path, scan_columns

    path = tmp_path / "chunks.0.jsonl"
    with open(path, "wb") as f:
        for start in range(0, 60_000, 5_000):
            index_format.write_rows(f, [
                Chunk(f"d{i}#0", f"d{i}", f"note {i}", 0, 3,
                      {"title": f"Filing number {i}", "company": f"Company {i % 20}", "fiscal_year": 2015 + i % 10,
                       **({"section": f"Part {i % 3}"} if i >= 30_000 else {})})
                for i in range(start, start + 5_000)
            ])
    monkeypatch.setattr(pages, "WINDOW", 1 << 18)
    monkeypatch.setattr(metadata_index, "_SCAN_BLOCK", 2_000)
    index_format.write_line_index(_table(tmp_path / "small.jsonl", 10))  # imports outside the trace
    _, peak = _traced(lambda: index_format.write_line_index(path))
    # What the same scan gives in memory (the open path's, and the files main wrote): equal arrays.
    columns = scan_table(path)
    with np.load(path.with_name("chunks.0.lines.npz")) as saved:
        assert saved.files == list(columns) and all(np.array_equal(saved[k], columns[k]) for k in columns)
    in_memory = scan_columns(index_format.map_file(path), columns)
    with np.load(meta_path(path)) as saved:
        assert [k for k in saved.files if k != "table_stamp"] == list(in_memory)
        for key, value in in_memory.items():
            assert saved[key].dtype == value.dtype and np.array_equal(saved[key], value), key
    assert peak < 8 * 2**20, f"peak {peak / 2**20:.1f} MiB for 60k lines"  # main: 35 MiB
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


_ANN_PEAK = """
import sys, numpy as np
from pathlib import Path
from corpus_tools import ann

def hwm_kb():
    return next(int(l.split()[1]) for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("VmHWM"))

path, how = Path(sys.argv[1]), sys.argv[2]
ann._ADD_BLOCK = 2_048
vectors = np.load(path, mmap_mode="r")
import faiss  # noqa: F401  (its import is not the writer's memory)
faiss.serialize_index(ann._trained(vectors[:4_000], nlist=16))  # warm the code paths
before = hwm_kb()
with open(path.with_suffix(".faiss"), "wb") as out:
    if how == "streamed":
        ann.write_index(vectors, out, nlist=64)
    else:
        out.write(faiss.serialize_index(ann.AnnIndex.train(vectors, nlist=64).index).tobytes())
print(hwm_kb() - before)
"""


def test_writing_the_ann_file_holds_neither_the_index_nor_the_vector_pages(tmp_path):
    # 200k × 128 float32 (100 MB, memory-mapped): the SQ8 index holds 128 bytes a line (27 MB with
    # ids), more while its lists grow. The process's high-water mark, measured in a fresh process
    # (FAISS's C++ allocations are invisible to tracemalloc).
    import subprocess
    import sys

    if not Path("/proc/self/status").exists():
        pytest.skip("no /proc/self/status")
    path = _unit_vectors(tmp_path / "vectors.npy", 200_000, 128, block=20_000, seed=6)
    grown = {}
    for how in ("streamed", "whole"):
        run = subprocess.run([sys.executable, "-c", _ANN_PEAK, str(path), how], capture_output=True, text=True,
                             env={**__import__("os").environ, "OMP_NUM_THREADS": "1"}, check=True)
        grown[how] = int(run.stdout.split()[-1]) / 1024
    index_mb = 200_000 * (128 + 8) / 2**20
    assert grown["whole"] > index_mb, grown  # what the file's contents cost held whole: the test can tell
    # Streamed: 16 bytes a line of list numbers and order, the training sample, one group of lines.
    # Sampling the training rows straight from the map made the whole vector file resident (~100 MB).
    assert grown["streamed"] < min(index_mb, grown["whole"] / 4), grown


def test_filling_the_bm25_matrix_files_keeps_one_range_of_columns_resident(tmp_path, monkeypatch):
    # A block of documents writes into every column it holds, pages all over the three matrix files:
    # at 1M chunks a block dirtied most of their 700 MB before its pages were released. Filled a
    # range of columns at a time, what is resident is one span of each file.
    from corpus_tools import BM25Config, bm25
    from corpus_tools.bm25 import BM25Builder

    rng = np.random.default_rng(7)
    ids = rng.zipf(1.2, (20_000, 50)) % 3_000
    builder = BM25Builder(BM25Config(stem=False, stopwords=None), spill=tmp_path / "terms.spill")
    for row in ids:
        builder.add(" ".join(f"w{t}" for t in row))
    monkeypatch.setattr(bm25, "_BLOCK_DOCS", 512)
    monkeypatch.setattr(bm25, "_FILL_PAIRS", 1 << 15, raising=False)
    folder = tmp_path / "bm25"
    names = [folder / name for name in ("data.csc.index.npy", "indices.csc.index.npy", "tf.csc.index.npy")]
    most = []
    release_rows = bm25.release_rows

    def measured(matrix, start, stop):
        most.append(sum(_resident_kb(path) for path in names))  # before this release
        release_rows(matrix, start, stop)

    monkeypatch.setattr(bm25, "release_rows", measured)
    builder.write(folder)
    total_kb = sum(path.stat().st_size for path in names) / 1024
    assert max(most) < total_kb / 4, f"{max(most):.0f} kB of {total_kb:.0f} kB resident"
