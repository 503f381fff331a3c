"""`context1 datagen` end to end on a real index: outputs, resume, exclusion, bad input, and eval on the result."""

from __future__ import annotations

import json
from importlib.metadata import entry_points
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from datagen.cli import register
from eval.loaders import load_beir, load_tasks


@pytest.fixture()
def app() -> typer.Typer:
    app = typer.Typer()
    register(app)
    import eval.cli

    eval.cli.register(app)
    return app


def datagen(app: typer.Typer, *args: str):  # noqa: ANN201
    """The command on the cloze fixture corpus (its invented names defeat the parse model's NER), unless a
    test names the form; the natural default is tested on its own fixture below."""
    form = [] if "--form" in args else ["--form", "cloze"]
    return CliRunner().invoke(app, ["datagen", *args, *form, "--no-progress"])


def test_registered_through_the_entry_point_group() -> None:
    eps = {ep.name: ep.value for ep in entry_points(group="context1.commands")}
    assert eps.get("datagen") == "datagen.cli:register"


def test_generate_resume_and_evaluate(app: typer.Typer, datagen_index: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = datagen(app, str(datagen_index), str(out), "--n", "4", "--hops", "1-2", "--seed", "3", "--keep-easy")
    assert result.exit_code == 0, result.output
    assert "4 new task(s)" in result.output and "stopped: reached n=4" in result.output
    for name in ("tasks.jsonl", "tasks-train.jsonl", "tasks-test.jsonl", "runs.jsonl", "README.md"):
        assert (out / name).is_file(), name
    tasks = load_tasks(out / "tasks.jsonl").tasks
    assert len(tasks) == 4
    hf = load_tasks(out / "hf").tasks  # the saved DatasetDict reads back as the same tasks
    assert sorted(t.task_id for t in hf) == sorted(
        t.task_id for t in load_tasks(out / "tasks-train.jsonl").tasks + load_tasks(out / "tasks-test.jsonl").tasks
    )
    assert {t.metadata["truth_type"] for t in hf} <= {"date", "number", "entity"}
    beir = load_beir(out / "beir", split="train")
    assert {t.task_id for t in beir.tasks} == {t.task_id for t in load_tasks(out / "tasks-train.jsonl").tasks}
    assert len(beir.documents) == 13
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "| hops | tasks |" in card and "Dropped candidates" in card and "offline" in card

    again = datagen(app, str(datagen_index), str(out), "--n", "2", "--hops", "1-2", "--seed", "3", "--keep-easy")
    assert again.exit_code == 0, again.output
    assert "2 new task(s)" in again.output and "(4 were already there)" in again.output
    ids = [json.loads(line)["task_id"] for line in (out / "tasks.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(ids) == 6 == len(set(ids))
    assert len((out / "runs.jsonl").read_text(encoding="utf-8").splitlines()) == 2

    runs = tmp_path / "runs" / "hybrid.jsonl"
    evaluated = CliRunner().invoke(
        app,
        ["eval", str(datagen_index), "--benchmark", str(out / "tasks.jsonl"), "--out", str(runs),
         "--retriever", "hybrid", "--max-documents", "5", "--no-progress"],
    )  # fmt: skip
    assert evaluated.exit_code == 0, evaluated.output
    assert "not in the index" not in evaluated.output
    records = [json.loads(line) for line in runs.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 6 and all(r["error"] is None for r in records)


def test_exclusion_keeps_test_documents_out(app: typer.Typer, datagen_index: Path, tmp_path: Path) -> None:
    banned = tmp_path / "banned.txt"
    banned.write_text("kestrel-institute\nilsa-venn\n", encoding="utf-8")
    out = tmp_path / "out"
    result = datagen(app, str(datagen_index), str(out), "--n", "3", "--hops", "1-2", "--exclude", str(banned), "--keep-easy")
    assert result.exit_code == 0, result.output
    docs = {d for t in load_tasks(out / "tasks.jsonl").tasks for d in t.gold_doc_ids}
    assert docs and not docs & {"kestrel-institute", "ilsa-venn"}


def test_bad_input_gets_one_clear_line(app: typer.Typer, datagen_index: Path, tmp_path: Path) -> None:
    missing = datagen(app, str(tmp_path / "nowhere"), str(tmp_path / "o1"))
    assert missing.exit_code == 2 and "error:" in missing.output and "Traceback" not in missing.output
    bad_hops = datagen(app, str(datagen_index), str(tmp_path / "o2"), "--hops", "3-6")
    assert bad_hops.exit_code == 2 and "hops must be between 1 and 4" in bad_hops.output
    file_out = tmp_path / "a-file"
    file_out.write_text("x", encoding="utf-8")
    as_file = datagen(app, str(datagen_index), str(file_out))
    assert as_file.exit_code == 2 and "is a file" in as_file.output
    no_script = datagen(app, str(datagen_index), str(tmp_path / "o3"), "--backend", "scripted")
    assert no_script.exit_code == 2 and "--script" in no_script.output
    bad_mix = datagen(app, str(datagen_index), str(tmp_path / "o4"), "--mix", "bridge=0.5")
    assert bad_mix.exit_code == 2 and "--mix takes comparison=SHARE" in bad_mix.output
    cloze_mix = datagen(app, str(datagen_index), str(tmp_path / "o5"), "--mix", "comparison=0.3")  # --form cloze
    assert cloze_mix.exit_code == 2 and "needs --form natural" in cloze_mix.output


def test_n_too_large_stops_with_what_it_found(app: typer.Typer, datagen_index: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = datagen(app, str(datagen_index), str(out), "--n", "400", "--hops", "4", "--keep-easy")
    assert result.exit_code == 0, result.output
    assert "cannot yield more" in result.output
    n = len((out / "tasks.jsonl").read_text(encoding="utf-8").splitlines())
    assert n < 400 and f"{n} new task(s)" in result.output


def test_an_empty_index_is_a_clear_error(app: typer.Typer, datagen_index: Path, tmp_path: Path) -> None:
    everything = tmp_path / "all.txt"
    everything.write_text("\n".join(json.loads(line)["doc_id"] for line in (
        Path(__file__).resolve().parents[1] / "fixtures" / "datagen_corpus" / "docs.jsonl"
    ).read_text(encoding="utf-8").splitlines()), encoding="utf-8")
    result = datagen(app, str(datagen_index), str(tmp_path / "out"), "--exclude", str(everything))
    assert result.exit_code == 2 and "holds no documents" in result.output


def test_the_default_form_is_natural_questions(app: typer.Typer, tmp_path: Path) -> None:
    from corpus_tools import Corpus, CorpusConfig

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "natural_corpus"
    Corpus.build(fixture, tmp_path / "index", config=CorpusConfig(embedding_cache=str(tmp_path / "c")), progress=False).close()
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["datagen", str(tmp_path / "index"), str(out), "--n", "5", "--hops", "1-2", "--keep-easy", "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    tasks = load_tasks(out / "tasks.jsonl").tasks
    assert len(tasks) == 5 and all(t.metadata["generator"] == "natural" for t in tasks)
    assert all(t.query.endswith("?") and "___" not in t.query for t in tasks)
    card = (out / "README.md").read_text(encoding="utf-8")
    assert "natural" in card
    cloze = datagen(app, str(tmp_path / "index"), str(tmp_path / "cloze"), "--n", "2", "--hops", "1", "--form", "cloze")
    assert cloze.exit_code == 0, cloze.output
    assert all("___" in t.query for t in load_tasks(tmp_path / "cloze" / "tasks.jsonl").tasks)
    bad = datagen(app, str(tmp_path / "index"), str(tmp_path / "x"), "--form", "poem")
    assert bad.exit_code == 2 and "form must be 'natural' or 'cloze'" in bad.output


def test_the_agent_explorer_needs_a_model_and_a_known_name(app: typer.Typer, datagen_index: Path, tmp_path: Path) -> None:
    offline = datagen(app, str(datagen_index), str(tmp_path / "a"), "--n", "1", "--explorer", "agent")
    assert offline.exit_code != 0 and "--explorer agent needs an LLM --backend" in offline.output
    script = tmp_path / "script.jsonl"
    script.write_text('{"text": "no"}\n')
    unknown = datagen(app, str(datagen_index), str(tmp_path / "b"), "--n", "1", "--backend", "scripted",
                      "--script", str(script), "--explorer", "walk")
    assert unknown.exit_code != 0 and "explorer must be 'mined' or 'agent'" in unknown.output
    assert not (tmp_path / "b" / "tasks.jsonl").exists()
