"""Per-task records → averages, overall or by dataset, hop count or question type (SPEC §3:
"per task, then averaged").

A metric's mean is over the tasks where it is defined (None is "not applicable", never 0), and
`counts` says how many that was, so a column averaged over few tasks is visible as such. Usage
(tokens, turns, tool calls) and timings are averaged alongside, as "usage.<field>" and "time.<phase>".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from eval.types import RunRecord

GROUP_BY = ("source", "hops", "question_type")


@dataclass(frozen=True)
class Summary:
    """Averages over one group of records.

    group: the group's value ("all" overall; "2" for two-hop tasks; "-" where unknown).
    n: tasks in the group. errors: tasks whose retrieval raised.
    means: metric -> mean over the tasks where it is defined. counts: metric -> that many tasks.
    """

    group: str
    n: int
    errors: int = 0
    means: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)


def _group_of(record: RunRecord, by: str | None) -> str:
    if by is None:
        return "all"
    value = getattr(record.task, by)
    return "-" if value in (None, "") else str(value)


def _values(record: RunRecord) -> Iterable[tuple[str, float | None]]:
    yield from record.metrics.items()
    for name, value in record.usage.items():
        yield f"usage.{name}", value
    for name, value in record.timings.items():
        yield f"time.{name}", value


def summarize(records: Sequence[RunRecord]) -> Summary:
    """Averages over all `records` (group "all")."""
    return aggregate(records)[0] if records else Summary(group="all", n=0)


def aggregate(records: Sequence[RunRecord], by: str | None = None) -> list[Summary]:
    """One Summary per group, groups in natural order (numbers numerically, "-" last)."""
    if by is not None and by not in GROUP_BY:
        raise ValueError(f"by must be None or one of {GROUP_BY}, got {by!r}")
    groups: dict[str, list[RunRecord]] = {}
    for record in records:
        groups.setdefault(_group_of(record, by), []).append(record)
    out = []
    for group, members in groups.items():
        sums: dict[str, float] = {}
        counts: dict[str, int] = {}
        for record in members:
            for name, value in _values(record):
                if isinstance(value, bool) or not isinstance(value, int | float):
                    continue
                sums[name] = sums.get(name, 0.0) + float(value)
                counts[name] = counts.get(name, 0) + 1
        means = {name: sums[name] / counts[name] for name in sums}
        out.append(Summary(group, len(members), sum(r.error is not None for r in members), means, counts))

    def order(s: Summary) -> tuple[int, float, str]:
        if s.group == "-":
            return (2, 0.0, s.group)
        try:
            return (0, float(s.group), s.group)
        except ValueError:
            return (1, 0.0, s.group)

    return sorted(out, key=order)
