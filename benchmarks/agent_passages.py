"""The agent's passages (issue 34) against one hybrid search and against its own first search.

    # after (this code), then before (main's code, exported with `git archive`), then the table:
    HF_HUB_OFFLINE=1 nice -n 10 python benchmarks/agent_passages.py run --label after \
        --sets hotpotqa musique locomo --part report --limit 60
    git archive 5e74342 | tar -x -C /tmp/base
    HF_HUB_OFFLINE=1 PYTHONPATH=/tmp/base nice -n 10 python benchmarks/agent_passages.py run --label before ...
    python benchmarks/agent_passages.py table --labels before after --sets hotpotqa musique locomo --part report

Answer settings are compared on the same episodes with `--variant NAME=field:value,...` (IterativeConfig
fields; only the answer depends on them), e.g. the first-search rule of issue 34, chosen on the tuning parts:

    python benchmarks/agent_passages.py run --label tune1 --sets locomo --part tuning --limit 150 \
        --variant rep-link-m0.1=first_search_rule:replace,first_search_evidence:link,first_search_keep:5,first_search_margin:0.1

Questions: `eval.loaders.load_benchmark(name)` tasks with gold documents, split as
benchmarks/agent_llm_free.py splits them (the LLM-free policy was tuned on the "tuning" part):
HotpotQA 1-150 and MuSiQue 1-120 are tuning, the rest reporting; LoCoMo was never tuned on by that
policy: its first 400 questions with evidence are the reporting part (agent_llm_free's
--locomo-limit) and the questions after them the tuning part (what this issue's ranking rule may
be chosen on). `--limit` takes the first N of a part in file order. Indexes: INDEX_ROOT/bench-{name}-256.

Per question, three rankings are scored:
  hybrid        one `Corpus.search(question, k=50)`: its top 5 chunks are its passages, the
                documents of its first chunks (first 10 distinct) its documents;
  first search  the agent's own first search_corpus observation: its top 5 chunks;
  agent         `SearchAgent(corpus).run(question)` (the default LLM-free policy): its passages are
                `result.evidence`; on code without evidence (main before issue 34) they are each
                returned document's best shown chunk, the first 5 ("doc-best", what the old answer
                implied; the old agent itself returned no passage at all).
Columns: passage answer-found@5 (a top-5 passage holds an answer, SPEC §3; yes/no answers and
questions without an answer left out), passage R@5 (gold documents covered by the top-5 passages:
a passage covers its document; on LoCoMo a document is one dialog turn, so this is turn recall),
passage all-R@5, document R@5 and all-R@10 (the returned document list), seconds per question (p50),
and won/lost against the agent's own first search: questions where the ranking's top-5 passages cover
more / fewer gold documents than the first search's top 5, hold / miss an answer it misses / holds,
and have / lack every gold document in the top 10 documents where the first search's (the distinct
documents of its observation) do not / do. Per-question JSONL under benchmarks/out/agent_passages/.

The filings (issue 24's 10-Qs; `filings` subcommand): docugami's single-filing questions
(benchmarks/filings.py's ids, q<row>) of one half (`--part`, default report; `search_policy.filings_split`:
SHA-1 of the id odd for reporting, even for tuning: choose settings on tuning only), the first
--limit whose reference answer carries figures (62 reporting, 63 tuning). A question counts when
at least half of its figures (numbers of 2+ digits, "$", "," and "%" ignored; years 1990-2039 and
"Q1"-"Q4" not figures; with `--strict-figures` neither are form names, the "10" of "10-Q" or "10-K":
38 of the 62 reporting answers name their form, and for 14 that "10" is the only figure, so any passage
citing "Form 10-K" answered them) appear in the top-5 passages. Columns: one hybrid search's top 5 chunks,
plain and with `constraints="auto"` (what every agent search passes), the agent's passages, the
gold filing first, ask seconds p50; `--variant` re-answers each episode under other IterativeConfig
fields (a row each), as `run` does. Per-question JSONL (chunk ids included) under OUT. Run it on
this code and on main's, as above:

    HF_HUB_OFFLINE=1 nice -n 10 python benchmarks/agent_passages.py filings --label after \
        --index runs/filings-index --limit 15
    HF_HUB_OFFLINE=1 nice -n 10 python benchmarks/agent_passages.py filings --label tune --part tuning \
        --index runs/filings-index --limit 100 --variant keep4=first_search_keep:4
    # the line-item vocabulary's levers off (SearchConfig), and the agent without its constrained-question rule:
    ... filings --label off --line-items off --line-item-rows 0 --strict-figures --variant nokeep=constrained_keeps_first:0

`filings --units on` (session 34) scores figures as `benchmarks/filings_passages.py --units on` does (its rule,
imported): an answer's "$7.7 billion" is also held by a table's "7,730" in millions, so the agent's figure and one
search's agree; off by default (earlier figures stay comparable). Runs are saved with "-units".

`filings --answers phrase` scores every single-filing question of the half, not only figure answers (66 tuning,
64 reporting questions; 2 tuning answers too short to score): a question whose answer has figures keeps the strict figure rule;
any other is held when one top-5 passage holds at least half of the answer's content words that the question
does not already hold (`answer_words`, `phrase_found`; the rule's comment says which words count). Runs are saved
as `-phrase` (the figure questions' column there equals `--strict-figures`' figure); `filings-phrases` prints the
hand check (each phrase question, its answer, the best top-5 passage and its share); `filings-compare --answers
phrase [--rule figures|phrase]` compares them, on all scored questions or one rule's:

    ... filings --label hand --part tuning --limit 100 --answers phrase
    python benchmarks/agent_passages.py filings-phrases --label hand --part tuning --index FILINGS
    python benchmarks/agent_passages.py filings-compare --labels hand prior --part tuning --answers phrase --rule phrase

`filings-trace` runs the agent on a half and saves its episodes (observations with their queries, the answer's
passages, the question's own constrained search's top 30, what each chunk holds of the answer), so that answer rules
can be tried offline, and prints where each miss's completing passage sat (`holder_places`):

    ... filings-trace --index FILINGS --part tuning --out RUN/doc-tuning.jsonl
    ... filings-trace --index FB_INDEX --questions financebench --part tuning --out RUN/fb-tuning.jsonl

`filings --policy DIR` drives the agent with a trained learned policy (`context1 train policy` on tasks
generated from the filings), `--policy prior` with its untrained prior; `--reranker DIR` opens the index
with a fitted fusion (`context1 train reranker`), so one search and the agent both use it. Saved runs are
set side by side, each label against the first (won / lost, 95 % paired bootstrap):

    ... filings --label prior --policy prior --part tuning --limit 100 --strict-figures
    ... filings --label trained --policy RUN/policy --part tuning --limit 100 --strict-figures
    python benchmarks/agent_passages.py filings-compare --labels hand prior trained --part tuning --strict-figures
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import re
import statistics
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "out" / "agent_passages"
TUNING = {"hotpotqa": 150, "musique": 120}  # agent_llm_free.SPLITS: the first N are the tuning part
LOCOMO_REPORT = 400  # agent_llm_free's --locomo-limit: LoCoMo's reporting part


def questions(name: str, data_dir: Path, part: str, limit: int) -> list[Any]:
    from eval.loaders import load_benchmark

    tasks = [t for t in load_benchmark(name, data_dir).tasks if t.gold_doc_ids]
    if name == "locomo":
        chosen = tasks[:LOCOMO_REPORT] if part == "report" else tasks[LOCOMO_REPORT:]
    else:
        cut = TUNING[name]
        chosen = tasks[cut:] if part == "report" else tasks[:cut]
    return chosen[:limit]


def _norm(text: str) -> str:
    from eval.metrics import normalize_answer

    return normalize_answer(text)


def answer_found(texts: list[str], answers: tuple[str, ...]) -> float | None:
    from eval.metrics import contains_answer

    wanted = [a for a in answers if _norm(a)]
    if not wanted or {_norm(a) for a in wanted} <= {"yes", "no"}:
        return None
    return float(any(contains_answer(t, wanted) for t in texts))


def doc_best_passages(trajectory: Any, documents: list[Any], n: int = 5) -> list[str]:
    """Each returned document's best shown chunk (best rank in the observation that showed it, then
    first shown): what a document answer implies when the code has no evidence."""
    best: dict[str, tuple[int, int, str]] = {}
    order = 0
    for step in trajectory.steps:
        for obs in step.observations:
            for rank, cid in enumerate(obs.chunk_ids, 1):
                doc = cid.rpartition("#")[0]
                order += 1
                if doc not in best or (rank, order) < best[doc][:2]:
                    best[doc] = (rank, order, cid)
    return [best[d.doc_id][2] for d in documents if d.doc_id in best][:n]


def first_search(trajectory: Any, n: int = 5) -> list[str]:
    for step in trajectory.steps:
        for obs in step.observations:
            if obs.tool == "search_corpus" and obs.chunk_ids:
                return list(obs.chunk_ids[:n])
    return []


def first_search_docs(trajectory: Any, n: int = 10) -> list[str]:
    """The documents of the agent's first search observation, in rank order (its first n distinct):
    what that search alone would return as documents."""
    return list(dict.fromkeys(c.rpartition("#")[0] for c in first_search(trajectory, 10_000)))[:n]


def parse_variant(text: str) -> tuple[str, dict[str, Any]]:
    """`NAME=key:value,key:value` (config fields: IterativeConfig's here, SearchConfig's in meetings_search; numbers
    and true / false parsed) -> (NAME, overrides)."""
    name, _, rest = text.partition("=")
    out: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition(":")
        try:
            out[key] = int(value)
        except ValueError:
            try:
                out[key] = float(value)
            except ValueError:
                out[key] = {"true": True, "false": False}.get(value.lower(), value)
    return name, out


def reanswer(agent: Any, trajectory: Any, margin: float, keep: int = 5, **overrides: Any) -> dict[str, Any]:
    """The LLM-free policy's answer to the same final context under other answer settings
    (`first_search_margin=margin`, `first_search_keep=keep`, any other IterativeConfig field):
    searching does not depend on them (only the answer does), so one episode serves every setting."""
    import dataclasses

    from context1.answer import parse_citations
    from context1.backends.llm_free import visible_rankings
    from context1.context import replay_messages

    policy = agent.backend
    cfg = dataclasses.replace(policy.config, first_search_margin=margin, first_search_keep=keep, **overrides)
    messages = replay_messages(trajectory, len(trajectory.steps) - 1)
    text = policy._answer(trajectory.query, visible_rankings(messages, cfg), cfg)
    seen = set(trajectory.seen_chunk_ids())  # as the harness resolves: the reading of the id that was shown
    cited = [next((x for x in c.raw_ids if x in seen), c.raw_ids[-1]) for c in parse_citations(text) if c.raw_ids]
    return {"passages": cited[: agent.config.max_passages],
            "docs": list(dict.fromkeys(c.rpartition("#")[0] for c in cited))[: agent.config.max_documents], "s": 0.0}


def _refound_config(setting: str) -> Any:
    """AgentConfig with agreement between searches on (the default since session 35) or off."""
    from context1.config import AgentConfig

    return AgentConfig(refound=setting == "on")


def chunk_text(corpus: Any, chunk_id: str) -> str:
    """A chunk's text; "" for an id the index does not hold (a re-answer's citation of an id whose
    literal "&quot;" the observation format cannot carry; the harness drops those as unseen)."""
    from corpus_tools.types import UnknownDocumentError

    try:
        return corpus.chunk(chunk_id).text
    except UnknownDocumentError:
        return ""


def run(args: argparse.Namespace) -> None:
    from context1 import SearchAgent
    from corpus_tools import Corpus

    OUT.mkdir(parents=True, exist_ok=True)
    for name in args.sets:
        tasks = questions(name, args.data_dir, args.part, args.limit)
        corpus = Corpus.open(args.index_root / f"bench-{name}-256")
        # --refound: the harness records the shown chunks each later search matched again (AgentConfig.refound)
        agent = SearchAgent(corpus, config=_refound_config(args.refound))
        agent.run(tasks[0].query)  # warm-up: model load and caches are not the agent's time
        path = OUT / f"{name}-{args.part}-{args.label}.jsonl"
        with path.open("w", encoding="utf-8") as log:
            for i, task in enumerate(tasks):
                t0 = time.perf_counter()
                hits = corpus.search(task.query, k=50)
                hybrid_s = time.perf_counter() - t0
                t0 = time.perf_counter()
                result = agent.run(task.query)
                agent_s = time.perf_counter() - t0
                evidence = getattr(result, "evidence", None)
                if evidence is not None and (evidence or not result.documents):
                    passages, kind = [e.chunk_id for e in evidence], "evidence"
                else:
                    passages, kind = doc_best_passages(result.trajectory, result.documents), "doc-best"
                hybrid_docs = list(dict.fromkeys(h.chunk.doc_id for h in hits))[:10]
                rec = {
                    "id": task.task_id, "gold": list(task.gold_doc_ids), "answers": list(task.answers),
                    "hybrid": {"passages": [h.chunk.chunk_id for h in hits[:5]], "docs": hybrid_docs, "s": hybrid_s},
                    "first": {"passages": first_search(result.trajectory), "docs": first_search_docs(result.trajectory),
                              "s": 0.0},
                    "agent": {"passages": passages, "kind": kind, "docs": result.doc_ids, "s": agent_s},
                }
                for keep in args.keeps:  # the same episode, answered under other first-search rules
                    for margin in args.margins:
                        label = f"margin={margin:g}" if keep == 5 else f"keep={keep},margin={margin:g}"
                        rec[label] = reanswer(agent, result.trajectory, margin, keep)
                for variant in args.variant:  # named answer settings (--variant)
                    label, overrides = parse_variant(variant)
                    cfg = agent.backend.config
                    rec[label] = reanswer(agent, result.trajectory, overrides.pop("first_search_margin", cfg.first_search_margin),
                                          overrides.pop("first_search_keep", cfg.first_search_keep), **overrides)
                for key in [k for k in rec if isinstance(rec[k], dict)]:
                    texts = [chunk_text(corpus, c) for c in rec[key]["passages"][:5]]
                    rec[key]["answer_found"] = answer_found(texts, task.answers)
                log.write(json.dumps(rec, ensure_ascii=False) + "\n")
                log.flush()
                print(f"[{name} {args.label} {i + 1}/{len(tasks)}]", flush=True)
        corpus.close()


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


_FORM_NAME = re.compile(r"\s?-\s?[QK]\b", re.IGNORECASE)  # "10-Q", "10-K": a form's name, not a figure
_FORM_NUMBER = re.compile(r"(?<![\d.])\d+\s?-\s?[QK]\b", re.IGNORECASE)


def figures(answer: str, strict: bool = False) -> list[str]:
    """The figures of a reference answer (module docstring), normalised: digits and one dot.
    strict: a form's number ("10" of "10-Q") is no figure."""
    out = []
    for m in _NUMBER.finditer(answer):
        if strict and _FORM_NAME.match(answer, m.end()):
            continue
        raw = m.group(0).replace(",", "").rstrip(".")
        digits = raw.replace(".", "")
        if len(digits) < 2 or (len(raw) == 4 and raw.isdigit() and 1990 <= int(raw) <= 2039):
            continue
        if m.start() > 0 and answer[m.start() - 1] in "Qq":
            continue
        if raw not in out:
            out.append(raw)
    return out


