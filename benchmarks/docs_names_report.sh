#!/usr/bin/env bash
# Documentation datagen on a folder of repositories (docs + source + pyproject.toml), main against this branch (issue
# 36, session 46): the project a repository's files declare names its questions (corpus_tools.project_files,
# datagen.doc_projects, `--mix declared_names`), and what its changelog and deprecation pages say a release deprecated
# or removed is asked, bridged to the release's day and compared (datagen.doc_deprecations, `--mix deprecations`).
# Run once by the lead on a reporting folder:
#
#   DATA=/path/to/repos INDEX=/path/to/index OUT=/path/to/out SEED=4646 bash benchmarks/docs_names_report.sh
#
# Variables: DATA (the folder of repositories; required unless INDEX exists), INDEX (built from DATA with this
# checkout's code, `--no-chroma`, when absent), OUT (required), SEED (the reading sheet's seed; 4601), MAIN (main's
# commit, 9ff5a1c, checked out under /tmp and removed after; or a checkout's path), N (datagen --n; 150), CHECK_INDEX (1, the default: DATA indexed once more with MAIN's code into
# OUT/main-index and the two indexes' chunk table, BM25 and vectors compared byte for byte: search unchanged; 0
# skips it). Writes OUT/main, OUT/branch, OUT/off (--mix declared_names=0,deprecations=0: must equal main byte for
# byte), OUT/summary.txt, OUT/names.txt (the table: tasks, naming their project, deprecation tasks, BM25 by passage)
# and OUT/names-sheet.txt (30 new tasks at random and every deprecation / removal task, for the lead's read).
set -uo pipefail
: "${OUT:?set OUT to an output folder}" "${INDEX:?set INDEX to the index folder (built from DATA when absent)}"
MAIN=${MAIN:-9ff5a1c}; SEED=${SEED:-4601}; KINDS=1; CHECK_INDEX=${CHECK_INDEX:-1}
OFF_MIX=declared_names=0,deprecations=0
CODE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PY=${PY:-$CODE/.venv/bin/python}; [ -x "$PY" ] || PY=/work/main/.venv/bin/python
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
START=$(date +%s); mkdir -p "$OUT"
index() {  # index CHECKOUT TARGET
  (cd "$1" && PYTHONPATH=$1 nice -n 5 "$PY" -c "from context1.interfaces.cli import main; main()" index --no-chroma \
     --no-progress "$DATA" "$2") > "$2.log" 2>&1 || { echo "index failed: see $2.log"; exit 1; }
}
if [ ! -f "$INDEX/manifest.json" ]; then
  : "${DATA:?set DATA to the folder of repositories (no index at INDEX yet)}"
  index "$CODE" "$INDEX"; echo "# indexed $DATA in $(( $(date +%s) - START )) s: $(grep -m1 -o "Indexed [^;.]*" "$INDEX.log")"
fi
echo "# declared: $(cat "$INDEX/declared.json" 2>/dev/null | tr -d '\n' || echo none)"
if [ "$CHECK_INDEX" = 1 ] && [ -n "${DATA:-}" ]; then
  if [ -d "$MAIN" ]; then MAINCO=$MAIN
  else MAINCO=/tmp/docs-names-main-$$; git -C "$CODE" worktree add --detach "$MAINCO" "$MAIN" >/dev/null || exit 1; fi
  rm -rf "$OUT/main-index"; index "$MAINCO" "$OUT/main-index"
  [ "$MAINCO" != "$MAIN" ] && git -C "$CODE" worktree remove --force "$MAINCO"
  same=1
  for f in chunks.jsonl chunks.lines.npz chunks.meta.npz vectors.npy $(cd "$INDEX" && find bm25 -type f | sort); do
    cmp -s "$INDEX/$f" "$OUT/main-index/$f" || { same=0; echo "# search input DIFFERS: $f"; }
  done
  [ "$same" = 1 ] && echo "# search unchanged: chunk table, BM25 and vectors byte-identical to main's index of DATA"
fi
IDX=$INDEX
source "$(dirname "${BASH_SOURCE[0]}")/datagen_ab.sh"  # main vs branch vs flags off, on the one index; prints the summary
(cd "$CODE" && PYTHONPATH=$CODE nice "$PY" benchmarks/docs_names.py "$INDEX" main="$OUT/main" branch="$OUT/branch" \
   --sheet "$OUT/names-sheet.txt" --seed "$SEED" 2>&1 | grep -v "^Saving") > "$OUT/names.txt"
cat "$OUT/names.txt"
echo "# run time $(( $(date +%s) - START )) s"
