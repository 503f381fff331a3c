"""A repository's Python source asked about as a user of its API asks (issue 36, session 43): a parameter's
default in a signature, a function's return type, what a docstring says it raises.

source_api/wombat/ is an invented package ("wombat", under `_src/` as the tuning folder lays a project's source
next to its docs) read by the real source reader and chunker: a class whose `__init__` has defaults, `*args` and
`**kwargs`; a method with keyword-only defaults, two of them expressions (`()`, `os.getcwd()`), a return type
and a `:raises:` field; a property; a private method; a module function with a Google-style `Raises:` entry; a decorator typed by a type variable (`-> T_hook`); a function returning `Any`; a
private class; and a helper in a `tests/` folder.
Old code: no `datagen.doc_source`, no `source` mix key, and no fact from any source section (doc_reference reads
none of these shapes from a section titled `wombat.client.Client.get (line 15)`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from datagen_fixtures import WordTokenizer

from corpus_tools.chunking import ChunkingConfig, chunk_documents
from corpus_tools.loaders import load_documents
from corpus_tools.types import Chunk
from datagen.doc_projects import named_ask
from datagen.doc_reference import reference_facts
from datagen.doc_source import DEFAULT, RAISES, RETURNS, source_facts
from datagen.natural import NaturalConfig, parse_mix
from datagen.relations import documentation_facts

FOLDER = Path(__file__).parent / "source_api"


@pytest.fixture(scope="module")
def chunks() -> list[Chunk]:
    report = load_documents(FOLDER, source_code=True)
    assert not report.skipped
    return list(chunk_documents(report.documents, WordTokenizer(), ChunkingConfig()))


def _read(chunks: list[Chunk]) -> tuple[dict[str, str], Counter]:
    skipped: Counter = Counter()
    return {f.ask.replace("{s}", f.subject): f.answer for c in chunks for f in source_facts(c, skipped)}, skipped


def test_defaults_returns_and_raises_are_asked_by_the_owner_a_user_writes(chunks):
    facts, _ = _read(chunks)
    assert facts == {
        "What is the default value of the timeout parameter of Client()?": "5.0",  # __init__: the class is called
        "What is the default value of the base_url parameter of Client()?": '"https://example.org"',
        "What is the default value of the follow_redirects parameter of Client.get()?": "False",
        "What is the default value of the retries parameter of Client.get()?": "-1",
        "What type does Client.get() return?": "Response",
        "What exception does Client.get() raise if the server does not answer within the timeout?": "TimeoutError",
        "What type is Client.is_closed?": "bool",  # a property is read, not called
        "What is the default value of the name parameter of wombat.client.build()?": '"default"',
        "What type does wombat.client.build() return?": "Client",
        "What exception does wombat.client.build() raise if name is empty or holds a space?": "ValueError",
    }


def test_what_cannot_be_asked_is_refused_and_counted(chunks):
    _, skipped = _read(chunks)
    assert skipped["doc_src_not_api"] == 1  # tests/helpers.py
    assert skipped["doc_src_private"] == 3  # Client._send, _Pool, _Pool.acquire
    assert skipped["doc_src_default_expression"] == 2  # hooks=(), cwd=os.getcwd()
    assert skipped["doc_src_star_args"] == 2  # *args, **kwargs
    assert skipped["doc_src_return_unstated"] == 2  # hook() -> T_hook: a type variable; load() -> Any
    assert skipped["doc_src_self"] == 3  # __init__, get, is_closed (a private method is refused before)


def test_each_quote_is_the_passage_from_the_signature_to_its_answer(chunks):
    for chunk in chunks:
        for fact in source_facts(chunk, Counter()):
            assert fact.sentence in chunk.text and fact.sentence.startswith("def ")
            assert fact.answer in fact.sentence or fact.relation == RAISES and fact.answer in chunk.text


def test_reference_pages_reader_reads_nothing_here_and_the_flag_off_reads_as_before(chunks):
    assert not [f for c in chunks for f in reference_facts(c, Counter())]  # what main reads from these sections
    off = documentation_facts(chunks, Counter(), reference=True, options=True)
    on = documentation_facts(chunks, Counter(), reference=True, options=True, source=True)
    assert not [f for f in off if f.relation.startswith("doc:src:")]
    assert {f.relation for f in on} == {DEFAULT, RETURNS, RAISES}
    assert [f for f in on if not f.relation.startswith("doc:src:")] == off


def test_the_mix_key_and_the_project_named_question():
    assert NaturalConfig().doc_source == 0.0  # a choice (--mix source=1), not the default
    assert parse_mix("source=1") == {"doc_source": 1.0}
    assert parse_mix("source=0") == {"doc_source": 0.0}
    with pytest.raises(ValueError, match="doc_source"):
        NaturalConfig(doc_source=2.0)
    assert named_ask(DEFAULT, "What is the default value of {s}?", "Wombat") == "What is the default value of {s} in Wombat?"
    assert named_ask(RETURNS, "What type does {s} return?", "Wombat") == "What type does {s} return in Wombat?"
    assert named_ask(RETURNS, "What type is {s}?", "Wombat") == "What type is {s} in Wombat?"


def test_a_chunk_that_is_not_source_or_has_a_broken_signature_gives_nothing(chunks):
    broken = next(c for c in chunks if "wombat.client.build" in c.metadata.get("defines", ""))
    skipped: Counter = Counter()
    cut = replace(broken, text=broken.text.replace("-> Client:", "-> Client"))  # no closing `:`: no signature
    assert source_facts(cut, skipped) == [] and skipped["doc_src_no_signature"] == 1
    assert source_facts(replace(broken, doc_id="wombat/api.md"), Counter()) == []  # a page, not source
