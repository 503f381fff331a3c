"""Claims read off scientific prose: the finding a results or conclusions sentence states, as a
SciFact claim states it ("CD28 cosignaling is crucial for immunity against S. typhimurium.").

Scientific abstracts give the relation templates almost nothing: their subjects are no titled
documents and their objects no named entities, so `datagen --n 2000` over 5,183 SciFact abstracts
wrote 9 tasks and a reranker could not be fitted (issue 36). What such prose does have is findings,
and a finding is what its readers search with. A claim task asks for the abstract that supports a
claim; its answer is the evidence sentence (the learned writer's "claim" form, without a model).

`claim_of` turns one sentence into a claim, or None:

- the finding a reporting clause introduces is taken alone: "In this report, we show that Megator
  and Mad2 form a conserved complex" → "Megator and Mad2 form a conserved complex"; so is a sentence
  after a discourse marker ("Thus, CD28 cosignaling is crucial …");
- statistics and asides go: parentheses and brackets after a space (one inside a word is part of a name,
  "CX(3)CR1"), and what follows a semicolon, a ", whereas" or an "and that";
- a sentence that needs its context is no claim: one opening on a pronoun or a demonstrative ("These
  mice…", "It…"), a question word ("Whether the drug…") or a count ("Two loci gave…", "16.5 percent
  among…"), one that is the tail of a sentence cut in two, one in the first person, statistics
  ("P < 0.05", "respectively"), a word that points outside the sentence ("in this disease", "these
  hallmarks", "was then used", "Table 1"), a method ("… were compared between …", "… was defined
  as …"), a sentence with no verb-like word, and a claim shorter
  than 6 or longer than 30 words;
- a claim that is its whole sentence is no task (searching with the sentence finds it by copying):
  a bare finding needs a reporting clause, a marker or an aside removed.

Only the second half of an abstract is read (results and conclusions; the first half is background
and methods), as the learned writer's claim form does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from datagen.mining import Sentence

MIN_WORDS = 6
MAX_WORDS = 30

_MARKER = re.compile(
    r"^(?:(?:conclusions?|interpretation|results?|findings|significance|summary)\s*[:.]\s*"
    r"|(?-i:CONCLUSIONS?|RESULTS?|INTERPRETATION|FINDINGS|SIGNIFICANCE|SUMMARY)\s+"
    r"|(?:thus|therefore|hence|together|collectively|overall|finally|importantly|notably|consequently|"
    r"conversely|similarly|likewise|additionally|accordingly|indeed|specifically|interestingly|surprisingly|"
    r"in contrast|in conclusion|in summary|in addition|moreover|furthermore|taken together|altogether|in particular|"
    r"in this (?:study|report|paper|work|article)|here)\s*,?\s+)",
    re.IGNORECASE,
)
# "… we show that X", "These results indicate that X", "Analysis revealed that X": at most 10 words before.
_REPORTING = re.compile(
    r"^(?:[\w'’-]+[ ,]+){0,10}?(?:show|shows|showed|shown|indicate|indicates|indicated|suggest|suggests|suggested|"
    r"demonstrate|demonstrates|demonstrated|reveal|reveals|revealed|propose|conclude|concluded|find|found|"
    r"establish|establishes|established|confirm|confirms|confirmed|report|provide evidence|provides evidence|"
    r"identify|identified|support the (?:idea|notion|hypothesis))\s+that\s+(.+)$",
    re.IGNORECASE,
)
_CONTEXT_OPENING = re.compile(
    r"^(?:this|these|that|those|it|its|they|their|such|both|here|we|our|there|which|however|but|and|or|"
    r"whether|how|what|why|when|to|explain|compared|one|two|three|four|five|six|seven|eight|nine|ten|\d)",
    re.IGNORECASE,
)
_FIRST_PERSON = re.compile(r"\b(?:we|our|us|i|me|my|mine|myself|you|your)\b", re.IGNORECASE)
# What points outside the sentence: "in this disease", "these hallmarks", "was then used", a figure.
_POINTS_AWAY = re.compile(
    r"\b(?:this|these|those|such|then|for example|e\.g|i\.e|table|fig|figure|doi)\b", re.IGNORECASE
)
_STATISTICS = re.compile(r"\b(?:p\s*[<=>]|CI\b|OR\s*=|HR\s*=|RR\s*=|n\s*=|respectively)", re.IGNORECASE)
# A finding says what something does or is: a sentence with none of these verb-like words is a label.
_FINDING = re.compile(
    r"\b(?:is|are|was|were|has|have|had|can|may|might|could|does|did|"
    r"\w+(?:s|ed))\b",
)
# An aside follows a space; a parenthesis inside a word is part of a name ("CX(3)CR1", "CD14(+)").
_ASIDES = (
    re.compile(r"\s+\([^()]*\)"),
    re.compile(r"\s+\[[^\[\]]*\]"),
)
# A method, not a finding: "Alcohol consumption was compared between …", "MRD status was defined as …".
_METHOD = re.compile(
    r"\b(?:was|were)\s+(?:\w+ly\s+)?(?:compared|defined|measured|assessed|recruited|enrolled|used|analy[sz]ed|"
    r"collected|randomi[sz]ed|performed|calculated|obtained|evaluated|examined|included|selected|recorded|followed)\b",
    re.IGNORECASE,
)
_TAIL = re.compile(
    r"\s*(?:;|,\s*(?:whereas|while|thereby|thus|which|suggesting|indicating|as|but)\b|,?\s+and that\b|:\s).*$",
    re.IGNORECASE,
)


def claim_of(sentence: str) -> str | None:
    """The claim a sentence states (see the module docstring), or None when it states none alone."""
    text = " ".join(sentence.split()).rstrip(" .")
    original = text
    if not text[:1].isupper():
        return None  # "as births and deaths as they occur…": the tail of a sentence cut in two
    while True:  # "Thus, in this study, …": markers may stack
        stripped = _MARKER.sub("", text, count=1)
        if stripped == text:
            break
        text = stripped
    reported = _REPORTING.match(text)
    if reported:
        text = reported.group(1)
    for aside in _ASIDES:
        for _ in range(3):  # nested parentheses go from the inside out
            text = aside.sub("", text)
    text = _TAIL.sub("", text).strip(" ,.")
    if not text or _CONTEXT_OPENING.match(text) or _FIRST_PERSON.search(text) or _STATISTICS.search(text) or (
        _POINTS_AWAY.search(text)
    ):
        return None
    if text.count("(") != text.count(")") or text.count("[") != text.count("]"):
        return None  # an aside left unbalanced: a fragment
    if _METHOD.search(text):
        return None
    words = text.split()
    if not MIN_WORDS <= len(words) <= MAX_WORDS or not _FINDING.search(text):
        return None
    if len(words) >= len(original.split()):
        return None  # the whole sentence: searching with it finds it by copying
    first = words[0]
    if first[1:] == first[1:].lower():  # "sMD-2", "mRNA" keep their case
        text = text[:1].upper() + text[1:]
    return text + "."


def document_claims(sentences: Sequence[Sentence]) -> list[tuple[Sentence, str]]:
    """(evidence sentence, claim) for every sentence of an abstract's second half that states a claim."""
    later = sentences[len(sentences) // 2 :]
    out = []
    for sent in later:
        claim = claim_of(sent.text)
        if claim is not None:
            out.append((sent, claim))
    return out
