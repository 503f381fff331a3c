"""The extraction verifier: pure functions, each check able to fail on its own."""

from __future__ import annotations

import pytest

from datagen.types import Candidate, DropReason, SupportingItem, TruthType
from datagen.verify import (
    answer_leaks,
    check_candidate,
    contains,
    filter_distractors,
    normalize,
    quote_in_document,
)

DOCS = {
    "a": "Marrow Lighthouse was designed by the engineer Ilsa Venn after two ships were lost.",
    "b": "Ilsa Venn trained at the Kestrel Institute, founded on 14 March 1887 in Dask.",
    "c": "Der Uhrturm von Zürich wurde im Jahr 1538 gebaut; die Glocke wiegt 2.400 Kilogramm.",
}
CHUNKS = {"a#0": DOCS["a"], "b#0": DOCS["b"], "c#0": DOCS["c"]}


def candidate(**overrides: object) -> Candidate:
    base = dict(
        question="Which date fills the blank? The lighthouse was designed by X. X: founded on ___ in Dask.",
        answer="14 March 1887",
        aliases=("March 14, 1887",),
        clues=("The lighthouse was designed by X", "founded on ___ in Dask"),
        supporting=(
            SupportingItem("a", ("a#0",), ("designed by the engineer Ilsa Venn",), ("designed by X",)),
            SupportingItem("b", ("b#0",), ("founded on 14 March 1887 in Dask",), ("founded on ___ in Dask",), True),
        ),
        hops=2,
        truth_type=TruthType.DATE,
    )
    base.update(overrides)
    return Candidate(**base)  # type: ignore[arg-type]


def test_normalize_case_whitespace_unicode_punctuation() -> None:
    assert normalize("  Zürich\u00a0—  “Uhrturm”!  ") == "zurich uhrturm"
    assert normalize("ＡＢＣ 123") == "abc 123"  # full-width forms (NFKD)
    assert normalize("1,000,000 people") == normalize("1000000 people")
    assert normalize(normalize("É-tude, 3.5%")) == normalize("É-tude, 3.5%")  # idempotent


def test_contains_needs_whole_words() -> None:
    assert contains("born in 1956.", "1956")
    assert not contains("born in 19567", "1956")
    assert not contains("Hanks", "Ha")
    assert not contains("anything", "  ...  ")  # a punctuation-only needle proves nothing
    assert contains("京都の古い鐘は1610年に作られました", "1610年")  # no-space scripts: substring


def test_quote_in_document() -> None:
    assert quote_in_document("DESIGNED by the   engineer ilsa venn", DOCS["a"])
    assert quote_in_document("uhrturm von zurich", DOCS["c"])  # accents folded
    assert not quote_in_document("designed by the architect Ilsa Venn", DOCS["a"])
    assert not quote_in_document("Ilsa Venn trained", DOCS["a"])


def test_good_candidate_is_accepted() -> None:
    verdict = check_candidate(candidate(), DOCS, CHUNKS)
    assert verdict.accepted, verdict.details


@pytest.mark.parametrize(
    ("overrides", "reason"),
    [
        ({"question": " ?! "}, DropReason.EMPTY_QUESTION),
        ({"answer": "—", "aliases": ()}, DropReason.EMPTY_ANSWER),
        ({"supporting": ()}, DropReason.NO_SUPPORT),
        ({"supporting": (SupportingItem("zz", ("zz#0",), ("x y z",)),)}, DropReason.UNKNOWN_DOCUMENT),
        (
            {
                "supporting": (
                    SupportingItem("a", ("a#0",), ()),
                    SupportingItem("b", ("b#0",), ("founded on 14 March 1887 in Dask",)),
                )
            },
            DropReason.DOC_WITHOUT_QUOTES,
        ),
        (
            {
                "supporting": (
                    SupportingItem("a", ("a#0",), ("designed by the famous engineer Ilsa Venn",)),
                    SupportingItem("b", ("b#0",), ("founded on 14 March 1887 in Dask",)),
                )
            },
            DropReason.QUOTE_NOT_IN_DOCUMENT,
        ),
        (
            {
                "supporting": (
                    SupportingItem("a", ("a#0",), ("designed by the engineer Ilsa Venn",), ("built by Y",)),
                    SupportingItem("b", ("b#0",), ("founded on 14 March 1887 in Dask",)),
                )
            },
            DropReason.CLUE_QUOTE_NOT_IN_CLUES,
        ),
        ({"answer": "1538", "aliases": (), "question": "Which year? X: founded on ___ in Dask."}, DropReason.ANSWER_NOT_IN_SUPPORT),
        ({"question": "Which date? Founded on 14 March 1887 in Dask."}, DropReason.ANSWER_LEAK),
        ({"clues": ("designed by X", "founded on March 14, 1887")}, DropReason.ANSWER_LEAK),  # an alias leaks
    ],
)
def test_each_check_rejects_on_its_own(overrides: dict, reason: DropReason) -> None:
    verdict = check_candidate(candidate(**overrides), DOCS, CHUNKS)
    assert not verdict.accepted
    assert verdict.reasons[0] == reason, verdict.details


def test_answer_must_be_in_a_supporting_chunk_not_elsewhere_in_the_document() -> None:
    docs = {**DOCS, "b": DOCS["b"] + " Later text: 1538."}
    chunks = {**CHUNKS, "b#1": " Later text: 1538."}
    c = candidate(answer="1538", aliases=(), question="Which year fills the blank? X: founded in Dask.")
    assert check_candidate(c, docs, chunks).reasons == (DropReason.ANSWER_NOT_IN_SUPPORT,)
    moved = candidate(
        answer="1538",
        aliases=(),
        question="Which year fills the blank? X: founded in Dask.",
        supporting=(c.supporting[0], SupportingItem("b", ("b#0", "b#1"), ("founded on 14 March 1887 in Dask",))),
    )
    assert check_candidate(moved, docs, chunks).accepted


def test_leak_is_found_in_any_normalised_form() -> None:
    assert answer_leaks(["Zürich"], "Where is the ZURICH clock?", [])
    assert answer_leaks(["1,000"], "About 1000 ships", [])
    assert not answer_leaks(["1887"], "The blank ___ in 18870 records", ["no"])


def test_distractors_holding_the_answer_are_dropped() -> None:
    texts = {
        "d1": "The institute opened on 14 March 1887.",
        "d2": "It opened on March 14, 1887 to great applause.",  # the alias
        "d3": "A different school founded in 1890.",
    }
    kept, dropped = filter_distractors(["14 March 1887", "March 14, 1887"], ["d1", "d2", "d3", "missing"], texts)
    assert kept == ["d3"]
    assert dropped == ["d1", "d2", "missing"]
