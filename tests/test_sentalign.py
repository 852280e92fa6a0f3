"""The aligner core on synthetic vectors (no model): coverage, merges, drops, banding."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.align.core import AlignParams, Bead, align, format_bead


def unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def synthetic(n: int, seed: int, merges: set[int] = frozenset(), drops: set[int] = frozenset()):
    """Source vectors; target = source + noise, with target merges and source drops."""
    rng = np.random.default_rng(seed)
    src = unit(rng.normal(size=(n, 64)))
    tgt_rows, tgt_texts, gold = [], [], []
    i = 0
    while i < n:
        if i in drops:
            gold.append(((i,), ()))
            i += 1
        elif i in merges and i + 1 < n:
            tgt_rows.append(src[i] + src[i + 1])
            tgt_texts.append("x" * 120)
            gold.append(((i, i + 1), (len(tgt_rows) - 1,)))
            i += 2
        else:
            tgt_rows.append(src[i])
            tgt_texts.append("x" * 60)
            gold.append(((i,), (len(tgt_rows) - 1,)))
            i += 1
    tgt = unit(np.array(tgt_rows) + 0.3 * rng.normal(size=(len(tgt_rows), 64)) / 8)
    return ["x" * 60] * n, tgt_texts, src, tgt, gold


def covers(beads: list[Bead], n: int, m: int) -> bool:
    src = [i for b in beads for i in b.src]
    tgt = [j for b in beads for j in b.tgt]
    return src == list(range(n)) and tgt == list(range(m))


def test_one_to_one():
    s, t, sv, tv, gold = synthetic(30, seed=1)
    beads = align(s, t, sv, tv)
    assert [(b.src, b.tgt) for b in beads] == gold
    assert all(b.confidence > 0.5 for b in beads)


def test_merges_and_drops_are_found():
    s, t, sv, tv, gold = synthetic(40, seed=2, merges={5, 20}, drops={12, 31})
    beads = align(s, t, sv, tv)
    assert covers(beads, len(s), len(t))
    assert [(b.src, b.tgt) for b in beads] == gold
    assert all(b.confidence == 0.0 for b in beads if not (b.src and b.tgt))


@pytest.mark.parametrize("n", [250, 700])
def test_long_inputs_use_the_band_and_stay_exact(n: int):
    s, t, sv, tv, gold = synthetic(n, seed=n, merges={40, 90, 200}, drops={150, 220})
    beads = align(s, t, sv, tv)
    assert covers(beads, len(s), len(t))
    right = len({(b.src, b.tgt) for b in beads} & set(gold))
    assert right / len(gold) > 0.99


def test_empty_sides():
    vec = unit(np.ones((2, 4)))
    assert [format_bead(b) for b in align(["a", "b"], [], vec, vec[:0])] == [
        "[0]:[]:0.00", "[1]:[]:0.00"]
    assert [format_bead(b) for b in align([], ["a"], vec[:0], vec[:1])] == ["[]:[0]:0.00"]


def counting_embed(dim: int, asked: list[str]):
    """An embedding function that notes the texts it is asked for."""
    def embed(texts: list[str]) -> np.ndarray:
        asked.extend(texts)
        return unit(np.ones((len(texts), dim)))
    return embed


def test_refinement_embeds_real_concatenations():
    s, t, sv, tv, _ = synthetic(12, seed=3, merges={4})
    asked: list[str] = []
    align(s, t, sv, tv, embed=counting_embed(sv.shape[1], asked))
    runs = {" ".join(side[i:j]) for side in (s, t) for i in range(len(side))
            for j in range(i + 2, min(i + 6, len(side)) + 1)}
    assert asked and set(asked) <= runs  # neighbours of one side, joined as printed


def test_confidence_is_low_for_a_pair_that_is_no_translation():
    # target 10 replaced by an unrelated sentence: the aligner still pairs it with
    # source 10 (skipping both costs more), but must not be sure of that pair
    s, t, sv, tv, gold = synthetic(20, seed=4)
    tv = tv.copy()
    tv[10] = unit(np.random.default_rng(9).normal(size=(1, 64)))[0]
    beads = align(s, t, sv, tv)
    assert [(b.src, b.tgt) for b in beads] == gold
    assert beads[10].confidence < 0.75
    assert min(b.confidence for k, b in enumerate(beads) if k != 10) > 0.9


@pytest.mark.parametrize("budget", [0.0, 0.05, 0.2])
def test_refinement_stays_within_its_budget(budget: float):
    s, t, sv, tv, _ = synthetic(60, seed=5, merges={4, 10, 17, 25, 33, 41, 50})
    asked: list[str] = []
    align(s, t, sv, tv, AlignParams(refine_budget=budget), embed=counting_embed(64, asked))
    spent = sum(len(text) - text.count(" ") for text in asked)  # joined by one space
    assert spent <= budget * sum(map(len, s + t))
    assert bool(asked) == (budget > 0)


def test_sentences_left_out_are_not_refined_around():
    # only drops: every bead with both sides is a sure 1-1, so nothing is refined
    s, t, sv, tv, gold = synthetic(30, seed=6, drops={7, 19})
    asked: list[str] = []
    beads = align(s, t, sv, tv, embed=counting_embed(64, asked))
    assert [(b.src, b.tgt) for b in beads] == gold
    assert asked == []


def test_a_short_heading_weighs_little_in_a_merge():
    # the target line holds a heading and the sentence after it, and its vector is the
    # sentence's with a little of the heading's (the model mean-pools tokens): with
    # the sum weighed by length the 2-1 bead is found, with a plain sum it is not
    rng = np.random.default_rng(7)
    sv = unit(rng.normal(size=(6, 64)))
    heading = 2
    src = ["x" * 80, "x" * 80, "ANNEX I", "x" * 200, "x" * 80, "x" * 80]
    rows = [sv[0], sv[1], 0.15 * sv[heading] + sv[3], sv[4], sv[5]]
    tv = unit(np.array(rows) + 0.02 * rng.normal(size=(5, 64)))
    tgt = ["y" * 80, "y" * 80, "y" * 210, "y" * 80, "y" * 80]
    weighed = align(src, tgt, sv, tv)
    plain = align(src, tgt, sv, tv, AlignParams(weight_cap=1.0))
    assert ((2, 3), (2,)) in [(b.src, b.tgt) for b in weighed]
    assert ((2, 3), (2,)) not in [(b.src, b.tgt) for b in plain]
