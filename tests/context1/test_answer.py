"""Final-answer parsing: the expected format, the slips models make, and the documented fallback."""

from __future__ import annotations

import pytest

from context1 import AgentConfig, Episode, StopReason, parse_final_answer
from context1.answer import ShownChunk, fallback_documents
from context1.backends.scripted import call, turn

DOCS = {"veldhaven", "korrin-bay", "tobias-quell", "Barack Obama", 'odd"id'}


def resolve(some_id: str) -> str | None:
    if some_id in DOCS:
        return some_id
    doc, _, pos = some_id.rpartition("#")
    return doc if doc in DOCS and pos.isdigit() else None


def ids(text: str, **kw) -> list[str]:
    return [d.doc_id for d in parse_final_answer(text, resolve, **kw).documents]


def test_the_expected_format():
    text = (
        "<Document id=korrin-bay><Justification>Its lighthouse was designed by Quell.</Justification></Document>\n"
        "<Document id=tobias-quell><Justification>The engineer.</Justification></Document>"
    )
    parsed = parse_final_answer(text, resolve)
    assert [(d.doc_id, d.justification, d.score) for d in parsed.documents] == [
        ("korrin-bay", "Its lighthouse was designed by Quell.", 1.0),
        ("tobias-quell", "The engineer.", 0.5),
    ]
    assert parsed.blocks == 2 and not parsed.unknown_ids and not parsed.duplicates


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('<Document id="veldhaven"><Justification>a</Justification></Document>', ["veldhaven"]),
        ("<Document id='veldhaven'><Justification>a</Justification></Document>", ["veldhaven"]),
        ("<document ID = veldhaven ><justification>a</JUSTIFICATION></document>", ["veldhaven"]),
        ("<DOCUMENT id=veldhaven>\n  <Justification>\n a \n</Justification>\n</DOCUMENT>", ["veldhaven"]),
        ("```xml\n<Document id=veldhaven><Justification>a</Justification></Document>\n```", ["veldhaven"]),
        ("<Document id=veldhaven><Justification>unclosed\n<Document id=korrin-bay>", ["veldhaven", "korrin-bay"]),
        ("<Document id=veldhaven>no justification tags</Document>", ["veldhaven"]),
        ("<Document id=veldhaven/>", ["veldhaven"]),
        ("<Document id=Barack Obama><Justification>x</Justification></Document>", ["Barack Obama"]),
        ("<Document id=veldhaven extra><Justification>x</Justification></Document>", ["veldhaven"]),
        ('<Document id="odd&quot;id"><Justification>x</Justification></Document>', ['odd"id']),
        ("<Document id=korrin-bay#0><Justification>x</Justification></Document>", ["korrin-bay"]),
        ("Here you go:\n1. <Document id=veldhaven><Justification>x</Justification></Document>\nDone.", ["veldhaven"]),
        ("<Documents><Document id=veldhaven></Document></Documents>", ["veldhaven"]),
    ],
)
def test_tolerated_slips(text, expected):
    assert ids(text) == expected


def test_missing_justification_uses_the_block_text():
    [doc] = parse_final_answer("<Document id=veldhaven>The river town.</Document>", resolve).documents
    assert doc.justification == "The river town."
    [doc] = parse_final_answer("<Document id=veldhaven><Justification>Its mayor", resolve).documents
    assert doc.justification == "Its mayor"


def test_duplicates_unknown_ids_and_chunk_ids():
    text = (
        "<Document id=korrin-bay#0><Justification></Justification></Document>"
        "<Document id=nowhere><Justification>x</Justification></Document>"
        "<Document id=veldhaven><Justification>v</Justification></Document>"
        "<Document id=korrin-bay><Justification>second, fills the empty one</Justification></Document>"
    )
    parsed = parse_final_answer(text, resolve)
    assert [(d.doc_id, d.justification) for d in parsed.documents] == [
        ("korrin-bay", "second, fills the empty one"),
        ("veldhaven", "v"),
    ]
    assert parsed.unknown_ids == ["nowhere"] and parsed.duplicates == ["korrin-bay"]
    assert parsed.mapped == {"korrin-bay#0": "korrin-bay"}


