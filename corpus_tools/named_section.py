"""The section a question names: when its heading is what the question asks about, the first hits show more of it.

A filing states one subject over a note or a subsection of several chunks, each holding part of the answer:
"Note 5 — DEBT" gives the senior notes in its first chunk, the term loan and its rate spread in the fourth, the
credit facility's borrowings in the sixth, the commercial paper in the seventh. A question that names the
subject ("What changes in debt and interest obligations did Amazon disclose …?") is answered by the note read
together, but both legs rank it chunk by chunk among everything else that repeats the question's words (the
financing cash flows, the MD&A's interest paragraph, the commitments table), so the first five hits show one
chunk of the note and the chunks stating the term loan and the credit facility sit at ranks 10–12 (issue 35,
session 36: docugami's tuning half, q138; the holder at rank 12).

The rule, `show_named_section`, over the first WINDOW hits of a ranking:
- a chunk's section is *named* by the question when every content word of its own heading (the last part of
  its section path, "Part I > Item 1. Financial Statements > Note 5 — DEBT" → "Note 5 — DEBT" → {debt}) is
  among the question's words (both read by the BM25 tokenizer, stemmed; numbers and the structural words
  "note", "item", "part" are no content words). A heading the question only partly names ("Reportable
  Segments" for a "reported" figure, "Interest Rate Risk" for a question about rates) is not named, nor is a
  parent section ("Item 1. Business" for "a capital intensive business"): a partial or parent match lost
  FinanceBench tuning questions when measured (session 36);
- when a named section of one document has at least MEMBERS chunks among the candidates and at least one of
  them among the first WINDOW, its best-ranked chunks below the window take places in it until it shows SLOTS
  of them, each in the place of the lowest-ranked hit there that is not of that section (never the first hit);
  the hits that gave their place move to just after the window, in their order. Nothing is removed.
- Only the named section whose best chunk ranks highest is read so; a ranking with none is unchanged.
`Corpus.search` applies it in searches narrowed to named documents on indexes with table chunks (report
indexes), after the figure and neighbour priors (`SearchConfig.named_sections`, False = off).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from corpus_tools.table_pieces import WINDOW

MEMBERS = 3  # chunks of the section among the candidates: fewer is a heading that happens to share the words
SLOTS = 3  # of the WINDOW places: the section read together, two places left for the rest
STRUCTURAL = ("note", "notes", "item", "items", "part", "parts")  # a heading's numbering words, never its subject
SEPARATOR = " > "  # between the parts of a section path (corpus_tools.structure writes it so)


def heading_terms(section: str | None, terms_of: Callable[[str], list[str]],
                  structural: set[str] | None = None) -> set[str]:
    """The content terms of a section path's own heading (its last part): `terms_of`'s terms without numbers,
    single characters and the structural words ("Note 5 — DEBT" → {"debt"}); empty for no section.
    `structural`: the structural words' terms, when the caller has read them already."""
    if not isinstance(section, str) or not section.strip():
        return set()
    heading = section.split(SEPARATOR)[-1]
    if structural is None:
        structural = _structural_terms(terms_of)
    return {t for t in terms_of(heading) if len(t) > 1 and not any(ch.isdigit() for ch in t) and t not in structural}


def _structural_terms(terms_of: Callable[[str], list[str]]) -> set[str]:
    return {t for word in STRUCTURAL for t in terms_of(word)}


def named_by(query: str, sections: Sequence[str | None], terms_of: Callable[[str], list[str]]) -> list[bool]:
    """Per section path: whether `query` names its own heading (every content term of it is one of the query's)."""
    wanted = set(terms_of(query))
    structural = _structural_terms(terms_of)  # once per search, not once per section
    out = []
    for section in sections:
        terms = heading_terms(section, terms_of, structural)
        out.append(bool(terms) and terms <= wanted)
    return out


def show_named_section(
    keys: Sequence[Hashable | None],
    window: int = WINDOW,
    slots: int = SLOTS,
    members: int = MEMBERS,
) -> list[int]:
    """The new order of a ranking (a permutation of its positions, best first).

    keys: per hit, the named section it lies in (any key naming one section of one document, e.g. (doc id,
    section path)), None for a hit whose section the question does not name (see `named_by`).
    """
    if window < 1 or slots < 1 or members < 1:
        raise ValueError(f"window, slots and members must be >= 1, got {window}, {slots}, {members}")
    order = list(range(len(keys)))
    count: dict[Hashable, int] = {}
    for key in keys:
        if key is not None:
            count[key] = count.get(key, 0) + 1
    shown = [keys[i] for i in order[:window]]
    chosen = next((key for key in shown if key is not None and count[key] >= members), None)
    if chosen is None:
        return order
    wanted = slots - shown.count(chosen)
    below = [i for i in order[window:] if keys[i] == chosen][: max(wanted, 0)]
    # the places given up: the lowest-ranked hits of other sections, never the first hit
    given = [i for i in order[1:window] if keys[i] != chosen][::-1][: len(below)]
    if not below or not given:
        return order
    below = below[: len(given)]
    top = [i for i in order[:window] if i not in given]
    for place, i in zip(sorted(given), below, strict=True):  # the best-ranked member takes the best place freed
        top.insert(place, i)
    rest = [i for i in order[window:] if i not in below]
    return top + sorted(given) + rest
