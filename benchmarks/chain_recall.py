"""Chain recall on MuSiQue's tuning part (issue 36, session 48): for every real 3–4-hop tuning question, does the
natural generator's link graph (`NaturalGenerator.links`, `datagen.chains`) hold each hop's link — the paragraph
that answers hop k leading to the paragraph of the hop that uses "#k" — and if not, why.

    python benchmarks/datagen_depth.py --corpus musique --parse-cache RUN/parse.spacy --recall [--mix KEYS]

Only the tuning part (MuSiQue questions 1–120: `policy_tasks.parts`) is read, and of it only the questions with 3
or 4 hops; the reporting questions' decompositions are never opened (their ids are skipped before any field
is read). A hop's cause is the first of, in this order:

- ``linked``: the graph holds the link;
- ``same_article``: both hops' paragraphs are paragraphs of one article (no link needed, none possible);
- ``relation_not_once`` / ``no_description``: a fact of the page names the next page but is stated with two
  answers, or has no description to bridge through;
- ``not_about_the_page``: a fact names the next page, but its subject is not the page's own;
- ``title_built_on_bridge``: the next paragraph's title is built on the entity ("Botanical Garden of #1" answered
  by "Botanical Garden of the University of Vienna"): a page of its own, which no fact of this page names;
- ``next_not_the_entity``: the next paragraph's title is not the bridge entity (MuSiQue's "#2 >> instance of"
  answered by "New Jersey Agricultural Experiment Station" for Rutgers), or not its name as the page writes it
  (``alias``: the entity named otherwise in the page, "U.S." for "United States");
- ``target_unresolved``: a fact's answer is the entity but no target was set (``ambiguous_name``: more than one
  page bears that name);
- ``bridge_not_read``: the page names the entity, but no fact reads it;
- ``bridge_not_in_text``: the paragraph does not name the entity as the decomposition's answer does.

A question's chain is ``found`` when every hop is linked and the path is one of `ChainIndex.chains`; otherwise the
chain's first fault is given (a hop's cause above, or the path's fault: ``shortcut``, ``type_mismatch``, …).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from datagen.mining import fold
from datagen.verify import contains, normalize
from eval.loaders.paragraphs import clean_text


def tuning_decompositions(data_dir: str | Path, tuning_ids: set[str]) -> dict[str, list[tuple[str, str, str]]]:
    """task id → [(hop question, answer, (title, paragraph text))] for the tuning questions only."""
    out: dict[str, list] = {}
    for path in sorted(Path(data_dir, "musique").glob("*.json")):
        if path.name.endswith("_corpus.json"):
            continue
        for rec in json.loads(path.read_text()):
            if not isinstance(rec, dict) or str(rec.get("id")) not in tuning_ids:
                continue  # a reporting question: nothing of it is read
            paras = rec["paragraphs"]
            out[str(rec["id"])] = [
                (d["question"], d["answer"], (str(paras[d["paragraph_support_idx"]]["title"]).strip(),
                                            clean_text(str(paras[d["paragraph_support_idx"]]["paragraph_text"]))))
                for d in rec.get("question_decomposition") or []
            ]
    return out


def hop_edges(hops: list[tuple[str, str, tuple[str, str]]]) -> list[tuple[int, int]]:
    """(k, j): hop j's question uses hop k's answer ("#k")."""
    return [(int(k) - 1, j) for j, (q, _, _) in enumerate(hops) for k in re.findall(r"#(\d)", q) if 0 < int(k) <= j]


def link_cause(gen, k_doc: str, j_doc: str, bridge: str) -> str:  # noqa: ANN001
    """Why the link graph does (not) lead from paragraph k_doc's article to j_doc's (module docstring)."""
    base = gen.base
    a, b = base.article(k_doc), base.article(j_doc)
    if a == b:
        return "same_article"
    if any(base.article(f.target) == b for f in gen.links.get(a, ())):
        return "linked"
    facts = [f for d in base.articles.get(a, (a,)) for f in base.facts.get(d, ())]
    naming = [f for f in facts if f.target and base.article(f.target) == b]
    if naming:
        rels = gen.relations.get(a, {})
        if any(f.about_doc for f in naming):
            about = [f for f in naming if f.about_doc]
            if not any(rels.get(f.relation) is f for f in about):
                return "relation_not_once"
            return "no_description"
        return "not_about_the_page"
    name = base.names.get(b, "") or ""
    text = normalize(gen._article_text(a))
    said, page = normalize(bridge).removeprefix("the "), normalize(name).removeprefix("the ")
    if page and said != page and contains(page, said, normalized=True):
        return "title_built_on_bridge"  # "Botanical Garden of #1", "Sweden at the 1920 Summer Olympics"
    if not page or not contains(said, page, normalized=True):  # "under Trajan" is Trajan's page
        if name and contains(text, page, normalized=True):
            return "alias"
        return "next_not_the_entity"
    reading = [f for f in facts if fold(name) in fold(f.answer) or fold(f.answer) == fold(bridge)]
    if reading:
        if all(not f.target for f in reading):
            same = sum(1 for d, n in base.names.items() if n and fold(n) == fold(name) and base.article(d) == d)
            return "ambiguous_name" if same > 1 else "target_unresolved"
        return "target_other_document"
    if contains(text, normalize(name), normalized=True) or contains(text, normalize(bridge), normalized=True):
        return "bridge_not_read"
    return "bridge_not_in_text"


def chain_fault(gen, path: tuple[str, ...]) -> str:  # noqa: ANN001
    """Why a fully linked path is not one of the index's chains ("found" when it is)."""
    index = gen.chains
    if any(c.docs == path for c in index.chains.get(len(path), ())):
        return "found"
    for i in range(1, len(path)):
        links = [f for f in gen.links.get(path[i - 1], ()) if gen.base.article(f.target) == path[i]]
        faults = [index._hop_fault(path[:i], f, path[i]) for f in links]
        if faults and all(faults):
            return faults[0]
    if len(path) > index.max_hops:
        return "too_long"
    return index._answers(path)[1] or "not_walked"


