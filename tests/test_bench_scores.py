"""The benchmark's scoring function, which tests also use as an oracle, checked on beads
scored by hand."""

from __future__ import annotations

import pytest
from align_score import f1_scores

GOLD = [((0,), (0,)), ((1, 2), (1,)), ((3,), ())]


def test_a_perfect_alignment_scores_one_and_an_empty_one_zero():
    assert set(f1_scores([GOLD], [GOLD]).values()) == {1.0}
    assert set(f1_scores([GOLD], [[]]).values()) == {0.0}


def test_strict_and_lax_counts_by_hand():
    # predicted: 0-0 (strict hit), 1-1 (lax hit: shares sentence 1 with gold's 1,2-1),
    # 2-() (miss: sentence 2 is paired in gold), 3-() (strict hit). Recall leaves out
    # beads empty on a side: gold 0-0 found, 1,2-1 only laxly (through 1-1).
    scores = f1_scores([GOLD], [[((0,), (0,)), ((1,), (1,)), ((2,), ()), ((3,), ())]])
    assert scores == pytest.approx({
        "precision_strict": 2 / 4, "recall_strict": 1 / 2, "f1_strict": 0.5,
        "precision_lax": 3 / 4, "recall_lax": 2 / 2, "f1_lax": 2 * 0.75 / 1.75})


def test_documents_are_pooled_not_averaged():
    wrong = [((0,), (1,)), ((1, 2), (0,)), ((3,), ())]
    pooled = f1_scores([GOLD, GOLD], [GOLD, wrong])
    assert pooled["precision_strict"] == pytest.approx(4 / 6)  # 3 of 3, then 1 of 3
