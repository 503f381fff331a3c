#!/usr/bin/env bash
# Documentation datagen, main against this branch (issue 36, session 44: datagen.doc_options reads bulleted options
# lists `--mix option_lists`, a description's "this …" about the option's own value `--mix option_this`, noun-phrase
# descriptions `--mix option_nouns`; datagen.doc_projects names a group from what its folder declares, a Sphinx
# conf.py's project or a README's title, and a name its prose writes only in lower case, `--mix project_files`), on
# ONE index, run once by the lead on each reporting index:
#
#   IDX=/work/indexes/docs44-report OUT=/work/runs/s44/lead/options2-report44 bash benchmarks/docs_options2_report.sh
#   IDX=/work/indexes/docs43-report OUT=/work/runs/s44/lead/options2-report43 bash benchmarks/docs_options2_report.sh
#   IDX=/work/indexes/docs42-report OUT=/work/runs/s44/lead/options2-report42 bash benchmarks/docs_options2_report.sh
#
# Variables: IDX (the index; required), OUT (where runs and sheets go; required), MAIN (a commit of main, a detached
# worktree is made under /tmp and removed after, or a checkout's path; default 22d84e9), CODE (the branch's checkout;
# default this script's repository), N (datagen --n; default 150), SEED (the reading sheet's seed; default 4401),
# PARSE (optional: a folder holding an earlier run's parse.* of this same index, to skip the parse; unset = parse).
# The index is only read (datagen writes under OUT).
# Writes OUT/main, OUT/branch (the branch's default), OUT/off (the branch with
# --mix option_lists=0,option_this=0,option_nouns=0,project_files=0: must equal main byte for byte), OUT/summary.txt
# (tasks per kind for each run, yield per project and kind, BM25 gold@1 / all-gold@10; new / gone tasks by kind) and
# OUT/new-tasks.txt: a seeded sample of 30 of the tasks the branch wrote and main did not, then every new task and
# every gone one, each with its answer, gold page and quote, for the lead's read (natural / correct).
MAIN=${MAIN:-22d84e9}; SEED=${SEED:-4401}; KINDS=${KINDS:-1}
OFF_MIX=option_lists=0,option_this=0,option_nouns=0,project_files=0
source "$(dirname "${BASH_SOURCE[0]}")/datagen_ab.sh"  # main vs branch vs flags off; prints the summary
