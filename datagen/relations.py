"""Facts read off a parsed corpus: (subject, relation, typed object), each with the question that asks
for the object and the phrase that describes the object through the subject.

From "Buckaroo Sheriff of Texas is a 1951 American western film directed by Philip Ford." the parse
gives the fact (Buckaroo Sheriff of Texas, direct·by, Philip Ford: person) with

- ask:      "Who directed {s}?"           (wh-movement on the parse; {s} is where the subject goes)
- describe: "the director of {s}"          (the object, described and never named)
- target:   the document titled "Philip Ford", when that name resolves to exactly one document.

A bridge question nests them: the answer fact of the last document asks about the description built
from the one before ("When was the director of Buckaroo Sheriff of Texas born?"), as HotpotQA and
2WikiMultihopQA compose theirs.

This module is the reader: it parses every sentence once (cached), decides what each document is
called, and hands each parsed sentence to the sentence-shape readers:

- datagen.verb_facts: relations stated by a verb (object of a preposition, of a passive "by", direct
  object, "was a member of");
- datagen.verbless_facts: the defining sentence's "X is a city in Y" / "X is a song by Y", a role
  ("Its first director was Y"), a life parenthesis "(1857 in A – 1945 in B)";
- datagen.table_facts: a company's metric for a period, from a table chunk's rows (filings);
- datagen.doc_defaults and datagen.doc_versions: what technical documentation states around code, an
  option's default ("What is the default value of SESSION_COOKIE_NAME?") and the version that added,
  changed, deprecated or removed a thing ("In which version was ENV removed?"), read off each passage, and
  datagen.doc_releases a release-notes page's days and "Add support for" items, datagen.doc_since what prose
  says a version brought ("Starting with Click 5.0 it is possible to …"); each question names the project
  its page documents (datagen.doc_projects, `name_projects`);
- datagen.chat_facts: what a chat's speaker says of themself and of the people and animals they name,
  undated ("What is the name of John's daughter?", "Where did Jon's sister move to?");
- datagen.chat_plans: what a chat's speaker plans, wants or considers doing to a thing ("What was John
  considering adopting?"), and datagen.chat_part what they took part in ("What did Maria participate
  in?") and datagen.chat_gifts who gave them a thing ("Who gave Caroline the necklace?"), kept, as
  chat_facts' are, only where the corpus gives one answer; datagen.chat_roles what the speaker and
  their relatives do for a living and where they live ("What does Kim's mom do for a living?");
  datagen.chat_durations how long they have been doing or being something ("How long has Charlie been
  a dentist?"); datagen.chat_feelings how they felt about an event or in one chat ("How did Jo feel
  about the job interview?" → "nervous"), datagen.chat_day_plans what they said they were planning, wanting,
  hoping or thinking about doing in one chat, datagen.chat_advice what they asked advice on in one chat,
  datagen.chat_doing what they were busy with in one chat ("what was Jon searching for?") and
  datagen.chat_interests what they were passionate about, a fan of or into;
  datagen.chat_replies what they answered to the other speaker's plain question ("What type of movies
  does Sunny like?");
- datagen.activity_facts: what a chat's or a mail's speaker, or a company a filing names, did to a
  thing ("What did Melanie paint?") and when, from a relative time and the date the document was
  written (datagen.dates: "yesterday" in the session of 8 May 2023 is 7 May 2023);

with datagen.syntax for reading the parse, datagen.naming for which document a name names (strict
links, articles, titles that name nothing) and datagen.factbase for what comes out. A fact is dropped
rather than guessed whenever its question would need more than the sentence's core: a fact we
cannot phrase well is worth less than no fact.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
from collections import Counter
from collections.abc import Callable, Container
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from corpus_tools.meeting_names import meeting_names
from corpus_tools.paper_definitions import is_paper
from corpus_tools.types import Chunk
from datagen.activity_facts import activity_facts, dated_facts, unique_activities
from datagen.chains import class_type
from datagen.chat_act_sets import Mention, act_mentions, act_sets, unread_acts
from datagen.chat_acts import act_facts, drop_asked_elsewhere
from datagen.chat_advice import advice_facts
from datagen.chat_anchors import anchored_questions
from datagen.chat_bridges import session_bridges
from datagen.chat_day_plans import day_plan_facts
from datagen.chat_doing import DOING, doing_facts, drop_restated
from datagen.chat_durations import duration_facts
from datagen.chat_facts import addressee, chat_facts, session_texts, unique_chat_facts
from datagen.chat_feelings import after_feeling_facts, feeling_facts, sentence_before
from datagen.chat_gifts import gift_facts
from datagen.chat_interests import INTEREST, interest_facts
from datagen.chat_mentions import told_when_said
from datagen.chat_named import named_facts, prefer_names
from datagen.chat_part import part_facts
from datagen.chat_plans import plan_facts
from datagen.chat_replies import reply_facts
from datagen.chat_roles import occupation_facts
from datagen.chat_sessions import told_on_facts, told_when_facts
from datagen.chat_sets import add_said_sets
from datagen.dates import anchor_date
from datagen.doc_defaults import default_facts
from datagen.doc_deprecations import deprecation_facts, undisputed
from datagen.doc_manpages import is_man_page, man_facts
from datagen.doc_notebooks import is_notebook, notebook_facts
from datagen.doc_office import drop_copies, is_office, noun_labels, office_facts, person_names
from datagen.doc_options import SHAPES, option_facts
from datagen.doc_papers import paper_facts
from datagen.doc_projects import group_of, named_ask, project_names
from datagen.doc_reference import reference_facts
from datagen.doc_releases import heading_project, release_facts
from datagen.doc_since import since_facts
from datagen.doc_source import source_facts
from datagen.doc_versions import version_facts
from datagen.factbase import Fact, FactBase, cut_word, malformed_subject, unique_in_corpus, whole_value
from datagen.grid_facts import book_name, grid_facts, is_grid_source, repeated_keys, table_shapes, unique_grid_facts
from datagen.mail_facts import is_mail, mail_facts
from datagen.meeting_decisions import decision_facts
from datagen.meeting_guard import is_meeting, meeting_text, tag_labels
from datagen.meeting_replies import meeting_reply_facts
from datagen.meeting_said import said_facts
from datagen.meeting_statements import statement_facts
from datagen.mining import MinedCorpus, fold
from datagen.naming import (
    article_facts,
    articles,
    chat_labels,
    chat_speaker,
    file_labels,
    heading_titles,
    sentence_speaker,
    title_resolver,
)
from datagen.office_names import office_names
from datagen.release_facts import filing_company
from datagen.slide_facts import Deck, deck_names, first_heading, is_deck, is_english, slide_facts
from datagen.syntax import own_class_word
from datagen.table_facts import is_table, table_facts
from datagen.types import TruthType
from datagen.verb_facts import verb_facts
from datagen.verbless_facts import copular_relations, defining_class, life_facts, role_facts, side_facts
from datagen.verify import answer_leaks, names_nothing, stretched

# a chat export's speaker that is a program, not a person ("Assistant: My favorite cuisine is Italian")
_NO_PERSON = frozenset("assistant ai bot chatbot system user model".split())


def _person(name: str) -> str:
    """The name, or "" for a program ("Assistant"): whom "I'm grateful for your help" may not name."""
    return "" if fold(name) in _NO_PERSON else name

_NAMED_KINDS = (TruthType.PLACE.value, TruthType.ORGANIZATION.value)


def _latin_share(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for c in letters if c.isascii() or "\u00c0" <= c <= "\u024f") / len(letters)


def documentation_facts(chunks: list[Chunk], skipped: Counter, tables: Container[str] = (), owners: bool = True,
                        reference: bool = False, options: bool = False, source: bool = False,
                        shapes: frozenset[str] = frozenset(), release_names: bool = False,
                        deprecations: bool = False) -> list[Fact]:
    """What a page of technical documentation states around code, passage by passage: an option's default, the
    version that added, changed or removed a thing, a release's day and added support (datagen.doc_defaults,
    doc_versions, doc_releases). A list's owning class may be named in the passages just before (a section opened
    by the previous chunk). Table chunks (ids in `tables`) are table_facts' to read. owners: a version note its markup
    gives no owner takes the entry or section it sits in (datagen.doc_versions; False: refused). reference: a
    hand-written API reference's signatures, settings tables, attribute types, raised exceptions and environment
    variables too (datagen.doc_reference; a table chunk is read for its header-named columns only). options: an
    options or settings list's entries too (datagen.doc_options). source: a Python source section's parameter
    defaults, return type and raised exceptions too (datagen.doc_source; False: none, as before). shapes: the
    options lists' session 44 readings (datagen.doc_options SHAPES; empty: session 43's). release_names: a release
    heading naming its project is read too ("pytest 8.4.0 (2025-06-02)", datagen.doc_releases; False: as before).
    deprecations: a changelog's deprecation and removal items and a deprecation page's section notes too
    (datagen.doc_deprecations; False: as before), a thing another reader already gives with the same version once."""
    out: list[Fact] = []
    for n, chunk in enumerate(chunks):
        if chunk.chunk_id in tables:
            if reference:
                out.extend(_no_leaks(reference_facts(chunk, skipped), skipped))
            continue
        before = "\n".join(c.text for c in chunks[max(0, n - 3):n])
        found = [*default_facts(chunk, skipped, before), *version_facts(chunk, skipped, owners), *release_facts(chunk, skipped, release_names),
                 *since_facts(chunk, skipped), *(reference_facts(chunk, skipped) if reference else ()),
                 *(option_facts(chunk, skipped, shapes) if options else ()), *(source_facts(chunk, skipped) if source else ())]
        if deprecations:
            said = {(fold(f.subject), f.relation, f.answer) for f in found}
            read = [f for f in deprecation_facts(chunk, skipped, release_names)
                    if (fold(f.subject), f.relation, f.answer) not in said]
            found += undisputed(read, "\n".join(c.text for c in chunks), skipped, release_names) if read else []
        out.extend(_no_leaks(found, skipped))
    return out


def _no_leaks(found: list[Fact], skipped: Counter) -> list[Fact]:
    """"What is the default value of SESSION_COOKIE_NAME?" → "'session'" gives its answer away: the verifier
    refuses it at every draw, and a page's draws are spent on it (58 of 150 drops on the tuning folder)."""
    leaks = [f for f in found if answer_leaks([f.answer], f.ask.replace("{s}", f.subject), [])]
    skipped["doc_answer_in_question"] += len(leaks)
    return [f for f in found if f not in leaks]


