"""`run_datagen`: an index folder in, an output folder out (the Python call behind `context1 datagen`)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from datagen.outputs import TASKS, append_run, join_chunks, now, write_outputs
from datagen.pipeline import GenerateConfig, corpus_searcher, generate, mine_corpus
from datagen.records import read_task_file
from datagen.split import Split
from datagen.types import GenerationReport


def read_exclusions(path: str | Path) -> set[str]:
    """Doc ids to keep out of generation: a task file (JSONL of tasks: their gold documents) or a
    plain text file with one doc id per line."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"exclusion file {str(path)!r} does not exist")
    ids: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("{"):
            record = json.loads(line)
            ids.update(str(d) for d in record.get("gold_doc_ids") or ())
        else:
            ids.add(line)
    return ids


def run_datagen(
    index: str | Path,
    out_dir: str | Path,
    config: GenerateConfig,
    *,
    backend: Any = None,
    llm_options: dict[str, Any] | None = None,
    test_fraction: float = 0.2,
    progress: bool = True,
    on_report: Callable[[GenerationReport], None] | None = None,
    form: str = "natural",
    writer: str | Path | None = None,
    writer_options: dict[str, Any] | None = None,
    mix: dict[str, float] | None = None,
) -> tuple[GenerationReport, Split]:
    """Generate `config.n` new tasks from the index into `out_dir` (appending; a rerun resumes).

    backend: None for an offline generator, else a context1 `Backend` driving the LLM pipeline
    (llm_options go to `datagen.llm.LLMConfig`). form (offline only): "natural" (questions written
    from the parsed corpus, datagen.natural; the parse is cached in OUT/parse.spacy) or "cloze" (the
    masked sentence windows of datagen.offline). Writes every output of `datagen.outputs`.

    writer: a learned question writer's folder (datagen.writer): the writer drafts each single-hop
    question (or claim) instead of the templates, with `backend` as its model when one is given (the
    scripted backend in tests), else the folder's adapter on its base model. writer_options go to
    `datagen.writer.WriterConfig` (form "question" or "claim"), plus "model" (another base model path).
    mix: `datagen.natural.NaturalConfig` shares (comparison_share, relation_share, order_share; `natural.parse_mix`).
    """
    if form not in ("natural", "cloze"):
        raise ValueError(f"form must be 'natural' or 'cloze', got {form!r}")
    if mix and (form != "natural" or backend is not None or writer is not None):
        raise ValueError("--mix sets the natural templates' output mix: it needs --form natural, no LLM backend or writer")
    options = dict(writer_options or {})
    if writer is not None:
        from datagen.writer import read_writer_folder

        info = read_writer_folder(writer)  # a missing or foreign folder fails before any work
        if set(config.hops) != {1}:
            raise ValueError("the learned writer drafts single-hop questions and claims: use --hops 1")
        if form != "natural":
            raise ValueError("the learned writer writes natural questions; --form cloze has no writer")
    from corpus_tools import Corpus

    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ValueError(f"OUT {str(out)!r} is a file; give a folder (tasks.jsonl and the rest go inside it)")
    out.mkdir(parents=True, exist_ok=True)
    with Corpus.open(index) as corpus:
        manifest = corpus.manifest
        mined = mine_corpus(corpus, exclude=config.exclude_doc_ids)
        if not mined.chunks:
            why = "after the exclusions" if config.exclude_doc_ids else "at all"
            raise ValueError(f"the index {str(index)!r} holds no documents {why}: index a corpus first (context1 index)")
        if writer is not None:
            from datagen.writer import WriterConfig, WriterGenerator, adapter_fingerprint, writer_backend

            model = options.pop("model", None)
            drafter = backend if backend is not None else writer_backend(writer, model, seed=config.seed)
            generator = WriterGenerator(
                mined, drafter, info, WriterConfig(**options), cache=out / "drafts.jsonl",
                adapter_id=adapter_fingerprint(writer),
            )
            label = f"writer:{Path(writer).name}"
            usage = None
        elif backend is None and form == "natural":
            from datagen.call_tasks import NoProse, calls_only, with_call_tasks
            from datagen.natural import NaturalConfig, NaturalGenerator

            natural = NaturalConfig(**(mix or {}))
            generator: Any
            if natural.calls and not natural.call_prose and calls_only(mined):
                # a folder of earnings calls only (session 46): their figures, with no parse for prose questions
                # that are not asked
                generator = with_call_tasks(NoProse(), mined, comparison_share=natural.call_comparison_share,
                                            guards=bool(natural.call_guards),
                                            compare_read=bool(natural.call_compare_read))
            else:
                facts = _facts(mined, out, progress, doc_projects=bool(natural.doc_projects),
                               doc_owners=bool(natural.doc_owners), doc_name_case=bool(natural.doc_name_case),
                               doc_reference=bool(natural.doc_reference), doc_options=bool(natural.doc_options),
                               doc_source=bool(natural.doc_source), meeting_decisions=bool(natural.meeting_decisions),
                               meeting_replies=bool(natural.meeting_replies), option_shapes=option_shapes(natural),
                               meeting_said=meeting_said(natural),
                               project_files=bool(natural.doc_project_files),
                               release_names=bool(natural.doc_release_names),
                               declared_names=bool(natural.doc_declared_names),
                               deprecations=bool(natural.doc_deprecations),
                               notebooks=bool(natural.doc_notebooks),
                               notebook_printed=bool(natural.doc_nb_printed),
                               notebook_defaults=bool(natural.doc_nb_defaults),
                               notebook_wrapped=bool(natural.doc_nb_wrapped),
                               papers=bool(natural.doc_papers), office=bool(natural.doc_office),
                               man=bool(natural.doc_man),
                               man_styles=bool(natural.man_styles))
                generator = NaturalGenerator(mined, facts, natural)
                # filings and reports (issue 36): questions across quarters and companies from table rows, and
                # from the fields of form-like reports
                from datagen.period_tasks import with_period_tasks
                from datagen.report_fields import with_report_fields

                generator = with_report_fields(with_period_tasks(generator, mined, facts), mined)
                # workbooks and decks (issue 36): their tables' cells, compared across rows and workbooks, and
                # bridged through a cell that labels another workbook's row (datagen.grid_tasks)
                from datagen.grid_tasks import with_grid_tasks

                generator = with_grid_tasks(generator, mined, facts, n=config.n)
                if natural.grid_joins:
                    # and joined across two of their tables: a column's values another table's row keys
                    from datagen.grid_joins import with_grid_joins

                    generator = with_grid_joins(generator, mined)
                if natural.calls:
                    # earnings calls (session 46): the figures a call states, for the company's quarter
                    generator = with_call_tasks(generator, mined, comparison_share=natural.call_comparison_share,
                                                prose=bool(natural.call_prose), guards=bool(natural.call_guards),
                                                compare_read=bool(natural.call_compare_read))
            label = "natural"
            usage = None
        elif backend is None:
            from datagen.offline import OfflineGenerator

            generator = OfflineGenerator(mined)
            label = "offline"
            usage = None
        else:
            from datagen.llm import LLMConfig, LLMGenerator

            generator = LLMGenerator(backend, corpus, mined, LLMConfig(**(llm_options or {})))
            label = f"llm:{getattr(backend, 'name', 'backend')}"
            usage = generator.usage_counts
        bar = _progress_bar(config.n) if progress else None

        def tick(report: GenerationReport) -> None:
            if bar is not None:
                bar.n = report.written
                bar.set_postfix(tried=report.attempted, dropped=sum(report.drops.values()), refresh=False)
                bar.refresh()
            if on_report is not None:
                on_report(report)

        config = dataclasses.replace(config, source=config.source if config.source != "datagen" else f"datagen:{label}")
        try:
            report = generate(
                generator, mined, out / TASKS, config, searcher=corpus_searcher(corpus), progress=tick, usage=usage
            )
        finally:
            if bar is not None:
                bar.close()
        documents = {
            doc: (mined.titles.get(doc, ""), join_chunks([c.text for c in chunks])) for doc, chunks in mined.chunks.items()
        }
    run_config = {
        "generator": label,
        "index": str(Path(index)),
        "n": config.n,
        "hops": list(config.hops),
        "seed": config.seed,
        "excluded_documents": len(config.exclude_doc_ids),
        "drop_easy": config.drop_easy,
        **({"mix": mix} if mix else {}),
        **({"writer": str(writer), "writer_options": writer_options or {}} if writer is not None else {}),
    }
    append_run(out, {"finished_at": now(), "config": run_config, "report": report.as_dict()})
    counts = manifest.get("counts", {})
    info = {
        "path": str(Path(index)),
        "documents": counts.get("documents", manifest.get("doc_count")),
        "chunks": counts.get("chunks", manifest.get("chunk_count")),
        "embedding_model": manifest.get("embedding_model"),
        "created_at": manifest.get("created_at"),
    }
    split = write_outputs(out, read_task_file(out / TASKS), documents, info, test_fraction=test_fraction, seed=config.seed)
    return report, split


