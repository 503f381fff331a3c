"""The RL reward of hand-made trajectories, one per way an episode ends (issue 23).

    python benchmarks/reward_table.py

Each row is a trajectory of the same task (gold documents A and B, answer "Paris"; A's first
chunk holds the answer). "paid before" is what the reward paid before issue 23, when the
harness's fallback ranking was scored like an answer and r_fa read the whole returned document;
"reward" is training.reward.compute_reward today (β = 2). No model, no corpus: pure functions.
"""

from __future__ import annotations

import dataclasses

from context1.types import ModelTurn, Observation, RankedDocument, Step, StopReason, ToolCall, Trajectory
from eval import metrics
from eval.types import Task
from training.reward import compute_reward, conclusion, prune_penalty, turn_penalty
from training.types import RewardConfig

TASK = Task("t", "Which city is the tower in?", answers=("Paris",), gold_doc_ids=("A", "B"))
CHUNKS = {"A#0": "The tower is in Paris.", "A#1": "It is 330 metres tall.", "B#0": "Built in 1889.",
          "C#0": "Unrelated."}
DOCS = {d: " ".join(t for c, t in CHUNKS.items() if c.startswith(d + "#")) for d in "ABC"}


def _obs(ids: list[str]) -> Observation:
    text, spans = "", []
    for cid in ids:
        spans.append([cid, len(text), len(text) + len(CHUNKS[cid])])
        text += CHUNKS[cid] + "\n"
    return Observation(call_id="c", tool="search_corpus", text=text, chunk_ids=tuple(ids),
                       doc_ids=tuple(dict.fromkeys(c.split("#")[0] for c in ids)), metadata={"chunk_spans": spans})


def _step(tool: str, shown: list[str] = (), pruned: tuple[str, ...] = ()) -> Step:
    obs = (_obs(list(shown)),) if shown else ()
    return Step(turn=ModelTurn(text="", tool_calls=(ToolCall(id="c", name=tool, arguments={}),)), observations=obs,
                pruned=pruned)


def _traj(steps: list[Step], docs: list[str], stop: StopReason, fallback: bool, error: str | None = None) -> Trajectory:
    return Trajectory(query=TASK.query, steps=steps, documents=[RankedDocument(d) for d in docs], stop_reason=stop,
                      error=error, metadata={"answer_fallback": fallback})


def paid_before(traj: Trajectory, beta: float, config: RewardConfig = RewardConfig()) -> float:
    """The reward before issue 23: every returned ranking scored, r_fa over whole documents."""
    units = metrics.gold_units(TASK, config.granularity)
    returned = [d.doc_id for d in traj.documents]
    fb = metrics.f_beta_score(metrics.precision(returned, units), metrics.recall(returned, units), beta) or 0.0
    tr = metrics.trajectory_recall(traj, units) or 0.0
    found = metrics.answer_found([DOCS[d] for d in returned if d in DOCS], TASK.answers) or 0.0
    pre = config.f_beta_weight * fb + config.trajectory_weight * tr + config.answer_bonus * found
    names = [c.name for s in traj.steps for c in s.turn.tool_calls]
    raw = pre - prune_penalty(names, config) - turn_penalty(len(traj.steps), config)
    if traj.error is not None:
        return 0.0
    return max(min(raw, pre), config.epsilon)


def rows() -> list[tuple[str, Trajectory]]:
    answer = Step(turn=ModelTurn(text="<Document id=A>...</Document>"))
    return [
        ("concluded (A, B)", _traj([_step("search_corpus", ["A#0", "B#0"]), answer], ["A", "B"],
                                   StopReason.ANSWERED, False)),
        ("concluded, wrong doc (C)", _traj([_step("search_corpus", ["A#0", "C#0"]), answer], ["C"],
                                           StopReason.ANSWERED, False)),
        ("concluded, saw only A#1", _traj([_step("search_corpus", ["A#1", "B#0"]), answer], ["A", "B"],
                                          StopReason.ANSWERED, False)),
        ("pruned then answered", _traj([_step("search_corpus", ["A#0", "B#0"]),
                                        _step("prune_chunks", pruned=("A#0", "B#0")), answer], ["A", "B"],
                                       StopReason.ANSWERED, False)),
        ("empty answer (fallback)", _traj([_step("search_corpus", ["A#0", "B#0"]), answer], ["A", "B"],
                                          StopReason.ANSWERED, True)),
        ("turn limit (fallback)", _traj([_step("search_corpus", ["A#0", "B#0"])] * 3, ["A", "B"],
                                        StopReason.MAX_TURNS, True)),
        ("token budget (fallback)", _traj([_step("search_corpus", ["A#0", "B#0"])] * 2, ["A", "B"],
                                          StopReason.TOKEN_BUDGET, True)),
        ("backend error", _traj([_step("search_corpus", ["A#0", "B#0"])], ["A", "B"],
                                StopReason.BACKEND_ERROR, True, error="BackendError: down")),
    ]


def main() -> None:
    beta = 2.0
    print("| trajectory | ending | F_beta | r_traj | r_fa | penalty | reward | paid before |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, traj in rows():
        b = compute_reward(traj, TASK, beta=beta)
        ending = "failed" if traj.error else conclusion(traj)
        pen = b.fallback_penalty + b.prune_penalty + b.turn_penalty
        print(f"| {name} | {ending} | {b.f_beta:.3f} | {b.trajectory_recall:.3f} | {b.answer_found:.0f} | "
              f"{pen:.2f} | {b.reward:+.3f} | {paid_before(traj, beta):+.3f} |")
    cfg = dataclasses.asdict(RewardConfig())
    print(f"\nβ = {beta}; empty_answer_penalty = {cfg['empty_answer_penalty']}, "
          f"no_answer_penalty = {cfg['no_answer_penalty']}, ε = {cfg['epsilon']}")


if __name__ == "__main__":
    main()
