"""Python source read as documents (session 43): sections per definition, `defines`, the flag, bad input, sync."""

from __future__ import annotations

import pytest

from corpus_tools import Corpus, CorpusConfig
from corpus_tools.chunking import ChunkingConfig, chunk_document
from corpus_tools.defined_names import lift_defined, split_defines
from corpus_tools.loaders import load_documents
from corpus_tools.source_reader import MAX_SOURCE_CHARS, module_name, read_source

APP = '''"""The application object: a WSGI app that dispatches requests to views."""

from __future__ import annotations

import os

DEFAULT_PORT = 5000


@decorated
def make_timedelta(value: int | None = None) -> float:
    """Turn seconds into a delta."""
    return float(value or 0)


class Flask(App):
    """The flask object implements a WSGI application."""

    default_config = {"DEBUG": None}

    # Convert whatever a view returned.
    def make_response(self, rv: object, status: int = 200) -> Response:
        """Convert the return value from a view function to an instance of the response class.

        :param rv: the return value from the view function.
        """
        if rv is None:
            raise TypeError("The view function did not return a valid response.")
        return Response(rv, status)

    class Nested:
        def inner(self): return 1

    async def run(self, host: str = "127.0.0.1", *, debug: bool = False): ...


if __name__ == "__main__":
    Flask(__name__).run()
'''


def _package(tmp_path, files: dict[str, str | bytes]):
    for rel, body in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body if isinstance(body, bytes) else body.encode("utf-8"))
    return tmp_path


def _sections(doc) -> list[str]:
    return list(dict.fromkeys(p.section for p in doc.parts))


def test_module_docstring_first_then_a_section_per_definition():
    doc = read_source(APP.encode(), "flask.app")
    assert doc.title == "flask.app" and doc.definitions == 6 and doc.notes == ()
    assert doc.text.startswith("The application object: a WSGI app")
    assert _sections(doc) == ["flask.app", "flask.app.make_timedelta (line 11)", "flask.app.Flask (line 16)",
                              "flask.app.Flask.make_response (line 22)", "flask.app.Flask.Nested (line 31)",
                              "flask.app.Flask.Nested.inner (line 32)", "flask.app.Flask.run (line 34)"]
    # The script block after the last definition is the module's code again, in file order: no line lost.
    assert doc.parts[-1].section == "flask.app" and "Flask(__name__).run()" in doc.text[doc.parts[-1].start:]
    for line in APP.splitlines():
        if line.strip() and '"""' not in line:
            assert line.strip() in doc.text, line


def test_a_definition_holds_signature_docstring_and_code_and_defines_its_name():
    doc = read_source(APP.encode(), "flask.app")
    parts = [p for p in doc.parts if p.section.startswith("flask.app.Flask.make_response")]
    head, code = (doc.text[p.start : p.end] for p in parts)
    assert [p.kind for p in parts] == ["text", "code"]
    assert head.startswith("# Convert whatever a view returned.\ndef make_response(self, rv: object, status: int = 200)"
                           " -> Response:\n\nConvert the return value")
    assert ":param rv: the return value" in head and '"""' not in head  # the docstring as prose, dedented
    assert code.startswith("if rv is None:\n    raise TypeError(")  # the body, dedented
    assert parts[0].defines == ((parts[0].start, "flask.app.Flask.make_response"),)
    # A class keeps its attributes; its methods are not in its section.
    cls = "\n".join(doc.text[p.start : p.end] for p in doc.parts if p.section == "flask.app.Flask (line 16)")
    assert "class Flask(App):" in cls and 'default_config = {"DEBUG": None}' in cls and "def make_response" not in cls
    decorated = next(p for p in doc.parts if p.section.startswith("flask.app.make_timedelta"))
    assert doc.text[decorated.start : decorated.end].startswith("@decorated\ndef make_timedelta(value: int | None = None)")


def test_chunks_carry_the_qualified_name_and_defines_so_the_question_meets_its_definition():
    doc = read_source(APP.encode(), "flask.app")
    from corpus_tools.types import Document

    chunks = chunk_document(Document("flask/app.py", doc.text, doc.title, {}, doc.parts), _Words(),
                            ChunkingConfig(chunk_tokens=60, overlap_tokens=8))
    defining = [c for c in chunks if "flask.app.Flask.make_response" in split_defines(c.metadata.get("defines"))]
    assert len(defining) == 1 and defining[0].metadata["section"] == "flask.app.Flask.make_response (line 22)"
    assert "flask.app.Flask.make_response" in defining[0].metadata["header"]
    fused = [(c.chunk_id, 1.0) for c in chunks]
    lifted = lift_defined("What does `Flask.make_response` return?", fused,
                          [c.metadata.get("defines") for c in chunks], 0.5)
    assert lifted[0][0] == defining[0].chunk_id