def name_projects(base: FactBase, mined: MinedCorpus, as_written: bool = False, files: bool = False,
                  declared: bool = False) -> None:
    """Each documentation fact's question names the project its page documents, where one is read
    (datagen.doc_projects): "When was version 0.47.3 released?" → "When was Starlette 0.47.3 released?".
    as_written: the name as the project's prose writes it ("pytest"), not its capitalised form ("Pytest").
    files: a group its folder name does not name is named by what it declares (`doc_projects.project_names`).
    declared: what the folder's project files declare is read too (`MinedCorpus.declared`; session 46)."""
    holding = [d for d, fs in base.facts.items() if any(f.relation.startswith("doc:") for f in fs)]
    if not holding:
        return  # no documentation fact: nothing to name, and no page's text joined
    names = project_names({d: mined.doc_text(d) for d in mined.chunks}, mined.titles, as_written, files=files,
                          declared=mined.declared if declared else None)
    base.projects.update(names)  # the pages' projects, for the questions that join two pages (datagen.doc_bridges)
    for doc_id in holding:
        project = names.get(doc_id, "")
        # a release heading naming another project than its page's ("Python 3.12 (2023-10-02)") gives no day of it
        # (datagen.doc_releases.heading_project; only read with `release_names`)
        kept = [f for f in base.facts[doc_id] if f.relation != "doc:released" or not (word := heading_project(f.sentence))
                or fold(word) == fold(project or group_of(doc_id))]
        base.skipped["doc_release_other_project"] += len(base.facts[doc_id]) - len(kept)
        base.facts[doc_id] = [replace(f, ask=named_ask(f.relation, f.ask, project)) if f.relation.startswith("doc:") else f
                              for f in kept]


