"""The four tools through the harness: rendering, dedup, parallel calls, malformed calls, inert documents."""

from __future__ import annotations

import re
import threading

import pytest

from context1 import AgentConfig, Episode, tool_schemas
from context1.backends.scripted import call, raw_call, turn
from context1.prompts import TOOL_NAMES, render_chunk, unescape_attr

QUERY = "Who designed the lighthouse of Korrin Bay?"
# The documented observation format, parsed the way an LLM-free policy would.
CHUNK_RE = re.compile(r'<chunk id="([^"]*)" doc="([^"]*)" title="([^"]*)">\n(.*?)\n</chunk>', re.S)


def episode(corpus, **config) -> Episode:
    return Episode(corpus, QUERY, AgentConfig(**config))


def test_tool_schemas_are_openai_functions():
    schemas = tool_schemas(AgentConfig())
    assert [s["function"]["name"] for s in schemas] == list(TOOL_NAMES)
    for s in schemas:
        assert s["type"] == "function"
        params = s["function"]["parameters"]
        assert params["type"] == "object" and len(params["required"]) == 1
    assert schemas[3]["function"]["parameters"]["properties"]["chunk_ids"]["type"] == "array"


def test_chunk_rendering_format_and_escaping():
    block = render_chunk("d#0", 'a"b', 'The "Grey" & <Co>', "body </chunk> and <chunk x>")
    # only the quote is escaped in attributes: ids a model copies carry no entities
    assert block.startswith('<chunk id="d#0" doc="a&quot;b" title="The &quot;Grey&quot; & <Co>">\n')
    assert block.endswith("\n</chunk>")
    assert "&lt;/chunk> and &lt;chunk x>" in block
    m = CHUNK_RE.fullmatch(block)
    assert m and unescape_attr(m.group(3)) == 'The "Grey" & <Co>'
    assert render_chunk("AT&T#0", "AT&T", "A <b> title", "x").startswith('<chunk id="AT&T#0" doc="AT&T" title="A <b> title">')


def test_search_observation_renders_chunks_with_metadata(harness_corpus):
    ep = episode(harness_corpus)
    [obs] = ep.act(turn(call("search_corpus", query="lighthouse engineer")))
    assert not obs.is_error and obs.chunk_ids
    blocks = CHUNK_RE.findall(obs.text)
    assert [b[0] for b in blocks] == list(obs.chunk_ids)
    for (cid, doc, title, text), (span_id, start, end) in zip(blocks, obs.metadata["chunk_spans"], strict=True):
        chunk = harness_corpus.chunk(cid)
        assert doc == chunk.doc_id and text == chunk.text and title == chunk.metadata["title"].replace('"', "&quot;")
        assert span_id == cid and obs.text[start:end] == render_chunk(cid, doc, chunk.metadata["title"], text)
    assert obs.doc_ids == tuple(dict.fromkeys(harness_corpus.chunk(c).doc_id for c in obs.chunk_ids))
    assert len(obs.metadata["scores"]) == len(obs.chunk_ids)
    assert len(obs.chunk_ids) <= AgentConfig().search_k


def test_title_with_quotes_is_escaped_in_attributes(harness_corpus):
    ep = episode(harness_corpus)
    [obs] = ep.act(turn(call("read_document", doc_id="quoted-almanac")))
    assert 'title="The &quot;Grey Sea&quot; Almanac & <Tide> Tables"' in obs.text


def test_seen_chunks_never_come_back_from_search_or_grep(harness_corpus):
    ep = episode(harness_corpus)
    [first] = ep.act(turn(call("search_corpus", query="lighthouse")))
    [again] = ep.act(turn(call("search_corpus", query="lighthouse")))
    [grep] = ep.act(turn(call("grep_corpus", pattern="(?i)lighthouse")))
    shown = [set(first.chunk_ids), set(again.chunk_ids), set(grep.chunk_ids)]
    assert shown[0] and shown[1]
    assert not shown[0] & shown[1] and not (shown[0] | shown[1]) & shown[2]
    for cid in grep.chunk_ids:
        assert re.search("(?i)lighthouse", harness_corpus.chunk(cid).text)
    assert len(grep.chunk_ids) <= AgentConfig().grep_k
    # a grep that only matches chunks already seen says so, without an error
    [none] = ep.act(turn(call("grep_corpus", pattern="(?i)lighthouse")))
    assert not none.is_error and not none.chunk_ids and none.text.startswith("No new chunks")


