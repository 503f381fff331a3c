"""The natural-question generator: questions in the forms of HotpotQA, 2WikiMultihopQA and MuSiQue,
written offline from the facts of a parsed corpus (datagen.relations), no language model needed.

Forms (metadata["form"]):
- single:     a wh-question transformed from one sentence ("When was Philip Ford born?"), for rerankers.
- claim:      where the templates find no relation in a document (scientific abstracts), the finding of
              one of its results sentences as a claim; the answer is that sentence (datagen.claims).
- bridge:     a compositional chain over h documents; each bridge entity is *described* by the fact
              that links to it, never named ("When was the director of Buckaroo Sheriff of Texas born?").
              The hop-by-hop sub-questions travel as the task's clues (MuSiQue's decomposition).
- comparison: two documents' values of the same relation ("Which magazine was started first, A or B?");
              the answer is one of the two names, which the question necessarily contains.
- bridge_comparison: two bridges compared (2WikiMultihopQA's form): "Who was born first, the director
              of A or the director of B?" over four documents; the answer is the name of one bridge
              entity, which the question never gives, so each side's hop must be taken.
- order:      in a corpus of chats or mail, which of one person's dated acts told in two documents came
              first (datagen.chat_order): "Which did Caroline do first, go to the support group or join
              the mentorship program?"; the answer is one of the two, each document gives one date.

Bridges come from `datagen.chains`, every genuine chain of 2-4 documents enumerated once; a
proposal draws a first-link relation, then a chain of it (so one relation cannot fill the set), and a
hop count whose chains are spent is given up at once (`exhausted`). The output mix is capped, not the
proposals: comparisons at most `comparison_share` of the multi-hop tasks written, orders at most
`order_share` of all the tasks written. An order over its share is *deferred*, not spent (`deferred`): the
pipeline fills with single-hop tasks and asks for orders again as the set grows.

What keeps a question answerable by exactly one thing: a document's relation is used only when the
document states it with one answer (`factbase.unique_relations`); the bridge's object must name
exactly one document (`naming.title_resolver`); comparison values must differ in their year.

Documents are grouped by article (`FactBase.article`: a page split into paragraphs titled alike is
one subject): relations, links and the per-document use cap are counted per article, and each fact's
gold document is the paragraph that states it.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from datagen.chains import Chain, ChainIndex, deep_need
from datagen.chat_act_sets import set_verb
from datagen.chat_anchors import ANCHORED_FORM, AnchoredQuestions
from datagen.chat_bridges import BRIDGE_FORM, SessionBridges
from datagen.chat_lists import LIST_FORM, ListQuestions
from datagen.chat_order import ORDER_FORM, OrderPairs
from datagen.claims import document_claims, paper_titles
from datagen.doc_announce import with_announcements
from datagen.doc_bridges import BRIDGE_FORM as DOC_BRIDGE_FORM
from datagen.doc_bridges import COMPARE_FORM as DOC_COMPARE_FORM
from datagen.doc_bridges import comparisons as doc_comparisons
from datagen.doc_bridges import doc_bridges
from datagen.doc_manpages import is_man_page
from datagen.doc_markup import documentation_page
from datagen.doc_office import is_office
from datagen.doc_projects import documentation_folders, documentation_groups
from datagen.factbase import (
    FALLBACK_CLASS,
    Fact,
    FactBase,
    class_of,
    fact_key,
    speaker_words,
    unique_named,
    unique_relations,
)
from datagen.mail_facts import is_mail
from datagen.man_hops import BRIDGE_FORM as MAN_BRIDGE_FORM
from datagen.man_hops import COMPARE_FORM as MAN_COMPARE_FORM
from datagen.man_hops import man_chains, man_comparisons, man_links
from datagen.meeting_decisions import DECISIONS
from datagen.meeting_guard import STATEMENT, guard_meetings, meeting_text
from datagen.meeting_hops import BRIDGE_FORM as MEET_BRIDGE_FORM
from datagen.meeting_hops import COMPARE_FORM as MEET_COMPARE_FORM
from datagen.meeting_hops import meeting_hops
from datagen.meeting_replies import REPLIES
from datagen.meeting_said import FIGURES, PETITIONS, ROLES, SHARES
from datagen.mining import MinedCorpus, fold
from datagen.naming import chat_speaker, title_resolver
from datagen.positives import POSITIVES
from datagen.region_links import region_links
from datagen.slide_facts import is_deck
from datagen.types import Candidate, DropReason, SupportingItem, TruthType
from datagen.verify import contains, date_aliases

FORMS = ("single", "claim", "bridge", "comparison", "bridge_comparison", ORDER_FORM, LIST_FORM, BRIDGE_FORM, DOC_BRIDGE_FORM,
         DOC_COMPARE_FORM, MAN_BRIDGE_FORM, MAN_COMPARE_FORM, MEET_BRIDGE_FORM, MEET_COMPARE_FORM)


@dataclass(frozen=True)
class NaturalConfig:
    """Knobs of the natural generator.

    comparison_share: the largest share of the multi-hop tasks *written* that may be comparisons
        (HotpotQA's dev set is about one fifth comparison, 2WikiMultihopQA's compositional part about
        half). It caps the output, not the proposals: bridges are dropped more often (the one-search
        filter), so a proposal share let comparisons reach 80 % of a 2Wiki set (issue 36).
    bridge_comparison_share: the largest share of the multi-hop tasks written that may compare two
        bridges (2WikiMultihopQA's dev set: about a fifth). They use the 2-document chains bridges use,
        two at a time, so a corpus with few links gets more tasks from them; the share keeps bridges the
        larger part.
    relation_share: the largest share of the bridges one link relation ("the director of X") may
        describe, once `relation_floor` bridges use it; the same cap holds per comparison relation.
    order_share: the largest share of *all* the tasks written (single-hop ones included) that may be
        orders of one person's dated acts. On chats orders are the whole multi-hop output, so a share of
        it caps nothing; written first, orders had reached 39-47 % of a 150-task set (issue 36). Default 0:
        orders are written only once nothing else can be (the cap gives way then, `hold_shares`, so the set
        is never smaller for it). An order names both acts, so BM25 finds both sessions (all-gold@10 0.92
        of 37 orders on the LoCoMo tuning export at `--n 150`, real LoCoMo multi-session questions 0.481):
        at 0.25 a chat set's multi-hop tasks were 0.84 all-gold@10, at 0.02 0.64, at 0 0.50 (s38, issue
        36's limit: real + 0.10); the tasks written and the sessions with one do not fall (60 → 61).
    order_hold: 1 keeps `order_share` even when nothing else can be written (a smaller set rather than
        orders past their share: a run that writes every other question first still ends on its orders);
        0 (default) lets it give way (at 1 the LoCoMo tuning export's `--n 300` gives 230, not 288).
    max_doc_uses: tasks one document may support, so hub documents do not dominate.
    chat_uses_per_chunk: tasks one passage of a chat session may support: a session is many speakers'
        statements, each its own question, not one page's subject (MSC at 3: 11 of 90 sessions held at
        the cap with questions left, 21 of 126 questions unwritten).
    session_bridges: 1 asks a chat's day-asked thing through another sentence of its session too ("In the
        chat in which Jon mentioned reading The Lean Startup, how was Gina feeling?", datagen.chat_bridges),
        once every plain question is written: they add tasks where the facts run out and take no session's
        place in a set the plain questions fill (drawn among them at a quarter of the single draws, they
        left 7 of 149 MemoryBank sessions without a task at `--n 150`). 0 writes none (`--mix bridges=0`).
    said_sets: 1 asks what a chat's speaker told of themself over several sessions as one set ("What two
        classes did Maria take?", datagen.chat_sets); 0 leaves those sets out (`--mix sets=0`).
    act_sets: 1 asks what a chat's speaker did with one verb over several sessions as one set ("What two
        things did Jesse buy?", datagen.chat_act_sets), where no set of `datagen.chat_lists` or
        `datagen.chat_sets` quotes one of its sentences; 0 leaves them out (`--mix acts=0`).
    speaker_words: 1 asks a chat's or mail's thing whose answer keeps the speaker's first-person words
        ("What did Melanie celebrate?" → "my daughter's birthday"); 0 (default) asks none of them, single,
        session-bridged or anchored (`factbase.speaker_words`; issue 36: 15 of the 300 tuning tasks at
        `--n 150`, and 4 of the 8 unnatural in a 90-task read). `--mix speaker_words=1` keeps them.
    doc_defaults: 1 asks a documented option's default ("What is the default value of SESSION_COOKIE_NAME?",
        datagen.doc_defaults); 0 asks none (`--mix defaults=0`).
    doc_versions: 1 asks the version a documented thing was added, changed, deprecated or removed in ("In
        which version was ENV removed?", datagen.doc_versions); 0 asks none (`--mix versions=0`).
    doc_releases: 1 asks a release-notes page's days and "Add support for" items ("When was version 0.95.0
        released?", "In which version was support for Python 3.12 added?", datagen.doc_releases); 0 asks none.
    doc_prose: 1 lets the sentence readers ask a documentation page's prose too (`doc_markup.documentation_page`:
        rST directives and roles, Markdown fences, MkDocs anchors); 0 (default) asks only its defaults and
        version notes there (main's prose questions on the tuning folder: natural 0/10, correct 4/10).
    doc_projects: 1 (default) names the project in a documentation question ("When was Starlette 0.47.3
        released?", datagen.doc_projects) where the folder's layout and pages give its name, and needs its
        answer unique in that project only; 0 asks as session 40 did ("When was version 0.47.3 released?").
        Read with the facts (`datagen.relations.read_facts`), before the generator.
    doc_since: 1 (default) asks what documentation prose says a version brought or will remove ("Since which
        version of Click is it possible to …?", "In which version of Click will X be removed?",
        datagen.doc_since); 0 asks none (`--mix since=0`).
    doc_owners: 1 (default) gives a version note its markup leaves ownerless the entry or section it sits in
        (Click's "Screen Clearing" / "New in version 2.0:", a Sphinx note under "flask.ctx.RequestContext",
        datagen.doc_versions); 0 refuses it as before (`--mix owners=0`). Read with the facts, before the generator.
    doc_name_case: 1 (default) names a documentation question's project as its prose writes it ("When was pytest
        2.3.4 released?", datagen.doc_projects); 0 writes the capitalised form ("Pytest"), as session 41
        (`--mix name_case=0`). Read with the facts, before the generator.
    doc_folder: 1 (default) takes every page of a folder most of whose pages are documentation as documentation
        (a release announcement, a history page: session 41's "Which organization has pytest-5.3.2 been released
        to?" → "PyPI"; datagen.doc_projects.documentation_folders), so the sentence templates do not ask them
        unless `doc_prose`; 0 judges each page alone, as before (`--mix doc_folder=0`).
    doc_reference: 1 (default) asks what a hand-written API reference states: a signature's defaults, a settings
        table's defaults and types, an attribute's type, a method's return type, what raises which exception,
        which environment variable does what (datagen.doc_reference); 0 asks none (`--mix reference=0`). Read
        with the facts, before the generator.
    doc_options: 1 (default) asks what an options or settings list states (datagen.doc_options): which command-line
        option or configuration setting does what its entry's description says ("Which mypy command-line option
        asks mypy to type check the provided module?" → "--module"), and an entry's stated default, from Sphinx
        `option` / `confval` entries, one-heading-per-setting pages and a command's help output; 0 asks none
        (`--mix options=0`). Read with the facts, before the generator.
    doc_source: 1 asks what a repository's Python source sections state (datagen.doc_source): a parameter's
        default in a signature, a function's return type, the exception a docstring's raises field names with its
        condition, owned as a user writes it (`Flask.make_response()`; `--mix source=1`). 0 (default) asks none:
        on the tuning repository at `--n 150` the source questions took 116 of 150 places and the documentation
        pages' tasks fell 147 → 33, and 24 of 30 read natural (session 43), so it is a choice, not the default.
        Read with the facts, before the generator.
    doc_announce: 1 (default) takes a release announcement in a folder that holds documentation as documentation
        (datagen.doc_announce: "Which organization has pytest-4.6.5 been released to?" → "PyPI" is no longer
        asked), and counts it so in its folder's majority (`doc_folder`); 0 judges it alone, as before
        (`--mix announce=0`).
    doc_group: 1 (default) refines `doc_folder`: a documentation page stays one whatever its group, and every page of
        a group that holds documentation pages (two at least, and a fifth of its pages) is documentation, so a FAQ,
        a release process or a deployment page beside them is not asked by the sentence templates ("Which work is
        Deploying your docs pushed to?" → "GitHub"; datagen.doc_projects.documentation_groups); 0 keeps
        `doc_folder`'s majority rule (`--mix doc_group=0`).
    doc_kind_share: the largest share of the single-hop tasks written that one documentation kind (a `doc:`
        relation: "doc:opt:default") may take, once `relation_floor` tasks use it; a page whose every unasked
        kind is at its share is not drawn while another page has a kind under it, and the cap gives way when
        none has (the set is never smaller for it). A trivial default (`None`, `False`, `[]`, `0`: a reader guesses
        it without the page) is a kind of its own. 1 caps nothing (`--mix doc_kind=1`).
    doc_trivial_share: the largest share of the single-hop tasks that trivial defaults may take, held (the set is
        smaller rather than past it): on mypy + MkDocs' settings 64 of the 70 defaults asked were False / True /
        null / 0. 0 asks none, 1 caps nothing (`--mix trivial=SHARE`).
    doc_option_lists: 1 (default) reads a bulleted options list too ("- --group (-G): The group to add the dependency
        to." → "Which Poetry command-line option sets the group to add the dependency to?", datagen.doc_options
        LISTS, session 44); 0 reads none, as session 43 (`--mix option_lists=0`). Read with the facts.
    doc_option_this: 1 (default) asks a description's "this …" about the option's own value ("--host TEXT: Bind
        socket to this host." → "Which option sets the host to bind socket to?", THIS) where the option takes a
        value and the sentence opens with a known verb, refused and counted otherwise (`doc_opt_this`); 0 refuses
        every "this …" as session 43 (`--mix option_this=0`). Read with the facts.
    doc_option_nouns: 1 (default) asks a noun-phrase description as what the option sets ("The number of worker
        processes." → "Which option sets the number of worker processes?", NOUNS) where spaCy's parse gives a clean
        noun phrase, refused and counted otherwise (`doc_opt_noun`); 0 refuses them as session 43
        (`--mix option_nouns=0`). Read with the facts.
    doc_option_program: 1 (default) asks an rST `.. option::` entry under `.. program:: dmypy` as that command's
        ("Which dmypy command-line option …?", datagen.doc_options PROGRAM, session 45); 0 asks it as the
        project's, as before (`--mix option_program=0`). Read with the facts.
    doc_project_files: 1 (default) names a group's project from what the folder itself declares where its folder
        name gives none: a Sphinx `conf.py`'s `project = "…"`, a README's title, and a project its prose writes only
        in lower case ("pipx"; datagen.doc_projects); 0 as session 43 (`--mix project_files=0`). Read with the facts.
    doc_release_names: 1 (default) reads a release heading that names its project too ("pytest 8.4.0 (2025-06-02)",
        datagen.doc_releases), its day kept only where the word is the page's project (so only with `doc_projects`);
        0 reads none, as session 44 (`--mix release_names=0`). Read with the facts, before the generator.
    doc_declared_names: 1 (default) names a documentation group's project by what its repository's project files
        declare too (`pyproject.toml`, `setup.cfg`, `mkdocs.yml`, read by the indexer and kept with the index), and a
        declared slug or a folder name by the phrase prose writes ("django-debug-toolbar" → "Django Debug Toolbar";
        datagen.doc_projects, session 46); 0 as session 45 (`--mix declared_names=0`). Read with the facts.
    doc_deprecations: 1 (default) reads what a changelog's items and a deprecation page's sections say a release
        deprecated or removed ("In which version of Starlette was the allow_redirects argument removed?",
        datagen.doc_deprecations, session 46), bridged to the release's day and compared as the version notes are
        (`doc_bridges`); 0 reads none, as session 45 (`--mix deprecations=0`). Read with the facts.
    doc_bridges: 1 (default) asks across two documentation pages (datagen.doc_bridges, session 45): the day the
        release that added, changed, deprecated or removed a documented thing came out ("When was the pytest version
        that added record_testsuite_property released?": the note's page, then the changelog's), and which of two
        things was added first, held to `comparison_share` of the multi-hop tasks; written before the single-hop
        tasks, which fill the rest. 0 asks none, as session 44 (`--mix doc_bridges=0`).
    meeting_guard: 1 (default) asks a meeting transcript's facts only where `datagen.meeting_guard` finds
        them safe (a named subject, a named answer of a class the verb allows, a sentence stating an act; no
        speaker label that is a role or a letter code, no chat reader on speech): on QMSum's tuning folder
        main's natural 7/30, correct 18/30 (session 39). 0 asks them as main did (`--mix meeting_guard=0`).
        A corpus with no meeting (three speakers or more) is unchanged either way.
    meeting_statements: 1 (default) asks what a meeting states, read by `datagen.meeting_statements`: who will
        do what ("Who will check the list of figures?" → "[PERSON6]"), a count, a deadline, drawn as a
        documentation page's notes are (kinds evenly, before the page's other facts); 0 asks none
        (`--mix statements=0`). A corpus with no meeting has none either way.
    meeting_decisions: 1 (default) asks what a meeting decided, agreed or set, read by `datagen.meeting_decisions`:
        a tool chosen ("What is used for the deliverable documents?"), a proposal another speaker takes, a date set
        ("When is the ELG paper due?"), an amount needed, who runs what; 0 reads none, and the facts are main's
        exactly (`--mix decisions=0`; read with the facts, before the generator). A corpus with no meeting has
        none either way.
    meeting_replies: 1 (default) asks a question a meeting's speaker asked and the next speaker answered, read by
        `datagen.meeting_replies` ("When will [PERSON3] send the slides?" / "By Friday."); 0 reads none, and
        the facts are main's exactly (`--mix replies=0`). A corpus with no meeting has none either way.
    meet_roles, meet_figures, meet_petitions, meet_shares: 1 (default) asks fact questions that name their meeting as a user
        would (corpus_tools.meeting_names: "the ES2002 kick-off meeting", "the 14th meeting of the Special Committee
        on the COVID-19 Pandemic"), read by `datagen.meeting_said` (session 50): who held a role ("In the ES2002
        kick-off meeting, who was the project manager?" → "Laura"), a selling price, production cost or profit
        target a speaker gave ("… what selling price did the project manager give?" → "twenty five Euro"), who
        presented a petition about a bill, a share of a group a speaker reported ("… what percentage of users find
        most remote controls ugly, according to the marketing expert?" → "seventy five percent"). QMSum tuning (162 meetings, `--n 150 --seed 1`): see docs/LOG.md,
        session 50. 0 reads none, and the facts are main's exactly (`--mix meet_roles=0,meet_figures=0,
        meet_petitions=0,meet_shares=0`). A folder with no named meeting has none either way.
    meet_hops: 1 (default) asks across two meetings of one series or committee (`datagen.meeting_hops`, session 51):
        the meeting after (or before) the one that states a fact `meeting_said` reads, then a fact of that meeting
        ("In the ES2016 meeting after the one in which the project manager gave a selling price of twenty five
        Euros, what percentage of users find their remote controls to be ugly, according to …?"), and one figure
        a speaker gave in two meetings of a series compared. Each meeting fact it joins must be asked
        (`meet_roles` …). 0 asks none (`--mix meet_hops=0`); a folder with no ordered named meetings has none.
    meet_compare_share: the largest share of the meetings' multi-hop tasks that may be comparisons (issue 36: 25 %).
    doc_room: 1 (default) keeps a documentation page's single-hop questions askable to the end of a run (session 45,
        issue 36): a two-page question (datagen.doc_bridges) that uses a page raises its use cap by one, as a fact
        of its own (the cap is its usual one plus one use per fact, and on HTTPX + pytest at `--n 2000` the 16
        bridges and 4 comparisons had spent the reference page's and the changelog's room: 10 option questions
        and 13 release days were left at the cap); and a page whose facts are all asked, with no title relation
        left, leaves the single-hop draw (drawn, it could only fail `no_answer_span`: those were most of the pool,
        and "200 failed proposals in a row" ended the run), the run saying so when no page is left; and a page fact
        verification refuses is not drawn again (`refuse`). Documentation pages only: a meeting's statements are
        drawn as before (not measured). 0 as before (`--mix doc_room=0`).
    calls: 1 (default) asks what earnings calls state (datagen.call_tasks: a figure for the company's quarter, its
        guidance, two quarters or two companies compared, a bridge through another company's quarter; session 46,
        issue 36). A folder with no call identity (`form` "earnings call") is unchanged. 0 as before (`--mix calls=0`).
    call_comparison_share: the largest share of the calls' multi-hop tasks that may be comparisons (issue 36: 25 %).
    call_prose: 0 (default) refuses the prose templates' questions about a call ("Which place does Dana join us
        from?"; base on the ECTSum tuning calls); 1 asks them beside the calls' figures (`--mix call_prose=1`).
    doc_notebooks: 1 (default) asks what a Jupyter notebook's prose and outputs state (datagen.doc_notebooks, session
        47, issue 36): a term its prose defines ("What is a ufunc in NumPy?"), what a named function does ("Which
        Pandas function implements a number of types of joins?"), the shape a cell printed for a named array. A folder
        with no notebook is unchanged. 0 asks none, as before (`--mix notebooks=0`). Read with the facts.
    doc_nb_printed: 1 (default) also asks a labelled result a notebook's cell printed ("print('test_acc:', test_acc)"
        → "Output: test_acc: 0.9777" → "In the notebook “T”, what is the test accuracy?") and a data set's printed length
        ("len(train_data)"); session 48, issue 36: 0 → 22 facts on the tuning notebooks, read natural and correct. Only with doc_notebooks; a folder with no notebook
        is unchanged. 0 = session 47's notebook facts exactly (`--mix nb_printed=0`).
    doc_nb_defaults: 1 (default) also asks a named argument's default the prose states ("the how keyword, which
        defaults to "inner"" → "In the notebook “T”, what does the how keyword default to?"; session 48: 4 on tuning).
        0 = none (`--mix nb_defaults=0`).
    doc_nb_wrapped: 1 (default) reads a prose sentence the author wrapped over several lines (a book's text) as one
        sentence (session 48: 2 more terms on tuning). 0 = one line per sentence, as session 47 (`--mix nb_wrapped=0`).
    doc_papers: 1 (default) asks what a research paper (a PDF that is no filing) defines (datagen.doc_papers, session
        48, issue 36): an acronym's expansion, its first definition, the initials spelling the acronym ("What does
        FDS stand for in the paper “Flat Datacenter Storage”?" is refused: the title gives it), and a term an
        "A(n) X is a(n) Y" sentence defines ("In the Bigtable paper, what is a tablet?"). A folder with no such PDF
        is unchanged. 0 asks none, as before (`--mix papers=0`). Read with the facts.
    doc_office: 1 (default) asks what a user's office document (.docx, .doc, .rtf, .odt) states, each question naming
        the document (datagen.doc_office, session 53, issue 36): a labelled field ("According to the Governance
        Committee Meeting minutes, what is the date?", "When was the Terms of Service last updated?"), a definition
        ("In the Privacy Policy, what does “Account” mean?"), an acronym or a term it defines; such a document's only
        questions then. A folder with no such file is unchanged. 0 = as before (`--mix office=0`). Read with the facts.
    doc_man: 1 (default) asks what a Unix manual page (read by corpus_tools.man_reader) states (datagen.doc_manpages,
        session 49, issue 36): an option's job ("Which option of scp selects batch mode?" → -B), an error's condition
        ("Which error does chown return when the file does not exist?" → ENOENT), the Linux or glibc version a call
        was added in ("In which Linux version was openat2 added?" → 5.6), a stated default ("What is the default
        value of Port in sshd_config?"); a page's only questions then. A folder with no manual page is unchanged.
        0 = as before (`--mix man=0`). Read with the facts.
    man_hops: 1 (default) asks across manual pages (datagen.man_hops, session 50, issue 36): a link one page states
        ("the errors documented in stat(2) can also occur", "the glibc mmap() wrapper function invokes mmap2(2)")
        followed to the page that answers, 2 to 4 pages ("Which error can getxattr return when …?"), and two related
        pages' Linux versions compared ("Which came to Linux first, eventfd or signalfd?"), held to
        `comparison_share` of the multi-hop tasks. SEE ALSO is never a hop. With `doc_man`; a folder with no manual
        page is unchanged. 0 = as before (`--mix man_hops=0`).
    man_styles: 1 (default) reads a manual page of any project's house style (datagen.doc_manpages, session 50): a
        page is never a paper, even where its NAME line ends in a period (rst2man); a configuration file's keywords
        (`num-threads:`, `request_time`) with their jobs and "Default: X" paragraphs; no unfilled `@VARIABLE@`.
        With `doc_man`. 0 = as session 49 (`--mix man_styles=0`). Read with the facts.
    grid_joins: 1 (default) asks across two tables of a folder's workbooks where a column's values are another
        table's row keys ("What is the company name of the customer who placed order 10250 in the Orders workbook?",
        datagen.grid_joins, session 56, issue 36): two workbooks make a 2-hop task, a chain through three or four a
        3-4-hop one, each held by the one-search drop as a bridge is, by its passages (one search must not find the
        rows the chain reaches); two sheets of one workbook a one-document task over two passages. A folder with no such link is unchanged. 0 = as before (`--mix joins=0`).
    call_guards: 1 (default) refuses, and counts in the run's stages, a call's figure that is conditional or
        pro-forma, summed with another quantity, one of two figures of its metric, or a segment's named in the sentence
        before, and keeps a company whose calls say "2020 fiscal year" out of questions across companies (session 47:
        a hand read of 60 tuning tasks and the classes the reporting read named; datagen.call_figures). 0 = session
        46's reader exactly (`--mix call_guards=0`).
    call_compare_read: 1 (default) asks, in a folder of calls with no bridge (one quarter's calls, as a vendor export
        of one season), "What revenue did the company with the higher FFO per share for the third quarter of 2022, A
        or B, report for that quarter?" where both calls state both metrics (datagen.call_tasks; session 47). A folder
        with a bridge is unchanged. 0 as before (`--mix call_compare_read=0`).
    cap_overflow: how far past its cap a chat or mail may give single-hop tasks once no document under
        its cap has a question left (1: never past it); the cap spreads tasks, it is no reason to stop.
    max_middle_uses: tasks a document may support as the middle of deeper chains (3-4 documents) to
        different ends: MuSiQue's New South Wales leads to Sydney and to Victoria, two bridges each
        (`max_final_uses`); at 3 one of the four was lost. A middle is a hop, not the answer's page.
    max_final_uses: bridges that may end on one document (its answer relations differ); a hub (more
        than `hub_in_links` articles link to it) ends one.
    hub_in_links: a document more articles than this link to is no hop of a chain (`datagen.chains`).
    region_links: 1 links a place answer's region to its page ("moved to Nashville, Tennessee" → "Tennessee"), so
        chains go on through "the state Hank Snow moved to" (datagen.region_links; session 48, `--mix regions=1`),
        kept only where one makes a chain of 3-4 documents. 0 (default): the links as before, exactly.
    chain_tries: chains tried per proposal (a question too long for one is tried on another).
    max_question_words: longer compositions read as puzzles; they are dropped.
    """

    comparison_share: float = 0.2
    bridge_comparison_share: float = 0.25
    relation_share: float = 0.2
    order_share: float = 0.0
    order_hold: float = 0.0
    relation_floor: int = 3
    max_doc_uses: int = 3
    chat_uses_per_chunk: int = 5
    session_bridges: float = 1.0
    said_sets: float = 1.0
    act_sets: float = 1.0
    speaker_words: float = 0.0
    doc_defaults: float = 1.0
    doc_versions: float = 1.0
    doc_releases: float = 1.0
    doc_prose: float = 0.0
    doc_projects: float = 1.0
    doc_since: float = 1.0
    doc_owners: float = 1.0
    doc_name_case: float = 1.0
    doc_folder: float = 1.0
    doc_reference: float = 1.0
    doc_options: float = 1.0
    doc_source: float = 0.0
    doc_announce: float = 1.0
    doc_group: float = 1.0
    doc_kind_share: float = 1.0
    doc_trivial_share: float = 0.2
    doc_option_lists: float = 1.0
    doc_option_this: float = 1.0
    doc_option_nouns: float = 1.0
    doc_option_program: float = 1.0
    doc_project_files: float = 1.0
    doc_release_names: float = 1.0
    doc_declared_names: float = 1.0
    doc_deprecations: float = 1.0
    doc_bridges: float = 1.0
    meeting_guard: float = 1.0
    meeting_statements: float = 1.0
    meeting_decisions: float = 1.0
    meeting_replies: float = 1.0
    meet_roles: float = 1.0
    meet_figures: float = 1.0
    meet_petitions: float = 1.0
    meet_shares: float = 1.0
    doc_room: float = 1.0
    calls: float = 1.0
    call_comparison_share: float = 0.25
    call_prose: float = 0.0
    doc_notebooks: float = 1.0
    doc_nb_printed: float = 1.0
    doc_nb_defaults: float = 1.0
    doc_nb_wrapped: float = 1.0
    doc_papers: float = 1.0
    doc_office: float = 1.0
    doc_man: float = 1.0
    man_hops: float = 1.0
    meet_hops: float = 1.0
    meet_compare_share: float = 0.25
    man_styles: float = 1.0
    grid_joins: float = 1.0
    call_guards: float = 1.0
    call_compare_read: float = 1.0
    cap_overflow: float = 2.0
    max_middle_uses: int = 4
    max_final_uses: int = 2
    region_links: float = 0.0
    hub_in_links: int = 12
    chain_tries: int = 30
    max_question_words: int = 32

    def __post_init__(self) -> None:
        for name in (
            "comparison_share", "bridge_comparison_share", "relation_share", "order_share", "session_bridges", "said_sets",
            "act_sets", "speaker_words", "order_hold", "doc_defaults", "doc_versions", "doc_releases", "doc_prose", "doc_projects",
            "doc_since", "doc_owners", "doc_name_case", "doc_folder", "doc_reference", "doc_options", "doc_source", "doc_announce", "doc_group", "doc_kind_share",
            "doc_trivial_share", "doc_option_lists", "doc_option_this", "doc_option_nouns", "doc_option_program", "doc_project_files", "doc_release_names", "doc_declared_names", "doc_deprecations", "doc_bridges", "meeting_guard", "meeting_statements", "meeting_decisions", "meeting_replies", "doc_room",
            "meet_roles", "meet_figures", "meet_petitions", "meet_shares", "calls", "call_comparison_share", "call_prose",
            "call_guards", "call_compare_read", "doc_notebooks", "doc_papers", "doc_office", "doc_man", "man_hops", "man_styles",
            "doc_nb_printed", "doc_nb_defaults", "doc_nb_wrapped", "region_links", "meet_hops",
            "meet_compare_share", "grid_joins",
        ):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be a share in [0, 1], got {value}")
        if self.cap_overflow < 1.0:
            raise ValueError(f"cap_overflow must be at least 1 (the cap itself), got {self.cap_overflow}")


_MIX_KEYS = {
    "comparison": "comparison_share", "bridge_comparison": "bridge_comparison_share", "relation": "relation_share",
    "order": "order_share", "bridges": "session_bridges", "sets": "said_sets",
    "acts": "act_sets", "speaker_words": "speaker_words", "order_hold": "order_hold",
    "defaults": "doc_defaults", "versions": "doc_versions", "releases": "doc_releases",
    "doc_prose": "doc_prose", "projects": "doc_projects", "since": "doc_since",
    "owners": "doc_owners", "name_case": "doc_name_case", "doc_folder": "doc_folder", "reference": "doc_reference",
    "options": "doc_options", "source": "doc_source", "announce": "doc_announce", "doc_group": "doc_group", "doc_kind": "doc_kind_share",
    "trivial": "doc_trivial_share", "option_lists": "doc_option_lists", "option_this": "doc_option_this",
    "option_nouns": "doc_option_nouns", "option_program": "doc_option_program", "project_files": "doc_project_files", "release_names": "doc_release_names",
    "doc_bridges": "doc_bridges", "declared_names": "doc_declared_names", "deprecations": "doc_deprecations",
    "meeting_guard": "meeting_guard", "statements": "meeting_statements",
    "decisions": "meeting_decisions", "replies": "meeting_replies", "doc_room": "doc_room",
    "meet_roles": "meet_roles", "meet_figures": "meet_figures", "meet_petitions": "meet_petitions", "meet_shares": "meet_shares",
    "notebooks": "doc_notebooks", "nb_printed": "doc_nb_printed", "nb_defaults": "doc_nb_defaults",
    "nb_wrapped": "doc_nb_wrapped",
    "papers": "doc_papers", "office": "doc_office", "man": "doc_man", "man_hops": "man_hops", "man_styles": "man_styles",
    "calls": "calls", "call_comparison": "call_comparison_share", "call_prose": "call_prose", "call_guards": "call_guards",
    "call_compare_read": "call_compare_read", "regions": "region_links",
    "meet_hops": "meet_hops", "meet_compare": "meet_compare_share", "joins": "grid_joins",
}


def parse_mix(spec: str) -> dict[str, float]:
    """`--mix "comparison=0.25,relation=0.2,order=0.1"` → NaturalConfig options (comparison_share,
    relation_share, order_share): the largest share of the multi-hop output that may be comparisons, of
    the bridges one relation may describe, and of all the tasks written that may be orders of dated acts
    (chats, mail), order_hold=0|1 whether that share holds when nothing else is left; bridges=0|1
    (session_bridges), sets=0|1 (said_sets) and acts=0|1 (act_sets) the chats' session-bridged questions and
    cross-session sets of told facts and of acts. An empty spec keeps the defaults."""
    out: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        key, sep, value = part.partition("=")
        if not sep or key.strip() not in _MIX_KEYS:
            # every key, from the table itself: the list of choices cannot fall behind a new key
            choices = ",".join(f"{k}={'SHARE' if v.endswith('_share') else '0|1'}" for k, v in _MIX_KEYS.items())
            raise ValueError(f"--mix takes {choices}; got {part!r}")
        try:
            share = float(value)
        except ValueError:
            raise ValueError(f"--mix {key.strip()} must be a number in [0, 1], got {value!r}") from None
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"--mix {key.strip()} must be a share in [0, 1], got {share}")
        out[_MIX_KEYS[key.strip()]] = share
    return out


# FactBase.skipped counts of whole documents that give no question (a chat session with no speaker
# line; a mail that only quotes or forwards an earlier one)
# (slide decks, datagen.slide_facts: one not in English, one nothing names, two decks of one name, no line to read)
_NO_QUESTION_DOCS = ("chat_without_speaker_lines", "mail_only_quoted", "slide_deck_not_english", "slide_deck_unnamed",
                     "slide_deck_name_shared", "slide_deck_no_text")


# A stated default a reader guesses without the page: on mypy + MkDocs' settings 64 of the 70 defaults asked were
# False / True / null / 0, on FastAPI + Flask + Click + Starlette 39 of 54 (None / False / True)
_TRIVIAL_DEFAULT = frozenset({"none", "null", "false", "true", "[]", "{}", "()", "''", '""', "0", "nil"})


def _doc_kind(relation: str, answer: str) -> str:
    """A documentation kind for `NaturalConfig.doc_kind_share`: the fact's relation, and a trivial default (`None`,
    `False`, `[]`) a kind of its own (the ":trivial" kinds `doc_trivial_share` holds together), so it cannot take the
    share of the defaults a reader must look up."""
    # a manual page's yes / no / on / off default (datagen.doc_manpages, `man_styles`): a guess answers half of them
    if relation.startswith("doc:") and "default" in relation and (answer.strip().casefold() in _TRIVIAL_DEFAULT
                                                                   or relation.endswith("_switch")):
        return relation + ":trivial"
    return relation


# a meeting reader's relation prefix → the NaturalConfig key that asks its facts; in this order, since every said-*
# prefix opens with STATEMENT's
_MEETING_KEYS = ((ROLES, "meet_roles"), (FIGURES, "meet_figures"), (PETITIONS, "meet_petitions"),
                 (SHARES, "meet_shares"), (DECISIONS, "meeting_decisions"), (REPLIES, "meeting_replies"),
                 (STATEMENT, "meeting_statements"))


class NaturalGenerator:
    """Proposes natural candidates from a `FactBase`; the pipeline verifies and filters them."""

    def __init__(self, mined: MinedCorpus, facts: FactBase, config: NaturalConfig | None = None) -> None:
        self.mined = mined
        self.base = facts
        self.config = config or NaturalConfig()
        self.uses: Counter = Counter()
        self.stages: Counter = Counter()
        if self.config.meeting_guard:
            # a meeting's facts asked only where safe (datagen.meeting_guard); no meeting: nothing changes.
            # What it refused shows among the run's stages ("meeting:speaker_tag 82")
            guard_meetings(facts, lambda d: meeting_text(c.text for c in mined.chunks[d]), list(mined.chunks))
            self.stages.update({k: v for k, v in facts.skipped.items() if k.startswith("meeting:")})
        # Only facts about the document itself can be asked with its name or a description of it.
        # On technical documentation the sentence readers misread code, markup and headings ("Which organization
        # can config be set on?" → "attr:`", "Which person will javascript be serialized to?" → "JSON": main
        # wrote 10 such tasks on the FastAPI + Flask tuning folder, none natural): a documentation page gives
        # only the documentation readers' facts (datagen.doc_defaults, doc_versions) unless `doc_prose`.
        self._doc_pages = frozenset() if self.config.doc_prose else frozenset(
            d for d, chunks in mined.chunks.items() if documentation_page(mined.doc_text(d), chunks[0].metadata if chunks else None))
        if self._doc_pages and self.config.doc_announce:
            # a documentation folder's release announcements are its release news (datagen.doc_announce)
            self._doc_pages = frozenset(d for d, is_doc in with_announcements(
                {d: d in self._doc_pages for d in mined.chunks}, mined.titles, {d: mined.doc_text(d) for d in mined.chunks}).items()
                if is_doc)
        if self._doc_pages and self.config.doc_folder:
            # a documentation folder's pages with no code (release announcements, a history page) are documentation;
            # doc_group: in any group that holds documentation pages, and a documentation page always (datagen.doc_projects)
            folder = documentation_groups if self.config.doc_group else documentation_folders
            self._doc_pages = folder({d: d in self._doc_pages for d in mined.chunks})
        kept = {d: [f for f in fs if f.relation.startswith("doc:")] if d in self._doc_pages else fs
                for d, fs in facts.facts.items()}
        by_article: dict[str, list[Fact]] = {}
        for d, fs in kept.items():
            by_article.setdefault(facts.article(d), []).extend(fs)
        self.relations = {a: unique_relations(fs) for a, fs in by_article.items()}
        # A paper's title names no entity: the templates misread a scientific title ("Which organization did
        # Prevalence, severity, and unmet need … Surveys. vary with?" → "IQR"), so a paper gives claims only.
        # a manual page's title is its `whatis` line, no paper's, even where its description ends in a period
        # (rst2man's "unbound-host(1) — Unbound DNS lookup utility."): with six such of nine titles every title read
        # as a paper's and the folder gave no question (`man_styles`, session 50)
        papers = paper_titles({d: mined.titles.get(d, "") for d in mined.chunks
                               if not (self.config.man_styles and self.config.doc_man and mined.chunks[d]
                                       and is_man_page(mined.chunks[d][0].metadata))})
        self.answerable = sorted(d for d, rels in self.relations.items() if rels and facts.names.get(d) and d not in papers)
        # Documents without a title (mail, chat, filings) are asked about the subjects they name.
        self.named = {
            # a table row names its company whatever the file is called (datagen.table_facts), and a
            # documentation page's default or version note its option (datagen.doc_defaults, doc_versions)
            d: [f for f in unique_named(fs) if self._doc_kind_on(f)
                and (not facts.names.get(d) or f.relation.startswith(("table:", "doc:", STATEMENT)))]
            for d, fs in kept.items() if d not in papers
        }
        self.named = {d: fs for d, fs in self.named.items() if fs}
        # A chat session or a mail (no title; a speaker line or a From header opens it) is talk about
        # many things, not one page's subject: its cap counts per passage, so a session of four chunks
        # supports four chunks' worth (a chat's passage more than a mail's). Filings and reports keep theirs.
        lists = [s for s in facts.lists if self.config.said_sets or "{n}" not in s[0].ask]  # "{n}": datagen.chat_sets
        if self.config.act_sets:  # datagen.chat_act_sets, where no other set quotes one of its sentences
            # and no set of a speaker's verb a clause of which no reader took ("Did I tell you I signed up for …?")
            lists = [items for items in lists if (fold(items[0].subject), set_verb(items[0].relation)) not in facts.unread_acts]
            quoted = {(fold(f.subject), f.doc_id, f.sentence) for items in lists for f in items}
            lists += [items for items in facts.act_sets if all(self._words_ok(f) for f in items)
                      and not any((fold(f.subject), f.doc_id, f.sentence) in quoted for f in items)]
        self._doc_cap = {
            d: (self.config.max_doc_uses if is_mail(mined.doc_text(d)) else self.config.chat_uses_per_chunk)
            * max(1, len(mined.chunks.get(d, ())))
            for d in sorted({*self.named, *(f.doc_id for s in lists for f in s)})  # a set's sessions too
            if not facts.names.get(d) and facts.article(d) == d and chat_speaker(mined.doc_text(d))
        }
        # A documentation page states many options' defaults and version notes, each its own question (a
        # settings page: thirty), not one subject's facts: its cap is its usual one plus one use per such fact,
        # and those facts are drawn unasked first (datagen.doc_defaults, datagen.doc_versions). Pages with no
        # such fact keep their cap, so every other corpus is capped as before.
        # A meeting's statements (datagen.meeting_statements) are drawn the same way: each its own question.
        doc_facts = Counter(d for d, fs in self.named.items() for f in fs if f.relation.startswith(("doc:", STATEMENT)))
        self._page_cap = {d: self.config.max_doc_uses + n for d, n in doc_facts.items() if d not in self._doc_cap}
        # the pages `doc_room` keeps room on: documentation pages only (a meeting's statements are not measured with it)
        self._room = frozenset(d for d in self._page_cap if self.config.doc_room
                               and any(f.relation.startswith("doc:") for f in self.named.get(d, ())))
        self._asked: set[str] = set()  # questions written, so a spent fact is not drawn again
        # A corpus of chats or mail (no titled document to ask about) has no chains; its multi-hop tasks
        # are the order of one person's dated acts told in two documents (datagen.chat_order).
        chat = not self.answerable and bool(self._doc_cap)
        self.orders = OrderPairs({d: self.named[d] for d in self._doc_cap if d in self.named} if chat else {},
                                 max_words=self.config.max_question_words)
        # and one person's thing asked through another of their dated acts (datagen.chat_anchors)
        self.anchored = AnchoredQuestions(
            [a for a in facts.anchored if a.thing.doc_id in self._doc_cap and a.anchor.doc_id in self._doc_cap
             and self._words_ok(a.thing)] if chat else [],
            max_words=self.config.max_question_words,
        )
        # and the sets of one person's things done with one verb, asked as a whole (datagen.chat_lists)
        self.lists = ListQuestions([s for s in lists if all(f.doc_id in self._doc_cap for f in s)] if chat else [],
                                   max_words=self.config.max_question_words)
        # and a session's day-asked thing asked through another sentence of it (datagen.chat_bridges)
        self.bridges = SessionBridges(
            [b for b in facts.bridges if b.thing.doc_id in self._doc_cap and self._words_ok(b.thing)]
            if chat and self.config.session_bridges else [],
            max_words=self.config.max_question_words,
        )
        # Titled documents the templates find no relation in (abstracts, reports) are asked about by the
        # claims they state; a chat or a mail (no title that names it) states opinions, not findings.
        self.claims = {
            d: found for d, sents in sorted(mined.sentences.items())
            if d not in self._doc_pages and not self._own_reader_only(d, mined)
            and (d in papers or facts.names.get(d) and d not in self.named and not self.relations.get(facts.article(d)))
            and (found := document_claims(sents))
        }
        self.links = {
            d: [f for f in rels.values() if f.target and f.describe and f.target in mined.chunks]
            for d, rels in self.relations.items()
        }
        documents = sorted({facts.article(d) for d in mined.chunks})
        if self.config.region_links:
            # a link only: region facts join no `relations`, so they never answer (datagen.region_links). Kept only
            # where they make a chain of 3-4 documents: they are for depth, and a corpus where they make none
            # (HotpotQA's dev pages: one 2-document chain) keeps its chains, and its tasks, exactly
            resolve = title_resolver(mined, facts.articles)
            found = {a: [f for f in fs if f.target in mined.chunks]
                     for a, fs in region_links(facts, self.relations, resolve, self._article_text).items()}
            trial = ChainIndex(facts, self.relations, {a: [*self.links.get(a, ()), *found.get(a, ())]
                                                       for a in {*self.links, *found}},
                               self._article_text, hub_in_links=self.config.hub_in_links, documents=documents,
                               titles=mined.titles)
            deep = {id(f) for h, cs in trial.chains.items() if h > 2 for c in cs for f in c.links}
            self.stages["regions:found"] += sum(len(fs) for fs in found.values())
            self.stages["regions:kept"] += sum(1 for fs in found.values() for f in fs if id(f) in deep)
            for article, fs in found.items():
                if any(id(f) in deep for f in fs):
                    self.links.setdefault(article, []).extend(f for f in fs if id(f) in deep)
        self.chains = ChainIndex(
            facts, self.relations, self.links, self._article_text, hub_in_links=self.config.hub_in_links,
            documents=documents, titles=mined.titles,
        )
        # what deeper chains need (`_spent` keeps a use of them for those)
        self._deep_ends = {c.docs[-1] for h, cs in self.chains.chains.items() if h > 2 for c in cs}
        # the deeper hop counts a run still asks for (the pipeline sets it; None: not told, one use kept
        # back), whose chains' documents shorter chains leave uses to (`_spent`)
        self.deep_hops: frozenset[int] | None = None
        self._deep_docs = {self.base.article(d) for h, cs in self.chains.chains.items() if h > 2 for c in cs for d in c.docs}
        self._need: tuple[object, Mapping[str, int]] = (None, {})  # what the open deeper chains hold, and when
        # The chains of each hop count, grouped by the relation of their first link, so a proposal
        # draws a relation first (diversity) and a chain of it second; spent chains are removed.
        self._pool: dict[int, dict[str, list[Chain]]] = {}
        for h, chains in self.chains.chains.items():
            groups: dict[str, list[Chain]] = {}
            for chain in chains:
                groups.setdefault(chain.links[0].relation, []).append(chain)
            self._pool[h] = groups
        self._tried: Counter = Counter()  # (chain documents, answer relation) -> times proposed
        self.final_uses: Counter = Counter()
        self.relation_uses: Counter = Counter()
        self.written: Counter = Counter()  # form -> tasks written (multi-hop forms only)
        self.total = 0  # tasks written, every hop count (the base of `order_share`)
        self.single_kinds: Counter = Counter()  # documentation kind -> single-hop tasks written (`doc_kind_share`)
        self.singles = 0  # single-hop tasks written (the base of `doc_kind_share`)
        # False once the pipeline has nothing else to write: capped forms may then exceed their share
        self.hold_shares = True
        self.stages.update(self.chains.counts())
        # documents that give no question by design, so a run says why they are missing
        self.stages.update({f"no question:{why}": n for why, n in facts.skipped.items() if why in _NO_QUESTION_DOCS})
        # Every passage stating a fact, by what it states (the extra positives of SPEC §4.6).
        self.same_fact: dict[str, list[Fact]] = {}
        for fs in facts.facts.values():
            for f in fs:
                self.same_fact.setdefault(self._key(f), []).append(f)
        by_relation: dict[str, list[Fact]] = {}
        for rels in self.relations.values():
            for f in rels.values():
                if f.compare and f.kind == TruthType.DATE.value:
                    by_relation.setdefault(f.relation, []).append(f)
        self.comparable = {r: fs for r, fs in sorted(by_relation.items()) if len({f.doc_id for f in fs}) >= 2}
        # 2-document chains whose end states a comparable date, by that relation: the sides of a
        # bridge comparison ("the director of A" born when?).
        sides: dict[str, list[tuple[Chain, Fact]]] = {}
        for chain in self.chains.chains.get(2, ()):
            for f in chain.answers:
                if f.compare and f.kind == TruthType.DATE.value and _year(f.answer) is not None:
                    sides.setdefault(f.relation, []).append((chain, f))
        self.sides = {r: v for r, v in sorted(sides.items()) if len({c.docs[-1] for c, _ in v}) >= 2}
        self._paired: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
        self._compared: set[tuple[str, ...]] = set()
        # questions across two documentation pages (datagen.doc_bridges): a note's release and its day, two notes
        # compared; each a fact of a kind asked (`--mix versions`, `releases`), on a page of a named project
        self.doc_funnel: Counter = Counter()
        self.doc_bridges: list = []
        self.doc_comparisons: list = []
        if self.config.doc_bridges and facts.projects:
            asked = {d: [f for f in fs if f.relation.startswith("doc:") and self._doc_kind_on(f)] for d, fs in kept.items()}
            texts = {d: mined.doc_text(d) for d in asked}
            self.doc_bridges = doc_bridges(asked, facts.projects, texts, self.doc_funnel)
            kinds = ("doc:added", "doc:deprecated", "doc:removed") if self.config.doc_deprecations else ("doc:added",)
            self.doc_comparisons = doc_comparisons(asked, facts.projects, self.doc_funnel, kinds)
            self.stages.update({f"doc_bridge:{k}": v for k, v in self.doc_funnel.items()})
        # questions across manual pages (datagen.man_hops): a link one page states, then the other page's error or
        # version; two related pages' versions compared. Only where the folder has manual pages and their facts.
        self.man_funnel: Counter = Counter()
        self.man_chains: list = []
        self.man_comparisons: list = []
        man_pages = {d: cs for d, cs in mined.chunks.items() if cs and is_man_page(cs[0].metadata)} if (
            self.config.man_hops and self.config.doc_man) else {}
        if man_pages:
            texts = {d: mined.doc_text(d) for d in man_pages}
            asked = {d: kept.get(d, []) for d in man_pages}
            self.man_chains = man_chains(man_links(man_pages, self.man_funnel), asked, texts, self.man_funnel)
            self.man_comparisons = man_comparisons(asked, man_pages, texts, self.man_funnel)
            self.stages.update({f"man_hop:{k}": v for k, v in self.man_funnel.items()})
        # questions across two ordered meetings (datagen.meeting_hops): a meeting named by what the one before or
        # after it states, a figure compared across a series; only the meeting facts asked (`_doc_kind_on`)
        self.meet_funnel: Counter = Counter()
        self.meet_bridges: list = []
        self.meet_comparisons: list = []
        if self.config.meet_hops:
            said = {d: [f for f in fs if f.relation.startswith((ROLES, FIGURES, PETITIONS, SHARES)) and self._doc_kind_on(f)]
                    for d, fs in kept.items()}
            said = {d: fs for d, fs in said.items() if fs}
            if said:
                # a meeting fact's subject opens with its meeting's name ("the ES2002 kick-off meeting: …")
                names = {d: fs[0].subject.split(": ", 1)[0] for d, fs in said.items()}
                texts = {d: mined.doc_text(d) for d in said}
                self.meet_bridges, self.meet_comparisons = meeting_hops(said, names, texts, self.meet_funnel)
                self.stages.update({f"meet_hop:{k}": v for k, v in self.meet_funnel.items()})
        self._doc_multi = bool(self.doc_bridges or self.doc_comparisons or self.man_chains or self.man_comparisons
                               or self.meet_bridges or self.meet_comparisons)

    def _doc_kind_on(self, fact: Fact) -> bool:
        """Whether a documentation fact's kind is asked (`--mix defaults=0|1,versions=0|1,releases=0|1`); any
        other fact is."""
        for prefix, key in _MEETING_KEYS:
            if fact.relation.startswith(prefix):
                return bool(getattr(self.config, key))
        if not fact.relation.startswith("doc:"):
            return True
        if fact.relation == "doc:default":
            return bool(self.config.doc_defaults)
        if fact.relation.startswith("doc:release"):
            return bool(self.config.doc_releases)
        if fact.relation in ("doc:since", "doc:will_remove"):
            return bool(self.config.doc_since)
        if fact.relation.startswith("doc:ref:"):
            return bool(self.config.doc_reference)
        if fact.relation.startswith("doc:opt:"):
            return bool(self.config.doc_options)
        if fact.relation.startswith("doc:src:"):
            return bool(self.config.doc_source)
        return bool(self.config.doc_versions)

    def _article_text(self, article: str) -> str:
        return "\n".join(self.mined.doc_text(d) for d in self.base.articles.get(article, (article,)) if d in self.mined.chunks)

    def usable(self, doc_id: str) -> bool:
        article = self.base.article(doc_id)
        return self.uses[article] < self._doc_cap.get(article, self._page_cap.get(article, self.config.max_doc_uses))

    def commit(self, candidate: Candidate) -> None:
        self.total += 1
        for doc in candidate.doc_ids:
            self.uses[self.base.article(doc)] += 1
        self._asked.add(candidate.question)
        if candidate.hops == 1 and candidate.supporting:  # the task's id: its passage, quote and answer
            item = candidate.supporting[0]
            self._asked.add("\x00".join((item.doc_id, *item.quotes, candidate.answer)))
        if candidate.hops == 1:
            self.singles += 1
            self.single_kinds.update(_doc_kind(r, candidate.answer) for r in candidate.metadata.get("relations", ())[:1]
                                     if r.startswith("doc:"))
        form = candidate.metadata.get("form", "")
        if candidate.hops > 1 and form:
            self.written[form] += 1
        if form in (DOC_BRIDGE_FORM, DOC_COMPARE_FORM):
            for article in {self.base.article(d) for d in candidate.doc_ids} & self._room:
                self._page_cap[article] += 1  # a use of its own: the page's facts keep theirs
        for rel in candidate.metadata.get("link_relations", ()):
            self.relation_uses[rel] += 1
        if form == "bridge" and candidate.doc_ids:
            self.final_uses[self.base.article(candidate.doc_ids[-1])] += 1
        if form == ORDER_FORM:
            self.orders.commit(candidate)

    def refuse(self, candidate: Candidate, reason: DropReason) -> None:
        """A candidate verification refused (the pipeline's `_check`: a verdict on it alone), or whose task is written
        already (`duplicate_task`: on Poetry + pipx + Hypercorn at `--n 2000` the run ended on 200 of those in a row).
        With `doc_room`, a documentation page's single-hop fact so refused is not drawn again: on HTTPX + pytest one `opt:default` whose
        answer names nothing was drawn 318 times at `--n 2000` and ended the run on "200 failed proposals in a row"."""
        if candidate.metadata.get("form") in (MAN_BRIDGE_FORM, MAN_COMPARE_FORM, MEET_BRIDGE_FORM, MEET_COMPARE_FORM):
            # a manual-page question is one of a fixed list (datagen.man_hops): refused once, never drawn again
            self._asked.add(candidate.question)
            self.stages[f"{candidate.metadata['form']}:refused_{reason.value}"] += 1
            return
        if candidate.hops != 1 or candidate.metadata.get("form") != "single":
            return
        item = candidate.supporting[0]
        if item.doc_id in self._room:
            self._asked.add("\x00".join((item.doc_id, *item.quotes, candidate.answer)))
            self.stages[f"single:refused_{reason.value}"] += 1

    def single_fill(self) -> str:
        """Why single-hop tasks may fill the rest of a multi-hop run ("" when they may not): a corpus
        with no title to ask about (chats, mail) has no chains, only the orders of its dated acts."""
        if self._doc_multi and not any(self.chains.chains.values()) and not self.comparable:
            if (self.meet_bridges or self.meet_comparisons) and not (self.doc_bridges or self.doc_comparisons
                                                                      or self.man_chains or self.man_comparisons):
                return ("the meetings' only multi-hop tasks join two meetings of one series or committee by their order, "
                        "or compare a figure across a series (datagen.meeting_hops); single-hop tasks are written for the rest")
            if not (self.doc_bridges or self.doc_comparisons):
                return ("the manual pages' only multi-hop tasks follow a link one page states to another or compare two "
                        "related pages' versions (datagen.man_hops); single-hop tasks are written for the rest")
            return ("the documentation folder's only multi-hop tasks join a version note to its release's day or compare "
                    "two notes (datagen.doc_bridges); single-hop tasks are written for the rest")
        if self.answerable or not self._doc_cap:
            return ""
        return ("the corpus has no title to ask about (chats, mail): its only multi-hop tasks are the order of "
                "one person's dated acts in two documents, one's thing asked through another of their dated acts, and the "
                "sets of things one person did told in several; "
                "single-hop tasks are written for the rest")

    def exhausted(self, hops: int) -> str | None:
        """Why no more tasks of `hops` can come, or None: a hop count whose chains are spent is given
        up at once (the pipeline stops proposing it) instead of after `patience` failures."""
        if hops == 2 and self.orders.left(self.usable):
            return None
        if hops == 2 and self._doc_left():
            return None
        if hops >= 2 and self._man_open(hops):
            return None
        if hops == 2 and self._meet_open():
            return None
        if hops == 1:
            return self._singles_spent()
        why = self._spent_but_orders(hops)
        if why and self.man_funnel:
            why += "; " + self._man_why(hops)
        return why

    def _singles_spent(self) -> str | None:
        """`exhausted` for single-hop tasks on a corpus of chats or mail: every question its facts give is
        written. Such a run used to draw from nothing 200 times and stop on "200 failed proposals in a row"
        counted as `no_answer_span`, as though its proposals had failed (issue 36)."""
        if not self._doc_cap and self._room:
            return self._pages_spent()
        if not self._doc_cap or self.answerable or self.claims or self.lists.left(1, self.usable) or self._single_pool():
            return None
        if self.bridges.left(self._overflow_usable):
            return None
        held = sum(len(self._unasked(d)) for d in self._doc_cap if d in self.named)
        asked = sum(len(fs) for fs in self.named.values())
        return (f"every question the {asked} facts read from its chats and mail give is written"
                + (f"; {held} left in sessions at {self.config.cap_overflow:g} times their cap" if held else ""))

    def _pages_spent(self) -> str | None:
        """`exhausted` for single-hop tasks on a documentation folder with `doc_room`: no page is left
        to draw, so the reason is said at once rather than after `patience` proposals drawn from nothing."""
        if self.answerable or self.claims or self.lists.left(1, self.usable):
            return None
        pool = self._single_pool()
        # a page is drawable while it has a fact the trivial defaults' held share lets through, or is no page
        # whose facts are read (`_kinds_open` would keep it); a pool of pages with only held defaults draws nothing
        if any(d not in self._page_cap or not (fs := self._unasked(d)) or any(self._fact_open(f, held_only=True) for f in fs)
               for d in pool):
            return None
        if self.bridges.found and self.bridges.left(self._overflow_usable):
            return None
        if pool:  # mypy + MkDocs at `--n 2000`: 33 trivial defaults left, and "200 failed proposals in a row" said
            trivial = sum(len(self._unasked(d)) for d in pool)
            return (f"the facts left are {trivial} stated default(s) a reader guesses without the page (None, False, "
                    f"[] …), held at their share of the single-hop tasks (--mix trivial=SHARE)")
        held = sum(len(self._unasked(d)) for d in self._page_cap if d in self.named)
        return ("every question the documentation pages' facts give is written"
                + (f"; {held} left on pages at their use cap" if held else ""))

    def deferred(self, hops: int) -> str | None:
        """Why no task of `hops` may be written *now*, though some are left (None when one may): orders
        over their share of the tasks written, and no other 2-hop form left. The pipeline skips the turn
        without counting a failure and lets single-hop tasks fill; the orders are due again as it grows."""
        if hops != 2 or self._order_due() or not self.orders.left(self.usable):
            return None
        if self._spent_but_orders(2) is None:
            return None  # another 2-hop form may still be written
        return (f"orders are at their share of the tasks written ({self.written[ORDER_FORM]} of {self.total}; "
                f"--mix order=SHARE)")

    def _order_due(self) -> bool:
        """Whether one more order keeps orders within `order_share` of all the tasks written."""
        if not self.hold_shares and not self.config.order_hold:
            return True  # nothing else can be written: past the share rather than a smaller set
        return self.written[ORDER_FORM] + 1 <= self.config.order_share * (self.total + 1)

    def _spent_but_orders(self, hops: int) -> str | None:
        """`exhausted` for every form but the orders of dated acts."""
        if hops < 2 or self.lists.left(hops, self.usable):
            return None
        if hops == 2 and self.anchored.left(self.usable):
            return None
        for groups in self._pool.values():  # drop the spent chains a draw has not met yet
            for chains in groups.values():
                chains[:] = [c for c in chains if not self._spent(c)]
        if any(self._pool.get(hops, {}).values()):
            return None
        if hops == 2 and self.sides and self._due("bridge_comparison") and self._pairs_left():
            return None
        if hops == 2 and self.comparable:
            if self._comparison_due() or any(any(g.values()) for g in self._pool.values()):
                return None  # comparisons may still be written (now, or after more bridges)
            return (f"its bridges are spent and comparisons are at their share of the multi-hop output "
                    f"({self.written['comparison']} of {sum(self.written.values())}; --mix comparison=SHARE)")
        found = self.chains.counts().get(f"chains:{hops}:found", 0)
        if hops == 2 and self.written[ORDER_FORM]:
            return (f"its orders of dated acts are written or spent ({self.written[ORDER_FORM]} written; an act is "
                    f"asked in at most {self.orders.max_uses}, a pair once); no chain of titled documents")
        if not any(self.chains.chains.values()) and not self.comparable:
            titled = sum(1 for d in self.mined.chunks if self.base.names.get(d))
            return (f"no chain at all: {titled} document(s) have a title that names them, and their facts "
                    f"link {self.base.n_links()} time(s) to another titled document")
        blocked = ", ".join(f"{why} {n}" for why, n in self.chains.blocked.get(hops, Counter()).most_common(4))
        paths = sum(self.chains.blocked.get(hops, Counter()).values()) + found
        head = (f"{found} chain(s) of {hops} documents in the corpus, all used or spent" if found else
                f"no chain of {hops} documents in the corpus ({paths} path(s) of {hops} documents in its link graph)")
        return head + (f"; paths that are no chain: {blocked}" if blocked else "")

    def propose(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        if self.lists.left(hops, self.usable) and (hops > 1 or rng.random() < _LIST_SHARE_OF_SINGLES):
            found = self.lists.propose(hops, rng, self.usable, self._key)
            if not isinstance(found, DropReason):
                self.stages[f"form:{LIST_FORM}"] += 1
                return found
        if hops == 1 and self.bridges.found and not self._single_pool():
            # every plain question written: the bridged ones, up to the cap's overflow as plain ones would
            found = self.bridges.propose(rng, self._overflow_usable, self._key)
            if not isinstance(found, DropReason):
                self.stages[f"form:{BRIDGE_FORM}"] += 1
                return found
        if hops == 1:
            return self._single(rng)
        if hops >= 2 and self._man_open(hops):
            found = self._man_pick(hops, rng)
            if not isinstance(found, DropReason):
                return found
        if hops == 2 and self._meet_open():
            found = self._meet_pick(rng)
            if not isinstance(found, DropReason):
                return found
        if hops == 2 and self._doc_left():
            found = self._doc_pair(rng)
            if not isinstance(found, DropReason):
                return found
        if hops == 2 and self.anchored.left(self.usable):
            found = self.anchored.propose(rng, self.usable, self._key)
            if not isinstance(found, DropReason):
                self.stages[f"form:{ANCHORED_FORM}"] += 1
                return found
        if hops == 2 and self.orders.pairs and self._order_due():
            found = self.orders.propose(rng, self.usable, self._key)
            if not isinstance(found, DropReason):
                self.stages[f"form:{ORDER_FORM}"] += 1
                return found
        if hops == 2 and self.comparable and self._comparison_due():
            found = self._comparison(rng)
            if not isinstance(found, DropReason):
                return found
        if hops == 2 and self.sides and self._due("bridge_comparison"):
            found = self._bridge_comparison(rng)
            if not isinstance(found, DropReason):
                return found
        return self._bridge(hops, rng)

    def _doc_open(self, form: str) -> list:
        """The documentation bridges (or comparisons) not written yet whose pages are under their cap; comparisons
        only while one more keeps them within `comparison_share` of the multi-hop tasks (never past it)."""
        if form == DOC_COMPARE_FORM:
            multi = sum(self.written.values())
            if self.written[DOC_COMPARE_FORM] + 1 > self.config.comparison_share * (multi + 1):
                return []
            pool = self.doc_comparisons
        else:
            pool = self.doc_bridges
        return [b for b in pool if b.question not in self._asked
                and all(self.usable(f.doc_id) for f in ((b.note, b.release) if form == DOC_BRIDGE_FORM else (b.first, b.second)))]

    def _man_open(self, hops: int, form: str = "") -> list:
        """The manual-page questions of `hops` pages not written yet whose pages are under their cap (datagen.man_hops);
        comparisons only while one more keeps them within `comparison_share` of the multi-hop tasks."""
        out = []
        if form in ("", MAN_COMPARE_FORM) and hops == 2 and self.man_comparisons:
            multi = sum(self.written.values())
            if self.written[MAN_COMPARE_FORM] + 1 <= self.config.comparison_share * (multi + 1):
                out += [c for c in self.man_comparisons if c.question not in self._asked
                        and self.usable(c.first.doc_id) and self.usable(c.second.doc_id)]
        if form in ("", MAN_BRIDGE_FORM):
            out += [c for c in self.man_chains if len(c.facts) == hops and c.question not in self._asked
                    and all(self.usable(d) for d in c.docs)]
        return out

    def _man_pick(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        """A manual-page comparison when one is due, else a chain of `hops` pages (datagen.man_hops)."""
        compare = self._man_open(hops, MAN_COMPARE_FORM)
        if compare:
            c = rng.choice(compare)
            return self._candidate(MAN_COMPARE_FORM, [c.first.doc_id, c.second.doc_id], [c.first, c.second], c.question,
                                   c.first, clues=[], answer_text=c.first.subject,
                                   options=[c.first.subject, c.second.subject], link_relations=[])
        chains = self._man_open(hops, MAN_BRIDGE_FORM)
        if not chains:
            return DropReason.NO_CHAIN
        c = rng.choice(chains)
        return self._candidate(MAN_BRIDGE_FORM, list(c.docs), list(c.facts), c.question, c.answer, clues=[],
                               bridges=[f.answer for f in c.facts[:-1]])

    def _meet_open(self, form: str = "") -> list:
        """The meetings' two-meeting questions not written yet whose meetings are under their cap (datagen.meeting_hops);
        comparisons only while one more keeps them within `meet_compare_share` of the meetings' multi-hop tasks."""
        out = []
        if form in ("", MEET_COMPARE_FORM) and self.meet_comparisons:
            multi = self.written[MEET_BRIDGE_FORM] + self.written[MEET_COMPARE_FORM]
            if self.written[MEET_COMPARE_FORM] + 1 <= self.config.meet_compare_share * (multi + 1):
                out += [c for c in self.meet_comparisons if c.question not in self._asked and all(map(self.usable, c.docs))]
        if form in ("", MEET_BRIDGE_FORM):
            out += [c for c in self.meet_bridges if c.question not in self._asked and all(map(self.usable, c.docs))]
        return out

    def _meet_pick(self, rng: random.Random) -> Candidate | DropReason:
        """A meetings' comparison when one is due, else a bridge by the meetings' order (datagen.meeting_hops)."""
        picked = self._meet_open(MEET_COMPARE_FORM) or self._meet_open(MEET_BRIDGE_FORM)
        if not picked:
            return DropReason.NO_CHAIN
        c = rng.choice(picked)
        return self._candidate(c.form, list(c.docs), [c.first, c.second], c.question, c.answer, clues=[],
                               bridges=[c.first.answer] if c.form == MEET_BRIDGE_FORM else [])

    def _man_why(self, hops: int) -> str:
        """What stops the manual pages' chains of `hops` pages, from the funnel (datagen.man_hops)."""
        refused = ", ".join(f"{k.split(':', 2)[2]} {n}" for k, n in sorted(self.man_funnel.items())
                            if k.startswith(f"refused:{hops}:"))
        return (f"manual pages: {self.man_funnel.get(f'paths:{hops}', 0)} path(s) of {hops} pages along stated links, "
                f"{self.man_funnel.get(f'asked:{hops}', 0)} asked" + (f" (refused: {refused})" if refused else ""))

    def _doc_left(self) -> bool:
        return self._doc_multi and bool(self._doc_open(DOC_BRIDGE_FORM) or self._doc_open(DOC_COMPARE_FORM))

    def _doc_pair(self, rng: random.Random) -> Candidate | DropReason:
        """A documentation bridge, or a comparison when one is due (datagen.doc_bridges)."""
        compare = self._doc_open(DOC_COMPARE_FORM)
        if compare:
            picked = rng.choice(compare)
            return self._candidate(DOC_COMPARE_FORM, [picked.first.doc_id, picked.second.doc_id], [picked.first, picked.second],
                                   picked.question, picked.first, clues=[], answer_text=picked.first.subject,
                                   options=[picked.first.subject, picked.second.subject], link_relations=[])
        bridges = self._doc_open(DOC_BRIDGE_FORM)
        if not bridges:
            return DropReason.NO_CHAIN
        picked = rng.choice(bridges)
        return self._candidate(DOC_BRIDGE_FORM, [picked.note.doc_id, picked.release.doc_id], [picked.note, picked.release],
                               picked.question, picked.release, clues=[], bridges=[picked.note.answer])

    def _comparison_due(self) -> bool:
        """Whether one more comparison keeps comparisons within their share of the multi-hop output."""
        return self._due("comparison")

    def _due(self, form: str) -> bool:
        """Whether one more task of a capped form keeps it within its share of the multi-hop output."""
        share = self.config.comparison_share if form == "comparison" else self.config.bridge_comparison_share
        multi = sum(self.written.values())
        return (self.written[form] + 1) <= share * (multi + 1)

    def _pairs_left(self) -> bool:
        """Whether some relation still has two usable sides that have not been paired."""
        for pairs in self.sides.values():
            usable = [(c, f) for c, f in pairs if all(self.usable(d) for d in c.docs)]
            ends = {c.docs[-1] for c, _ in usable}
            if len(ends) >= 2 and any(
                self._pair_key(a[0], b[0]) not in self._paired
                for i, a in enumerate(usable) for b in usable[i + 1:] if a[0].docs[-1] != b[0].docs[-1]
            ):
                return True
        return False

    @staticmethod
    def _pair_key(a: Chain, b: Chain) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return (a.docs, b.docs) if a.docs <= b.docs else (b.docs, a.docs)

    def _relation_open(self, relation: str) -> bool:
        bridges = self.written["bridge"] + self.written["comparison"] + self.written["bridge_comparison"]
        cap = max(self.config.relation_floor, self.config.relation_share * (bridges + 1))
        return self.relation_uses[relation] < cap

    # -- forms -----------------------------------------------------------------------------------
    def _single_pool(self) -> list[str]:
        """The documents a single-hop task may be drawn from: under their cap, a title-less one only while
        it has a question left. When none is left, a chat or mail whose questions outnumber its cap gives
        them, up to `cap_overflow` times its cap: the cap spreads the questions over the sessions, and with
        no other session holding one it only leaves them unwritten (issue 36: on MSC 10 and MemoryBank 9
        questions were held at the cap when `--n 300` stopped; the reading, not the cap, had run out)."""
        pool = [d for d in self.answerable + sorted(self.named) + list(self.claims) if self.usable(d)]
        # a title-less document whose every question is written has nothing more to give
        pool = [d for d in pool if d not in self._doc_cap or self._unasked(d)]
        # a documentation page whose defaults and notes are all written gives its page's relations, if any
        # (`self.relations` holds every article, most documentation pages with no relation: `doc_room` asks for one)
        pool = [d for d in pool if d not in self._page_cap or self._unasked(d)
                or (self.relations.get(d) if d in self._room else d in self.relations)]
        if pool:
            return pool
        return [d for d in sorted(self.named) if d in self._doc_cap and self._unasked(d)
                and self.uses[self.base.article(d)] < self.config.cap_overflow * self._doc_cap[d]]

    def _overflow_usable(self, doc_id: str) -> bool:
        """Whether a chat session is under `cap_overflow` times its cap (what `_single_pool` gives way to)."""
        article = self.base.article(doc_id)
        return article in self._doc_cap and self.uses[article] < self.config.cap_overflow * self._doc_cap[article]

    def _kind_open(self, kind: str) -> bool:
        """Whether one more single-hop task of a documentation kind (`_doc_kind`) keeps it within `doc_kind_share`."""
        if not kind.startswith("doc:"):
            return True
        cap = max(self.config.relation_floor, self.config.doc_kind_share * (self.singles + 1))
        return self.single_kinds[kind] < cap

    def _trivial_open(self) -> bool:
        """Whether one more trivial default (`_doc_kind`) keeps them within `doc_trivial_share` of the single-hop tasks."""
        trivial = sum(n for k, n in self.single_kinds.items() if k.endswith(":trivial"))
        return trivial + 1 <= self.config.doc_trivial_share * (self.singles + 1)

    def _fact_open(self, fact: Fact, held_only: bool = False) -> bool:
        """Whether a fact may be drawn now: a trivial default past `doc_trivial_share` never (held: the set is
        smaller rather), any other documentation kind while under `doc_kind_share` (unless `held_only`)."""
        kind = _doc_kind(fact.relation, fact.answer)
        if kind.endswith(":trivial") and self.config.doc_trivial_share < 1.0 and not self._trivial_open():
            return False
        return held_only or self.config.doc_kind_share >= 1.0 or self._kind_open(kind)

    def _kinds_open(self, pool: list[str]) -> list[str]:
        """`pool` less the documentation pages whose every unasked fact is a trivial default past its share
        (`doc_trivial_share`), then less those whose every unasked kind is at its share (`doc_kind_share`: on a
        settings page "What is the default value of X?" was half of a set); the second cap gives way when it would
        leave no page, so it never makes a set smaller."""
        if self.config.doc_kind_share >= 1.0 and self.config.doc_trivial_share >= 1.0:
            return pool
        unasked = {d: self._unasked(d) for d in pool if d in self._page_cap}
        held = {d for d, fs in unasked.items() if fs and not any(self._fact_open(f, held_only=True) for f in fs)}
        if held:
            self.stages["single:doc_trivial_held"] += 1
            pool = [d for d in pool if d not in held]
        if self.config.doc_kind_share >= 1.0:
            return pool
        # a page with an unasked fact of a kind under its share; a spent page (its title's relations) is not one:
        # drawn while every kind left is capped it only fails, and 200 failures stop the run short of --n
        left = {d for d, fs in unasked.items() if fs and d not in held}
        opened = {d for d in left if any(self._fact_open(f) for f in unasked[d])}
        if not opened or opened == left:
            return pool  # nothing capped (a meeting's statements never are), or nothing else left: the cap gives way
        self.stages["single:doc_kind_capped"] += 1
        return [d for d in pool if d not in self._page_cap or d in opened]

    def _single(self, rng: random.Random) -> Candidate | DropReason:
        pool = self._kinds_open(self._single_pool())
        if not pool:
            return DropReason.NO_ANSWER_SPAN
        doc = rng.choice(pool)
        if doc in self.claims:
            return self._claim(doc, rng)
        if doc in self._page_cap and not self._unasked(doc):
            pass  # its relations below
        elif doc in self._page_cap:
            # a documentation page's kinds drawn evenly, then a fact of the kind: a release-notes page states
            # 295 release days and 23 added supports (FastAPI), and drawn fact by fact the days were 85 of 150
            unasked = self._unasked(doc)
            kinds = sorted({f.relation for f in unasked})
            if self.config.doc_kind_share < 1.0 or self.config.doc_trivial_share < 1.0:
                # a kind at its share is drawn only when the page has no other (the pool gave way, `_kinds_open`);
                # a trivial default past its share never
                held = [f for f in unasked if self._fact_open(f, held_only=True)]
                opened = [f for f in held if self._fact_open(f)]
                if not held:
                    return DropReason.NO_ANSWER_SPAN
                unasked = opened or held
                kinds = sorted({f.relation for f in unasked})
            kind = rng.choice(kinds)
            fact = rng.choice([f for f in unasked if f.relation == kind])
            question = _fill(fact.ask, s=fact.subject, c=class_of(self.base, fact.target, fact.kind, fact.answer))
            return self._candidate("single", [doc], [fact], question, fact, clues=[])
        elif doc in self.named:
            fact = rng.choice(self._unasked(doc) if doc in self._doc_cap else self.named[doc])
            question = _fill(fact.ask, s=fact.subject, c=class_of(self.base, fact.target, fact.kind, fact.answer))
            return self._candidate("single", [doc], [fact], question, fact, clues=[])
        facts = [f for f in self.relations[doc].values() if not f.target or rng.random() < 0.5]
        if not facts:
            return DropReason.NO_ANSWER_SPAN
        fact = rng.choice(facts)
        question = _fill(fact.ask, s=self.base.names[doc], c=class_of(self.base, fact.target, fact.kind, fact.answer))
        return self._candidate("single", [fact.doc_id], [fact], question, fact, clues=[])

    def _unasked(self, doc: str) -> list[Fact]:
        """The facts of a title-less document not asked yet, by question or by the task they would make
        ("What did Gina build?" and "What did Gina build last week?" quote one sentence for one answer:
        one task id, so the second would only ever be a duplicate)."""
        return [
            f for f in self.named[doc]
            if _fill(f.ask, s=f.subject, c=class_of(self.base, f.target, f.kind, f.answer)) not in self._asked
            and "\x00".join((f.doc_id, f.sentence, f.answer)) not in self._asked and self._words_ok(f)
        ]

    def _words_ok(self, fact: Fact) -> bool:
        """Whether a title-less document's fact may be asked: its answer is a reader's phrase, not the
        speaker's "my …" (`NaturalConfig.speaker_words`)."""
        return bool(self.config.speaker_words) or not speaker_words(fact.answer)

    def _own_reader_only(self, doc: str, mined: MinedCorpus) -> bool:
        """Whether `doc` is asked only what its own reader reads, never a claim: a deck (its "sentences" are bullets
        and formulas with their symbols lost, "Thus, is a mapping and it is a single point on the real line.":
        datagen.slide_facts) and, with `doc_office` on, a user's office document ("Therefore, classes for the user
        interface are structured together." from a design document is no finding a reader searches with:
        datagen.doc_office)."""
        chunks = mined.chunks.get(doc)
        if not chunks:
            return False
        metadata = chunks[0].metadata
        return is_deck(doc, metadata) or (self.config.doc_office and is_office(doc, metadata))

    def _claim(self, doc: str, rng: random.Random) -> Candidate:
        """A claim task: the claim a results sentence states → that sentence (its abstract is gold)."""
        sentence, claim = rng.choice(self.claims[doc])
        self.stages["form:claim"] += 1
        return Candidate(
            question=claim,
            answer=sentence.text,
            supporting=(SupportingItem(doc, (sentence.chunk_id,), (sentence.text,), contains_truth=True),),
            hops=1,
            truth_type=TruthType.OTHER,
            generator="natural",
            metadata={"form": "claim", "fact_keys": [f"claim|{doc}|{sentence.index}"]},
        )

    def _bridge(self, hops: int, rng: random.Random) -> Candidate | DropReason:
        for _ in range(self.config.chain_tries):
            picked = self._pick_chain(hops, rng)
            if picked is None:
                return DropReason.NO_CHAIN
            chain, answer = picked
            docs = list(chain.docs)
            # The description of each bridge document, nested: d1 describes docs[1] through docs[0], …
            described = self._start_name(docs[0])
            clues = []
            for k, link in enumerate(chain.links):
                sub = _fill(link.ask, s=self._name_or(described, link.doc_id), c=class_of(self.base, link.target, link.kind))
                clues.append(sub)
                # the first link describes through the entry's own name ("The Dandy Warhols are…"), the
                # later ones through a description, which is one thing
                template = link.describe if k == 0 else _about_one(link.describe)
                described = _fill(template, s=described, c=class_of(self.base, link.target, link.kind))
            cls = class_of(self.base, answer.target, answer.kind, answer.answer)
            question = _fill(_about_one(answer.ask), s=described, c=cls)
            clues.append(_fill(answer.ask, s=self.base.names[docs[-1]], c=cls))
            if len(question.split()) > self.config.max_question_words:
                self.stages["bridge:too_long"] += 1
                continue
            if question in self._asked:
                continue  # a deeper chain tried again (`_tries`) after it was written
            if any(contains(question, self.base.names[d]) for d in docs[1:]):
                self.stages["bridge:names_a_later_document"] += 1  # the hop would not be needed
                continue
            chain_facts = [*chain.links, answer]
            return self._candidate("bridge", [f.doc_id for f in chain_facts], chain_facts, question, answer,
                                   clues=clues, bridges=[self.base.names.get(d, "") for d in docs[1:]],
                                   link_relations=[f.relation for f in chain.links])
        return DropReason.NO_CHAIN

    def _pick_chain(self, hops: int, rng: random.Random) -> tuple[Chain, Fact] | None:
        """A chain of `hops` documents none of which is used up, and an answer of it not tried yet:
        a first-link relation is drawn among those under their cap, then a chain of it."""
        groups = self._pool.get(hops, {})
        while True:
            relations = [r for r, chains in sorted(groups.items()) if chains and self._relation_open(r)]
            if not relations:
                if any(groups.values()):
                    self.stages["bridge:relation_capped"] += 1  # chains are left, of relations at their share
                return None
            chains = groups[rng.choice(relations)]
            chain = chains[rng.randrange(len(chains))]
            if self._spent(chain):  # uses only grow: a spent chain never comes back
                chains.remove(chain)
                continue
            answers = [a for a in chain.answers if self._tried[(chain.docs, a.relation)] < _tries(chain)]
            if not all(self._relation_open(link.relation) for link in chain.links[1:]):
                self.stages["bridge:relation_capped"] += 1
                return None
            answer = rng.choice(answers)
            self._tried[(chain.docs, answer.relation)] += 1
            return chain, answer

    def _key(self, fact: Fact) -> str:
        """The fact whichever passage states it: its subject by name (a pronoun names nothing another
        passage could share), relation and answer (`factbase.fact_key`)."""
        name = self.base.names.get(self.base.article(fact.doc_id)) or self.base.names.get(fact.doc_id, "")
        return fact_key(fact, name if fact.about_doc and name else fact.subject)

    def _spent(self, chain: Chain) -> bool:
        """Every answer tried, a document used up, or its end document ends enough bridges already.

        A 2-document chain leaves the last use of a document a deeper chain needs to that chain: A → B →
        C ends on C, and so do B → C and D → C; written first (they are many), they used C up, and a
        HotpotQA corpus wrote 3 of its 12 three-document chains (issue 36). It leaves as many uses as the
        deeper chains still open through a document can take (`chains.deep_need`), not one: a middle two ends
        share needs more (session 32)."""
        if all(self._tried[(chain.docs, a.relation)] >= _tries(chain) for a in chain.answers):
            return True
        reserve = 1 if chain.hops == 2 else 0
        end = chain.docs[-1]
        finals = (1 if end in self.chains.hubs else self.config.max_final_uses) - (reserve if end in self._deep_ends else 0)
        if self.final_uses[end] >= finals:
            return True
        if not reserve:
            need: Mapping[str, int] = {}
        elif self.deep_hops is None:  # not told what the run asks for: one use of a deeper chain's documents
            need = dict.fromkeys(self._deep_docs, 1)
        else:
            key = (self.deep_hops, sum(self.uses.values()), self._tried.total())  # both only grow
            if self._need[0] != key:
                self._need = (key, deep_need(
                    (c for h in self.deep_hops for cs in self._pool.get(h, {}).values() for c in cs if not self._spent(c)),
                    lambda e: max(0, self._final_cap(e) - self.final_uses[e]), self.config.max_doc_uses,
                ))
            need = self._need[1]
        middles = set(chain.docs[1:-1]) if chain.hops > 2 else set()
        return not all(
            self.uses[self.base.article(d)] < (self.config.max_middle_uses if d in middles else self.config.max_doc_uses) - need.get(d, 0)
            for d in chain.docs
        )

    def _final_cap(self, end: str) -> int:
        return 1 if end in self.chains.hubs else self.config.max_final_uses

    def _start_name(self, doc_id: str) -> str:
        """How a question names a chain's first document: its name, told apart from another page's
        ("the album Boots") when the two share it (`ChainIndex.qualified`)."""
        return self.chains.qualified.get(doc_id) or self.base.names[doc_id]

    def _name_or(self, described: str, doc_id: str) -> str:
        """Sub-questions name the document they ask about (they are each hop's own question)."""
        return self.chains.qualified.get(doc_id) or self.base.names.get(doc_id) or described

    def _comparison(self, rng: random.Random) -> Candidate | DropReason:
        open_relations = [r for r in sorted(self.comparable) if self._relation_open("compare:" + r)]
        if not open_relations:
            return DropReason.NO_CHAIN
        relation = rng.choice(open_relations)
        facts = [f for f in self.comparable[relation] if self.usable(f.doc_id) and self.base.names.get(f.doc_id)]
        if len(facts) < 2:
            return DropReason.NO_CHAIN
        a, b = rng.sample(facts, 2)
        if self.base.article(a.doc_id) == self.base.article(b.doc_id) or fold(self.base.names[a.doc_id]) == fold(
            self.base.names[b.doc_id]
        ):
            return DropReason.NO_CHAIN
        pair = (relation, *sorted((self.base.article(a.doc_id), self.base.article(b.doc_id))))
        if pair in self._compared:
            return DropReason.DUPLICATE  # "A or B?" asked again as "B or A?"
        self._compared.add(pair)
        ya, yb = _year(a.answer), _year(b.answer)
        if ya is None or yb is None or ya == yb:
            return DropReason.NO_ANSWER_SPAN  # the same year does not decide "first"
        ca, cb = (self.base.classes.get(self.base.article(f.doc_id), "") for f in (a, b))
        same_class = bool(ca and cb and ca.split()[-1] == cb.split()[-1])
        if not same_class and not a.compare.startswith("Who"):
            return DropReason.NO_CHAIN  # "Which one was sold first, a magazine or a footballer?" compares nothing
        cls = ca.split()[-1] if same_class else "one"
        first = a if ya < yb else b
        name_a, name_b = self.base.names[a.doc_id], self.base.names[b.doc_id]
        question = _fill(a.compare, a=name_a, b=name_b, c=cls)
        winner = self.base.names[first.doc_id]
        clues = [_fill(a.ask, s=name_a, c=""), _fill(b.ask, s=name_b, c="")]
        return self._candidate("comparison", [a.doc_id, b.doc_id], [a, b], question, first, clues=clues,
                               answer_text=winner, options=(name_a, name_b), link_relations=["compare:" + relation])

    def _bridge_comparison(self, rng: random.Random) -> Candidate | DropReason:
        """Two 2-document chains whose ends state the same comparable date relation, compared through
        their descriptions: "Who was born first, the director of A or the director of B?" → the name
        of the end document whose date is earlier. Both ends differ, so do their years; the entry
        documents are named, the ends never (each side's hop is needed)."""
        open_relations = [r for r in self.sides if self._relation_open("compare:" + r)]
        for _ in range(self.config.chain_tries):
            if not open_relations:
                return DropReason.NO_CHAIN
            relation = rng.choice(open_relations)
            usable = [(c, f) for c, f in self.sides[relation] if all(self.usable(d) for d in c.docs)]
            if len({c.docs[-1] for c, _ in usable}) < 2:
                open_relations.remove(relation)
                continue
            (ca, fa), (cb, fb) = rng.sample(usable, 2)
            key = self._pair_key(ca, cb)
            if key in self._paired:
                continue
            self._paired.add(key)
            if ca.docs[-1] == cb.docs[-1] or set(ca.docs) & set(cb.docs):
                continue  # one director of two films compares nothing; a shared document is one chain
            ya, yb = _year(fa.answer), _year(fb.answer)
            if ya is None or yb is None or ya == yb:
                continue
            ends = [self.base.names.get(c.docs[-1], "") for c in (ca, cb)]
            if not all(ends) or fold(ends[0]) == fold(ends[1]):
                continue
            la, lb = ca.links[0], cb.links[0]
            desc = [_fill(link.describe, s=self._start_name(c.docs[0]), c=class_of(self.base, link.target, link.kind))
                    for c, link in ((ca, la), (cb, lb))]
            cls_a, cls_b = (self.base.classes.get(self.base.article(c.docs[-1]), "") for c in (ca, cb))
            same_class = bool(cls_a and cls_b and cls_a.split()[-1] == cls_b.split()[-1])
            if not same_class and not fa.compare.startswith("Who"):
                continue
            question = _fill(fa.compare, a=desc[0], b=desc[1], c=cls_a.split()[-1] if same_class else "one")
            if len(question.split()) > self.config.max_question_words:
                self.stages["bridge_comparison:too_long"] += 1
                continue
            if any(contains(question, name) for name in ends):
                self.stages["bridge_comparison:names_an_end"] += 1
                continue
            first = 0 if ya < yb else 1
            clues = [
                _fill(la.ask, s=self._start_name(ca.docs[0]), c=class_of(self.base, la.target, la.kind)),
                _fill(lb.ask, s=self._start_name(cb.docs[0]), c=class_of(self.base, lb.target, lb.kind)),
                _fill(_about_one(fa.ask), s=desc[0], c=""),
                _fill(_about_one(fb.ask), s=desc[1], c=""),
            ]
            winner = (fa, fb)[first]
            return self._candidate(
                "bridge_comparison", [f.doc_id for f in (la, fa, lb, fb)], [la, fa, lb, fb], question, winner, clues=clues,
                answer_text=ends[first], bridges=ends, link_relations=["compare:" + relation],
            )
        return DropReason.NO_CHAIN

    # -- assembly --------------------------------------------------------------------------------
    def _candidate(
        self,
        form: str,
        docs: Sequence[str],
        facts: Sequence[Fact],
        question: str,
        answer: Fact,
        *,
        clues: Sequence[str],
        bridges: Sequence[str] = (),
        answer_text: str | None = None,
        options: Sequence[str] = (),
        link_relations: Sequence[str] = (),
    ) -> Candidate:
        text = answer_text if answer_text is not None else answer.answer
        kind = TruthType.ENTITY if answer_text is not None else TruthType(answer.kind)
        items = tuple(
            SupportingItem(
                doc_id=doc,
                chunk_ids=(fact.chunk_id,),
                quotes=(fact.sentence,),
                contains_truth=(fact is answer) if answer_text is None else doc == answer.doc_id,
            )
            for doc, fact in zip(docs, facts, strict=True)
        )
        aliases = date_aliases(text) if kind is TruthType.DATE else ()
        if answer_text is None and answer.relation.startswith((ROLES, FIGURES, PETITIONS, SHARES)):
            aliases = (*aliases, *answer.aliases)  # a figure said in words, in digits too ("12.5 Euros")
        bare = re.sub(r"^(the|a|an)\s+", "", text, flags=re.IGNORECASE)
        if bare != text:
            aliases = (*aliases, bare)
        self.stages[f"form:{form}"] += 1
        return Candidate(
            question=question,
            answer=text,
            aliases=tuple(aliases),
            supporting=items,
            hops=len(docs),
            truth_type=kind,
            clues=tuple(clues),
            bridges=tuple(bridges),
            generator="natural",
            metadata={
                "form": form,
                "relations": [f.relation for f in facts],
                # what the split keeps on one side (datagen.split): the facts, the answer's last
                "fact_keys": [self._key(f) for f in facts],
                # a documentation bridge's: every other passage stating its note or its release day (SPEC §4.6)
                POSITIVES: [] if answer_text is not None else [
                    {"doc_id": f.doc_id, "chunk_id": f.chunk_id, "quote": f.sentence}
                    for stated in (facts if form == DOC_BRIDGE_FORM else (answer,))
                    for f in self.same_fact.get(self._key(stated), ())[:20] if f.chunk_id != stated.chunk_id
                ],
                **({"link_relations": list(link_relations)} if link_relations else {}),
                **({"options": list(options)} if options else {}),
                # a documentation page states hundreds of facts one question each (a release-notes page: 295
                # days): split by fact as filings are, else one page is one component and the split leaves
                # the train side empty (cleaned FastAPI + Flask tuning folder: 0 train / 30 test / 120 left out)
                **({"split_by": "fact"} if all(f.relation.startswith("doc:") for f in facts) else {}),
            },
        )


# A set told in one session is a single-hop task: drawn now and then among the single facts.
_LIST_SHARE_OF_SINGLES = 0.25
_PLURAL_VERB = {"are": "is", "were": "was", "have": "has"}


# How often a chain's answer may be proposed. A pipeline drops a bridge over its BM25 budget or its
# one-search budget, shares of the tasks written so far: early in a run, with few written, it drops any
# bridge BM25 half-finds, and a chain drawn then was never drawn again. The deeper chains are few and
# drawn from the second proposal on: a MuSiQue run wrote none of its seven chains to Ottawa (session 32).
# A chain is tried again later: a deeper one three times, a two-document one twice.
_DEEP_TRIES = 3


def _tries(chain: Chain) -> int:
    return 2 if chain.hops == 2 else _DEEP_TRIES


def _about_one(template: str) -> str:
    """A template whose {s} a description fills ("the performer of X": one thing), its verb made
    singular: "Where were {s} formed?" was read off "The Dandy Warhols are a band formed in…", and
    "Where were the performer of … formed?" is no English."""
    template = re.sub(r"\b(are|were|have) \{s\}", lambda m: _PLURAL_VERB[m.group(1)] + " {s}", template)
    return re.sub(r"\{s\} (are|were|have)\b", lambda m: "{s} " + _PLURAL_VERB[m.group(1)], template)


def _fill(template: str, **values: str) -> str:
    """A template with its slots filled; a filled question (it ends in "?") starts with a capital.
    "In which {c} is {s}?" with no class for the place ({c} = "place") asks "Where is {s}?"."""
    out = template
    if values.get("c") == FALLBACK_CLASS[TruthType.PLACE.value]:
        out = re.sub(r"^In which \{c\} (is|was|are|were) ", r"Where \1 ", out)
        # "Which place is the highest elevation in …" reads as a form ("Which place did Caroline move from?" does not)
        out = re.sub(r"^Which \{c\} (is|was|are|were) ", r"What \1 ", out)
    for key, value in values.items():
        out = out.replace("{" + key + "}", value)
    out = re.sub(r"\s+", " ", out).strip()
    out = re.sub(r"\blocated located\?$", "located?", out)  # "Where is the city where X is located located?"
    return out[:1].upper() + out[1:] if out.endswith("?") else out


def _year(text: str) -> int | None:
    m = re.search(r"\b(1[0-9]{3}|20[0-9]{2})\b", text)
    return int(m.group(1)) if m else None
