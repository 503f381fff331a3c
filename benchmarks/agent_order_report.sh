#!/usr/bin/env bash
# Session 42 (issue 34, "never worse than one search"): the LLM-free agent's answer with session 42's two rules on
# (IterativeConfig.first_search_order: the head in the first search's order; link_name_share 0.2: a page name that
# many pages seen write links none) against main's answer (both off) and against one search. Prints one table:
#   (a) documentation: benchmarks/docs_agent.py --compare first_search: one search, the agent off, the agent on
#       (passage hit@1 / hit@5 / MRR per proxy: definition, heading, sentence; paired bootstrap, won/lost);
#   (b) the dev sets: benchmarks/agent_passages.py run on HotpotQA / MuSiQue / LoCoMo, each episode answered with the
#       flag off and on (`--variant`), then `table` and `variants --keys s42-off s42-on` (R@5, answer-found@5,
#       all-R@10, paired); the filings half with the same two variants.
#
#   bash benchmarks/agent_order_report.sh          # the lead, once: DATA=/work/data42/docs, the reporting parts
#   PART=tune DATA=/work/data41/docs INDEX=/work/scratch42-agentdocs/tune-index DEVPART=tuning \
#     DEV_LIMIT=150 bash benchmarks/agent_order_report.sh                            # what the engineer ran
#
# Variables: DATA (/work/data42/docs: holds PART/), PART (report), INDEX (/work/indexes/docs42-report: an index of
# DATA/PART with "defines", main's readers), LIMIT (100: heading / sentence sample per kind; every definition),
# DEVPART (report; "tuning" for HotpotQA 1-150, MuSiQue 1-120, LoCoMo after 400, the filings' tuning half),
# DEV_LIMIT (1000: questions per dev set, i.e. the whole part), SETS (hotpotqa musique locomo), FILINGS
# (/work/indexes/filings2; empty: skipped), FILINGS_LIMIT (100), DOCS (1; 0 skips (a)), DEV (1; 0 skips (b)),
# SCRATCH (/work/scratch42-agentdocs/$PART-report-run), PYTHON (this checkout's .venv/bin/python).
# Dev-set rows are saved under benchmarks/out/agent_passages/ (label order-$DEVPART, or top-$DEVPART: COMPARE).
# COMPARE (first_search): what off / on are. first_search: main's answer (3e1805b, every session 42 field off) vs
# this checkout's defaults (variants s42-off / s42-on). first_search_top (session 42, second round): 0ffd2a9's answer
# (first_search_new_documents / first_search_keeps_top off) vs the defaults (variants s42top-off / s42top-on; label
# top-$DEVPART; SCRATCH default /work/scratch42-agenttop/$PART-report-run). E.g. the second round on the session 41
# reporting folder:
#   COMPARE=first_search_top DATA=/work/data41/docs PART=report INDEX=/work/indexes/docs41-report \
#     bash benchmarks/agent_order_report.sh
# first_search_links (session 43, issue 34): ee9f243's answer (IterativeConfig.first_search_links 0: a link from any
# passage seen lets a page displace a first-search passage) vs the default 5 (only a link from the first search's top
# 5); variants s43-off / s43-on, label links-$DEVPART, SCRATCH /work/scratch43-agentlinks/$PART-report-run, and
# DATA / INDEX default to session 43's reporting folder (/work/data43/docs, /work/indexes/docs43-report). The lead:
#   COMPARE=first_search_links bash benchmarks/agent_order_report.sh
# What the engineer ran (tuning; HTTPX + pytest, tuning since session 43):
#   COMPARE=first_search_links PART=report DATA=/work/data41/docs INDEX=/work/indexes/docs41-tune2 DEVPART=tuning \
#     DEV_LIMIT=150 SCRATCH=/work/scratch43-agentlinks/tune2-run bash benchmarks/agent_order_report.sh
# floor (session 44, issue 34): 22d84e9's answer (IterativeConfig.first_search_floor 0) vs the default 1 (a
# first-search passage quoting the question, its words in a row, is never displaced by one quoting less of it);
# docs_agent.py --compare first_search_floor, variants s44-off / s44-on, label floor-$DEVPART, SCRATCH
# /work/scratch44-floor/$PART-report-run, DATA / INDEX default to session 44's reporting folder (/work/data44/docs,
# /work/indexes/docs44-report; never opened by the engineer). The lead, then on session 43's folder:
#   COMPARE=floor bash benchmarks/agent_order_report.sh
#   COMPARE=floor DATA=/work/data43/docs INDEX=/work/indexes/docs43-report DEV=0 bash benchmarks/agent_order_report.sh
# What the engineer ran (tuning; one folder per call):
#   COMPARE=floor PART=tune DATA=/work/data41/docs INDEX=/work/scratch41-lead/docs41-tune-merged DEV=0 \
#     SCRATCH=/work/scratch44-floor/tune-run bash benchmarks/agent_order_report.sh
#   COMPARE=floor PART=report DATA=/work/data41/docs INDEX=/work/indexes/docs41-tune2 DEVPART=tuning \
#     DEV_LIMIT=150 SCRATCH=/work/scratch44-floor/tune2-run bash benchmarks/agent_order_report.sh
#   mkdir -p /work/scratch44-floor/optsdata && ln -sfn /work/scratch43-docopts/data/opts /work/scratch44-floor/optsdata/tune
#   COMPARE=floor PART=tune DATA=/work/scratch44-floor/optsdata INDEX=/work/scratch43-docopts/opts-idx DEV=0 \
#     SCRATCH=/work/scratch44-floor/opts-run bash benchmarks/agent_order_report.sh     # mypy + MkDocs
# conversation (session 45, issue 34): f12de0e's answer (IterativeConfig.conversation_first_search "off") vs the
# default "speakers" (on a corpus of chats no later search displaces a first-search passage naming a speaker the
# question names); variants s45-off / s45-on, label conv-$DEVPART, SCRATCH /work/scratch45-locomo/$PART-report-run.
# The rule acts on conversation corpora only (LoCoMo here; HotpotQA, MuSiQue, the filings and documentation read as
# documents: identical by construction), so the lead runs the dev sets alone (~20 min on this 2-CPU machine):
#   COMPARE=conversation DOCS=0 bash benchmarks/agent_order_report.sh
# What the engineer ran (tuning):
#   COMPARE=conversation DOCS=0 DEVPART=tuning DEV_LIMIT=150 bash benchmarks/agent_order_report.sh
# (LoCoMo's tuning part there is cut at conversation 41's 95 questions: SETS="hotpotqa musique" with DEV_LIMIT=150,
# then SETS=locomo DEV_LIMIT=95 FILINGS= .)
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
COMPARE="${COMPARE:-first_search}"
if [ "$COMPARE" = first_search_links ]; then  # session 43's reporting folder, never opened by the engineer
  DATA="${DATA:-/work/data43/docs}"; INDEX="${INDEX:-/work/indexes/docs43-report}"
