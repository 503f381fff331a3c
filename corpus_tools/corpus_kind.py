"""What kind of documents an index holds, read from their text: a conversation or other documents.

A conversation corpus is exported chat: each document a session or a single turn whose text opens with
a speaker line ("Caroline: I went to …"). Nothing else is asked of the index (no benchmark name, no reader
tag: an export indexed from JSONL and a benchmark loader's turns look the same), so a user's own chat
export is recognised as LoCoMo's is. Read from the first chunk of about 2 x `KIND_SAMPLE` documents spread
evenly over the index (like `info.metadata_fields`), so it answers at once on a large index.

Measured on session 37's indexes (share of sampled documents opening with a speaker line): MemoryBank,
MSC, the LoCoMo export and the LoCoMo benchmark index 1.00; HotpotQA .005, MuSiQue .010, SciFact .005,
the 10-Q filings 0 — the rule's threshold sits far from both.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

CONVERSATION = "conversation"
DOCUMENTS = "documents"
KINDS = (CONVERSATION, DOCUMENTS)

KIND_SAMPLE = 200  # documents whose first chunk is read
# Most sampled documents must open with a speaker line, and the lines name at least two speakers (a
# corpus of "Summary: …" notes names one label, not people talking).
SPEAKER_SHARE = 0.5
MIN_SPEAKERS = 2

# "Name: " or "First Last: " at a line start (up to three capitalised words), as datagen's chat readers
# read a speaker (datagen/naming.py `_SPEAKER`).
_SPEAKER = re.compile(r"^([A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,2}):\s")
# Words that open a line the same way but name a field, not a speaker: a mail's headers (mail is
# not the chat the conversation prior was fit on) and a document's labels.
_NOT_SPEAKERS = frozenset({
    "from", "to", "cc", "bcc", "date", "sent", "subject", "reply-to", "re", "fw", "fwd",
    "note", "notes", "table", "figure", "item", "part", "section", "chapter", "summary", "abstract",
    "background", "title", "source", "question", "answer", "q", "a",
})


def opening_speaker(text: str) -> str:
    """The speaker whose line opens `text` ("Caroline: Hey Mel!" -> "Caroline"), or "" (no speaker line,
    or a header/label word such as "Subject:" or "Note 3:")."""
    m = _SPEAKER.match(text.lstrip())
    if m is None or m.group(1).lower() in _NOT_SPEAKERS or m.group(1).split()[0].lower() in _NOT_SPEAKERS:
        return ""
    return m.group(1)


def kind_of_texts(texts: list[str], read: Callable[[str], str] = opening_speaker) -> str:
    """CONVERSATION when most texts open with a speaker line and their speaker lines (any line of them)
    name two speakers or more, else DOCUMENTS (also for no texts). `read`: the speaker a line opens with
    (`speakers.label_speaker` also reads a committee's labels)."""
    opened = sum(1 for t in texts if read(t))
    speakers = {s for t in texts for line in t.splitlines() if (s := read(line))}
    if texts and opened >= SPEAKER_SHARE * len(texts) and len(speakers) >= MIN_SPEAKERS:
        return CONVERSATION
    return DOCUMENTS


def sampled(n: int, sample: int = KIND_SAMPLE) -> list[int]:
    """Positions of the documents read of `n`: about `sample` evenly spaced, each with the one after it (an
    index of single turns, one document per line said, sampled at an even step could otherwise meet one
    speaker only)."""
    step = max(1, -(-n // sample))
    return sorted(set(range(0, n, step)) | set(range(1, n, step)))


def corpus_kind(corpus: Any, sample: int = KIND_SAMPLE) -> str:
    """CONVERSATION or DOCUMENTS for an opened `Corpus` (anything with `doc_ids()` and `chunks(doc_id)`);
    DOCUMENTS for None or an object without them (a test's stand-in corpus)."""
    if corpus is None or not (hasattr(corpus, "doc_ids") and hasattr(corpus, "chunks")):
        return DOCUMENTS
    ids = corpus.doc_ids()
    texts = []
    for doc_id in (ids[i] for i in sampled(len(ids), sample)):
        chunks = corpus.chunks(doc_id)
        if chunks:
            texts.append(min(chunks, key=lambda c: c.position).text)
    return kind_of_texts(texts)