def _facts(mined: Any, out: Path, progress: bool, doc_projects: bool = True, doc_owners: bool = True,
           doc_name_case: bool = True, doc_reference: bool = True, doc_options: bool = True, meeting_decisions: bool = True,
           meeting_replies: bool = True, doc_source: bool = False, option_shapes: frozenset[str] | None = None,
           meeting_said: frozenset[str] = frozenset(),
           project_files: bool = True, release_names: bool = False, declared_names: bool = False,
           deprecations: bool = False, notebooks: bool = False, notebook_printed: bool = False,
           notebook_defaults: bool = False, notebook_wrapped: bool = False,
           papers: bool = False, office: bool = False, man: bool = False, man_styles: bool = False) -> Any:
    """The corpus's facts; the parse (minutes on a large corpus) is kept in OUT/parse.spacy, so a
    resumed or extended run reads it instead of parsing again. doc_projects, doc_owners, doc_name_case,
    doc_reference, doc_options, doc_source, meeting_decisions, meeting_replies, meeting_said, option_shapes (None: all),
    project_files, release_names, declared_names, deprecations, notebooks, notebook_printed, notebook_defaults,
    notebook_wrapped, papers, office, man, man_styles: `read_facts`' own."""
    from datagen.doc_options import SHAPES
    from datagen.nlp import load_pipeline
    from datagen.relations import read_facts

    nlp = load_pipeline()
    bar = None
    if progress:
        from tqdm.auto import tqdm

        total = sum(len(s) for s in mined.sentences.values())
        bar = tqdm(total=total, desc="reading sentences", unit="sent", dynamic_ncols=True)
    try:
        return read_facts(
            mined, nlp, progress=(lambda n: bar.update(n - bar.n)) if bar is not None else None,
            parse_cache=out / "parse.spacy", doc_projects=doc_projects, doc_owners=doc_owners,
            doc_name_case=doc_name_case, doc_reference=doc_reference, doc_options=doc_options, doc_source=doc_source,
            meeting_decisions=meeting_decisions, meeting_replies=meeting_replies, meeting_said=meeting_said,
            option_shapes=option_shapes if option_shapes is not None else SHAPES,
            project_files=project_files, release_names=release_names, declared_names=declared_names,
            deprecations=deprecations, notebooks=notebooks, notebook_printed=notebook_printed,
            notebook_defaults=notebook_defaults, notebook_wrapped=notebook_wrapped, papers=papers, office=office, man=man,
            man_styles=man_styles,
        )
    finally:
        if bar is not None:
            bar.close()


def option_shapes(natural: Any) -> frozenset[str]:
    """The options-list readings a NaturalConfig turns on (datagen.doc_options SHAPES; session 44's flags)."""
    from datagen.doc_options import LISTS, NOUNS, PROGRAM, THIS

    return frozenset(shape for shape, on in ((LISTS, natural.doc_option_lists), (THIS, natural.doc_option_this),
                                             (NOUNS, natural.doc_option_nouns), (PROGRAM, natural.doc_option_program))
                     if on)


def meeting_said(natural: Any) -> frozenset[str]:
    """The readers of datagen.meeting_said a NaturalConfig turns on (`--mix meet_roles,meet_figures,meet_petitions,
    meet_shares`)."""
    return frozenset(name for name, on in (("roles", natural.meet_roles), ("figures", natural.meet_figures),
                                           ("petitions", natural.meet_petitions), ("shares", natural.meet_shares)) if on)


def _progress_bar(total: int) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="tasks", unit="task", dynamic_ncols=True)


def exclusions(paths: Iterable[str | Path]) -> frozenset[str]:
    ids: set[str] = set()
    for p in paths:
        ids |= read_exclusions(p)
    return frozenset(ids)
