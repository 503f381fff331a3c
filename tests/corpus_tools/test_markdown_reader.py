"""Markdown read as a document (corpus_tools/markdown_reader.py): MkDocs, Docusaurus and GitHub styles, bad input."""

from __future__ import annotations

from corpus_tools.markdown_reader import inline, read_markdown

MKDOCS = """---
title: Query Parameters Guide
description: How FastAPI reads query parameters
hide:
  - navigation
---

# Query Parameters { #query-parameters }

When you declare other function parameters, they are "query" parameters.

{* ../../docs_src/query_params/tutorial001_py310.py hl[9] *}

## Defaults { #defaults }

Set `skip=0` and [read the guide](https://fastapi.tiangolo.com/tutorial/) for **more**.

/// tip | Good to know

Also notice that <abbr title="also known as">FastAPI</abbr> is smart.

///

!!! warning "Careful"
    Indented body of a warning.

```python
def read_items(skip: int = 0, limit: int = 10):
    return fake_items_db[skip : skip + limit]
```

| Parameter | Default | Meaning |
|-----------|:-------:|---------|
| `skip` | 0 | items to skip |
| `limit` | 10 | items to return |

::: fastapi.Query
    options:
        show_root_heading: true

<!-- a maintainer's comment -->
![Swagger UI screenshot](img/swagger.png)
"""


def _parts(doc):
    return [(p.section, p.kind, doc.text[p.start:p.end]) for p in doc.parts]


def test_mkdocs_page_reads_as_sections_without_markup():
    doc = read_markdown(MKDOCS)
    assert doc.title == "Query Parameters Guide"  # front matter first
    assert doc.metadata == {"description": "How FastAPI reads query parameters"}
    assert "---" not in doc.text and "description:" not in doc.text and "navigation" not in doc.text
    sections = [s for s, _k, _t in _parts(doc)]
    assert sections[0] == "Query Parameters" and "Query Parameters > Defaults" in sections
    for residue in ("{ #", "{*", "///", "!!!", ":::", "](", "**", "`", "<abbr", "<!--", "hl[9]"):
        assert residue not in doc.text, residue
    assert "Set skip=0 and read the guide for more." in doc.text
    assert "Tip: Good to know Also notice that FastAPI is smart." in " ".join(doc.text.split())
    assert "Warning: Careful Indented body of a warning." in " ".join(doc.text.split())
    assert "fastapi.Query" in doc.text and "show_root_heading" not in doc.text  # the name a reference page documents
    assert "Swagger UI screenshot" in doc.text
    assert doc.dropped == {"include": 1, "autodoc": 1, "html comment": 1}


def test_code_blocks_are_parts_kept_verbatim():
    doc = read_markdown(MKDOCS)
    code = [t for _s, k, t in _parts(doc) if k == "code"]
    assert code == ["def read_items(skip: int = 0, limit: int = 10):\n    return fake_items_db[skip : skip + limit]"]
    assert doc.code_blocks == 1


def test_pipe_table_reads_as_rows_under_headers():
    doc = read_markdown(MKDOCS)
    (table,) = [(t, p.context) for p in doc.parts if p.kind == "table" for t in [doc.text[p.start:p.end]]]
    assert table[0] == "(Parameter) | Default | Meaning\nskip | 0 | items to skip\nlimit | 10 | items to return"
    assert "columns: Default | Meaning" in table[1]


def test_docusaurus_admonitions_and_setext_headings():
    doc = read_markdown("Install\n=======\n\nText.\n\nUsage\n-----\n\n:::note Heads up\nUse a venv.\n:::\n\n"
                        ":::tip\n\nNested **tip**.\n\n:::\n")
    assert [p.section for p in doc.parts] == ["Install", "Install > Usage"]
    assert "Note: Heads up Use a venv." in doc.text and "Tip: Nested tip." in doc.text
    assert ":::" not in doc.text and "=====" not in doc.text and doc.title == "Install"


def test_title_falls_back_to_first_heading_then_none():
    assert read_markdown("Intro text.\n\n## Later heading\n").title == "Later heading"
    assert read_markdown("no heading at all").title is None  # the loader then uses the file name


def test_inline_links_images_escapes_and_html():
    assert inline("See [the docs](https://x.org/a_(b)) and [@bot[bot]](https://g.com/bot).") == \
        "See the docs and @bot[bot]."
    assert inline(r"Use \*literal\* stars, `a_b_c` and snake_case_name.") == \
        "Use *literal* stars, a_b_c and snake_case_name."
    assert " ".join(inline("<dfn title='x'>parsing</dfn> &amp; <br> more").split()) == "parsing & more"
    assert inline("[![badge](https://b.svg)](https://ci)") == "badge"