def _filings_passages() -> Any:
    """benchmarks/filings_passages.py, whose `--units on` figure rule `--units on` reads here (imported when first
    used: that script imports this one; its folder put on the path when this module was loaded from elsewhere)."""
    import importlib
    import sys

    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    return importlib.import_module("filings_passages")


def figures_found(texts: list[str], wanted: list[str], strict: bool = False,
                  scaled: dict[str, list[int]] | None = None) -> float:
    """1.0 when at least half of `wanted` appear in `texts`; strict: a passage's "10-Q" holds no "10"; `scaled`
    (`--units on`: benchmarks/filings_passages.py's `scaled_figures` of the answer): a figure stated in billions
    or millions is also held by a table's grouped number in smaller units, by that script's own rule."""
    if strict:
        texts = [_FORM_NUMBER.sub(" ", t) for t in texts]
    haystack = " " + " ".join(_NUMBER.sub(lambda m: m.group(0).replace(",", ""), t) for t in texts) + " "
    held = {f for f in wanted if re.search(r"(?<![\d.])" + re.escape(f) + r"(?![\d])", haystack)}
    if scaled:
        held |= _filings_passages().scaled_held(set(wanted) - held, texts, scaled)
    return float(len(held) * 2 >= len(wanted))


# The phrase rule (`--answers phrase`): a reference answer without figures ("What drove …", "How does …
# relate to …") is held by a passage that holds, in that one passage, at least PHRASE_SHARE of the answer's
# content words. Content words: the answer before "SOURCE(S):", lower-cased, split on anything but letters
# and "&", minus stopwords, minus the words that only name the filing or its period (company names are left
# to the next step; months, "quarter", "fiscal", "10-Q", every number: periods and form codes are no figures,
# as in `figures`), minus every word the question itself holds (an answer word the question gives away is
# found by any passage the search returns for it, so it is no evidence), each reduced to a light stem
# (`stem`: "sales"/"sale", "increased"/"increases"/"increasing"). An answer left with fewer than
# PHRASE_MIN_WORDS content words cannot be told from the question and is not scored (None). Neither is an answer
# whose first sentence says the filing does not give it ("The latest 10-Q does not provide a direct comparison …"):
# no passage can hold an absence (the tuning half's hand check counted 3 such answers as misses for every ranking).
PHRASE_SHARE = 0.5
PHRASE_MIN_WORDS = 3
_ABSENT = re.compile(r"\b(?:does|do|did) not (?:provide|contain|specify|disclose|detail|include|mention|break|give)"
                     r"|\bno specific information\b", re.IGNORECASE)
