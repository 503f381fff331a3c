"""An `ask` answer that reads well: sub-queries, never the hard limit, evidence-sized answers, quoted
passages, real scores, and seed 0 reproducible from one process to the next."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from context1 import AgentConfig, SearchAgent
from context1.backends.iterative import IterativeConfig, IterativeRetrievalPolicy, answer_documents
from context1.backends.llm_free import best_passage, question_phrases

ROOT = Path(__file__).resolve().parents[2]
QUESTIONS = [json.loads(line) for line in (ROOT / "tests/fixtures/office_corpus/questions.jsonl").read_text().splitlines()]


def test_sub_queries_keep_names_and_drop_fragments():
    phrases = question_phrases("What share of NVIDIA's revenue came from the data center segment in Q3 2023?")
    assert "NVIDIA" in phrases
    assert not [p for p in phrases if len(p) < 3 and not p.isupper()], phrases  # no "s" from "NVIDIA's"
    assert not {"the", "of", "from", "in", "what"} & {p.lower() for p in phrases}


def test_best_passage_is_the_sentence_that_answers():
    text = ("Revenue rose in all regions. The chief financial officer, Tomasz Wren, retired in May. "
            "Marta Ilic succeeded Tomasz Wren as chief financial officer on 1 June. Margins were flat.")
    assert best_passage(text, ["Tomasz Wren", "chief financial officer", "succeeded"]).startswith("Marta Ilic")
    assert len(best_passage("word " * 500, ["word"], 100)) <= 100


@pytest.mark.parametrize("task", QUESTIONS[:6], ids=[t["id"] for t in QUESTIONS[:6]])
def test_a_small_budget_never_walks_into_the_hard_limit(office_corpus, task):
    """With an 8,192-token budget the first version searched past the hard cutoff: 24 refused calls on these 6."""
    config = AgentConfig(token_budget=8_192, response_reserve=256)
    trajectory = SearchAgent(office_corpus, config=config).run(task["question"]).trajectory
    refused = [o.text for s in trajectory.steps for o in s.observations if o.metadata.get("refused")]
    assert refused == []
    assert trajectory.documents


def test_answers_are_sized_by_evidence_and_scored(office_corpus):
    sizes = []
    for task in QUESTIONS:
        result = SearchAgent(office_corpus).run(task["question"])
        scores = [d.score for d in result.documents]
        assert scores == sorted(scores, reverse=True)
        assert scores != [1.0 / r for r in range(1, len(scores) + 1)]  # the policy's own scores, not 1/rank
        # below the evidence ratio only what the first-search rule keeps: its top chunks' documents
        first = result.trajectory.steps[0].observations[0].chunk_ids[: IterativeConfig().first_search_keep]
        kept = {office_corpus.chunk(c).doc_id for c in first}
        assert all(d.score >= IterativeConfig().evidence_ratio * scores[0] or d.doc_id in kept
                   for d in result.documents)
        sizes.append(len(result.documents))
    assert max(sizes) <= 10 and min(sizes) < 10 and len(set(sizes)) > 1, sizes


# Two HotpotQA reporting questions measured for issue 24 (benchmarks/ask_vs_search.py --benchmark): the
# answer's scores over the best one's with evidence_ratio=0, and the rank of the second gold document.
# With evidence_ratio 0.5 the answer stopped before it (at 3 and 4 documents): the bridge question lost
# half its evidence, as on 5 of 100 HotpotQA and 2 of 100 MuSiQue reporting questions.
_MEASURED = {
    "5a7b26d255429931da12ca00": ([1.0, 0.541, 0.537, 0.483, 0.471, 0.396, 0.327, 0.289, 0.187, 0.161], 6),
    "5a736bfa5542991f29ee2e03": ([1.0, 0.63, 0.6, 0.498, 0.401, 0.373, 0.369, 0.326, 0.315, 0.306], 9),
}


@pytest.mark.parametrize("task_id", sorted(_MEASURED))
def test_the_answer_keeps_a_second_gold_document_the_evidence_supports(task_id):
    relative, gold_rank = _MEASURED[task_id]
    policy = IterativeRetrievalPolicy()
    scored = {f"doc{i}": s for i, s in enumerate(relative, 1)}
    cited = answer_documents(scored, policy.max_documents, policy.config.evidence_ratio)
    assert f"doc{gold_rank}" in cited
    if min(relative) < IterativeConfig().evidence_ratio:  # still sized by the evidence, not always 10
        assert "doc10" not in cited


def test_justifications_quote_the_passage(office_corpus):
    result = SearchAgent(office_corpus).run("Who succeeded Tomasz Wren as chief financial officer?")
    top = result.documents[0]
    quote = top.justification[1:].split("”")[0].rstrip("…")
    assert top.justification.startswith("“") and len(quote) > 20
    assert quote in " ".join(" ".join(c.text.split()) for c in office_corpus.chunks(top.doc_id))


_RUN = """
import json, sys
from corpus_tools import Corpus
from context1 import SearchAgent
corpus = Corpus.open(sys.argv[1])
out = [[(d.doc_id, round(d.score, 6)) for d in SearchAgent(corpus).run(q).documents] for q in json.loads(sys.argv[2])]
print(json.dumps(out))
"""


@pytest.mark.slow
def test_seed_0_gives_the_same_answer_in_every_process(office_corpus):
    """String hashing differs between processes (PYTHONHASHSEED): nothing may depend on set order."""
    questions = json.dumps([t["question"] for t in QUESTIONS])
    procs = []  # both processes at once: each is a cold start of its own, and the machine has two cores
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
        procs.append(subprocess.Popen([sys.executable, "-c", _RUN, str(office_corpus.path), questions], env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    runs = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=600)
            assert proc.returncode == 0, err
            runs.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for proc in procs:
            proc.kill()  # a no-op for a process that has exited
            proc.wait()
    assert runs[0] == runs[1]
