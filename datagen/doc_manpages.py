"""What a Unix manual page states verifiably (issue 36: a folder of manual pages, a real folder kind, yields questions).

A manual page read by `corpus_tools.man_reader` (CorpusConfig.read_man) carries its names and section on its chunks
("man_names": "openat2", "man_section": "2") and writes a tagged paragraph as its tag on one line and its text on the
next. Four of its shapes are stated so that one passage verifies the answer and the question names the command, call
or file it is about:

- an option's job (`OPTION`): a command's (section 1 or 8) option entry whose text opens with a verb, "-B  Selects
  batch mode (prevents asking for passwords)." → "Which option of scp selects batch mode?" → "-B"; an imperative
  ("Print the version number of ldd.") is asked in the third person ("prints"); the entry's first sentence up to its
  first comma, colon or parenthesis, 3 to 16 words; a page where two entries open with the same words asks neither;
- an error's condition (`ERROR`): an ERRORS entry, "EACCES  The requested access to the file is not allowed." →
  "Which error does chdir return when the requested access to the file is not allowed?" → "EACCES"; the entry's
  first sentence whole (an aside in parentheses left out), or its first alternative before ", or"; one that goes on
  after another comma ("…, but upon attempting to bind …") is refused: cut, it would say another thing, and so is one
  opening with a qualifier ("(on PowerPC) This call is not supported": the question would drop it); a condition
  that reads as a clause (it holds a verb), 3 to 16 words, no "see …" pointer; a condition two entries share asks
  none. A page documents its calls' errors together (getgroups.2's EPERM is setgroups'), so a page of several calls
  asks of them all: "Which error can getgroups or setgroups return when …?" (more than four: none);
- the version a call appeared in (`ADDED` / `GLIBC`): the first clause of VERSIONS that says the page's call was
  added, appeared, was introduced or is available in a Linux (or glibc) version → "In which Linux version was
  openat2 added?" → "5.6"; a clause of removal ("until", "removed", "no longer") asks none;
- a stated default (`DEFAULT`): an option's or a configuration keyword's entry saying "the default is X", "defaults
  to X" or "(default X)" → "What is the default value of Port in sshd_config?" → "22"; a value one to three words,
  and none followed by a condition ("… is 3 for root") or by a list's next item ("~/.ssh/id_rsa, ~/.ssh/id_ecdsa, …":
  its first item alone would be a wrong answer; session 50, the lead's read of an unseen folder).

Another project's pages (`styles`, NaturalConfig.man_styles, session 50): a configuration file's page (dhcpcd.conf,
unbound.conf, sshd_config: its name says so; not core(5) or tmpfs(5)) asks its keywords' jobs as an option's ("Which
option in dhcpcd.conf sends the short hostname …?" → hostname_short; "Enable or disable whether …" as "controls
whether …") and their defaults, "Default: 1" as its own paragraph under the keyword (Unbound) too; a page writing its
keywords with a colon ("num-threads:") lists values under them without one, which are asked of nothing; a yes / no /
on / off default is `DEFAULT_SWITCH` (held with the trivial defaults); an unfilled autoconf `@SYSCONFDIR@` is in no
question or answer; "echo" reads "echoes".

Questions across pages are datagen.man_hops' (a link one page states; SEE ALSO alone is none).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from datagen.factbase import Fact
from datagen.types import TruthType

OPTION = "doc:man_option"
ERROR = "doc:man_error"
ADDED = "doc:man_added"
GLIBC = "doc:man_glibc"
DEFAULT = "doc:man_default"
DEFAULT_SWITCH = "doc:man_default_switch"  # (man_styles) a default of yes / no / on / off: held with the trivial ones

_TAG_OPTION = re.compile(r"^(?:--?[A-Za-z0-9?][\w-]*)(?:[ ,]|$)")
_ERROR_NAME = re.compile(r"^E[A-Z0-9]{2,}$")
_KEYWORD = re.compile(r"^(?:[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[A-Z][A-Z0-9_]{2,})$")
# verbs an option's text opens with, as a man page writes them (imperative; the third person is formed)
_VERBS = frozenset("""
accept add allow append apply ask assume attempt bind block cause change check clear close compress connect continue
copy count create decrease delete descend disable display do dump echo emit enable exclude execute exit expand follow
force format generate give hide ignore include increase inhibit interpret keep kill limit list listen load lock log
make mark mount move omit open output override pass pause prefer prepend preserve print process produce prompt quit
read recurse redirect reload remove rename replace report request reset resolve restrict resume retry return reverse
run save search select send set show skip sort specify start stop store strip suppress swap switch take tell terminate test
trace treat try turn unlock unmount update use verify wait warn write
""".split())
_CLAUSE_VERB = re.compile(
    r"\b(?:is|are|was|were|has|have|had|does|did|do|can|cannot|could|would|will|exceeds?|contains?|refers?|"
    r"points?|lacks?|belongs?|specifie[sd]|occurred|[a-z]{3,}ed)\b")
# no condition to ask by: a pointer ("See …"), a sentence with no subject ("Cannot allocate …"), one about the entry
# itself ("This return value is specific to i386 …")
_SEE = re.compile(r"^(?:see|same as|as for|\(?since|for\b|cannot|can|could|will|would|is|are|was|were|has|have|"
                  r"does|did|unable|this|these|it)\b", re.IGNORECASE)
_FIRST = re.compile(r"^(?P<s>.+?[.!?])(?=\s|$)")
_CUT = re.compile(r"\s*(?:[,:;(]| - | — )")
# a version after "Linux" / "kernel" / "glibc" (a few words between: "glibc in version 2.4", "Linux in kernel
# 2.6.16"), or before "of the Linux kernel"
_AFTER = r"(?:\s+(?!glibc|Linux)[A-Za-z-]+){0,3}?\s+(?:version\s+)?(?P<v>\d+\.\d+(?:\.\d+)*)\b"
_LINUX = re.compile(r"\b(?:Linux|kernel)" + _AFTER + r"|\bversion\s+(?P<w>\d+\.\d+(?:\.\d+)*)\s+of\s+the\s+Linux")
_GLIBC = re.compile(r"\bglibc" + _AFTER)
_ADDED_VERB = re.compile(r"\b(?:added|appeared|introduced|available|present|provided(?!\s+_)|supported)\b")
_REMOVED = re.compile(r"\b(?:until|removed|no longer|not|obsolete|deprecated|dropped|before|prior to|up to)\b",
                      re.IGNORECASE)
_CONSTANT = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
_DEFAULT = re.compile(
    r"(?:\b[Tt]he default(?: value| setting| is used)?(?: is| being)|\b[Dd]efaults? to|\(default(?: is|:|=)?)\s+"
    r"(?P<v>\"[^\"]{1,30}\"|“[^”]{1,30}”|'[^']{1,30}'|[^\s,;()]+(?:\s(?:seconds?|bytes?|[KMG]i?B|kB|ms|milliseconds?|"
    r"minutes?|hours?|days?|percent|%))?)(?P<after>[^.]{0,40})")
# (man_styles) another project's pages: a configuration keyword as its page writes it ("num-threads:", "request_time",
# "ipv4only"); "Default: 1" as its own paragraph after the entry (Unbound) or in it; an autoconf variable a page
# from a source tree keeps ("@SYSCONFDIR@/dhcpcd.conf"), which no installed page shows
_CONF_KEYWORD = re.compile(r"^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*:?$")
_DEFAULT_LINE = re.compile(r"^Default(?: value)?(?::|\s+is)\s+")
_DEFAULT_STYLES = re.compile(_DEFAULT.pattern.replace(r"(?:\b[Tt]he default", r"(?:(?:^|(?<=\.\s))Default(?: value)?(?::|\s+is)|\b[Tt]he default", 1))
_UNFILLED = re.compile(r"@[A-Za-z_]+@")
_CONF_NAME = re.compile(r"(?:[._-]conf|[._-]?config|[._-]cfg|rc|\.ini)$", re.IGNORECASE)
_NOT_KEYWORDS = frozenset("""FILES EXAMPLES EXAMPLE ENVIRONMENT ERRORS DIAGNOSTICS BUGS AUTHORS AUTHOR HISTORY CAVEATS
COPYRIGHT SYNOPSIS NAME""".split()) | {"SEE ALSO", "EXIT STATUS", "RETURN VALUE"}
# "The default is ~/.ssh/id_rsa, ~/.ssh/id_ecdsa, …": the value is a list, and its first item alone would be a wrong
# answer. A list's next item has the value's shape (a path, a number, a capitalised word, a shared prefix); a
# comma opening a clause ("65552 bytes, enough for …", "no, since …", "10, allowing …") leaves the value whole.
_NEXT_ITEM = re.compile(r"^\s*,\s*(?:and\s+|or\s+)?[`\"“']?(?P<n>[^\s,;()]+)")


def _is_list(value: str, after: str) -> bool:
    m = _NEXT_ITEM.match(after)
    if not m:
        return False
    item, first = m.group("n").strip("\"“”'`").rstrip("."), value.split()[0]
    return bool(item) and (("/" in first and "/" in item) or (first.isdigit() and item.isdigit())
                           or (first.isupper() and item.isupper() and first.isalpha() and item.isalpha())
                           or (len(first) > 3 and first[:3] == item[:3]))


_CONDITION = re.compile(r"^\s*(?:for|if|when|unless|except|on|in|with|or|and|but|which|where|depending)\b", re.IGNORECASE)


def is_man_page(metadata: Mapping[str, Any] | None) -> bool:
    """Whether a chunk was read from a manual page (man_reader: its names on the chunk)."""
    return bool((metadata or {}).get("man_names"))


# a page's .SH heading as the reader writes it on its own line: a section man(7) and mdoc(7) name, or any words in
# capitals ("RETURN VALUE", "SEE ALSO"); one capitalised word alone is an error or signal tag ("EWIDGET", "SIGINT")
_SECTIONS = frozenset("""NAME SYNOPSIS DESCRIPTION OPTIONS ERRORS VERSIONS STANDARDS NOTES BUGS EXAMPLES EXAMPLE FILES
ENVIRONMENT DIAGNOSTICS HISTORY AUTHORS AUTHOR CAVEATS SECURITY ATTRIBUTES COLOPHON LIBRARY COMMANDS COPYRIGHT
OVERVIEW USAGE""".split())
_HEADING = re.compile(r"^(?:[A-Z][A-Z0-9/&-]*(?: [A-Z][A-Z0-9/&-]*){1,3})$")


def _paragraphs(text: str, where: str) -> list[tuple[str, str, int]]:
    """(section, paragraph, offset in `text`) of a chunk's paragraphs, the section read from the headings the man
    reader writes on their own line ("ERRORS"); before the chunk's first heading, `where` (the one before it)."""
    out = []
    at = 0
    for piece in re.split(r"(\n\s*\n)", text):
        if piece.strip() and not piece.startswith("\n"):
            lines = piece.split("\n")
            if lines[0].strip() in _SECTIONS or _HEADING.match(lines[0].strip()):
                where = lines[0].strip()
                rest = "\n".join(lines[1:])
                if rest.strip():
                    out.append((where, rest, at + len(lines[0]) + 1))
            else:
                out.append((where, piece, at))
        at += len(piece)
    return out


