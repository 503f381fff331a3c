#!/usr/bin/env bash
# Documentation multi-hop tasks, main against this branch (issue 36, session 45: datagen.doc_bridges asks the day the
# release that added, changed, deprecated or removed a documented thing came out, across the note's page and the
# changelog, `--mix doc_bridges`, and which of two things was added first, held to the comparison share;
# datagen.doc_releases reads a release heading naming its project, "pytest 8.4.0 (2025-06-02)", `--mix
# release_names`), on ONE index, run once by the lead on each documentation reporting index:
#
#   IDX=/work/indexes/docs44-report OUT=/work/runs/s45/lead/bridges-report44 SEED=4544 bash benchmarks/docs_bridges_report.sh
#
# Variables: IDX (the index; required), OUT (where runs and sheets go; required), SEED (the reading sheet's seed;
# default 4501), MAIN (a commit of main: a detached worktree is made under /tmp and removed after, or a checkout's
# path; default f12de0e), CODE (the branch's checkout; default this script's repository), N (datagen --n; 150),
# PARSE (optional: a folder holding an earlier run's parse.* of this same index; unset = parse once, in OUT/main).
# The index is only read. Writes OUT/main, OUT/branch (the branch's defaults), OUT/off (--mix release_names=0,
# doc_bridges=0: must equal main byte for byte), OUT/names (--mix doc_bridges=0: the heading reading alone),
# OUT/summary.txt (task counts per kind for each run, BM25 gold@1 / all-gold@10 per form, new / gone tasks) and
# OUT/bridges.txt (the branch's multi-hop forms, the funnel, and 30 seeded multi-hop tasks with both quotes, for the
# lead's read: natural / correct / genuine chain / leak). Run time on the HTTPX + pytest tuning index: see the report.
MAIN=${MAIN:-f12de0e}; SEED=${SEED:-4501}; KINDS=1
OFF_MIX=release_names=0,doc_bridges=0
START=$(date +%s)
source "$(dirname "${BASH_SOURCE[0]}")/datagen_ab.sh"  # main vs branch vs flags off; prints the summary
dg "$CODE" names --mix doc_bridges=0
{
  echo "# the heading reading alone (--mix doc_bridges=0) against main"
  nice "$PY" benchmarks/datagen_doc_kinds.py "$OUT/main" "$OUT/names" 2>&1
  nice "$PY" benchmarks/datagen_docs_diff.py "$OUT/main" "$OUT/names" 2>&1
  echo
  nice "$PY" benchmarks/docs_bridges.py "$OUT/branch" --base "$OUT/main" --seed "$SEED" --index "$IDX" 2>&1 | grep -v "^Saving"
} > "$OUT/bridges.txt"
cat "$OUT/bridges.txt"
echo "# run time $(( $(date +%s) - START )) s"
