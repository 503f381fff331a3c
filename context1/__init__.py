"""context1: a token-budgeted, self-pruning search agent over a hybrid corpus index."""

from typing import TYPE_CHECKING

from context1.agent import SearchAgent, fuse_rankings
from context1.answer import ParsedAnswer, parse_final_answer
from context1.config import AgentConfig
from context1.context import replay_messages
from context1.events import (
    Event,
    FinalEvent,
    ModelTurnEvent,
    ObservationEvent,
    PruneEvent,
    RolloutEndEvent,
    ToolCallEvent,
    UsageEvent,
)
from context1.harness import Episode
from context1.tools import tool_schemas
from context1.trajectory_io import (
    TruncatedTrajectoryWarning,
    load_trajectories,
    save_trajectories,
    trajectory_from_dict,
    trajectory_to_dict,
)
from context1.types import (
    Backend,
    BackendError,
    Evidence,
    Message,
    ModelTurn,
    Observation,
    RankedDocument,
    Role,
    SearchResult,
    Step,
    StopReason,
    ToolCall,
    Trajectory,
    Usage,
)
from context1.version import __version__
from corpus_tools import Corpus, CorpusConfig, Document

__all__ = [
    "__version__",
    "AgentConfig",
    "Backend",
    "BackendError",
    "Client",
    "Corpus",
    "CorpusConfig",
    "Document",
    "Episode",
    "Event",
    "FinalEvent",
    "Message",
    "ModelTurn",
    "ModelTurnEvent",
    "Observation",
    "ObservationEvent",
    "ParsedAnswer",
    "PruneEvent",
    "Evidence",
    "RankedDocument",
    "Role",
    "RolloutEndEvent",
    "SearchAgent",
    "SearchResult",
    "Step",
    "StopReason",
    "ToolCall",
    "ToolCallEvent",
    "Trajectory",
    "TruncatedTrajectoryWarning",
    "Usage",
    "UsageEvent",
    "fuse_rankings",
    "load_trajectories",
    "parse_final_answer",
    "replay_messages",
    "save_trajectories",
    "tool_schemas",
    "trajectory_from_dict",
    "trajectory_to_dict",
]

if TYPE_CHECKING:
    from context1.interfaces.client import Client


def __getattr__(name: str) -> object:
    # `Client` is imported when first asked for: it pulls in httpx and pydantic, which every
    # `context1` command paid for at start-up (~0.3-0.7 s) though only the HTTP client needs them.
    if name == "Client":
        from context1.interfaces.client import Client

        return Client
    raise AttributeError(f"module 'context1' has no attribute {name!r}")