def recall_table(gen, docs, tasks, data_dir) -> str:  # noqa: ANN001
    """The table of chain recall on the tuning part's 3–4-hop questions (module docstring)."""
    ids = {(d.title.strip(), d.text): d.doc_id for d in docs}
    tuning = [t for t in tasks if (t.hops or 0) >= 3]
    decomp = tuning_decompositions(data_dir, {t.task_id for t in tuning})
    causes: dict[int, Counter] = {3: Counter(), 4: Counter()}
    chains: dict[int, Counter] = {3: Counter(), 4: Counter()}
    rows = []
    for t in tuning:
        hops = decomp.get(t.task_id) or []
        if len(hops) not in causes:
            continue
        para = [ids.get(p) for _, _, p in hops]
        if any(p is None for p in para):
            chains[len(hops)]["paragraph_not_in_corpus"] += 1
            continue
        edges = hop_edges(hops)
        got = [(k, j, link_cause(gen, para[k], para[j], hops[k][1])) for k, j in edges]
        causes[len(hops)].update(c for _, _, c in got)
        linear = edges == [(i, i + 1) for i in range(len(hops) - 1)]
        arts = tuple(dict.fromkeys(gen.base.article(p) for p in para))
        if not linear:
            verdict = "not_a_path"
        elif any(c not in ("linked", "same_article") for _, _, c in got):
            verdict = "hop:" + next(c for _, _, c in got if c not in ("linked", "same_article"))
        else:
            verdict = chain_fault(gen, arts)
        chains[len(hops)][verdict] += 1
        rows.append(f"- {t.task_id}: " + " | ".join(f"{k + 1}→{j + 1} {c} ({hops[k][1]!r} → {hops[j][2][0]!r})"
                                                    for k, j, c in got) + f" ⇒ {verdict}")
    out = ["## chain recall, MuSiQue tuning part (3–4-hop questions)\n",
           "| hop link cause | 3-hop questions | 4-hop questions | all |", "| --- | ---: | ---: | ---: |"]
    for c in sorted(set(causes[3]) | set(causes[4]), key=lambda c: -(causes[3][c] + causes[4][c])):
        out.append(f"| {c} | {causes[3][c]} | {causes[4][c]} | {causes[3][c] + causes[4][c]} |")
    out += ["", "| question's chain | 3-hop | 4-hop | all |", "| --- | ---: | ---: | ---: |"]
    for c in sorted(set(chains[3]) | set(chains[4]), key=lambda c: -(chains[3][c] + chains[4][c])):
        out.append(f"| {c} | {chains[3][c]} | {chains[4][c]} | {chains[3][c] + chains[4][c]} |")
    return "\n".join([*out, "", *rows])


def chain_overlap(gen, tuning, report, k: int = 2) -> str:  # noqa: ANN001
    """How many of the finder's chains are (most of) a real question's chain: k or more of the chain's documents
    (an article stands for all its paragraphs) among one question's gold paragraphs. Of the reporting questions
    only their gold paragraph ids are read (as `policy_tasks.py --chain-leaks` reads them)."""
    def paragraphs(article: str) -> set[str]:
        return set(gen.base.articles.get(article, (article,)))

    golds = {"reporting": [set(t.gold_doc_ids) for t in report], "tuning": [set(t.gold_doc_ids) for t in tuning]}
    out = ["| chain documents | chains | share k+ with a reporting question | with a tuning question | neither |",
           "| ---: | ---: | ---: | ---: | ---: |"]
    for h, chains in sorted(gen.chains.chains.items()):
        hit = {"reporting": 0, "tuning": 0, "neither": 0}
        for chain in chains:
            docs = [paragraphs(d) for d in chain.docs]
            where = [part for part, gs in golds.items() if any(sum(1 for d in docs if d & g) >= k for g in gs)]
            for part in where or ["neither"]:
                hit[part] += 1
        out.append(f"| {h} | {len(chains)} | {hit['reporting']} | {hit['tuning']} | {hit['neither']} |")
    return "\n".join(out)
