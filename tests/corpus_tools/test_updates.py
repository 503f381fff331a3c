"""Incremental, crash-safe updates: add/delete/sync, a SIGKILL mid-add, metadata filters, and the CLI."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from context1.interfaces import cli_corpus
from corpus_tools import Corpus, CorpusConfig, Document, retrieval_text

REPO = Path(__file__).resolve().parents[2]


def cached_rows(cache: Path) -> int:
    db = cache / "embeddings.sqlite3"
    if not db.exists():
        return 0
    with sqlite3.connect(str(db), timeout=5) as conn:
        try:
            return conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
        except sqlite3.OperationalError:
            return 0


N = 40


def villages(year: int) -> list[Document]:
    return [
        Document(f"village-{i:04d}", f"Village {i} lies {i % 97} km from the coast; its bell was cast in {year + i}.")
        for i in range(N)
    ]


def assert_vectors_match_text(corpus: Corpus) -> None:
    """The invariant a crash must never break: every chunk's stored vector embeds its current text."""
    chunks = [corpus.chunk(cid) for d in corpus.doc_ids() for cid in (c.chunk_id for c in corpus.chunks(d))]
    stored = corpus._stored_vectors([c.chunk_id for c in chunks])
    assert set(stored) == {c.chunk_id for c in chunks}
    fresh = corpus.embedder.inner.encode_document([retrieval_text(c) for c in chunks])
    sims = np.einsum("ij,ij->i", np.stack([stored[c.chunk_id] for c in chunks]), fresh)
    assert sims.min() > 0.999, [chunks[i].chunk_id for i in np.flatnonzero(sims <= 0.999)][:5]


