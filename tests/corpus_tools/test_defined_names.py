"""The passage that defines what a question names (issue 34, session 41): readers record it, search lifts it."""

from __future__ import annotations

import pytest

from corpus_tools.chunking import ChunkingConfig, chunk_document
from corpus_tools.defined_names import is_question, lift_defined, names_match, query_names, split_defines
from corpus_tools.markdown_reader import heading_names, read_markdown
from corpus_tools.rst_reader import looks_like_code, read_rst, signature_names
from corpus_tools.types import Document


def defined(page) -> dict[str, str]:
    """name → the line of the page's text where it is defined."""
    return {name: page.text[at:].split("\n", 1)[0] for part in page.parts for at, name in part.defines}


def test_query_names_are_the_tokens_that_read_as_code():
    assert query_names("What does SECRET_KEY do?") == {"SECRET_KEY"}
    assert query_names("What is the default of max_redirects?") == {"max_redirects"}
    assert query_names("How do I use Depends?") == {"Depends"}  # capitalised inside the sentence
    assert query_names("How do I run the app?") == set()  # plain words name no code
    assert query_names("What does `run` do?") == {"run"}
    assert query_names("What does `Flask.route()` do?") == {"Flask.route"}
    assert query_names("What does --output do?") == {"--output"}
    assert query_names("Flask is nice.") == set()  # the first word's capital is the sentence's
    assert query_names("") == set()


def test_a_question_ends_with_a_question_mark_or_opens_with_a_question_word():
    assert is_question("What does SECRET_KEY do?") and is_question("SECRET_KEY?") and is_question("how to use Depends")
    assert not is_question("Returning a custom Response") and not is_question("") and not is_question("   ")
    assert not is_question("What FastAPI checks is that it is a callable.")  # a sentence that opens with "What"


def test_a_name_matches_whole_or_by_its_last_dotted_parts_and_underscored_names_in_any_case():
    assert names_match({"route"}, "flask.Flask.route")
    assert names_match({"Flask.route"}, "flask.Flask.route")
    assert not names_match({"Flask"}, "flask.Flask.route")
    assert names_match({"secret_key"}, "SECRET_KEY")
    assert not names_match({"depends"}, "Depends")


def test_split_defines_reads_only_a_non_empty_string():
    assert split_defines("SECRET_KEY, --output") == ["SECRET_KEY", "--output"]
    for bad in (None, 3, ["SECRET_KEY"], "", "  "):
        assert split_defines(bad) == []


def test_lift_defined_raises_only_a_candidate_defining_what_the_query_names():
    fused = [("a#0", 0.033), ("b#1", 0.030), ("c#2", 0.020)]
    defines = [None, "TESTING", "SECRET_KEY"]
    assert [c for c, _ in lift_defined("What does SECRET_KEY do?", fused, defines, 1.0)] == ["c#2", "a#0", "b#1"]
    assert lift_defined("What does SECRET_KEY do?", fused, defines, 0.0) == fused  # off: main's order
    assert lift_defined("How do sessions work?", fused, defines, 1.0) == fused  # names no code
    assert lift_defined("What does MAX_AGE do?", fused, defines, 1.0) == fused  # nobody defines it
    assert lift_defined("Signing with SECRET_KEY", fused, defines, 1.0) == fused  # a heading-like phrase: no lift
    assert [c for c, _ in lift_defined("how does SECRET_KEY sign", fused, defines, 1.0)][0] == "c#2"
    with pytest.raises(ValueError, match="weight"):
        lift_defined("What does SECRET_KEY do?", fused, defines, -1.0)


SPHINX = """Configuration
=============

Some text that mentions SECRET_KEY in passing.

.. py:data:: SECRET_KEY

    A secret key that will be used for securely signing the session cookie.

    Default: ``None``

.. option:: -o, --output <file>

    Where to write.

.. method:: Flask.route(rule, **options)

    A decorator that registers a view function.

.. autoclass:: flask.Flask
    :members:
"""


def test_rst_entries_define_the_names_their_signatures_give_at_their_signature_line():
    page = read_rst(SPHINX)
    assert defined(page) == {"SECRET_KEY": "SECRET_KEY", "-o": "-o, --output",
                             "--output": "-o, --output", "Flask.route": "Flask.route(rule, **options)"}
    # autodoc defines nothing: the entry's text is the code's docstring, not in the folder
    assert "flask.Flask" not in defined(page) and "flask.Flask" in page.text
    assert signature_names("class", "class click.Option(param_decls)") == ["click.Option"]


