"""Claims read off scientific prose: the finding a results or conclusions sentence states, as a
SciFact claim states it ("CD28 cosignaling is crucial for immunity against S. typhimurium.").

Scientific abstracts give the relation templates almost nothing: their subjects are no titled
documents and their objects no named entities, so `datagen --n 2000` over 5,183 SciFact abstracts
wrote 9 tasks and a reranker could not be fitted (issue 36). What such prose does have is findings,
and a finding is what its readers search with. A claim task asks for the abstract that supports a
claim; its answer is the evidence sentence (the learned writer's "claim" form, without a model).

`claim_of` turns one sentence into a claim, or None:

- only what the authors conclude is a claim (session 31's hand-read: 13 of 30 tasks failed on results
  sentences): a sentence opened by a conclusion ("Thus, …", "In conclusion, …", "CONCLUSIONS …") or a
  reporting clause ("These data suggest that …"); not a bare results sentence ("Patients in the most
  deprived quartile were more likely …"), nor a reporter that is a method ("Scan statistics showed that"),
  that scopes the finding ("Studies in IBD have indicated that") or that denies it ("there is no evidence
  to suggest that");
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
  than 6 or longer than 25 words;
- a claim that is its whole sentence is no task (searching with the sentence finds it by copying):
  a bare finding needs a reporting clause, a marker or an aside removed;
- a claim is read by someone who has not read the abstract (session 30's hand-read): an abbreviation
  the abstract defines is written out ("… in all MKs" → "… in all megakaryocytes"); the author's voice
  goes ("Provocatively, …", "…, however, …", "MAIN RESULTS"); a claim that leans on its study ("the
  population", "both groups", "is also"), an appraisal with nothing to compare ("… was low", "… was
  significantly higher"), a plan ("… will be assessed"), a structured abstract's METHODS sentence and
  words a PDF ran together are refused.

Only the second half of an abstract is read (results and conclusions; the first half is background
and methods), as the learned writer's claim form does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from datagen.mining import Sentence

MIN_WORDS = 6
MAX_WORDS = 25  # a claim is a searcher's sentence: longer ones were results told in full (session 31's read)
MAX_LONG_WORDS = 6  # an abbreviation whose long form is longer stays as written

_MARKER = re.compile(
    r"^(?:(?:conclusions?|interpretation|results?|findings|significance|summary)\s*[:.]\s*"
    r"|(?-i:(?:(?:MAIN|KEY|PRINCIPAL)\s+)?(?:CONCLUSIONS?|RESULTS?|INTERPRETATION|FINDINGS|SIGNIFICANCE|SUMMARY|"
    r"OUTCOMES?(?!\s+MEASURE))(?:\s+AND\s+[A-Z]+(?:\s+[A-Z]+)?)?)\s+"
    r"|(?:thus|therefore|hence|together|collectively|overall|finally|importantly|notably|consequently|"
    r"conversely|similarly|likewise|additionally|accordingly|indeed|specifically|interestingly|surprisingly|"
    r"in contrast|in conclusion|in summary|in addition|moreover|further|furthermore|taken together|altogether|in particular|"
    r"in this (?:study|report|paper|work|article)(?!\s+of\b)|in general|here)\s*,?\s+)",
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
# A claim is what the authors conclude, not what they measured: a sentence the abstract opens with a
# conclusion ("Thus, …", "In conclusion, …", "CONCLUSIONS …") or that reports a finding ("These data suggest
# that …", above). A bare results sentence states one study's observation, read with its study: "Patients in
# the most deprived quartile were more likely …", "Egg rolls were the only item associated with illness in
# both analyses", "All of the iPS cells showed pluripotency …" (session 31's hand-read: 13 of 30 failed so).
_CONCLUDING = re.compile(
    r"^(?:(?:conclusions?|interpretation)\s*[:.]|(?-i:CONCLUSIONS?|INTERPRETATION)\b"
    r"|(?:thus|therefore|hence|together|collectively|consequently|in conclusion|in summary|in sum|taken together|"
    r"altogether)\b)",
    re.IGNORECASE,
)
# A reporter that is a method ("Scan statistics showed that …", "Real-time PCR results showed that …", "Docking
# simulations suggest that …") reports an observation of this study, not what its authors conclude.
_METHOD_REPORTER = re.compile(
    r"\b(?:analys[ie]s|statistics|assays?|imaging|PCR|staining|experiments?|simulations?|sequencing|regression|"
    r"measurements?|tests?|blot(?:ting|s)?|microscopy|scans?|gel|screens?|studies|trials?|surveys?|models?|assessments?|"
    r"investigations?)\b",
    re.IGNORECASE,
)
_OWN_WORK = re.compile(r"\b(?:we|our|these|this|the present|the current)\b", re.IGNORECASE)
# A reporter that scopes its finding ("Studies in IBD have indicated that …", "In mice, we found that …")
# would leave a claim wider than the finding: "multiple independent associations exist at HLA genes".
_SCOPED_REPORTER = re.compile(
    r"\b(?:in|among|for|within)\s+(?!(?:this|these|our|the (?:present|current)|addition|summary|conclusion|"
    r"contrast|particular|turn|sum)\b)\w",
    re.IGNORECASE,
)
# Whole words only: "Therapy with …", "Tobacco use …", "Weight loss …" open findings, not "there", "to", "we".
# A reason or a concession first ("Since vivax malaria is predominant, …", "As an example, …") leans on
# what came before.
_CONTEXT_OPENING = re.compile(
    r"^(?:this|these|that|those|it|its|they|their|such|both|here|we|our|there|which|however|but|and|or|"
    r"whether|how|what|why|when|to|explain|compared|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"since|because|as|although|though|if|unless|whereas|while|data|results|findings|"
    # a contrast with the sentence before, or a vague quantity: "Yet, Cdc20 null cells …", "Some common
    # serum metabolome alterations have been identified …"
    r"yet|still|nevertheless|nonetheless|instead|rather|some|several|many|few|another|only (?:a )?few|the (?:two|three|four|five)|"  # "The two Rdn proteins are …": which?
    r"all (?:two|three|four|five|six|\d+)|eleven|twelve|\w+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred)\b|^\d",
    re.IGNORECASE,
)
# "I" and "US" are no persons in "type I diabetes", "phase I", "in the US": those two match in lower case only.
_FIRST_PERSON = re.compile(r"\b(?:(?i:we|our|me|my|mine|myself|you|your)|us)\b")
# What points outside the sentence: "in this disease", "these hallmarks", "was then used", "is also",
# "the population", "the cases" (of the study the abstract reports; "the treatment of asthma" is no
# pointer). "such as" names examples and points nowhere.
_POINTS_AWAY = re.compile(
    r"\b(?:this|these|those|such(?! as)|then|also|again|latter|former|aforementioned|for example|as an example|"
    r"e\.g|i\.e|table|fig|figure|doi|the following|the (?:proposed|present|current|new|novel) \w+|the same \w+(?! as\b)|so (?:identified|defined|obtained|generated|formed)|a related|(?<!and )(?<!or )other|the (?:intervention|population|patients|participants|subjects|cases|controls|study|trial|"
    r"cohort|samples?|groups?|program|programme|cells|mice|rats|animals|authors|investigators|review|meta-analysis|"
    r"analysis|survey|disease|condition|alleles|variants|results|data|findings|"
    # the study's own tool or material: "The signature or its components …", "In the HNSCC model, …"
    r"signature|model|strategy|approach|method|tool|scale|score|instrument|vaccine|drug|compound|peptide|isolate|"
    r"mutant|strain|construct|assay|device|technique|procedure|protocol|questionnaire|algorithm|pairs?)(?! of\b)"
    r"|the (?:[\w-]+ ){1,3}model\b|(?-i:the (?:[A-Z][\w-]* ){1,5}(?:Study|Trial|Cohort|Survey|Project|Program))\b"
    # "The association was predominant among …": which association? ("The association between A and B" says.)
    r"|the (?:association|relationship|correlation|effects?|differences?|increase|decrease|reduction|"
    r"improvement|benefit|pattern|trend|changes?|mechanism)(?! (?:of|between|in|on|to|with|for)\b)|(?:both|the two|either|each) (?:groups?|arms?|cohorts?)"
    # "the hypertensive pregnant group", "the placebo group": the study's own
    r"|the (?:[\w-]+ ){0,3}(?:groups?|arms?))\b",
    re.IGNORECASE,
)
# A measured value is a result of one study, read with its study: "91.1% of subjects had seroprotection",
# "reduced by 58.2% for the 100-mg group", "correlated .80 with …". A claim states a finding without it.
_STATISTICS = re.compile(
    r"\b(?:p\s*[<=>]|CI\b|OR\s*=|HR\s*=|RR\s*=|n\s*=|respectively|(?-i:a?[HOR]R|aOR) of\b)|±|\+/-"
    r"|\d\s*%|(?<![\w.)-])\d*\.\d+\b|\d·\d|(?<=\s)-\d",  # not a name's number: "Nav1.5", "Na(V)1.3", "HIF-1.5"
    re.IGNORECASE,
)
# An appraisal with nothing to compare with says nothing alone: "The cumulative incidence of late severe
# infections was low.", "… expression in lung cancer stem cells was significantly higher."
_BARE_APPRAISAL = re.compile(
    r"\b(?:is|are|was|were)\s+(?:\w+ly\s+)?(?:low|high|rare|common|similar|comparable|significant|modest|small|"
    r"large|unchanged|excellent|good|poor|favou?rable|acceptable|limited|minimal|substantial|"
    r"higher|lower|greater|smaller|better|worse|more|less)$",
    re.IGNORECASE,
)
# "The protection was correlated with …", "The peptide covers …": a bare "the" and one noun before the
# verb names the study's own thing (which protection? which peptide?).
_BARE_DEFINITE = re.compile(r"^[Tt]he [a-z]+ (?:is|are|was|were|has|have|had|can|could|may|might|\w+ed|\w+s)\b")
# A claim cut where its source's sentence was cut ("… via activation of the NALP3 inflammasome and.").
_OPEN_END = re.compile(r"\b(?:and|or|of|the|to|with|by|in|for|a|an|from|than|that)$", re.IGNORECASE)
_NOT_FINDINGS = re.compile(
    r"^(?:(?-i:(?:MAIN\s+)?OUTCOMES?\s+(?:AND\s+)?MEASURES?|METHODS?|BACKGROUND|OBJECTIVES?|DESIGN|SETTINGS?|PARTICIPANTS|PATIENTS|INTRODUCTION|AIMS?|PURPOSE|"
    r"MEASUREMENTS|INTERVENTIONS?)\b|highlights|(?:methods?|background|objectives?|design|aims?|purpose)\s*:)",
    re.IGNORECASE,
)
# A finding that another report still introduces was not cut out of it: "The finding that A but that B
# suggests that C, but …" (its subject longer than the reporting clause's ten words).
_NESTED_REPORT = re.compile(r"\b(?:suggests?|indicates?|shows?|demonstrates?|implies|imply)\s+that\b", re.IGNORECASE)
# "… elevated glucose in midlife, but not late life, were associated with …": the contrast goes, the
# finding stays whole (cut there as a tail, "Elevated glucose in midlife." was left).
# Only when a verb follows the contrast: in "… relies on membrane intactness, but not energy sources such as
# ATP, GTP or the membrane potential" the comma is a list's, and cutting there made "intactness GTP or …".
_BUT_NOT = re.compile(
    r",\s+but not\s+[^,;]+,\s+(?=(?:is|are|was|were|has|have|had|can|may|might|could|does|did|do|\w+ed|\w+s)\b)",
    re.IGNORECASE,
)
# "…, as reflected in the cochlear output, drive …": an aside between a subject and its verb (cut there as a
# tail, "The sharpness of fluctuations in the stimulus." was left).
_AS_ASIDE = re.compile(r",\s+as\s+(?!compared\b|opposed\b)\w+ed\b[^,;]*,\s+", re.IGNORECASE)
# A reporter that denies: "there is no evidence as yet to suggest that minor splicing was present …".
_DENIED = re.compile(r"\b(?:no|not|nor|never|neither|none|lacks?|lacking|failed|fails?|without|little|cannot|unable|"
                     r"unlikely|doubt|questions?)\b|n't\b", re.IGNORECASE)
# PubMed's note on a cut abstract is no part of its sentence.
_TRUNCATED = re.compile(r"\.?\s*\(ABSTRACT TRUNCATED[^)]*\)", re.IGNORECASE)
# Words a PDF ran together ("andathletesfrominterceptive…"), or a word and its reference numbers
# ("… interleukin for DA cells8,9 and leukaemia inhibitory factor10").
_GLUED = re.compile(r"\b[a-z]{24,}\b|\b[a-z]{4,}\d+(?:,\d+)*\b")
# "Provocatively, …", "Strikingly, …": any opening adverb is the author's voice, not the finding.
_OPENING_ADVERB = re.compile(r"^[A-Za-z][a-z]+ly,\s+")
# "…, however, …" inside a finding is the same voice.
_INNER_MARKER = re.compile(r",\s+(?:however|therefore|thus|moreover|furthermore|in turn|in addition|indeed),\s+", re.IGNORECASE)
# A finding says what something does or is: a sentence with none of these verb-like words is a label.
_FINDING = re.compile(
    r"\b(?:is|are|was|were|has|have|had|can|may|might|could|does|did|"
    r"\w+(?:s|ed))\b",
)
# An aside follows a space; a parenthesis inside a word is part of a name ("CX(3)CR1", "CD14(+)").
# and ends where a word ends: "[Ca2+]i" is a name, not "[Ca2+]" and "i".
_ASIDES = (
    re.compile(r"\s+\([^()]*\)(?![\w(\[])"),
    re.compile(r"\s+\[[^\[\]]*\](?![\w(\[])"),
)
# A method, not a finding: "Alcohol consumption was compared between …", "MRD status was defined as …".
_METHOD = re.compile(
    r"\b(?:was|were)\s+(?:\w+ly\s+)?(?:compared|defined|measured|assessed|recruited|enrolled|used|analy[sz]ed|"
    r"collected|randomi[sz]ed|classified|established|developed|designed|constructed|created|deposited|performed|calculated|obtained|evaluated|examined|included|selected|recorded|followed)\b"
    # a plan or a review's outline, not a finding: "… will be assessed", "Implications are discussed"
    r"|\bconsisted of\b|\b(?:requires?|needs?|warrants?|merits?|deserves?)\s+further\b|\bfurther (?:studies|research|investigations?|work) (?:is|are)\b|\b(?:was|were)\s+(?:\w+ed|made|done|taken|drawn)\s+using\b|\b(?:is|are|will be)\s+(?:briefly\s+)?(?:discussed|reviewed|described|presented|summari[sz]ed|highlighted|"
    r"considered|assessed|outlined|explored)\b",
    re.IGNORECASE,
)
_TAIL = re.compile(
    r"\s*(?:;|,\s*(?:whereas|while|thereby|thus|which|whose|its|their|it|they|suggesting|indicating|as(?!\s+(?:compared|opposed|well)\b)|but(?!\s+not\b)|since|because|although|though|"
    r"consistent with|in line with|in agreement with)\b|,?\s+and that\b|:\s"
    # the reporter's second verb ("These results demonstrate that TLR function is … and provide evidence for …"):
    # its plural form has no subject in the claim
    r"|(?:,\s+|,?\s+and\s+)(?:provide|support|suggest|indicate|show|reveal|demonstrate|identify|highlight|establish|"
    r"implicate|uncover|offer|point|pave|lay|open|raise|underscore|underline|emphasi[sz]e|illustrate|extend|shed|add)\b).*$",
    re.IGNORECASE,
)


# A paper's title ends as a sentence does ("A 40-Hz auditory potential recorded from the human scalp."); a
# name does not, but for an initial or a company's ending ("My Name Is Bill W.", "Harris, Forbes & Co.").
_NAME_END = re.compile(r"(?:[A-Z]|Inc|Ltd|Co|Corp|Jr|Sr|St|Bros|Mr|Dr)\.")


def paper_title(title: str) -> bool:
    """Whether a document's title is a paper's (a phrase or a sentence of four words or more, closed by a
    period), not a name: the relation templates would ask "Where is Swaddling: a systematic review.?"."""
    words = title.split()
    return len(words) >= 4 and title.rstrip().endswith(".") and not title.rstrip().endswith("..") and not (
        _NAME_END.fullmatch(words[-1]))


def paper_titles(titles: Mapping[str, str], share: float = 0.3) -> set[str]:
    """The documents whose title is a paper's. In a corpus of papers (a `share` of its titles or more closed
    as a sentence), every title is: "Bromodomain Proteins Contribute to Maintenance of Bloodstream Form Stage
    Identity in the African Trypanosome" has no period, and the templates asked "Which person is
    Bromodomain Proteins … covered with?". Elsewhere (HotpotQA: 1 of 4,431) only the closed ones are."""
    titled = {d: t for d, t in titles.items() if t.strip()}
    closed = {d for d, t in titled.items() if paper_title(t)}
    return set(titled) if titled and len(closed) >= share * len(titled) else closed


