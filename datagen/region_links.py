"""Links to the region a place answer is given in ("Snow moved to Nashville, Tennessee" → the page
"Tennessee"), so a chain can go on through "the state Hank Snow moved to" (issue 36, session 48).

MuSiQue's 3–4-hop questions run through such regions: "Which state borders the state where Hello Love's
performer lived when he died?" goes Hello Love → Hank Snow → Tennessee, and Hank Snow's page names
Tennessee only as the region of Nashville. The sentence readers read the place ("move|to|place":
Nashville), so the link graph had no hop to Tennessee; on the tuning part's 3–4-hop questions 27 hop links
named their next page without any fact reading it, the region after a comma the commonest shape
(`benchmarks/chain_recall.py`).

A region link is read only where it is as sure as the place fact it comes from:

- the place fact is about the page itself and stated once (`FactBase` relations), with a description that
  shows its type ("the {c} where {s} was born"): the region is where the subject was born, moved to, is
  located, as much as the place is;
- the region is the name right after the place and a comma ("Dala-Järna, Sweden"), resolved to one page
  (`naming.title_resolver`, as every link target is), that page not the place's own nor the subject's;
- the region page is a place, or says nothing of its type (a country's page of one paragraph on its
  history); a page of a person or a work after a comma is a list, not a region.

The region fact is a link only: it never answers a chain or a single-hop question (it would make "Where was
X born?" answered by a country when the page gives the town). Its sub-question (the task's clue) asks the
description itself ("What is the state that Hank Snow moved to?").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from datagen.chains import entity_type
from datagen.factbase import Fact, FactBase
from datagen.types import TruthType

# the region: the name after the place and its comma, up to the next comma or the end of the name
_REGION = re.compile(r"^,\s+(?:the\s+)?([A-Z][\w.'’-]*(?:\s+(?:of\s+(?:the\s+)?|de\s+)?[A-Z][\w.'’-]*){0,3})")
REGION_SUFFIX = ">region"  # a region fact's relation: the place fact's, so the diversity caps count it apart


def region_fact(fact: Fact) -> str:
    """The region named right after a place fact's answer ("Nashville, Tennessee" → "Tennessee"), or ""."""
    if fact.kind != TruthType.PLACE.value:
        return ""
    at = fact.sentence.find(fact.answer)
    if at < 0:
        return ""
    m = _REGION.match(fact.sentence[at + len(fact.answer):])
    return m.group(1).rstrip(".") if m else ""


def region_links(
    base: FactBase,
    relations: Mapping[str, Mapping[str, Fact]],
    resolve: Callable[[str, bool, str | None], str],
    text: Callable[[str], str],
) -> dict[str, list[Fact]]:
    """article → its region links (module docstring), in the order of its relations."""
    out: dict[str, list[Fact]] = {}
    for article, rels in sorted(relations.items()):
        for fact in rels.values():
            if not fact.about_doc or not fact.describe or "{c}" not in fact.describe:
                continue
            region = region_fact(fact)
            if not region:
                continue
            target = resolve(region, True, text(article))
            if not target:
                continue
            page = base.article(target)
            if page == article or (fact.target and page == base.article(fact.target)):
                continue
            if entity_type(base, page) not in ("", TruthType.PLACE.value):
                continue
            out.setdefault(article, []).append(Fact(
                doc_id=fact.doc_id, chunk_id=fact.chunk_id, sentence=fact.sentence, subject=fact.subject,
                about_doc=True, relation=fact.relation + REGION_SUFFIX, answer=region, kind=fact.kind,
                ask="What is " + fact.describe + "?", describe=fact.describe, target=target,
            ))
    return out
