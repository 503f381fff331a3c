#!/usr/bin/env bash
# `.. program::` read (issue 36, session 45): the rST reader records the command a `.. program:: NAME` names for
# the `.. option::` entries after it (chunk metadata "programs"; the text and every other key unchanged) and
# datagen asks them as that command's ("Which dmypy command-line option …?", `--mix option_program`, default 1).
# Run once by the lead on each documentation reporting folder:
#
#   DATA=<reporting folder> IDX=<its index> OUT=/work/runs/s45/lead/program-reportK bash benchmarks/docs_program_report.sh
#
# Variables: DATA (the folder the index was built from; required), IDX (main's index of it, only read; required),
# OUT (required), MAIN (default 9354232), CODE (the branch's checkout; default this repository), N (150), SEED (4501).
# 1. Counts the folder's `.. program::` lines: none → nothing this branch reads can change there; prints so and stops.
# 2. Otherwise builds OUT/idx from DATA with the branch's reader (same chunking as IDX: 256 / 32), and checks that
#    its chunks equal IDX's in text and metadata but for "programs" (the reader changes no ranking input).
# 3. datagen main vs branch vs branch with `--mix option_program=0` (must equal main) on OUT/idx
#    (benchmarks/datagen_ab.sh: OUT/summary.txt, OUT/new-tasks.txt: every changed task with its quote to read).
# Expected time: step 1 seconds; 2 about the index's first build time less the embedding (cached by text); 3 about
# three datagen runs, one parse (minutes on a folder of ~3,000 chunks).
set -uo pipefail
: "${DATA:?set DATA to the folder}" "${IDX:?set IDX to its index}" "${OUT:?set OUT to an output folder}"
CODE=${CODE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
mkdir -p "$OUT"
PROGRAMS=$(grep -rIE --include='*.rst' --include='*.txt' --include='*.md' -c '^\s*(\.\. program::|```\{program\})' "$DATA" \
           | awk -F: '{s += $NF} END {print s + 0}')
echo "# DATA=$DATA: $PROGRAMS line(s) of .. program::" | tee "$OUT/programs.txt"
if [ "$PROGRAMS" = 0 ]; then
  echo "no .. program:: in the folder: the branch's reader writes exactly main's index there; nothing to run" \
    | tee -a "$OUT/programs.txt"
  exit 0
fi
PY=${PY:-$CODE/.venv/bin/python}; [ -x "$PY" ] || PY=/work/main/.venv/bin/python
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 OMP_NUM_THREADS=1
(cd "$CODE" && PYTHONPATH=$CODE nice -n 5 "$PY" -c "from context1.interfaces.cli import main; main()" index "$DATA" \
    "$OUT/idx" > "$OUT/index.log" 2>&1) || { echo "index build failed: see $OUT/index.log"; exit 1; }
"$PY" - "$IDX" "$OUT/idx" <<'PY' | tee -a "$OUT/programs.txt"
import json, sys
from collections import Counter
def rows(p):
    return [json.loads(line) for line in open(f"{p}/chunks.jsonl", encoding="utf-8")]
a, b = rows(sys.argv[1]), rows(sys.argv[2])
skip = {"programs", "source_mtime_ns"}
same = len(a) == len(b) and all(x["chunk_id"] == y["chunk_id"] and x["text"] == y["text"]
                                and {k: v for k, v in x["metadata"].items() if k not in skip}
                                == {k: v for k, v in y["metadata"].items() if k not in skip} for x, y in zip(a, b))
owners = Counter(item.split(" ", 1)[1] for y in b for item in y["metadata"].get("programs", "").split(", ") if " " in item)
print(f"chunks main {len(a)} branch {len(b)}; identical but 'programs': {same}; option names by program: {dict(owners)}")
PY
IDX=$OUT/idx MAIN=${MAIN:-9354232} SEED=${SEED:-4501} OFF_MIX=option_program=0 KINDS=1
source "$CODE/benchmarks/datagen_ab.sh"