def test_capped_at_max_documents():
    text = "".join(f"<Document id={d}></Document>" for d in ["veldhaven", "korrin-bay", "tobias-quell"])
    parsed = parse_final_answer(text, resolve, max_documents=2)
    assert [d.doc_id for d in parsed.documents] == ["veldhaven", "korrin-bay"] and parsed.truncated == 1
    with pytest.raises(ValueError, match="max_documents"):
        parse_final_answer(text, resolve, max_documents=0)


@pytest.mark.parametrize("text", ["", "I could not find anything.", "<Document></Document>", "<Document id=>"])
def test_nothing_parses(text):
    assert parse_final_answer(text, resolve).documents == []


def test_fallback_ranks_visible_chunks_by_rank_then_first_seen():
    shown = [
        ShownChunk("a#0", "a", rank=2, order=0),
        ShownChunk("b#0", "b", rank=1, order=1),
        ShownChunk("a#1", "a", rank=1, order=5),
        ShownChunk("c#0", "c", rank=3, order=2),
        ShownChunk("d#0", "d", rank=1, order=3),
    ]
    docs = fallback_documents(shown, max_documents=3)
    assert [d.doc_id for d in docs] == ["b", "d", "a"]
    assert [d.score for d in docs] == [1.0, 0.5, pytest.approx(1 / 3)]
    assert "fallback" in docs[0].justification


def test_answer_in_an_episode(harness_corpus):
    """Citations resolve against what the agent was shown: a chunk id to that passage, a shown
    document's id to its best shown passage; an id never shown (even one the corpus holds) is
    dropped and recorded. Documents are ranked from the passages."""
    ep = Episode(harness_corpus, "Who designed the Korrin Bay lighthouse?", AgentConfig(max_documents=2))
    [obs] = ep.act(turn(call("search_corpus", query="lighthouse")))
    second_doc = next(d for d in obs.doc_ids if d != obs.doc_ids[0])
    answer = (
        f"<Passage id={obs.chunk_ids[0]}><Justification>first</Justification></Passage>"
        "<Document id=not-a-doc><Justification>x</Justification></Document>"
        "<Document id=veldhaven><Justification>never shown, but in the corpus</Justification></Document>"
        f"<Document id={second_doc}><Justification>a shown document</Justification></Document>"
    )
    assert ep.act(turn(text=answer)) == []
    traj = ep.trajectory
    assert ep.done and traj.stop_reason is StopReason.ANSWERED
    assert [d.doc_id for d in traj.documents] == [obs.doc_ids[0], second_doc]
    best_of_second = next(c for c in obs.chunk_ids if harness_corpus.chunk(c).doc_id == second_doc)
    assert [e.chunk_id for e in traj.evidence] == [obs.chunk_ids[0], best_of_second]
    assert traj.documents[1].justification == "a shown document"
    assert traj.metadata["answer_fallback"] is False
    assert traj.metadata["answer_unseen_ids"] == ["not-a-doc", "veldhaven"]
    assert traj.metadata["answer_mapped_ids"] == {second_doc: best_of_second}


def test_fallback_in_an_episode_skips_pruned_chunks(harness_corpus):
    ep = Episode(harness_corpus, "Who designed the Korrin Bay lighthouse?", AgentConfig())
    [obs] = ep.act(turn(call("search_corpus", query="lighthouse")))
    first_doc = harness_corpus.chunk(obs.chunk_ids[0]).doc_id
    doomed = [c for c in obs.chunk_ids if harness_corpus.chunk(c).doc_id == first_doc]
    ep.act(turn(call("prune_chunks", chunk_ids=doomed)))
    ep.act(turn(text="I am not sure."))
    traj = ep.trajectory
    assert traj.stop_reason is StopReason.ANSWERED and traj.metadata["answer_fallback"] is True
    expected = list(dict.fromkeys(harness_corpus.chunk(c).doc_id for c in obs.chunk_ids if c not in doomed))
    assert [d.doc_id for d in traj.documents] == expected[:10]
    assert first_doc not in [d.doc_id for d in traj.documents]
