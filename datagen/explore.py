"""SPEC §4 step 1 with a model: an explorer gathers a chain of documents through the search agent's
own tools (search_corpus, grep_corpus, read_document, prune_chunks) before any clue is written.

    explorer = AgentExplorer(corpus, mined, ask_turn)
    gathered = explorer.gather(hops=2, rng=random.Random(0))   # (doc ids, bridges) or a DropReason

The model is given a seed topic (a document that names others by their titles) and drives one
episode of the very same harness the search agent runs (`context1.harness.Episode`), so its budget,
pruning and tool checks are the agent's. Its final answer is the agent's answer format: the
documents in chain order. What it returns is then held to the chain rule of the natural generator
(issue 26): each document must name the next by the next one's title, a title no other document
shares (`MinedCorpus.links` of kind "title"); a chain through a shared common word, an unread
document, a fallback ranking (the model never concluded) or too few documents is dropped, and
counted by reason in the generator's stages.

The model's turns go through `ask_turn` (the LLM generator's accounted call: usage, backend
failures in a row, StopGeneration), so exploring and writing share one budget and one stop rule.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from context1.config import AgentConfig
from context1.types import Message, ModelTurn, StopReason
from datagen.mining import MinedCorpus
from datagen.types import DropReason

# (messages, tools) -> the model's turn, or a DropReason when the backend failed (counted by the caller).
AskTurn = Callable[[Sequence[Message], Sequence[Any]], ModelTurn | DropReason]


def explore_query(seed_title: str, hops: int) -> str:
    """What the explorer is asked: the chain it must bring back, in the agent's own answer format."""
    if hops == 1:
        return (f'Find the document about "{seed_title}" and read it. Return that one document as your answer.')
    return (
        f'Gather documents for a {hops}-hop question that starts at "{seed_title}". Find and read the document '
        f"about it, then follow a name it mentions: search for the document whose title is that name and read it; "
        f"repeat until you hold {hops} documents, each naming the next by its title. Answer with the "
        f"{hops} documents in chain order, the first document first."
    )


class AgentExplorer:
    """Gathers `hops` documents along real title links, found by a model with the agent's tools.

    agent_config: the harness limits of each exploring episode (default: the agent's, 8 turns).
    stages: "explore:<outcome>" counts (ok, unfinished, too_few, unread, unlinked), shared with the caller.
    """

    def __init__(self, corpus: Any, mined: MinedCorpus, ask_turn: AskTurn, agent_config: AgentConfig | None = None,
                 token_counter: Any = None, stages: Counter | None = None) -> None:
        self.corpus = corpus
        self.mined = mined
        self.ask_turn = ask_turn
        self.agent_config = agent_config or AgentConfig(max_turns=8)
        self.token_counter = token_counter
        self.stages: Counter = stages if stages is not None else Counter()
        self._title_links = {
            doc_id: {s.target: s.text for s in spans if s.kind == "title" and s.target}
            for doc_id, spans in mined.links.items()
        }
        self._doc_of = {c.chunk_id: doc_id for doc_id, chunks in mined.chunks.items() for c in chunks}
        # Seeds, computed once: any titled document for 1 hop, else one that names another by title.
        self._seeds = {
            1: sorted(d for d, t in mined.titles.items() if t and d in mined.chunks),
            2: sorted(d for d, links in self._title_links.items() if links and mined.titles.get(d)),
        }

    def seeds(self, hops: int) -> list[str]:
        """Documents a chain of `hops` can start from: any titled one for 1 hop, else ones that link on."""
        return self._seeds[1 if hops == 1 else 2]

    def gather(self, hops: int, rng: random.Random) -> tuple[list[str], list[str]] | DropReason:
        """(doc ids in chain order, the bridge names of documents 2..hops), or why nothing was gathered."""
        from context1.harness import Episode

        pool = self.seeds(hops)
        if not pool:
            return DropReason.NO_CHAIN
        seed = rng.choice(pool)
        config = dataclasses.replace(self.agent_config, max_documents=max(hops, self.agent_config.max_documents))
        episode = Episode(self.corpus, explore_query(self.mined.titles[seed], hops), config,
                          token_counter=self.token_counter)
        while not episode.done:
            turn = self.ask_turn(episode.messages(), episode.tool_schemas)
            if isinstance(turn, DropReason):  # counted as "explore:backend_error" by ask_turn's owner
                episode.finish(StopReason.BACKEND_ERROR, error="the backend failed while exploring")
                return turn
            episode.act(turn)
        shown = {self._doc_of.get(c, "") for c in episode.seen_chunk_ids()}
        return self._chain(episode.trajectory, hops, shown)

    def _chain(self, trajectory: Any, hops: int, shown: set[str]) -> tuple[list[str], list[str]] | DropReason:
        if trajectory.metadata.get("answer_unseen_ids"):
            # the answer named documents it was never shown (the harness dropped them, issue 34)
            return self._drop("unread")
        if trajectory.metadata.get("answer_fallback", True):
            return self._drop("unfinished")  # a ranking the harness made up is not the model's chain
        docs = list(dict.fromkeys(d.doc_id for d in trajectory.documents))[:hops]
        if len(docs) < hops:
            return self._drop("too_few")
        if any(d not in shown for d in docs):
            return self._drop("unread")  # a chain must be gathered through the tools, not recalled
        bridges = []
        for a, b in zip(docs, docs[1:], strict=False):
            name = self._title_links.get(a, {}).get(b)
            if name is None:
                return self._drop("unlinked")
            bridges.append(name)
        self.stages["explore:ok"] += 1
        return docs, bridges

    def _drop(self, why: str) -> DropReason:
        self.stages[f"explore:{why}"] += 1
        return DropReason.NO_CHAIN

