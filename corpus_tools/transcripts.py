"""Transcripts: WebVTT (.vtt) and SubRip (.srt) files read as turns of speakers, each with its start time.

Meeting tools export captions (Zoom and Otter write "Name: text" cues, Teams writes `<v Name>` voice tags);
a search engine that indexed the cue blocks as prose would give a passage no speaker and no time and would
index every timestamp as words. Here a file's cues become *turns*: consecutive cues of one speaker merge
into one turn (captions split a sentence over cues of a few seconds), and the document's text is one
"Speaker: text" line a turn — the shape the conversation kind (`corpus_tools.corpus_kind`) and datagen's
speaker readers already read in a chat export. Each turn is a `DocumentPart` of kind "turn" whose section
is its start time ("00:12:31") and whose context is its speaker, so `chunking.chunk_turns` can say where a
passage is. A cue without a speaker continues the turn before it (a caption file with a speaker only on
the first cue of an utterance); a file with no speaker at all is one turn of text.

Forgiving of what real exports hold: a byte-order mark, CRLF or CR line ends, a missing "WEBVTT" header,
NOTE / STYLE / REGION blocks, cue identifiers, cue settings after the timing ("align:start position:0%"),
markup (`<c.color>`, `<i>`, `<b>`, `<u>`, `<00:00:01.000>` karaoke stamps, `{\\an8}`), HTML entities,
overlapping or out-of-order times (kept in file order: the file's order is the order things were said).
A cue whose timing line is malformed keeps its text and takes no time. A file with no timing line at all
is no transcript: `UnreadableFileError`, which the loader reports as a skipped file.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from corpus_tools.readers import TRANSCRIPT_SUFFIXES, UnreadableFileError
from corpus_tools.types import DocumentPart

__all__ = ["TRANSCRIPT_SUFFIXES", "Turn", "clock", "parse_cues", "parse_time", "read_transcript", "read_turns"]

_ARROW = "-->"
# "01:02:03.456", "02:03.456" (WebVTT may leave out the hours), "01:02:03,456" (SubRip); a dot or a comma either way
_TIME = re.compile(r"^\s*(?:(\d{1,3}):)?([0-5]?\d):([0-5]?\d)(?:[.,](\d{1,3}))?\s*$")
_VOICE = re.compile(r"<v(?:\.[\w.-]+)?\s+([^>]+)>", re.IGNORECASE)
_TAG = re.compile(r"</?[a-z][^>]*>|<\d{1,2}:\d{2}[:.,\d]*>", re.IGNORECASE)
_ASS = re.compile(r"\{\\[^}]*\}")  # SubRip files written from ASS keep "{\an8}" position codes
# "Name: text", "First Last: text", "Speaker 1: text", "Dr. Jane Roe: text": up to four words, each capitalised
# or a number, before a colon and a space. Labels that open a caption the same way are no speakers.
_NAMED = re.compile(r"^([A-Z][\w'’.-]*(?: (?:[A-Z][\w'’.-]*|\d+|de|van|von|da|di|la|le)){0,3}):\s+(\S.*)$")
_NOT_SPEAKERS = frozenset({"note", "notes", "music", "applause", "laughter", "narrator note", "translation",
                           "subtitle", "subtitles", "caption", "captions", "warning", "update", "http", "https"})
_BLOCK_WORDS = ("NOTE", "STYLE", "REGION")


@dataclass(frozen=True)
class Turn:
    """What one speaker said without interruption: their cues merged. start: seconds, None when unknown."""

    speaker: str
    text: str
    start: float | None = None


def parse_time(text: str) -> float | None:
    """Seconds of a cue timestamp ("00:01:02.500", "01:02,5", "1:02:03"), None when it is no timestamp."""
    m = _TIME.match(text)
    if m is None:
        return None
    hours, minutes, seconds, fraction = m.groups()
    value = int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds)
    return value + (int(fraction.ljust(3, "0")) / 1000 if fraction else 0.0)


def clock(seconds: float) -> str:
    """"hh:mm:ss" of a time in seconds (fractions dropped): how a passage's place in a recording is shown."""
    whole = int(seconds)
    return f"{whole // 3600:02d}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def _blocks(text: str) -> list[list[str]]:
    lines = text.replace("\ufeff", "").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks, block = [], []
    for line in lines:
        if line.strip():
            block.append(line.rstrip())
        elif block:
            blocks.append(block)
            block = []
    if block:
        blocks.append(block)
    return blocks


