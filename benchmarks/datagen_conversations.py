"""Conversations as a user would export them, and the tasks `context1 datagen` makes of them, per session.

`export` writes LoCoMo's conversations as a user's chat export: plain JSONL, one session per record
({"id", "title", "text"}: nothing of the benchmark loader's metadata), the date only in the title,
"speaker: text" lines. The five development conversations are split by conversation: the tuning part
(26, 30, 41) is what the readers were developed on; the reporting part (42, 43) is only measured.

    python benchmarks/datagen_conversations.py export --part report OUT/report.jsonl
    context1 index OUT/report.jsonl OUT/report-index
    context1 datagen OUT/report-index OUT/report-tasks --n 150 --seed 1

`export-msc` writes a second, non-LoCoMo set the same way: Multi-Session Chat (MSC; Xu, Szlam and Weston,
"Beyond Goldfish Memory", 2022; crowdworkers' chats, each three sessions hours to days apart), from
its session-3 file (one JSON line a conversation: two `previous_dialogs` and the third `dialog`, each
with `time_num`/`time_unit` gaps). MSC's speakers are "Speaker 1/2"; a user's export names them, so
each conversation's two speakers get two first names no other conversation uses (seeded), and each
session a date: a seeded start, then MSC's own gaps. Only the chosen conversations are written:

    python benchmarks/datagen_conversations.py export-msc MSC/session_3/test.txt OUT/msc.jsonl \
        --conversations 30 --seed 33

`export-mail` writes a mailbox the same way: one message per record, its subject and date in the title,
"From:/To:/Cc:" lines and the body as text (what a user's mail export holds; no folder or message-id
metadata). Its source is the Enron corpus in the CSV layout most copies use (a `file,message` header;
each message the raw RFC 822 text of CMU's maildir release), e.g. the 103-message random sample in
github.com/SnehaPadmaraj/ner-model (emails_sample.csv):

    python benchmarks/datagen_conversations.py export-mail emails_sample.csv OUT/mail.jsonl

`export-memorybank` writes a third set of another style: MemoryBank's English evaluation chats (Zhong et al.,
"MemoryBank: Enhancing Large Language Models with Long-Term Memory", AAAI 2024; github.com/zhongwanjun/
MemoryBank-SiliconFriend, MIT licence, eval_data/en/memory_bank_en.json): 15 people, each talking with an AI
companion on ten days in a row (LLM-written; the person tells, the companion asks and recommends). One record a
day, the person's name and the day in the title, "Name: …" and "Assistant: …" lines:

    python benchmarks/datagen_conversations.py export-memorybank memory_bank_en.json OUT/mb.jsonl

`table` prints, for each run folder, the tasks written, the sessions of its corpus, tasks per session,
the lines that say when something happened ("yesterday", "last week": what a date question needs) and
tasks per such line, and the forms and answer types:

    python benchmarks/datagen_conversations.py table tune=OUT/tune-tasks report=OUT/report-tasks \
        --corpus tune=OUT/tune.jsonl --corpus report=OUT/report.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus_tools.mail_reader import display_name  # noqa: E402
from eval.loaders.locomo import load_locomo  # noqa: E402

PARTS = {"tune": ("26", "30", "41"), "report": ("42", "43")}


def export(part: str, data_dir: Path, out: Path) -> int:
    """Write one part's sessions as plain JSONL records; returns the number written."""
    paths = [data_dir / f"locomo10_conv{n}.json" for n in PARTS[part]]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        sys.exit(f"missing conversation files: {missing} (see {data_dir}/README.md)")
    docs = load_locomo(paths, unit="session").documents
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as f:
        for d in docs:
            f.write(json.dumps({"id": d.doc_id.replace("/", "-"), "title": d.title, "text": d.text}) + "\n")
    return len(docs)


# first names for MSC's anonymous speakers: one per person, never shared by two conversations
_NAMES = (
    "Alex Jordan Taylor Morgan Casey Riley Jamie Avery Quinn Drew Robin Sam Chris Dana Lee Pat Kim Jesse Cameron "
    "Reese Sky Rowan Emery Kendall Blake Parker Hayden Jules Logan Micah Noel Peyton Remy Sage Shawn Terry Toby Val "
    "Wren Ari Bailey Charlie Devon Eden Finley Gray Harper Indigo Jody Kai Lane Marlow Nico Oakley Perry Rene Sasha "
    "Tatum Uri Vic"
).split()
_SECONDS = {"hour": 3600, "hours": 3600, "day": 86400, "days": 86400, "week": 604800, "weeks": 604800}