def _entry(paragraph: str) -> tuple[str, str] | None:
    """(tag, the text under it) of a tagged paragraph: a short first line and the lines of its text."""
    lines = paragraph.split("\n")
    if len(lines) >= 2 and 0 < len(lines[0].split()) <= 8 and lines[1].strip():
        return lines[0].strip(), " ".join(" ".join(lines[1:]).split())
    return None


def _first_sentence(body: str) -> str:
    m = _FIRST.match(body)
    return (m.group("s") if m else body).strip()


def _condition(sentence: str) -> str:
    """An error's condition: its sentence whole, or up to ", or" / "; or" (one of its alternatives is a condition
    of the error); "" where the sentence goes on after another comma ("…, but …" changes what it says)."""
    sentence = sentence.rstrip(".!?").strip()
    cut = re.search(r"[,;:]", sentence)
    if cut is None:
        return sentence
    if re.match(r"[,;]\s+or\s", sentence[cut.start():]):
        head = sentence[:cut.start()].strip()
        return "" if re.search(r"\b(?:or|and|nor|but|either|neither)$", head) else head
    return ""


def _third_person(verb: str, styles: bool = False) -> str:
    if verb == "do" or styles and verb in ("echo", "go", "veto"):
        return verb + "es"
    if verb.endswith(("s", "sh", "ch", "x", "z")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _job(body: str, styles: bool = False) -> str:
    """An option's job as a question's predicate ("selects batch mode"), or "" when its text opens no verb."""
    first = _first_sentence(body)
    phrase = _CUT.split(first, maxsplit=1)[0].rstrip(".!?").strip()
    words = phrase.split()
    if not 3 <= len(words) <= 16:
        return ""
    head = words[0].lower()
    if head in _VERBS:
        words[0] = _third_person(head, styles)
    elif head.endswith("s") and (head[:-1] in _VERBS or head[:-2] in _VERBS or head[:-3] + "y" in _VERBS):
        words[0] = head
    else:
        return ""
    # "Change to and use root …", "Print help and exit": every verb of the job in the third person
    return re.sub(r"\b(and|or) ([a-z]+)\b",
                  lambda m: f"{m.group(1)} {_third_person(m.group(2), styles) if m.group(2) in _VERBS else m.group(2)}",
                  " ".join(words))


def man_facts(doc_id: str, chunks: Sequence[Any], skipped: Counter, styles: bool = False) -> list[Fact]:
    """Every fact of one manual page's passages (see the module docstring); refusals counted in `skipped`.
    `styles` (NaturalConfig.man_styles): another project's house style read too (`_conf_entry`, `_styled`)."""
    if not chunks:
        return []
    meta = chunks[0].metadata or {}
    names = [n for n in str(meta.get("man_names") or "").split(", ") if n]
    if not names:
        return []
    name, section = names[0], str(meta.get("man_section") or "")
    aliases = set(str(meta.get("man_aliases") or "").split(", "))
    # a page's ERRORS are its calls' together (getgroups.2: EPERM is setgroups'): an error is asked of them all
    calls = [n for n in names if n not in aliases] or names[:1]
    who = f"does {calls[0]}" if len(calls) == 1 else "can " + ", ".join(calls[:-1]) + f" or {calls[-1]}"
    command = section[:1] in ("1", "6", "8")
    # a configuration file's page (dhcpcd.conf, sshd_config, .netrc): its keywords; not every section-5 page is one
    # (core(5)'s "bit 0", tmpfs(5)'s "never" are values and bits, locale(5) a format)
    conf = styles and section[:1] == "5" and _CONF_NAME.search(name) is not None
    # a page writing its keywords with a colon ("num-threads:") lists values under them without one ("deny",
    # "refuse" under local-zone:): there a keyword is a tag with the colon
    tags = [p.split("\n", 1)[0].split()[0] for c in chunks for p in re.split(r"\n\s*\n", c.text)
            if "\n" in p.strip() and p.split() and _CONF_KEYWORD.match(p.split()[0])] if conf else []
    colon = conf and sum(t.endswith(":") for t in tags) * 2 > len(tags) > 0
    out: list[Fact] = []
    jobs: Counter[str] = Counter()
    conditions: Counter[str] = Counter()
    pending: list[tuple[str, Fact]] = []
    versions_done = {"linux": False, "glibc": False}
    where = ""
    for chunk in chunks:
        text = chunk.text
        paragraphs = _paragraphs(text, where)
        where = paragraphs[-1][0] if paragraphs else where
        if any(w == "VERSIONS" for w, _p, _at in paragraphs) and not all(versions_done.values()):
            versions = "\n\n".join(p for w, p, _at in paragraphs if w == "VERSIONS")
            out.extend(_versions(chunk, versions, name, names, versions_done, skipped))
        # the entry a "Default: 1" paragraph is under: the paragraph just before, or on a page writing its keywords with
        # a colon the last such keyword's, over its further paragraphs and the values listed under it ("solo",
        # "shared" under nest-mode:); (entry paragraph, its offset, its section)
        previous: tuple[str, int, str] | None = None
        for section_of, paragraph, at in paragraphs:
            entry = _entry(paragraph)
            if previous is not None and previous[2] != section_of:
                previous = None
            if entry is None:
                if styles and previous is not None and _DEFAULT_LINE.match(paragraph.strip()):
                    # "num-threads: <number>\nThe number of threads …\n\nDefault: 1": the entry's default, quoted whole
                    before, start, _where = previous
                    entry = _entry(before)
                    quote = text[start:at + len(paragraph)].strip()
                    if entry is not None:
                        out.extend(_defaults(chunk, entry[0], paragraph.strip(), quote, name, section, command, conf,
                                             skipped))
                    previous = None
                elif not colon:
                    previous = None
                continue
            if not colon or tag_keyword(entry[0]):
                previous = (paragraph, at, section_of)
            tag, body = entry
            if conf and section_of not in _NOT_KEYWORDS and _CONF_KEYWORD.match(tag.split()[0]) and (
                    not colon or tag.split()[0].endswith(":")):
                # "background\nFork to the background immediately.": a keyword's job, asked as an option's is
                job = _job(body, styles)
                keyword = tag.split()[0].rstrip(":")
                placeholders = {w.strip(",[]<>|").lower() for w in tag.split()[1:]} - {"or", "and", ""}
                if job:
                    # "Enable or disable whether the server forks …": what the keyword does is decide it
                    job = re.sub(r"^enables or disables whether\b", "controls whether", job)
                if not job or re.match(r"^(?:enables|allows|permits) to\b", job):
                    skipped["man_keyword_no_verb"] += 1  # "Enable to log client query messages": no verb's object
                elif re.search(r"\b(?:the|this|that) option\b", job):
                    # dhcpcd.conf's "request: Requests the option by default …": a value under another keyword,
                    # speaking of an option the question cannot name
                    skipped["man_keyword_refers_back"] += 1
                elif placeholders & {w.strip(",.").lower() for w in job.split()}:
                    skipped["man_option_placeholder"] += 1
                else:
                    jobs[job.lower()] += 1
                    pending.append(("job", Fact(
                        doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=paragraph.strip(), subject=job,
                        about_doc=False, relation=OPTION, answer=keyword, kind=TruthType.ENTITY.value,
                        ask=f"Which option in {name} {{s}}?")))
                out.extend(_defaults(chunk, tag, body, paragraph.strip(), name, section, command, conf, skipped))
                continue
            quote = paragraph.strip()
            first = tag.split()[0].rstrip(",")
            if command and _TAG_OPTION.match(tag) and section_of in ("OPTIONS", "DESCRIPTION", "SYNOPSIS", "COMMAND OPTIONS",
                                                                   "GENERAL OPTIONS"):
                job = _job(body, styles)
                options = [w.rstrip(",") for w in tag.split() if w.startswith("-")]
                # "-o outputfile  Use outputfile for output": the argument's placeholder in a question reads as a word
                placeholders = {w.strip(",[]<>").lower() for w in re.split(r"[\s=]+", tag) if w and not w.startswith("-")}
                if not job:
                    skipped["man_option_no_verb"] += 1
                elif placeholders & {w.strip(",.").lower() for w in job.split()}:
                    skipped["man_option_placeholder"] += 1
                else:
                    jobs[job.lower()] += 1
                    pending.append(("job", Fact(
                        doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=job, about_doc=False,
                        relation=OPTION, answer=first, kind=TruthType.ENTITY.value,
                        ask=f"Which option of {name} {{s}}?", aliases=tuple(o for o in options[1:4] if o != first))))
            elif section_of == "ERRORS" and all(_ERROR_NAME.match(w.strip(",")) or w == "or" for w in tag.split()):
                if section[:1] not in ("2", "3"):
                    # a call or a function returns an error; a protocol's or an overview's page (ip(7), unix(7), aio(7))
                    # or a device's lists the errors of calls it names nowhere in the entry: "Which error does unix
                    # return …?" is no question a person asks (session 49, the lead's read of the reporting folder)
                    skipped["man_error_not_a_call"] += 1
                    continue
                # a parenthesis is an aside ("(i.e., the final component)"): out, not a cut
                # "(sched_setparam()) The caller …": the entry is that call's alone
                own = re.match(r"^\((\w+)\(\)\)", body)
                asked = f"does {own.group(1)}" if own and own.group(1) in names else who
                if body.startswith("(") and not own:
                    # "(on PowerPC) This call is not supported.": a qualifier the question would leave out
                    skipped["man_error_qualified"] += 1
                    continue
                sentence = re.sub(r"\s*\((?:[^()]|\(\))*\)", "", _first_sentence(body)).strip()
                condition = _condition(sentence)
                words = condition.split()
                if not condition:
                    skipped["man_error_condition_cut"] += 1  # "…, but …", "PRIO_PROCESS, PRIO_PGRP, or …"
                    continue
                if _SEE.match(condition) or not 3 <= len(words) <= 16 or not _CLAUSE_VERB.search(condition):
                    skipped["man_error_shape"] += 1
                    continue
                if len(calls) > 4 and asked == who:
                    skipped["man_error_many_calls"] += 1
                    continue
                if words[0].isalpha() and words[0][:1].isupper() and (len(words[0]) == 1 or words[0][1:].islower()):
                    condition = condition[0].lower() + condition[1:]  # "The …" inside the question: "the …"
                conditions[condition.lower()] += 1
                pending.append(("error", Fact(
                    doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=condition, about_doc=False,
                    relation=ERROR, answer=tag.replace(", ", " or ") if " or " not in tag else tag,
                    kind=TruthType.ENTITY.value, ask=f"Which error {asked} return when {{s}}?")))
            if styles:
                out.extend(_defaults(chunk, tag, body, quote, name, section, command, conf, skipped))
                continue
            m = _DEFAULT.search(body)
            if m and (first.startswith("-") and command or _KEYWORD.match(first) and section[:1] == "5"):
                value = m.group("v").strip("\"“”'").rstrip(".")
                if _is_list(value, m.group("after")):
                    skipped["man_default_list"] += 1
                elif _CONDITION.match(m.group("after")) or not value or len(value.split()) > 3 or value.lower() in (
                        "the", "a", "an", "to", "is", "none", "not", "that", "this", "be", "being") or re.fullmatch(
                        r"[a-z]+(?:ed|en)", value):  # "… may be overridden": a participle is no value
                    skipped["man_default_shape"] += 1
                else:
                    ask = (f"What is the default value of the {first} option of {name}?" if first.startswith("-")
                           else f"What is the default value of {first} in {name}?")
                    out.append(Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=first,
                                    about_doc=False, relation=DEFAULT, answer=value, kind=_value_kind(value),
                                    ask=ask.replace(first, "{s}", 1)))
    if styles:
        kept = [f for f in out if not _UNFILLED.search(f.answer + " " + f.subject + " " + f.ask)]
        skipped["man_unfilled_variable"] += len(out) - len(kept)
        out = kept
    for kind, fact in pending:
        if styles and _UNFILLED.search(fact.answer + " " + fact.subject + " " + fact.ask):
            skipped["man_unfilled_variable"] += 1
            continue
        if kind == "job" and jobs[fact.subject.lower()] > 1:
            skipped["man_option_same_job"] += 1
            continue
        if kind == "error" and conditions[fact.subject.lower()] > 1:
            skipped["man_error_shared"] += 1
            continue
        out.append(fact)
    return out