def _cue_speaker(lines: list[str]) -> tuple[str, str]:
    """(speaker, plain text) of a cue's text lines: a `<v Name>` voice tag, else a "Name: " opening, else ""."""
    raw = " ".join(line.strip() for line in lines)
    voice = _VOICE.search(raw)
    speaker = " ".join(voice.group(1).split()) if voice else ""
    plain = " ".join(html.unescape(_ASS.sub("", _TAG.sub("", raw))).split())
    if not speaker:
        named = _NAMED.match(plain)
        if named and named.group(1).lower() not in _NOT_SPEAKERS:
            speaker, plain = named.group(1), named.group(2).strip()
    return speaker, plain


def parse_cues(text: str) -> list[Turn]:
    """Every cue of a WebVTT or SubRip text, in file order, as a one-cue Turn (speaker "" when none is named).

    UnreadableFileError-free: the caller decides what no cue means (see `read_turns`).
    """
    cues: list[Turn] = []
    for block in _blocks(text):
        if block[0].strip().startswith("WEBVTT"):
            block = block[1:]  # the header (a cue written right under it, with no blank line, is still read)
        if not block or block[0].strip().split(" ", 1)[0] in _BLOCK_WORDS and _ARROW not in block[0]:
            continue  # the header's own lines, a comment, a style sheet, a region
        timing = next((i for i, line in enumerate(block[:3]) if _ARROW in line), None)
        if timing is None:
            continue  # a block with no timing line: a stray id or header text, nothing said
        start = parse_time(block[timing].split(_ARROW, 1)[0])
        if start is not None:  # the end (and the cue settings after it) must read too, else the line is malformed
            end_part = block[timing].split(_ARROW, 1)[1].strip().split()
            if not end_part or parse_time(end_part[0]) is None:
                start = None
        speaker, plain = _cue_speaker(block[timing + 1:])
        if plain:
            cues.append(Turn(speaker, plain, start))
    return cues


def merge_turns(cues: list[Turn]) -> list[Turn]:
    """Consecutive cues of one speaker as one turn (a cue naming nobody continues the turn before it);
    a turn's start is its first timed cue's."""
    turns: list[Turn] = []
    for cue in cues:
        if turns and (not cue.speaker or cue.speaker == turns[-1].speaker):
            last = turns[-1]
            turns[-1] = Turn(last.speaker, f"{last.text} {cue.text}", last.start if last.start is not None else cue.start)
        else:
            turns.append(cue)
    return turns


def read_turns(text: str) -> list[Turn]:
    """The turns of a transcript text; UnreadableFileError when it has no cue (no "start --> end" line), or
    cues that hold no text."""
    if not text.strip():
        return []
    if _ARROW not in text and text.lstrip("\ufeff \t\r\n").startswith("WEBVTT"):
        raise UnreadableFileError("WebVTT file with no cues (no \"00:00:01.000 --> 00:00:04.000\" timing line)")
    if _ARROW not in text:
        raise UnreadableFileError("not a subtitle/caption transcript: no cue timing line (\"00:00:01.000 --> "
                                  "00:00:04.000\") found")
    cues = parse_cues(text)
    if not cues:
        raise UnreadableFileError("transcript has timing lines but no cue text")
    return merge_turns(cues)


def transcript_text(turns: list[Turn]) -> tuple[str, tuple[DocumentPart, ...]]:
    """(text, parts) of a document made of turns: one "Speaker: text" line a turn (the text alone when no
    speaker is known), each line a part of kind "turn" with the turn's start time as its section and its
    speaker as its context."""
    lines, parts, pos = [], [], 0
    for turn in turns:
        line = f"{turn.speaker}: {turn.text}" if turn.speaker else turn.text
        section = clock(turn.start) if turn.start is not None else ""
        parts.append(DocumentPart(pos, pos + len(line), None, section, "turn", turn.speaker))
        lines.append(line)
        pos += len(line) + 1
    return "\n".join(lines), tuple(parts)


def read_transcript(text: str) -> tuple[str, tuple[DocumentPart, ...]]:
    """(text, parts) of a WebVTT or SubRip file's text (see the module's docstring); ("", ()) for an empty one."""
    return transcript_text(read_turns(text))
