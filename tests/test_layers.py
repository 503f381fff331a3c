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