def export_msc(source: Path, out: Path, conversations: int, seed: int) -> int:
    """Write `conversations` MSC conversations (seeded choice) as one record per session; returns the
    number of sessions written."""
    import datetime as dt
    import random

    if not source.is_file():
        sys.exit(f"no MSC session file at {source} (MSC's msc_dialogue/session_3/test.txt)")
    rows = [json.loads(line) for line in source.open(encoding="utf-8") if line.strip()]
    if conversations > len(rows) or 2 * conversations > len(_NAMES):
        sys.exit(f"--conversations must be at most {min(len(rows), len(_NAMES) // 2)}")
    rng = random.Random(seed)
    chosen = sorted(rng.sample(range(len(rows)), conversations))
    names = random.Random(seed + 1).sample(_NAMES, 2 * conversations)
    out.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with out.open("w", encoding="utf-8") as f:
        for k, i in enumerate(chosen):
            row = rows[i]
            a, b = names[2 * k], names[2 * k + 1]
            rng.random()  # a draw the first export made here; kept so that this command rebuilds session 33's set
            when = dt.datetime(2022, 1, 3, 10, 0) + dt.timedelta(days=rng.randrange(500), minutes=rng.randrange(600))
            sessions = [*row["previous_dialogs"], row]
            for n, session in enumerate(sessions, start=1):
                if n > 1:  # MSC's gap before this session, given on the one before
                    gap = sessions[n - 2]
                    when += dt.timedelta(seconds=gap["time_num"] * _SECONDS[gap["time_unit"]])
                lines = [f"{a if j % 2 == 0 else b}: {' '.join(turn['text'].split())}"
                         for j, turn in enumerate(session["dialog"])]
                stamp = f"{when.strftime('%I:%M %p').lstrip('0').lower()} on {when.day} {when.strftime('%B')}, {when.year}"
                f.write(json.dumps({"id": f"msc{i}-D{n}", "title": f"{a} & {b}, session {n} ({stamp})",
                                    "text": "\n".join(lines)}) + "\n")
                written += 1
    return written


def _people(names: str, addresses: str) -> str:
    """The To/Cc list as "Name <address>" where X-To names pair one to one with the addresses."""
    addrs = [a.strip() for a in addresses.replace("\n", " ").split(",") if a.strip()]
    # X-To entries: "Last, First </O=...>" (a comma inside a name) or "First Last" / "a@b.com"
    shown = re.findall(r"[^,<>]+,[^,<>]+?\s*</O=[^>]*>|[^,]+", names) if "</O=" in names else names.split(",")
    shown = [display_name(n) for n in shown if n.strip()]
    if len(shown) != len(addrs):
        return ", ".join(addrs)
    return ", ".join(f"{n} <{a}>" if n else a for n, a in zip(shown, addrs, strict=True))