_STOP = frozenset("""a about above after again against all also an and any are as at be because been before being
below between both but by can could did do does doing down during each either few for from further had has have
having he her here hers him his how however i if in into is it its itself just may might more most much must my
no nor not of off on once only or other our out over own same she should so some such than that the their theirs
them then there these they this those through thus to too under until up upon very was we were what when where
whether which while who whom why will with within would you your yet via per one two three such etc
company company's companies document filing report reported reports 10-q 10-k q quarter quarterly fiscal year years
month months ended ending period periods january february march april may june july august september october
november december q1 q2 q3 q4 mention mentioned mentions provide provided provides information""".split())
_WORD = re.compile(r"[a-z][a-z&]*")


def stem(word: str) -> str:
    """A light stem: plural and verb endings off, then a final "e" ("increases", "increased",
    "increasing" -> "increas"; "companies" -> "company"; "sales"/"sale" -> "sal")."""
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    if word.endswith("ied") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("ed") and len(word) > 4:
        word = word[:-2]
    elif word.endswith("ing") and len(word) > 5:
        word = word[:-3]
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def _words(text: str) -> list[str]:
    """Lower-cased words, a possessive's "'s" off (the CSV's mis-decoded apostrophe "â€™" read as one)."""
    text = text.lower().replace("\u00e2\u20ac\u2122", "'").replace("\u2019", "'").replace("'s", "")
    return _WORD.findall(text)


def _stems(text: str) -> set[str]:
    return {stem(w) for w in _words(text) if w not in _STOP}


def answer_words(answer: str, question: str) -> list[str]:
    """The phrase rule's content words of a reference answer (stems, answer order, distinct)."""
    body = re.split(r"SOURCE\(S\)\s*:", answer, flags=re.IGNORECASE)[0]
    if _ABSENT.search(re.split(r"(?<=[.!?])\s", body.strip(), maxsplit=1)[0]):
        return []  # an absence: nothing to hold (phrase_found: not scored)
    asked = _stems(question)
    out: list[str] = []
    for w in _words(body):
        s = stem(w)
        if w not in _STOP and s not in asked and s not in out:
            out.append(s)
    return out


