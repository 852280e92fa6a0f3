"""Strict and lax precision, recall and F1 of sentence-alignment beads.

The measure of Sennrich & Volk (2011) as vecalign's ``score.py`` computes it:
precision counts every predicted bead (also 1-0 and 0-1) that is not empty on both
sides; recall swaps gold and prediction and leaves out beads empty on one side. A
bead is a strict hit if the same bead is in the gold, a lax hit if it shares a
source sentence and a target sentence with gold.
"""

from __future__ import annotations

from collections import defaultdict

__all__ = ["f1_scores"]

Beads = list[tuple[tuple[int, ...], tuple[int, ...]]]


def _counts(gold: Beads, test: Beads) -> tuple[int, int, int, int]:
    """Strict hits, strict misses, lax hits, lax misses of ``test`` against ``gold``."""
    gold_set = {(s, t) for s, t in gold if s or t}
    gold_targets: dict[int, set[int]] = defaultdict(set)
    for s, t in gold_set:
        for i in s:
            gold_targets[i].update(t)
    hit = miss = lax_hit = lax_miss = 0
    for s, t in {(s, t) for s, t in test if s or t}:
        if (s, t) in gold_set:
            hit += 1
            lax_hit += 1
            continue
        miss += 1
        reachable = set().union(*(gold_targets[i] for i in s)) if s else set()
        if reachable & set(t):
            lax_hit += 1
        else:
            lax_miss += 1
    return hit, miss, lax_hit, lax_miss


def f1_scores(golds: list[Beads], tests: list[Beads]) -> dict[str, float]:
    """Strict and lax precision, recall and F1 over several documents.

    >>> gold = [((0,), (0,)), ((1, 2), (1,)), ((3,), ())]
    >>> f1_scores([gold], [[((0,), (0,)), ((1,), (1,)), ((2,), ()), ((3,), ())]])["f1_strict"]
    0.5
    """
    p = [0, 0, 0, 0]
    r = [0, 0, 0, 0]
    for gold, test in zip(golds, tests, strict=True):
        p = [x + y for x, y in zip(p, _counts(gold, test), strict=True)]
        both_gold = [(s, t) for s, t in gold if s and t]
        both_test = [(s, t) for s, t in test if s and t]
        r = [x + y for x, y in zip(r, _counts(both_test, both_gold), strict=True)]

    def ratio(a: int, b: int) -> float:
        return a / (a + b) if a + b else 0.0

    def f1(x: float, y: float) -> float:
        return 2 * x * y / (x + y) if x + y else 0.0

    ps, pl = ratio(p[0], p[1]), ratio(p[2], p[3])
    rs, rl = ratio(r[0], r[1]), ratio(r[2], r[3])
    return {"precision_strict": ps, "recall_strict": rs, "f1_strict": f1(ps, rs),
            "precision_lax": pl, "recall_lax": rl, "f1_lax": f1(pl, rl)}
