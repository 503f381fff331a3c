#!/usr/bin/env bash
# Source datagen, main against this branch (issue 36, session 43: a repository's Python source sections asked
# about as a user of its API asks: parameter defaults, return types, raises fields; datagen.doc_source,
# `--mix source=0|1`), on ONE index built with source reading (`context1 index --source`), run once by the lead
# on the reporting repository's source index:
#
#   IDX=/path/to/reporting-source-index OUT=/work/runs/s43/lead/srcgen-report bash benchmarks/source_datagen_report.sh
#
# Variables: IDX (the index; required), OUT (where runs and sheets go; required), MAIN (a commit of main, a detached
# worktree is made under /tmp and removed after, or a checkout's path; default 1bb0446), CODE (the branch's checkout;
# default this script's repository), N (datagen --n; default 150), SEED (the reading sheet's seed; default 4302),
# PARSE (optional: a folder holding an earlier run's parse.* of this same index, to skip the parse; unset = parse).
# The index is only read (datagen writes under OUT).
# Writes OUT/main, OUT/branch (the branch with --mix source=1: off by default on main since session 43's merge), OUT/off (the branch with --mix source=0: must equal main
# byte for byte), OUT/summary.txt (facts per kind read off the index, yield per project and kind for each run;
# new / gone tasks by kind, "src:default" / "src:returns" / "src:raises" the new readers') and OUT/new-tasks.txt: a
# seeded sample of 30 of the tasks the branch wrote and main did not, then every new and every gone task, each with
# its answer, gold file and quote, for the lead's read (natural / correct).
MAIN=${MAIN:-1bb0446}; SEED=${SEED:-4302}
OFF_MIX=source=0
BRANCH_MIX=${BRANCH_MIX:-source=1}  # a choice since the merge (NaturalConfig.doc_source 0), asked for here
source "$(dirname "${BASH_SOURCE[0]}")/datagen_ab.sh"  # main vs branch vs flags off; prints the summary
