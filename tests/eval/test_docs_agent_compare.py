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
    assert arms["off"].backend.config == IterativeConfig(first_search_links=0)
    assert arms["on"].backend.config == IterativeConfig()


def test_session_42s_off_arms_stay_what_they_measured():
    for compare in ("first_search", "first_search_top"):
        assert bench("docs_agent").agents(_Corpus(), compare)["off"].backend.config.first_search_links == 0