def claim_of(sentence: str) -> str | None:
    """The claim a sentence states (see the module docstring), or None when it states none alone."""
    text = _TRUNCATED.sub("", " ".join(sentence.split())).rstrip(" .")
    original = text
    if not text[:1].isupper():
        return None  # "as births and deaths as they occur…": the tail of a sentence cut in two
    if _NOT_FINDINGS.match(text):
        return None  # "METHODS Twenty patients …": a structured abstract's methods, however late they come
    concluded = False
    while True:  # "Thus, in this study, …": markers may stack
        concluded = concluded or bool(_CONCLUDING.match(text))
        stripped = _OPENING_ADVERB.sub("", _MARKER.sub("", text, count=1), count=1)
        if stripped == text:
            break
        text = stripped
    reported = _REPORTING.match(text)
    if reported:
        reporter = text[: reported.start(1)]
        if _DENIED.search(reporter):
            return None  # the finding is what the authors deny: the claim would state its opposite
        if _SCOPED_REPORTER.search(reporter):
            return None  # "Studies in IBD have indicated that …": the claim would lose its scope
        if _METHOD_REPORTER.search(reporter) and not _OWN_WORK.search(reporter):
            return None  # "Scan statistics showed that areas with … did not experience severe outbreaks"
        text = reported.group(1)
    elif not concluded:
        return None  # a results sentence: one study's observation, not a claim (see _CONCLUDING)
    for aside in _ASIDES:
        for _ in range(3):  # nested parentheses go from the inside out
            text = aside.sub("", text)
    text = _INNER_MARKER.sub(" ", text)
    text = _BUT_NOT.sub(" ", text)
    text = _AS_ASIDE.sub(" ", text)
    text = _TAIL.sub("", text).strip(" ,.")
    if not text or _CONTEXT_OPENING.match(text) or _FIRST_PERSON.search(text) or _STATISTICS.search(text) or (
        _POINTS_AWAY.search(text)
    ):
        return None
    if _BARE_DEFINITE.match(text) or _OPEN_END.search(text) or re.search(r",\s+where\b", text):
        return None
    if _GLUED.search(text):
        return None  # "…, andathletesfrominterceptive sporttypes…": words run together by the source's PDF
    if text.count("(") != text.count(")") or text.count("[") != text.count("]") or text.count('"') % 2:
        return None  # an aside left unbalanced: a fragment
    if _METHOD.search(text) or _BARE_APPRAISAL.search(text) or _NESTED_REPORT.search(text) or (
        re.search(r"\bnot only\b", text, re.IGNORECASE) and not re.search(r"\bbut also\b", text, re.IGNORECASE)
    ):  # "… not only during sickness.": its "but also" was cut as a tail
        return None
    words = text.split()
    if not MIN_WORDS <= len(words) <= MAX_WORDS or not _FINDING.search(text):
        return None
    if len(words) >= len(original.split()):
        return None  # the whole sentence: searching with it finds it by copying
    if _plain_word(words[0]):  # "sMD-2", "mRNA", "p62" keep their case
        text = text[:1].upper() + text[1:]
    return text + "."


