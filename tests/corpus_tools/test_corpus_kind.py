"""What kind of corpus an index is, from its documents' text (issue 34, session 38): chat exports are a
conversation whatever they are called; Wikipedia-like pages, filings, mail and labelled notes are not."""

from __future__ import annotations

from dataclasses import dataclass

from corpus_tools.corpus_kind import CONVERSATION, DOCUMENTS, corpus_kind, kind_of_texts, opening_speaker

CHAT = [
    "Caroline: I went to a support group yesterday.\nMelanie: That sounds powerful!",
    "Melanie: I painted a lake last week.\nCaroline: Send me a photo!",
    "Emily: Hello, my name is Emily.\nAssistant: Hello, Emily. Can I assist you?",
    "Sage Brook: We moved to Lisbon in May.\nEmery: How is the new flat?",
]
PAGES = [
    "Veldhaven is a river town founded by salt merchants in 1412.",
    "Ilsa Marrow (born 1961) is a glassblower and the mayor of Veldhaven.",
    "Korrin Bay: a small harbour village on the Grey Sea.",  # one page opening with its own name and a colon
    "The almanac lists the tides of the Grey Sea.",
]
MAIL = [
    "From: Tomasz Wren <t.wren@x.example>\nTo: Ada Quill\nSubject: budget\n\nAda: see the sheet.",
    "From: Ada Quill <ada@x.example>\nSubject: Re: budget\n\nThanks, Tomasz.",
]


@dataclass
class _Chunk:
    text: str
    position: int = 0


class _Corpus:
    """Stand-in with what `corpus_kind` reads: document ids and their chunks."""

    def __init__(self, texts: list[str]) -> None:
        self.docs = {f"d{i}": [_Chunk("…a later chunk", 1), _Chunk(t, 0)] for i, t in enumerate(texts)}

    def doc_ids(self) -> list[str]:
        return list(self.docs)

    def chunks(self, doc_id: str) -> list[_Chunk]:
        return self.docs[doc_id]


def test_a_speaker_line_names_its_speaker_and_a_header_or_label_names_none():
    assert opening_speaker("  Caroline: Hey Mel!") == "Caroline"
    assert opening_speaker("Sage Brook: We moved.") == "Sage Brook"
    for text in ("Subject: budget", "From: Ada <a@x>", "Note: figures in thousands", "Q: and A:", "plain text: no",
                 "Veldhaven is a town."):
        assert opening_speaker(text) == "", text


def test_chats_are_a_conversation_and_pages_mail_and_labelled_notes_are_not():
    assert kind_of_texts(CHAT) == CONVERSATION
    assert kind_of_texts(CHAT[:2] + PAGES[:2]) == CONVERSATION  # half the documents chat: a chat export with notes
    assert kind_of_texts(PAGES) == DOCUMENTS
    assert kind_of_texts(PAGES + CHAT[:1]) == DOCUMENTS  # one chat among pages
    assert kind_of_texts(MAIL) == DOCUMENTS
    assert kind_of_texts([f"Summary {i}: the quarter's notes." for i in range(5)]) == DOCUMENTS
    assert kind_of_texts(["Lumen: a note.", "Lumen: another note."]) == DOCUMENTS  # one label, no one talking
    assert kind_of_texts([]) == DOCUMENTS


def test_corpus_kind_reads_each_documents_first_chunk_and_a_stand_in_without_documents_is_no_conversation():
    assert corpus_kind(_Corpus(CHAT)) == CONVERSATION
    assert corpus_kind(_Corpus(PAGES)) == DOCUMENTS
    assert corpus_kind(_Corpus(CHAT * 300), sample=50) == CONVERSATION  # a sample of a large index
    assert corpus_kind(None) == DOCUMENTS and corpus_kind(object()) == DOCUMENTS


def test_an_index_of_pages_is_no_conversation_and_one_of_chat_sessions_is(corpus, tmp_path, config):
    from corpus_tools import Corpus, Document

    assert corpus_kind(corpus) == DOCUMENTS  # the mini corpus: towns, people, ships
    sessions = [Document(f"s{i}", t, title=f"session {i}") for i, t in enumerate(CHAT)]
    with Corpus.build(sessions, tmp_path / "chat", config=config, progress=False) as chat:
        assert corpus_kind(chat) == CONVERSATION
