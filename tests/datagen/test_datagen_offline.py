"""Mining and the offline generator on the invented linked corpus (no index, no model)."""

from __future__ import annotations

import random

from datagen_fixtures import as_chunks, fixture_documents

from datagen.mining import answer_spans, capitalised_spans, mine, split_sentences
from datagen.offline import OfflineConfig, OfflineGenerator
from datagen.types import Candidate, TruthType
from datagen.verify import check_candidate, contains, date_aliases, normalize


def links_of(mined, doc_id):  # noqa: ANN001, ANN201
    return {(s.target, s.kind, s.text) for s in mined.links.get(doc_id, [])}


def test_title_links_follow_the_chain(chunks) -> None:  # noqa: ANN001
    mined = mine(chunks)
    assert ("ilsa-venn", "title", "Ilsa Venn") in links_of(mined, "marrow-lighthouse")
    assert ("kestrel-institute", "title", "Kestrel Institute") in links_of(mined, "ilsa-venn")
    assert ("orvald-pike", "title", "Orvald Pike") in links_of(mined, "kestrel-institute")
    # a parenthetical title is named by its bare form
    assert ("tarn-village", "title", "Tarn") in links_of(mined, "orvald-pike")
    # a document never links to itself, and a document that names nothing has no link
    assert not any(t == "orvald-pike" for t, _, _ in links_of(mined, "orvald-pike"))
    assert mined.links.get("salt-weather", []) == []


def test_hub_titles_are_no_bridge(chunks) -> None:  # noqa: ANN001
    mined = mine(chunks, max_in_links=0)
    assert not any(s.kind == "title" for spans in mined.links.values() for s in spans)


def test_entity_links_join_documents_sharing_a_rare_name() -> None:
    docs = fixture_documents()
    untitled = as_chunks([d.__class__(d.doc_id, d.text, None) for d in docs])  # no titles at all
    mined = mine(untitled)
    kinds = {s.kind for spans in mined.links.values() for s in spans}
    assert kinds == {"entity"}
    # "Greta Holm" occurs in exactly three documents: a distinctive entity
    assert ("greta-holm", "entity", "Greta Holm") in links_of(mined, "tarn-village")


def test_excluded_documents_disappear(chunks) -> None:  # noqa: ANN001
    mined = mine(chunks, exclude=["kestrel-institute"])
    assert "kestrel-institute" not in mined.chunks
    assert not any(s.target == "kestrel-institute" for spans in mined.links.values() for s in spans)


def test_sentences_keep_abbreviations_and_are_verbatim(chunks) -> None:  # noqa: ANN001
    text = "Dr. Pike met J. R. Holm in the U.S. Army. They sailed on 3 May 1890! Then fog came."
    chunk = chunks[0].__class__("x#0", "x", text, 0, 20)
    spans = split_sentences(chunk)
    assert [text[s:e] for s, e in spans] == [
        "Dr. Pike met J. R. Holm in the U.S. Army.",
        "They sailed on 3 May 1890!",
        "Then fog came.",
    ]


def test_typed_answer_spans(chunks) -> None:  # noqa: ANN001
    mined = mine(chunks)
    kinds = {(s.kind, s.text) for s in mined.answers["kestrel-institute"]}
    assert ("date", "14 March 1887") in kinds
    assert ("number", "212") in kinds
    assert ("entity", "Orvald Pike") in kinds
    assert ("number", "4,300") in {(s.kind, s.text) for s in mined.answers["orvald-pike"]}
    # a lone sentence-initial capitalised word is not a name
    assert "Its" not in {s.text for s in answer_spans(mined.sentences["kestrel-institute"][1])}
    assert capitalised_spans("The Bank of America opened in Dask.") == [(4, 19), (30, 34)]


def test_date_aliases() -> None:
    assert date_aliases("14 March 1887") == ("March 14, 1887",)
    assert date_aliases("March 14, 1887") == ("14 March 1887",)
    assert date_aliases("1887") == ()


def test_multi_hop_candidates_mask_bridges_and_answer_and_verify(chunks) -> None:  # noqa: ANN001
    mined = mine(chunks)
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    chunk_texts = {c.chunk_id: c.text for c in chunks}
    gen = OfflineGenerator(mined, OfflineConfig(max_doc_uses=100))
    rng = random.Random(0)
    seen_hops = set()
    for hops in (2, 3, 4, 2, 3, 4, 2, 3, 4):
        cand = gen.propose(hops, rng)
        assert isinstance(cand, Candidate), cand
        seen_hops.add(cand.hops)
        assert cand.hops == hops == len(cand.supporting) == len(set(cand.doc_ids))
        q = normalize(cand.question)
        for later in cand.doc_ids[1:]:  # documents 2..h are never named in the question
            assert not contains(q, normalize(mined.titles[later]), normalized=True), (later, cand.question)
        for bridge in cand.bridges:
            assert not contains(q, normalize(bridge), normalized=True)
        assert "___" in cand.clues[-1]
        verdict = check_candidate(cand, texts, chunk_texts)
        if not verdict.accepted:  # the only honest failure here is an answer repeated in an earlier clue
            assert verdict.reasons == (verdict.reasons[0],) and verdict.reasons[0].value.startswith("answer_leaks")
    assert seen_hops == {2, 3, 4}


def test_single_hop_candidates(chunks) -> None:  # noqa: ANN001
    mined = mine(chunks)
    gen = OfflineGenerator(mined)
    rng = random.Random(3)
    types = set()
    for _ in range(9):
        cand = gen.propose(1, rng)
        assert isinstance(cand, Candidate)
        assert cand.hops == 1 and cand.supporting[0].contains_truth
        assert not contains(normalize(cand.question), normalize(cand.answer), normalized=True)
        types.add(cand.truth_type)
    assert {TruthType.DATE, TruthType.NUMBER, TruthType.ENTITY} <= types  # answers stay diverse


def test_no_chain_in_a_corpus_without_links(chunks) -> None:  # noqa: ANN001
    lonely = [c for c in chunks if c.doc_id in ("salt-weather", "gull-point-lighthouse")]
    gen = OfflineGenerator(mine(lonely))
    assert gen.propose(2, random.Random(0)).value == "no_chain_found"


def test_a_bridge_over_the_lexical_budget_costs_no_dense_search(datagen_index, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """The budget needs BM25's ranking alone: a bridge it drops is never searched hybrid or dense (each
    of those encodes the question, the cost of a generation run on CPU)."""
    from corpus_tools import Corpus
    from datagen.pipeline import GenerateConfig
    from datagen.run import run_datagen

    searched: list[str] = []
    search, search_leg = Corpus.search, Corpus.search_leg
    monkeypatch.setattr(Corpus, "search", lambda self, q, *a, **k: searched.append("hybrid") or search(self, q, *a, **k))
    monkeypatch.setattr(Corpus, "search_leg",
                        lambda self, q, leg, *a, **k: searched.append(leg) or search_leg(self, q, leg, *a, **k))
    config = GenerateConfig(n=3, hops=(1, 2), seed=0, drop_easy=False, patience=10)
    report, _ = run_datagen(datagen_index, tmp_path / "out", config, progress=False, form="cloze")
    assert report.drops["over_lexical_budget"] > 0  # the case under test happened
    # one hybrid search per written task (its distractors and ranks), none for the dropped bridges
    assert searched.count("hybrid") == report.written
    assert searched.count("dense") == report.by_hops[2]
