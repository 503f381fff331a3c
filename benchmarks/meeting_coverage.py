"""How many of a meeting set's real questions' facts the generated tasks hold (issue 36: a recall figure only).

    python benchmarks/meeting_coverage.py TASKS.jsonl QUERIES.jsonl [RELATION_PREFIX]

QUERIES: JSON lines with "question", "answer" and "meeting" (ELITR's export). A real question is *covered* when a
generated task whose gold document is that meeting, sharing a content word with it, has an answer that matches
the real answer: one, folded
(lower case, no punctuation, "the" / "a" dropped), holds the other, and the shorter has at least three characters
("Overleaf" in "Overleaf"; "next Friday, Feb 21" against "21.02.2020 (Feb 21st)" is no match: read the pairs).
Every match is printed with both questions, to be read: an answer can match by chance ("[PERSON6]").
RELATION_PREFIX: count only tasks whose first relation starts with it ("meet:" = the meeting readers' tasks).
"""
from __future__ import annotations

import ast
import json
import re
import sys


def _fold(text: str) -> str:
    words = re.sub(r"[^\w\[\]]+", " ", text.lower()).split()
    return " ".join(w for w in words if w not in ("the", "a", "an"))


def _relation(task: dict) -> str:
    """A task's first relation (its metadata is written as a Python literal in tasks.jsonl)."""
    meta = task.get("metadata") or {}
    meta = ast.literal_eval(meta) if isinstance(meta, str) else meta
    return (meta.get("relations") or [""])[0]


_ASKING = frozenset("what which when where will would should could does were there about this that with from have "
                    "been into meeting".split())


def _content(question: str) -> set[str]:
    """A question's words of four letters or more that are no question words: a matching answer counts only
    when the two questions share one ("[PERSON6]" answers many questions)."""
    return {w for w in _fold(question).split() if len(w) >= 4 and w not in _ASKING}


def matches(generated: str, real: str) -> bool:
    g, r = _fold(generated), _fold(real)
    short, long = sorted((g, r), key=len)
    return len(short) >= 3 and re.search(rf"(?<![\w\[]){re.escape(short)}(?![\w\]])", long) is not None


def main() -> None:
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: python benchmarks/meeting_coverage.py TASKS.jsonl QUERIES.jsonl [RELATION_PREFIX]")
    prefix = sys.argv[3] if len(sys.argv) == 4 else ""
    tasks = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    tasks = [t for t in tasks if not prefix or _relation(t).startswith(prefix)]
    real = [json.loads(line) for line in open(sys.argv[2]) if line.strip()]
    covered = 0
    for q in real:
        hits = [t for t in tasks if any(g.startswith(q["meeting"]) for g in t["gold_doc_ids"])
                and any(matches(a, q["answer"]) for a in t["answers"]) and _content(t["query"]) & _content(q["question"])]
        if hits:
            covered += 1
            for t in hits:
                print(f"  {q['question']} → {q['answer']}\n    generated: {t['query']} → {t['answers'][0]}")
    print(f"covered: {covered} of {len(real)} real questions by {len(tasks)} generated tasks")


if __name__ == "__main__":
    main()
