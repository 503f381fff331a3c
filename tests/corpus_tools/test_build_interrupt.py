"""A build killed with SIGKILL mid-embedding leaves the previous index intact, and a restart
completes without re-embedding what the killed build had already embedded (content cache)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from corpus_tools import Corpus, CorpusConfig, CorpusError, Document
from corpus_tools.build import clean_stale

N_SYNTHETIC = 300
REPO = Path(__file__).resolve().parents[2]


def synthetic_docs(n: int = N_SYNTHETIC) -> list[Document]:
    return [
        Document(f"village-{i:04d}", f"Village {i} lies {i % 97} km from the coast; its bell was cast in {1500 + i}.")
        for i in range(n)
    ]


def cached_rows(cache: Path) -> int:
    db = cache / "embeddings.sqlite3"
    if not db.exists():
        return 0
    with sqlite3.connect(str(db), timeout=5) as conn:
        try:
            return conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
        except sqlite3.OperationalError:
            return 0  # table not created yet


BUILD_SCRIPT = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {repo!r})
    from corpus_tools import Corpus, CorpusConfig, Document
    docs = [Document(f"village-{{i:04d}}", f"Village {{i}} lies {{i % 97}} km from the coast; its bell was cast in {{1500 + i}}.")
            for i in range({n})]
    # A tiny batch size makes embedding many small, separately committed steps.
    Corpus.build(docs, {path!r}, config=CorpusConfig(embedding_cache={cache!r}, batch_size=4), progress=False)
    print("FINISHED", flush=True)
    """
)


def test_kill_mid_embedding_keeps_old_index_and_resume_reuses_cache(tmp_path, mini_corpus_path):
    cache = tmp_path / "cache"
    path = tmp_path / "idx"
    config = CorpusConfig(embedding_cache=str(cache))
    Corpus.build(mini_corpus_path, path, config=config, progress=False).close()
    before_kill = cached_rows(cache)
    assert before_kill == 20

    script = BUILD_SCRIPT.format(repo=str(REPO), n=N_SYNTHETIC, path=str(path), cache=str(cache))
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while cached_rows(cache) < before_kill + 8:  # two batches committed: embedding is under way
            if proc.poll() is not None:
                pytest.fail(f"build exited before it could be killed: {proc.stdout.read().decode()[-2000:]}")
            if time.monotonic() > deadline:
                pytest.fail("build did not start embedding within 180 s")
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    committed = cached_rows(cache) - before_kill
    assert 0 < committed < N_SYNTHETIC, "the build finished before the kill; make it slower"

    # The killed build left its staging folder; the previous index is untouched and works.
    staging = path.with_name(f"idx.building-{proc.pid}")
    # A streaming build writes its chunk table as it goes: only a temporary file exists so far.
    assert staging.is_dir() and not (staging / "manifest.json").exists()
    with Corpus.open(path) as old:
        assert len(old) == 20 and not old.has_doc("village-0000")
        assert old.search("who designed the basalt lighthouse", k=1)[0].chunk.doc_id == "korrin-bay"

    # Restart: stale staging removed, nothing already embedded is embedded again.
    with Corpus.open(path) as old:
        stats = old.cache_stats
    with Corpus.build(synthetic_docs(), path, config=config, progress=False) as rebuilt:
        after = rebuilt.cache_stats
        assert len(rebuilt) == N_SYNTHETIC
        assert rebuilt.search("bell cast in 1742", k=3)[0].chunk.doc_id == "village-0242"
    assert after["hits"] - stats["hits"] == committed
    assert after["misses"] - stats["misses"] == N_SYNTHETIC - committed
    assert cached_rows(cache) == before_kill + N_SYNTHETIC
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "idx"]


def test_restart_after_a_kill_between_the_two_renames(tmp_path, config):
    path = tmp_path / "idx"
    Corpus.build([Document("a", "Herons nest in the reeds.")], path, config=config, progress=False).close()
    # Simulate a kill after the index was moved aside but before the new one moved in.
    dead_pid = 2**22 + 12345  # above the default pid_max: no such process
    aside = tmp_path / f"idx.old-{dead_pid}"
    os.replace(path, aside)
    (tmp_path / f"idx.building-{dead_pid}").mkdir()
    clean_stale(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]
    with Corpus.open(path) as restored:
        assert restored.doc_ids() == ["a"]


def test_a_running_build_is_not_disturbed(tmp_path, config):
    path = tmp_path / "idx"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        staging = tmp_path / f"idx.building-{sleeper.pid}"
        staging.mkdir()
        with pytest.raises(CorpusError, match="Another build"):
            Corpus.build([Document("a", "Text.")], path, config=config, progress=False)
        assert staging.is_dir()
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_failed_build_leaves_nothing_behind(tmp_path, config, monkeypatch):
    path = tmp_path / "idx"
    Corpus.build([Document("a", "Kingfishers dive for fish.")], path, config=config, progress=False).close()
    manifest = json.loads((path / "manifest.json").read_text())

    import corpus_tools.build as build

    def boom(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(build, "embed_into", boom)
    with pytest.raises(RuntimeError, match="disk on fire"):
        Corpus.build([Document("b", "Different text.")], path, config=config, progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]
    assert json.loads((path / "manifest.json").read_text()) == manifest