def tag_keyword(tag: str) -> bool:
    """Whether a tag is a keyword as a page writing its keywords with a colon writes one ("num-threads: <number>")."""
    return tag.split()[0].endswith(":") and _CONF_KEYWORD.match(tag.split()[0]) is not None


def _defaults(chunk: Any, tag: str, body: str, quote: str, name: str, section: str, command: bool, conf: bool,
              skipped: Counter) -> list[Fact]:
    """(man_styles) The default an option's or a configuration keyword's entry states: session 49's shapes, and
    "Default: X" / "Default is X" (Unbound's pages); a keyword as its page writes it ("num-threads:") in a
    configuration file's page."""
    first = tag.split()[0].rstrip(",")
    keyword = first.rstrip(":")
    if not (first.startswith("-") and command or (_KEYWORD.match(first) or conf and _CONF_KEYWORD.match(first))
            and section[:1] == "5"):
        return []
    m = _DEFAULT_STYLES.search(body)
    if not m:
        return []
    value = m.group("v").strip("\"“”'").rstrip(".")
    if _is_list(value, m.group("after")):
        skipped["man_default_list"] += 1
        return []
    if _CONDITION.match(m.group("after")) or not value or len(value.split()) > 3 or value.lower() in (
            "the", "a", "an", "to", "is", "none", "not", "that", "this", "be", "being", "depends") or re.fullmatch(
            r"[a-z]+(?:ed|en)", value):
        skipped["man_default_shape"] += 1
        return []
    ask = (f"What is the default value of the {keyword} option of {name}?" if keyword.startswith("-")
           else f"What is the default value of {keyword} in {name}?")
    relation = DEFAULT_SWITCH if value.lower() in ("yes", "no", "on", "off", "enabled", "disabled") else DEFAULT
    return [Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=keyword, about_doc=False,
                 relation=relation, answer=value, kind=_value_kind(value), ask=ask.replace(keyword, "{s}", 1))]


