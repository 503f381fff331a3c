"""`context1 index` on a folder of Word documents and mail: what was read, what was skipped and why, and `read`."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

READERS = Path(__file__).resolve().parents[1] / "fixtures" / "readers"


def test_index_reads_docx_and_mail_and_says_what_it_skipped(corpus_cli, tmp_path):
    source = tmp_path / "docs"
    (source / "mail").mkdir(parents=True)
    shutil.copy(READERS / "report.docx", source / "report.docx")
    (source / "cut.docx").write_bytes((READERS / "report.docx").read_bytes()[:2000])
    (source / "old.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100)
    for name in ("ops.mbox", "no-body.eml", "reply-qp.eml"):
        shutil.copy(READERS / "mail" / name, source / "mail" / name)
    runner = CliRunner(env={"COLUMNS": "220", "HF_HUB_OFFLINE": "1", "HOME": str(tmp_path)})
    index = tmp_path / "index"
    result = runner.invoke(corpus_cli, ["index", str(source), str(index), "--no-progress"])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "documents │ 6" in out  # the report, two .eml files and three of the archive's four messages
    info = runner.invoke(corpus_cli, ["info", str(index)])
    assert "(.mbox 3, .eml 2, .docx 1)" in info.output
    for reason, where in (("not a readable .docx", "cut.docx"), ("broken compound file", "old.doc"),
                          ("not a mail message", "mail/ops.mbox message 3 (line 27)")):
        assert reason in out and where in out
    assert "no text body: indexed by its headers and attachment names" in out

    shown = runner.invoke(corpus_cli, ["read", str(index), "mail/ops.mbox/plan-2@northwind.example"])
    assert shown.exit_code == 0, shown.output
    assert "Re: Agenda for the quarterly review (1 April 2024)" in shown.output
    assert "from: Priya Natarajan <priya@northwind.example>" in shown.output
    report = runner.invoke(corpus_cli, ["read", str(index), "report.docx"])
    assert "section Regional results > Deliveries by region" in " ".join(report.output.split())
    assert "North | 198 | 176" in report.output


def test_info_counts_documents_by_the_file_type_they_came_from():
    from corpus_tools.info import file_types

    ids = ["mail/ops.mbox/plan-1@x", "mail/ops.mbox/sha-0123", "mail/a.eml", "reports/q3.docx", "doc-1a2b", "12345"]
    assert file_types(ids) == {".mbox": 2, "other": 2, ".docx": 1, ".eml": 1}


NOTEBOOKS = Path(__file__).resolve().parents[1] / "fixtures" / "notebooks"


def test_index_reads_notebooks_counts_them_and_says_which_it_skipped(corpus_cli, tmp_path):
    source = tmp_path / "course"
    shutil.copytree(NOTEBOOKS, source, ignore=shutil.ignore_patterns("*.py"))
    (source / "README.md").write_text("# Course\n\nThe notebooks of the course.\n")
    runner = CliRunner(env={"COLUMNS": "220", "HF_HUB_OFFLINE": "1", "HOME": str(tmp_path)})
    index = tmp_path / "index"
    result = runner.invoke(corpus_cli, ["index", str(source), str(index), "--no-progress"])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "documents │ 5" in out and "notebooks │ 4" in out
    for reason, where in (("not a Jupyter notebook", "malformed.ipynb"), ("empty notebook", "empty.ipynb")):
        assert reason in out and where in out
    shown = runner.invoke(corpus_cli, ["read", str(index), "tutorial.ipynb"])
    assert shown.exit_code == 0, shown.output
    assert "0 | Radial Velocity | 1 | 2006" in shown.output and "Output: (1035, 6)" in shown.output
    assert "iVBOR" not in shown.output and "<Figure" not in shown.output and "In [" not in shown.output
    skipped = runner.invoke(corpus_cli, ["index", str(source), str(tmp_path / "off"), "--no-progress", "--no-notebooks"])
    assert skipped.exit_code == 0, skipped.output
    off = " ".join(skipped.output.split())
    assert "documents │ 1" in off and "notebooks │" not in off and "unsupported file type" in off


MAN = Path(__file__).resolve().parents[1] / "fixtures" / "man"


def test_index_reads_manual_pages_and_no_man_skips_them(corpus_cli, tmp_path):
    source = tmp_path / "man"
    shutil.copytree(MAN, source)
    runner = CliRunner(env={"COLUMNS": "220", "HF_HUB_OFFLINE": "1", "HOME": str(tmp_path)})
    result = runner.invoke(corpus_cli, ["index", str(source), str(tmp_path / "index"), "--no-progress"])
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "documents │ 4" in out and "manual page alias" in out  # frobnicate.2, widgetctl.1, gizmo.1, widget.conf.5
    shown = runner.invoke(corpus_cli, ["read", str(tmp_path / "index"), "man2/frobnicate.2"])
    assert "frobnicate, ffrobnicate, lfrobnicate(2) — adjust the frob level of a widget" in shown.output
    assert "\\fB" not in shown.output and ".TP" not in shown.output
    off = runner.invoke(corpus_cli, ["index", str(source), str(tmp_path / "off"), "--no-progress", "--no-man"])
    assert off.exit_code != 0 and "nothing to index" in " ".join(off.output.split())  # skipped as before
