"""DESIGN.md's rule, checked on every run: no import circle between modules, no package importing upward."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_import_circle_and_no_upward_arrow():
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "import_graph.py"), "--root", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "module circles: 0" in done.stdout


def _graph_of(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "import_graph.py"), "--root", str(root)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_core_never_imports_the_interfaces():
    """context1's harness core and backends know nothing of the CLI, HTTP, MCP or the client (issue 25)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import import_graph
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    graph = import_graph.module_imports(ROOT)
    core = [m for m in graph if m.startswith("context1.") and import_graph.room(m) == "context1"]
    assert "context1.harness" in core and "context1.backends.iterative" in core
    assert "context1.interfaces.cli" in graph and "context1.interfaces.server" in graph
    wrong = {m: sorted(t for t in graph[m] if import_graph.room(t) == import_graph.INTERFACES) for m in core}
    assert not any(wrong.values()), {m: ts for m, ts in wrong.items() if ts}


def test_an_arrow_from_the_core_into_the_interfaces_is_caught(tmp_path):
    for folder in ("corpus_tools", "context1/interfaces"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "__init__.py").write_text("")
    lazy = "def __getattr__(name):\n    from context1.interfaces.client import Client\n\n    return Client\n"
    (tmp_path / "context1" / "__init__.py").write_text(lazy)
    (tmp_path / "context1" / "interfaces" / "client.py").write_text("from context1 import harness\n")
    (tmp_path / "context1" / "harness.py").write_text("import corpus_tools\n")
    done = _graph_of(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr  # the package's lazy re-export is its public face
    (tmp_path / "context1" / "interfaces" / "client.py").write_text("import corpus_tools\n")  # no circle: only the arrow
    (tmp_path / "context1" / "harness.py").write_text("from context1.interfaces.client import Client\n")
    done = _graph_of(tmp_path)
    assert done.returncode == 1 and "module circles: 0" in done.stdout
    assert "upward context1 -> context1.interfaces: context1.harness" in done.stdout