fi
if [ "$COMPARE" = conversation ]; then DOCS="${DOCS:-0}"; fi  # no documentation corpus is a chat: nothing to compare
if [ "$COMPARE" = floor ]; then  # session 44's reporting folder, never opened by the engineer
  DATA="${DATA:-/work/data44/docs}"; INDEX="${INDEX:-/work/indexes/docs44-report}"
fi
DOCS_COMPARE="$COMPARE"
DATA="${DATA:-/work/data42/docs}"
PART="${PART:-report}"
INDEX="${INDEX:-/work/indexes/docs42-report}"
LIMIT="${LIMIT:-100}"
DEVPART="${DEVPART:-report}"
DEV_LIMIT="${DEV_LIMIT:-1000}"
SETS="${SETS:-hotpotqa musique locomo}"
FILINGS="${FILINGS-/work/indexes/filings2}"
FILINGS_LIMIT="${FILINGS_LIMIT:-100}"
DOCS="${DOCS:-1}"
DEV="${DEV:-1}"
case "$COMPARE" in
  first_search) LABEL="order-$DEVPART"; OFF=s42-off; ON=s42-on; SCRATCH="${SCRATCH:-/work/scratch42-agentdocs/$PART-report-run}"
    # off = main's answer (every session 42 field off), on = this checkout's defaults
    VARIANTS=(--variant "s42-off=first_search_order:0,link_name_share:0,first_search_new_documents:0,first_search_keeps_top:0,first_search_links:0,first_search_floor:0"
              --variant s42-on=first_search_order:1,link_name_share:0.2,first_search_new_documents:1,first_search_keeps_top:1) ;;
  first_search_top) LABEL="top-$DEVPART"; OFF=s42top-off; ON=s42top-on; SCRATCH="${SCRATCH:-/work/scratch42-agenttop/$PART-report-run}"
    # off = 0ffd2a9's defaults, on = this checkout's defaults
    VARIANTS=(--variant s42top-off=first_search_new_documents:0,first_search_keeps_top:0,first_search_links:0,first_search_floor:0
              --variant s42top-on=first_search_new_documents:1,first_search_keeps_top:1) ;;
  first_search_links) LABEL="links-$DEVPART"; OFF=s43-off; ON=s43-on
    SCRATCH="${SCRATCH:-/work/scratch43-agentlinks/$PART-report-run}"
    # off = ee9f243's answer (every link counts as evidence), on = this checkout's defaults
    VARIANTS=(--variant s43-off=first_search_links:0,first_search_floor:0 --variant s43-on=first_search_links:5) ;;
  floor) LABEL="floor-$DEVPART"; OFF=s44-off; ON=s44-on; DOCS_COMPARE=first_search_floor
    SCRATCH="${SCRATCH:-/work/scratch44-floor/$PART-report-run}"
    # off = 22d84e9's answer (no floor), on = this checkout's defaults
    VARIANTS=(--variant s44-off=first_search_floor:0 --variant s44-on=first_search_floor:1) ;;
  conversation) LABEL="conv-$DEVPART"; OFF=s45-off; ON=s45-on
    SCRATCH="${SCRATCH:-/work/scratch45-locomo/$PART-report-run}"
    # off = f12de0e's answer (later searches may displace a chat's first-search passages), on = this checkout's default
    VARIANTS=(--variant s45-off=conversation_first_search:off --variant s45-on=conversation_first_search:speakers) ;;
  *) echo "COMPARE must be first_search, first_search_top, first_search_links, floor or conversation, not $COMPARE" >&2
    exit 2 ;;