def phrase_share(text: str, words: list[str]) -> float:
    """The share of `words` (answer_words) one passage text holds."""
    have = _stems(text)
    return sum(1 for w in words if w in have) / len(words) if words else 0.0


def phrase_found(texts: list[str], words: list[str], share: float = PHRASE_SHARE) -> float | None:
    """1.0 when one of `texts` holds at least `share` of `words`; None when the answer has too few
    content words to be scored (PHRASE_MIN_WORDS)."""
    if len(words) < PHRASE_MIN_WORDS:
        return None
    return float(any(phrase_share(t, words) >= share for t in texts))


def answer_held(texts: list[str], figures_wanted: list[str], words: list[str],
                scaled: dict[str, list[int]] | None = None) -> float | None:
    """`--answers phrase`: a question with (strict) figures keeps the figure rule; any other the phrase rule."""
    if figures_wanted:
        return figures_found(texts, figures_wanted, strict=True, scaled=scaled)
    return phrase_found(texts, words)


def filings_split(question_id: str) -> str:
    """benchmarks/search_policy.py's split of the filings questions (SHA-1 of the id: even tuning, odd
    reporting), restated: importing that module puts this tree first on sys.path, and the "before"
    run must measure main's code."""
    return "tuning" if int(hashlib.sha1(question_id.encode()).hexdigest(), 16) % 2 == 0 else "report"


def filings_backend(corpus: Any, policy: str | None) -> Any:
    """The agent's driver for `filings --policy`: None (the default LLM-free policy), "prior" (the
    learned policy untrained) or a trained policy folder (`context1 train policy`)."""
    if policy is None:
        return None
    from context1.backends import LearnedSearchPolicy

    if policy == "prior":
        return LearnedSearchPolicy(corpus)
    if not Path(policy).is_dir():
        raise SystemExit(f"--policy {policy!r}: no policy folder there (make one with `context1 train policy`, "
                         "or pass 'prior' for the untrained learned policy)")
    return LearnedSearchPolicy(corpus, Path(policy))