def test_a_long_definition_is_cut_into_windows_under_its_section():
    body = "\n".join(f"    value_{i} = compute({i})" for i in range(200))
    doc = read_source(f"def long_one(x):\n    '''Long.'''\n{body}\n".encode(), "pkg.mod")
    from corpus_tools.types import Document

    chunks = chunk_document(Document("pkg/mod.py", doc.text, doc.title, {}, doc.parts), _Words(),
                            ChunkingConfig(chunk_tokens=60, overlap_tokens=8))
    assert len(chunks) > 3 and {c.metadata["section"] for c in chunks} == {"pkg.mod.long_one (line 1)"}
    assert [bool(c.metadata.get("defines")) for c in chunks].count(True) == 1


def test_module_name_follows_the_packages(tmp_path):
    root = _package(tmp_path, {"src/flask/__init__.py": "", "src/flask/json/__init__.py": "x = 1\n",
                               "src/flask/json/tag.py": "", "docs/conf.py": ""})
    assert module_name(root / "src/flask/json/tag.py") == "flask.json.tag"
    assert module_name(root / "src/flask/json/__init__.py") == "flask.json"
    assert module_name(root / "docs/conf.py") == "conf"


def test_flag_off_skips_python_files_as_before(tmp_path):
    root = _package(tmp_path, {"pkg/__init__.py": "", "pkg/app.py": APP, "index.md": "# Home\n\nHello.\n"})
    off = load_documents(root)
    assert [d.doc_id for d in off.documents] == ["index.md"]
    assert any(s.path == "pkg/app.py" and "unsupported file type" in s.reason for s in off.skipped)
    on = load_documents(root, source_code=True)
    app = next(d for d in on.documents if d.doc_id == "pkg/app.py")
    assert app.title == "pkg.app" and app.parts
    assert any(s.path == "pkg/__init__.py" and s.reason == "empty file" for s in on.skipped)  # empty: said, not lost
    assert CorpusConfig().read_source is True  # the default, measured (session 43)
    old = CorpusConfig().to_dict()
    del old["read_source"]  # a manifest written before session 43: its folder's source was never read
    assert CorpusConfig.from_dict(old).read_source is False
    with pytest.raises(ValueError, match="read_source"):
        CorpusConfig(read_source="yes")


BAD = {
    "py2.py": 'print "hello"\n',
    "template.py": "def {{ name }}():\n    return {{ value }}\n",
    "latin.py": "# -*- coding: latin-1 -*-\n\ndef caf\xe9():\n    '''Caf\xe9 cr\xe8me.'''\n".encode("latin-1"),
    "wrong.py": "# -*- coding: ascii -*-\nNAME = 'caf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve'\n".encode(),
    "klingon.py": b"# -*- coding: klingon -*-\nx = 1\n",
    "nul.py": b"x = 1\x00\n",
    "reexports.py": "from .app import Flask as Flask\nfrom .helpers import url_for as url_for\n",
}


def test_bad_input_is_read_as_text_with_a_note_or_skipped_with_a_reason(tmp_path):
    root = _package(tmp_path, BAD)
    report = load_documents(root, source_code=True)
    docs = {d.doc_id: d for d in report.documents}
    notes = {n.path: n.note for n in report.notes}
    skipped = {s.path: s.reason for s in report.skipped}
    for name in ("py2.py", "template.py"):  # not Python 3: plain text, every character kept, counted in notes
        assert docs[name].parts == () and docs[name].text == BAD[name]
        assert "not valid Python 3 (line 1" in notes[name] and "read as plain text" in notes[name]
    assert "def café():" in docs["latin.py"].text and docs["latin.py"].metadata["encoding"] == "iso-8859-1"
    assert any(p.defines and p.defines[0][1] == "latin.café" for p in docs["latin.py"].parts)
    assert "café crème" in docs["wrong.py"].text and "declares ascii but is not" in notes["wrong.py"]
    assert "x = 1" in docs["klingon.py"].text and "encoding declaration not usable" in notes["klingon.py"]
    assert skipped["nul.py"] == "binary file (contains NUL bytes)"
    assert docs["reexports.py"].parts and {p.section for p in docs["reexports.py"].parts} == {"reexports"}
    assert "from .helpers import url_for as url_for" in docs["reexports.py"].text
    assert len(report.documents) + len(report.skipped) == len(BAD)