esac
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONPATH="$REPO"
cd "$REPO"
mkdir -p "$SCRATCH"
if [ "$DOCS" = 1 ]; then
  [ -d "$DATA/$PART" ] || { echo "no folder $DATA/$PART" >&2; exit 2; }
  [ -f "$INDEX/manifest.json" ] || { echo "no index at $INDEX (no manifest.json)" >&2; exit 2; }
  echo "## (a) documentation: $DATA/$PART, index $INDEX"
  nice "$PYTHON" benchmarks/docs_agent.py --part "$PART" --data "$DATA" --index "$INDEX" --out "$SCRATCH/docs" \
    --limit "$LIMIT" --compare "$DOCS_COMPARE" 2>"$SCRATCH/docs.log" \
    || { echo "docs run failed: see $SCRATCH/docs.log" >&2; exit 1; }
fi
if [ "$DEV" = 1 ]; then
  echo "## (b) dev sets, part $DEVPART (each episode answered with the rules off, $OFF, and on, $ON)"
  # shellcheck disable=SC2086  # SETS is a word list
  nice "$PYTHON" benchmarks/agent_passages.py run --label "$LABEL" --sets $SETS --part "$DEVPART" \
    --limit "$DEV_LIMIT" "${VARIANTS[@]}" >"$SCRATCH/dev.log" 2>&1 \
    || { echo "dev-set run failed: see $SCRATCH/dev.log" >&2; exit 1; }
  # shellcheck disable=SC2086
  "$PYTHON" benchmarks/agent_passages.py table --labels "$LABEL" --sets $SETS --part "$DEVPART"
  echo
  # shellcheck disable=SC2086
  "$PYTHON" benchmarks/agent_passages.py variants --label "$LABEL" --keys "$OFF" "$ON" --sets $SETS \
    --part "$DEVPART"
  if [ -n "$FILINGS" ]; then
    [ -f "$FILINGS/manifest.json" ] || { echo "no filings index at $FILINGS" >&2; exit 2; }
    echo
    nice "$PYTHON" benchmarks/agent_passages.py filings --label "$LABEL" --part "$DEVPART" \
      --index "$FILINGS" --limit "$FILINGS_LIMIT" --answers phrase "${VARIANTS[@]}" 2>"$SCRATCH/filings.log" \
      | grep -v '^\[filings ' || { echo "filings run failed: see $SCRATCH/filings.log" >&2; exit 1; }
  fi
fi