def test_markdown_defines_a_heading_that_is_a_code_name_and_a_parameter_lists_items():
    page = read_markdown("# Static Files\n\n## `StaticFiles` class\n\nServes files.\n\n"
                         "* `directory` - A string denoting a directory path.\n"
                         "* `check_dir` - Ensure that the directory exists. Defaults to `True`.\n\n"
                         "## Use the `html` option\n\nText.\n")
    assert defined(page) == {"StaticFiles": "StaticFiles class", "directory": "- directory - A string denoting a "
                             "directory path.", "check_dir": "- check_dir - Ensure that the directory exists. "
                             "Defaults to True."}
    assert heading_names("`FastAPI` class") == ["FastAPI"]
    assert heading_names("Use the `html` option") == []  # a heading about the name, not its definition
    assert heading_names("`a b`") == [] and heading_names("Plain") == []


MYST = """(options)=

# Options

```{eval-rst}
.. currentmodule:: click
```

The {func}`option` decorator invokes the {class}`~click.Option` class; see {ref}`the arguments <arguments>`.

```{eval-rst}
.. click:example::
    @click.command()
    @click.option('--n', default=1)
    def dots(n):
        click.echo('.' * n)

.. py:data:: CONTEXT_SETTINGS

    Settings a context starts with.
```

```{versionadded} 8.0
```

```{code-block} python
:caption: hello.py

import click
```

```{admonition} Why echo?
It works everywhere.
```

-   `tox r -e stress` runs stress tests.

    ```shell-session
    $ tox r -e stress
    ```
"""


def test_myst_directives_roles_and_labels_read_as_sphinx_reads_them():
    page = read_markdown(MYST)
    text = page.text
    assert "The option decorator invokes the click.Option class; see the arguments." in text
    for residue in ("{func}", "{class}", "(options)=", "eval-rst", "currentmodule", ":caption:", "```", ".. "):
        assert residue not in text, residue
    codes = [text[p.start : p.end] for p in page.parts if p.kind == "code"]
    assert codes[0].startswith("@click.command()") and "def dots(n):" in codes[0]  # an example directive is code
    assert "import click" in codes and "$ tox r -e stress" in codes
    assert "New in version 8.0:" in text and "Why echo?: It works everywhere." in text
    assert defined(page) == {"CONTEXT_SETTINGS": "CONTEXT_SETTINGS"}
    assert page.dropped["label"] == 1 and page.dropped["currentmodule"] == 1


def test_a_code_looking_body_and_a_text_body():
    assert looks_like_code(["@click.command()", "def hello():", "    pass"])
    assert not looks_like_code(["This is prose.", "More prose here."])
    assert not looks_like_code([])


def test_a_control_character_in_the_source_never_breaks_the_marks():
    page = read_markdown("## `name\x01` x\n\n* `alpha_beta` - Al\x01pha text here.\n")
    assert "\x01" not in page.text
    assert defined(page) == {"alpha_beta": "- alpha_beta - Alpha text here."}


class _Words:
    """A whitespace tokenizer: a token a word (enough to test where windows fall)."""

    def count(self, text: str) -> int:
        return len(text.split())

    def offsets(self, text: str) -> list[tuple[int, int]]:
        import re

        return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def test_the_chunk_holding_a_definition_carries_its_names():
    filler = "\n\n".join(f"Filler paragraph {i} says nothing much at all here." for i in range(12))
    page = read_rst(f"Configuration\n=============\n\n{filler}\n\n" + SPHINX.split("=\n\n", 1)[1])
    doc = Document("config.rst", page.text, title=page.title, parts=page.parts)
    chunks = chunk_document(doc, _Words(), ChunkingConfig(chunk_tokens=60, overlap_tokens=8))
    holding = [c for c in chunks if "defines" in c.metadata]
    assert len(chunks) > 2 and holding
    for c in holding:  # each name sits in the chunk whose text holds its signature line
        for name in split_defines(c.metadata["defines"]):
            assert name.lstrip("-") in c.text
    assert "SECRET_KEY" in {n for c in holding for n in split_defines(c.metadata["defines"])}
    assert not any("defines" in c.metadata for c in chunks if "Filler paragraph 3 " in c.text
                   and "SECRET_KEY" not in c.text)


