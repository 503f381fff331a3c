"""reStructuredText read as a document (corpus_tools/rst_reader.py): Sphinx pages, tables, bad input."""

from __future__ import annotations

from corpus_tools.rst_reader import inline, read_rst

SPHINX = """.. _quickstart:

==========
Quickstart
==========

.. currentmodule:: flask

Follow :doc:`installation` first, then read :doc:`the tutorial </tutorial/index>`.

A Minimal Application
---------------------

We imported the :class:`~flask.Flask` class and used :meth:`Flask.route`.
See `Werkzeug <https://werkzeug.palletsprojects.com/>`_ and ``__name__``.

.. code-block:: python

    from flask import Flask

    app = Flask(__name__)

.. note::
   The development server is not for production.

.. versionadded:: 2.0
    Async views.

.. admonition:: Application Discovery Behavior

    If the file is named ``app.py`` you don't need ``--app``.

Routing
~~~~~~~

Use this::

    @app.route("/")
    def index():
        return "Index Page"

.. toctree::
   :maxdepth: 2

   tutorial/index

.. autofunction:: flask.url_for

.. py:data:: SECRET_KEY

    A secret key that will be used for securely signing the session cookie.

    Default: ``None``

.. This is a comment
   spanning two lines.

Another Top Section
-------------------

Text.
"""


def _text(doc) -> str:
    return " ".join(doc.text.split())


def test_sphinx_page_sections_in_the_order_the_file_introduces_them():
    doc = read_rst(SPHINX)
    assert doc.title == "Quickstart"
    sections = list(dict.fromkeys(p.section for p in doc.parts))
    assert sections == ["Quickstart", "Quickstart > A Minimal Application",
                        "Quickstart > A Minimal Application > Routing", "Quickstart > Another Top Section"]


def test_roles_links_directives_read_as_text():
    text = _text(read_rst(SPHINX))
    assert "Follow installation first, then read the tutorial." in text
    # "~" is Sphinx's short display ("Flask"); the full dotted name is kept: what a user searches for.
    assert "We imported the flask.Flask class and used Flask.route." in text
    assert "See Werkzeug and __name__." in text
    assert "Note: The development server is not for production." in text
    assert "New in version 2.0: Async views." in text
    assert "Application Discovery Behavior: If the file is named app.py you don't need --app." in text
    assert "flask.url_for" in text  # autodoc: the name it documents
    assert "SECRET_KEY A secret key that will be used" in text and "Default: None" in text
    for residue in (".. ", "::", ":class:", ":doc:", "`", "toctree", "maxdepth", "comment", "_quickstart",
                    "currentmodule", "====", "~~~~"):
        assert residue not in doc_text(), residue


def doc_text() -> str:
    doc = read_rst(SPHINX)
    return "\n".join(doc.text[p.start:p.end] for p in doc.parts if p.kind != "code")


def test_dropped_markup_is_counted():
    doc = read_rst(SPHINX)
    assert doc.dropped == {"label": 1, "currentmodule": 1, "toctree": 1, "autodoc": 1, "comment": 1}


def test_code_block_and_literal_block_are_verbatim_parts():
    doc = read_rst(SPHINX)
    code = [doc.text[p.start:p.end] for p in doc.parts if p.kind == "code"]
    assert code == ["from flask import Flask\n\napp = Flask(__name__)",
                    '@app.route("/")\ndef index():\n    return "Index Page"']
    assert "Use this:" in doc.text


def test_grid_simple_list_and_csv_tables():
    doc = read_rst("""T
=

+--------+--------+
| Name   | Value  |
+========+========+
| one    | 1      |
+--------+--------+
| two    | 2      |
|        | more   |
+--------+--------+

========== ==========
Converter  Accepts
---------- ----------
``int``    positive integers
``path``   like string but
           with slashes
========== ==========

.. list-table:: Status codes
   :header-rows: 1

   * - Code
     - Meaning
   * - 200
     - OK

.. csv-table:: Sizes
   :header: "Size", "Bytes"

   "small", 10
   "large", 1000
""")
    tables = [(doc.text[p.start:p.end], p.context) for p in doc.parts if p.kind == "table"]
    assert [t for t, _c in tables] == [
        "(Name) | Value\none | 1\ntwo | 2 more",
        "(Converter) | Accepts\nint | positive integers\npath | like string but with slashes",
        "(Code) | Meaning\n200 | OK",
        "(Size) | Bytes\nsmall | 10\nlarge | 1000",
    ]
    assert tables[2][1].startswith("Status codes")


def test_headerless_simple_table_has_no_column_line():
    doc = read_rst("========== ======\nstring     text\nint        numbers\n========== ======\n")
    assert doc.text == "string | text\nint | numbers"


def test_bom_crlf_and_literal_paragraph_marker():
    doc = read_rst("\ufeffTitle\r\n=====\r\n\r\nExample: ::\r\n\r\n    x = 1\r\n")
    assert doc.title == "Title" and "\r" not in doc.text
    assert [doc.text[p.start:p.end] for p in doc.parts if p.kind == "code"] == ["x = 1"]
    assert "::" not in doc.text


def test_inline_across_lines_and_explicit_titles():
    assert inline("adding ``from app import\n*`` here") == "adding from app import\n* here"
    assert inline(":ref:`Signals <signals>` and :func:`!url_for`") == "Signals and url_for"
    assert inline("see footnote [#]_ and ref_ and *em*") == "see footnote and ref and em"


def test_unknown_directive_keeps_its_text_and_is_counted():
    doc = read_rst("T\n=\n\n.. custom-thing:: arg\n   :opt: 1\n\n   Body text kept.\n")
    assert "Body text kept." in doc.text and "arg" in doc.text and ":opt:" not in doc.text
    assert doc.dropped == {"directive custom-thing": 1}


def test_no_title_and_short_underline():
    assert read_rst("Just a paragraph.\n").title is None
    doc = read_rst("A long heading title\n======\n\nBody.\n")  # docutils warns, still a title
    assert doc.title == "A long heading title"
