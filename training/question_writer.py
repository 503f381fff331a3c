"""The learned question writer: SmolLM2 with a LoRA adapter that drafts a question (or a claim)
from a passage, trained by the project's SFT loop (`training.sft.train_sft_datums`).

Pairs come only from the *tuning part* of the benchmark files in ../shared/data (the same 25 % /
75 % split by a hash of the question id that benchmarks/reranker_quality.py reports on), so no
question of a reporting part is ever seen:

- HotpotQA: the supporting sentences ("Title: sentence") and the answer → the question (yes/no
  answers left out: a passage cannot show them);
- MuSiQue: each hop of the decomposition (its supporting paragraph's sentences that hold the hop's
  answer, the answer) → the hop's single-hop question, "#1" replaced by the earlier hop's answer;
- SciFact: a claim's evidence sentences of its cited abstract → the claim (form "claim": no answer).

The folder a run writes is the training run's (checkpoint/, metrics.jsonl, adapter/) plus
`writer.json`: the format name, the prompt templates, the base model and the pair counts.
`datagen.writer` reads that file (datagen cannot import training), so the prompts the adapter was
trained on travel with it.

    pairs = writer_pairs("../shared/data")
    train_writer(pairs, "runs/writer", WriterTrainConfig())
"""

from __future__ import annotations

import csv
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from training.policy import LoRAConfig
from training.sft import SFTConfig, SFTResult
from training.splits import part_of

WRITER_FORMAT = "context1-question-writer"
WRITER_VERSION = 1
WRITER_FILE = "writer.json"
# {passage} is "Title: sentence" lines; {answer} the answer span (question form only).
PROMPTS = {
    "question": "Passage:\n{passage}\nAnswer: {answer}\nWrite the question, as a person would ask it, "
    "that this answer answers. Do not copy the passage.",
    "claim": "Passage:\n{passage}\nWrite a short claim, in your own words, that this passage supports or refutes.",
}
MAX_PASSAGE_WORDS = 90
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


@dataclass(frozen=True)
class WriterPair:
    """One training pair: the prompt's fields and the text the writer must produce."""

    form: str  # "question" or "claim"
    passage: str
    answer: str
    target: str
    source: str  # "hotpotqa:<file>", …
    question_id: str


def prompt_text(form: str, passage: str, answer: str = "") -> str:
    return PROMPTS[form].format(passage=passage, answer=answer)


def clip_words(text: str, n: int = MAX_PASSAGE_WORDS) -> str:
    words = text.split()
    return text if len(words) <= n else " ".join(words[:n]) + " …"


def writer_pairs(data_dir: str | Path, *, part: str = "tune") -> list[WriterPair]:
    """Every pair of the given part (only "tune" is meant for training) of the three corpora."""
    data = Path(data_dir)
    pairs = [*_hotpotqa(data / "hotpotqa"), *_musique(data / "musique"), *_scifact(data / "scifact")]
    return [p for p in pairs if part_of(p.question_id) == part]


def _question_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith("_corpus.json"))


def _hotpotqa(folder: Path) -> Iterable[WriterPair]:
    for path in _question_files(folder):
        for i, rec in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            qid = str(rec.get("id") or rec.get("_id") or f"{path.stem}:{i}")  # eval.loaders.hotpotqa's ids
            answer = str(rec["answer"]).strip()
            if answer.lower() in ("yes", "no") or not answer:
                continue
            context = rec["context"]
            if isinstance(context, dict):
                paragraphs = dict(zip(context["title"], context["sentences"], strict=True))
            else:
                paragraphs = {t: s for t, s in context}
            facts = rec["supporting_facts"]
            if isinstance(facts, dict):
                facts = list(zip(facts["title"], facts["sent_id"], strict=True))
            lines = [
                f"{t}: {paragraphs[t][k].strip()}" for t, k in facts if t in paragraphs and k < len(paragraphs[t])
            ]
            if lines:
                yield WriterPair("question", clip_words("\n".join(lines)), answer, str(rec["question"]).strip(),
                                 f"hotpotqa:{path.name}", qid)


def _musique(folder: Path) -> Iterable[WriterPair]:
    for path in _question_files(folder):
        for i, rec in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            qid = str(rec.get("id") or f"{path.stem}:{i}")  # eval.loaders.musique's ids
            answers: list[str] = []
            for step in rec.get("question_decomposition") or []:
                answer = str(step["answer"]).strip()
                question = _resolve(str(step["question"]), answers)
                answers.append(answer)
                para = rec["paragraphs"][int(step["paragraph_support_idx"])]
                held = [s for s in _SENTENCE.split(para["paragraph_text"]) if answer.lower() in s.lower()]
                if not held or not question or "#" in question:
                    continue
                question = question[:1].upper() + question[1:].rstrip(" ?") + "?"
                passage = "\n".join(f"{para['title']}: {s.strip()}" for s in held[:2])
                yield WriterPair("question", clip_words(passage), answer, question, f"musique:{path.name}", qid)


