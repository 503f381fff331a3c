"""Questions from the fields of form-like reports (accident reports, protocols, filings' cover pages):
"What is the aircraft damage listed for accident NYC08CA055?" → "Substantial".

A folder of reports of one kind repeats the same form: "Label: value" pairs, two to a line,
    Location: Tallahassee, FL Accident Number: NYC08CA055
    Date & Time: 12/08/2007, 1730 EST Registration: N5921D
The labels are learned from the folder, not listed: a phrase before a colon that at least half of
the reports share ("Accident Number", never "FL Accident Number", which only Florida's reports have);
at each colon the longest such label is taken, so a value runs whole up to the next label
("Tallahassee, FL"). The report's own name is its identifier field: the label whose values are
codes, one per report and each report's own ("Accident Number"). Without one (or with fewer than
three reports sharing a form) nothing is read: the prose generator has the folder alone.

Facts: each field a report states once (one value) that is no boilerplate (a value more than
`common_share` of the reports give, "Aircraft Category: Airplane", tells the reports apart from
nothing). Multi-hop: two reports' date fields compared ("Which was earlier, accident A or accident
B?"): the answer is one identifier, both reports are needed. A report is named as a person names it:
its identifier label without "Number" ("accident NYC08CA055", never "the report with accident number
NYC08CA055"), and a question asks for a field as it is listed on the form, in the form's own words.

`ReportFieldTasks` wraps the prose generator as `datagen.period_tasks.PeriodTasks` does, screening its
candidates the same way (a boilerplate sentence repeated by every report is asked once).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from datagen.mining import MinedCorpus, fold
from datagen.period_tasks import screen_prose
from datagen.positives import POSITIVES
from datagen.types import Candidate, DropReason, SupportingItem, TruthType

_COLON = re.compile(r":(?=\s|$)")
_CODE = re.compile(r"^(?=.*\d)(?=.*[A-Z])[A-Z0-9][A-Z0-9-]{4,}$")  # NYC08CA055: capitals and digits, as written
_EMPTY = {"", "n/a", "none", "no", "yes", "unknown", "not reported", "-"}
_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_COUNT_AND_WORD = re.compile(r"^\d+,\s*[A-Za-z]+$")  # "60, Male": an age and a sex under the label "Age"
_ORDINALS = {"1": "first", "2": "second", "3": "third", "4": "fourth", "5": "fifth"}


@dataclass(frozen=True)
class Field:
    """One field of one report: the line it sits on (the verifier's quote) and its chunk."""

    doc_id: str
    chunk_id: str
    label: str
    value: str
    line: str


def _candidates(line: str) -> list[tuple[int, list[str], bool]]:
    """(colon position, the up-to-six words before it after the previous colon, whether those are all the
    words since that colon) for each colon of a line."""
    out = []
    previous = 0
    for m in _COLON.finditer(line):
        words = line[previous : m.start()].split()
        out.append((m.start(), words[-6:], previous > 0 and len(words) <= 6))
        previous = m.end()
    return out


def learn_labels(mined: MinedCorpus, min_share: float = 0.5) -> dict[str, int]:
    """The labels of the folder's form (label → reports using it): phrases before a colon that at least
    `min_share` of the reports use."""
    docs_with: dict[str, set[str]] = defaultdict(set)
    formed = 0
    for doc, chunks in mined.chunks.items():
        seen = False
        for c in chunks:
            for line in c.text.split("\n"):
                for _, words, _whole in _candidates(line):
                    for k in range(1, len(words) + 1):
                        label = " ".join(words[-k:])
                        if label[:1].isupper():
                            docs_with[label].add(doc)
                            seen = True
        formed += seen
    if formed < 3:
        return {}
    need = max(3, min_share * formed)
    return {label: len(docs) for label, docs in docs_with.items() if len(docs) >= need}


def read_fields(mined: MinedCorpus, labels: dict[str, int]) -> list[Field]:
    """Every (label, value) of every report line, each value running up to the next label. At a colon the
    longest label is taken ("Accident Number", not "Number"), unless it would swallow every word since the
    previous colon and a shorter one is known: "Landing Gear Type: Tricycle Seats: 4" is the value
    "Tricycle" and the label "Seats"."""
    out = []
    for doc, chunks in mined.chunks.items():
        for c in chunks:
            for line in c.text.split("\n"):
                marks = []  # (label start, colon position, label)
                for colon, words, whole in _candidates(line):
                    known = [k for k in range(1, len(words) + 1) if " ".join(words[-k:]) in labels]
                    if not known:
                        continue
                    top = max(labels[" ".join(words[-k:])] for k in known)
                    # a label only some reports write is the tail of the value before it ("Class 3 With
                    # Waivers/Limitations Last FAA Medical Exam"): the widely shared one is taken
                    known = [k for k in known if labels[" ".join(words[-k:])] >= 0.75 * top]
                    k = known[-2] if whole and known[-1] == len(words) and len(known) > 1 else known[-1]
                    label = " ".join(words[-k:])
                    marks.append((line.rfind(label, 0, colon), colon, label))
                for i, (_start, colon, label) in enumerate(marks):
                    end = marks[i + 1][0] if i + 1 < len(marks) else len(line)
                    value = line[colon + 1 : end].strip(" ,;")
                    out.append(Field(doc, c.chunk_id, label, value, line.strip()))
    return out


@dataclass(frozen=True)
class Report:
    doc_id: str
    name: str  # "accident NYC08CA055"
    code: str
    id_field: Field | None  # None: named by its file's code (`read_cover_reports`)
    fields: dict[str, Field]


def read_reports(mined: MinedCorpus, common_share: float = 0.3, skipped: Counter | None = None) -> list[Report]:
    """The folder's reports, each named by its identifier field, with its fields that tell it apart."""
    skipped = skipped if skipped is not None else Counter()
    labels = learn_labels(mined)
    if not labels:
        return []
    by_doc: dict[str, dict[str, list[Field]]] = defaultdict(lambda: defaultdict(list))
    for f in read_fields(mined, labels):
        by_doc[f.doc_id][f.label].append(f)
    n_docs = len(by_doc)
    # the identifier: a label whose values are codes, one per report, no two reports alike
    id_label, best = "", 0
    for label in sorted(labels):
        values = [{f.value for f in fields[label]} for fields in by_doc.values() if label in fields]
        codes = [next(iter(v)) for v in values if len(v) == 1 and _CODE.match(next(iter(v)))]
        if len(codes) >= 0.8 * n_docs and len(set(codes)) == len(codes) and len(codes) > best:
            id_label, best = label, len(codes)
    if not id_label:
        skipped["reports_without_identifier"] += n_docs
        return []
    titled = [lab for lab in labels if lab[:1].isupper() and len(lab) > 3]
    # a label that ends two longer ones ("Point": "Departure Point", "Temperature/Dew Point") is a cut
    # label when read alone ("Altimeter Setting: Temperature/Dew Point: 24°C" gave "Point")
    tails = Counter(tail for lab in labels for k in range(1, len(lab.split()))
                    if (tail := " ".join(lab.split()[k:])) in labels)
    cut = {lab for lab, n in tails.items() if n >= 2}
    counts: Counter = Counter()
    for fields in by_doc.values():
        for label, fs in fields.items():
            values = {fold(f.value) for f in fs}
            if len(values) == 1:
                counts[(label, next(iter(values)))] += 1
    out = []
    for doc, fields in sorted(by_doc.items()):
        ids = {f.value for f in fields.get(id_label, [])}
        if len(ids) != 1:
            skipped["report_without_identifier"] += 1
            continue
        code = next(iter(ids))
        kept = {}
        for label, fs in fields.items():
            values = {fold(f.value) for f in fs}
            value = fs[0].value
            if label == id_label or len(values) != 1:
                continue
            if label in cut:
                skipped["field_label_cut"] += 1
                continue
            if fold(value) in _EMPTY or len(value.split()) > 8 or ":" in value or not re.search(r"[A-Za-z0-9]", value):
                continue
            if (value[:1] in "(|/" or value[-1:] in "/|" or any(re.search(rf"\s{re.escape(lab)}(?!\w)", value) for lab in titled)
                    or any(lab.startswith(value) for lab in titled)):  # "Distance from": a label, its value empty
                skipped["field_value_runs_on"] += 1  # "Willis O Forman Operating Certificate(s) None": a label lost its colon
                continue
            if re.search(r"(?<!#)\b\d", label):
                skipped["field_label_cut"] += 1  # "Flight Conducted Under: Part 91: General Aviation": a value read as a label
                continue
            if "," in label or _COUNT_AND_WORD.match(value):
                # "Observation Facility, Elevation", "Age: 60, Male": two fields in one, neither asked alone
                skipped["field_two_in_one"] += 1
                continue
            if counts[(label, fold(value))] > max(1, common_share * n_docs):
                skipped["field_value_common"] += 1
                continue
            kept[label] = fs[0]
        out.append(Report(doc, report_name(id_label, code), code, fields[id_label][0], kept))
    return out


_ID_WORDS = {"number", "no", "no.", "#", "id", "code", "nr", "nr."}


def report_name(id_label: str, code: str) -> str:
    """A report as a person names it: the identifier label's noun and the code ("Accident Number",
    NYC08CA055 → "accident NYC08CA055"); a label that is only "Number" or "ID" gives "report …"."""
    words = _lower(id_label).split()
    while words and words[-1].lower() in _ID_WORDS:
        words.pop()
    return f"{' '.join(words) or 'report'} {code}"


# A cover-page field line: a short Title-case label, a colon, a value ("Sponsor: Lutronic, Inc.").
_COVER_LINE = re.compile(r"^([A-Z][A-Za-z&/()'’ -]{1,40}?)\s*:\s+(\S.*)$")
_FILE_CODE = re.compile(r"[A-Z0-9][A-Z0-9-]{4,}")
# a value not filled in: "TBC", "____", "……", "..........."
_BLANK = re.compile(r"^(?:tbc|tbd|n/?a|none|pending|[_.…\s-]+)$", re.IGNORECASE)


# The enrollment a protocol plans, in its own words: "We will recruit a total of 90 participants", "The
# study will enroll up to 60 subjects", "A total of 38 patients will be enrolled", "We plan to enroll 20
# subjects". A count per group ("50 patients per group will be included") or a past trial's ("we
# recruited 80 patients") is no plan of this one.
_PEOPLE = r"(participants|patients|subjects|volunteers|children|adults|women|men|individuals)"
_ENROLL = re.compile(
    rf"\b(?:will|plan to|plans to)\s+(?:enrol+|recruit|include)\s+(?:up to\s+|a total of\s+|approximately\s+)?(\d{{1,5}})\s+{_PEOPLE}\b(?!\s+(?:per|in each|each)\b)"
    rf"|\b[Aa] total of\s+(\d{{1,5}})\s+{_PEOPLE}\s+will be\s+(?:enrol+ed|recruited|included)\b"
)
ENROLLMENT = "planned enrollment"


def _enrollment(mined: MinedCorpus, doc: str) -> Field | None:
    """The one enrollment a protocol's prose plans (every such sentence agreeing), as a field."""
    found = []
    for sent in mined.sentences.get(doc, ()):
        for m in _ENROLL.finditer(sent.text):
            count, people = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            found.append((count, people.lower(), sent))
    if not found or len({c for c, _, _ in found}) != 1:
        return None
    count, people, sent = found[0]
    return Field(doc, sent.chunk_id, f"{ENROLLMENT}|{people}", count, sent.text)


# The trial's phase, where the protocol says it of this study: "This study is a single arm phase II study",
# "Phase II clinical study of daratumumab …". A past trial's ("we have completed the first phase I clinical
# trial", "results obtained in the Phase I clinical trial"), a cited one ("…interleukin-2: a phase 1 study") and a
# phase of treatment ("Phase 1 maintenance therapy") say nothing of this one. Asked only when every such
# mention gives one phase: "PHASE II STUDY" in a title and "this Phase I/II clinical trial" in the text is no answer.
PHASE = "trial phase"
_PHASE = re.compile(
    r"(?i)\bphase\s+((?:IV|I{1,3}|[1-4])(?:\s*/\s*(?:IV|I{1,3}|[1-4]))?)\b"
    r"(?=\s+(?:(?:randomi[sz]ed|single[- ]arm|open[- ]label|multi-?cent(?:er|re)|prospective|pilot)\s+)*(?:clinical\s+)?(?:study|trial)\b)"
)
_PAST = re.compile(r"(?i)\b(?:completed|previous|prior|published|results|et al|earlier|preceding)\b")
_ROMAN = {"i": "1", "ii": "2", "iii": "3", "iv": "4"}


def _phase(mined: MinedCorpus, doc: str) -> Field | None:
    """The one phase a protocol gives its own trial (see above), as a field "Phase II"."""
    found = []
    # read line by line: a synopsis table ("Study design | This study is a single arm phase II study …") says it too
    for c in mined.chunks.get(doc, ()):
        for line in c.text.split("\n"):
            for m in _PHASE.finditer(line):
                if _PAST.search(line) or re.search(r":\s*(?:an?\s+)?(?:randomi[sz]ed\s+)?$", line[:m.start()]):
                    continue
                key = "/".join(_ROMAN.get(p.strip().lower(), p.strip()) for p in m.group(1).split("/"))
                found.append((key, m.group(0), c.chunk_id, line.strip()))
    if not found or len({f[0] for f in found}) != 1:
        return None
    _key, written, chunk_id, line = found[0]
    return Field(doc, chunk_id, PHASE, written, line)


# The primary outcome under its heading, one line long: "Primary outcome measure:\n• Enablers of successful
# day-case endourology surgery pathways\n\nSecondary outcome measures: …". Two outcomes, a wrapped one (the
# line after is text again) or two headings giving two different outcomes: none is asked.
PRIMARY = "primary"
_PRIMARY_HEAD = re.compile(r"(?i)^(?:study endpoints?\s+|outcomes?\s+)?(primary\s+(?:outcome(?:\s+measures?)?|endpoints?))\s*:\s*(.*)$")
_BULLET = re.compile(r"^(?:[•\uf0b7\uf0a7\x9f▪◦*-]|\d+[.)])\s*")


def _primary_outcome(mined: MinedCorpus, doc: str) -> Field | None:
    found = []
    chunks = mined.chunks.get(doc, [])
    for n, c in enumerate(chunks):
        # the next chunk's first line closes an item the chunk ends on ("Secondary outcome measures:")
        lines = [ln.strip() for ln in c.text.split("\n")]
        own = len(lines)
        if n + 1 < len(chunks):
            lines.append(next((ln.strip() for ln in chunks[n + 1].text.split("\n") if ln.strip()), ""))
        for i, line in enumerate(lines[:own]):
            m = _PRIMARY_HEAD.match(line)
            if not m or re.search(r"\.{4,}|\|", line):  # a table of contents' line ("….. 17")
                continue
            label = re.sub(r"(?i)s$", "", re.sub(r"\s+", " ", m.group(1)).lower())
            body = [m.group(2)] if m.group(2) else []
            j = i + 1
            while not body and j < len(lines) and not lines[j]:
                j += 1
            if not body and j < len(lines):
                body, j = [lines[j]], j + 1
            after = lines[j] if j < len(lines) else None
            # what follows closes the item: a blank line, the secondary outcomes, or a short heading ("Statistical
            # planning"); a line that goes on in lower case is the item wrapped
            heading = after is not None and bool(re.match(r"(?i)secondary\b", after) or (
                after[:1].isupper() and len(after.split()) <= 4 and not after.endswith((".", ","))))
            if after is None or (after and not heading):
                found.append(None)  # runs on (wrapped, a second outcome) or the chunk ends: not known whole
                continue
            value = _BULLET.sub("", body[0]).strip(" .;") if body else ""
            if not value or len(value.split()) > 20 or ":" in value:
                found.append(None)
                continue
            found.append((label, value, c.chunk_id, body[0]))
    if not found or None in found or len({fold(f[1]) for f in found}) != 1:
        return None
    label, value, chunk_id, line = found[0]
    return Field(doc, chunk_id, f"{PRIMARY}|{label}", value, line)


def _file_code(doc_id: str) -> str:
    """The identifier a file's name carries ("NCT06152900_Prot_SAP_000.pdf" → "NCT06152900"), or ""."""
    stem = doc_id.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    codes = [m.group(0) for m in _FILE_CODE.finditer(stem) if _CODE.match(m.group(0))]
    return codes[0] if codes else ""


def read_cover_reports(mined: MinedCorpus, cover_chunks: int = 2, skipped: Counter | None = None) -> list[Report]:
    """Reports whose forms differ (clinical-trial protocols from many sponsors): no label half the folder
    shares, so each document's own cover page is read instead: the "Label: value" lines of its first
    `cover_chunks` chunks, the document named by the code its file name carries ("NCT06152900"), as a
    person with the folder names it, where the index holds that code (its title or text). Only when most
    documents' names carry a code, one per document.

    A cover line is a field only where its value is whole: the line opens a field (the line before is
    blank or another field, or the label has two words or more; a chunk's first line may continue the
    chunk before; "…Ovarian Cancer\nPatients: A Randomized Controlled Trial" is a wrapped title) and closes it (the line after is blank or another field; "Research
    Institution: Second Affiliated Hospital of Army Medical\nUniversity" wraps). A code two documents
    share (a protocol and its consent form) names neither alone; a label stated twice with two values
    says neither."""
    skipped = skipped if skipped is not None else Counter()
    codes = {doc: _file_code(doc) for doc in mined.chunks}
    shared = Counter(codes.values())
    if sum(bool(c) for c in codes.values()) < max(3, 0.8 * len(codes)):
        return []
    out = []
    for doc, chunks in sorted(mined.chunks.items()):
        code = codes[doc]
        if not code or shared[code] > 1:
            skipped["cover_code_shared_or_missing"] += 1
            continue
        if code not in mined.titles.get(doc, "") and code not in mined.doc_text(doc):
            # a question naming the code must be answerable by searching: the index must hold it (the title
            # it gave the file, "NCT06152900 Prot SAP 000", or the text)
            skipped["cover_code_not_indexed"] += 1
            continue
        found: dict[str, list[Field]] = defaultdict(list)
        for c in chunks[:cover_chunks]:
            lines = c.text.split("\n")
            fielded = [bool(_COVER_LINE.match(ln.strip())) for ln in lines]
            for i, line in enumerate(lines):
                m = _COVER_LINE.match(line.strip())
                if not m:
                    continue
                before = lines[i - 1].strip() if i > 0 else None
                # a label of two words or more is no title's last line ("Grant Number:" after a title
                # that wrapped); one word may be ("…Ovarian Cancer\nPatients:")
                opens = before is not None and (not before or fielded[i - 1] or (
                    len(m.group(1).split()) >= 2 and not before.endswith((",", "-", "–", " and", " of", " for", " the"))))
                closes = i + 1 < len(lines) and (not lines[i + 1].strip() or fielded[i + 1])
                label, value = m.group(1).strip(), m.group(2).strip(" ,;")
                if not (opens and closes):
                    skipped["cover_value_wrapped"] += 1
                    continue
                if _BLANK.match(value) or len(value.split()) > 8 or len(label.split()) > 5 or ":" in value:
                    skipped["cover_value_unusable"] += 1
                    continue
                found[label].append(Field(doc, c.chunk_id, label, value, line.strip()))
        kept = {label: fs[0] for label, fs in found.items() if len({fold(f.value) for f in fs}) == 1}
        for read in (_enrollment, _phase, _primary_outcome):
            field = read(mined, doc)
            if field is not None:
                kept[field.label] = field
        if kept:
            out.append(Report(doc, code, code, None, kept))
    return out


def _lower(label: str) -> str:
    """A form's label inside a sentence: "Registered Owner" → "registered owner"; "FAA", "(IIC)" stay;
    a numbered label reads as words ("Occurrence #1" → "first occurrence")."""
    numbered = re.match(r"^(.+?)\s*#\s*([1-5])$", label)
    if numbered:
        return f"{_ORDINALS[numbered.group(2)]} {_lower(numbered.group(1))}"
    # only a plain capitalised word is lowered: "FAA", "(IIC)", "Co-PI" are written as the form writes them
    return " ".join("/".join(p.lower() if p[1:] == p[1:].lower() else p for p in w.split("/")) for w in label.split())


# a label naming a person's role: asked "who"
_ROLE = re.compile(r"(?i)\b(?:investigator|owner|sponsor|pilot|instructor|co-pi|pi|contact|director|chair)\b(?!.*\b(?:number|no|id|date)\b)")


def field_question(label: str, value: str, name: str) -> str:
    """A field asked as a person asks it, in the form's own words: "What is the registration listed for
    accident NYC08CA055?", "Who is the investigator in charge (IIC) listed for …?" (a role), "How many seats
    are listed for …?" (a plural counted), "What are the airplane ratings listed for …?" ("Rating(s)"),
    "Who is NCT06152900 funded by?" (a label that names a who), "How many participants does NCT06157684
    plan to enroll?" (the enrollment its prose plans)."""
    if label.startswith(ENROLLMENT):
        return f"How many {label.partition('|')[2]} does {name} plan to enroll?"
    if label == PHASE:
        return f"What phase is the {name} trial?"
    if label.startswith(f"{PRIMARY}|"):  # "primary outcome measure", "primary endpoint"
        return f"What is the {label.partition('|')[2]} of {name}?"
    said = _lower(label)
    if said.endswith(" by"):  # "Funded by: Lutronic, Inc."
        return f"Who is {name} {said}?"
    if said.endswith("(s)"):  # "Airplane Rating(s)"
        return f"What are the {said[:-3]}s listed for {name}?"
    last = said.split()[-1]
    if re.fullmatch(r"\d+", value) and last.endswith("s") and not last.endswith("ss"):  # "Seats: 4"
        return f"How many {said} are listed for {name}?"
    if _ROLE.search(said):
        return f"Who is the {said} listed for {name}?"
    plural = last.endswith("s") and not last.endswith(("ss", "us", "is"))  # "Total Injuries: 1 Minor"
    return f"What {'are' if plural else 'is'} the {said} listed for {name}?"


def _date(value: str) -> dt.date | None:
    m = _DATE.search(value)
    if not m:
        return None
    try:
        return dt.date(int(m.group(3)), int(m.group(1)), int(m.group(2)))
    except ValueError:
        return None


class ReportFieldTasks:
    """The prose generator with report-field questions added (see the module docstring)."""

    def __init__(self, inner: Any, mined: MinedCorpus, *, share: float = 0.5) -> None:
        self.inner = inner
        self.mined = mined
        self.share = share
        self.own_stages: Counter = Counter()
        self.reports = read_reports(mined, skipped=self.own_stages) or read_cover_reports(mined, skipped=self.own_stages)
        self.asked: set[str] = set()
        self._tried: set[tuple[str, ...]] = set()
        self.fields = [(r, f) for r in self.reports for f in r.fields.values()]
        labels = Counter(label for r in self.reports if r.id_field for label, f in r.fields.items() if _date(f.value))
        self.date_label = next((label for label, n in labels.most_common() if n >= 2), "")
        self.own_stages["reports:read"] = len(self.reports)
        self.own_stages["reports:fields"] = len(self.fields)

    @property
    def stages(self) -> Counter:
        return Counter(getattr(self.inner, "stages", {})) + self.own_stages

    def commit(self, candidate: Candidate) -> None:
        from datagen.verify import normalize

        self.asked.add(normalize(candidate.question))
        self.asked.update(candidate.metadata.get("fact_keys") or ())
        if candidate.metadata.get("generator_part") != "reports":
            self.inner.commit(candidate)

    def exhausted(self, hops: int) -> str | None:
        if (hops == 1 and self.fields) or (hops == 2 and self.date_label):
            return None
        inner = getattr(self.inner, "exhausted", None)
        return inner(hops) if inner is not None else None

    def propose(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        inner_spent = getattr(self.inner, "exhausted", lambda h: None)(hops) is not None
        if hops > 2 or (not inner_spent and rng.random() >= self.share):
            return screen_prose(self.inner.propose(hops, rng), self.asked, self.own_stages)
        found = self._single(rng) if hops == 1 else self._earlier(rng)
        self.own_stages[f"reports:{hops}:{'no' if isinstance(found, DropReason) else 'proposed'}"] += 1
        return found

    def _single(self, rng: random.Random) -> Candidate | DropReason:
        if not self.fields:
            return DropReason.NO_ANSWER_SPAN
        for _ in range(20):
            report, field = rng.choice(self.fields)
            if (report.doc_id, field.label) in self._tried:
                continue
            self._tried.add((report.doc_id, field.label))
            question = field_question(field.label, field.value, report.name)
            return self._candidate("single", [(report, field)], question, field.value)
        return DropReason.NO_ANSWER_SPAN

    def _earlier(self, rng: random.Random) -> Candidate | DropReason:
        dated = [r for r in self.reports if self.date_label in r.fields and _date(r.fields[self.date_label].value)]
        if len(dated) < 2:
            return DropReason.NO_CHAIN
        a, b = rng.sample(dated, 2)
        da, db = _date(a.fields[self.date_label].value), _date(b.fields[self.date_label].value)
        key = tuple(sorted((a.doc_id, b.doc_id)))
        if da == db or key in self._tried:
            return DropReason.NO_ANSWER_SPAN
        self._tried.add(key)
        first = a if da < db else b  # type: ignore[operator]
        # the report's own date ("Date & Time") dates the event itself; another ("Report Date") is named
        label = _lower(self.date_label)
        question = (f"Which was earlier, {a.name} or {b.name}?" if label.lower().startswith("date") else
                    f"Which has the earlier {label}, {a.name} or {b.name}?")
        return self._candidate("comparison", [(a, a.fields[self.date_label]), (b, b.fields[self.date_label])], question,
                               first.code, options=(a.code, b.code), winner=first)

    def _candidate(
        self, form: str, items: Sequence[tuple[Report, Field]], question: str, answer: str, *,
        options: Sequence[str] = (), winner: Report | None = None,
    ) -> Candidate:
        supporting = []
        for report, field in items:
            chunks, quotes = [field.chunk_id], [field.line]
            if options and report.id_field is not None and report.id_field.line != field.line:  # the identifier is the answer: its line too
                chunks.append(report.id_field.chunk_id)
                quotes.append(report.id_field.line)
            truth = (winner is not None and report is winner) or (winner is None and report is items[-1][0])
            supporting.append(SupportingItem(report.doc_id, tuple(dict.fromkeys(chunks)), tuple(quotes), contains_truth=truth))
        keys = [f"{fold(r.code)}|{fold(f.label)}|{fold(f.value)}" for r, f in items]
        return Candidate(
            question=question, answer=answer, supporting=tuple(supporting), hops=len(items),
            truth_type=TruthType.ENTITY if options else TruthType.OTHER, generator="natural",
            # split by fact (datagen.split): every question of a folder of 20 reports touches some of them
            metadata={"form": form, "generator_part": "reports", "split_by": "fact", "fact_keys": keys, POSITIVES: [],
                      **({"options": list(options)} if options else {})},
        )


def with_report_fields(generator: Any, mined: MinedCorpus) -> Any:
    """`generator` with report-field questions when the folder is a set of reports of one form; else itself."""
    wrapped = ReportFieldTasks(generator, mined)
    return wrapped if wrapped.fields else generator
