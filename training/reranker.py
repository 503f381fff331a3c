"""Train a cross-encoder reranker on an index's own generated tasks (issue 8; the GPL/InPars recipe).

    report = train_reranker("my_index", "tasks.jsonl", "my_reranker")   # a sentence-transformers folder
    Corpus.open("my_index", reranker="my_reranker")                     # or Corpus.build(..., reranker=...)

How it departs from the usual sentence-transformers recipe, and why:
- The model starts from the packaged all-MiniLM-L6-v2 *bi-encoder* weights (nothing can be downloaded
  here, so no MS MARCO cross-encoder to start from) with a fresh one-logit head on the *mean* of the
  token states (`head="mean"`), not on [CLS]: that model was trained with mean pooling, its [CLS]
  state is nearly constant across inputs, and a [CLS] head stayed at chance loss (ln 4) for 100+
  steps in the first runs (docs/LOG.md). The folder is a modular sentence-transformers CrossEncoder
  (Transformer → Pooling → Dense), loadable with `CrossEncoder(path)`. `head="cls"` keeps the
  classic BertForSequenceClassification head.
- Loss: listwise softmax cross-entropy over one positive and `negatives` hard negatives mined from
  the index's own fused ranking ("localized contrastive estimation", Gao, Dai & Callan, ECIR 2021):
  the reranker is trained on exactly the candidate pool it reorders at search time.
- Inverse cloze (Lee et al., ACL 2019): when a query is copied from its positive (stand-in windows,
  datagen's masked clue windows), the sentence of the positive that the query was cut from (the one
  sharing most of its words) is removed with probability `ict_probability`, so the model learns to
  match the query with the passage — its title, its other sentences — not to find a string.
- Training and search score pairs through one function, `corpus_tools.rerank.cross_encoder_scores`.
- A small loop instead of the HF Trainer: on a shared 2-core CPU the point is control over the
  time budget (`max_minutes`), validation cadence and the best-so-far weights, with one progress bar.

Validation: the positive's reciprocal rank within its own group (MRR over held-back tasks; 1/8 is
chance with 7 negatives), measured before training and every `eval_every` steps; training stops
after `patience` evaluations without improvement, and the best weights are the ones written.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import random
import re
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from corpus_tools.rerank import TRAINING_REPORT
from training.reranker_data import Group, PairReport, build_groups, split_groups

REPORT_FILE = TRAINING_REPORT  # training report written beside the weights (its config.max_length is served)
HEADS = ("mean", "cls")


class TooFewPairsError(ValueError):
    """The task file yields too few training groups for the index (nothing is written)."""


@dataclass(frozen=True)
class RerankerTrainConfig:
    """How `train_reranker` trains. Defaults sized for a 2-core CPU and a few thousand tasks.

    The defaults are the one recipe measured on SciFact, HotpotQA and MuSiQue (benchmarks/README.md,
    issue 8): 3 of MiniLM's 6 layers at 128 tokens, served int8, rerank 50 candidates in ~0.3 s p50 on
    2 cores, where all 6 layers at 256 tokens added ~1.1 s to a search and ranked no better.

    base_model: a local sentence-transformers/transformers folder; None = the packaged MiniLM.
    head: "mean" (a linear score on the mean of the token states; the default, see the module doc)
        or "cls" (transformers' sequence-classification head on [CLS]).
    layers: keep only the encoder's first N transformer layers (None = all). Cost is linear in
        layers, so 3 of MiniLM's 6 halve a rerank; the saved folder is a normal, smaller model.
    negatives: hard negatives per positive (groups of 4; Gao et al.'s LCE uses 8, which costs twice).
    depth: the fused-ranking depth negatives are sampled from (the reranker sees the top 50).
    use_hops: also train each clue of a multi-hop task against its own supporting chunk.
    max_length: query + chunk tokens while training (the index's chunks are 256; 128 keeps the title
        and the head of the chunk, and the folder is served at this length).
    batch_groups: groups per optimiser step (8 × 4 = 32 pairs, the usual cross-encoder batch).
    lr, weight_decay, warmup_fraction: AdamW with linear warm-up and decay (BERT fine-tuning defaults).
    head_lr_factor: the fresh classification head learns this many times faster than the encoder
        (it starts from random weights; the encoder from trained ones).
    epochs: passes over the training groups; max_steps / max_minutes: hard caps (whichever comes first).
    val_fraction: tasks held back for validation (by task id); max_val_groups caps validation cost.
    eval_every: optimiser steps between validations; patience: validations without improvement
        before stopping early.
    ict_probability: chance of removing the query's source sentence from its positive (inverse cloze);
        applied only to groups whose query was copied from the text (`Group.copied`).
    questions: rewrite fill-the-blank task queries as questions (`reranker_data.question_query`).
    min_groups: fewer training groups than this is an error, not a model.
    threads: torch CPU threads (None keeps torch's choice).
    device: "cpu", "cuda", "cuda:1" (None: CUDA when available, else CPU). On CUDA the forward runs
        under bf16 autocast; the thousands of steps a transferable reranker needs are minutes there.
    """

    base_model: str | None = None
    head: str = "mean"
    layers: int | None = 3
    negatives: int = 3
    depth: int = 30
    use_hops: bool = True
    max_length: int = 128
    batch_groups: int = 8
    lr: float = 6e-5
    head_lr_factor: float = 10.0
    weight_decay: float = 0.01
    warmup_fraction: float = 0.1
    epochs: float = 3.0
    max_steps: int | None = None
    max_minutes: float | None = 15.0
    val_fraction: float = 0.1
    max_val_groups: int = 120
    eval_every: int = 60
    patience: int = 5
    ict_probability: float = 1.0
    questions: bool = True
    min_groups: int = 32
    seed: int = 0
    threads: int | None = None
    device: str | None = None

    def __post_init__(self) -> None:
        for name in ("negatives", "depth", "max_length", "batch_groups", "eval_every", "patience", "min_groups"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"RerankerTrainConfig.{name} must be a positive integer, got {value!r}")
        if self.layers is not None and (not isinstance(self.layers, int) or self.layers < 1):
            raise ValueError(f"RerankerTrainConfig.layers must be a positive integer or None, got {self.layers!r}")
        if self.head not in HEADS:
            raise ValueError(f"RerankerTrainConfig.head must be one of {HEADS}, got {self.head!r}")
        if not 0.0 <= self.ict_probability <= 1.0:
            raise ValueError(f"ict_probability must be in [0, 1], got {self.ict_probability!r}")
        if not 0.0 < self.val_fraction < 1.0:
            raise ValueError(f"val_fraction must be in (0, 1), got {self.val_fraction!r}")


@dataclass
class RerankerTrainReport:
    """What a training run did: data, steps, speed, validation curve, where the model went."""

    out: str
    pairs: dict[str, Any]
    train_groups: int
    val_groups: int
    steps: int = 0
    pairs_seen: int = 0
    train_seconds: float = 0.0
    mining_seconds: float = 0.0
    pairs_per_second: float = 0.0
    val_mrr: list[tuple[int, float]] = field(default_factory=list)  # (step, MRR) — step 0 = untrained
    best_step: int = 0
    best_val_mrr: float = 0.0
    stopped: str = ""
    config: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def load_cross_encoder(
    path: str | Path | None, max_length: int, device: str = "cpu", head: str = "mean", layers: int | None = None
) -> Any:
    """A sentence-transformers CrossEncoder: a trained folder as is, or a fresh one-logit `head` on `path`'s encoder.

    layers: for a fresh model, keep the encoder's first N layers (transformers loads only those weights).
    """
    from sentence_transformers import CrossEncoder

    from corpus_tools.rerank import check_cross_encoder_folder

    if path is None:
        from corpus_tools.models import default_embedding_model_path

        path = default_embedding_model_path()
    try:
        check_cross_encoder_folder(Path(path))
        trained = True
    except ValueError:
        trained = False
    depth = {} if trained or layers is None else {"num_hidden_layers": layers}
    if depth:
        import json

        available = json.loads((Path(path) / "config.json").read_text()).get("num_hidden_layers")
        if available is not None and layers > available:
            raise ValueError(f"layers={layers} but the encoder at {path} has {available}; give at most {available}")
    if trained or head == "cls":
        return CrossEncoder(
            str(path),
            num_labels=1,
            max_length=max_length,
            device=device,
            local_files_only=True,
            config_kwargs=depth or None,
        )
    if head != "mean":
        raise ValueError(f"head must be one of {HEADS}, got {head!r}")
    from sentence_transformers.base.modules import Dense, Transformer
    from sentence_transformers.sentence_transformer.modules import Pooling

    encoder = Transformer(
        str(path),
        transformer_task="feature-extraction",
        model_kwargs={"local_files_only": True},
        processor_kwargs={"model_max_length": max_length, "local_files_only": True},
        config_kwargs={"local_files_only": True, **depth},
    )
    width = encoder.auto_model.config.hidden_size
    pooling = Pooling(width, "mean")
    score = Dense(
        width, 1, activation_function=None, module_input_name="sentence_embedding", module_output_name="scores"
    )
    return CrossEncoder(modules=[encoder, pooling, score], device=device)


def group_scores(
    model: Any, groups: Sequence[Group], max_length: int | None = None, batch_groups: int = 8
) -> list[list[float]]:
    """Scores of [positive, *negatives] for each group (no gradient): the validation view.

    Scored by `corpus_tools.rerank.cross_encoder_scores`, the function search uses; max_length is the
    model's own (set when it was loaded), the argument is kept for callers that pass it.
    """
    import torch

    from corpus_tools.rerank import cross_encoder_scores

    model.eval()
    out: list[list[float]] = []
    with torch.inference_mode():
        for start in range(0, len(groups), batch_groups):
            part = groups[start : start + batch_groups]
            queries = [g.query for g in part for _ in range(1 + len(g.negatives))]
            docs = [d for g in part for d in (g.positive, *g.negatives)]
            logits = cross_encoder_scores(model, queries, docs).tolist()
            pos = 0
            for g in part:
                n = 1 + len(g.negatives)
                out.append(logits[pos : pos + n])
                pos += n
    return out


def group_mrr(scores: Sequence[Sequence[float]]) -> float:
    """Mean reciprocal rank of the positive (index 0) within each group; ties count against it."""
    if not scores:
        return 0.0
    return sum(1.0 / (1 + sum(s >= row[0] for s in row[1:])) for row in scores) / len(scores)


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"\w+")


def remove_span(text: str, query: str, min_overlap: float = 0.6) -> str:
    """`text` without the sentence the query was cut from, else unchanged (inverse cloze).

    The sentence removed is the one holding the largest share (>= min_overlap) of the query's words
    (a verbatim window, or a clue window with masks "X" / "___" that no longer matches literally);
    a verbatim multi-sentence span is removed as is. The first line (a chunk's title) is kept.
    """
    words = query.split()
    if len(words) < 3:
        return text
    pattern = r"\s+".join(re.escape(w) for w in words)
    title, sep, body = text.partition("\n") if "\n" in text else ("", "", text)
    if re.search(pattern, body):
        return title + sep + re.sub(pattern, " ", body, count=1)
    query_words = {w.lower() for w in _WORD.findall(query) if len(w) > 1}
    if not query_words:
        return text
    sentences = [s for s in _SENTENCE.split(body) if s.strip()]
    best, share = None, 0.0
    for sentence in sentences:
        overlap = len(query_words & {w.lower() for w in _WORD.findall(sentence)}) / len(query_words)
        if overlap > share:
            best, share = sentence, overlap
    if best is None or share < min_overlap or len(sentences) < 2:
        return text
    return title + sep + body.replace(best, " ", 1)


def train_reranker(
    index: str | Path | Any,
    tasks: str | Path | Sequence[Any],
    out: str | Path,
    config: RerankerTrainConfig | None = None,
    *,
    progress: bool = True,
    log: Any = None,
) -> RerankerTrainReport:
    """Mine groups from `tasks` over `index`, train, and write the best model to the folder `out`.

    index: an index folder (or an open Corpus, used as is: it must have reranker "none").
    tasks: a task file (JSONL / saved dataset, `eval.loaders.load_tasks`) or Task objects.
    Raises TooFewPairsError (nothing written) when fewer than `min_groups` training groups remain.
    """
    import torch

    from corpus_tools import Corpus

    cfg = config or RerankerTrainConfig()
    say = log or (lambda msg: None)
    if cfg.threads:
        torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    task_list = _load_task_list(tasks)
    owns = not hasattr(index, "search")
    corpus = Corpus.open(index, reranker="none") if owns else index
    try:
        started = time.perf_counter()
        groups, pair_report = build_groups(
            corpus,
            task_list,
            negatives=cfg.negatives,
            depth=cfg.depth,
            use_hops=cfg.use_hops,
            seed=cfg.seed,
            progress=progress,
            questions=cfg.questions,
        )
        mining_seconds = time.perf_counter() - started
    finally:
        if owns:
            corpus.close()
    say(pair_report.summary())
    train, val = split_groups(groups, cfg.val_fraction, cfg.seed)
    if len(train) < cfg.min_groups or not val:
        raise TooFewPairsError(
            f"too few pairs to train a reranker: {len(train)} training and {len(val)} validation group(s) "
            f"(need >= {cfg.min_groups} and >= 1) — {pair_report.summary()}. Generate more tasks over this "
            "index (`context1 datagen`), or check that the task file's gold ids belong to it."
        )
    val = random.Random(cfg.seed).sample(val, min(len(val), cfg.max_val_groups))
    report = RerankerTrainReport(
        out=str(out),
        pairs=_pair_dict(pair_report),
        train_groups=len(train),
        val_groups=len(val),
        mining_seconds=round(mining_seconds, 1),
        config=asdict(cfg),
    )
    device = cfg.device or ("cuda" if torch.cuda.is_available() else "cpu")
    model = load_cross_encoder(cfg.base_model, cfg.max_length, device=device, head=cfg.head, layers=cfg.layers)
    best_state = _fit(model, train, val, cfg, report, progress, say)
    model.load_state_dict(best_state)
    _save(model, Path(out), report)
    return report


def _fit(
    model: Any,
    train: list[Group],
    val: list[Group],
    cfg: RerankerTrainConfig,
    report: RerankerTrainReport,
    progress: bool,
    say: Any,
) -> dict[str, Any]:
    """The training loop; returns the best validation state dict."""
    import torch
    from tqdm.auto import tqdm

    from corpus_tools.rerank import cross_encoder_scores

    rng = random.Random(cfg.seed)
    on_cuda = str(model.device).startswith("cuda")
    autocast = torch.autocast("cuda", dtype=torch.bfloat16) if on_cuda else contextlib.nullcontext()
    steps_per_epoch = math.ceil(len(train) / cfg.batch_groups)
    total = max(1, math.ceil(steps_per_epoch * cfg.epochs))
    if cfg.max_steps is not None:
        total = min(total, cfg.max_steps)
    # The fresh score head: a [CLS] classifier inside module 0, or every module after the encoder.
    is_head = [("classifier" in n or not n.startswith("0.")) for n, _ in model.named_parameters()]
    head = [p for (_, p), h in zip(model.named_parameters(), is_head, strict=True) if h]
    body = [p for (_, p), h in zip(model.named_parameters(), is_head, strict=True) if not h]
    optimizer = torch.optim.AdamW(
        [{"params": body, "lr": cfg.lr}, {"params": head, "lr": cfg.lr * cfg.head_lr_factor}],
        weight_decay=cfg.weight_decay,
    )
    warmup = max(1, int(cfg.warmup_fraction * total))
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup)))
    )
    best = group_mrr(group_scores(model, val))
    report.val_mrr.append((0, round(best, 4)))
    report.best_val_mrr = round(best, 4)
    best_state = copy.deepcopy(model.state_dict())
    say(f"validation MRR before training: {best:.3f} ({len(val)} groups; chance {1 / (1 + cfg.negatives):.3f})")
    stale, step, deadline = 0, 0, None
    if cfg.max_minutes is not None:
        deadline = time.perf_counter() + 60 * cfg.max_minutes
    started = time.perf_counter()
    order: list[int] = []
    bar = tqdm(total=total, desc="training reranker", unit="step", disable=not progress)
    report.stopped = "finished"
    while step < total:
        if not order:
            order = list(range(len(train)))
            rng.shuffle(order)
        batch = [train[order.pop()] for _ in range(min(cfg.batch_groups, len(order)))]
        model.train()
        queries, docs = [], []
        for g in batch:
            ict = g.copied and rng.random() < cfg.ict_probability
            positive = remove_span(g.positive, g.query) if ict else g.positive
            for d in (positive, *g.negatives):
                queries.append(g.query)
                docs.append(d)
        with autocast:
            logits_B_G = cross_encoder_scores(model, queries, docs).view(len(batch), -1)  # col 0 = positive
        labels_B = torch.zeros(len(batch), dtype=torch.long, device=logits_B_G.device)
        loss = torch.nn.functional.cross_entropy(logits_B_G.float(), labels_B)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
        step += 1
        report.pairs_seen += len(docs)
        bar.update(1)
        bar.set_postfix(loss=f"{loss.item():.3f}", best_mrr=f"{best:.3f}")
        out_of_time = deadline is not None and time.perf_counter() > deadline
        if step % cfg.eval_every == 0 or step == total or out_of_time:
            mrr = group_mrr(group_scores(model, val))
            report.val_mrr.append((step, round(mrr, 4)))
            say(f"step {step}/{total}: loss {loss.item():.3f}, validation MRR {mrr:.3f}")
            if mrr > best:
                best, stale = mrr, 0
                best_state = copy.deepcopy(model.state_dict())
                report.best_step, report.best_val_mrr = step, round(mrr, 4)
            else:
                stale += 1
                if stale >= cfg.patience:
                    report.stopped = f"early stop: no validation gain in {cfg.patience} evaluations"
                    break
        if out_of_time:
            report.stopped = f"time limit ({cfg.max_minutes} min)"
            break
    bar.close()
    report.steps = step
    report.train_seconds = round(time.perf_counter() - started, 1)
    report.pairs_per_second = round(report.pairs_seen / max(report.train_seconds, 1e-9), 1)
    return best_state


def _save(model: Any, out: Path, report: RerankerTrainReport) -> None:
    """Write the model as a normal sentence-transformers folder, via a temporary sibling (no half folders)."""
    import shutil

    out = out.expanduser()
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(str(tmp))
    (tmp / REPORT_FILE).write_text(json.dumps(report.to_dict(), indent=2), encoding="utf-8")
    if out.exists():
        shutil.rmtree(out)
    tmp.rename(out)


def _pair_dict(report: PairReport) -> dict[str, Any]:
    return {
        "tasks": report.tasks,
        "groups": report.groups,
        "by_source": dict(report.by_source),
        "missing_gold_ids": report.missing_ids,
        "missing_examples": report.examples,
        "skipped": dict(report.skipped),
    }


def _load_task_list(tasks: str | Path | Sequence[Any]) -> list[Any]:
    if isinstance(tasks, (str, Path)):
        from eval.loaders import load_tasks

        return list(load_tasks(tasks).tasks)
    return list(tasks)
