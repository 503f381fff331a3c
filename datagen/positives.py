"""Extra positives (SPEC §4.6): every passage of the corpus that states a task's answer fact, checked by
extraction as the supporting quotes are.

The same fact often sits in several places: a 10-Q's figure repeats in the next quarter's filing, a
Wikipedia fact in the paragraph of another page. A retriever that returns any of them has found the
fact, so each is gold at fact granularity (`Task.facts`): the answer fact's tuple lists every chunk
that states it, and metadata["extra_positives"] keeps the quotes.

Which passages state the fact is the generator's reading (the natural generator: every fact of the
corpus with the same subject, relation and answer, `factbase.fact_key`), given as the candidate's
metadata["positive_quotes"]; here each is held to what the verifier asks of a quote: it occurs in its
document and chunk, and it holds an answer form. A co-occurrence of subject and answer in one sentence
is not enough ("Grey Morning, directed by Marcus Vell, was shot in Harwick" does not say where he was born).
"""

from __future__ import annotations

from collections.abc import Mapping

from datagen.types import Candidate
from datagen.verify import answer_in_texts, contains, normalize

POSITIVES = "positive_quotes"  # the candidate's metadata key: [{"doc_id", "chunk_id", "quote"[, "item", "value"]}]


def verified_positives(
    candidate: Candidate, chunk_texts: Mapping[str, str], excluded: set[str] | frozenset[str] = frozenset()
) -> list[tuple[int, str, str, str]]:
    """(index of the supporting item holding the answer, doc id, chunk id, quote) for every proposed
    positive that passes the checks above; the answer's own chunks and excluded documents are left out."""
    where = next((i for i, item in enumerate(candidate.supporting) if item.contains_truth), None)
    out: list[tuple[int, str, str, str]] = []
    seen: set[tuple[int, str]] = set()
    for p in candidate.metadata.get(POSITIVES) or ():
        doc, chunk, quote = str(p.get("doc_id", "")), str(p.get("chunk_id", "")), str(p.get("quote", ""))
        # A positive of another hop (a comparison's two figures, a bridge's first one) names its item and the
        # value that item's fact states; it is held to that value as the answer's positives are to the answer.
        index = p.get("item", where)
        if not isinstance(index, int) or not 0 <= index < len(candidate.supporting):
            continue
        wanted = [str(p["value"])] if "value" in p else candidate.answers
        if not quote or chunk in candidate.supporting[index].chunk_ids or (index, chunk) in seen:
            continue
        if doc in excluded or chunk not in chunk_texts:
            continue
        if contains(chunk_texts[chunk], normalize(quote)) and answer_in_texts(wanted, [quote]):
            out.append((index, doc, chunk, quote))
            seen.add((index, chunk))
    return out
