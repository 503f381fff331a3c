"""benchmarks/docs_agent.py's compare modes (issue 34): which IterativeConfig each arm runs."""

from __future__ import annotations

from bench_modules import bench

from context1.backends.iterative import IterativeConfig


class _Corpus:
    """What SearchAgent checks a corpus has; the arms are built, never run."""

    def search(self, *a, **k): return []
    def grep(self, *a, **k): return []
    def read(self, *a, **k): return ""
    def chunk(self, *a, **k): return None
    def has_doc(self, *a, **k): return False
    def title(self, *a, **k): return ""
    def count_tokens(self, text): return len(text.split())


def test_first_search_links_sets_off_to_ee9f243_and_on_to_the_defaults():
    arms = bench("docs_agent").agents(_Corpus(), "first_search_links")
    assert arms["off"].backend.config == IterativeConfig(first_search_links=0, first_search_floor=0.0)
    assert arms["on"].backend.config == IterativeConfig()


def test_first_search_floor_sets_off_to_22d84e9_and_on_to_the_defaults():
    arms = bench("docs_agent").agents(_Corpus(), "first_search_floor")
    assert arms["off"].backend.config == IterativeConfig(first_search_floor=0.0)
    assert arms["on"].backend.config == IterativeConfig()
    assert arms["on"].backend.config.first_search_floor == 1.0


def test_session_42s_off_arms_stay_what_they_measured():
    for compare in ("first_search", "first_search_top"):
        off = bench("docs_agent").agents(_Corpus(), compare)["off"].backend.config
        assert off.first_search_links == 0 and off.first_search_floor == 0.0
