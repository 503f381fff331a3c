"""What documentation prose says a version brought or will take away (issue 36: a project's docs in any style).

Not every project writes version notes as directives (datagen.doc_versions) or a changelog (datagen.doc_releases);
many say it in a sentence of the page, naming the project themselves:

- "Starting with Click 5.0 it is possible to access the current context from anywhere within the same thread."
  → "Since which version of Click is it possible to access the current context from anywhere within the same
  thread?" → "5.0"; "As of Click 2.0, you can override defaults …" → "Since which version of Click can you …?";
- "`CliRunner.isolated_filesystem` is deprecated and will be removed in Click 9.0." → "In which version of Click
  will CliRunner.isolated_filesystem be removed?" → "9.0".

The project is the sentence's own word (a capitalised name right before the version), so the question says
whose version it is without reading the folder. What follows "it is possible to" / "you can" is kept verbatim
(roles' residue "{func}" dropped) when short (≤ `MAX_WORDS` words) and whole (a sentence that runs past a
passage's end gives nothing).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from datagen.doc_markup import identifier
from datagen.doc_versions import VERSION
from datagen.factbase import Fact
from datagen.types import TruthType

MAX_WORDS = 16
_PROJECT = r"(?P<p>[A-Z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*)"
# "Starting with Click 5.0[,] it is possible to …." / "As of Click 2.0, you can …." / "Since Click 3.0 you can …."
_SINCE = re.compile(
    rf"(?:(?<=^)|(?<=[.!?:]\s))(?:Starting|Beginning)\s+(?:with|from|in)\s+{_PROJECT}\s+(?:version\s+)?(?P<v>{VERSION}),?"
    rf"\s+(?P<how>it\s+is\s+possible\s+to|it's\s+possible\s+to|you\s+can)(?:\s+also)?\s+(?P<what>(?:[^.!?]|\.(?=\w))+?)\.(?=\s|$)"
    rf"|(?:(?<=^)|(?<=[.!?:]\s))(?:As\s+of|Since)\s+{_PROJECT.replace('?P<p>', '?P<p2>')}\s+(?:version\s+)?"
    rf"(?P<v2>{VERSION}),?\s+(?P<how2>it\s+is\s+possible\s+to|it's\s+possible\s+to|you\s+can)(?:\s+also)?\s+"
    rf"(?P<what2>(?:[^.!?]|\.(?=\w))+?)\.(?=\s|$)",
    re.MULTILINE,
)
# "`X` is deprecated and will be removed in Click 9.0." (the thing in code, or a name that reads as code)
_WILL_REMOVE = re.compile(
    rf"(?:(?<=^)|(?<=[.!?:]\s))(?::[\w:-]+:|\{{[\w:-]+\}})?`?(?P<what>[A-Za-z_][\w.]*(?:\(\))?)`?\s+(?:is|are)\s+deprecated"
    rf"\s+and\s+will\s+be\s+removed\s+in\s+(?:{_PROJECT}\s+)?(?:version\s+)?(?P<v>{VERSION})(?=[\s.,;]|$)",
    re.MULTILINE,
)
_MANNER = re.compile(r",?\s+(?:through\s+the\s+use\s+of|by\s+using|by\s+means\s+of|which|that\s+is)\s")
# a role as MyST or rST leaves it in cleaned text: "{func}clear", "{exc}`UsageError`", ":meth:`x`"
_ROLE = re.compile(r"\{[\w:-]+\}|:[\w-]+(?::[\w-]+)?:(?=`)")


def since_facts(chunk: Any, skipped: Counter) -> list[Fact]:
    """The version sentences of one passage (see the module docstring); skips counted in `skipped`."""
    text = chunk.text
    out: list[Fact] = []
    for m in _SINCE.finditer(text):
        project, version = m.group("p") or m.group("p2"), m.group("v") or m.group("v2")
        how, what = (m.group("how") or m.group("how2")), (m.group("what") or m.group("what2"))
        what = re.sub(r"\s+", " ", _ROLE.sub("", what).replace("`", "")).strip()
        # a manner or relative clause closing the sentence is how, not what ("… from anywhere within the same
        # thread through the use of the get_current_context function which returns it")
        what = _MANNER.split(what, 1)[0].rstrip(",;: ")
        if len(what.split()) > MAX_WORDS or not re.search(r"[a-z]", what) or re.search(r"[{}\[\]]", what):
            skipped["doc_since_too_long"] += 1
            continue
        ask = (f"Since which version of {project} is it possible to {{s}}?" if "possible" in how
               else f"Since which version of {project} can you {{s}}?")
        out.append(Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=m.group(0).strip(), subject=what,
                        about_doc=False, relation="doc:since", answer=version, kind=TruthType.ENTITY.value, ask=ask))
    for m in _WILL_REMOVE.finditer(text):
        what = m.group("what")
        if not identifier(what) or not m.group("p"):
            skipped["doc_since_unnamed"] += 1  # "This is deprecated and will be removed in 3.0": what? whose?
            continue
        out.append(Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=m.group(0).strip(), subject=what,
                        about_doc=False, relation="doc:will_remove", answer=m.group("v"), kind=TruthType.ENTITY.value,
                        ask=f"In which version of {m.group('p')} will {{s}} be removed?"))
    return out
