"""`context1.Client`: a `context1 serve` server, with the methods of `Corpus` and `SearchAgent`.

    from context1 import Client, SearchAgent
    with Client("http://127.0.0.1:8765") as index:
        hits = index.search("when was the bridge built", k=5)        # list[Hit], as Corpus.search
        result = index.run("Who designed the bridge?")                # SearchResult, the server's agent
        for event in index.stream("Who designed the bridge?"): ...    # the same events as SearchAgent.stream
        local = SearchAgent(index, backend=my_backend).run("...")     # a local agent over the shared index

The last line is why the client mirrors `Corpus`: rollout workers in other processes or on other
machines run their own harness and model against one index server (search, grep, read, chunk,
has_doc, title, similarity and count_tokens are everything the harness and the LLM-free policy ask
of a corpus; grep_report, search_leg and question_constraints are there too). Every read method of
`Corpus` is here (tests/context1/test_client_methods.py compares the sets); what changes an index
(build, add, delete, sync, compact) is not: a served index is read-only. Results come back as the same dataclasses, and errors as the same exceptions:
`UnknownDocumentError` (404), `InvalidPatternError` (bad regex), `ValueError` (any other rejected
input), `TimeoutError` (the server's time limit), `PermissionError` (a missing or wrong API key:
pass `api_key=`, the server's CONTEXT1_API_KEY); anything else is a `ServerError` (`status` 429 or
503 when the server is full: retry shortly).

A `Client` holds one pooled HTTP connection set (httpx) and is safe to share between threads.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

import httpx
import numpy as np

from context1.events import Event, FinalEvent
from context1.interfaces import wire
from context1.types import SearchResult
from corpus_tools.types import Chunk, GrepResult, Hit, InvalidPatternError, UnknownDocumentError

DEFAULT_URL = "http://127.0.0.1:8765"
_KNOWN_MAX = 100_000  # has_doc answers remembered per client


class ServerError(RuntimeError):
    """The server failed a request for a reason that is not the caller's input (status, detail)."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"context1 server answered {status}: {detail}")
        self.status, self.detail = status, detail


def _raise_for(status: int, detail: str, kind: str | None) -> None:
    if kind == "invalid_pattern":
        raise InvalidPatternError(detail)
    if kind == "unknown_id" or status == 404:
        raise UnknownDocumentError(detail)
    if status == 504:
        raise TimeoutError(detail)
    if status in (401, 403, 421):
        raise PermissionError(detail)
    if status in (400, 413, 422):
        raise ValueError(detail)
    raise ServerError(status, detail)


