"""A version note's owner from where it sits (issue 36, session 41): a documentation reader cleans a page (no
indent left to say a note is nested in an entry), so "New in version 2.0:" opening a section, or "Deprecated
since version 3.2: …" under an entry's opening line, had no owner and was refused. The passages below are
invented ("Walrus"), written as the Markdown / rST readers leave them: cleaned text, the chunk's "section" path
and the names it defines ("defines", corpus_tools.defined_names).
Old code asked none of these questions."""

from __future__ import annotations

from collections import Counter

import pytest
from datagen_fixtures import generate_single_hop

from corpus_tools.types import Chunk
from datagen.doc_versions import version_facts
from datagen.natural import NaturalConfig, parse_mix


def _chunk(text: str, section: str = "", defines: str = "", doc: str = "walrus/guide.md", position: int = 0) -> Chunk:
    meta = {"title": "Walrus Guide", "section": section}
    if defines:
        meta["defines"] = defines
    return Chunk(f"{doc}#{position}", doc, text, position, len(text.split()), meta)


def _asked(facts: list) -> dict[str, str]:
    return {f.ask.replace("{s}", f.subject): f.answer for f in facts}


SECTION = ("Cache Warming\n\nNew in version 2.0:\n\nStarting with Walrus 2.0 you can warm the cache before the first\n"
           "request arrives.\n\nwarm(cache)\n")
ENTRY = ("walrus.Pool\n\nA pool of open connections.\n\nDeprecated since version 3.2: Merged with the client. This alias "
         "will be removed in Walrus 4.0.\n\nwalrus.Client\n\nThe client.\n")


def test_a_note_opening_a_section_is_the_sections() -> None:
    skipped: Counter = Counter()
    facts = version_facts(_chunk(SECTION, "Walrus Guide > Cache Warming"), skipped)
    assert _asked(facts) == {"In which version was Cache Warming added?": "2.0"}
    # the quote holds the heading, the note and the section's first paragraph: what a reader checks it against
    assert facts[0].sentence.startswith("Cache Warming") and "warm the cache" in facts[0].sentence
    assert facts[0].sentence in SECTION and skipped["doc_version_without_owner"] == 0
    # the flag off: refused, as before
    off: Counter = Counter()
    assert version_facts(_chunk(SECTION, "Walrus Guide > Cache Warming"), off, owners=False) == []
    assert off["doc_version_without_owner"] == 1


@pytest.mark.parametrize("text, section", [
    # the page's title: what would the question name?
    (SECTION.replace("Cache Warming", "Walrus Guide", 1), "Walrus Guide"),
    # a heading that names no thing, a how-to, a long phrase
    (SECTION.replace("Cache Warming", "Notes", 1), "Walrus Guide > Notes"),
    (SECTION.replace("Cache Warming", "How to Deploy", 1), "Walrus Guide > How to Deploy"),
    (SECTION.replace("Cache Warming", "Warming the Cache Before the First Request", 1),
     "Walrus Guide > Warming the Cache Before the First Request"),
    # a change opening a section says nothing of what changed
    (SECTION.replace("New in", "Changed in", 1), "Walrus Guide > Cache Warming"),
    # a note further down the section: the section's topic by then is not the note's
    ("Cache Warming\n\nThe cache is cold at first.\n\nNew in version 2.0:\n\nYou can warm it.\n",
     "Walrus Guide > Cache Warming"),
    # the heading is another section's (the chunk's section is the one after it)
    (SECTION, "Walrus Guide > Deployment"),
])
def test_a_section_note_with_no_thing_to_name_stays_refused(text: str, section: str) -> None:
    skipped: Counter = Counter()
    assert version_facts(_chunk(text, section), skipped) == []
    assert skipped["doc_version_without_owner"] == 1


def test_a_note_under_an_entry_is_the_entrys() -> None:
    skipped: Counter = Counter()
    facts = version_facts(_chunk(ENTRY, "API > Pools", "walrus.Pool, walrus.Client", "walrus/api.rst"), skipped)
    assert _asked(facts) == {"In which version was walrus.Pool deprecated?": "3.2"}
    assert facts[0].sentence.startswith("walrus.Pool") and facts[0].sentence.endswith("Walrus 4.0.")
    # a note with no body under its entry ("New in version 0.10:" closing a signal's block) is the entry's too
    text = "walrus.ready\n\nSent when the pool is ready.\n\nNew in version 0.10:\n\nwalrus.closed\n\nSent when closed.\n"
    facts = version_facts(_chunk(text, "API > Signals", "walrus.ready, walrus.closed", "walrus/api.rst"), Counter())
    assert _asked(facts) == {"In which version was walrus.ready added?": "0.10"}