def filings(args: argparse.Namespace) -> None:
    import csv

    from context1 import SearchAgent
    from corpus_tools import Corpus

    if args.policy is not None and args.variant:
        raise SystemExit("--variant re-answers under IterativeConfig fields: the LLM-free policy's, not --policy's")
    corpus = Corpus.open(args.index, reranker=args.reranker) if args.reranker else Corpus.open(args.index)
    if args.line_items is not None:  # SearchConfig.line_item_names / line_item_expansion (code before them: ignored)
        import dataclasses

        search = corpus.config.search
        if hasattr(search, "line_item_names"):
            search = dataclasses.replace(search, line_item_names=args.line_items in ("both", "names"),
                                         line_item_expansion=args.line_items in ("both", "expand"))
            corpus.config = dataclasses.replace(corpus.config, search=search)
    if args.line_item_rows is not None:
        import dataclasses

        search = dataclasses.replace(corpus.config.search, line_item_rows=args.line_item_rows)
        corpus.config = dataclasses.replace(corpus.config, search=search)
    if args.prose_beside_tables is not None:
        import dataclasses

        search = dataclasses.replace(corpus.config.search, prose_beside_tables=args.prose_beside_tables == "on")
        corpus.config = dataclasses.replace(corpus.config, search=search)
    if args.first_stage_weight is not None:  # with --reranker: how much of the fused (lifted) order is kept
        import dataclasses

        search = dataclasses.replace(corpus.config.search, first_stage_weight=args.first_stage_weight)
        corpus.config = dataclasses.replace(corpus.config, search=search)
    docs = set(corpus.doc_ids())
    scaled_figures = _filings_passages().scaled_figures  # one search's scorer's reading of figures in a table's units
    phrase = args.answers == "phrase"  # every question: figures by the strict figure rule, the rest by phrase_found
    chosen = []
    with args.qna.open(encoding="utf-8-sig", newline="") as f:
        for i, row in enumerate(csv.DictReader(f)):
            doc = row["Source Docs"].strip().strip("*") + ".pdf"
            qid = f"q{i}"
            wanted = figures(row["Answer"], args.strict_figures or phrase)
            if (row["Question Type"].startswith("Single-Doc") and doc in docs and filings_split(qid) == args.part
                    and (wanted or phrase)):
                words = [] if wanted else answer_words(row["Answer"], row["Question"])
                chosen.append({"id": qid, "question": row["Question"].strip(), "gold": doc, "figures": wanted,
                               "words": words, "answer": row["Answer"].strip(),
                               "scaled": scaled_figures(row["Answer"]) if args.units == "on" else None})
    chosen = chosen[: args.limit]
    strict = args.strict_figures or phrase

    def held(texts: list[str], q: dict) -> float | None:
        if phrase:
            return answer_held(texts, q["figures"], q["words"], q["scaled"])
        return figures_found(texts, q["figures"], strict, q["scaled"])
    agent = SearchAgent(corpus, filings_backend(corpus, args.policy))
    agent.run(chosen[0]["question"])  # warm-up
    # the agent passes the question's constraints on every search (AgentConfig.constraints): the fair
    # one-search baseline does too (code before issue 35 has no constraints: the plain search twice)
    has_constraints = "constraints" in inspect.signature(corpus.search).parameters
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for i, q in enumerate(chosen):
        hits = corpus.search(q["question"], k=5)
        constrained = corpus.search(q["question"], k=5, constraints="auto") if has_constraints else hits
        t0 = time.perf_counter()
        result = agent.run(q["question"])
        secs = time.perf_counter() - t0
        evidence = getattr(result, "evidence", None)
        passages = ([e.text for e in evidence] if evidence else
                    [corpus.chunk(c).text for c in doc_best_passages(result.trajectory, result.documents)])
        row = {"id": q["id"], "s": secs, "kind": "evidence" if evidence else "doc-best", "gold": q["gold"],
               "figures": q["figures"], "passages": [e.chunk_id for e in evidence] if evidence else [],
               "search_passages": [h.chunk.chunk_id for h in hits],
               "search": held([h.chunk.text for h in hits], q),
               "search_constrained": held([h.chunk.text for h in constrained], q),
               "agent": held(passages[:5], q),
               "gold_first": float(bool(result.doc_ids) and result.doc_ids[0] == q["gold"])}
        for variant in args.variant:  # the same episode answered under other IterativeConfig fields
            label, overrides = parse_variant(variant)
            cfg = agent.backend.config
            cited = reanswer(agent, result.trajectory, overrides.pop("first_search_margin", cfg.first_search_margin),
                             overrides.pop("first_search_keep", cfg.first_search_keep), **overrides)["passages"]
            row[label] = held([chunk_text(corpus, c) for c in cited[:5]], q)
        if phrase:  # what the hand check and a later re-scoring read: the rule, the words, both top 5s
            row.update(rule="figures" if q["figures"] else "phrase", words=q["words"], question=q["question"],
                       answer=q["answer"], constrained_passages=[h.chunk.chunk_id for h in constrained])
        rows.append(row)
        print(f"[filings {args.part} {args.label} {i + 1}/{len(chosen)}]", flush=True)
    (OUT / f"filings-{args.part}-{args.label}{_suffix(args)}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    if phrase:  # rows the phrase rule cannot score (too few content words) are left out of every mean
        print(f"not scored (fewer than {PHRASE_MIN_WORDS} content words beyond the question): "
              f"{[r['id'] for r in rows if r['agent'] is None]}")
        rows = [r for r in rows if r["agent"] is not None]
    n = len(rows)
    what = "answers" if phrase else "figures"
    nf = sum(1 for r in rows if r["figures"])
    print(f"| filings ({args.part}, {n} scored: {nf} figures, {n - nf} phrases) | {what} in top 5: one search | "
          f"one search, constraints auto | {what} in top 5: agent ({rows[0]['kind']}) | gold filing first | ask s p50 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    print(f"| {args.label} | {sum(r['search'] for r in rows) / n:.3f} | {sum(r['search_constrained'] for r in rows) / n:.3f} | "
          f"{sum(r['agent'] for r in rows) / n:.3f} | {sum(r['gold_first'] for r in rows) / n:.3f} | "
          f"{statistics.median(r['s'] for r in rows):.2f} |")
    for variant in args.variant:
        label = parse_variant(variant)[0]
        print(f"| {args.label}, {label} | | | {sum(r[label] for r in rows) / n:.3f} | | |")
    # won/lost of the agent's passages against the constrained search and each variant (questions where
    # the agent holds the figures and the other does not / the other way round)
    for other in ["search_constrained"] + [parse_variant(v)[0] for v in args.variant]:
        won = [r["id"] for r in rows if r["agent"] > r[other]]
        lost = [r["id"] for r in rows if r["agent"] < r[other]]
        print(f"agent vs {other}: won {len(won)} {won}, lost {len(lost)} {lost}")


_FLAG = {"": "", "-strict": " --strict-figures", "-phrase": " --answers phrase"}  # the run each suffix names


def _suffix(args: argparse.Namespace) -> str:
    """A saved filings run's file suffix: "-phrase" (--answers phrase), "-strict" (--strict-figures) or none, then
    "-units" for a --units on run."""
    rule = "-phrase" if getattr(args, "answers", "figures") == "phrase" else "-strict" if args.strict_figures else ""
    return rule + ("-units" if getattr(args, "units", "off") == "on" else "")


def _covered(passages: list[str], gold: list[str], k: int = 5) -> int:
    docs = {c.rpartition("#")[0] for c in passages[:k]}
    return sum(1 for g in gold if g in docs)


def _row(recs: list[dict], key: str) -> dict[str, float | None]:
    def mean(values: list[float | None]) -> float | None:
        kept = [v for v in values if v is not None]
        return sum(kept) / len(kept) if kept else None

    out: dict[str, float | None] = {
        "af": mean([r[key].get("answer_found") for r in recs]),
        "pr5": mean([_covered(r[key]["passages"], r["gold"]) / len(r["gold"]) for r in recs]),
        "pall5": mean([float(_covered(r[key]["passages"], r["gold"]) == len(r["gold"])) for r in recs]),
        "dr5": None, "dall10": None, "s": None,
    }
    if "docs" in r_first(recs, key):
        out["dr5"] = mean([sum(1 for g in r["gold"] if g in r[key]["docs"][:5]) / len(r["gold"]) for r in recs])
        out["dall10"] = mean([float(all(g in r[key]["docs"][:10] for g in r["gold"])) for r in recs])
        secs = [r[key]["s"] for r in recs if r[key]["s"]]
        out["s"] = statistics.median(secs) if secs else None
    return out


def won_lost(recs: list[dict], key: str) -> list[tuple[int, int]]:
    """Questions where `key`'s ranking beats / loses to the agent's own first search, on passage R@5,
    answer-found@5 (questions with an answer) and doc all-R@10 (the first search's documents: the
    distinct documents of its observation, `first_search_docs`; old runs without them: "–")."""
    def cmp(a: float | None, b: float | None) -> int:
        return 0 if a is None or b is None else (a > b) - (a < b)

    def all10(r: dict, k: str) -> float | None:
        docs = r[k].get("docs")
        return None if docs is None else float(all(g in docs[:10] for g in r["gold"]))

    out = []
    for metric in (lambda r, k: _covered(r[k]["passages"], r["gold"]), lambda r, k: r[k].get("answer_found"), all10):
        c = [cmp(metric(r, key), metric(r, "first")) for r in recs]
        out.append((sum(x > 0 for x in c), sum(x < 0 for x in c)))
    return out


def r_first(recs: list[dict], key: str) -> dict:
    return recs[0][key] if recs else {}


def table(args: argparse.Namespace) -> None:
    def f(x: float | None) -> str:
        return "–" if x is None else f"{x:.3f}"

    print("| set (part, n) | ranking | passage answer-found@5 | passage R@5 | passage all-R@5 | doc R@5 | doc all-R@10 | "
          "s / question (p50) | won / lost vs its first search (passage R@5; answer-found@5; doc all-R@10) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in args.sets:
        for label in args.labels:
            path = OUT / f"{name}-{args.part}-{label}.jsonl"
            if not path.exists():
                print(f"| {name} | ({label}: no run at {path.relative_to(ROOT)}) | | | | | | | |")
                continue
            recs = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
            where = f"{name} ({args.part}, {len(recs)})"
            keys = (["hybrid"] if label == args.labels[0] else []) + ["first", "agent"]
            keys += [k for k in recs[0] if isinstance(recs[0][k], dict) and k not in ("hybrid", "first", "agent")
                     ] if recs else []
            for key in keys:
                row = _row(recs, key)
                kind = r_first(recs, "agent").get("kind", "")
                name_of = {"hybrid": "one hybrid search", "first": f"agent's first search ({label})",
                           "agent": f"agent ({label}; passages: {kind})"}.get(key, f"agent ({label}), {key}")
                wl = ""
                if key not in ("hybrid", "first"):
                    wl = "; ".join(f"{w} / {lo}" for w, lo in won_lost(recs, key))
                secs = "" if row["s"] is None else f"{row['s']:.2f}"
                print(f"| {where} | {name_of} | {f(row['af'])} | {f(row['pr5'])} | {f(row['pall5'])} | {f(row['dr5'])} | "
                      f"{f(row['dall10'])} | {secs} | {wl} |")


def _mean3(values: list[float]) -> str:
    return f"{statistics.fmean(values):.3f}" if values else "–"


def variants(args: argparse.Namespace) -> None:
    """Two answer settings of one saved `run` (`--variant` rows, or "agent"), the second against the first, per set:
    passage R@5, answer-found@5 and doc all-R@10 — means, the paired difference with its 95 % bootstrap interval
    (questions resampled, seed 0) and questions won / lost. Also each setting's won / lost against one hybrid
    search on passage R@5 (issue 34: never worse than one search)."""
    import random

    def boot(a: list[float], b: list[float]) -> str:
        d = [y - x for x, y in zip(a, b, strict=True)]
        if not d:
            return "–"
        rng = random.Random(0)
        means = sorted(sum(rng.choice(d) for _ in d) / len(d) for _ in range(2000))
        return (f"{statistics.fmean(d):+.3f} [{means[49]:+.3f}, {means[1949]:+.3f}] "
                f"{sum(x > 0 for x in d)}/{sum(x < 0 for x in d)}")

    base, other = args.keys
    print(f"| set (part, n) | metric | {base} | {other} | {other} − {base} [95 % CI] won/lost | "
          f"{base} vs one search won/lost | {other} vs one search won/lost |")
    print("| --- | --- | ---: | ---: | --- | --- | --- |")
    metrics = {"passage R@5": lambda r, k: _covered(r[k]["passages"], r["gold"]) / len(r["gold"]),
               "answer-found@5": lambda r, k: r[k].get("answer_found"),
               "doc all-R@10": lambda r, k: (None if r[k].get("docs") is None
                                             else float(all(g in r[k]["docs"][:10] for g in r["gold"])))}
    for name in args.sets:
        path = OUT / f"{name}-{args.part}-{args.label}.jsonl"
        if not path.exists():
            raise SystemExit(f"no run at {path}: `run --label {args.label} --part {args.part}` first")
        recs = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        missing = [k for k in args.keys if recs and k not in recs[0]]
        if missing:
            raise SystemExit(f"{path.name} has no {missing}: rows are {[k for k in recs[0] if isinstance(recs[0][k], dict)]}")
        for metric, get in metrics.items():
            pairs = [(get(r, base), get(r, other), get(r, "hybrid")) for r in recs]
            pairs = [p for p in pairs if None not in p[:2]]
            a, b = [p[0] for p in pairs], [p[1] for p in pairs]
            vs = []
            for col in (a, b):
                hy = [(x, p[2]) for x, p in zip(col, pairs, strict=True) if p[2] is not None]
                vs.append(f"{sum(x > h for x, h in hy)}/{sum(x < h for x, h in hy)}" if hy else "–")
            print(f"| {name} ({args.part}, {len(pairs)}) | {metric} | {_mean3(a)} | {_mean3(b)} | {boot(a, b)} | "
                  f"{vs[0]} | {vs[1]} |")


def filings_compare(args: argparse.Namespace) -> None:
    """Saved `filings` runs side by side: figures in the top 5 of one constrained search and of the agent,
    per label; each label's row against the first label's same row (a fitted fusion changes the search,
    a policy the agent): questions won / lost and a 95 % paired bootstrap interval of the difference
    (questions resampled, seed 0)."""
    import random

    suffix = _suffix(args)
    runs = {}
    for label in args.labels:
        path = OUT / f"filings-{args.part}-{label}{suffix}.jsonl"
        if not path.exists():
            raise SystemExit(f"no run at {path} (run `agent_passages.py filings --label {label} --part {args.part}"
                             f"{_FLAG[suffix.removesuffix('-units')]}{' --units on' if suffix.endswith('-units') else ''}"
                             "` first)")
        lines = path.read_text(encoding="utf-8").splitlines()
        runs[label] = {r["id"]: r for r in (json.loads(x) for x in lines if x.strip())}
    base = args.labels[0]
    ids = [i for i in runs[base] if all(i in run for run in runs.values()) and runs[base][i]["agent"] is not None]
    if args.rule != "all":  # --answers phrase runs: the figure questions or the phrase questions alone
        ids = [i for i in ids if bool(runs[base][i]["figures"]) == (args.rule == "figures")]
    print(f"| filings ({args.part}, {len(ids)} scored{', ' + suffix[1:] if suffix else ''}, {args.rule}) | "
          f"{'answers' if suffix.startswith('-phrase') else 'figures'} in top 5 | vs the same row of {base}: B − A [95 % bootstrap] | won / lost |")
    print("| --- | ---: | --- | ---: |")
    for key, what in (("search_constrained", "one search, constraints auto"), ("agent", "agent")):
        for label in args.labels:
            values = {i: runs[label][i][key] for i in ids}
            cell = wl = ""
            if label != base:
                d = [values[i] - runs[base][i][key] for i in ids]
                rng = random.Random(0)
                boot = sorted(sum(rng.choice(d) for _ in d) / len(d) for _ in range(2000))
                cell = f"{sum(d) / len(d):+.3f} [{boot[50]:+.3f}, {boot[1949]:+.3f}]"
                wl = f"{sum(x > 0 for x in d)} / {sum(x < 0 for x in d)}"
            print(f"| {what} ({label}) | {sum(values.values()) / len(ids):.3f} | {cell} | {wl} |")


def filings_phrases(args: argparse.Namespace) -> None:
    """The phrase rule's hand check: for each question of a saved `--answers phrase` run that the phrase
    rule scores, its question, answer, content words, and the passage of the agent's top 5 (and of one
    search's, where it differs) that holds the largest share of them, with that share and the verdict."""
    from corpus_tools import Corpus

    corpus = Corpus.open(args.index)
    path = OUT / f"filings-{args.part}-{args.label}-phrase.jsonl"
    for r in (json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()):
        if r["figures"]:
            continue
        print(f"=== {r['id']} [{r['rule']}] {r['question']}\nANSWER: {r['answer'][:900]}\nWORDS ({len(r['words'])}): "
              f"{' '.join(r['words'])}")
        for key, ids in (("agent", r["passages"][:5]), ("one search", r["constrained_passages"][:5])):
            texts = [chunk_text(corpus, c) for c in ids]
            if not texts:
                continue
            best = max(range(len(texts)), key=lambda i: phrase_share(texts[i], r["words"]))
            share = phrase_share(texts[best], r["words"])
            held_words = sorted(w for w in r["words"] if w in _stems(texts[best]))
            print(f"--- {key}: best passage {ids[best]} share {share:.2f} "
                  f"({'HELD' if share >= PHRASE_SHARE and len(r['words']) >= PHRASE_MIN_WORDS else 'not held'}); "
                  f"words held: {' '.join(held_words)}\n{' '.join(texts[best].split())[:args.chars]}")
            if key == "agent" and ids == r["constrained_passages"][:5]:
                break


# `filings-trace`: the agent's episodes on a filings half, kept so that answer rules can be tried offline, and where
# the passages that would complete a missed answer sat. An episode holds each observation's tool, query and chunk ids
# (a later search never shows a chunk shown before: the harness excludes every shown chunk from later fetches,
# `Runtime.exclude`, so agreement between two searches cannot be read off the observations), the answer's passages,
# the question's own constrained search's top TRACE_FIRST, and per chunk what of the answer it holds on its own:
# the wanted figures it states (docugami, the strict figure rule) or whether it is the question's filing on an
# evidence page (FinanceBench). Holding is then a union over passages, as the benchmarks score it.
TRACE_FIRST = 30


def episode_held(ep: dict, ids: list[str]) -> bool:
    """Whether passages `ids` (the top 5 of them) hold the episode's answer: half of its figures between them
    (`figures_found`'s rule, per chunk), or one passage on an evidence page of the question's filing."""
    holds = ep["holds"]
    if ep["rule"] == "page":
        return any(holds.get(c) for c in ids[:5])
    found = {f for c in ids[:5] for f in holds.get(c) or ()}
    return len(found) * 2 >= len(ep["figures"])


def holder_places(ep: dict) -> dict:
    """Where an answer's missing piece sat. held: the answer's top 5 holds it; slot5_needed: held, but not by its top
    4 (so any rule that gives the 5th place away can lose it); later: (observation number, rank, query) of each
    passage of a later observation that, put in the 5th place, completes a missed answer; first: such passages'
    ranks in the question's own constrained search (beyond its top 5)."""
    top = ep["passages"][:5]
    held = episode_held(ep, top)
    out: dict = {"held": held, "slot5_needed": held and not episode_held(ep, top[:4]), "later": [], "first": []}
    if held:
        return out
    for i, obs in enumerate(ep["observations"][1:], start=1):
        for rank, cid in enumerate(obs["ids"], start=1):
            if cid not in top and episode_held(ep, top[:4] + [cid]):
                out["later"].append((i, rank, obs["query"]))
    out["first"] = [rank for rank, cid in enumerate(ep["first"], start=1)
                    if rank > 5 and cid not in top and episode_held(ep, top[:4] + [cid])]
    return out


def trace_questions(args: argparse.Namespace, corpus: Any) -> list[dict]:
    """The half's questions: docugami's single-filing figure questions (as `filings --strict-figures` picks them) or
    FinanceBench's (benchmarks/financebench.py's halves, held at an evidence page)."""
    if args.questions == "financebench":
        import financebench

        return [dict(q, rule="page") for q in financebench.held_questions(financebench.load_jsonl(None), corpus.doc_ids())
                if q["part"] == args.part][: args.limit]
    import csv

    docs = set(corpus.doc_ids())
    chosen = []
    with args.qna.open(encoding="utf-8-sig", newline="") as f:
        for i, row in enumerate(csv.DictReader(f)):
            doc, wanted = row["Source Docs"].strip().strip("*") + ".pdf", figures(row["Answer"], True)
            if row["Question Type"].startswith("Single-Doc") and doc in docs and filings_split(f"q{i}") == args.part \
                    and wanted:
                chosen.append({"id": f"q{i}", "question": row["Question"].strip(), "doc": doc, "figures": wanted,
                               "rule": "figures"})
    return chosen[: args.limit]


def chunk_holds(corpus: Any, q: dict, cid: str) -> Any:
    """What chunk `cid` holds of `q`'s answer on its own (see `episode_held`)."""
    from corpus_tools.types import UnknownDocumentError

    try:
        chunk = corpus.chunk(cid)
    except UnknownDocumentError:
        return None
    if q["rule"] == "page":
        return chunk.doc_id == q["doc"] and chunk.metadata.get("page") in q["pages"]
    return [f for f in q["figures"] if figures_found([chunk.text], [f], True)]


def filings_trace(args: argparse.Namespace) -> None:
    from context1 import SearchAgent
    from corpus_tools import Corpus

    corpus = Corpus.open(args.index)
    chosen = trace_questions(args, corpus)
    if not chosen:
        raise SystemExit(f"{args.index} holds no filing of a {args.part}-half {args.questions} question")
    # --refound: later searches record the shown chunks they match again (AgentConfig.refound), so an answer rule
    # can read agreement between the agent's searches offline
    agent = SearchAgent(corpus, config=_refound_config(args.refound))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    eps = []
    with args.out.open("w", encoding="utf-8") as log:
        for q in chosen:
            result = agent.run(q["question"])
            observations = []
            for step in result.trajectory.steps:
                calls = {c.id: c.arguments for c in (step.turn.tool_calls or ())}
                for obs in step.observations:
                    a = calls.get(obs.call_id, {})
                    observations.append({"tool": obs.tool, "query": a.get("query") or a.get("pattern") or "",
                                         "ids": list(obs.chunk_ids),
                                         # shown chunks this search matched again, [id, rank] (AgentConfig.refound)
                                         "refound": obs.metadata.get("refound")})
            first = [h.chunk.chunk_id for h in corpus.search(q["question"], k=TRACE_FIRST, constraints="auto")]
            passages = [e.chunk_id for e in (result.evidence or [])]
            shown = {c for o in observations for c in o["ids"]} | set(first) | set(passages)
            ep = {**{k: q[k] for k in ("id", "question", "doc", "figures", "rule", "pages") if k in q}, "passages": passages,
                  "observations": observations, "first": first,
                  "holds": {c: chunk_holds(corpus, q, c) for c in sorted(shown)}}
            log.write(json.dumps(ep) + "\n")
            eps.append(ep)
    places = {ep["id"]: holder_places(ep) for ep in eps}
    for ep in eps:
        p = places[ep["id"]]
        if not p["held"]:
            print(f"miss {ep['id']}: {ep['question'][:90]}\n   later searches that hold a 5th passage completing it "
                  f"(obs, rank): {[(i, r) for i, r, _ in p['later']][:8]}; own search ranks: {p['first'][:8]}")
    misses = [p for p in places.values() if not p["held"]]
    print(f"\n| {args.questions} {args.part} ({len(eps)}) | held by the agent's top 5 | misses | a later search shows a "
          f"completing 5th (at rank 1-3 / any) | own search ranks 6-{TRACE_FIRST} | hits that need the 5th place |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    print(f"| {args.out.name} | {len(eps) - len(misses)} | {len(misses)} | "
          f"{sum(any(r <= 3 for _, r, _ in p['later']) for p in misses)} / {sum(bool(p['later']) for p in misses)} | "
          f"{sum(bool(p['first']) for p in misses)} | {sum(p['slot5_needed'] for p in places.values())} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    fp = sub.add_parser("filings")
    fp.add_argument("--label", required=True)
    fp.add_argument("--index", type=Path, required=True)
    fp.add_argument("--qna", type=Path, default=Path("/work/data/filings10q/qna_data.csv"))
    fp.add_argument("--limit", type=int, default=15)
    fp.add_argument("--part", choices=["report", "tuning"], default="report",
                    help="which half of the questions (filings_split); tune on tuning, report on report")
    fp.add_argument("--variant", action="append", default=[], metavar="NAME=key:value,...",
                    help="also answer each episode with these IterativeConfig fields (repeatable; row NAME)")
    fp.add_argument("--line-items", choices=("both", "names", "expand", "off"), default=None,
                    help="override SearchConfig.line_item_names/line_item_expansion (the line-item vocabulary)")
    fp.add_argument("--line-item-rows", type=int, default=None, help="override SearchConfig.line_item_rows")
    fp.add_argument("--prose-beside-tables", choices=("on", "off"), default=None,
                    help="override SearchConfig.prose_beside_tables (corpus_tools.table_pieces)")
    fp.add_argument("--policy", default=None, metavar="DIR|prior",
                    help="drive the agent with the learned policy: a `context1 train policy` folder, or 'prior' "
                         "for its untrained prior (default: the LLM-free policy)")
    fp.add_argument("--reranker", default=None, metavar="DIR",
                    help="open the index with this reranker (a `context1 train reranker` folder, e.g. a fitted "
                         "fusion): every search, the one-search rows included, uses it")
    fp.add_argument("--first-stage-weight", type=float, default=None,
                    help="override SearchConfig.first_stage_weight (with --reranker: the share of the fused order)")
    fp.add_argument("--strict-figures", action="store_true",
                    help="the \"10\" of \"10-Q\"/\"10-K\" is no figure (module docstring); off: session 28's measure")
    fp.add_argument("--answers", choices=("figures", "phrase"), default="figures",
                    help="phrase: every single-filing question, not only figure answers; figures by the strict "
                         "figure rule, the rest by the phrase rule (phrase_found); runs saved as -phrase")
    fp.add_argument("--units", choices=("off", "on"), default="off",
                    help="on: a figure stated in billions or millions is also held by a table's number in millions or "
                         "thousands that rounds to it (filings_passages.py's rule, imported); runs saved with -units")
    fc = sub.add_parser("filings-compare", help="saved filings runs side by side, each against the first label")
    fc.add_argument("--labels", nargs="+", required=True)
    fc.add_argument("--part", choices=["report", "tuning"], default="report")
    fc.add_argument("--strict-figures", action="store_true", help="read the --strict-figures runs")
    fc.add_argument("--answers", choices=("figures", "phrase"), default="figures", help="read the --answers phrase runs")
    fc.add_argument("--units", choices=("off", "on"), default="off", help="read the --units on runs")
    fc.add_argument("--rule", choices=("all", "figures", "phrase"), default="all",
                    help="with --answers phrase: only the questions the figure / phrase rule scores")
    fh = sub.add_parser("filings-phrases", help="the phrase rule's hand check on a saved --answers phrase run")
    fh.add_argument("--label", required=True)
    fh.add_argument("--index", type=Path, required=True)
    fh.add_argument("--part", choices=["report", "tuning"], default="tuning")
    fh.add_argument("--chars", type=int, default=1200, help="how much of the best passage to print")
    ft = sub.add_parser("filings-trace", help="the agent's episodes on a filings half, saved for offline answer rules, "
                        "and where each missed answer's completing passage sat")
    ft.add_argument("--index", type=Path, required=True)
    ft.add_argument("--questions", choices=("docugami", "financebench"), default="docugami")
    ft.add_argument("--qna", type=Path, default=Path("/work/data/filings10q/qna_data.csv"))
    ft.add_argument("--part", choices=["report", "tuning", "tuning2"], default="tuning",
                    help="tuning2: FinanceBench's tuning-only part (benchmarks/financebench.py EXTRA_TUNING)")
    ft.add_argument("--limit", type=int, default=100)
    ft.add_argument("--out", type=Path, required=True, help="episodes JSONL (one line per question)")
    ft.add_argument("--refound", choices=("on", "off"), default="on",
                    help="record the shown chunks later searches match again (AgentConfig.refound; default on)")
    fv = sub.add_parser("variants", help="two answer settings of one saved run, paired (bootstrap, won/lost)")
    fv.add_argument("--label", required=True)
    fv.add_argument("--keys", nargs=2, required=True, metavar=("BASE", "OTHER"),
                    help="two rows of the run: --variant names or agent")
    fv.add_argument("--sets", nargs="+", default=["hotpotqa", "musique", "locomo"],
                    choices=["hotpotqa", "musique", "locomo"])
    fv.add_argument("--part", choices=["report", "tuning"], default="report")
    for cmd in ("run", "table"):
        p = sub.add_parser(cmd)
        p.add_argument("--sets", nargs="+", default=["hotpotqa", "musique", "locomo"],
                       choices=["hotpotqa", "musique", "locomo"])
        p.add_argument("--part", choices=["report", "tuning"], default="report")
        if cmd == "run":
            p.add_argument("--label", required=True, help="names the run: before (main's code) or after")
            p.add_argument("--limit", type=int, default=60, help="questions per set (default: %(default)s)")
            p.add_argument("--index-root", type=Path, default=Path("/work/indexes"))
            p.add_argument("--data-dir", type=Path, default=Path("/work/shared/data"))
            p.add_argument("--margins", type=lambda v: [float(x) for x in v.split(",") if x.strip()], default=[],
                           help="also answer each episode under these IterativeConfig.first_search_margin values "
                                "(comma-separated; this code only)")
            p.add_argument("--keeps", type=lambda v: [int(x) for x in v.split(",") if x.strip()], default=[5],
                           help="IterativeConfig.first_search_keep values the margins are tried with")
            p.add_argument("--refound", choices=("on", "off"), default="on",
                           help="record the shown chunks later searches match again (AgentConfig.refound; default on)")
            p.add_argument("--variant", action="append", default=[], metavar="NAME=key:value,...",
                           help="also answer each episode with these IterativeConfig fields (repeatable; row NAME)")
        else:
            p.add_argument("--labels", nargs="+", default=["before", "after"])
    args = parser.parse_args()  # the code measured is whatever PYTHONPATH points at (this tree, or main's)
    {"run": run, "table": table, "filings": filings, "filings-compare": filings_compare,
     "filings-phrases": filings_phrases, "filings-trace": filings_trace, "variants": variants}[args.command](args)


if __name__ == "__main__":
    main()
