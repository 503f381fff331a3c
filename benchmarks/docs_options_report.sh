#!/usr/bin/env bash
# Documentation datagen, main against this branch (issue 36, session 43: options and settings lists read,
# datagen.doc_options `--mix options`; a documentation folder's release announcements kept from the sentence
# templates, datagen.doc_announce `--mix announce`), on ONE index, run once by the lead on each reporting index:
#
#   IDX=/work/indexes/docs42-report OUT=/work/runs/s43/lead/docopts-report42 bash benchmarks/docs_options_report.sh
#   IDX=/work/indexes/docs43-report OUT=/work/runs/s43/lead/docopts-report43 bash benchmarks/docs_options_report.sh
#
# Variables: IDX (the index; required), OUT (where runs and sheets go; required), MAIN (a commit of main, a detached
# worktree is made under /tmp and removed after, or a checkout's path; default ee9f243), CODE (the branch's checkout;
# default this script's repository), N (datagen --n; default 150), SEED (the reading sheet's seed; default 4301),
# PARSE (optional: a folder holding an earlier run's parse.* of this same index, to skip the parse; unset = parse).
# The index is only read (datagen writes under OUT).
# Writes OUT/main, OUT/branch (the branch's default), OUT/off (the branch with --mix options=0,announce=0: must
# equal main byte for byte), OUT/summary.txt (facts per kind read off the index, yield per project and kind for
# each run, BM25 gold@1 / all-gold@10; new / gone tasks by kind; prose tasks main -> branch) and OUT/new-tasks.txt:
# a seeded sample of 30 of the tasks the branch wrote and main did not, every new task and every gone one, then
# every prose task (no documentation reader's: the sentence templates' "Which organization has pytest-X been
# released to?") of each run, each with its answer, gold page and quote, for the lead's read (natural / correct).
MAIN=${MAIN:-ee9f243}; SEED=${SEED:-4301}
OFF_MIX=options=0,announce=0
source "$(dirname "${BASH_SOURCE[0]}")/datagen_ab.sh"  # main vs branch vs flags off; prints the summary
