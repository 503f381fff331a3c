"""corpus_tools: documents → chunks → a persisted hybrid index (BM25 + dense + RRF + rerank) → ranked chunks."""

from corpus_tools.chunking import ChunkingConfig, chunk_document, chunk_documents
from corpus_tools.config import BM25Config, CorpusConfig, SearchConfig
from corpus_tools.corpus import Corpus
from corpus_tools.embed import CachedEmbedder, EmbeddingCache, SentenceTransformerEmbedder, retrieval_text
from corpus_tools.fusion import reciprocal_rank_fusion
from corpus_tools.loaders import iter_documents, load_documents
from corpus_tools.repair import repair_vectors
from corpus_tools.rerank import BiEncoderReranker, CrossEncoderReranker, NoReranker, make_reranker
from corpus_tools.types import (
    BuildReport,
    Chunk,
    CorpusError,
    Document,
    Embedder,
    EmptyQueryError,
    FileNote,
    GrepResult,
    Hit,
    IndexFormatError,
    InvalidPatternError,
    Leg,
    LoadReport,
    Reranker,
    SkippedFile,
    SkippedProjectFile,
    Tokenizer,
    UnknownDocumentError,
)

__all__ = [
    "BM25Config",
    "BuildReport",
    "BiEncoderReranker",
    "CachedEmbedder",
    "Chunk",
    "ChunkingConfig",
    "Corpus",
    "CorpusConfig",
    "CorpusError",
    "CrossEncoderReranker",
    "Document",
    "Embedder",
    "EmbeddingCache",
    "EmptyQueryError",
    "FileNote",
    "GrepResult",
    "Hit",
    "IndexFormatError",
    "InvalidPatternError",
    "Leg",
    "LoadReport",
    "NoReranker",
    "Reranker",
    "SentenceTransformerEmbedder",
    "SearchConfig",
    "SkippedFile",
    "SkippedProjectFile",
    "Tokenizer",
    "UnknownDocumentError",
    "chunk_document",
    "chunk_documents",
    "iter_documents",
    "load_documents",
    "make_reranker",
    "reciprocal_rank_fusion",
    "repair_vectors",
    "retrieval_text",
]
