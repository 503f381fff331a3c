"""The generation loop over mined chunks: append-only output, resume, exclusion, stopping, split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from datagen_fixtures import as_chunks, fixture_documents

from corpus_tools.types import Task
from datagen.mining import mine
from datagen.offline import OfflineConfig, OfflineGenerator
from datagen.pipeline import GenerateConfig, generate, parse_hops
from datagen.records import TaskWriter, read_task_file
from datagen.split import split_tasks, tasks_without
from eval.loaders.tasks import load_tasks


def run(chunks, out: Path, n: int, hops=(1, 2, 3), seed: int = 0, exclude=(), uses: int = 2, **kw):  # noqa: ANN001, ANN201
    mined = mine(chunks, exclude=exclude)
    gen = OfflineGenerator(mined, OfflineConfig(max_doc_uses=uses))
    config = GenerateConfig(n=n, hops=tuple(hops), seed=seed, exclude_doc_ids=frozenset(exclude), patience=40, **kw)
    return generate(gen, mined, out, config)


def test_tasks_are_written_verified_and_readable_by_eval(chunks, tmp_path: Path) -> None:  # noqa: ANN001
    out = tmp_path / "tasks.jsonl"
    report = run(chunks, out, n=8)
    assert report.written == 8 and report.stopped == "reached n=8"
    assert report.attempted == report.written + sum(report.drops.values())
    bench = load_tasks(out)  # what `context1 eval --benchmark out` reads
    assert len(bench.tasks) == 8 and not bench.notes
    for task in bench.tasks:
        assert task.task_id.startswith("gen-")
        assert task.hops == len(task.gold_doc_ids) and task.hops in (1, 2, 3)
        assert task.gold_chunk_ids and all(c.split("#")[0] in task.gold_doc_ids for c in task.gold_chunk_ids)
        assert len(task.facts) == task.hops and task.answers
        meta = task.metadata
        assert meta["truth_type"] in ("date", "number", "entity")
        assert len(meta["clues"]) == task.hops and len(meta["supporting"]) == task.hops
        assert all(item["quotes"] for item in meta["supporting"])
        assert task.answers[0] not in task.query
    assert set(report.by_hops) <= {1, 2, 3} and sum(report.by_hops.values()) == 8


def test_a_rerun_resumes_without_duplicates(chunks, tmp_path: Path) -> None:  # noqa: ANN001
    out = tmp_path / "tasks.jsonl"
    run(chunks, out, n=4)
    first = out.read_text(encoding="utf-8")
    again = run(chunks, out, n=3)
    assert again.existing == 4 and again.written == 3
    assert out.read_text(encoding="utf-8").startswith(first)  # nothing rewritten
    ids = [t.task_id for t in read_task_file(out)]
    assert len(ids) == 7 == len(set(ids))


def test_a_killed_run_loses_only_its_partial_line(chunks, tmp_path: Path) -> None:  # noqa: ANN001
    out = tmp_path / "tasks.jsonl"
    run(chunks, out, n=3)
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join(lines) + "\n" + lines[0][:37], encoding="utf-8")  # killed mid-write
    assert len(read_task_file(out)) == 3
    report = run(chunks, out, n=2)
    assert report.existing == 3 and report.written == 2
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 5 and len({r["task_id"] for r in rows}) == 5


def test_a_corrupt_line_in_the_middle_is_an_error_not_a_silent_loss(tmp_path: Path) -> None:
    out = tmp_path / "tasks.jsonl"
    out.write_text('{"task_id": "a", "query": "q"}\nnot json\n{"task_id": "b", "query": "q"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="not a JSON task line"):
        TaskWriter(out)


def test_n_too_large_stops_with_what_it_found_and_why(chunks, tmp_path: Path) -> None:  # noqa: ANN001
    out = tmp_path / "tasks.jsonl"
    report = run(chunks, out, n=500, hops=(3,), uses=1)
    assert 0 < report.written < 500
    assert "cannot yield more" in report.stopped and "n=500" in report.stopped
    assert len(read_task_file(out)) == report.written


def test_a_corpus_without_links_yields_no_multi_hop_task(chunks, tmp_path: Path) -> None:  # noqa: ANN001
    lonely = [c for c in chunks if c.doc_id in ("salt-weather", "gull-point-lighthouse")]
    report = run(lonely, tmp_path / "t.jsonl", n=5, hops=(2,))
    assert report.written == 0 and report.drops["no_chain_found"] == 40
    assert "cannot yield more" in report.stopped


def test_an_empty_corpus_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no documents"):
        run([], tmp_path / "t.jsonl", n=1)


def test_excluded_documents_never_support_a_task(chunks, tmp_path: Path) -> None:  # noqa: ANN001
    banned = ["kestrel-institute", "ilsa-venn"]
    out = tmp_path / "tasks.jsonl"
    run(chunks, out, n=10, hops=(1, 2), exclude=banned, uses=3)
    tasks = read_task_file(out)
    assert tasks and not {d for t in tasks for d in t.gold_doc_ids} & set(banned)
    assert tasks_without(tasks, banned) == tasks


def test_non_english_documents_give_tasks(tmp_path: Path) -> None:
    german = [d for d in fixture_documents() if d.doc_id in ("uhrturm-zurich", "hans-brandli", "kyoto-bell")]
    out = tmp_path / "tasks.jsonl"
    report = run(as_chunks(german), out, n=3, hops=(1,), uses=3)
    assert report.written >= 1
    answers = {a for t in read_task_file(out) for a in t.answers}
    assert answers & {"1538", "1501", "2.400", "Jörg Stüssi", "Hans Brändli", "Meister Jörg Stüssi"}


def test_split_has_no_supporting_document_on_both_sides(chunks, tmp_path: Path) -> None:  # noqa: ANN001
    out = tmp_path / "tasks.jsonl"
    run(chunks, out, n=20, hops=(1, 2, 3), uses=4)
    tasks = read_task_file(out)
    split = split_tasks(tasks, test_fraction=0.3, seed=1)
    train_docs = {d for t in split.train for d in t.gold_doc_ids}
    assert not train_docs & split.test_doc_ids()
    assert len(split.train) + len(split.test) + len(split.dropped) == len(tasks)
    assert split.test and split.train
    assert split_tasks(tasks, 0.3, seed=1) == split  # deterministic


def test_a_component_larger_than_the_test_side_is_cut_at_one_place_not_scattered() -> None:
    # One conversation whose tasks link its sessions in a row (task i reads sessions i and i + 1): every task
    # hangs together, so the test side must be cut out of it. A test side grown in one piece drops only the
    # tasks at its two edges; test tasks picked in a shuffled order dropped 10-20 of these 40.
    tasks = [
        Task(task_id=f"t{i}", query=f"What did Maria do in session {i}?", answers=[f"thing {i}"],
             gold_doc_ids=[f"session-{i}", f"session-{i + 1}"])
        for i in range(40)
    ]
    for seed in range(6):
        split = split_tasks(tasks, test_fraction=0.2, seed=seed)
        assert not split.leaks()
        assert len(split.test) == 8
        assert len(split.dropped) <= 2, (seed, len(split.dropped))
        assert split_tasks(tasks, 0.2, seed=seed) == split


def test_parse_hops() -> None:
    assert parse_hops("2-4") == (2, 3, 4)
    assert parse_hops("1,3") == (1, 3)
    for bad in ("0-2", "5", "two"):
        with pytest.raises(ValueError, match="hops"):
            parse_hops(bad)


def test_a_task_whose_hops_are_passages_is_solved_only_when_one_search_finds_its_passages() -> None:
    # session 56: a join across two workbooks (datagen.grid_joins) names the first workbook and the asked column, so
    # one search finds both workbooks (71 of 72 joins of a tuning folder) while the second workbook's row, reached
    # only through the key the first row gives, sits in the search's top 10 chunks for about half of them
    from types import SimpleNamespace

    from datagen.pipeline import _LazyLegs, lexical_hit, one_search_solves
    from datagen.types import HOP_UNIT, PASSAGE_HOPS, Candidate, SupportingItem

    def hits(*chunk_ids: str) -> list:
        return [SimpleNamespace(chunk=SimpleNamespace(chunk_id=c, doc_id=c.split("#")[0])) for c in chunk_ids]

    # both workbooks in the top 10; the first's order row too, the customer's row (cust#7) not among the top chunks
    ranking = hits("orders#0", "cust#0", "cust#1", "cust#2", "orders#1", "cust#3", "cust#4", "cust#5", "cust#6", "x#0",
                   "cust#7")

    def legs() -> _LazyLegs:
        return _LazyLegs({"hybrid": lambda: ranking, "bm25": lambda: ranking})

    supporting = (SupportingItem("orders", ("orders#0",)), SupportingItem("cust", ("cust#7",)))
    by_document = Candidate("q", "a", supporting, hops=2)
    by_passage = Candidate("q", "a", supporting, hops=2, metadata={HOP_UNIT: PASSAGE_HOPS})
    assert one_search_solves(by_document, legs()) and lexical_hit(by_document, legs())
    assert not one_search_solves(by_passage, legs()) and not lexical_hit(by_passage, legs())
    # a row cut over two chunks is found by either
    either = Candidate("q", "a", (supporting[0], SupportingItem("cust", ("cust#7", "cust#2"))), hops=2,
                       metadata={HOP_UNIT: PASSAGE_HOPS})
    assert one_search_solves(either, legs())
    # a searcher that gives documents alone (a plain mapping) is read by document
    assert one_search_solves(by_passage, {"hybrid": ["orders", "cust"]})