def _value_kind(value: str) -> str:
    return TruthType.NUMBER.value if re.match(r"^\d", value) else TruthType.ENTITY.value


def _versions(chunk: Any, text: str, name: str, names: list[str], done: dict[str, bool],
              skipped: Counter) -> list[Fact]:
    """The Linux / glibc version VERSIONS says the page's call appeared in (its first such clause each)."""
    out = []
    last = name  # a clause naming no call speaks of the one the paragraph named last ("…; library support was …")
    for paragraph in re.split(r"\n\s*\n", text):
        last = name
        for clause in re.split(r"(?<=[.;])\s+|,\s+(?:but|and|while)\s+", " ".join(paragraph.split())):
            called = re.findall(r"\b([A-Za-z_]\w*)\(\)", clause)
            subject = called[0] if called else last
            last = subject
            if not _ADDED_VERB.search(clause) or _REMOVED.search(clause):
                continue
            if subject not in names or _CONSTANT.search(clause.split(" first ")[0].split(" was ")[0]):
                skipped["man_version_other_call"] += 1  # another call's, or a flag's ("MS_UNBINDABLE were added")
                continue
            if not called and not _about_the_page(clause, subject):
                skipped["man_version_other_thing"] += 1  # "The /proc interfaces were introduced in Linux 2.2."
                continue
            out.extend(_version_fact(chunk, clause, subject, done))
    return out


