"""The adversarial reward table (issue 37): one scripted trajectory per degenerate policy, and an honest one.

    python benchmarks/reward_table.py

Every row is the same two-hop task: gold documents A (the bridge's designer) and B (where his tower
is; B#0 holds the answer "Paris"), distractors C–F, an episode limit of 8 turns. "main" is the reward
as it was on main at 5e74342 (`main_reward`, restated below: r_fa over every shown chunk of a returned
document, guessed ids paid, p_turn from 64 turns, an overflow scored 0 and dropped from the batch);
"now" is `training.reward.compute_reward`. A degenerate row must score strictly below the honest
row: "< honest" says whether it does. β = 2 (the last epoch's; β = 4 weighs recall more and makes
padding cheaper) unless --beta says otherwise. No model, no corpus: pure functions.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from context1.types import ModelTurn, Observation, RankedDocument, Step, StopReason, ToolCall, Trajectory
from eval import metrics
from eval.types import Task
from training.reward import NO_ANSWER, POLICY, compute_reward, failure_cause, prune_penalty
from training.types import RewardConfig

TASK = Task("t", "In which city is the tower of the engineer who designed the Garabit bridge?", answers=("Paris",),
            gold_doc_ids=("A", "B"))
CHUNKS = {
    "A#0": "The Garabit viaduct was designed by Gustave Eiffel.",
    "B#0": "Eiffel's tower stands in Paris.",
    "B#1": "The tower is 330 metres tall.",
    "C#0": "The Millau viaduct crosses the Tarn.",
    "D#0": "Eiffel also designed a lock for Panama.",
    "E#0": "Viaducts carry railways over valleys.",
    "F#0": "Towers are tall buildings.",
}
MAX_TURNS = 8
OVERFLOW_ERROR = ("the prompt (2,101 tokens) plus the reply (384) would exceed the model's 2,048-token "
                  "context window")  # context1/agent.py's words


def _obs(ids: Sequence[str], tool: str = "search_corpus") -> Observation:
    text, spans = "", []
    for cid in ids:
        head = f"[{cid}] "
        spans.append([cid, len(text) + len(head), len(text) + len(head) + len(CHUNKS[cid])])
        text += head + CHUNKS[cid] + "\n"
    return Observation(call_id="c", tool=tool, text=text, chunk_ids=tuple(ids),
                       doc_ids=tuple(dict.fromkeys(c.split("#")[0] for c in ids)), metadata={"chunk_spans": spans})


def search(query: str, shown: Sequence[str]) -> Step:
    call = ToolCall(id="c", name="search_corpus", arguments={"query": query})
    return Step(turn=ModelTurn(text="", tool_calls=(call,)), observations=(_obs(shown),) if shown else ())


def prune(ids: Sequence[str]) -> Step:
    call = ToolCall(id="c", name="prune_chunks", arguments={"chunk_ids": list(ids)})
    return Step(turn=ModelTurn(text="", tool_calls=(call,)), pruned=tuple(ids))


def episode(steps: list[Step], returned: Sequence[str], stop: StopReason = StopReason.ANSWERED,
            error: str | None = None) -> Trajectory:
    """An episode of TASK; ANSWERED appends the answer turn citing `returned`, any other stop is a
    fallback ranking of `returned` (what the harness does)."""
    answered = stop is StopReason.ANSWERED
    if answered:
        steps = [*steps, Step(turn=ModelTurn(text="".join(f"<Document id={d}></Document>" for d in returned)))]
    return Trajectory(query=TASK.query, steps=steps, documents=[RankedDocument(d) for d in returned],
                      stop_reason=stop, error=error,
                      metadata={"answer_fallback": not answered, "config": {"max_turns": MAX_TURNS}})


HOP1, HOP2 = "Garabit bridge designer", "Gustave Eiffel tower city"


def rows() -> list[tuple[str, Trajectory]]:
    """(policy, trajectory): the honest policy first, then each degenerate one."""
    honest_steps = [search(HOP1, ["A#0", "C#0", "E#0"]), search(HOP2, ["B#0", "D#0", "F#0"])]
    return [
        ("honest: two hops, answer-bearing first", episode(honest_steps, ["B", "A"])),
        ("never answer (turn limit)", episode(honest_steps + [search(f"more {i}", []) for i in range(MAX_TURNS - 2)],
                                              ["B", "A"], StopReason.MAX_TURNS)),
        ("overflow the context window", episode(honest_steps, ["B", "A"], StopReason.TOKEN_BUDGET, OVERFLOW_ERROR)),
        ("answer with guessed ids (B unseen)", episode(honest_steps[:1], ["A", "B"])),
        ("answer with guessed ids only", episode([], ["B", "A"])),
        ("return everything seen", episode(honest_steps, ["A", "C", "E", "B", "D", "F"])),
        ("one broad search then quit", episode([search("Eiffel", ["A#0", "D#0", "C#0"])], ["A", "D", "C"])),
        ("repeat the same search", episode([search(HOP2, ["A#0", "C#0", "E#0"]), search(HOP2, ["B#0", "D#0", "F#0"]),
                                            search(HOP2, ["B#1"])], ["B", "A"])),
        ("search until the limit nears", episode(honest_steps + [search(f"more {i}", ["B#1"] if i == 0 else [])
                                                                 for i in range(5)], ["B", "A"])),
        ("prune one chunk at a time", episode(honest_steps + [prune([c]) for c in ("C#0", "E#0", "D#0", "F#0")],
                                              ["B", "A"])),
    ]


def main_reward(traj: Trajectory, beta: float, config: RewardConfig = RewardConfig(), task: Task = TASK,
                chunk_text: Callable[[str], str | None] = CHUNKS.get) -> float | None:
    """The reward at main 5e74342 (training/reward.py then), restated; None = dropped from the batch.
    task, chunk_text (chunk id → text): this table's by default; benchmarks/reward_rescore.py passes
    a run's own."""
    reason = traj.stop_reason.value if traj.stop_reason else None
    if reason in ("backend_error", "cancelled") or traj.error is not None:
        return None  # scored 0 and dropped by build_batch
    if reason != "answered":
        return -config.no_answer_penalty
    if traj.metadata.get("answer_fallback") is True or not traj.documents:
        return -config.empty_answer_penalty
    units = metrics.gold_units(task, config.granularity)
    returned = [d.doc_id for d in traj.documents]
    fb = metrics.f_beta_score(metrics.precision(returned, units), metrics.recall(returned, units), beta) or 0.0
    tr = metrics.trajectory_recall(traj, units) or 0.0
    shown = [c for c in traj.seen_chunk_ids() if c.split("#")[0] in returned]  # any shown chunk of a returned doc
    found = metrics.answer_found([chunk_text(c) or "" for c in shown], task.answers) or 0.0
    pre = config.f_beta_weight * fb + config.trajectory_weight * tr + config.answer_bonus * found
    frac = (len(traj.steps) - 64) / 64
    turn = config.turn_penalty_max * min(1.0, max(0.0, frac))
    raw = pre - prune_penalty([c.name for s in traj.steps for c in s.turn.tool_calls], config) - turn
    return max(min(raw, pre), config.epsilon)