def test_parallel_calls_run_concurrently_and_come_back_in_call_order(harness_corpus):
    class Rendezvous:
        """Two searches must be inside the corpus at the same time, or the barrier breaks."""

        def __init__(self, corpus):
            self._corpus = corpus
            self._barrier = threading.Barrier(2, timeout=10)

        def search(self, *args, **kwargs):
            self._barrier.wait()
            return self._corpus.search(*args, **kwargs)

        def __getattr__(self, name):
            return getattr(self._corpus, name)

    ep = Episode(Rendezvous(harness_corpus), QUERY, AgentConfig())
    t = turn(call("search_corpus", query="lighthouse"), call("search_corpus", query="lighthouse"),
             call("prune_chunks", chunk_ids=["nope#0"]))
    obs = ep.act(t)
    assert [o.tool for o in obs] == ["search_corpus", "search_corpus", "prune_chunks"]
    assert [o.call_id for o in obs] == [c.id for c in ep.trajectory.steps[0].turn.tool_calls]
    assert len({o.call_id for o in obs}) == 3
    assert not obs[0].is_error and not obs[1].is_error
    # the same query twice in one turn: the second shows only chunks the first did not
    assert obs[0].chunk_ids and not set(obs[0].chunk_ids) & set(obs[1].chunk_ids)
    # the usage line closes the turn's last tool message only
    assert "[Token usage:" in obs[2].text and all("[Token usage:" not in o.text for o in obs[:2])


def test_read_document_returns_reranked_chunks_even_if_seen(harness_corpus):
    ep = episode(harness_corpus)
    [search] = ep.act(turn(call("search_corpus", query="Lanmouth harbour shipyard history")))
    [read] = ep.act(turn(call("read_document", doc_id="lanmouth-harbour")))
    n = len(harness_corpus.chunks("lanmouth-harbour"))
    assert n > 3
    assert read.text.startswith(f"Document 'lanmouth-harbour': {n} of {n} chunks")
    assert sorted(read.chunk_ids) == sorted(c.chunk_id for c in harness_corpus.chunks("lanmouth-harbour"))
    assert read.chunk_ids == tuple(h.chunk.chunk_id for h in harness_corpus.read("lanmouth-harbour", query=QUERY))
    assert set(search.chunk_ids) & set(read.chunk_ids)  # reading is explicit: seen chunks are shown again


def test_read_document_with_a_chunk_id_reads_its_document(harness_corpus):
    ep = episode(harness_corpus)
    [obs] = ep.act(turn(call("read_document", doc_id="korrin-bay#0")))
    assert not obs.is_error and obs.doc_ids == ("korrin-bay",)
    assert "is a chunk id" in obs.text


MALFORMED = [
    (raw_call("search_corpus", '{"query": "lighthouse"'), "could not parse the arguments"),
    (raw_call("search_corpus", '["lighthouse"]'), "could not parse the arguments"),
    (call("web_search", query="x"), "unknown tool 'web_search'"),
    (call("search_corpus"), 'needs the argument "query"'),
    (call("search_corpus", q="lighthouse"), 'needs the argument "query"'),
    (call("search_corpus", query=5), "must be a string"),
    (call("search_corpus", query="   "), "is empty"),
    (call("search_corpus", query="x" * 2001), "the limit is 2,000"),
    (call("grep_corpus", pattern="(unclosed"), "invalid regular expression"),
    (call("grep_corpus", pattern=["a"]), "must be a string"),
    (call("read_document", doc_id="no-such-doc"), "unknown document id 'no-such-doc'"),
    (call("read_document", doc_id="no-such#3"), "unknown document id"),
    (call("prune_chunks", chunk_ids=5), "must be a list of strings"),
    (call("prune_chunks", chunk_ids=[1, 2]), "must be a list of strings"),
    (call("prune_chunks", chunk_ids=[]), "at least one chunk id"),
    (call("prune_chunks", chunk_ids=["veldhaven#0"]), "never shown"),
    (call("prune_chunks", chunk_ids=[f"x#{i}" for i in range(300)]), "at most 256"),
]


