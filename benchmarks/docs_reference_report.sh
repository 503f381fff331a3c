#!/usr/bin/env bash
# Documentation datagen, main against this branch (issue 36, session 42: the API reference reader, the project as
# it writes itself, a documentation folder's pages kept from the sentence templates), on ONE index, run once by the
# lead on each reporting index:
#
#   IDX=/work/indexes/docs41-report OUT=/work/runs/s42/lead/docsref-report41 bash benchmarks/docs_reference_report.sh
#   IDX=/work/indexes/docs42-report OUT=/work/runs/s42/lead/docsref-report42 bash benchmarks/docs_reference_report.sh
#
# Variables: IDX (the index; required), OUT (where runs and sheets go; required), MAIN (a commit of main, a detached
# worktree is made under /tmp and removed after, or a checkout's path; default 3e1805b), CODE (the branch's checkout;
# default this script's repository), N (datagen --n; default 150), SEED (the reading sheet's seed; default 4201),
# PARSE (optional: a folder holding an earlier run's parse.* of this same index, to skip the parse; unset = parse).
# The index is only read (datagen writes under OUT).
# Writes OUT/main, OUT/branch (the branch's default), OUT/off (the branch with --mix reference=0,name_case=0,
# doc_folder=0: must equal main byte for byte), OUT/summary.txt (projects read, facts per kind, yield per project
# and kind for each run, BM25 gold@1 / all-gold@10) and OUT/new-tasks.txt: a seeded sample of 30 of the tasks the
# branch wrote and main did not, then every new task and every gone one, each with its answer, gold page and quote,
# for the lead's read (natural / correct).
MAIN=${MAIN:-3e1805b}; SEED=${SEED:-4201}
OFF_MIX=reference=0,name_case=0,doc_folder=0
source "$(dirname "${BASH_SOURCE[0]}")/datagen_ab.sh"  # main vs branch vs flags off; prints the summary