@pytest.mark.parametrize("text, defines", [
    # a section's closing list of names after the last entry: about the names, not the entry above
    ("MAX_ITEMS\n\nHow many items.\n\nDefault: 10\n\nNew in version 0.4: CACHE_NAME\n\n"
     "Changed in version 1.0: CACHE_NAME and CACHE_POLICY were removed.\n\nThe end.\n", "MAX_ITEMS"),
    # the note names another entry of the passage
    ("walrus.Pool\n\nA pool.\n\nDeprecated since version 3.2: Merged with Client.\n\nwalrus.Client\n\nThe client.\n",
     "walrus.Pool, walrus.Client"),
    # the entry opening after the note: the note closes an entry opened in an earlier passage
    ("Default: None\n\nNew in version 3.1:\n\nSESSION_NAME\n\nThe name of the cookie.\n", "SESSION_NAME"),
    # a change closing the passage: the entry may go on in the next one with another change (three answers)
    ("SERVER_ADDR\n\nWhere it listens.\n\nDefault: None\n\nChanged in version 3.1: Listens on every interface.\n",
     "SERVER_ADDR"),
    # an entry whose name reads as a word: "In which version was config added?" names no entry
    ("config\n\nThe current configuration object.\n\nNew in version 0.6:\n\nrequest\n\nThe request.\n",
     "config, request"),
    # an "added" note after the entry's description saying what it added: that feature's, not the entry's (a signal
    # far older than the note; session 45, Scrapy's request_scheduled)
    ("walrus.scheduled(request)\n\nSent when a request is scheduled.\n\nNew in version 2.1: Allow dropping requests "
     "with walrus.Skip.\n\nwalrus.closed\n\nSent when closed.\n", "walrus.scheduled, walrus.closed"),
    # the entry's line too far above the note
    ("walrus.Pool\n\n" + "A pool of connections. " * 60 + "\n\nNew in version 2.0:\n\nThe end.\n", "walrus.Pool"),
])
def test_an_entry_note_that_may_be_someone_elses_stays_refused(text: str, defines: str) -> None:
    skipped: Counter = Counter()
    assert version_facts(_chunk(text, "API > Settings", defines, "walrus/config.rst"), skipped) == []
    assert skipped["doc_version_without_owner"] >= 1


def test_a_change_note_with_the_entry_going_on_is_read() -> None:
    text = ("SERVER_ADDR\n\nWhere it listens.\n\nDefault: None\n\nChanged in version 3.1: Listens on every interface."
            "\n\nSERVER_PORT\n\nThe port.\n")
    facts = version_facts(_chunk(text, "API > Settings", "SERVER_ADDR, SERVER_PORT", "walrus/config.rst"), Counter())
    assert _asked(facts) == {"In which version did SERVER_ADDR change?": "3.1"}


def test_the_generator_asks_them_with_the_project_and_the_verifier_accepts() -> None:
    intro = ("Walrus Guide\n\nWalrus is a cache. Walrus keeps values in memory. Walrus runs anywhere.\n")
    chunks = [
        _chunk(intro, "Walrus Guide", doc="walrus/index.md"),
        _chunk(SECTION, "Walrus Guide > Cache Warming"),
        _chunk(ENTRY, "API > Pools", "walrus.Pool, walrus.Client", "walrus/api.rst"),
    ]
    _, asked = generate_single_hop(chunks, n=100)
    assert asked["In which version of Walrus was Cache Warming added?"].answer == "2.0"
    assert asked["In which version of Walrus was walrus.Pool deprecated?"].answer == "3.2"


def test_the_mix_key() -> None:
    assert parse_mix("owners=0") == {"doc_owners": 0.0}
    assert NaturalConfig().doc_owners == 1.0
    with pytest.raises(ValueError, match="owners=0|1"):
        parse_mix("owner=0")
