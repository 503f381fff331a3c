#!/usr/bin/env bash
# Earnings calls (session 46, issues 34 and 36), run once by the lead on the reporting parts:
#
#   ECT=/work/data46/ect/ect-report CALLS=/work/data46/ect/calls-report INDEX=/path/to/scratch OUT=/path/to/out \
#       bash benchmarks/earnings_calls_report.sh
#
# Variables: ECT (an ECTSum part: ECT/docs/TICKER_qN_YYYY.txt and ECT/gt_summaries; required; only read), CALLS (a
# folder of vendor-export calls, "Q3 2022 <Company> Earnings Call.txt"; required; only read), INDEX (scratch: the
# indexes INDEX/ect-base, INDEX/ect, INDEX/calls are built there; required), OUT (tables and asks; required),
# AGENT (lines the LLM-free agents run on; default 200), ASKS (calls asked; default 10), CODE (the checkout to run;
# default this script's repository), PY (default CODE/.venv/bin/python).
# Writes OUT/ect.md (benchmarks/earnings_calls.py: figures@5 of the line's own call, any@5, call@5; one search on
# an index read as base reads (--no-calls) vs the call reader's with constraints off / auto, the LLM-free agent on
# each; paired bootstrap, won/lost) and OUT/asks.txt (`context1 ask` on ASKS calls evenly spaced, each asked
# "What was <company>'s <metric> in Q<n> <year>?" from its file name, for a smoke read).
# Run time on the tuning parts (200 ECTSum calls 3,454 chunks; 74 vendor calls 3,415 chunks), 2 CPUs shared by four
# sessions (load 10-12): each index 13-28 min to embed cold (803 s and 1,674 s; the --no-calls index reuses the
# embedding cache where base's text was embedded before), the benchmark ~25 min (682 lines x 3 searches at ~0.15 s,
# 200 lines x 2 agents at ~1.2 s), the asks ~3 min. About 1.5 h in all on such a machine; much less on a quiet one.
set -euo pipefail
: "${ECT:?set ECT to an ECTSum part (docs/, gt_summaries/)}" "${CALLS:?set CALLS to a folder of vendor calls}"
: "${INDEX:?set INDEX to a scratch folder for the indexes}" "${OUT:?set OUT to an output folder}"
AGENT=${AGENT:-200}; ASKS=${ASKS:-10}
CODE=${CODE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PY=${PY:-$CODE/.venv/bin/python}
export PYTHONPATH=$CODE HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
CLI=("$PY" -c "from context1.interfaces.cli import main; main()")
mkdir -p "$INDEX" "$OUT"
cd "$CODE"
for spec in "ect-base --no-calls $ECT/docs" "ect --calls $ECT/docs" "calls --calls $CALLS"; do
  read -r name flag folder <<<"$spec"
  if [ ! -f "$INDEX/$name/manifest.json" ]; then
    echo "== index $name ($flag) $(date)"
    nice "${CLI[@]}" index "$folder" "$INDEX/$name" "$flag" --no-progress 2>&1 | tail -3
  fi
done
echo "== ECTSum figures (earnings_calls.py) $(date)"
nice "$PY" benchmarks/earnings_calls.py --data "$ECT" --index "$INDEX/ect" --base-index "$INDEX/ect-base" \
  --part report --label report --agent-limit "$AGENT" | tee "$OUT/ect.md"
echo "== $ASKS asks on the vendor calls $(date)"
"$PY" - "$CALLS" "$ASKS" >"$OUT/questions.txt" <<'EOF'
import re, sys
from pathlib import Path
files = sorted(p.stem for p in Path(sys.argv[1]).glob("*.txt"))
n = int(sys.argv[2])
metrics = ["revenue", "adjusted EPS", "net income", "FFO per share", "guidance for the full year"]
for i in range(min(n, len(files))):
    m = re.match(r"Q([1-4]) (\d{4}) (.+?)(?: Earnings.*)?$", files[i * len(files) // n])
    if m:
        print(f"What was {m[3]}'s {metrics[i % len(metrics)]} in Q{m[1]} {m[2]}?")
EOF
: >"$OUT/asks.txt"
while IFS= read -r question; do
  { echo "### $question"; nice "${CLI[@]}" ask "$INDEX/calls" "$question" 2>&1 | sed -n '/passage(s) for/,$p'; echo; } >>"$OUT/asks.txt"
done <"$OUT/questions.txt"
cat "$OUT/asks.txt"
echo "== done $(date)"
