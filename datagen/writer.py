"""The learned question writer in datagen: a model drafts the question (or claim) for a passage that
the generator chose, and the draft goes through the same pipeline as the templates' questions.

The generator picks a document not yet used up, then
- form "question": an answer span of one of its sentences (`MinedCorpus.answers`: a date, a number or
  a name) whose kind occurs once in that sentence, so the sentence determines which span is asked
  for; the writer gets "Title: sentence" and the answer;
- form "claim" (scientific abstracts, as SciFact's claims): a sentence of the abstract's second half
  (results and conclusions) of 10-60 words; the task's answer is that evidence sentence itself.

A draft is dropped before verification, and counted, when it is empty, cut off by the token limit
or over `max_words` (`malformed_model_output`), when a question does not end in "?" (`malformed_model_output`), or when
it copies its passage (`copies_its_passage`: a run of the passage's words, title included, makes up
most of the draft). The pipeline then applies the verifier (the answer in the gold chunk, never in the
question), the duplicate check, and the one-search filter and lexical budget where the form has
them, exactly as for the templates. Stages count each outcome ("writer:drafted", "writer:cached",
"writer:not_a_question", …).

The model is any `Backend` (one user message in, text out): the transformers backend with the
folder's adapter (`writer_backend`), or the scripted backend in tests. The folder is what
`training.question_writer.train_writer` wrote: writer.json (format, prompts) + adapter/. Drafts are
cached in OUT/drafts.jsonl by (adapter, prompt), so a resumed or extended run drafts nothing twice.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from context1.backends.entities import longest_run
from datagen.mining import MinedCorpus, word_keys
from datagen.types import Candidate, DropReason, SupportingItem, TruthType
from datagen.verify import contains, date_aliases

WRITER_FORMAT = "context1-question-writer"  # training.question_writer writes it (datagen cannot import training)
WRITER_FILE = "writer.json"
FORMS = ("question", "claim")
TRAIN_HINT = "train one with `context1 train writer OUT`"


class WriterFolderError(ValueError):
    """The --writer-model folder is not a question writer (missing, foreign or damaged)."""


def read_writer_folder(folder: str | Path) -> dict[str, Any]:
    """writer.json of a writer folder, checked; raises FileNotFoundError / WriterFolderError."""
    path = Path(folder)
    if not path.is_dir():
        raise FileNotFoundError(f"no question-writer folder at {str(path)!r}; {TRAIN_HINT}")
    info_path = path / WRITER_FILE
    if not info_path.is_file():
        raise WriterFolderError(f"{str(path)!r} is not a question-writer folder (no {WRITER_FILE}); {TRAIN_HINT}")
    try:
        info = json.loads(info_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise WriterFolderError(f"{str(info_path)!r} is damaged ({exc}); {TRAIN_HINT}") from None
    if not isinstance(info, dict) or info.get("format") != WRITER_FORMAT:
        raise WriterFolderError(f"{str(info_path)!r} is not a question writer's file (format != {WRITER_FORMAT!r})")
    prompts = info.get("prompts")
    if info.get("version") != 1 or not isinstance(prompts, dict) or not all(isinstance(p, str) for p in prompts.values()):
        raise WriterFolderError(f"{str(info_path)!r} has an unknown version or no prompts; {TRAIN_HINT}")
    return info


def writer_backend(folder: str | Path, model: str | Path | None = None, seed: int = 0) -> Any:
    """The transformers backend of the folder's base model (or `model`) with its adapter, greedy."""
    info = read_writer_folder(folder)
    adapter = Path(folder) / str(info.get("adapter") or "adapter")
    if not (adapter / "adapter_config.json").is_file():
        raise FileNotFoundError(f"the writer folder {str(folder)!r} has no adapter at {str(adapter)!r}; {TRAIN_HINT}")
    from context1.backends import make_backend

    base = model if model is not None else info.get("base_model")
    return make_backend(
        "transformers", model=str(base) if base else None, adapter=adapter, temperature=0.0,
        max_new_tokens=int(info.get("max_new_tokens") or 48), seed=seed, token_in_token_out=False,
    )


@dataclass(frozen=True)
class WriterConfig:
    """form: "question" or "claim". max_words: longer drafts are dropped. copy_share: a draft whose
    longest run of the passage's words is this share of its words (and ≥ 5 words) copies it.
    max_doc_uses: tasks one document may support. tries: documents tried per proposal."""

    form: str = "question"
    max_words: int = 40
    copy_share: float = 0.7
    max_doc_uses: int = 2
    tries: int = 20

    def __post_init__(self) -> None:
        if self.form not in FORMS:
            raise ValueError(f"the writer's form must be one of {FORMS}, got {self.form!r}")


