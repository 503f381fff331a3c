"""Split hygiene: train/test task sets that share no supporting document, no fact and no question.

Tasks are joined (union-find) into components when they share a supporting document, a fact (the
natural generator's metadata["fact_keys"]: subject, relation, answer), the sentence that states the
answer (the same sentence in two quarterly filings is the same fact), or the question text; whole
components go to one side. Splitting by row let the same question asked of two filings, or the same
fact reached by two chains, sit on both sides (issue 36: 4 of 5 test questions were also in train). Components are shuffled by the seed and given to the
test side while it stays within its target; a component larger than the target (a corpus whose
tasks all hang together) is broken up greedily, task by task, and the tasks that would touch both
sides are dropped and counted rather than leaked.
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
    test_docs = {k for i in test_idx for k in leak_keys(tasks[i])}
    train_docs = {k for i in train_idx for k in leak_keys(tasks[i])}
    for group in big:  # greedy: grow the test side inside the component while it is short
        order = list(group)
        rng.shuffle(order)
        for i in order:
            docs = leak_keys(tasks[i])
            in_test, in_train = bool(docs & test_docs), bool(docs & train_docs)
            if (in_test and in_train) or (in_test and len(test_idx) >= target):
                dropped_idx.append(i)  # a full test side takes no more; its neighbours cannot go to train
            elif in_test or (not in_train and len(test_idx) < target):
                test_idx.append(i)
                test_docs |= docs
            else:
                train_idx.append(i)
                train_docs |= docs
    key = sorted
    return Split(
        train=[tasks[i] for i in key(train_idx)],
        test=[tasks[i] for i in key(test_idx)],
        dropped=[tasks[i] for i in key(dropped_idx)],
    )


def tasks_without(tasks: Iterable[Task], doc_ids: Iterable[str]) -> list[Task]:
    """The tasks none of whose supporting documents is in `doc_ids`."""
    banned = set(doc_ids)
    return [t for t in tasks if not banned.intersection(t.gold_doc_ids)]
