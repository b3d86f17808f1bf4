"""A deterministic, offline embedding for lesson text.

`HashingEmbedding` hashes lower-cased word unigrams and character trigrams into a fixed number of
dimensions (blake2b, so the same text maps to the same vector in every process — Python's `hash()` is
salted per process) and L2-normalises the result. Why not a neural model: Chroma's default embedding
downloads one on first use and fails offline; this one needs no download and never changes under us. It
is lexical, so it is weaker than a neural model (no synonyms); a stronger embedder can be configured
later behind the same Chroma embedding-function interface (a new name means a new collection).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Literal

import numpy as np
from chromadb import Documents, EmbeddingFunction, Embeddings
from chromadb.api.types import Space
from chromadb.utils.embedding_functions import register_embedding_function

DEFAULT_DIMENSIONS = 256
_WORD = re.compile(r"[a-z0-9]+")
# Words say more than trigrams; trigrams catch inflections ("WATER" vs "water-type", "moves" vs "move").
_WORD_WEIGHT = 1.0
_TRIGRAM_WEIGHT = 0.5


def _bucket(feature: str, dimensions: int) -> tuple[int, float]:
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    # One hash bit picks the sign, so colliding features cancel on average instead of piling up.
    return (value >> 1) % dimensions, (1.0 if value & 1 else -1.0)


@register_embedding_function
class HashingEmbedding(EmbeddingFunction[Documents]):
    def __init__(self, dimensions: int = DEFAULT_DIMENSIONS) -> None:
        if dimensions < 8:
            raise ValueError(f"dimensions must be at least 8, got {dimensions}")
        self.dimensions = dimensions

    def embed(self, text: str) -> np.ndarray:
        vector = np.zeros(self.dimensions, dtype=np.float32)
        words = _WORD.findall(text.lower())
        for word in words:
            index, sign = _bucket("w:" + word, self.dimensions)
            vector[index] += sign * _WORD_WEIGHT
            padded = f" {word} "
            for start in range(len(padded) - 2):
                index, sign = _bucket("c:" + padded[start : start + 3], self.dimensions)
                vector[index] += sign * _TRIGRAM_WEIGHT
        norm = float(np.linalg.norm(vector))
        if norm == 0.0:
            # Empty or symbol-only text: a fixed unit vector keeps cosine distance defined.
            vector[0] = 1.0
            return vector
        return vector / norm

    def __call__(self, input: Documents) -> Embeddings:
        return [self.embed(text) for text in input]

    @staticmethod
    def name() -> str:
        return "engine-hashing-v1"

    def get_config(self) -> dict[str, Any]:
        return {"dimensions": self.dimensions}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> HashingEmbedding:
        return HashingEmbedding(dimensions=int(config.get("dimensions", DEFAULT_DIMENSIONS)))

    def default_space(self) -> Space:
        return "cosine"

    def supported_spaces(self) -> list[Space]:
        return ["cosine", "l2", "ip"]

    def validate_config_update(self, old_config: dict[str, Any], new_config: dict[str, Any]) -> None:
        if old_config.get("dimensions") != new_config.get("dimensions"):
            raise ValueError("the embedding dimension of an existing collection cannot change")


EmbeddingName = Literal["hashing", "minilm"]


def embedding_function(name: EmbeddingName) -> EmbeddingFunction[Documents]:
    """The configured embedder. minilm is Chroma's own ONNX all-MiniLM-L6-v2: imported only when chosen,
    because it downloads its model on first use."""
    if name == "hashing":
        return HashingEmbedding()
    from chromadb.utils.embedding_functions import DefaultEmbeddingFunction

    return DefaultEmbeddingFunction()