def test_search_lifts_the_defining_chunk_only_with_the_flag(tmp_path, config):
    from corpus_tools import Corpus
    from corpus_tools.config import SearchConfig

    root = tmp_path / "docs"
    root.mkdir()
    mentions = "\n\n".join(f"What does SECRET_KEY do, step {i}? What SECRET_KEY does, SECRET_KEY does."
                           for i in range(3))
    (root / "tutorial.md").write_text(f"# Tutorial\n\n{mentions}\n", encoding="utf-8")
    (root / "deploy.md").write_text(f"# Deploying\n\n{mentions}\n", encoding="utf-8")
    (root / "config.rst").write_text("Configuration\n=============\n\n.. py:data:: SECRET_KEY\n\n"
                                     "    Used for securely signing the session cookie.\n\n"
                                     + "Cookies, sessions and signatures are related topics in general. " * 15 + "\n",
                                     encoding="utf-8")
    Corpus.build(root, tmp_path / "index", config=config, progress=False).close()
    query = "What does SECRET_KEY do?"
    with Corpus.open(tmp_path / "index", search=SearchConfig(defined_names=0.0)) as off, \
            Corpus.open(tmp_path / "index", search=SearchConfig(defined_names=4.0)) as on:
        first_off = [h.chunk.doc_id for h in off.search(query, k=3)]
        first_on = [h.chunk.doc_id for h in on.search(query, k=3)]
        plain = "How do I deploy?"
        assert [h.chunk.chunk_id for h in on.search(plain, k=3)] == [h.chunk.chunk_id for h in off.search(plain, k=3)]
        chunk = next(h.chunk for h in on.search(query, k=3) if h.chunk.doc_id == "config.rst")
    assert first_off[0] != "config.rst" and first_on[0] == "config.rst" and sorted(first_on) == sorted(first_off)
    assert chunk.metadata["defines"] == "SECRET_KEY"
    assert SearchConfig().defined_names == 0.5  # on by default
    with pytest.raises(ValueError, match="defined_names"):
        SearchConfig(defined_names=-1)


def test_a_passages_reason_says_it_defines_what_the_question_names():
    from context1.evidence import ShownPassage, passage_from_hit, passage_reason, question_words
    from corpus_tools.types import Chunk, Hit

    query = "What does SECRET_KEY do?"
    chunk = Chunk("config.rst#5", "config.rst", "SECRET_KEY\n\nA secret key.", 5, 6,
                  {"defines": "TESTING, SECRET_KEY", "section": "Configuration"})
    passage = passage_from_hit(Hit(chunk=chunk, score=1.0), 1, 0, "Configuration")
    passage.found_by, passage.ranks = [query], [1]
    assert passage_reason(passage, question_words(query), query=query).endswith("Defines “SECRET_KEY”.")
    assert "Defines" not in passage_reason(passage, question_words(query))  # no question text: no clause
    other = ShownPassage("a#1", "a", "SECRET_KEY is set here.", 1, 0, metadata={"defines": 3}, found_by=[query],
                         ranks=[1])
    assert "Defines" not in passage_reason(other, question_words(query), query=query)  # bad metadata: none


def test_the_myst_flag_off_reads_as_session_40_did(tmp_path):
    from corpus_tools.config import CorpusConfig
    from corpus_tools.loaders import load_documents

    off = read_markdown(MYST, myst=False)
    assert "{func}option" in off.text and "(options)=" in off.text  # session 40's reading, residue and all
    assert any(".. click:example::" in off.text[p.start : p.end] for p in off.parts if p.kind == "code")
    assert defined(off) == {}  # the entry sits in a block read as code: nothing defined
    example = ".. click:example::\n    @click.command()\n    def hello():\n        pass\n"
    assert [p.kind for p in read_rst(example, myst=False).parts] == ["text"]
    assert [p.kind for p in read_rst(example).parts] == ["code"]
    (tmp_path / "options.md").write_text(MYST, encoding="utf-8")
    docs = {flag: load_documents(tmp_path, myst=flag).documents[0].text for flag in (True, False)}
    assert docs[False] == off.text and docs[True] == read_markdown(MYST).text
    assert CorpusConfig().read_myst is True and CorpusConfig(read_myst=False).to_dict()["read_myst"] is False
    with pytest.raises(ValueError, match="read_myst"):
        CorpusConfig(read_myst="yes")


def test_the_excerpt_of_a_definition_opens_at_the_name_the_question_writes():
    from context1.interfaces.excerpt import excerpt

    text = ("TRAP_HTTP_EXCEPTIONS\n\nIf there is no handler for an exception, re-raise it. " * 6
            + "\n\nSECRET_KEY\n\nA secret key that will be used for securely signing the session cookie.")
    shown = excerpt(text, "What does SECRET_KEY do?", max_chars=200)
    assert "SECRET_KEY\nA secret key that will be used" in shown
    assert "SECRET_KEY" not in excerpt(text, "What does a handler do?", max_chars=120)  # main's excerpt
