"""Metadata filters: Chroma's `where` syntax, checked once and evaluated in Python for the BM25 leg.

The dense leg hands `where` to Chroma as is; the BM25 leg must apply the same predicate to the
same metadata (`store.chunk_metadata`), so the two legs never disagree on what is allowed. Only
Chroma's metadata operators are accepted: $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, and the
logical $and / $or over lists of filters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_COMPARE = {
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: a is not None and _comparable(a, b) and a > b,
    "$gte": lambda a, b: a is not None and _comparable(a, b) and a >= b,
    "$lt": lambda a, b: a is not None and _comparable(a, b) and a < b,
    "$lte": lambda a, b: a is not None and _comparable(a, b) and a <= b,
    "$in": lambda a, b: a in b,
    "$nin": lambda a, b: a not in b,
}
_LOGICAL = ("$and", "$or")
_SCALARS = (str, int, float, bool)
# Bounds on a filter, which arrives from HTTP and MCP clients: each condition is a pass over every
# line's column, so a filter's cost is its size; these allow any real filter and refuse a flood.
MAX_WHERE_DEPTH = 6  # nested $and/$or levels
MAX_WHERE_CONDITIONS = 64  # field conditions in the whole filter
MAX_IN_VALUES = 1_000  # values in one $in / $nin list
MAX_VALUE_CHARS = 1_000  # characters of one string value
_BOUNDS = (
    f"a filter may nest $and/$or {MAX_WHERE_DEPTH} deep and hold {MAX_WHERE_CONDITIONS} field conditions, "
    f"{MAX_IN_VALUES:,} values per $in/$nin and {MAX_VALUE_CHARS:,} characters per string"
)


def _comparable(a: Any, b: Any) -> bool:
    numbers = (int, float)
    return (isinstance(a, numbers) and isinstance(b, numbers)) or (isinstance(a, str) and isinstance(b, str))


def check_where(where: Any) -> dict[str, Any] | None:
    """`where` itself if it is a valid filter (None or {} mean no filter); ValueError saying what is wrong."""
    if where is None or where == {}:
        return None
    conditions = [0]
    _check(where, "where", 1, conditions)
    return dict(where)


def _check(node: Any, at: str, depth: int, conditions: list[int]) -> None:
    if not isinstance(node, Mapping) or not node:
        raise ValueError(f"{at} must be a non-empty dict such as {{'year': 2023}}, got {node!r:.200}")
    if depth > MAX_WHERE_DEPTH + 1:
        raise ValueError(f"{at}: the filter nests deeper than {MAX_WHERE_DEPTH} levels; {_BOUNDS}")
    for key, value in node.items():
        if key in _LOGICAL:
            if not isinstance(value, list) or len(value) < 2:
                raise ValueError(f"{at}[{key!r}] must be a list of at least two filters, got {value!r:.200}")
            for i, sub in enumerate(value):
                _check(sub, f"{at}[{key!r}][{i}]", depth + 1, conditions)
            continue
        conditions[0] += 1
        if conditions[0] > MAX_WHERE_CONDITIONS:
            raise ValueError(f"the filter holds more than {MAX_WHERE_CONDITIONS} field conditions; {_BOUNDS}")
        _check_size(value, f"{at}[{key!r}]")
        if key.startswith("$"):
            raise ValueError(f"{at}: unknown operator {key!r}; use a field name, '$and' or '$or'")
        elif isinstance(value, Mapping):
            if len(value) != 1:
                raise ValueError(f"{at}[{key!r}] must hold exactly one operator, got {dict(value)!r}")
            ((op, operand),) = value.items()
            if op not in _COMPARE:
                raise ValueError(f"{at}[{key!r}]: unknown operator {op!r}; valid: {sorted(_COMPARE)}")
            if op in ("$in", "$nin"):
                if not isinstance(operand, list) or not all(isinstance(v, _SCALARS) for v in operand):
                    raise ValueError(f"{at}[{key!r}][{op!r}] must be a list of str/int/float/bool values")
            elif not isinstance(operand, _SCALARS):
                raise ValueError(f"{at}[{key!r}][{op!r}] must be a str, int, float or bool, got {operand!r}")
        elif not isinstance(value, _SCALARS):
            raise ValueError(
                f"{at}[{key!r}] must be a str, int, float or bool (or {{'$op': value}}), got {value!r:.200}"
            )


def _check_size(value: Any, at: str) -> None:
    """Refuse a $in list or a string past the bounds (before the rest of the check reads it)."""
    operand = next(iter(value.values()), None) if isinstance(value, Mapping) and len(value) == 1 else value
    if isinstance(operand, list) and len(operand) > MAX_IN_VALUES:
        raise ValueError(f"{at} lists {len(operand):,} values; {_BOUNDS}")
    items = operand if isinstance(operand, list) else [operand]
    if any(isinstance(v, str) and len(v) > MAX_VALUE_CHARS for v in items):
        raise ValueError(f"{at} holds a string longer than {MAX_VALUE_CHARS:,} characters; {_BOUNDS}")


def matches_where(where: Mapping[str, Any], metadata: Mapping[str, Any]) -> bool:
    """Whether `metadata` passes the (checked) filter; several keys in one dict are ANDed."""
    for key, value in where.items():
        if key == "$and":
            if not all(matches_where(sub, metadata) for sub in value):
                return False
        elif key == "$or":
            if not any(matches_where(sub, metadata) for sub in value):
                return False
        else:
            op, operand = next(iter(value.items())) if isinstance(value, Mapping) else ("$eq", value)
            if key not in metadata and op not in ("$ne", "$nin"):
                return False
            if not _COMPARE[op](metadata.get(key), operand):
                return False
    return True
