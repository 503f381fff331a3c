"""The README's code blocks run: every block is either run here, offline, or listed with why it is not.

A new README block fails `test_every_readme_block_is_run_or_skipped_with_a_reason` until it is
added to RUN or SKIP. Run blocks get their placeholders (my_docs/, INDEX, ...) replaced by the
tiny fixture corpus and temporary folders; bash lines run `context1` as a subprocess of this
interpreter, so the checkout under test is the one that runs.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "fixtures" / "mini_corpus"

# First line of each block that is not run, and why.
SKIP = {
    "bash scripts/setup.sh": "creates the virtual environment the suite itself runs in",
    "context1 eval indexes/hotpotqa --benchmark hotpotqa": "needs the HotpotQA data folder (../shared/data), never committed",
    "context1 serve /tmp/mini-index": "a long-running server; tests/context1/test_server_* run it",
    "from context1 import Client, SearchAgent": "needs the server of the block above and a `my_backend`",
    "context1 datagen my_index tasks_out": "500 tasks and an agent eval take minutes; tests/datagen runs both",
    "context1 datagen my-index tasks_out": "a policy trained on a real index takes minutes; tests/training runs it small",
    'GGUF="$(python -c': "starts a llama.cpp server; tests/context1/test_agent_llama.py runs it",
    "context1 train sft INDEX": "training scale; tests/training and notebook 04 run it small",
    "context1 train reranker my_index": "training; tests/training/test_reranker*.py run it small",
    "HF_HUB_OFFLINE=1 .venv/bin/python -m pytest": "the suite itself",
}
RUN = (
    "context1 index tests/fixtures/mini_corpus",
    "from context1 import Corpus, SearchAgent",
    "context1 add INDEX more_docs/",
    "from context1.interfaces.integrations import",
    "from context1 import Corpus\n",
)


def _blocks() -> list[tuple[str, str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return [(lang, body) for lang, body in re.findall(r"```(\w*)\n(.*?)```", text, re.S) if body.strip()]


def _block(start: str) -> tuple[str, str]:
    (found,) = [(lang, body) for lang, body in _blocks() if (body.lstrip() + "\n").startswith(start)]
    return found


def test_every_readme_block_is_run_or_skipped_with_a_reason():
    for _lang, body in _blocks():
        first = body.lstrip()
        assert any(first.startswith(s) for s in (*RUN, *SKIP)), f"README block not run nor skipped:\n{body}"


def _run_bash(body: str, subs: dict[str, str], env: dict[str, str], cwd: Path) -> list[str]:
    """Each command of a bash block (comments dropped, && split), as `python -c 'context1 main'`; stdouts."""
    outputs = []
    for line in body.splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        for key, value in subs.items():
            line = line.replace(key, value)
        for command in filter(None, (c.strip() for c in line.split("&&"))):
            argv = shlex.split(command)
            assert argv[0] == "context1", command
            done = subprocess.run(
                [sys.executable, "-c", "from context1.interfaces.cli import main; main()", *argv[1:]],
                capture_output=True,
                text=True,
                env=env,
                cwd=cwd,
                timeout=600,
            )
            assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
            outputs.append(done.stdout)
    return outputs


@pytest.fixture(scope="module")
def env(tmp_path_factory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("home")  # the default embedding cache lives under ~/.cache
    return {**os.environ, "HOME": str(home), "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT), "COLUMNS": "200"}


@pytest.mark.slow
def test_quick_start_and_update_blocks(tmp_path, env):
    index = tmp_path / "mini-index"
    out = _run_bash(_block(RUN[0])[1], {"/tmp/mini-index": str(index)}, env, ROOT)
    assert "veldhaven" in out[-1].lower()  # "Who founded the town?" finds the town founded by salt merchants
    more = tmp_path / "more_docs"
    more.mkdir()
    (more / "harbour.txt").write_text("The harbour master of Veldhaven keeps a ledger of copper barges.\n")
    # The added file is doc "harbour.txt": the block deletes it by id, then sync adds it back.
    subs = {"INDEX": str(index), "more_docs/": str(more), "my_docs/": str(more), "filings/old.pdf": "harbour.txt"}
    _run_bash(_block(RUN[2])[1], subs, env, ROOT)


@pytest.mark.slow
def test_python_api_and_integration_blocks(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_docs").symlink_to(MINI)
    namespace: dict = {}
    exec(compile(_block(RUN[1])[1], "README.md", "exec"), namespace)  # noqa: S102 - the README's own code
    assert namespace["hits"] and namespace["result"].documents
    exec(compile(_block(RUN[3])[1], "README.md", "exec"), namespace)  # noqa: S102
    assert namespace["docs"] and namespace["nodes"]
    namespace["corpus"].close()


@pytest.mark.slow
def test_search_block(tmp_path, monkeypatch):
    """The Search section's calls run as written: hits, a `where` that matches nothing, constraints a no-op."""
    from corpus_tools import Corpus

    monkeypatch.setenv("HOME", str(tmp_path))
    index = tmp_path / "mini-index"
    Corpus.build(MINI, index, progress=False).close()
    namespace: dict = {}
    code = _block(RUN[4])[1].replace("/tmp/mini-index", str(index))
    exec(compile(code, "README.md", "exec"), namespace)  # noqa: S102 - the README's own code
    corpus = namespace["corpus"]
    assert corpus.search("when was the lighthouse built", k=5)
    assert namespace["hits"] == corpus.search("What was Apple's gross margin in the latest 10-Q?", k=10)
    corpus.close()