class Client:
    """An HTTP client of `context1 serve` (see the module docstring).

    base_url: the server's address. api_key: the server's key (its CONTEXT1_API_KEY), sent as
    `Authorization: Bearer KEY`; None for a server without one. timeout: seconds to wait for a
    response (for `stream`, between two events; the server sends a keep-alive comment every 15 s).
    transport: an httpx transport (tests, or an ASGI app in-process).
    """

    def __init__(self, base_url: str = DEFAULT_URL, *, api_key: str | None = None, timeout: float = 120.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else None
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout, transport=transport, headers=headers)
        self._doc_ids: frozenset[str] | None = None
        self._known: dict[str, bool] = {}  # has_doc answers
        self._titles: dict[str, str | None] = {}

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Client({self.base_url!r})"

    # -- plumbing ---------------------------------------------------------------------
    def _request(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.TransportError as exc:
            raise ConnectionError(f"cannot reach the context1 server at {self.base_url} ({exc}); "
                                  "is `context1 serve INDEX` running there?") from exc
        if response.status_code >= 400:
            try:
                body = response.json()
            except ValueError:
                body = {"detail": response.text}
            _raise_for(response.status_code, str(body.get("detail", "")), body.get("error"))
        return response.json()

    # -- Corpus -----------------------------------------------------------------------
    def health(self) -> dict[str, Any]:
        """The server's /health: index path, documents, chunks, backend, episode counters."""
        return self._request("GET", "/health")

    def __len__(self) -> int:
        return int(self.health()["chunks"])

    def search(self, query: str, k: int = 10, exclude: Iterable[str] = (), token_budget: int | None = None,
               where: dict[str, Any] | None = None, constraints: str | dict[str, Any] | None = None) -> list[Hit]:
        body = {"query": query, "k": k, "exclude": list(exclude), "token_budget": token_budget, "where": where}
        if constraints is not None:  # sent only when set, so a server from before constraints still answers
            body["constraints"] = constraints
        return [wire.hit_from_json(h) for h in self._request("POST", "/search", json=body)["hits"]]

    def search_pair(self, query: str, k: int = 10, exclude: Iterable[str] = (), unexcluded_k: int = 10,
                    token_budget: int | None = None, where: dict[str, Any] | None = None,
                    constraints: str | dict[str, Any] | None = None) -> tuple[list[Hit], list[Hit]]:
        """`Corpus.search_pair`: the search and its query's top `unexcluded_k` with nothing excluded. The server has
        no paired route, so this is two /search requests (the query encoded twice there), as before the pair."""
        exclude = list(exclude)
        hits = self.search(query, k=k, exclude=exclude, token_budget=token_budget, where=where, constraints=constraints)
        again = self.search(query, k=unexcluded_k, token_budget=token_budget, where=where, constraints=constraints)
        return hits, again

    def search_leg(self, query: str, leg: str, k: int = 10, exclude: Iterable[str] = (),
                   where: dict[str, Any] | None = None) -> list[Hit]:
        body = {"query": query, "leg": str(getattr(leg, "value", leg)), "k": k, "exclude": list(exclude),
                "where": where}
        return [wire.hit_from_json(h) for h in self._request("POST", "/search_leg", json=body)["hits"]]

    def question_constraints(self, question: str) -> dict[str, Any]:
        return self._request("POST", "/constraints", json={"query": question})

    def grep(self, pattern: str, k: int = 5, exclude: Iterable[str] = ()) -> list[Hit]:
        return list(self.grep_report(pattern, k=k, exclude=exclude).hits)

    def grep_report(self, pattern: str, k: int = 5, exclude: Iterable[str] = ()) -> GrepResult:
        """`Corpus.grep_report`: the hits, and whether the server's time-bounded scan covered every chunk."""
        data = self._request("POST", "/grep", json={"pattern": pattern, "k": k, "exclude": list(exclude)})
        hits = [wire.hit_from_json(h) for h in data["hits"]]
        return GrepResult(hits=hits, complete=bool(data.get("complete", True)), scanned=int(data.get("scanned", 0)),
                          total=int(data.get("total", 0)), capped=bool(data.get("capped", False)))

    def read(self, doc_id: str, query: str | None = None, token_budget: int | None = None) -> list[Hit]:
        body = {"doc_id": doc_id, "query": query, "token_budget": token_budget}
        return [wire.hit_from_json(h) for h in self._request("POST", "/read", json=body)["hits"]]

    def chunk(self, chunk_id: str) -> Chunk:
        return wire.chunk_from_json(self._request("GET", "/chunk", params={"chunk_id": chunk_id}))

    def _document(self, doc_id: str) -> dict[str, Any]:
        data = self._request("GET", "/document", params={"doc_id": doc_id})
        self._titles[doc_id] = data.get("title")
        return data

    def chunks(self, doc_id: str) -> list[Chunk]:
        return [wire.chunk_from_json(c) for c in self._document(doc_id)["chunks"]]

    def title(self, doc_id: str) -> str | None:
        if doc_id not in self._titles:
            self._document(doc_id)
        return self._titles[doc_id]

    def doc_ids(self) -> list[str]:
        ids = self._request("GET", "/documents")["doc_ids"]
        self._doc_ids = frozenset(ids)
        return ids

    def has_doc(self, doc_id: str) -> bool:
        # One id per request, answered by the server (GET /has_doc), remembered: a rollout worker
        # never downloads every doc id of a large index. The index does not change while it serves.
        if self._doc_ids is not None:
            return doc_id in self._doc_ids
        if doc_id not in self._known:
            if len(self._known) >= _KNOWN_MAX:
                self._known.clear()
            self._known[doc_id] = bool(self._request("GET", "/has_doc", params={"doc_id": doc_id})["exists"])
        return self._known[doc_id]

    def similarity(self, query: str, chunk_ids: Iterable[str]) -> np.ndarray:
        scores = self._request("POST", "/similarity", json={"query": query, "chunk_ids": list(chunk_ids)})["scores"]
        return np.asarray(scores, dtype=np.float32)

    def count_tokens(self, text: str) -> int:
        return int(self._request("POST", "/count_tokens", json={"text": text})["tokens"])

    # -- SearchAgent ------------------------------------------------------------------
    def run(self, query: str, *, rollouts: int | None = None, max_documents: int | None = None,
            max_passages: int | None = None, include_trajectory: bool = False) -> SearchResult:
        """The server's agent, run to completion (as `SearchAgent.run`; the sizes at most the server agent's).

        include_trajectory: False (the default, as over HTTP) leaves each rollout's messages and steps
        out of the result (its query, passages (`evidence`), documents and stop reason stay); True
        sends the full record.
        """
        body = {"query": query, "rollouts": rollouts, "include_trajectory": include_trajectory,
                "max_documents": max_documents, "max_passages": max_passages}
        return wire.result_from_json(self._request("POST", "/ask", json=body))

    def stream(self, query: str, *, rollouts: int | None = None, max_documents: int | None = None,
               max_passages: int | None = None, include_trajectory: bool = False) -> Iterator[Event]:
        """The server's agent events as they happen (as `SearchAgent.stream`; the last is `FinalEvent`).

        Every turn, call and observation arrives as its own event; include_trajectory decides whether
        the final event's result repeats them (see `run`). Closing the iterator early (a `break`)
        closes the connection, and the server cancels the episode.
        """
        body = {"query": query, "rollouts": rollouts, "include_trajectory": include_trajectory,
                "max_documents": max_documents, "max_passages": max_passages}
        try:
            with self._http.stream("POST", "/ask/stream", json=body) as response:
                if response.status_code >= 400:
                    response.read()
                    try:
                        err = response.json()
                    except ValueError:
                        err = {"detail": response.text}
                    _raise_for(response.status_code, str(err.get("detail", "")), err.get("error"))
                for name, data in _sse_events(response.iter_lines()):
                    if name == wire.ERROR_EVENT:
                        err = json.loads(data)
                        _raise_for(int(err.get("status", 500)), str(err.get("detail", "")), err.get("error"))
                    event = wire.event_from_json(name, json.loads(data))
                    yield event
                    if isinstance(event, FinalEvent):
                        return
        except httpx.TransportError as exc:
            raise ConnectionError(f"the stream from {self.base_url} broke off ({exc})") from exc
        raise ServerError(502, "the event stream ended without a final event")


def _sse_events(lines: Iterable[str]) -> Iterator[tuple[str, str]]:
    """(event, data) pairs of a text/event-stream (comments and retry/id fields are skipped)."""
    name, data = "message", []
    for line in lines:
        if not line:
            if data:
                yield name, "\n".join(data)
            name, data = "message", []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)
    if data:
        yield name, "\n".join(data)
