"""A paper's bibliography (session 49, issue 34): its heading starts a section even set in body type
(`CorpusConfig.paper_references`), and search places that section lower (`SearchConfig.bibliography_weight`) unless
the question asks for references. One PDF reading for every caller: `load_documents` reads as `context1 index`.
The PDFs are invented, written by hand (tests/fixtures/paper_pdf.py)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from corpus_tools import Corpus
from corpus_tools.bibliography import asks_for_references, is_heading, is_section, reads_as_citations
from corpus_tools.config import CorpusConfig, SearchConfig
from corpus_tools.loaders import ReadOptions, load_documents
from corpus_tools.readers import read_pdf_document

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from paper_pdf import paper_pdf, two_column_page  # noqa: E402 (tests/fixtures/paper_pdf.py)

# Paper A defines the term; paper B's reference list names it in three entries.
HEAP = ["Introduction", "Priority queues order the tasks of a scheduler by their deadline and their cost.",
        "A skew heap is a heap ordered binary tree that is merged along its right spine.",
        "We merge two trees by swapping the children of every node on the merge path.",
        "The scheduler keeps one tree for each core and merges them when a core idles."]
CITING = ["Introduction", "Tarn is a file system for tape libraries that batches its writes in large runs.",
          "Its catalogue lives in memory and is written to a spare tape every hour.",
          "References",
          "[1] A. Marsh. Skew heaps: what is a skew heap. J. Trees, 4(2):1-9, 1991.",
          "[2] B. Reed. Merging skew heaps and skew heap spines. Proc. Heaps, 1993.",
          "[3] C. Lund. A skew heap is all you need. Tree Letters, 7:3-5, 1996."]


def _page(lines: list[str], title: str) -> list[tuple[float, float, str, float]]:
    # the title in large type; every other line in body type (9 pt), the references heading too
    return [(60.0, 50.0, title, 16.0)] + [(60.0, 100.0 + 12 * i, line, 9.0) for i, line in enumerate(lines)]


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "papers"
    root.mkdir(parents=True)
    (root / "heaps.pdf").write_bytes(paper_pdf([_page(HEAP, "Skew Heaps for Schedulers")]))
    (root / "tarn.pdf").write_bytes(paper_pdf([_page(CITING, "Tarn: A Tape File System")]))
    return root


def _sections(doc) -> list[tuple[str, str]]:
    return [(p.section, doc.text[p.start:p.end]) for p in doc.parts]


def test_a_references_heading_in_body_type_starts_a_section(tmp_path):
    tarn = next(d for d in load_documents(_folder(tmp_path)).documents if d.doc_id == "tarn.pdf")
    sections = _sections(tarn)
    cited = [text for section, text in sections if is_section(section)]
    assert cited and all("[" in text for text in cited)
    assert "[1] A. Marsh. Skew heaps" in "\n".join(cited)
    assert not any("Tarn is a file system" in text for text in cited)
    # off: the list runs on under the paper's last section, as before session 49
    off = load_documents(_folder(tmp_path / "off"), paper_references=False).documents
    assert not any(is_section(p.section) for d in off for p in d.parts)


def test_another_papers_reference_entry_ranks_below_the_definition(tmp_path, cache_dir):
    # the bibliography weight alone: with the paper's definitions recorded (paper_definitions, on by default) the
    # definition of "a skew heap" ranks first at either weight (tests/corpus_tools/test_paper_definitions.py)
    config = CorpusConfig(embedding_cache=str(cache_dir), chroma=False, paper_definitions=False)
    Corpus.build(_folder(tmp_path), tmp_path / "index", config=config, progress=False).close()
    question = "What is a skew heap?"
    with Corpus.open(tmp_path / "index", search=SearchConfig(bibliography_weight=0.0)) as corpus:
        off = corpus.search(question, k=3)
    assert is_section(off[0].chunk.metadata.get("section"))  # the entries' words win unweighted
    with Corpus.open(tmp_path / "index") as corpus:  # the default weight
        on = corpus.search(question, k=3)
        assert on[0].chunk.doc_id == "heaps.pdf" and "heap ordered binary tree" in on[0].chunk.text
        # a question that asks for references is not lowered: the ranking is the unweighted one
        asked = "Which references cite skew heaps?"
        kept = [(h.chunk.chunk_id, round(h.score, 6)) for h in corpus.search(asked, k=3)]
    with Corpus.open(tmp_path / "index", search=SearchConfig(bibliography_weight=0.0)) as corpus:
        assert [(h.chunk.chunk_id, round(h.score, 6)) for h in corpus.search(asked, k=3)] == kept


def test_a_paper_with_no_references_heading_is_untouched(tmp_path, cache_dir):
    root = tmp_path / "one"
    root.mkdir()
    (root / "heaps.pdf").write_bytes(paper_pdf([_page(HEAP, "Skew Heaps for Schedulers")]))
    doc = load_documents(root).documents[0]
    assert not any(is_section(p.section) for p in doc.parts)
    assert doc.text == load_documents(root, paper_references=False).documents[0].text
    config = CorpusConfig(embedding_cache=str(cache_dir), chroma=False)
    Corpus.build(root, tmp_path / "index", config=config, progress=False).close()
    runs = []
    for weight in (0.0, 0.9):
        with Corpus.open(tmp_path / "index", search=SearchConfig(bibliography_weight=weight)) as corpus:
            runs.append([(h.chunk.chunk_id, round(h.score, 6)) for h in corpus.search("What is a skew heap?", k=3)])
    assert runs[0] == runs[1]


def test_references_in_one_column_of_a_two_column_page(tmp_path):
    # the list opens halfway down the right column, beside the left column's prose
    left = ["Tarn is a file system for tape libraries that", "batches its writes in large runs. Its catalogue",
            "lives in memory and is written to a spare tape", "every hour. Recovery reads the spare tape back",
            "and replays the writes made since that hour.", "A run is a sequence of writes to one tape file.",
            "Runs are closed when the tape drive is full and", "a new tape is mounted by the library robot arm."]
    right = ["The second part of this column lists the work", "that Tarn builds on, in the order it is cited.",
             "References", "[1] A. Marsh. Skew heaps and tapes in libraries.",
             "J. Trees, 4(2):1-9, 1991, with a second note.", "[2] B. Reed. Merging spines of tapes and runs.",
             "Proc. Heaps, pages 1-20, 1993, in the library.", "[3] C. Lund. Tape is all you need for a library."]
    path = tmp_path / "tarn.pdf"
    path.write_bytes(paper_pdf([two_column_page(left, right, head=[(150.0, 50.0, "Tarn: A Tape File System", 16.0)])]))
    doc = read_pdf_document(path)
    cited = "\n".join(doc.text[p.start:p.end] for p in doc.parts if is_section(p.section))
    body = "\n".join(doc.text[p.start:p.end] for p in doc.parts if not is_section(p.section))
    assert "[1] A. Marsh" in cited and "[3] C. Lund" in cited
    assert "A run is a sequence of writes to one tape file." in body and "that Tarn builds on" in body
    assert "Tarn is a file system" not in cited and "robot arm" not in cited


# ---------------------------------------------------------------- one reading for every caller


def test_load_documents_reads_a_pdf_as_context1_index_does(tmp_path):
    root = _folder(tmp_path)
    indexed = ReadOptions.from_config(CorpusConfig())  # what `context1 index` reads with
    direct = load_documents(root).documents
    as_index = load_documents(root, **dataclasses.asdict(indexed)).documents
    assert [(d.title, d.text, d.parts) for d in direct] == [(d.title, d.text, d.parts) for d in as_index]
    assert ReadOptions().pdf_columns is CorpusConfig().pdf_columns is True
    assert ReadOptions().paper_references is CorpusConfig().paper_references is True
    assert [d.title for d in direct] == ["Skew Heaps for Schedulers", "Tarn: A Tape File System"]  # the page's title
    # the old reading, asked for explicitly
    assert [d.title for d in load_documents(root, pdf_columns=False).documents] != [d.title for d in direct]


def test_config_flags(tmp_path):
    assert CorpusConfig.from_dict({}).paper_references is False  # an index built before reads as before
    assert ReadOptions.from_config(CorpusConfig(paper_references=False)).paper_references is False
    with pytest.raises(ValueError, match="paper_references"):
        CorpusConfig(paper_references="yes")
    for bad in (1.0, -0.1, True):
        with pytest.raises(ValueError, match="bibliography_weight"):
            SearchConfig(bibliography_weight=bad)


# ---------------------------------------------------------------- bad input


def test_heading_shapes():
    assert all(is_heading(x) for x in ("References", "REFERENCES", "5 References", "7. Bibliography", "§9 References",
                                       "Literature Cited"))
    # a sentence broken before its last word, a heading naming more than the list, an empty line
    assert not any(is_heading(x) for x in ("references", "the References", "References and Notes on Tapes", ""))
    assert is_section("Tarn > References") and not is_section(None) and not is_section("Reference Counting")


def test_citation_lists_and_numbered_steps():
    assert reads_as_citations("[1] A. Marsh. Skew heaps. J. Trees, 1991.\n[2] B. Reed. Spines. Proc. Heaps, 1993.\n"
                              "[3] C. Lund. Tape. Tree Letters, 1996.")
    # a numbered list of steps names no years
    assert not reads_as_citations("1. Read the tape.\n2. Replay the writes.\n3. Write the catalogue.\n4. Done.")
    assert asks_for_references("Which papers does Tarn cite?") and not asks_for_references("What is a skew heap?")


def test_a_filing_with_a_references_line_is_read_as_before(tmp_path):
    lines = ["PART I", "Item 1. Financial Statements", "Revenue rose in the quarter.", "References",
             "Item 2. Management's Discussion", "Costs fell."]
    path = tmp_path / "q.pdf"
    path.write_bytes(paper_pdf([[(60.0, 100.0 + 12 * i, line, 9.0) for i, line in enumerate(lines)]]))
    assert read_pdf_document(path).parts == read_pdf_document(path, references=False).parts


def test_an_empty_and_a_scanned_paper(tmp_path):
    (tmp_path / "scan.pdf").write_bytes(paper_pdf([[]]))
    (tmp_path / "only.pdf").write_bytes(paper_pdf([_page(["References"], "Nothing Cited")]))
    report = load_documents(tmp_path)
    assert [s.path for s in report.skipped] == ["scan.pdf"]
    (doc,) = report.documents  # a heading with no list after it is read, not refused: its section is the heading's
    assert [p.section for p in doc.parts if is_section(p.section)] == ["References"]


def test_cli_add_reads_as_the_index_was_built(tmp_path, cache_dir):
    import typer
    from typer.testing import CliRunner

    from context1.interfaces import cli_corpus

    first = tmp_path / "first"
    first.mkdir()
    (first / "heaps.pdf").write_bytes(paper_pdf([_page(HEAP, "Skew Heaps for Schedulers")]))
    config = CorpusConfig(embedding_cache=str(cache_dir), chroma=False)  # columns and references on, as by default
    Corpus.build(first, tmp_path / "index", config=config, progress=False).close()
    more = tmp_path / "more"
    more.mkdir()
    (more / "tarn.pdf").write_bytes(paper_pdf([_page(CITING, "Tarn: A Tape File System")]))
    app = typer.Typer(pretty_exceptions_enable=False)
    cli_corpus.register(app)
    runner = CliRunner(env={"COLUMNS": "200", "HF_HUB_OFFLINE": "1", "HOME": str(tmp_path / "home")})
    result = runner.invoke(app, ["add", str(tmp_path / "index"), str(more), "--no-progress"])
    assert result.exit_code == 0, result.output
    with Corpus.open(tmp_path / "index") as corpus:
        assert corpus.title("tarn.pdf") == "Tarn: A Tape File System"  # the page's title, as `index` reads it
        assert any(is_section(c.metadata.get("section")) for c in corpus.chunks("tarn.pdf"))
