"""A repository's project files read for the name they declare, never indexed as content (session 46, issue 36).

The fixture `tests/fixtures/project_repos/` (written for these tests) holds three repositories side by side: `kit`
(a `pyproject.toml` whose package name is a slug, "wombat-burrow-kit"), `numbat` (a `mkdocs.yml` with a tag a YAML
safe loader refuses) and `broken`, whose project files (a `pyproject.toml` that is no TOML, a `mkdocs.yml` that is
no UTF-8) each test writes into its copy of the folder (a broken `pyproject.toml` in the repository would stop the
tools that read every one they find: ruff). Old code (9ff5a1c): every one of these files skipped as an unsupported
type, no name kept anywhere.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from corpus_tools import SkippedFile, SkippedProjectFile, load_documents
from corpus_tools.config import CorpusConfig
from corpus_tools.index_format import read_skipped, write_skipped
from corpus_tools.project_files import read_declared

REPOS = Path(__file__).parents[1] / "fixtures" / "project_repos"


def _repos(tmp_path: Path) -> Path:
    """A copy of the fixture folder with `broken`'s project files written: no TOML, no UTF-8."""
    folder = tmp_path / "repos"
    shutil.copytree(REPOS, folder)
    (folder / "broken" / "pyproject.toml").write_text('[project\nname = "never read"\n')
    (folder / "broken" / "mkdocs.yml").write_bytes(b"theme:\n  name: \xff\xfe material\nsite_name: \xff\n")
    return folder


@pytest.mark.parametrize(("name", "text", "declared"), [
    ("pyproject.toml", '[project]\nname = "wombat-burrow-kit"\n', "wombat-burrow-kit"),
    ("pyproject.toml", '[tool.poetry]\nname = "numbat"\nversion = "1.0"\n', "numbat"),
    ("setup.cfg", "[metadata]\nname = wombatkit\nversion = attr: wombat.__version__\n", "wombatkit"),
    ("mkdocs.yml", "site_name: 'Wombat REST kit'  # the site's title\nnav:\n  - index.md\n", "Wombat REST kit"),
    ("pyproject.toml", '[project\nname = "never read"\n', ""),  # no TOML: names nothing
    ("pyproject.toml", '[tool.black]\nline-length = 100\n', ""),  # no name declared
    ("pyproject.toml", '[project]\nname = "{{ cookiecutter.slug }}"\n', ""),  # a template, not a name
    ("setup.cfg", "[metadata\nname = x\n", ""),
    ("mkdocs.yml", "theme:\n  site_name: nested, not the site's\n", ""),
])
def test_the_name_a_project_file_declares(name: str, text: str, declared: str) -> None:
    assert read_declared(text.encode(), name) == declared


def test_undecodable_project_file_names_nothing() -> None:
    assert read_declared(b"site_name: \xff\xfe Numbat\n", "mkdocs.yml") == ""


def test_the_loader_keeps_the_declared_name_and_indexes_no_project_file(tmp_path: Path) -> None:
    report = load_documents(_repos(tmp_path))
    declared = {s.path: s.declares for s in report.skipped if isinstance(s, SkippedProjectFile)}
    assert declared == {"kit/pyproject.toml": "wombat-burrow-kit", "numbat/mkdocs.yml": "Numbat"}
    assert not any(d.doc_id.endswith((".toml", ".yml", ".cfg")) for d in report.documents)
    # a broken project file loses nothing and names nothing: skipped exactly as before
    broken = {s.path: s for s in report.skipped if s.path.startswith("broken/")}
    assert set(broken) == {"broken/pyproject.toml", "broken/mkdocs.yml"}
    assert all(type(s) is SkippedFile and s.reason.startswith("unsupported file type") for s in broken.values())
    assert "broken/docs/index.md" in {d.doc_id for d in report.documents}


def test_off_reads_no_project_file(tmp_path: Path) -> None:
    report = load_documents(_repos(tmp_path), project_files=False)
    assert not any(isinstance(s, SkippedProjectFile) for s in report.skipped)
    assert {s.path for s in report.skipped if s.reason.startswith("unsupported file type")} >= {
        "kit/pyproject.toml", "numbat/mkdocs.yml"}
    on = load_documents(tmp_path / "repos")
    assert [d.text for d in on.documents] == [d.text for d in report.documents]  # the content is the same


def test_the_index_keeps_the_declared_name_beside_its_skip_lines(tmp_path: Path) -> None:
    skipped = [SkippedFile("a.bin", "unsupported file type (.bin files)"),
               SkippedProjectFile("kit/pyproject.toml", "project file, read for its name only", "wombat-burrow-kit")]
    write_skipped(tmp_path / "skipped.jsonl", skipped)
    lines = [json.loads(line) for line in (tmp_path / "skipped.jsonl").read_text().splitlines()]
    # each line path and reason, as before session 46 (code from before still opens the index)
    assert all(set(line) == {"path", "reason"} for line in lines)
    assert read_skipped(tmp_path / "skipped.jsonl") == skipped
    (tmp_path / "declared.json").write_text("{not json")  # damaged: the names are lost, the entries are not
    assert [type(s) for s in read_skipped(tmp_path / "skipped.jsonl")] == [SkippedFile, SkippedFile]
    write_skipped(tmp_path / "skipped.jsonl", skipped[:1])  # none declared: no file
    assert not (tmp_path / "declared.json").exists()


def test_an_index_built_before_reads_no_project_file() -> None:
    assert CorpusConfig().read_project_files is True
    assert CorpusConfig.from_dict({}).read_project_files is False
    with pytest.raises(ValueError, match="read_project_files"):
        CorpusConfig(read_project_files="yes")  # type: ignore[arg-type]


def test_an_index_keeps_the_names_and_searches_exactly_as_without_them(tmp_path: Path, config: CorpusConfig) -> None:
    from dataclasses import replace

    from corpus_tools import Corpus
    from datagen.pipeline import mine_corpus

    Corpus.build(REPOS, tmp_path / "on", config=config, progress=False).close()
    Corpus.build(REPOS, tmp_path / "off", config=replace(config, read_project_files=False), progress=False).close()
    with Corpus.open(tmp_path / "on") as on:
        assert mine_corpus(on).declared == {"kit/pyproject.toml": "wombat-burrow-kit", "numbat/mkdocs.yml": "Numbat"}
        reason = {s.path: s.reason for s in on.skipped}["kit/pyproject.toml"]
        assert reason.startswith("project file, read for its name only")
    with Corpus.open(tmp_path / "off") as off:
        assert mine_corpus(off).declared == {}
    # what search reads is the same file for file: no project file is content
    for name in ("chunks.jsonl", "vectors.npy", *sorted(p.name for p in (tmp_path / "off" / "bm25").iterdir())):
        where = name if (tmp_path / "off" / name).exists() else f"bm25/{name}"
        assert (tmp_path / "on" / where).read_bytes() == (tmp_path / "off" / where).read_bytes(), where
    assert not (tmp_path / "off" / "declared.json").exists()