def test_a_huge_generated_file_is_read_as_plain_text(tmp_path):
    line = "TABLE_ENTRY_{0} = ({0}, 'generated value {0}')\n"
    body = "".join(line.format(i) for i in range(MAX_SOURCE_CHARS // len(line.format(0)) * 2))
    assert len(body) > MAX_SOURCE_CHARS
    root = _package(tmp_path, {"gen_pb2.py": body})
    report = load_documents(root, source_code=True)
    (doc,) = report.documents
    assert doc.parts == () and doc.text == body
    assert "large source file" in report.notes[0].note


def test_build_and_sync_read_source_only_when_asked(tmp_path, cache_dir):
    root = _package(tmp_path / "repo", {"pkg/__init__.py": "", "pkg/app.py": APP, "index.md": "# Home\n\nHello.\n"})
    config = CorpusConfig(embedding_cache=str(cache_dir), read_source=True, chroma=False)
    with Corpus.build(root, tmp_path / "index", config=config, progress=False) as corpus:
        assert "pkg/app.py" in corpus.doc_ids()
        (root / "pkg" / "cli.py").write_text('def main():\n    """Run the command line."""\n', encoding="utf-8")
        report = corpus.sync(root)
        assert "pkg/cli.py" in report.added
        sections = {c.metadata.get("section") for c in corpus.chunks("pkg/cli.py")}
        assert sections == {"pkg.cli.main (line 1)"}
    off = CorpusConfig(embedding_cache=str(cache_dir), chroma=False, read_source=False)
    with Corpus.build(root, tmp_path / "index-off", config=off, progress=False) as corpus:
        assert corpus.doc_ids() == ["index.md"]
        assert corpus.sync(root).added == []


class _Words:
    """A whitespace tokenizer (the chunker's interface), so tests need no model."""

    def offsets(self, text):
        import re

        return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]

    def count(self, text):
        return len(text.split())


def test_cli_index_source_info_read_and_search_show_the_definition(tmp_path):
    import json

    import typer
    from typer.testing import CliRunner

    from context1.interfaces import cli_corpus

    root = _package(tmp_path / "repo", {"flask/__init__.py": "from .app import Flask as Flask\n", "flask/app.py": APP,
                                        "index.md": "# Home\n\nHello.\n"})
    app = typer.Typer(pretty_exceptions_enable=False)
    cli_corpus.register(app)
    runner = CliRunner(env={"COLUMNS": "220", "HF_HUB_OFFLINE": "1", "HOME": str(tmp_path)})
    index = tmp_path / "cli-index"
    result = runner.invoke(app, ["index", str(root), str(index), "--source", "--no-chroma", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert json.loads((index / "manifest.json").read_text())["config"]["read_source"] is True
    assert "(.py 2, .md 1)" in runner.invoke(app, ["info", str(index)]).output
    shown = " ".join(runner.invoke(app, ["read", str(index), "flask/app.py"]).output.split())
    assert "section flask.app.Flask.make_response (line 22)" in shown
    found = runner.invoke(app, ["search", str(index), "What does `Flask.make_response` return?", "-k", "1"])
    assert found.exit_code == 0, found.output
    assert "def make_response(self, rv: object" in " ".join(found.output.split())  # search shows no sections
    from context1.interfaces import cli_ask

    asking = typer.Typer()

    @asking.callback()
    def main() -> None:
        """context1 (test)."""

    cli_ask.register(asking)
    res = runner.invoke(asking, ["ask", str(index), "What does `Flask.make_response` return?"])
    assert res.exit_code == 0, res.output
    answer = " ".join(res.output[res.output.index("passage(s) for"):].split())
    assert "1. flask.app — flask.app.Flask.make_response (line 22)" in answer  # its module, qualified name and line


def test_source_weight_places_code_below_the_docs_prose_and_keeps_the_named_definition(tmp_path, cache_dir):
    from corpus_tools.config import SearchConfig

    page = "# Responses\n\nConvert the return value from a view function to an instance of the response class.\n"
    root = _package(tmp_path / "repo", {"flask/__init__.py": "", "flask/app.py": APP, "responses.md": page})
    config = CorpusConfig(embedding_cache=str(cache_dir), read_source=True, chroma=False)
    Corpus.build(root, tmp_path / "index", config=config, progress=False).close()
    question = "How is the return value from a view function converted to an instance of the response class?"
    with Corpus.open(tmp_path / "index", search=SearchConfig(source_weight=0.9)) as corpus:
        assert corpus.search(question, k=1)[0].chunk.doc_id == "responses.md"
        # A question that asks for code by its kind's name is not lowered: the ranking is the unweighted one.
        asked = "Which method converts the return value from a view function to an instance of the response class?"
        lowered = [(h.chunk.chunk_id, round(h.score, 6)) for h in corpus.search(asked, k=5)]
    with Corpus.open(tmp_path / "index", search=SearchConfig(source_weight=0.0)) as corpus:
        assert [(h.chunk.chunk_id, round(h.score, 6)) for h in corpus.search(asked, k=5)] == lowered
    with Corpus.open(tmp_path / "index", search=SearchConfig(source_weight=0.3)) as corpus:
        # At a weight under 1/3 the lift (× 1.5) still puts a definition the question names as code above the prose.
        named = corpus.search("What does `Flask.make_response` return?", k=1)[0].chunk
        assert "flask.app.Flask.make_response" in split_defines(named.metadata.get("defines"))
    for bad in (1.0, -0.1, True):
        with pytest.raises(ValueError, match="source_weight"):
            SearchConfig(source_weight=bad)