_SUBJECT_END = re.compile(r"\b(?:is|are|was|were|has|have|had|first|appeared|added|introduced)\b")


def _about_the_page(clause: str, name: str) -> bool:
    """Whether a clause naming no call speaks of the page's own: its subject (the words before its verb) names the page
    ("Cpusets appeared …" on cpuset(7), "Mount namespaces first appeared …"), points back to it ("This system call
    …", "These functions …", "The asynchronous I/O system calls …") or is its support ("library support was added to
    glibc …" after the call's own clause); not another thing the page describes ("The /proc interfaces were
    introduced …" on socket(7), "Support for VMware (VMCI) has been available …" on vsock(7)) nor a relative
    clause ("library functions that have been added to glibc since …")."""
    end = _SUBJECT_END.search(clause)
    subject = clause[:end.start()].strip().lower() if end else clause.lower()
    if re.search(r"\b(?:that|which|who)$", subject):
        return False
    page = name.lower().replace("_", " ")
    return (page in subject or subject.startswith(("this ", "these "))
            or re.match(r"^(?:(?:c library|library|working|glibc|kernel)\s+)?support"
                        r"(?:\s+in\s+(?:glibc|the kernel|linux))?(?:\s*\(.*\))?$", subject) is not None
            or re.match(r"^the\b.*\b(?:system calls?|system call wrappers?|functions?)$", subject) is not None)


def _version_fact(chunk: Any, clause: str, subject: str, done: dict[str, bool]) -> list[Fact]:
    """The Linux or glibc version one clause states for `subject`, once per page each."""
    found = [(which, m) for which, rx in (("linux", _LINUX), ("glibc", _GLIBC)) if (m := rx.search(clause))]
    if len(found) != 1 or done[found[0][0]]:
        return []  # none, or both in one clause: whose version is whose is not read
    which, m = found[0]
    version = (m.group("v") or m.group("w")) if which == "linux" else m.group("v")
    done[which] = True
    quote = clause.strip()
    if quote not in chunk.text:  # a clause over a line end: the chunk's own words from its first one
        start = chunk.text.find(quote.split()[0])
        quote = chunk.text[start:start + len(quote) + 20] if start >= 0 else quote
    relation, ask = ((ADDED, "In which Linux version was {s} added?") if which == "linux"
                     else (GLIBC, "In which glibc version was support for {s} added?"))
    return [Fact(doc_id=chunk.doc_id, chunk_id=chunk.chunk_id, sentence=quote, subject=subject, about_doc=False,
                 relation=relation, answer=version, kind=TruthType.ENTITY.value, ask=ask)]
