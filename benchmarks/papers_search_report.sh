#!/usr/bin/env bash
# A folder of research papers, one search (session 49, issue 34): another paper's bibliography in the answer's place?
# Run once by the lead on a reporting folder:
#
#   DATA=/path/to/papers INDEX=/path/to/its/session-48/index OUT=/path/to/out bash benchmarks/papers_search_report.sh
#
# Variables: DATA (the folder of PDF papers; required; only read), INDEX (an index of DATA built before session 49,
# read as the base: copied to OUT/index-base first, never written; required), OUT (required), WEIGHTS
# (SearchConfig.bibliography_weight values run on the re-read index; default "0,0.5"), SENTENCES (body-sentence
# proxies per paper; default 3), MENTIONS ("acronym used" questions per paper: a body sentence naming an acronym the
# paper defines, asked; default 3), BASE_WEIGHT (the base run's SearchConfig.bibliography_weight; default 0, as 94d7bea;
# 0.5 for a base index searched as 8edfbec searches it), DEFINED (SearchConfig.defined_names values run on the
# re-read index at each weight, e.g. "0,0.5": a paper's acronyms lifted, CorpusConfig.paper_definitions; default none:
# the index's own), CODE (the checkout to run; default this script's repository), PY (its Python;
# default CODE/.venv/bin/python).
# Builds OUT/index with this checkout's reading (`CorpusConfig.paper_references`: a bibliography's heading in body
# type starts a section; `CorpusConfig.paper_definitions`: where a paper first defines an acronym is recorded; an index
# already there is used as it is), then prints and writes OUT/table.txt
# (benchmarks/papers_search.py OUT/index --base OUT/index-base): bibliography chunks; per run and proxy kind hit@1,
# hit@5, MRR, the bibliography's share of the top 5 and questions with a bibliography chunk above the gold; each run
# against the base (INDEX at weight 0, i.e. session 48's index searched as 94d7bea searches it): paired bootstrap,
# won / lost. Run time on the session-49 tuning subset (27 papers, 2 shared CPUs): the re-read index ~3 min when the
# folder's text was embedded before (only the chunks whose section changed are embedded again), ~10 min otherwise;
# the searches ~5 min.
set -euo pipefail
: "${DATA:?set DATA to a folder of PDF papers}" "${INDEX:?set INDEX to the existing index of DATA}"
: "${OUT:?set OUT to an output folder}"
WEIGHTS=${WEIGHTS:-0,0.5}; SENTENCES=${SENTENCES:-3}; MENTIONS=${MENTIONS:-3}; BASE_WEIGHT=${BASE_WEIGHT:-0}; DEFINED=${DEFINED:-}
CODE=${CODE:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PY=${PY:-$CODE/.venv/bin/python}
export PYTHONPATH=$CODE HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
mkdir -p "$OUT"
cd "$CODE"
if [ ! -f "$OUT/index-base/manifest.json" ]; then
  cp -r "$INDEX" "$OUT/index-base"
fi
echo "== index $DATA → $OUT/index $(date)"
if [ ! -f "$OUT/index/manifest.json" ]; then
  nice "$PY" -c "from context1.interfaces.cli import main; main()" index "$DATA" "$OUT/index" --no-progress 2>&1 \
    | tail -15 | tee "$OUT/index.log"
fi
echo "== searches $(date)"
nice "$PY" benchmarks/papers_search.py "$OUT/index" --base "$OUT/index-base" --base-weight "$BASE_WEIGHT" \
  --weights "$WEIGHTS" --defined "$DEFINED" --sentences "$SENTENCES" --mentions "$MENTIONS" --out "$OUT/table.txt"
echo "== done $(date)"
