"""The LLM-free policy on non-Wikipedia text: filings with boilerplate headings, mail, other scripts;
limits from AgentConfig; seeded variation for k× mode; plain-words justifications."""

from __future__ import annotations

import json
import re

from context1 import AgentConfig, SearchAgent, StopReason
from context1.backends.entities import entities, link_names
from context1.backends.iterative import IterativeConfig, IterativeRetrievalPolicy
from context1.backends.llm_free import question_phrases

BOILERPLATE = re.compile(r"(?i)\b(item \d|part i\b|part ii|risk factors|financial statements|controls and procedures)")


def test_entities_in_any_script():
    de = "Der Vertrag mit Ölwerke Süd wurde von Jürgen Hartmann in Dortmund unterzeichnet."
    assert {"Ölwerke Süd", "Jürgen Hartmann", "Dortmund"} <= set(entities(de, ""))
    ru = "Проект возглавил Иван Петров из Новосибирска."
    assert "Иван Петров" in entities(ru, "")
    ja = "東京 の 会議 で 山田 が 発表した。"
    assert "東京" in entities(ja, "")
    assert "Der" not in entities(de, "")  # a sentence-initial word is no name


def test_a_transcripts_fillers_and_turn_openers_are_no_bridge_names():
    """A meeting chunk's "Marketing: Probably …", "um That's …", "Mm-hmm Okay", "So I'm" gave the agent searches such
    as "Probably the ES2002 kick off meeting selling price" (session 51); the names said are still found, and prose
    with a subtitle's colon ("Illusions: The Adventures of …") keeps its old reading."""
    turns = (
        "Project Manager: Yeah, so uh\nMarketing: Probably when he was in the Riverside office. Um and Sure enough\n"
        "Industrial Designer: Mm-hmm Okay. So I'm gonna ask Dana Whitfield um That's the Kestrel remote.\n"
        "Marketing: And Srini said the Kestrel remote sells in Lyon, uh Right?\nProject Manager: Now I see."
    )
    found = entities(turns, "")
    assert {"Dana Whitfield", "Kestrel", "Srini", "Lyon", "Riverside"} <= set(found)
    assert not {"Probably", "That's", "Mm-hmm Okay", "So I'm", "I'm", "Now I", "And Srini", "Sure"} & set(found)
    one_long_turn = ("we um for our remote, a selling price is uh twenty five Euros. Uh our profit aim is fifty million "
                     "Euros. So I'm thinking um Yeah, we can do it. And it Yeah.")
    assert not {"So I'm", "Yeah"} & set(entities(one_long_turn, ""))
    prose = ("Illusions: The Adventures of a Reluctant Messiah is a novel by Richard Bach. Tanzania: Dar es Salaam "
             "was the torch's first stop.")
    assert {"Adventures", "Dar"} <= set(entities(prose, ""))


def test_file_names_are_link_names():
    assert "velmora industries" in link_names("reports/velmora-industries-2025-q2.txt", "velmora-industries-2025-q2")
    assert link_names("mail/2025-06-02-feltri-second-shift.txt", "") == ["feltri second shift"]


def test_boilerplate_headings_are_never_bridges(office_corpus):
    agent = SearchAgent(office_corpus)
    for q in ["Which company supplies battery cells to the van maker that plans a second shift at Ostrava?",
              "Who leads the litigation for the company asserting patents against the maker of the VX-9 press?"]:
        traj = agent.run(q).trajectory
        bridges = [c.arguments["query"] for s in traj.steps[1:] for c in s.turn.tool_calls if c.name == "search_corpus"]
        assert bridges, "no bridge search"
        keywords = " ".join(question_phrases(q))
        entities = [b[: -len(keywords)].strip() for b in bridges]
        assert all(b.endswith(keywords) for b in bridges)
        assert not any(BOILERPLATE.search(e) for e in entities), entities


def test_bridge_through_names_the_question_never_states(office_corpus):
    q = "Which company supplies battery cells to the van maker that plans a second shift at Ostrava?"
    result = SearchAgent(office_corpus).run(q)
    assert "reports/kestrel-motors-2025-q2.txt" in result.doc_ids[:3]
    assert "reports/lumen-cell-works-2025-q2.txt" in result.trajectory.seen_doc_ids()


def test_limits_come_from_agent_config(office_corpus):
    result = SearchAgent(office_corpus, config=AgentConfig(max_documents=3)).run("Who succeeded Tomasz Wren?")
    assert result.stop_reason is StopReason.ANSWERED and len(result.documents) == 3
    # a policy built by hand is bound to the agent's config too
    policy = IterativeRetrievalPolicy(office_corpus)
    agent = SearchAgent(office_corpus, policy, AgentConfig(max_documents=2))
    assert agent.backend.agent_config.max_documents == 2 and len(agent.run("Who is Helena Okafor?").documents) == 2


def test_k_rollouts_vary_with_the_seed_and_seed_zero_is_the_tuned_policy(office_corpus):
    q = "Where is the heat-treatment subcontractor of the AlignSure patent holder based?"
    agent = SearchAgent(office_corpus, config=AgentConfig(rollouts=4))
    result = agent.run(q)
    calls = [json.dumps([[c.arguments for c in s.turn.tool_calls] for s in t.steps]) for t in result.rollouts]
    rankings = [[d.doc_id for d in t.documents] for t in result.rollouts]
    assert len(set(calls) | {json.dumps(r) for r in rankings}) > 2, "k rollouts must not be identical"
    single = SearchAgent(office_corpus).run(q)
    assert [d.doc_id for d in result.rollouts[0].documents] == single.doc_ids
    again = SearchAgent(office_corpus, config=AgentConfig(rollouts=4)).run(q)
    assert [[d.doc_id for d in t.documents] for t in again.rollouts] == rankings  # seeded: reproducible


def test_justifications_are_plain_words_with_labelled_scores(office_corpus):
    result = SearchAgent(office_corpus).run("Which seal supplier delayed the Tarsk ramp-up?")
    for doc in result.documents:
        j = doc.justification
        assert j.startswith("“"), j  # the passage that made it relevant, quoted first
        passage = j[1:].split("”")[0].rstrip("…")
        assert passage and passage in " ".join(" ".join(c.text.split()) for c in office_corpus.chunks(doc.doc_id))
        assert "Relevance" in j and ("Mentions " in j or "close in meaning" in j)
        assert "rare name “dear”" not in j
        assert "possible bridge" not in j and "similarity 1." not in j


def test_without_cosine_scoring_only_the_four_tools_are_used(office_corpus):
    class ToolsOnly:
        """The corpus with its `similarity` extra hidden: only what the four tools need remains."""

        def __init__(self, corpus):
            self._c = corpus

        def __getattr__(self, name):
            if name == "similarity":
                raise AttributeError(name)
            return getattr(self._c, name)

    tools_only = ToolsOnly(office_corpus)
    policy = IterativeRetrievalPolicy(tools_only, IterativeConfig(cosine_scoring=False))
    result = SearchAgent(tools_only, policy).run("Who succeeded Tomasz Wren as chief financial officer?")
    assert result.stop_reason is StopReason.ANSWERED
    assert "reports/quillon-foods-2025-q2.txt" in result.doc_ids[:3]
    assert all("fused search ranks" in d.justification for d in result.documents)
