"""Split hygiene: train/test task sets that share no supporting document, no fact and no question.

Tasks are joined (union-find) into components when they share a supporting document, a fact (the
natural generator's metadata["fact_keys"]: subject, relation, answer), the sentence that states the
answer (the same sentence in two quarterly filings is the same fact), or the question text; whole
components go to one side. Splitting by row let the same question asked of two filings, or the same
fact reached by two chains, sit on both sides (issue 36: 4 of 5 test questions were also in train). Components are shuffled by the seed and given to the
test side while it stays within its target; a component larger than the target (a corpus whose
tasks all hang together: one conversation's sessions, one company's filings) is broken up, and the
tasks that would touch both sides are dropped and counted rather than leaked.

The break-up grows the test side outward from one task through the keys tasks share (breadth
first), so it is one connected piece and only its rim is dropped; it is tried from several starts
drawn by the seed and the try that drops fewest is kept. Taking tasks in a shuffled order instead
scattered the test side over a whole conversation: on a 139-task chat export 0–31 tasks were
dropped depending on the seed (session 32).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from corpus_tools.types import Task
from datagen.verify import normalize


@dataclass(frozen=True)
class Split:
    """train / test tasks with disjoint supporting documents, facts and questions (`leak_keys`);
    dropped: tasks that straddled."""

    train: list[Task]
    test: list[Task]
    dropped: list[Task]

    def leaks(self) -> set[str]:
        """The keys (documents, facts, answer sentences, questions) found on both sides: empty."""
        train = {k for t in self.train for k in leak_keys(t)}
        return {k for t in self.test for k in leak_keys(t)} & train

    def test_doc_ids(self) -> set[str]:
        return {d for t in self.test for d in t.gold_doc_ids}


def leak_keys(task: Task) -> set[str]:
    """What a task must not share with a task on the other side: its supporting documents, its facts,
    the sentences that state its answer, and its question text (normalised)."""
    # A filings task (datagen.period_tasks) is split by fact, not by document: in a folder of 20 filings every
    # question touches some of them, and what must not leak is the figure and the question, not the filing.
    keys = set() if task.metadata.get("split_by") == "fact" else {"doc:" + d for d in task.gold_doc_ids}
    keys.add("question:" + normalize(task.query))
    keys.update("fact:" + k for k in task.metadata.get("fact_keys") or ())
    for item in task.metadata.get("supporting") or ():
        if isinstance(item, dict) and item.get("contains_truth"):
            keys.update("quote:" + normalize(q) for q in item.get("quotes") or () if normalize(q))
    return keys


def _components(tasks: Sequence[Task]) -> list[list[int]]:
    parent = list(range(len(tasks)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, task in enumerate(tasks):
        for key in leak_keys(task):
            if key in owner:
                a, b = find(i), find(owner[key])
                if a != b:
                    parent[a] = b
            else:
                owner[key] = i
    groups: dict[int, list[int]] = {}
    for i in range(len(tasks)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def split_tasks(tasks: Sequence[Task], test_fraction: float = 0.2, seed: int = 0) -> Split:
    """Splits tasks so that no supporting document, fact or question is on both sides (see the module doc)."""
    if not 0.0 <= test_fraction <= 1.0:
        raise ValueError(f"test_fraction must be in [0, 1], got {test_fraction}")
    rng = random.Random(seed)
    target = round(len(tasks) * test_fraction)
    groups = _components(tasks)
    rng.shuffle(groups)
    test_idx: list[int] = []
    train_idx: list[int] = []
    big: list[list[int]] = []
    for group in groups:
        if len(test_idx) + len(group) <= target:
            test_idx.extend(group)
        elif len(group) > max(1, target // 2):
            big.append(group)
        else:
            train_idx.extend(group)
    dropped_idx: list[int] = []
    if big:
        keys = [leak_keys(t) for t in tasks]
        test_keys = {k for i in test_idx for k in keys[i]}
        train_keys = {k for i in train_idx for k in keys[i]}
        room = target - len(test_idx)
        tries = [_break_up(big, keys, test_keys, train_keys, room, rng) for _ in range(BREAK_UP_TRIES)]
        # a full test side first, then the fewest drops; ties keep the earliest try (deterministic by the seed)
        more_test, more_train, dropped_idx = min(tries, key=lambda t: (max(0, room - len(t[0])), len(t[2])))
        test_idx += more_test
        train_idx += more_train
    key = sorted
    return Split(
        train=[tasks[i] for i in key(train_idx)],
        test=[tasks[i] for i in key(test_idx)],
        dropped=[tasks[i] for i in key(dropped_idx)],
    )


BREAK_UP_TRIES = 16  # starts tried when a big component is broken up; the try that drops fewest is kept


def _break_up(
    groups: list[list[int]],
    keys: list[set[str]],
    test_keys: set[str],
    train_keys: set[str],
    room: int,
    rng: random.Random,
) -> tuple[list[int], list[int], list[int]]:
    """One try at breaking up the big components: (test, train, dropped) task indices.

    The test side grows breadth first from a random task of a random component, through the keys the
    tasks share, while it has room; then every task is placed: one touching both sides is dropped,
    one touching the test side goes there while there is room (else dropped), the rest go to train.
    """
    test_keys, train_keys = set(test_keys), set(train_keys)
    by_key: dict[str, list[int]] = {}
    for group in groups:
        for i in group:
            for k in keys[i]:
                by_key.setdefault(k, []).append(i)
    order: list[int] = []
    seen: set[int] = set()
    starts = [i for group in rng.sample(groups, len(groups)) for i in rng.sample(group, len(group))]
    for start in starts:  # breadth first from each start not yet reached; the first start seeds the test side
        if start in seen:
            continue
        seen.add(start)
        queue = [start]
        while queue:
            i = queue.pop(0)
            order.append(i)
            for k in sorted(keys[i]):
                for j in by_key[k]:
                    if j not in seen:
                        seen.add(j)
                        queue.append(j)
    test: list[int] = []
    train: list[int] = []
    dropped: list[int] = []
    for i in order:
        in_test, in_train = bool(keys[i] & test_keys), bool(keys[i] & train_keys)
        if (in_test and in_train) or (in_test and len(test) >= room):
            dropped.append(i)  # a full test side takes no more; its neighbours cannot go to train
        elif in_test or (not in_train and len(test) < room):
            test.append(i)
            test_keys |= keys[i]
        else:
            train.append(i)
            train_keys |= keys[i]
    return test, train, dropped


def tasks_without(tasks: Iterable[Task], doc_ids: Iterable[str]) -> list[Task]:
    """The tasks none of whose supporting documents is in `doc_ids`."""
    banned = set(doc_ids)
    return [t for t in tasks if not banned.intersection(t.gold_doc_ids)]
