"""Every notebook in notebooks/ runs top to bottom (nbclient, a real IPython kernel) without leaving
a file behind in the repository, and none is committed with outputs (they would go stale: the run
regenerates them)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
CELL_TIMEOUT_S = 600  # generous for a loaded CI machine; a quiet 2-core one runs each notebook in ~1 min


def test_there_are_notebooks():
    assert {p.name for p in NOTEBOOKS} >= {"01_index_and_ask.ipynb", "02_datagen.ipynb", "03_evaluate.ipynb",
                                            "04_train.ipynb"}


def _repo_files() -> set[str] | None:
    """Untracked and ignored paths of the checkout (bytecode caches aside); None outside a git checkout."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--ignored"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return {line[3:] for line in out.splitlines() if "__pycache__" not in line}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_notebooks_carry_no_outputs(path):
    nb = nbformat.read(path, as_version=4)
    dirty = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and (c.outputs or c.execution_count)]
    assert not dirty, (f"{path.name}: cells {dirty} hold outputs; strip them before committing "
                       "(e.g. jupyter nbconvert --clear-output --inplace)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_each_notebook_opens_by_saying_what_it_shows_and_how_long_it_takes(path):
    first = nbformat.read(path, as_version=4).cells[0]
    assert first.cell_type == "markdown"
    assert "What it shows" in first.source and "How long" in first.source


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_top_to_bottom(path, tmp_path, request):
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    # A notebook that trains SmolLM2 (04) takes its model from CONTEXT1_NOTEBOOK_MODEL: the session's saved
    # folder of the packaged GGUF (tests/conftest.py::smollm2; the same weights), instead of parsing and
    # dequantizing the GGUF twice in its kernel (~40 s and ~0.6 GB of heap). The GGUF path is tested there.
    model = {}
    if any("CONTEXT1_NOTEBOOK_MODEL" in c.source for c in nb.cells if c.cell_type == "code"):
        model = {"CONTEXT1_NOTEBOOK_MODEL": str(request.getfixturevalue("smollm2"))}
    # The kernel is this interpreter (the project's venv), whatever `python` is on PATH.
    km = KernelManager(kernel_name="python3")
    km.kernel_cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    # MPLBACKEND dropped: the kernel's own inline backend draws the figures.
    env = {**{k: v for k, v in os.environ.items() if k != "MPLBACKEND"}, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           # glibc hands freed blocks of 2 MiB and more back (tests/conftest.py, LEAN_MMAP_THRESHOLD): notebook
           # 04's training steps otherwise leave its kernel on a ~2.6 GB heap (1.7 GB with it)
           "MALLOC_MMAP_THRESHOLD_": str(2 << 20), **model}
    files_before = _repo_files()
    client = NotebookClient(nb, km=km, timeout=CELL_TIMEOUT_S, resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute(env=env)
    finally:
        nbformat.write(nb, tmp_path / path.name)  # the executed copy, for a person debugging a failure
        # nbclient leaves a kernel manager it was given running: without this every notebook's kernel
        # (GBs of models) lived until pytest exited.
        if km.has_kernel:
            km.shutdown_kernel(now=True)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "every notebook shows at least one figure"
    if files_before is not None:  # scratch files belong in a temporary folder, not in the checkout
        assert _repo_files() - files_before == set(), f"{path.name} left files in the repository"
