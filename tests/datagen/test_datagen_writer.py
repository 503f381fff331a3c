"""The learned question writer in `context1 datagen`: drafts pass the same verifier, bad drafts are
dropped with their reason, drafts are cached for a resumed run, a bad folder is a clear error; and the
real SmolLM2 writer, trained by the project's SFT loop, drafts through the same path."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from context1.backends.scripted import ScriptedBackend
from datagen.cli import register
from datagen.pipeline import GenerateConfig
from datagen.run import run_datagen
from datagen.writer import WRITER_FORMAT, WriterFolderError, copies, read_writer_folder

PROMPTS = {"question": "Passage:\n{passage}\nAnswer: {answer}\nAsk.", "claim": "Passage:\n{passage}\nClaim."}


def writer_folder(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "writer.json").write_text(json.dumps({"format": WRITER_FORMAT, "version": 1, "prompts": PROMPTS}))
    return root


class Drafts:
    """A scripted writer that answers each prompt in turn: good, leaking, copying, not a question."""

    def __init__(self) -> None:
        self.calls = 0
        self.good: set[str] = set()

    def __call__(self, messages):  # noqa: ANN001, ANN204
        prompt = messages[-1].content
        title, sentence = re.search(r"Passage:\n(.*?): (.*)\n", prompt).groups()
        answer = re.search(r"Answer: (.*)\n", prompt).group(1)
        kind = self.calls % 4
        self.calls += 1
        if kind == 0:
            draft = f"What does the record of {title} say, case {self.calls}?"
            self.good.add(draft)
            return draft
        if kind == 1:
            return f"Is it {answer}?"
        if kind == 2:
            return sentence.rstrip(".") + "?"
        return "This is a statement."


def test_scripted_writer_drafts_pass_the_verifier_and_bad_ones_are_counted(datagen_index: Path, tmp_path: Path) -> None:
    folder = writer_folder(tmp_path / "writer")
    drafts = Drafts()
    config = GenerateConfig(n=4, hops=(1,), seed=3, patience=40)
    report, _ = run_datagen(datagen_index, tmp_path / "out", config, backend=ScriptedBackend([drafts] * 200),
                            writer=folder, progress=False)
    tasks = [json.loads(line) for line in (tmp_path / "out" / "tasks.jsonl").read_text().splitlines()]
    assert report.written == len(tasks) >= 3
    assert all(t["query"] in drafts.good for t in tasks)
    assert all(t["metadata"]["form"] == "single" and t["hops"] == 1 for t in tasks)
    drops = report.drops
    assert drops["answer_leaks_into_question_or_clues"] >= 1
    assert drops["copies_its_passage"] >= 1
    assert drops["malformed_model_output"] >= 1
    assert report.stages["writer:not_a_question"] >= 1 and report.stages["writer:copies_passage"] >= 1
    assert report.attempted == report.written + sum(drops.values())

    # The same run again over the cached drafts asks the model nothing (an empty script would raise).
    out2 = tmp_path / "out2"
    out2.mkdir()
    (out2 / "drafts.jsonl").write_text((tmp_path / "out" / "drafts.jsonl").read_text())
    report2, _ = run_datagen(datagen_index, out2, config, backend=ScriptedBackend([]), writer=folder, progress=False)
    first = report.stages["writer:drafted"] + report.stages["writer:cached"]
    assert report.stages["writer:drafted"] == drafts.calls
    assert report2.stages["writer:cached"] == first and report2.stages["writer:drafted"] == 0
    assert [json.loads(line)["query"] for line in (out2 / "tasks.jsonl").read_text().splitlines()] == [
        t["query"] for t in tasks
    ]


def test_copies_is_a_long_run_of_the_passage() -> None:
    sentence = "Marrow Lighthouse was lit for the first time in 1862 on the northern cape."
    assert copies("Was Marrow Lighthouse lit for the first time in 1862 on the northern cape?", sentence, 0.7)
    assert not copies("When was Marrow Lighthouse first lit?", sentence, 0.7)


def test_bad_writer_folders_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no question-writer folder"):
        read_writer_folder(tmp_path / "absent")
    (tmp_path / "foreign").mkdir()
    with pytest.raises(WriterFolderError, match="not a question-writer folder"):
        read_writer_folder(tmp_path / "foreign")
    (tmp_path / "foreign" / "writer.json").write_text(json.dumps({"format": "context1-learned-fusion"}))
    with pytest.raises(WriterFolderError, match="not a question writer's file"):
        read_writer_folder(tmp_path / "foreign")
    (tmp_path / "foreign" / "writer.json").write_text("{cut")
    with pytest.raises(WriterFolderError, match="damaged"):
        read_writer_folder(tmp_path / "foreign")


def test_the_cli_refuses_bad_writer_options(datagen_index: Path, tmp_path: Path) -> None:
    import eval.cli

    app = typer.Typer()
    register(app)
    eval.cli.register(app)  # two commands, so `datagen` is a subcommand

    def run(*args: str):  # noqa: ANN202
        return CliRunner().invoke(app, ["datagen", str(datagen_index), str(tmp_path / "o"), "--no-progress", *args])

    folder = writer_folder(tmp_path / "w")
    cases = {
        ("--writer", "learned"): "--writer-model",
        ("--writer", "learned", "--writer-model", str(tmp_path / "absent"), "--hops", "1"): "no question-writer folder",
        ("--writer", "learned", "--writer-model", str(tmp_path), "--hops", "1"): "not a question-writer folder",
        ("--writer", "learned", "--writer-model", str(folder), "--hops", "2-3"): "--hops 1",
        ("--writer-model", str(folder)): "--writer learned",
        ("--writer", "gpt"): "unknown --writer",
    }
    for args, message in cases.items():
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output


def test_the_real_writer_trained_by_the_sft_loop_drafts_through_datagen(
    smollm2: Path, datagen_index: Path, tmp_path: Path
) -> None:
    from dataclasses import replace

    from training.question_writer import WriterPair, WriterTrainConfig, train_writer

    pair = WriterPair("question", "Marrow Lighthouse: Marrow Lighthouse was lit for the first time in 1862.",
                      "1862", "When was Marrow Lighthouse first lit?", "test", "q1")
    config = WriterTrainConfig()
    config = replace(config, max_new_tokens=16, sft=replace(config.sft, lr=1e-3, batch_size=1, max_steps=4))
    result = train_writer([pair] * 4, tmp_path / "writer", config, model_path=smollm2, progress=False)
    losses = [json.loads(line)["loss"] for line in (tmp_path / "writer" / "metrics.jsonl").read_text().splitlines()]
    assert result.steps == 4 and losses[-1] < losses[0]  # the loop trained the adapter on the pair
    info = read_writer_folder(tmp_path / "writer")
    assert info["base_model"] == str(smollm2) and info["pairs"] == {"test:question": 4}

    out = tmp_path / "out"
    report, _ = run_datagen(datagen_index, out, GenerateConfig(n=1, hops=(1,), seed=0, patience=3),
                            writer=tmp_path / "writer", progress=False)
    assert report.stages["writer:drafted"] >= 1
    assert report.attempted == report.written + sum(report.drops.values())
    assert (out / "drafts.jsonl").read_text().count('"draft"') == report.stages["writer:drafted"]
