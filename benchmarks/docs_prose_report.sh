#!/usr/bin/env bash
# Documentation datagen, main against this branch (issue 36, session 43 second round), on ONE index, run once by the
# lead on each reporting index: a group holding documentation pages is documentation whole, so its FAQ /
# release-process / deployment pages get no sentence template (datagen.doc_projects.documentation_groups,
# `--mix doc_group`); trivial defaults (None / False / True / [] / 0) held at a fifth of the single-hop tasks
# (`--mix trivial`); the per-kind cap `--mix doc_kind` is built but off by default (it lost on tuning).
#
#   IDX=/work/indexes/docs42-report OUT=/work/runs/s43/lead/docprose-report42 bash benchmarks/docs_prose_report.sh
#   IDX=/work/indexes/docs43-report OUT=/work/runs/s43/lead/docprose-report43 bash benchmarks/docs_prose_report.sh
#
# Variables: IDX (the index; required), OUT (where runs and sheets go; required), MAIN (a commit of main, a detached
# worktree is made under /tmp and removed after, or a checkout's path; default a0654e8), CODE (the branch's
# checkout; default this script's repository), N (datagen --n; default 150), SEED (the reading sheet's seed; default
# 4302), PARSE (optional: a folder holding an earlier run's parse.* of this same index, to skip the parse).
# The index is only read (datagen writes under OUT).
# Writes OUT/main, OUT/branch (the branch's default), OUT/off (the branch with --mix doc_group=0,doc_kind=1,trivial=1: must
# equal main byte for byte), OUT/summary.txt (flags off = main; tasks per kind, the largest kind's share and the
# trivial defaults of each run; facts per kind read off the index, yield per project and kind, BM25 gold@1 /
# all-gold@10; new / gone tasks by kind; prose tasks main -> branch) and OUT/new-tasks.txt: a seeded sample of 30 of
# the tasks the branch wrote and main did not, every new and every gone task, then every prose task (a sentence
# template's: "Which organization are Frequently Asked Questions aggregated into?" → "FAQ") of each run, for the
# lead's read (natural / correct).
MAIN=${MAIN:-a0654e8}; SEED=${SEED:-4302}
OFF_MIX=doc_group=0,doc_kind=1,trivial=1
KINDS=${KINDS:-1}
source "$(dirname "${BASH_SOURCE[0]}")/datagen_ab.sh"  # main vs branch vs flags off; prints the summary
