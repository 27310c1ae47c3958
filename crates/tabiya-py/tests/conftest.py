"""Shared fixtures: the corpus (``TABIYA_CORPUS``; unset, corpus tests are skipped and pytest
counts them; set but a file missing, the test fails) and the repository's own files."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def corpus_file(relative: str) -> Path:
    corpus = os.environ.get("TABIYA_CORPUS")
    if not corpus:
        pytest.skip("TABIYA_CORPUS is not set")
    path = Path(corpus) / relative
    assert path.exists(), f"corpus file missing: {path}"
    return path


@pytest.fixture
def sample_pgn() -> Path:
    return ROOT / "samples" / "famous-games.pgn"


@pytest.fixture
def shogi_data() -> Path:
    return ROOT / "crates" / "tabiya-shogi" / "tests" / "data"