def test_pymdownx_tabs_give_their_title_and_nest():
    doc = read_markdown("# T\n\n//// tab | Python 3.10+\n\n/// note\n\nInner.\n\n///\n\n////\n")
    text = " ".join(doc.text.split())
    assert "Python 3.10+" in text and "Note: Inner." in text and "/" not in text.replace("3.10+", "")


def test_unclosed_fence_reads_to_the_end_as_code_with_a_note():
    doc = read_markdown("# T\n\nBefore.\n\n```bash\npip install fastapi\nuvicorn main:app\n")
    assert doc.parts[-1].kind == "code"
    assert doc.text.endswith("pip install fastapi\nuvicorn main:app")
    assert any("not closed" in n for n in doc.notes)


def test_broken_front_matter_is_text_with_a_note():
    doc = read_markdown("---\ntitle: never closed\n\n# Heading\n\nBody text.\n")
    assert any("front matter" in n for n in doc.notes)
    assert "title: never closed" in doc.text and "Body text." in doc.text  # nothing lost
    assert doc.title == "Heading"


def test_toml_front_matter():
    doc = read_markdown('+++\ntitle = "Hugo page"\ndate = 2024-01-02\n+++\nBody.\n')
    assert doc.title == "Hugo page" and doc.metadata == {"date": "2024-01-02"} and doc.text == "Body."


def test_ragged_table_rows_are_padded_or_joined_with_a_note():
    doc = read_markdown("| a | b |\n|---|---|\n| 1 |\n| 2 | 3 | 4 |\n")
    table = next(doc.text[p.start:p.end] for p in doc.parts if p.kind == "table")
    assert table == "(a) | b\n1 | \n2 | 3 4"
    assert any("ragged" in n for n in doc.notes)


def test_crlf_cr_bom_and_indented_code():
    doc = read_markdown("\ufeff# Title\r\n\r\nText line.\rMore.\r\n\r\n    indented = code()\r\n    again()\r\n")
    assert doc.title == "Title" and "\r" not in doc.text and "\ufeff" not in doc.text
    assert [doc.text[p.start:p.end] for p in doc.parts if p.kind == "code"] == ["indented = code()\nagain()"]


def test_list_continuation_is_not_code():
    doc = read_markdown("- item one\n\n    continued paragraph of item one\n\n- item two\n")
    assert all(p.kind == "text" for p in doc.parts)
    assert "continued paragraph of item one" in doc.text


def test_unclosed_admonition_and_html_comment_lose_nothing():
    doc = read_markdown("/// warning\n\nStill read.\n\n<!-- never closed\nkept text\n")
    assert "Warning: Still read." in " ".join(doc.text.split()) and "kept text" in doc.text
    assert any("not closed" in n for n in doc.notes)


def test_a_fence_around_a_snippet_include_is_dropped_and_counted():
    doc = read_markdown("# T\n\nText.\n\n```Javascript\n{!> ../../docs_src/app.js!}\n```\n")
    assert doc.text == "T\n\nText." and doc.code_blocks == 0 and doc.dropped == {"include": 1}


HUGO = """# Commands

{{< tabs tabTotal="2" tabID1="pipx" tabName1="With pipx" tabID2="manual" tabName2="Manually">}}
{{< tab tabID="pipx" >}}
Install it with pipx.
{{< /tab >}}
{{< /tabs >}}

{{% note %}}
A package is looked up, by default, only from [PyPI](https://pypi.org).
Add [Supplemental Package Sources]({{< relref "repositories/#supplemental-package-sources" >}}) if needed.
{{% /note %}}

{{% warning title="Careful" %}}
Never run it as root.
{{% /warning %}}

See {{< relref "cli" >}} the command list, or write `{{< tab >}}` in a template.

```toml
{{< kept-in-code >}}
```

    {{< kept in an indented code block >}}
"""


def test_hugo_shortcodes_are_markup_and_admonitions_their_label():
    # Poetry's docs (Hugo): main's reader left "{{% note %}}" and "{{< tabs … >}}" in the text a user reads
    doc = read_markdown(HUGO)
    code = [doc.text[p.start:p.end] for p in doc.parts if p.kind == "code"]
    assert code == ["{{< kept-in-code >}}", "{{< kept in an indented code block >}}"]  # code keeps its tags
    prose = doc.text[:doc.parts[0].end]
    assert prose == ("Commands\n\nInstall it with pipx.\n\n"
                     "Note: A package is looked up, by default, only from PyPI.\nAdd Supplemental Package Sources if needed.\n\n"
                     "Warning: Careful Never run it as root.\n\n"
                     "See the command list, or write {{< tab >}} in a template.")  # a code span shows its tag
    assert doc.dropped == {"shortcode": 6}