def read_facts(
    mined: MinedCorpus,
    nlp: Any,
    *,
    progress: Callable[[int], None] | None = None,
    batch_size: int = 64,
    parse_cache: Path | None = None,
    doc_projects: bool = True,
    doc_owners: bool = True,
    doc_name_case: bool = True,
    doc_reference: bool = True,
    doc_options: bool = True,
    doc_source: bool = False,
    meeting_decisions: bool = True,
    meeting_replies: bool = True,
    meeting_said: frozenset[str] = frozenset(),
    option_shapes: frozenset[str] = SHAPES,
    project_files: bool = True,
    release_names: bool = False,
    declared_names: bool = False,
    deprecations: bool = False,
    notebooks: bool = False,
    notebook_printed: bool = False,
    notebook_defaults: bool = False,
    notebook_wrapped: bool = False,
    papers: bool = False,
    office: bool = False,
    man: bool = False,
    man_styles: bool = False,
) -> FactBase:
    """Parse every sentence of the mined corpus once and extract its facts (see the module docstring).

    doc_projects: a documentation fact's question names its project ("When was Starlette 0.47.3 released?",
    datagen.doc_projects) where the folder's layout and pages give one; False asks as before (no project).
    doc_owners: a version note with no owner by its markup takes the entry or section it sits in
    (datagen.doc_versions); False refuses it as before.
    doc_name_case: the project named as its prose writes it ("pytest"; datagen.doc_projects); False: its
    capitalised form ("Pytest"), as session 41.
    doc_reference: a hand-written API reference's facts are read too (datagen.doc_reference); False: none.
    doc_options: an options or settings list's entries are read too (datagen.doc_options); False: none.
    doc_source: a Python source section's API facts are read too (datagen.doc_source); False (this function's
    default): none, the facts as before exactly.
    option_shapes: the options lists' session 44 readings (datagen.doc_options SHAPES: bulleted lists, "this …"
    about the option's value, noun phrases; all by default, as NaturalConfig); empty: session 43's exactly.
    project_files: a documentation group whose folder name names no project is named by what the folder declares
    (a Sphinx conf.py's project, a README's title; datagen.doc_projects; True by default, as NaturalConfig); False:
    as session 43.
    release_names: a release heading that names its project ("pytest 8.4.0 (2025-06-02)") gives its day too
    (datagen.doc_releases), kept only where the word is the page's project, so only with doc_projects; False (this
    function's default): as session 44.
    declared_names: a documentation group is named by what the folder's project files declare too (`pyproject.toml`,
    `setup.cfg`, `mkdocs.yml`, read by the indexer: `MinedCorpus.declared`), the name matched to the phrase prose
    writes ("django-debug-toolbar" → "Django Debug Toolbar"; datagen.doc_projects); False (this function's
    default): as session 45.
    deprecations: what a changelog's items and a deprecation page's sections say a release deprecated or removed
    (datagen.doc_deprecations); False (this function's default): as session 45.
    notebooks: what a Jupyter notebook's prose and outputs state (datagen.doc_notebooks: a defined term, what a named
    function does, a printed shape); False (this function's default): as session 46. No other document is read.
    notebook_printed: with notebooks, a labelled result a cell printed too (datagen.doc_notebooks PRINTED); False
    (this function's default): as session 47. notebook_defaults: a named argument's stated default too (DEFAULT);
    notebook_wrapped: a prose sentence wrapped over lines read as one; both False by default: as session 47.
    papers: what a research paper (a PDF with no filing's form) defines (datagen.doc_papers: an acronym's expansion, a
        term), each question naming its paper; False (this function's default): as session 47. No other document
        is read.
    office: what a user's office document (a .docx, .doc, .rtf or .odt file) states (datagen.doc_office: a labelled
        field, a definition, an acronym or a term), each question naming the document; a document's only facts then
        (the prose templates' name no document). False (this function's default): as session 52. No other document
        is read.
    man: what a Unix manual page (read by corpus_tools.man_reader) states (datagen.doc_manpages: an option's job, an
        error's condition, the Linux / glibc version a call was added in, a stated default), each question naming
        its command, call or file; a page's only facts then (the prose templates' and the documentation readers'
        name no page). False (this function's default): as session 48. No other document is read.
    man_styles: with `man`, a manual page of any project's house style is read too (datagen.doc_manpages, session
        50): a configuration file's keywords (`num-threads:`, `request_time`) and their "Default: X" paragraphs, a
        keyword's job; no question or answer holding an unfilled `@VARIABLE@`. False: as session 49.
    meeting_decisions: a meeting's decisions, dates, amounts and choices are read too (datagen.meeting_decisions);
    False reads none (the facts as before, exactly).
    meeting_replies: a question asked in a meeting and answered in the next turn is read too
    (datagen.meeting_replies); False reads none (the facts as before, exactly).
    meeting_said: which of `datagen.meeting_said`'s readers run on the meetings a user can name
    (corpus_tools.meeting_names): "roles", "figures", "petitions", "shares"; empty reads none (the facts as before, exactly).

    Sentences that are not in a Latin script (the English model cannot parse them) or longer than
    80 words are skipped and counted by reason in `FactBase.skipped`. parse_cache: a file (spaCy
    DocBin) that keeps the parse between runs (see `_parsed`).
    """
    base = FactBase(articles=articles(mined))
    resolve = title_resolver(mined, base.articles)
    headings = heading_titles(mined, base.articles) | file_labels(mined) | chat_labels(mined)
    for doc_id in mined.titles:
        forms = mined.title_forms.get(doc_id) or []
        # the bare form (no parenthetical) when there is one; a heading many documents share names none
        base.names[doc_id] = forms[-1] if forms and doc_id not in headings else ""
    items: list[tuple[str, str, str]] = []  # (doc_id, chunk_id, sentence text)
    tables = {c.chunk_id for chunks in mined.chunks.values() for c in chunks if is_table(c.metadata)}
    man_docs = {d for d, chunks in mined.chunks.items() if man and chunks and is_man_page(chunks[0].metadata)}
    for doc_id, sentences in mined.sentences.items():
        if doc_id in man_docs:  # a manual page's facts are its own readers' alone (below): its prose is not parsed
            base.skipped["man_sentence_not_parsed"] += len(sentences)
            continue
        for sent in sentences:
            if sent.chunk_id in tables:
                continue  # a table's rows are read as rows below, not parsed as sentences
            text = sent.text.strip()
            if not text:
                continue
            if _MAIL_HEADER.search(text) and is_mail(mined.doc_text(doc_id)):
                # header lines ("From: … To: … Subject: …", "Joe Smith <j@x.com> wrote:") are no sentence:
                # read as one they give "Which place did Kaminski call me from?"; what follows them is
                text = text[[*_MAIL_HEADER.finditer(text)][-1].end():]
                text = text[text.find("\n") + 1:].strip() if "\n" in text else ""
                if not text:
                    base.skipped["mail_header"] += 1
                    continue
            if _GREETING.match(text) and is_mail(mined.doc_text(doc_id)):
                # "Rachel,\n\nRussell Diamond has given me …": the addressee is no subject of the sentence
                text = text[_GREETING.match(text).end():].strip()
            if _latin_share(text) < 0.8:
                base.skipped["not_english"] += 1
                continue
            if len(text.split()) > 80:
                base.skipped["too_long"] += 1
                continue
            # a chat line that does not close its sentence (":)", "haha") runs into the next speaker's
            # line: each speaker's part is read as its own sentence, or neither has a speaker
            for part in _SPEAKER_LINE.split(text) if not is_mail(mined.doc_text(doc_id)) else [text]:
                if part.strip():
                    items.append((doc_id, sent.chunk_id, part.strip()))
    base.sentences = len(items)
    seen_first: set[str] = set()
    doc_texts: dict[str, str] = {}
    doc_speaker: dict[str, str] = {}
    anchors: dict[str, dt.date] = {}  # when each document was written, where it says (datagen.dates)
    spoken: dict[tuple[str, str], set[str]] = {}  # (speaker, relation) -> every answer, across the corpus
    sessions = session_texts({d: mined.titles.get(d, "") for d in mined.chunks}, mined.doc_text)  # chats by the turn
    texts = [t for _, _, t in items]
    # the key holds the sentences themselves: a change to how they are cut (a mail's header, a chat's
    # speaker line) parses again rather than pairing old parses with new sentences
    key = facts_fingerprint(mined) + hashlib.sha1("\x00".join(texts).encode("utf-8", "replace")).hexdigest()[:16]
    parsed = _parsed(nlp, texts, parse_cache, key, batch_size)
    said_here: list[tuple[str, str, Any]] = []  # (chunk, speaker, parse) of the document's sentences so far
    mentions: list[Mention] = []  # every clause in which a speaker says they did a set's verb (datagen.chat_act_sets)
    for n, ((doc_id, chunk_id, text), doc) in enumerate(zip(items, parsed, strict=True)):
        if progress is not None and n % 200 == 0:
            progress(n)
        name = base.names.get(doc_id, "")
        first = doc_id not in seen_first
        seen_first.add(doc_id)
        if doc_id not in base.classes:
            cls = defining_class(doc, name)
            if cls:
                base.classes[doc_id] = cls
        if doc_id not in doc_texts:
            doc_texts.clear()  # the sentences come document by document
            doc_texts[doc_id] = mined.doc_text(doc_id)
        resolve_here = partial(resolve, context=doc_texts[doc_id])
        if doc_id not in doc_speaker:
            doc_speaker[doc_id] = chat_speaker(doc_texts[doc_id])
        speaker = sentence_speaker(doc_texts[doc_id], text, doc_speaker[doc_id])
        if first:
            said_here = []
        # the same speaker's sentence just before: what their "It made me so proud" is about
        before = sentence_before(said_here, chunk_id, speaker)
        said_here.append((chunk_id, speaker, doc))
        anchor = anchor_date(mined.titles.get(doc_id, ""), doc_texts[doc_id], doc_id)
        if anchor is not None:
            anchors[doc_id] = anchor
        own = own_class_word(mined.titles.get(doc_id, ""), base.classes.get(base.article(doc_id)) or base.classes.get(doc_id, ""))
        # a place's page with no class of its own ("Victoria (Australia)": a paragraph on religion) still
        # calls itself "the state" ("… in the state …", "the state's largest non-Christian religion")
        held_by = own if class_type(own) else _self_kind(doc_texts[doc_id])
        mentions.extend(act_mentions(doc, doc_id, text, speaker))
        for fact in [
            *_sentence_facts(doc, doc_id, chunk_id, text, name, resolve_here, first, speaker, anchor, own, held_by),
            *chat_facts(doc, doc_id, chunk_id, text, speaker, sessions.get(doc_id, doc_texts[doc_id])),
            *plan_facts(doc, doc_id, chunk_id, text, speaker),
            *feeling_facts(doc, doc_id, chunk_id, text, speaker, anchor, _person(addressee(
                sessions.get(doc_id, doc_texts[doc_id]), speaker)) if speaker else ""),
            *after_feeling_facts(doc, before, doc_id, chunk_id, text, speaker),
            *day_plan_facts(doc, doc_id, chunk_id, text, speaker, anchor),
            *advice_facts(doc, doc_id, chunk_id, text, speaker, anchor),
            *doing_facts(doc, doc_id, chunk_id, text, speaker, anchor),
            *interest_facts(doc, doc_id, chunk_id, text, speaker, anchor),
            *act_facts(doc, doc_id, chunk_id, text, speaker, anchor),
            *reply_facts(doc, doc_id, chunk_id, text, speaker, sessions.get(doc_id, doc_texts[doc_id]), anchor),
            *part_facts(doc, doc_id, chunk_id, text, speaker),
            *gift_facts(doc, doc_id, chunk_id, text, speaker),
            *named_facts(doc, doc_id, chunk_id, text, speaker),
            *occupation_facts(doc, doc_id, chunk_id, text, speaker),
            *duration_facts(doc, doc_id, chunk_id, text, speaker, sessions.get(doc_id, doc_texts[doc_id])),
        ]:
            if fact.target and fact.target == base.article(doc_id):
                continue  # "Paris" in a paragraph of the Paris article names its own article
            if speaker and fold(speaker) in _NO_PERSON and fold(fact.subject) == fold(speaker):
                base.skipped["not_a_person"] += 1  # an AI's "my favorite cuisine is Italian" is no fact of anyone
                continue
            if speaker and cut_word(fact.answer, fact.sentence):
                base.skipped["answer_cut_inside_a_word"] += 1
                continue
            if not fact.about_doc and malformed_subject(fact.subject):
                base.skipped["malformed_subject"] += 1
                continue
            if fact.ask and (names_nothing(fact.answer) or stretched(fact.ask)):
                # "other popular fantasy series", "make the deeeelish dessert": no question, which the
                # verifier would refuse, but still a witness that the relation has an answer here
                base.skipped["names_nothing"] += 1
                fact = replace(fact, ask="")
            if not fact.target and fact.kind in _NAMED_KINDS:
                whole = whole_value(fact.answer, fact.sentence)
                fact = replace(fact, answer=whole) if whole != fact.answer else fact
            if speaker and fact.subject == speaker and not fact.about_doc:
                spoken.setdefault((fold(fact.subject), fact.relation), set()).add(fold(fact.answer))
            base.facts.setdefault(doc_id, []).append(fact)
    if progress is not None:
        progress(len(items))
    notebook_docs = {d for d, chunks in mined.chunks.items()
                     if notebooks and chunks and is_notebook(d, chunks[0].metadata)}
    # a title several notebooks share names none of them (a book's chapters each titled by the book)
    notebook_titles = Counter(" ".join(mined.titles.get(d, "").split()).lower() for d in notebook_docs)
    paper_docs = {d for d, chunks in mined.chunks.items() if papers and chunks and is_paper(d, chunks[0].metadata)}
    paper_titles = Counter(" ".join(mined.titles.get(d, "").split()).lower() for d in paper_docs)
    office_docs = {d for d, chunks in mined.chunks.items() if office and chunks and is_office(d, chunks[0].metadata)}
    office_texts = {d: mined.doc_text(d) for d in office_docs}  # read once: named here, checked for English below
    named_office = office_names({d: mined.titles.get(d, "") for d in office_docs}, office_texts, base.skipped,
                                person_names(nlp)) if office_docs else {}
    noun_label = noun_labels(nlp) if office_docs else None
    for doc_id in named_office:
        # an office document a question names is its own article (session 56): five projects' "Project Charter"s
        # share that title and say it, so `naming.articles` read them as one article's paragraphs, and one use cap
        # held every charter's questions (10 of 26 on a tuning folder)
        group = base.articles.pop(doc_id, ())
        rest = tuple(d for d in group if d != doc_id)
        for d in rest:
            if len(rest) > 1:
                base.articles[d] = rest
            else:
                base.articles.pop(d, None)
    # slide decks (datagen.slide_facts): always read, a folder with no deck is unchanged; each question names its
    # deck, and a deck's name is decided against the folder's other decks (a template's title shared by many)
    decks = [Deck(d, mined.titles.get(d, ""), first_heading(chunks), mined.doc_text(d))
             for d, chunks in mined.chunks.items() if chunks and is_deck(d, chunks[0].metadata)]
    deck_name = deck_names(decks, base.skipped) if decks else {}
    deck_english = {d.doc_id: is_english(d.text) for d in decks}
    grid: list[Fact] = []  # workbooks' and decks' table facts, kept where their question has one answer (below)
    for doc_id, chunks in mined.chunks.items():
        logs = None  # a workbook's tables whose row label repeats across its chunks (datagen.grid_facts)
        shapes = None  # why each of its tables is no table of things, read across its chunks (datagen.grid_shape)
        for chunk in chunks:
            if chunk.chunk_id in tables:
                # the cover's company, else an earnings release's dateline (datagen.release_facts)
                company = filing_company(chunk.metadata, [c.text for c in chunks[:4]], mined.titles.get(doc_id, ""))
                found = table_facts(chunk, company, base.skipped)
                if not found and is_grid_source(chunk.metadata):
                    # a workbook's or a deck's table: its rows under their columns, whatever the columns are
                    # (datagen.grid_facts); a filing's tables stay table_facts' alone
                    book = book_name(str(chunk.metadata.get("title") or ""), str(chunk.metadata.get("source") or doc_id))
                    logs = repeated_keys(chunks) if logs is None else logs
                    shapes = table_shapes(chunks) if shapes is None else shapes
                    found = grid_facts(chunk, book, base.skipped, logs, shapes)
                    if doc_id in deck_english:
                        # a deck's table is a lecture's worked illustration (a preference list under 1st / 2nd /
                        # 3rd, a DP grid, a token table, a COCOMO cost table) far more often than a report: on two
                        # tuning folders of 23 repositories none of 31 sampled table questions read natural
                        base.skipped["slide_table_cell"] += len(found)
                        continue
                    grid.extend(found)
                    continue
                base.facts.setdefault(doc_id, []).extend(found)
        if doc_id in man_docs:
            # the prose templates' questions ("Which organization did … return?") and the documentation readers'
            # name no page: a manual page's questions are its own readers' (datagen.doc_manpages)
            others = base.facts.pop(doc_id, [])
            base.skipped["man_prose_template"] += len(others)
            found = _no_leaks(man_facts(doc_id, chunks, base.skipped, styles=man_styles), base.skipped)
            if found:
                base.facts.setdefault(doc_id, []).extend(found)
            continue
        found = documentation_facts(chunks, base.skipped, tables, doc_owners, doc_reference, doc_options, doc_source,
                                    option_shapes, release_names and doc_projects, deprecations)
        if doc_id in notebook_docs:
            title = mined.titles.get(doc_id, "")
            unique = notebook_titles[" ".join(title.split()).lower()] < 2
            found += _no_leaks(notebook_facts(doc_id, title, chunks, base.skipped, unique_title=unique,
                                                         printed=notebook_printed, defaults=notebook_defaults,
                                                         wrapped=notebook_wrapped), base.skipped)
        if doc_id in paper_docs:
            # the prose templates' and table rows' questions name no paper (datagen.doc_papers)
            others = [f for f in base.facts.get(doc_id, []) if not f.relation.startswith("doc:")]
            if others:
                base.skipped["paper_prose_template"] += len(others)
                base.facts[doc_id] = [f for f in base.facts[doc_id] if f.relation.startswith("doc:")]
                if not base.facts[doc_id]:
                    del base.facts[doc_id]
            title = mined.titles.get(doc_id, "")
            unique = paper_titles[" ".join(title.split()).lower()] < 2
            found += _no_leaks(paper_facts(doc_id, title, chunks, base.skipped, unique_title=unique), base.skipped)
        if doc_id in office_docs:
            # the prose templates' questions ("Who developed INTRODUCTION?") name no document (datagen.doc_office)
            others = base.facts.pop(doc_id, [])
            base.skipped["office_prose_template"] += len(others)
            found = [f for f in found if f.relation.startswith("doc:")]
            # nor does a release note's ("When was version 1.0.0 released?" from a changelog pasted into a
            # requirements document, session 56's reporting read): a folder of projects' documents has no one project
            released = [f for f in found if f.relation in ("doc:released", "doc:release_support")]
            base.skipped["office_release_note"] += len(released)
            found = [f for f in found if f not in released]
            if doc_id in named_office and not is_english(office_texts[doc_id]):
                # a Dutch paper's "recurrent neuraal netwerk (RNN)" asked in English (session 56's reporting read)
                base.skipped["office_not_english"] += 1
            elif doc_id in named_office:
                found += _no_leaks(office_facts(doc_id, named_office[doc_id], chunks, base.skipped, noun_label, nlp),
                                   base.skipped)
        if doc_id in deck_english:
            # the prose templates' questions ("When has Instacart founded?", "Who followed … Bananas?") read a slide's
            # fragments as sentences and name no deck: a deck's questions are datagen.slide_facts' and its tables'
            others = base.facts.pop(doc_id, [])
            base.skipped["slide_other_reader"] += len(others)
        if doc_id in deck_name:
            found += _no_leaks(slide_facts(doc_id, deck_name[doc_id], chunks, base.skipped, nlp), base.skipped)
        if found:
            base.facts.setdefault(doc_id, []).extend(found)
    if office_docs:
        drop_copies(base.facts, office_docs, base.skipped)  # a draft's facts asked once (datagen.doc_office)
    for fact in unique_grid_facts(grid, base.skipped):
        base.facts.setdefault(fact.doc_id, []).append(fact)
    if doc_projects:
        name_projects(base, mined, doc_name_case, project_files, declared_names and project_files)
    unique_in_corpus(base, "doc:")  # a question naming no page must have one answer in the whole folder (or project)
    article_facts(base, mined)
    _title_classes(base, mined)
    _self_classes(base)
    # "What movie did Jack watch?" → its name, not "What did Jack watch?" → "a movie"; before the acts
    # are asked by their day, and whether or not the name survives `unique_chat_facts`
    prefer_names(base)
    # asked by their day where the corpus gives several; the day of the one chat that tells of an act
    told = [*told_on_facts(base, anchors), *told_when_facts(base, anchors)]
    base.anchored = anchored_questions(base, anchors)  # before the mentions no question asks are dropped
    unique_activities(base, anchors)
    for fact in told:
        if not is_mail(mined.doc_text(fact.doc_id)):  # "In which chat did …": a mail is asked by its own header
            base.facts.setdefault(fact.doc_id, []).append(fact)
    add_said_sets(base)  # before their facts, two answers each, are dropped (datagen.chat_sets)
    # a speaker's sets of one verb, where every clause of it is read; likewise before a day's two acts
    # are dropped (datagen.chat_act_sets)
    base.unread_acts = unread_acts(base, mentions)
    base.act_sets = act_sets(base, base.unread_acts)
    unique_chat_facts(base)
    _unique_spoken(base, spoken)
    drop_restated(base, (DOING, INTEREST))  # "What was Jesse looking for?" is not asked again by its day
    drop_asked_elsewhere(base)  # a day's act another question asks of its sentence (datagen.chat_acts)
    # the day of the one chat in which a speaker tells a lasting fact of themself (datagen.chat_mentions)
    chats = {d: mined.doc_text(d) for d in mined.chunks if not is_mail(mined.doc_text(d))}
    for fact in told_when_said(base, anchors, chats):
        base.facts.setdefault(fact.doc_id, []).append(fact)
    base.bridges = session_bridges(base, chats)  # a session asked by what was said in it (datagen.chat_bridges)
    # a dated session of a chat export with no "Name: text" line has no speaker to ask about: counted
    spoken_in = {d for d, text in chats.items() if chat_speaker(text)}
    silent = sum(1 for d in chats if d not in spoken_in and d in anchors and d not in base.facts)
    if spoken_in and silent:
        base.skipped["chat_without_speaker_lines"] += silent
    # who sent a message, to whom, when, with which file (datagen.mail_facts)
    mails = mail_facts(
        dict(mined.titles), {d: mined.doc_text(d) for d in mined.chunks},
        {d: [(c.chunk_id, c.text) for c in chunks] for d, chunks in mined.chunks.items()}, base.skipped,
    )
    for doc_id, facts in mails.items():
        base.facts.setdefault(doc_id, []).extend(facts)
    # what a meeting states: who will do what, a count, a deadline (datagen.meeting_statements); after every
    # chat pass, which would read its speaker answers as a chat's
    texts = {d: mined.doc_text(d) for d in mined.chunks}
    meetings = [d for d in texts if is_meeting(meeting_text(c.text for c in mined.chunks[d]))]
    if meetings:
        tags = tag_labels(texts[d] for d in meetings)
        stated = statement_facts(mined.chunks, meetings, texts, tags, base.skipped)
        for doc_id, facts in stated.items():
            base.facts.setdefault(doc_id, []).extend(facts)
        if meeting_decisions:  # what a meeting decided, agreed or set (datagen.meeting_decisions)
            asked = {f.ask.replace("{s}", f.subject) for fs in stated.values() for f in fs}
            decided = decision_facts(mined.chunks, meetings, texts, tags, base.skipped, asked)
            for doc_id, facts in decided.items():
                base.facts.setdefault(doc_id, []).extend(facts)
        if meeting_replies:  # a question asked and answered in the next turn (datagen.meeting_replies)
            for doc_id, facts in meeting_reply_facts(mined.chunks, meetings, texts, tags, base.skipped).items():
                base.facts.setdefault(doc_id, []).extend(facts)
        if meeting_said:  # fact questions naming their meeting (datagen.meeting_said, session 50)
            names = meeting_names({d: texts[d] for d in meetings})
            base.skipped["said_meeting_unnamed"] += len(meetings) - len(names)
            said = said_facts({d: mined.chunks[d] for d in names}, names, tags, base.skipped,
                              roles="roles" in meeting_said, figures="figures" in meeting_said,
                              petitions="petitions" in meeting_said, shares="shares" in meeting_said)
            for doc_id, facts in said.items():
                base.facts.setdefault(doc_id, []).extend(facts)
    return base


