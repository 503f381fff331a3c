"""Hand-written API reference pages read as a user asks them, a project named as it writes itself, and a
documentation folder's pages with no code kept from the sentence templates (issue 36, session 42: HTTPX's
MkDocs reference gave no task; "When was Pytest 2.3.4 released?"; "Which organization was History migrated
to?" → "Mercurial").

docs_reference/wombat/ is an invented lower-case project ("wombat", as pytest writes "pytest"; "Wombat" opens a
few sentences), read by the real Markdown reader and chunker: an API page (an attribute list under "Response",
an entry with no description and one with a sentence, two sentences saying what raises what and one whose raiser
is "It", a `Signature:` line, a settings table with a header row and a table with none), an environment page (two
variables under their own headings, one named by "by setting"), and two pages with no code: a release
announcement and a history page.
Old code: no reference fact, the project written "Wombat", the history page asked by the sentence templates."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from datagen_fixtures import facts_asked, folder_chunks, generate_single_hop

from corpus_tools.rst_reader import read_rst
from corpus_tools.types import Chunk
from datagen.doc_projects import documentation_folders, project_names
from datagen.doc_reference import reference_facts
from datagen.natural import NaturalConfig, parse_mix
from datagen.pipeline import Candidate

PAGES = Path(__file__).parent / "docs_reference"


@pytest.fixture(scope="module")
def chunks() -> list[Chunk]:
    return folder_chunks(PAGES)


def _read(chunks: list[Chunk]) -> tuple[dict[str, str], Counter]:
    return facts_asked(reference_facts, chunks)


def test_a_reference_page_signatures_attributes_tables_and_raises(chunks: list[Chunk]) -> None:
    asked, _ = _read(chunks)
    assert asked["What type is Response.status_code?"] == "int"
    assert asked["What does Response.json() return?"] == "Any"
    assert asked["What is the default value of the timeout parameter of Client()?"] == "5.0"
    assert asked["What is the default value of the http2 parameter of Client()?"] == "False"
    assert asked["What type is the pool_size setting?"] == "int"
    assert asked["What is the default value of the user_agent setting?"] == "wombat/1.0"
    assert asked["What exception does Response.raise_for_status() raise if the response status is not a 2xx code?"] \
        == "HTTPStatusError"
    assert asked["What exception does Response.iter_bytes() raise when the server closes the stream early?"] == "StreamClosed"


def test_environment_variables_by_what_setting_them_does(chunks: list[Chunk]) -> None:
    asked, _ = _read(chunks)
    assert asked["Which environment variable, when set, makes wombat load CA certificates from the specified file "
                 "instead of the default location?"] == "WOMBAT_CERT_FILE"
    assert asked["Which environment variable controls how much wombat writes to its log?"] == "WOMBAT_LOG_LEVEL"
    assert asked["Which environment variable can you set to turn off the pool entirely?"] == "WOMBAT_NO_POOL"


def test_bad_input_gives_nothing_and_is_counted(chunks: list[Chunk]) -> None:
    asked, skipped = _read(chunks)
    # an entry with no description (".elapsed -") and one whose body is a sentence state no type
    assert not any(".elapsed" in q or ".history" in q for q in asked) and skipped["doc_ref_attribute_no_type"] == 2
    assert not any("ValueError" == a for a in asked.values()) and skipped["doc_ref_raiser_not_a_name"] == 1  # "It raises"
    assert skipped["doc_ref_table_no_value"] == 1  # the proxy setting's default is "-"
    assert "What is the default value of the base_url parameter of Client()?" not in asked  # "" cannot be checked
    # a table with no header row: which column is the default?
    headless = Chunk("t#0", "t.md", "Status codes:\n\n200 | OK | 1\n404 | Not Found | 2\n", 0, 9,
                     {"kind": "table", "section": "Codes"})
    count: Counter = Counter()
    assert reference_facts(headless, count) == [] and count["doc_ref_table_no_header"] == 1
    # an attribute list under a heading that is no class name, and an environment entry with no name above it
    loose = Chunk("u#0", "u.md", "Things\n\n- .size - int\n\nIf this environment variable is set then wombat will stop.\n",
                  0, 12, {"section": "Some things"})
    assert reference_facts(loose, count) == [] and count["doc_ref_attribute_without_owner"] == 1
    # a signature whose default is an empty list, and an example's `def` line (nobody's API)
    code = Chunk("v#0", "v.md", "Signature: Pool(items=[], size=3)\n\ndef helper(retries=4):\n    pass\n", 0, 8, {})
    got = {f.subject: f.answer for f in reference_facts(code, count)}
    assert got == {"the size parameter of Pool()": "3"}


def test_a_lower_case_project_keeps_its_form() -> None:
    texts = {"wombat/a.md": "Wombat 1.0 is out. With wombat you can send requests, and wombat handles them.",
             "wombat/b.md": "Wombat needs Python. Run wombat with care; the wombat team thanks you.",
             "wombat/c.md": "Wombat is small.\n\nfrom wombat import Client\n$ pip install wombat\n"}
    assert set(project_names(texts).values()) == {"Wombat"}  # session 41: the capitalised form
    assert set(project_names(texts, as_written=True).values()) == {"wombat"}
    # a project its prose writes capitalised keeps that form, whatever its code writes ("import click")
    click = {"click/a.md": "Click is a package. In Click you write commands, and Click parses them.\n\nimport click\n",
             "click/b.md": "Click has options. With Click groups nest.\n\nfrom click import echo\n$ python -m click run\n"}
    assert set(project_names(click, as_written=True).values()) == {"Click"}


def test_a_documentation_folder_takes_its_pages_with_no_code() -> None:
    pages = {"p/api.md": True, "p/env.md": True, "p/announce/r.md": False, "wiki/Paris": False, "wiki/Rome": False}
    assert documentation_folders(pages) == {"p/api.md", "p/env.md", "p/announce/r.md"}
    assert documentation_folders({"Paris": False, "Rome": False, "x.md": True}) == frozenset()


def _generate(chunks: list[Chunk], config: NaturalConfig, **read: bool) -> dict[str, Candidate]:
    return generate_single_hop(chunks, 300, config, **read)[1]


def test_the_generator_asks_them_named_and_the_verifier_accepts(chunks: list[Chunk]) -> None:
    asked = _generate(chunks, NaturalConfig())
    assert asked["What type is Response.status_code in wombat?"].answer == "int"
    assert asked["What is the default value of the timeout parameter of Client() in wombat?"].answer == "5.0"
    assert asked["Which wombat environment variable can you set to turn off the pool entirely?"].answer == "WOMBAT_NO_POOL"
    # the history page and the announcement sit in a documentation folder: no sentence template asks them
    assert not any(c.supporting[0].doc_id.startswith("wombat/announce/") for c in asked.values())


def test_flags_off_ask_as_session_41(chunks: list[Chunk]) -> None:
    off = NaturalConfig(**parse_mix("name_case=0,doc_folder=0,reference=0,announce=0"))  # announce: session 43
    asked = _generate(chunks, off, doc_name_case=False, doc_reference=False)
    assert not any("wombat" in q.lower() and "environment" in q for q in asked)
    # the defect, as before: "Which organization did History move to?" → "GitHub"
    assert any(c.supporting[0].doc_id == "wombat/announce/history.md" for c in asked.values())


def test_mix_keys() -> None:
    assert parse_mix("name_case=0,doc_folder=0,reference=0") == {"doc_name_case": 0.0, "doc_folder": 0.0, "doc_reference": 0.0}
    assert NaturalConfig().doc_reference == 1.0 and NaturalConfig().doc_folder == 1.0 and NaturalConfig().doc_name_case == 1.0
    with pytest.raises(ValueError, match="reference=0|1"):
        parse_mix("refrence=0")


def test_two_parameters_with_one_default_are_two_quotes() -> None:
    # the generator keys a task on (page, quote, answer): one quote for both `None`s would ask one of them only
    line = Chunk("s#0", "s.md", "Signature: Pool(a, size=None, timeout=None, retry=False)\n", 0, 6, {})
    facts = reference_facts(line, Counter())
    assert [f.answer for f in facts] == ["None", "None", "False"]
    assert len({f.sentence for f in facts}) == 3 and facts[0].sentence.endswith("size=None")


def test_sphinx_envvar_entries_and_a_setting_that_is_no_environment_variable() -> None:
    src = (".. envvar:: WOMBAT_ADDOPTS\n\nThis contains options (parsed by the shlex module) that will be prepended to the"
           " command line, see :ref:`options` for more.\n\n.. envvar:: WOMBAT_DEBUG\n\nWhen set, wombat will print"
           " tracing information.\n\n.. envvar:: WOMBAT_NO_AUTOLOAD\n\nWhen set, disables plugin auto-loading.\n\n"
           ".. envvar:: WOMBAT_COLORS\n\nWhen set to ``1``, wombat will use color in terminal output.\n")
    page = Chunk("r#0", "reference.rst", read_rst(src).text, 0, 40,
                 {"title": "API Reference", "section": "API Reference > Environment Variables"})
    asked, _ = _read([page])
    assert asked == {
        "Which environment variable contains options that will be prepended to the command line?": "WOMBAT_ADDOPTS",
        "Which environment variable, when set, makes wombat print tracing information?": "WOMBAT_DEBUG",
        "Which environment variable, when set, disables plugin auto-loading?": "WOMBAT_NO_AUTOLOAD",
        "Which environment variable, when set to 1, makes wombat use color in terminal output?": "WOMBAT_COLORS",
    }
    # a configuration key on a settings page that nothing calls an environment variable
    setting = Chunk("c#0", "config.rst", "Builtin Configuration Values\n\nSECRET_KEY\n\nThis controls the signing key.\n",
                    0, 9, {"title": "Configuration Handling", "section": "Configuration Handling > Builtin Configuration Values"})
    assert reference_facts(setting, Counter()) == []


def test_a_heading_written_as_a_call_states_its_defaults() -> None:
    page = Chunk("h#0", "h.md", "Pool(size=3, block=False)\n\nA pool of connections.\n\nexample(size=9)\n", 0, 9,
                 {"section": "API > Pool(size=3, block=False)"})
    got = {f.subject: f.answer for f in reference_facts(page, Counter())}
    assert got == {"the size parameter of Pool()": "3", "the block parameter of Pool()": "False"}