def _resolve(question: str, answers: Sequence[str]) -> str:
    """A decomposition step with "#k" replaced by hop k's answer (left as is when there is none)."""

    def nth(m: re.Match[str]) -> str:
        k = int(m.group(1))
        return answers[k - 1] if 0 < k <= len(answers) else m.group(0)

    return re.sub(r"#(\d+)", nth, question).strip()


def _scifact(folder: Path) -> Iterable[WriterPair]:
    from eval.loaders.beir import parse_sentence_list

    corpus_path, claims = folder / "corpus.csv", sorted(folder.glob("claims*.csv"))
    if not corpus_path.is_file() or not claims:
        return
    with corpus_path.open(encoding="utf-8", newline="") as fh:
        abstracts = {
            row["doc_id"].strip(): ((row.get("title") or "").strip(), parse_sentence_list(row.get("abstract", "")))
            for row in csv.DictReader(fh)
        }
    for path in claims:
        with path.open(encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                doc = (row.get("evidence_doc_id") or "").strip()
                ids = [int(x) for x in re.findall(r"\d+", row.get("evidence_sentences") or "")]
                if doc not in abstracts or not ids:
                    continue
                title, sentences = abstracts[doc]
                held = [sentences[k].strip() for k in ids if k < len(sentences)]
                if held:
                    passage = "\n".join(f"{title}: {s}" for s in held[:2])
                    yield WriterPair("claim", clip_words(passage), "", str(row["claim"]).strip(),
                                     f"scifact:{path.name}", str(row["id"]).strip())


@dataclass(frozen=True)
class WriterTrainConfig:
    """The writer's SFT: one epoch of batches of 8 (~25 s a step on one loaded CPU thread: 68 steps of
    the 539 tuning-part pairs in ~30 min); short prompts, so no gradient checkpointing."""

    sft: SFTConfig = field(
        default_factory=lambda: SFTConfig(
            lr=2e-4, epochs=1, batch_size=8, checkpoint_every=5, lora=LoRAConfig(rank=16, alpha=32, gradient_checkpointing=False)
        )
    )
    max_new_tokens: int = 48


def writer_datums(pairs: Sequence[WriterPair], tokenizer: Any) -> list[Any]:
    """One SFT datum per pair: the chat-rendered prompt (masked), then the target and end-of-turn."""
    from training.datums import chat_reply_ids, turns_to_datums

    datums = []
    for i, pair in enumerate(pairs):
        prompt_ids, reply_ids = chat_reply_ids(tokenizer, prompt_text(pair.form, pair.passage, pair.answer), pair.target)
        datums += turns_to_datums([(prompt_ids, reply_ids, None)], 1.0, i)
    return datums


def write_writer_file(out: str | Path, pairs: Sequence[WriterPair], config: WriterTrainConfig,
                      model_path: str | Path | None) -> Path:
    """OUT/writer.json: what `datagen.writer` needs to use the adapter in OUT/adapter."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    info = {
        "format": WRITER_FORMAT,
        "version": WRITER_VERSION,
        "base_model": str(model_path) if model_path is not None else None,
        "adapter": "adapter",
        "prompts": PROMPTS,
        "max_new_tokens": config.max_new_tokens,
        "pairs": dict(Counter(f"{p.source.split(':')[0]}:{p.form}" for p in pairs)),
        "questions": len({(p.source.split(":")[0], p.question_id) for p in pairs}),
        "part": "tune",
        "sft": {k: v for k, v in asdict(config.sft).items() if k != "selection"},
    }
    path = out / WRITER_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(info, indent=2), encoding="utf-8")
    tmp.replace(path)
    return path


def train_writer(
    pairs: Sequence[WriterPair],
    out: str | Path,
    config: WriterTrainConfig = WriterTrainConfig(),
    *,
    model_path: str | Path | None = None,
    resume: bool = False,
    progress: bool = True,
    policy: Any = None,
) -> SFTResult:
    """LoRA SFT of the writer on `pairs` into OUT (resumable: OUT/checkpoint); writes OUT/writer.json."""
    from training.sft import sft_policy, train_sft_datums

    if not pairs:
        raise ValueError("no writer pairs: check the data folder (HotpotQA, MuSiQue, SciFact files)")
    if policy is None:
        policy = sft_policy(config.sft, model_path, None)
    datums = writer_datums(pairs, policy.tokenizer)
    write_writer_file(out, pairs, config, model_path)
    return train_sft_datums(datums, out, config.sft, policy, resume=resume, progress=progress)