class WriterGenerator:
    """Proposes single-hop candidates whose question a model drafted (see the module docstring)."""

    def __init__(
        self,
        mined: MinedCorpus,
        backend: Any,
        info: dict[str, Any],
        config: WriterConfig | None = None,
        *,
        cache: str | Path | None = None,
        adapter_id: str = "",
    ) -> None:
        self.mined = mined
        self.backend = backend
        self.config = config or WriterConfig()
        prompts = info.get("prompts") or {}
        if self.config.form not in prompts:
            raise WriterFolderError(f"this writer has no {self.config.form!r} prompt (it has {sorted(prompts)})")
        self.prompt = str(prompts[self.config.form])
        self.uses: Counter = Counter()
        self.stages: Counter = Counter()
        self.adapter_id = adapter_id
        self.cache_path = Path(cache) if cache is not None else None
        self.cache: dict[str, str] = {}
        if self.cache_path is not None and self.cache_path.is_file():
            for line in self.cache_path.read_text(encoding="utf-8").splitlines():
                try:
                    rec = json.loads(line)
                    self.cache[str(rec["key"])] = str(rec["draft"])
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut by a killed run
        if self.config.form == "question":
            self.docs = sorted(d for d, spans in mined.answers.items() if spans)
        else:
            self.docs = sorted(d for d, sents in mined.sentences.items() if self._claim_sentences(d))

    def commit(self, candidate: Candidate) -> None:
        for doc in candidate.doc_ids:
            self.uses[doc] += 1

    def propose(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        if hops != 1:
            return DropReason.NO_CHAIN  # the writer drafts single-hop questions and claims
        for _ in range(self.config.tries):
            pool = [d for d in self.docs if self.uses[d] < self.config.max_doc_uses]
            if not pool:
                return DropReason.NO_ANSWER_SPAN
            doc = rng.choice(pool)
            chosen = self._question_span(doc, rng) if self.config.form == "question" else self._claim_sentence(doc, rng)
            if chosen is not None:
                return self._draft(doc, *chosen)
        return DropReason.NO_ANSWER_SPAN

    # -- choosing what to ask ---------------------------------------------------------------------
    def _question_span(self, doc: str, rng: random.Random) -> tuple[Any, str, str] | None:
        title = self.mined.titles.get(doc, "")
        spans = self.mined.answers.get(doc, [])
        kinds = Counter((s.sentence, s.kind) for s in spans)
        usable = [
            s for s in spans
            if kinds[(s.sentence, s.kind)] == 1 and not (title and contains(title, s.text))
        ]
        if not usable:
            return None
        span = rng.choice(usable)
        return span.sentence, span.text, span.kind

    def _claim_sentences(self, doc: str) -> list[Any]:
        sents = self.mined.sentences.get(doc, [])
        later = sents[len(sents) // 2 :]
        return [s for s in later if 10 <= len(s.text.split()) <= 60]

    def _claim_sentence(self, doc: str, rng: random.Random) -> tuple[Any, str, str] | None:
        sents = self._claim_sentences(doc)
        if not sents:
            return None
        sent = rng.choice(sents)
        return sent, sent.text, TruthType.OTHER.value

    # -- drafting ---------------------------------------------------------------------------------
    def _draft(self, doc: str, sentence: Any, answer: str, kind: str) -> Candidate | DropReason:
        title = self.mined.titles.get(doc, "")
        passage = f"{title}: {sentence.text}" if title else sentence.text
        prompt = self.prompt.format(passage=passage, answer=answer if self.config.form == "question" else "")
        draft = self._generate(prompt)
        if draft is None:
            return DropReason.BACKEND_FAILED
        draft = " ".join(draft.split())
        words = draft.split()
        if not words or len(words) > self.config.max_words:
            self.stages["writer:too_long" if words else "writer:empty_or_cut_off"] += 1
            return DropReason.MALFORMED_OUTPUT
        if self.config.form == "question" and not draft.endswith("?"):
            self.stages["writer:not_a_question"] += 1
            return DropReason.MALFORMED_OUTPUT
        if copies(draft, passage, self.config.copy_share):
            self.stages["writer:copies_passage"] += 1
            return DropReason.COPIED_PASSAGE
        self.stages[f"writer:{self.config.form}"] += 1
        truth = TruthType(kind) if kind in TruthType._value2member_map_ else TruthType.ENTITY
        aliases = date_aliases(answer) if truth is TruthType.DATE else ()
        return Candidate(
            question=draft,
            answer=answer,
            aliases=aliases,
            supporting=(SupportingItem(doc, (sentence.chunk_id,), (sentence.text,), contains_truth=True),),
            hops=1,
            truth_type=truth,
            generator="writer",
            metadata={"form": "single" if self.config.form == "question" else "claim", "writer": self.adapter_id},
        )

    def _generate(self, prompt: str) -> str | None:
        from context1.types import Message, Role

        key = hashlib.sha256(f"{self.adapter_id}\n{prompt}".encode()).hexdigest()
        if key in self.cache:
            self.stages["writer:cached"] += 1
            return self.cache[key]
        try:
            turn = self.backend.generate([Message(role=Role.USER, content=prompt)], [])
        except Exception as exc:  # noqa: BLE001 - a failing model drops the draft, counted
            self.stages[f"writer:backend_failed:{type(exc).__name__}"] += 1
            return None
        self.stages["writer:drafted"] += 1
        text = (turn.text or "").strip()
        if turn.finish_reason == "length":
            text = ""  # cut off by the token limit: a fragment, never a question
        self.cache[key] = text
        if self.cache_path is not None:
            with self.cache_path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps({"key": key, "draft": text}) + "\n")
        return text


def copies(draft: str, source: str, share: float) -> bool:
    """Whether the draft's longest run of consecutive source words is ≥ `share` of its words (and ≥ 5)."""
    a, b = word_keys(draft), word_keys(source)
    if not a or not b:
        return False
    best = longest_run(a, b)
    return best >= 5 and best >= share * len(a)


def adapter_fingerprint(folder: str | Path) -> str:
    """A short hash of the adapter's weights (the drafts cache key): a retrained adapter drafts anew."""
    weights = Path(folder) / "adapter" / "adapter_model.safetensors"
    if not weights.is_file():
        return re.sub(r"\W+", "-", str(Path(folder).resolve()))[-40:]
    digest = hashlib.sha256()
    with weights.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]