ADD_SCRIPT = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {repo!r})
    from corpus_tools import Corpus, Document
    docs = [Document(f"village-{{i:04d}}", f"Village {{i}} lies {{i % 97}} km from the coast; its bell was cast in {{2500 + i}}.")
            for i in range({n})]
    with Corpus.open({path!r}) as corpus:
        corpus.add(docs)
    print("FINISHED", flush=True)
    """
)


@pytest.mark.slow
def test_sigkill_during_add_leaves_old_or_new_state_never_a_mix(tmp_path):
    cache = tmp_path / "cache"
    path = tmp_path / "idx"
    config = CorpusConfig(embedding_cache=str(cache), batch_size=4)  # many small committed steps
    Corpus.build(villages(1500), path, config=config, progress=False).close()
    before = cached_rows(cache)
    script = ADD_SCRIPT.format(repo=str(REPO), n=N, path=str(path))
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while cached_rows(cache) < before + 8:  # replacement vectors are being written
            if proc.poll() is not None:
                pytest.fail(f"add exited before it could be killed: {proc.stdout.read().decode()[-2000:]}")
            if time.monotonic() > deadline:
                pytest.fail("add did not start embedding within 180 s")
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert cached_rows(cache) - before < N, "the add finished before the kill; make it slower"

    with Corpus.open(path) as old:  # the old state, whole: old text, and vectors of the old text
        assert old.manifest["generation"] == 0 and len(old) == N
        assert "1512" in old.chunk("village-0012#0").text
        assert_vectors_match_text(old)
        assert old.search("bell cast in 1512", k=1)[0].chunk.doc_id == "village-0012"
        # Finishing the update afterwards gives the new state, equally consistent.
        old.add(villages(2500))
        assert "2512" in old.chunk("village-0012#0").text
        assert_vectors_match_text(old)
        assert old._store.count() == N  # the replaced vectors were removed after the commit


def test_incremental_add_delete_keep_bm25_identical_to_a_rebuild(tmp_path, config, mini_docs):
    extra = [Document("new-a", "Quokkas smile on Rottnest Island."), Document("new-b", "Wombats have cubic droppings.")]
    with Corpus.build(mini_docs, tmp_path / "inc", config=config, progress=False) as inc:
        inc.add(extra)
        inc.delete([mini_docs[0].doc_id])
        inc.add([Document(mini_docs[3].doc_id, "Replaced text about lighthouses and quokkas.")])
        expected = [d for d in mini_docs[1:] if d.doc_id != mini_docs[3].doc_id]
        expected += extra + [Document(mini_docs[3].doc_id, "Replaced text about lighthouses and quokkas.")]
        with Corpus.build(expected, tmp_path / "full", config=config, progress=False) as full:
            assert [c.chunk_id for c in inc._state.chunks] == [c.chunk_id for c in full._state.chunks]
            for query in ("quokkas lighthouse", "wombats", "bell tower Brennholt"):
                assert np.allclose(inc._state.bm25.scores(query), full._state.bm25.scores(query), atol=1e-5)
        assert inc.last_commit_bytes > 0


def test_where_filters_both_legs(corpus):
    doc = corpus.doc_ids()[2]
    for where in ({"doc_id": doc}, {"doc_id": {"$in": [doc]}}, {"$and": [{"doc_id": doc}, {"position": 0}]}):
        hits = corpus.search("the town and its people", k=5, where=where)
        assert hits and {h.chunk.doc_id for h in hits} == {doc}
        for leg in ("bm25", "dense"):
            assert {h.chunk.doc_id for h in corpus.search_leg("town", leg, k=5, where=where)} <= {doc}
    assert corpus.search("town", where={"doc_id": "no-such-doc"}) == []
    with pytest.raises(ValueError, match="unknown operator"):
        corpus.search("town", where={"doc_id": {"$like": "x"}})


@pytest.fixture
def cli(tmp_path):
    app = typer.Typer(pretty_exceptions_enable=False)
    cli_corpus.register(app)
    runner = CliRunner(env={"COLUMNS": "200", "HF_HUB_OFFLINE": "1", "HOME": str(tmp_path / "home")})
    return lambda *args: runner.invoke(app, [str(a) for a in args])


def test_cli_add_delete_sync(tmp_path, cli):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "herons.md").write_text("# Herons\nHerons nest in the reeds by the river.")
    (docs / "otters.md").write_text("# Otters\nOtters slide down muddy banks.")
    (docs / "kites.md").write_text("# Kites\nRed kites circle over the valley.")
    index = tmp_path / "index"
    assert cli("index", docs, index, "--no-progress").exit_code == 0

    # sync: one changed, one removed, one new, one untouched.
    (docs / "otters.md").write_text("# Otters\nOtters hunt crayfish at night.")
    (docs / "kites.md").unlink()
    (docs / "swifts.md").write_text("# Swifts\nSwifts sleep on the wing.")
    result = cli("sync", index, docs)
    assert result.exit_code == 0, result.output
    assert "1 added, 1 updated, 1 deleted, 1 unchanged" in result.output
    with Corpus.open(index) as corpus:
        assert sorted(corpus.doc_ids()) == ["herons.md", "otters.md", "swifts.md"]
        assert "crayfish" in corpus.chunk("otters.md#0").text
    assert "0 added, 0 updated, 0 deleted, 3 unchanged" in cli("sync", index, docs).output

    more = tmp_path / "more"
    more.mkdir()
    (more / "larks.txt").write_text("Skylarks sing while climbing.")
    result = cli("add", index, more)
    assert result.exit_code == 0 and "Added 1 document" in result.output
    result = cli("delete", index, "larks.txt", "nope.md")
    assert result.exit_code == 0 and "Deleted 1 document" in result.output and "nope.md" in result.output
    result = cli("delete", index, "nope.md")
    assert result.exit_code == 2 and "Unknown doc_id" in result.output
    result = cli("search", index, "crayfish", "--where", '{"file_name": "otters.md"}', "--json")
    assert result.exit_code == 0 and '"otters.md#0"' in result.output
    result = cli("search", index, "crayfish", "--where", "{not json")
    assert result.exit_code == 2 and "--where is not valid JSON" in result.output


def test_add_and_sync_progress_names_each_file_as_it_is_read(tmp_path, cli, monkeypatch):
    """Issue 24: one PDF can take seconds, so the live line of `add` and `sync` names the file it is on."""
    from contextlib import contextmanager

    said: list[str] = []

    class _Line:
        def say(self, text: str) -> None:
            said.append(text)

    @contextmanager
    def recording(enabled: bool):
        yield _Line()

    monkeypatch.setattr(cli_corpus, "progress_display", recording)
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "herons.md").write_text("# Herons\nHerons nest in the reeds by the river.")
    (docs / "otters.md").write_text("# Otters\nOtters slide down muddy banks.")
    index = tmp_path / "index"
    assert cli("index", docs, index, "--no-progress").exit_code == 0

    (docs / "otters.md").write_text("# Otters\nOtters hunt crayfish at night.")
    (docs / "sub").mkdir()
    (docs / "sub" / "swifts.md").write_text("# Swifts\nSwifts sleep on the wing.")
    assert cli("sync", index, docs).exit_code == 0
    reading = [line for line in said if line.startswith("reading ")]
    assert [line.split()[1] for line in reading] == ["sub/swifts.md", "otters.md"]  # changed files only
    said.clear()

    more = tmp_path / "more"
    more.mkdir()
    (more / "larks.txt").write_text("Skylarks sing while climbing.")
    assert cli("add", index, more).exit_code == 0
    assert said[0] == "reading larks.txt" and "embedding" in said[-1]


def test_error_hints_never_point_at_a_command_that_refuses(tmp_path, cli):
    folder = tmp_path / "stuff"
    folder.mkdir()
    (folder / "notes.txt").write_text("not an index")
    result = cli("search", folder, "anything")
    assert result.exit_code == 2 and "new or empty folder" in result.output
    # ... and following the hint literally would have been refused:
    refused = cli("index", tmp_path / "stuff", folder, "--no-progress")
    assert refused.exit_code != 0


def test_readers_never_fail_while_commits_happen(tmp_path, config, mini_docs):
    """A reader of the files on disk (as another process would read them) during a burst of commits."""
    import json
    import threading

    from corpus_tools.index_format import read_generation, read_manifest

    path = tmp_path / "idx"
    Corpus.build(mini_docs, path, config=config, progress=False).close()
    errors: list[BaseException] = []
    reads = [0]
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            try:
                manifest = read_manifest(path)
                manifest, chunks, bm25, _vectors = read_generation(path, manifest, config)
                assert bm25.n_docs == len(chunks) == len(chunks.vector_ids()) == manifest["chunk_count"]
                reads[0] += 1
            except BaseException as exc:  # noqa: BLE001 - any failure is the finding
                errors.append(exc)
                return

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        with Corpus.open(path) as corpus:
            for i in range(6):
                corpus.add([Document(f"extra-{i}", f"Extra document number {i} about harbour cranes.")])
                corpus.delete([f"extra-{i}"] if i % 2 else [])
    finally:
        stop.set()
        thread.join()
    assert not errors, errors[0]
    assert reads[0] > 0
    assert json.loads((path / "manifest.json").read_text())["generation"] == 9


# ---------------------------------------------------------------- delta commits (O(change) bytes)


def _disk_files(path: Path) -> dict[str, tuple[int, int]]:
    """(size, mtime_ns) of the index's own files (Chroma's folder apart: its writes are its own)."""
    return {
        p.relative_to(path).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in path.rglob("*")
        if p.is_file() and "chroma" not in p.relative_to(path).parts
    }


def _same_state(a: Corpus, b: Corpus, queries=("quokkas lighthouse", "wombats", "bell tower", "harbour")) -> None:
    assert [c.chunk_id for c in a._state.chunks] == [c.chunk_id for c in b._state.chunks]
    assert [c.text for c in a._state.chunks] == [c.text for c in b._state.chunks]
    assert a._state.chunks.vector_ids() == b._state.chunks.vector_ids()
    for query in queries:
        assert np.allclose(a._state.bm25.scores(query), b._state.bm25.scores(query), atol=1e-5)
    # The vector matrix: each live row's vector, at its line, equal (the dense leg searches it).
    vectors_a = a._state.vectors.lines(a._state.chunks.row_lines())
    vectors_b = b._state.vectors.lines(b._state.chunks.row_lines())
    assert np.allclose(vectors_a, vectors_b, atol=1e-5)


def test_add_and_delete_write_only_the_change_and_reopen_identically(tmp_path, config, mini_docs, monkeypatch):
    from corpus_tools import index_format

    monkeypatch.setattr(index_format, "COMPACT_FRACTION", 10.0)  # keep every commit a delta here
    path = tmp_path / "idx"
    with Corpus.build(mini_docs, path, config=config, progress=False) as corpus:
        table = path / corpus.manifest["files"]["chunks"]
        table_bytes = table.stat().st_size
        before = _disk_files(path)
        corpus.add([Document("new-a", "Quokkas smile on Rottnest Island near the old lighthouse.")])
        after = _disk_files(path)
        written = {name: size for name, (size, mtime) in after.items() if before.get(name) != (size, mtime)}
        # The base table and BM25 index are untouched; what was written is the new row, its term
        # ids and the manifest, each far smaller than the table (the old commit copied it whole).
        assert before[table.name] == after[table.name]
        assert not [name for name in written if name.startswith("bm25")]
        assert corpus.last_commit_bytes < table_bytes / 10
        # ... and the new row's vector: a one-row matrix segment beside the untouched base matrix.
        vectors = {name for name in written if name.startswith("vectors")}
        assert vectors == {"vectors.1.npy"} and np.load(path / "vectors.1.npy").shape == (1, corpus.embedder.dim)
        segment = {"chunks.1.jsonl", "chunks.1.lines.npz"}  # the new row and its line numbers
        assert segment <= set(written)
        # Its metadata columns: a few arrays per field, a fixed few KB however large the index.
        assert written["chunks.1.meta.npz"] < 16_000
        others = set(written) - {"manifest.json", *vectors, "chunks.1.lines.npz", "chunks.1.meta.npz"}
        assert sum(written[name] for name in others) < table_bytes / 4
        corpus.delete([mini_docs[0].doc_id])
        corpus.add([Document(mini_docs[3].doc_id, "Replaced text about wombats and the harbour.")])
        files = corpus.manifest["files"]
        assert files["chunks"] == table.name and len(files["chunk_segments"]) == 2 and files["deleted"]
        assert "Replaced text" in corpus.chunks(mini_docs[3].doc_id)[0].text
        with Corpus.open(path) as reopened:  # the deltas read back as the state in memory
            _same_state(reopened, corpus)
            assert mini_docs[0].doc_id not in reopened.doc_ids()
            assert reopened.search("quokkas lighthouse", k=1)[0].chunk.doc_id == "new-a"
        expected = [d for d in mini_docs[1:] if d.doc_id != mini_docs[3].doc_id]
        expected += [
            Document("new-a", "Quokkas smile on Rottnest Island near the old lighthouse."),
            Document(mini_docs[3].doc_id, "Replaced text about wombats and the harbour."),
        ]
        with Corpus.build(expected, tmp_path / "full", config=config, progress=False) as full:
            _same_state(corpus, full)


def test_deltas_compact_into_a_new_base_and_old_files_go(tmp_path, config, mini_docs, monkeypatch):
    from corpus_tools import index_format

    monkeypatch.setattr(index_format, "COMPACT_FRACTION", 0.2)
    path = tmp_path / "idx"
    with Corpus.build(mini_docs, path, config=config, progress=False) as corpus:
        base = corpus.manifest["files"]["chunks"]
        n = len(corpus)
        for i in range(6):  # a user's add never compacts (O(corpus)); the manifest says when it is due
            corpus.add([Document(f"extra-{i}", f"Extra note {i} about harbour cranes and tides.")])
            assert corpus.manifest["files"]["chunks"] == base
        assert corpus.manifest["compaction_due"] and len(corpus.manifest["files"]["chunk_segments"]) == 6
        corpus.compact()  # what `context1 repair` runs
        files = corpus.manifest["files"]
        assert files["chunks"] != base and not corpus.manifest["compaction_due"]
        assert "chunk_segments" not in files and files["lines"] == len(corpus) == n + 6
        corpus.delete(["extra-0"])  # one more commit: the files only generation g-1 named are gone
        names = {p.name for p in path.iterdir()}
        assert base not in names and not any(
            name.startswith("terms.") and name.endswith(".npz") and name not in _names(corpus.manifest)
            for name in names
        )
        with Corpus.open(path) as reopened:
            _same_state(reopened, corpus)


def _names(manifest: dict) -> set[str]:
    from corpus_tools.index_format import file_names

    return file_names(manifest["files"]) | file_names(manifest.get("previous_files", {}))


def test_a_delta_commit_killed_before_the_manifest_leaves_the_old_state(tmp_path, config, mini_docs, monkeypatch):
    from corpus_tools import index_format

    monkeypatch.setattr(index_format, "COMPACT_FRACTION", 10.0)
    path = tmp_path / "idx"
    corpus = Corpus.build(mini_docs, path, config=config, progress=False)
    corpus.add([Document("new-a", "Quokkas smile on Rottnest Island.")])
    real = index_format.write_json_atomic

    def killed(target, data):
        if Path(target).name == index_format.MANIFEST:
            raise KeyboardInterrupt("killed before the commit point")
        real(target, data)

    monkeypatch.setattr(index_format, "write_json_atomic", killed)
    try:
        with pytest.raises(KeyboardInterrupt):
            corpus.add([Document("new-b", "Wombats have cubic droppings.")])
        with pytest.raises(KeyboardInterrupt):
            corpus.delete(["new-a"])
    finally:
        monkeypatch.setattr(index_format, "write_json_atomic", real)
        corpus.close()
    with Corpus.open(path) as reopened:  # the files of the failed commits are not named: old state
        assert reopened.manifest["generation"] == 1
        assert "new-a" in reopened.doc_ids() and "new-b" not in reopened.doc_ids()
        assert len(reopened) == len(mini_docs) + 1
        # The next commit reuses the failed one's generation number and overwrites its orphans.
        reopened.add([Document("new-c", "Herons nest in the reeds.")])
        assert reopened.manifest["generation"] == 2
    with Corpus.open(path) as again:
        assert {"new-a", "new-c"} <= set(again.doc_ids()) and "new-b" not in again.doc_ids()
        assert again.search("herons reeds", k=1)[0].chunk.doc_id == "new-c"