def export_mail(source: Path, out: Path) -> int:
    """Write each message of an Enron CSV (`file,message`) as one record; returns the number written."""
    import csv
    import email
    import email.utils

    if not source.is_file():
        sys.exit(f"no mail CSV at {source} (a `file,message` CSV of Enron messages)")
    csv.field_size_limit(1 << 30)
    with source.open(encoding="utf-8", errors="replace", newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "message" not in rows[0]:
        sys.exit(f"{source} has no `message` column")
    out.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with out.open("w", encoding="utf-8") as f:
        for row in rows:
            msg = email.message_from_string(row["message"])
            when = email.utils.parsedate_to_datetime(msg["Date"]) if msg["Date"] else None
            if when is None:
                continue
            sender = display_name(msg.get("X-From", "")) or (msg["From"] or "").strip()
            address = (msg["From"] or "").strip()
            lines = [f"From: {sender} <{address}>" if sender != address else f"From: {address}"]
            for header, shown in (("To", "X-To"), ("Cc", "X-cc")):
                if msg[header]:
                    lines.append(f"{header}: {_people(msg.get(shown, ''), msg[header])}")
            body = msg.get_payload()
            subject = " ".join((msg["Subject"] or "").split()) or "(no subject)"
            title = f"{subject} ({when.day} {when.strftime('%B')} {when.year})"
            doc_id = "mail-" + re.sub(r"[^\w.-]+", "-", row.get("file") or str(written)).strip("-.")
            f.write(json.dumps({"id": doc_id, "title": title, "text": "\n".join(lines) + "\n\n" + body.strip()}) + "\n")
            written += 1
    return written


def export_memorybank(source: Path, out: Path) -> int:
    """Write each person's dated chats with the companion as one record a day; returns the number written."""
    import datetime as dt

    if not source.is_file():
        sys.exit(f"no MemoryBank file at {source} (eval_data/en/memory_bank_en.json)")
    try:
        people = json.loads(source.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        sys.exit(f"{source} is not MemoryBank's JSON: {e}")
    out.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with out.open("w", encoding="utf-8") as f:
        for key, person in people.items():
            name = " ".join(str(person.get("name") or key).split())
            days = sorted((person.get("history") or {}).items())
            for n, (day, turns) in enumerate(days, start=1):
                when = dt.date.fromisoformat(day)
                lines = []
                for turn in turns:  # the person speaks first, the companion answers
                    for speaker, said in ((name, turn.get("query")), ("Assistant", turn.get("response"))):
                        if said and said.strip():
                            lines.append(f"{speaker}: {' '.join(said.split())}")
                if not lines:
                    continue
                stamp = f"{when.day} {when.strftime('%B')}, {when.year}"
                doc_id = "mb-" + re.sub(r"\W+", "-", name).strip("-") + f"-D{n}"
                f.write(json.dumps({"id": doc_id, "title": f"{name} & Assistant, session {n} ({stamp})",
                                    "text": "\n".join(lines)}) + "\n")
                written += 1
    return written


def table(runs: list[str], corpora: dict[str, str]) -> None:
    import datetime as dt

    from datagen.dates import relative_dates

    print("| part | sessions | lines with a relative date / session | tasks | tasks / session | tasks / dated line "
          "| hops | forms | answer types |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |")
    for spec in runs:
        label, _, folder = spec.partition("=")
        tasks = [json.loads(line) for line in (Path(folder) / "tasks.jsonl").open(encoding="utf-8") if line.strip()]
        records = [json.loads(line) for line in Path(corpora[label]).open(encoding="utf-8") if line.strip()]
        sessions = len(records)
        # what a date question needs: a line that says when ("yesterday", "last week"; any anchor finds them)
        dated = sum(1 for r in records for line in r["text"].split("\n") if relative_dates(line, dt.date(2023, 1, 1)))
        hops = Counter(len(t.get("gold_doc_ids") or ()) for t in tasks)
        forms = Counter(str((t.get("metadata") or {}).get("form", "?")) for t in tasks)
        types = Counter(str((t.get("metadata") or {}).get("truth_type", "?")) for t in tasks)
        print(
            f"| {label} | {sessions} | {dated / max(sessions, 1):.2f} | {len(tasks)} | {len(tasks) / max(sessions, 1):.2f} "
            f"| {len(tasks) / max(dated, 1):.2f} | {dict(sorted(hops.items()))} "
            f"| {dict(forms.most_common())} | {dict(types.most_common())} |"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("export", help="one part's sessions as a user's JSONL export")
    ex.add_argument("--part", choices=sorted(PARTS), required=True)
    ex.add_argument("--data-dir", default="../shared/data/locomo")
    ex.add_argument("out")
    ms = sub.add_parser("export-msc", help="MSC conversations as a user's JSONL export (a second, non-LoCoMo set)")
    ms.add_argument("source", help="MSC's msc_dialogue/session_3/test.txt")
    ms.add_argument("out")
    ms.add_argument("--conversations", type=int, default=30)
    ms.add_argument("--seed", type=int, default=33)
    ml = sub.add_parser("export-mail", help="an Enron `file,message` CSV as a user's mailbox export")
    ml.add_argument("source")
    ml.add_argument("out")
    mb = sub.add_parser("export-memorybank", help="MemoryBank's English chats as a user's JSONL export (a third set)")
    mb.add_argument("source", help="MemoryBank's eval_data/en/memory_bank_en.json")
    mb.add_argument("out")
    tb = sub.add_parser("table", help="tasks per session of `context1 datagen` runs")
    tb.add_argument("runs", nargs="+", help="LABEL=RUN_FOLDER (holding tasks.jsonl)")
    tb.add_argument("--corpus", action="append", default=[], help="LABEL=EXPORT.jsonl (to count its sessions)")
    args = ap.parse_args()
    if args.command == "export":
        n = export(args.part, Path(args.data_dir), Path(args.out))
        print(f"{n} sessions of conversations {', '.join(PARTS[args.part])} in {args.out}")
    elif args.command == "export-msc":
        n = export_msc(Path(args.source), Path(args.out), args.conversations, args.seed)
        print(f"{n} sessions of {args.conversations} MSC conversations in {args.out}")
    elif args.command == "export-mail":
        n = export_mail(Path(args.source), Path(args.out))
        print(f"{n} messages in {args.out}")
    elif args.command == "export-memorybank":
        n = export_memorybank(Path(args.source), Path(args.out))
        print(f"{n} days of chats in {args.out}")
    else:
        table(args.runs, dict(c.split("=", 1) for c in args.corpus))


if __name__ == "__main__":
    main()