def table(beta: float) -> list[dict[str, object]]:
    """One dict per row: policy, main (None: dropped), now, kept (in the batch now), below_honest."""
    out = []
    for name, traj in rows():
        b = compute_reward(traj, TASK, beta=beta)
        out.append({"policy": name, "main": main_reward(traj, beta), "now": b.reward,
                    "kept": failure_cause(traj) != "infrastructure", "breakdown": b})
    honest_main, honest_now = out[0]["main"], out[0]["now"]
    for row in out[1:]:
        main = row["main"]
        row["main_below"] = main is not None and main < honest_main  # type: ignore[operator]
        row["now_below"] = row["now"] < honest_now  # type: ignore[operator]
    return out


def _mark(row: dict[str, object], key: str) -> str:
    return "" if key not in row else ("yes" if row[key] else "**no**")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--beta", type=float, default=2.0)
    args = parser.parse_args()
    print("| policy | main 5e74342 | < honest | now | < honest | F_beta | r_traj | r_fa | penalties | ending |")
    print("| --- | ---: | :-: | ---: | :-: | ---: | ---: | ---: | ---: | --- |")
    for row in table(args.beta):
        b = row["breakdown"]
        main = "dropped (0)" if row["main"] is None else f"{row['main']:+.3f}"
        pen = b.prune_penalty + b.turn_penalty + b.repeat_penalty if b.concluded else b.fallback_penalty
        ending = b.ending + (" (overflow, kept)" if b.failure == POLICY else "")
        print(f"| {row['policy']} | {main} | {_mark(row, 'main_below')} | {b.reward:+.3f} | {_mark(row, 'now_below')} | "
              f"{b.f_beta:.3f} | {b.trajectory_recall:.2f} | {b.answer_found:.0f} | {pen:.3f} | {ending} |")
    # The same episode (one search, saw A only) answered without and with a guessed gold title:
    # on main the guess paid; now it costs precision.
    seen_a = [search(HOP1, ["A#0", "C#0", "E#0"])]
    honest_a, guessed = episode(seen_a, ["A"]), episode(seen_a, ["A", "B"])
    print("\n| same episode (saw A only) | main 5e74342 | now |")
    print("| --- | ---: | ---: |")
    for name, traj in (("answer A", honest_a), ("answer A + guessed B", guessed)):
        print(f"| {name} | {main_reward(traj, args.beta):+.3f} | {compute_reward(traj, TASK, beta=args.beta).reward:+.3f} |")
    cfg = RewardConfig()
    print(f"\nβ = {args.beta:g}; max_turns = {MAX_TURNS}; no-answer −{cfg.no_answer_penalty}, empty answer "
          f"−{cfg.empty_answer_penalty}, ε = {cfg.epsilon}; {NO_ANSWER} rows are never paid their fallback ranking.")


if __name__ == "__main__":
    main()