_MAIL_HEADER = re.compile(
    r"(?:^|\n)\s*(?:From|To|Cc|Subject|Sent)\s*:|\bwrote:\s*(?:\n|$)|-{3,}\s*(?:Forwarded by|Original Message)[^\n]*",
    re.IGNORECASE,
)
# where another speaker's line starts inside one sentence ("… mandatory :)\nBailey: Same here.")
_SPEAKER_LINE = re.compile(r"\n(?=[A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}:\s)")
# a mail's greeting line: "Rachel,", "Hi Joe,", "Enron U.S Employees:" alone on the line before the text
_GREETING = re.compile(r"^(?:(?:hi|hello|dear|hey)\s+)?[A-Z][\w.'’ ]{0,40}[,:]\s*\n", re.IGNORECASE)


def _unique_spoken(base: FactBase, spoken: dict[tuple[str, str], set[str]]) -> None:
    """A chat's or a mail's speaker talks in many documents: "Which place has Jon been to?" is a
    question only when Jon names one place he has been to in the whole corpus, not in one session."""
    for doc_id in list(base.facts):
        kept = [f for f in base.facts[doc_id] if len(spoken.get((fold(f.subject), f.relation), ())) <= 1]
        if kept:
            base.facts[doc_id] = kept
        else:
            del base.facts[doc_id]