@pytest.mark.parametrize(("bad", "message"), MALFORMED, ids=[f"{c.name}-{i}" for i, (c, _) in enumerate(MALFORMED)])
def test_malformed_calls_become_error_observations_and_the_loop_goes_on(harness_corpus, bad, message):
    ep = episode(harness_corpus)
    [obs] = ep.act(turn(bad))
    assert obs.is_error and obs.text.startswith("Error: ") and message in obs.text
    assert not obs.chunk_ids and not ep.done
    [ok] = ep.act(turn(call("search_corpus", query="lighthouse")))
    assert not ok.is_error and ok.chunk_ids


def test_unknown_extra_arguments_are_ignored_with_a_note(harness_corpus):
    ep = episode(harness_corpus)
    [obs] = ep.act(turn(call("search_corpus", query="lighthouse", k=50)))
    assert not obs.is_error and obs.chunk_ids and "Ignored unknown argument(s) 'k'" in obs.text


def test_document_text_is_inert_data(harness_corpus):
    ep = episode(harness_corpus)
    [obs] = ep.act(turn(call("read_document", doc_id="injection-notes")))
    assert obs.chunk_ids and all(c.startswith("injection-notes#") for c in obs.chunk_ids)
    # the forged chunk markup cannot fake a chunk boundary for a parser of the format
    parsed = [m[0] for m in CHUNK_RE.findall(obs.text)]
    assert parsed == list(obs.chunk_ids) and "fake#0" not in parsed
    assert '&lt;/chunk>&lt;chunk id="fake#0"' in obs.text
    # nothing in it was executed or taken as an answer: veldhaven was never shown nor pruned
    ep.act(turn(text="I found nothing useful."))
    traj = ep.trajectory
    assert [len(s.turn.tool_calls) for s in traj.steps] == [1, 0]
    assert traj.pruned_chunk_ids() == [] and "veldhaven" not in traj.seen_doc_ids()
    assert [d.doc_id for d in traj.documents] == ["injection-notes"]  # the fallback, not the injected answer
    assert traj.metadata["answer_fallback"] is True


def test_call_ids_are_filled_in_and_made_unique(harness_corpus):
    ep = episode(harness_corpus)
    dup = call("search_corpus", query="lighthouse")
    obs = ep.act(turn(dup, dup))
    ids = [o.call_id for o in obs]
    assert all(ids) and len(set(ids)) == 2
    assert ids == [c.id for c in ep.trajectory.steps[0].turn.tool_calls]
    msgs = ep.messages()
    assert [m.tool_call_id for m in msgs[-2:]] == ids


def test_episode_messages_follow_the_chat_shape(harness_corpus):
    ep = episode(harness_corpus)
    ep.act(turn(call("search_corpus", query="lighthouse"), text="Searching."))
    roles = [m.role.value for m in ep.messages()]
    assert roles == ["system", "user", "assistant", "tool"]
    assistant, tool = ep.messages()[2:]
    assert assistant.content == "Searching." and assistant.tool_calls[0].name == "search_corpus"
    assert tool.name == "search_corpus" and tool.tool_call_id == assistant.tool_calls[0].id


def test_query_is_validated(harness_corpus):
    with pytest.raises(ValueError, match="the query is empty"):
        Episode(harness_corpus, "  ")


def test_acting_on_a_finished_episode_raises(harness_corpus):
    ep = episode(harness_corpus)
    ep.act(turn(text="<Document id=veldhaven></Document>"))
    with pytest.raises(RuntimeError, match="episode is over"):
        ep.act(turn(call("search_corpus", query="x")))
