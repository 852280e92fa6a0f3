"""Shared fixtures: the repo's sample inbox and the project's shared data folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pipeline.config import Settings

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "raw" / "samples"
SHARED = REPO.parent / "shared"

# The benchmark scripts' scoring functions are used by the tests that guard their figures.
sys.path.insert(0, str(REPO / "bench"))


@pytest.fixture
def shared() -> Path:
    """``../shared`` (seeds, gold, corpora); tests that need it skip without it."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} not present")
    return SHARED


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings for an empty project folder under tmp_path."""
    return Settings.for_root(tmp_path)


def words_recovered(truth: str, text: str) -> float:
    """Share of the words of ``truth`` found, in order, in ``text`` (an OCR accuracy)."""
    import difflib

    expected, got = truth.split(), text.split()
    matcher = difflib.SequenceMatcher(None, expected, got, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / len(expected)