def _self_classes(base: FactBase) -> None:
    """A page with no class whose role was read through the place word it calls itself by ("Buddhism is
    the state's largest non-Christian religion" in "Victoria (Australia)") is that: a question then says
    "the state to the south of New South Wales", not "the place to the south of …"."""
    for doc_id, facts in base.facts.items():
        article = base.article(doc_id)
        if base.classes.get(article):
            continue
        for f in facts:
            m = _SELF_PLACE.search(f.sentence)
            if f.about_doc and m and m.group(0).endswith(("'s", "’s")) and len(f.relation.split("|")[0].split()) > 1:
                base.classes[article] = m.group(1)
                break


def _title_classes(base: FactBase, mined: MinedCorpus) -> None:
    """A page whose sentences define no class takes its title's ("New York (state)" → "state",
    "Pitfall (1962 film)" → "film"): its links are typed, and a question says "the state where …"
    rather than "the place where …" (hand-read MuSiQue, session 30)."""
    for doc_id, title in mined.titles.items():
        article = base.article(doc_id)
        word = own_class_word(title, "")
        if word and not base.classes.get(article) and class_type(word):
            base.classes[article] = word


def _sentence_facts(
    doc: Any, doc_id: str, chunk_id: str, text: str, name: str, resolve: Callable[[str, bool], str], first: bool,
    speaker: str = "", anchor: dt.date | None = None, own_class: str = "", held_by: str = "",
) -> list[Fact]:
    """Every fact of one parsed sentence, by reader: verbs, the verb-less shapes, then what a speaker
    or a named person did (speaker: who "I" is; anchor: when the document was written; held_by: the
    place word the page calls itself by, for "the state's largest city")."""
    facts = verb_facts(doc, doc_id, chunk_id, text, name, resolve, speaker, own_class)
    facts.extend(life_facts(doc, doc_id, chunk_id, text, name, first, resolve))
    facts.extend(role_facts(doc, doc_id, chunk_id, text, name, resolve, held_by))
    facts.extend(side_facts(doc, doc_id, chunk_id, text, name, resolve))
    facts.extend(copular_relations(doc, doc_id, chunk_id, text, name, resolve))
    facts.extend(activity_facts(doc, doc_id, chunk_id, text, name, speaker))
    facts.extend(dated_facts(doc, doc_id, chunk_id, text, name, speaker, anchor))
    return facts


