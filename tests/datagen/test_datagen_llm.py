"""The LLM pipeline, stage by stage, with the scripted backend (deterministic) and a scripted HTTP server."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from context1.backends import OpenAIBackend
from context1.backends.scripted import ScriptedBackend
from context1.types import Message
from datagen.llm import LLMConfig, LLMGenerator, parse_json_object
from datagen.mining import mine
from datagen.pipeline import GenerateConfig, generate
from datagen.records import read_task_file


def _doc_text(prompt: str) -> str:
    body = prompt.split("Document:\n", 1)[1]
    return body.split("\n\n", 1)[0].split("\n", 1)[1]  # drop the "Title: ..." line


def oracle(leak: bool = False, lie: bool = False, fence: bool = False):  # noqa: ANN201
    """A scripted 'model' that reads the prompt and answers each stage like a competent model would."""

    def answer(messages: Sequence[Message]) -> str:
        prompt = messages[-1].content
        text = _doc_text(prompt)
        required = re.search(r'must be exactly "([^"]+)"', prompt)
        value = required.group(1) if required else (re.findall(r"\b1\d{3}\b", text) or ["Tarn"])[0]
        if '"clues"' in prompt:
            out = {"clues": ["A structure on a cape was built after ships were lost."], "question": "Who?", "answer": value}
        elif '"clue"' in prompt:
            bridge = re.search(r'one clue about "([^"]+)"', prompt).group(1)
            question = f"In which year? ({value})" if leak else "Which year or name fills the last hop?"
            out = {"clue": f"It is tied to someone other than {bridge[:0]}a stranger.", "question": question, "answer": value}
        else:
            first = re.split(r"(?<=[.!?])\s+", text)[0]
            out = {
                "document_quotes": [first + (" and a forged tail" if lie else "")],
                "clue_quotes": [],
                "contains_truth": True,
            }
        body = json.dumps(out)
        return f"Sure! ```json\n{body[:-1]},}}\n```" if fence else body  # a trailing comma json-repair fixes

    return answer


def run_llm(chunks, tmp_path: Path, backend, n: int = 3, hops=(2,), **cfg):  # noqa: ANN001, ANN201
    mined = mine(chunks)
    gen = LLMGenerator(backend, None, mined, LLMConfig(structured="none", **cfg))
    out = tmp_path / "tasks.jsonl"
    report = generate(gen, mined, out, GenerateConfig(n=n, hops=tuple(hops), seed=0, patience=6), usage=gen.usage_counts)
    return report, read_task_file(out), gen


def test_every_stage_runs_and_the_tasks_verify(chunks, tmp_path: Path) -> None:  # noqa: ANN001
    backend = ScriptedBackend([oracle()] * 200)
    report, tasks, _ = run_llm(chunks, tmp_path, backend, n=3, hops=(2, 3))
    assert report.written == 3, report.as_dict()
    assert {"generate:ok", "chain:ok", "extract:ok"} <= set(report.stages)
    assert report.usage["calls"] == sum(v for k, v in report.stages.items() if k.endswith(":ok"))
    assert report.usage["prompt_tokens"] > 0 and report.usage["completion_tokens"] > 0
    for task in tasks:
        assert task.metadata["generator"] == "llm:scripted"
        assert task.hops == len(task.gold_doc_ids) in (2, 3)
        assert all(item["quotes"] for item in task.metadata["supporting"])


def test_fenced_broken_json_is_repaired(chunks, tmp_path: Path) -> None:  # noqa: ANN001
    report, tasks, _ = run_llm(chunks, tmp_path, ScriptedBackend([oracle(fence=True)] * 200), n=2, hops=(1, 2))
    assert report.written == 2 and not report.stages.get("generate:malformed")


def test_garbage_is_counted_reasked_and_never_crashes(chunks, tmp_path: Path) -> None:  # noqa: ANN001
    backend = ScriptedBackend(["I cannot help with that.", "{not json at all", "[1, 2, 3]"] * 100)
    report, tasks, _ = run_llm(chunks, tmp_path, backend, n=2, hops=(1, 2), parse_retries=2)
    assert report.written == 0 and tasks == []
    assert report.drops["malformed_model_output"] == report.attempted == 12  # patience 6 for each hop count
    assert report.stages["generate:malformed"] == 12
    assert report.usage["reasks"] == 24 and report.usage["calls"] == 36
    assert "cannot yield more" in report.stopped


def test_lying_quotes_and_leaks_are_dropped_by_the_verifier(chunks, tmp_path: Path) -> None:  # noqa: ANN001
    report, _, _ = run_llm(chunks, tmp_path / "a", ScriptedBackend([oracle(lie=True)] * 300), n=1, hops=(2,))
    assert report.written == 0 and report.drops["quote_not_in_document"] == report.attempted
    report, _, _ = run_llm(chunks, tmp_path / "b", ScriptedBackend([oracle(leak=True)] * 300), n=1, hops=(2,))
    assert report.written == 0 and report.drops["answer_leaks_into_question_or_clues"] >= report.attempted // 2


def test_a_dead_backend_stops_the_run_and_keeps_what_was_written(chunks, tmp_path: Path) -> None:  # noqa: ANN001
    # good turns for a few 1-hop tasks (generate + extract each), then the script runs out (BackendError)
    backend = ScriptedBackend([oracle()] * 8)
    report, tasks, _ = run_llm(chunks, tmp_path, backend, n=50, hops=(1,))
    assert 1 <= report.written == len(tasks) < 4
    assert report.drops["backend_failed"] == 2
    assert report.stopped.startswith("stopped: the backend failed 3 times in a row")


def test_structured_output_is_requested_from_openai_compatible_servers() -> None:
    backend = OpenAIBackend("http://127.0.0.1:9/v1", model="m")
    gen = LLMGenerator(backend, None, mine([]), LLMConfig(structured="json_schema"))
    body = gen._backend_for("extract").request_body([Message("user", "x")], [])
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"]["required"] == [
        "document_quotes",
        "clue_quotes",
        "contains_truth",
    ]
    assert "response_format" not in backend.request_body([Message("user", "x")], [])  # the original is untouched
    llama = LLMGenerator(backend, None, mine([]), LLMConfig(structured="json_object"))
    assert llama._backend_for("generate").request_body([], [])["response_format"]["type"] == "json_object"


def test_parse_json_object() -> None:
    assert parse_json_object('prose {"a": 1} more') == {"a": 1}
    assert parse_json_object('```json\n{"a": [1, 2,]}\n```') == {"a": [1, 2]}
    assert parse_json_object("no object here") is None
    assert parse_json_object("[1, 2]") is None


# ------------------------------------------------------------------ a real HTTP server


class _Handler(BaseHTTPRequestHandler):
    mode = "garbage"
    release: threading.Event  # set by the fixture's teardown: a "slow" reply is held until then

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("content-length", 0)))
        if self.mode == "slow":  # past any client timeout: answered only once the test is over
            self.release.wait(60)
        body = json.dumps({"choices": [{"message": {"content": "<<garbage>> {{{"}, "finish_reason": "stop"}]})
        try:
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(body.encode())
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def http_server() -> Iterator[tuple[str, type[_Handler]]]:
    handler = type("H", (_Handler,), {"release": threading.Event()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler
    handler.release.set()
    server.shutdown()
    server.server_close()


def test_garbage_and_timeouts_from_a_server(chunks, tmp_path: Path, http_server) -> None:  # noqa: ANN001
    url, handler = http_server
    backend = OpenAIBackend(url, model="m", max_retries=0, timeout_s=0.3)
    report, _, _ = run_llm(chunks, tmp_path / "g", backend, n=1, hops=(1,))
    assert report.written == 0 and report.drops["malformed_model_output"] == report.attempted > 0
    handler.mode = "slow"
    report, _, _ = run_llm(chunks, tmp_path / "s", backend, n=1, hops=(1,))
    assert report.written == 0 and "backend failed 3 times" in report.stopped and "timed out" in report.stopped


# -- the agent explorer (SPEC §4 step 1): the chain is gathered through the search agent's tools ------

def explorer_model(links: dict[str, tuple[str, str]], titles: dict[str, str], mode: str = "good"):  # noqa: ANN201
    """A scripted explorer: searches the seed, then the document it names, and answers with both.

    links: seed doc id -> (doc id it names, that document's title). mode: "good"; "unlinked" (answers
    with a document the seed does not name); "unread" (answers the right chain at once, from memory,
    without a search); "endless" (keeps searching).
    """
    by_title = {t: d for d, t in titles.items()}

    def answer(messages: Sequence[Message]):  # noqa: ANN202
        from context1.backends.scripted import call, turn

        seed = by_title[re.search(r'starts at "([^"]+)"', messages[1].content).group(1)]
        searches = sum(1 for m in messages if m.role == "tool")
        target, target_title = links[seed]
        if mode == "endless" or (searches == 0 and mode != "unread"):
            return turn(call("search_corpus", query=titles[seed]))
        if searches == 1 and mode == "good":
            return turn(call("search_corpus", query=target_title))
        if mode == "unlinked":
            target = next(d for d in titles if d not in (seed, target) and d not in dict(links.values()))
        return "".join(f"<Document id={d}><Justification>In the chain.</Justification></Document>"
                       for d in (seed, target))

    return answer


def run_with_explorer(datagen_index, tmp_path: Path, mode: str, n: int = 2):  # noqa: ANN001, ANN201
    from context1.backends.scripted import ScriptedBackend
    from corpus_tools import Corpus
    from datagen.run import mine_corpus

    with Corpus.open(datagen_index) as corpus:
        mined = mine_corpus(corpus)
        links = {}
        for doc, spans in mined.links.items():
            title_links = [s for s in spans if s.kind == "title"]
            if title_links:
                links[doc] = (title_links[0].target, mined.titles[title_links[0].target])
        explore, write = explorer_model(links, mined.titles, mode), oracle()
        backend = ScriptedBackend([lambda ms: explore(ms) if ms[0].role == "system" and "tools" in ms[0].content.lower()
                                   and "starts at" in ms[1].content else write(ms)] * 400)
        gen = LLMGenerator(backend, corpus, mined, LLMConfig(structured="none", explorer="agent", explore_turns=4))
        out = tmp_path / "tasks.jsonl"
        report = generate(gen, mined, out, GenerateConfig(n=n, hops=(2,), seed=0, patience=4), usage=gen.usage_counts)
        return report, read_task_file(out), links


def test_the_agent_explorer_gathers_a_title_linked_chain_through_the_tools(datagen_index, tmp_path: Path) -> None:  # noqa: ANN001
    report, tasks, links = run_with_explorer(datagen_index, tmp_path, "good")
    assert report.written == 2, report.as_dict()
    assert report.stages["explore:ok"] >= 2 and {"generate:ok", "chain:ok", "extract:ok"} <= set(report.stages)
    for task in tasks:
        first, second = task.gold_doc_ids
        assert links[first][0] == second  # the seed names the second document by its title
    # the explorer's turns are model calls like the others: three a chain (two searches, the answer)
    assert report.usage["calls"] >= 3 * report.stages["explore:ok"] + report.stages["generate:ok"]


@pytest.mark.parametrize(("mode", "why"), [("unlinked", "explore:unlinked"), ("unread", "explore:unread"),
                                           ("endless", "explore:unfinished")])
def test_an_explorer_chain_that_breaks_the_rule_is_dropped(datagen_index, tmp_path: Path, mode: str, why: str) -> None:  # noqa: ANN001
    report, tasks, _ = run_with_explorer(datagen_index, tmp_path, mode, n=1)
    assert report.written == 0 and tasks == []
    assert report.stages[why] == report.attempted == report.drops["no_chain_found"] > 0
    assert not report.stages.get("generate:ok")  # nothing was written from a broken chain


def test_the_agent_explorer_needs_an_llm_backend() -> None:
    with pytest.raises(ValueError, match="explorer"):
        LLMConfig(explorer="walk")