def _plain_word(word: str) -> bool:
    """A word whose case is only its place in the sentence ("tau", "interleukin-9"), not a name's ("p62", "mRNA")."""
    return word[1:] == word[1:].lower() and not any(c.isdigit() for c in word.split("-")[0])


# "megakaryocytes (MKs)": an abbreviation in parentheses, 2-10 characters with a capital letter, after a
# space: "T(FH)" is a name's part, not "FH" defined (it was written out as "T(further polarized T)").
_DEFINED = re.compile(r"(?<=\s)\(([A-Za-z0-9][\w/+-]{0,8}[\w+])\)")
_STOP = {"the", "a", "an", "of", "in", "and", "or", "for", "to", "with", "on", "by", "as", "at", "from"}


def _long_form(short: str, before: str) -> str | None:
    """The words before "(short)" that the abbreviation abbreviates (Schwartz & Hearst, 2003): each of
    its letters, right to left, found in order in the words, the first one starting a word."""
    words = before.split()
    text = " ".join(words[-min(len(short) + 5, 2 * len(short)) :])
    letters = [c.lower() for c in short if c.isalnum()]
    i = len(text) - 1
    for k in range(len(letters) - 1, -1, -1):
        c = letters[k]
        while i >= 0 and (text[i].lower() != c or (k == 0 and i > 0 and text[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return None
        i -= 1
    long = text[i + 1 :].strip(" ,;:")  # from its first letter: "cyclin A/CDK2", "pro-interleukin-1β (IL-1β)"
    if not long or long.split()[0].lower() in _STOP or len(long) <= len(short) or "(" in long or ")" in long:
        return None
    return long


def abbreviations(sentences: Sequence[Sentence]) -> dict[str, str]:
    """Abbreviation -> what it stands for, as an abstract defines them ("megakaryocytes (MKs)"); a long
    form that opened its sentence loses the capital it had there ("Bone marrow (BM) …" → "bone marrow")."""
    found: dict[str, str] = {}
    for sent in sentences:
        for m in _DEFINED.finditer(sent.text):
            short = m.group(1)
            if not any(c.isupper() for c in short) or short in found:
                continue
            long = _long_form(short, sent.text[: m.start()])
            if long is None or len(long.split()) > MAX_LONG_WORDS:
                continue  # "TEA domain DNA-binding family of transcription factors": the short name reads better
            opening = sent.text[: sent.text.find(long)].strip(" :")  # "", or a heading: "BACKGROUND"
            # a name stays a name: "Kansas City Cardiomyopathy Questionnaire (KCCQ) …" keeps its capitals
            # ("T cell immunoglobulin …" keeps its one-letter name)
            if (not opening or opening.isupper()) and long[1:] == long[1:].lower() and len(long.split()[0]) > 1:
                long = long[:1].lower() + long[1:]
            found[short] = long
    return found


def _singular(long: str, short: str) -> str:
    """The singular of a long form defined plural ("liver X receptors (LXR)"), when its plural is a regular one."""
    if short[-1:] in "sS" or not re.search(r"(?:[^suiey]|[dntcglrvkm]e)s$", long) or re.search(r"(?:ics|ous)$", long):
        return long
    return long[:-1]


# After an abbreviation, what says it stands for one: a singular verb ("LXR is …"), or a name or a suffix it
# qualifies ("GC B cells", "TLR-dependent"). Anything else keeps the form as defined ("GC TFH are …": the
# cells, plural).
_ONE = re.compile(
    r"\s+(?:is|was|has|does)\b|\s+[A-Z0-9]|-"
    r"|\s+(?:\w+(?:ion|ity|ment|ance|ence|ness)|function|activity|signal(?:l)?ing|levels?|genes?|proteins?|pathways?)\b"
)


def _written_out(match: re.Match, short: str, long: str) -> str:
    return _singular(long, short) if _ONE.match(match.string, match.end()) else long


def expand(claim: str, defined: dict[str, str]) -> str:
    """The claim with every abbreviation its abstract defines written out: a reader of the claim has not
    read the abstract ("Chromosomal condensation occurs at early mitosis in all MKs" → "… megakaryocytes")."""
    for short, long in sorted(defined.items(), key=lambda kv: -len(kv[0])):
        # "HCV infection" where HCV stands for "hepatitis C virus infection": the word is not written twice
        last = re.escape(long.split()[-1])
        claim = re.sub(rf"(?<![\w-]){re.escape(short)}(?:\s+{last}\b)?(?![\w])",
                       lambda m, short=short, long=long: _written_out(m, short, long), claim)
    return claim[:1].upper() + claim[1:] if claim[:1].islower() and _plain_word(claim.split()[0]) else claim


def document_claims(sentences: Sequence[Sentence]) -> list[tuple[Sentence, str]]:
    """(evidence sentence, claim) for every sentence of an abstract's second half that states a claim,
    its abbreviations written out as the abstract defines them."""
    later = sentences[len(sentences) // 2 :]
    defined = abbreviations(sentences)
    out = []
    for sent in later:
        claim = claim_of(sent.text)
        if claim is not None:
            out.append((sent, expand(claim, defined)))
    return out