_SELF_PLACE = re.compile(r"\bthe (state|province|country|city|county|island|town)(?:'s|’s)?\b")


def _self_kind(text: str) -> str:
    """The one place word a paragraph calls its page by, at least twice ("in the state", "the state's"),
    or "" (none, once, or two kinds: "the city … the state" may be two places)."""
    said = Counter(m.group(1) for m in _SELF_PLACE.finditer(text))
    if len(said) != 1:
        return ""
    word, n = next(iter(said.items()))
    return word if n >= 2 else ""


def facts_fingerprint(mined: MinedCorpus) -> str:
    """What a fact base depends on: every chunk's id and text, and the parse model's version."""
    from datagen.nlp import MODEL_PACKAGE, MODEL_VERSION

    h = hashlib.sha1(f"{MODEL_PACKAGE}-{MODEL_VERSION}".encode())
    for doc_id in sorted(mined.chunks):
        for chunk in mined.chunks[doc_id]:
            h.update(chunk.chunk_id.encode("utf-8", "replace"))
            h.update(chunk.text.encode("utf-8", "replace"))
    return h.hexdigest()


def _parsed(nlp: Any, texts: list[str], cache: Path | None, key: str, batch_size: int) -> list[Any]:
    """spaCy docs of `texts`: from the cache when it holds this corpus's parse (same `key`), else
    parsed (the slow part: minutes on a large corpus) and saved there atomically before anything
    reads them, so a resumed or extended run, or a change to the extraction rules, never parses again."""
    from spacy.tokens import DocBin

    if cache is not None and cache.is_file() and cache.with_suffix(".key").is_file():
        try:
            if cache.with_suffix(".key").read_text(encoding="utf-8").strip() == key:
                docs = list(DocBin().from_disk(cache).get_docs(nlp.vocab))
                if len(docs) == len(texts):
                    return docs
        except (OSError, ValueError):
            pass  # a damaged cache is parsed again, never trusted
    docs = list(nlp.pipe(texts, batch_size=batch_size))
    if cache is not None:
        bin_ = DocBin(attrs=["ORTH", "TAG", "HEAD", "DEP", "ENT_IOB", "ENT_TYPE", "LEMMA", "POS", "SENT_START"])
        for doc in docs:
            bin_.add(doc)
        tmp = cache.with_suffix(".tmp")
        bin_.to_disk(tmp)
        os.replace(tmp, cache)
        cache.with_suffix(".key").write_text(key, encoding="utf-8")
    return docs
