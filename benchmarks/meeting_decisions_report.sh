#!/usr/bin/env bash
# Issue 36, session 42: datagen on a meeting folder from main (3e1805b) and from this branch (datagen.meeting_decisions
# on), at --n 150 --seed 1: yield and stages, BM25 ease and question forms against the folder's real questions
# (benchmarks/datagen_meetings.py), how many real questions' facts the tasks hold (benchmarks/meeting_coverage.py),
# and a read sheet of every task the branch writes that main does not (question, answer, quote) to read against
# the transcript. No index is built: the branch changes no reading at index time.
#
#   bash benchmarks/meeting_decisions_report.sh [OUT]
#   IDX=/work/indexes/elitr-report Q=/work/data41/elitr/queries-report.jsonl bash benchmarks/meeting_decisions_report.sh OUT
#
# IDX: the meeting index (default: ELITR tuning); Q: its real questions with answers (ELITR's export; "" = none:
# forms and coverage of the generated tasks only). Run from the branch's checkout; main is `git archive $BASE`.
# BASE: the commit main's arm runs (default 3e1805b, the base of session 42's first round; the meeting replies
# branch, datagen.meeting_replies, compares with BASE=7908948, main with meeting_decisions merged).
set -uo pipefail
CODE=$(cd "$(dirname "$0")/.." && pwd)
OUT=$(realpath -m "${1:-/tmp/meeting-decisions-report}")
IDX=${IDX:-/work/indexes/elitr-tune}; Q=${Q-/work/data41/elitr/queries-tune.jsonl}
PY=${PY:-$( [ -x "$CODE/.venv/bin/python" ] && echo "$CODE/.venv/bin/python" || echo /work/main/.venv/bin/python)}; export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 OMP_NUM_THREADS=1
BASE=${BASE:-3e1805b}
mkdir -p "$OUT"; MAIN=$(mktemp -d /tmp/decisions-main.XXXX)
git -C "$CODE" archive "$BASE" | tar -x -C "$MAIN"; echo "== main: $BASE; branch: $(git -C "$CODE" rev-parse --short HEAD)"
run() {  # run LABEL CODE
  local out=$OUT/$1; rm -rf "$out"; mkdir -p "$out"
  [ "$1" = main ] && [ -f "$OUT/branch/parse.spacy" ] && cp "$OUT"/branch/parse.* "$out/"  # the same sentences
  (cd "$2" && PYTHONPATH=$2 /usr/bin/time -f "datagen %e s" nice -n 5 "$PY" -c "from context1.interfaces.cli import main; main()" \
     datagen "$IDX" "$out" --n 150 --seed 1 --no-progress > "$out.log" 2>&1)
  echo "== $1: $(wc -l < "$out/tasks.jsonl" 2>/dev/null || echo 0) tasks"; grep -E "^stages|^proposed|^datagen|rror" "$out.log"
}
run branch "$CODE"
run main "$MAIN"
# the read sheet: every branch task main does not write, with its answer and quote, by relation
PYTHONPATH=$CODE "$PY" - "$OUT/branch/tasks.jsonl" "$OUT/main/tasks.jsonl" > "$OUT/read-new-tasks.txt" <<'EOF'
import ast, json, sys
def load(p):
    try:
        return [json.loads(line) for line in open(p) if line.strip()]
    except FileNotFoundError:
        return []
branch, main = load(sys.argv[1]), load(sys.argv[2])
seen = {(t["query"], tuple(t["answers"])) for t in main}
new = [t for t in branch if (t["query"], tuple(t["answers"])) not in seen]
lost = [t for t in main if (t["query"], tuple(t["answers"])) not in {(b["query"], tuple(b["answers"])) for b in branch}]
print(f"branch {len(branch)} tasks, main {len(main)}; new in branch {len(new)}, main's not in branch {len(lost)}")
print("verdicts to give: natural (a participant would ask it so) y/n, correct (the transcript states this answer) y/n\n")
for n, t in enumerate(new, 1):
    meta = ast.literal_eval(t["metadata"]) if isinstance(t["metadata"], str) else t["metadata"]
    quote = " / ".join(q for s in meta.get("supporting", []) for q in s.get("quotes", []))
    print(f"[{n}] {t['query']}\n    answer: {t['answers'][0]}    ({(meta.get('relations') or [''])[0]}, {t['gold_doc_ids'][0]})\n"
          f"    quote: {quote}\n    natural: _  correct: _\n")
for t in lost:
    print(f"[lost] {t['query']} → {t['answers'][0]}")
EOF
echo "== read sheet: $OUT/read-new-tasks.txt"; head -1 "$OUT/read-new-tasks.txt"
for label in branch main; do
  echo "== BM25 ease and forms, $label (generated) vs the real questions"
  [ -s "$OUT/$label/tasks.jsonl" ] && T=$OUT/$label/tasks.jsonl || T=/dev/null
  if [ -n "$Q" ]; then
    (cd "$CODE" && PYTHONPATH=$CODE "$PY" benchmarks/datagen_meetings.py "$IDX" "$T" "$Q")
    echo "== coverage of the real questions' facts, $label (matches printed: read them)"
    (cd "$CODE" && PYTHONPATH=$CODE "$PY" benchmarks/meeting_coverage.py "$T" "$Q")
  fi
done
rm -rf "$MAIN"
