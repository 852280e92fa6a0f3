"""Sentence alignment: scores from sentence embeddings and a banded dynamic program.

Inputs are two lists of sentences and their unit vectors; the output is a list of
:class:`Bead` s covering every sentence of both sides in order, each with a
confidence in [0, 1] (the vecalign/Bertalign bead format plus the confidence:
``[0]:[0, 1]:0.93``; ``[5]:[]:0.00`` for a sentence with no counterpart).

Scoring. Raw cosine similarity of this model is compressed (translations about
0.77–0.95, unrelated sentences 0.73–0.87), so a bead is scored by its *margin*: the
cosine of its two sides minus the mean cosine each side has with a fixed sample of
the other side's sentences. Sentences merged into one side of a bead are
represented by the normalized sum of their vectors, each weighed by its length up
to ``weight_cap`` characters (the model mean-pools tokens, so in the embedding of
a real concatenation a heading or item label weighs less than the sentence beside
it; longer sentences count alike). To the margin are added a
length term (log ratio of character counts against the document's overall ratio)
and an anchor term (agreement of the numbers the two sides contain); the sum is
weighed by the bead's size, its sentences counted the same way (a short line as a
fraction of one).

Search. Beads of up to ``max_merge`` sentences a side and ``max_bead`` in all are
allowed (1-1, 1-2, 2-1, 2-2, ..., 1-5, 2-3), plus 1-0 and 0-1. The dynamic program
runs in a band around a path found on a coarser copy of both texts (neighbouring
sentences averaged pairwise, recursively, until the texts are short), so its cost
grows linearly with length.

Second pass (with an embedding function). The summed vector of merged sentences
only approximates what they say together, so the beads the first pass merged or
was unsure of are looked at again: the real concatenations around them are
embedded, least confident bead first, within a budget of ``refine_budget`` times
the characters of both sides (so the whole run stays near the cost of embedding
every sentence once), and the search runs again with them.

Confidence. Every path through the band is weighted by exp(value / temperature); a
bead's confidence is the share of that weight on paths that hold it (its posterior,
by forward-backward over the same lattice). A bead the text leaves no doubt about
gets nearly 1 even if its margin is modest; one with a near-equal rival gets about ½.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pipeline.config import AlignParams

__all__ = ["AlignParams", "Bead", "align", "format_bead"]

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")

#: Consecutive sentences of one side as (how many, end): sentences end - how many .. end - 1.
Window = tuple[int, int]


@dataclass(frozen=True)
class Bead:
    """Source and target sentence indices (0-based, possibly empty) and a confidence."""

    src: tuple[int, ...]
    tgt: tuple[int, ...]
    confidence: float


def format_bead(bead: Bead) -> str:
    """The bead in vecalign's format with the confidence appended.

    >>> format_bead(Bead((0,), (0, 1), 0.931))
    '[0]:[0, 1]:0.93'
    >>> format_bead(Bead((5,), (), 0.0))
    '[5]:[]:0.00'
    """
    return f"[{', '.join(map(str, bead.src))}]:[{', '.join(map(str, bead.tgt))}]:" \
           f"{bead.confidence:.2f}"


def align(src_texts: list[str], tgt_texts: list[str], src_vecs: np.ndarray,
          tgt_vecs: np.ndarray, params: AlignParams | None = None,
          embed: Callable[[list[str]], np.ndarray] | None = None) -> list[Bead]:
    """Align two sentence lists; every sentence appears in exactly one bead, in order.

    With ``embed`` (texts to unit vectors), a second pass embeds the real
    concatenations of neighbouring sentences wherever the first pass merged
    sentences or was unsure, within ``refine_budget``, and searches again with them.
    """
    params = params or AlignParams()
    n, m = len(src_texts), len(tgt_texts)
    if n == 0 or m == 0:
        return ([Bead((i,), (), 0.0) for i in range(n)]
                + [Bead((), (j,), 0.0) for j in range(m)])
    src = _Side.of_texts(src_texts, src_vecs, tgt_vecs, params)
    tgt = _Side.of_texts(tgt_texts, tgt_vecs, src_vecs, params)
    ratio = max(src.lengths.sum(), 1) / max(tgt.lengths.sum(), 1)
    band = _band(src, tgt, ratio, params)
    beads = _search(src, tgt, ratio, band, params, params.max_merge, params.max_bead)
    if embed is None:
        return beads
    src_windows, tgt_windows = _refinements(beads, src_texts, tgt_texts, params)
    if not src_windows and not tgt_windows:
        return beads
    src.refine(src_texts, src_windows, embed, tgt_vecs, params)
    tgt.refine(tgt_texts, tgt_windows, embed, src_vecs, params)
    return _search(src, tgt, ratio, band, params, params.max_merge, params.max_bead)


def _refinements(beads: list[Bead], src_texts: list[str], tgt_texts: list[str],
                 params: AlignParams) -> tuple[list[Window], list[Window]]:
    """The windows of each side the second pass embeds for real: around each doubtful
    bead (merged, or 1-1 below ``refine_below``), least confident first, until
    ``refine_budget`` is spent.

    Around a bead the windows are its side itself (if it holds two or more sentences)
    and the side grown by one sentence either way, up to ``max_merge`` sentences: the
    merges the search hesitated between. Sentences left without counterpart are not
    refined around: the real embedding of a translation with one unrelated sentence
    more stays close to the translation alone, so it would pull a sentence that has
    no counterpart into its neighbour's bead.
    """
    doubtful = sorted((b for b in beads if b.src and b.tgt and (
        len(b.src) > 1 or len(b.tgt) > 1 or b.confidence < params.refine_below)),
        key=lambda b: b.confidence)
    budget = params.refine_budget * sum(map(len, src_texts + tgt_texts))
    chosen: tuple[list[Window], list[Window]] = ([], [])
    for bead in doubtful:
        for found, span, texts in ((chosen[0], bead.src, src_texts),
                                   (chosen[1], bead.tgt, tgt_texts)):
            for window in _around(span, len(texts), params.max_merge):
                if window in found:
                    continue
                cost = sum(len(t) for t in texts[window[1] - window[0]:window[1]])
                if cost > budget:
                    return chosen
                budget -= cost
                found.append(window)
    return chosen


def _around(span: tuple[int, ...], count: int, max_merge: int) -> list[Window]:
    """The span itself and the span grown by one sentence either way, as windows of
    two to ``max_merge`` sentences within ``count``.

    >>> _around((3,), 10, 5)
    [(2, 4), (2, 5)]
    >>> _around((0, 1), 2, 5)
    [(2, 2)]
    """
    if not span:
        return []
    first, last = span[0], span[-1] + 1
    spans = ((first, last), (first - 1, last), (first, last + 1))
    return [(end - start, end) for start, end in spans
            if start >= 0 and end <= count and 2 <= end - start <= max_merge]


class _Side:
    """One side's sentences as the dynamic program needs them."""

    def __init__(self, lengths: np.ndarray, numbers: list[frozenset[str]], vecs: np.ndarray,
                 other: np.ndarray, params: AlignParams) -> None:
        self.vecs = vecs
        self.lengths = lengths
        self.cumlen = np.concatenate([[0.0], np.cumsum(self.lengths)])
        #: numbers_of[a][i]: the numbers in sentences i-a .. i-1
        self.numbers_of = {a: [frozenset[str]().union(*numbers[max(0, i - a):i])
                               for i in range(len(numbers) + 1)]
                           for a in range(1, params.max_merge + 1)}
        sample = self.sample(other, params)
        weights = np.minimum(lengths + 1.0, params.weight_cap)
        #: cumsize[i] - cumsize[i - a]: sentences i-a .. i-1 counted by length
        self.cumsize = np.concatenate([[0.0], np.cumsum(weights / params.weight_cap)])
        cumvec = np.concatenate([np.zeros((1, vecs.shape[1]), vecs.dtype),
                                 np.cumsum(vecs * weights[:, None], axis=0)])
        #: seg[a][i]: unit vector of sentences i-a .. i-1 (a sentences ending before i)
        self.seg: dict[int, np.ndarray] = {}
        self.base: dict[int, np.ndarray] = {}
        for a in range(1, params.max_merge + 1):
            sums = np.zeros_like(cumvec)
            sums[a:] = cumvec[a:] - cumvec[:-a]
            norms = np.linalg.norm(sums, axis=1, keepdims=True)
            unit = np.divide(sums, norms, out=np.zeros_like(sums), where=norms > 0)
            self.seg[a] = unit
            self.base[a] = (unit @ sample.T).mean(axis=1)

    @classmethod
    def of_texts(cls, texts: list[str], vecs: np.ndarray, other: np.ndarray,
                 params: AlignParams) -> _Side:
        """A side made of sentences: their lengths, numbers and vectors."""
        numbers = [frozenset(n.replace(",", "").replace(".", "") for n in _NUMBER.findall(t))
                   for t in texts]
        return cls(np.array([len(t) for t in texts], dtype=np.float64), numbers, vecs,
                   other, params)

    def halved(self, other: _Side, params: AlignParams) -> _Side:
        """A coarser copy: neighbouring sentences merged pairwise (numbers dropped)."""
        lengths = _sum_pairs(self.lengths)
        return _Side(lengths, [frozenset()] * len(lengths), _halve(self.vecs),
                     _halve(other.vecs), params)

    def refine(self, texts: list[str], windows: list[Window],
               embed: Callable[[list[str]], np.ndarray], other: np.ndarray,
               params: AlignParams) -> None:
        """Replace the summed vectors of ``windows`` by real embeddings of their text."""
        if not windows:
            return
        vectors = embed([" ".join(texts[i - a:i]) for a, i in windows])
        sample = self.sample(other, params)
        for (a, i), vector in zip(windows, vectors, strict=True):
            self.seg[a][i] = vector
            self.base[a][i] = float((sample @ vector).mean())

    @staticmethod
    def sample(other: np.ndarray, params: AlignParams) -> np.ndarray:
        """Evenly spaced sentences of the other side, the reference for margins."""
        step = max(1, len(other) // params.sample)
        return other[::step][:params.sample]


def _bead_types(max_merge: int, max_bead: int) -> list[tuple[int, int]]:
    """1-1, 1-0, 0-1, then every a-b with at most ``max_merge`` a side and ``max_bead`` in all.

    >>> _bead_types(3, 4)
    [(1, 1), (1, 0), (0, 1), (1, 2), (1, 3), (2, 1), (2, 2), (3, 1)]
    """
    types = [(1, 1), (1, 0), (0, 1)]
    types += [(a, b) for a in range(1, max_merge + 1) for b in range(1, max_merge + 1)
              if (a, b) != (1, 1) and a + b <= max_bead]
    return types


def _search(src: _Side, tgt: _Side, ratio: float, band: list[tuple[int, int]],
            params: AlignParams, max_merge: int, max_bead: int,
            confidences: bool = True) -> list[Bead]:
    """Best path through the band; ``band[i]`` is the range of ``j`` allowed at row ``i``.

    Each bead of the path gets as confidence its posterior probability: the share, among
    all paths through the band weighted by exp(value / temperature), of those that
    hold this very bead (forward-backward over the same lattice); without
    ``confidences`` (the coarse path) every bead gets 0.
    """
    n, m = len(src.lengths), len(tgt.lengths)
    types = _bead_types(max_merge, max_bead)
    #: edges[i][j]: the beads (a, b, value) that can end at cell (i, j), as confidences
    #: weigh them
    edges: list[dict[int, list[tuple[int, int, float]]]] = [dict() for _ in range(n + 1)]
    score: list[dict[int, float]] = [dict() for _ in range(n + 1)]
    back: list[dict[int, tuple[int, int, float]]] = [dict() for _ in range(n + 1)]
    score[0][0] = 0.0
    for i in range(n + 1):
        lo, hi = band[i]
        values = {}
        for a, b in types:
            if a and b and i >= a:
                cols = np.arange(max(lo, b), hi + 1)
                if len(cols):
                    found = _bead_values(src, tgt, i, a, b, cols, ratio, params)
                    values[(a, b)] = dict(zip(cols.tolist(), found.tolist(), strict=True))
        row, row_back = score[i], back[i]
        for j in range(lo, hi + 1):
            best, arg = row.get(j, -math.inf), row_back.get(j)
            cell = []
            for a, b in types:
                pi, pj = i - a, j - b
                if pi < 0 or pj < 0:
                    continue
                prev = score[pi].get(pj)
                if prev is None:
                    continue
                value = values[(a, b)][j] if a and b else params.skip * (a + b)
                # confidences weigh leaving sentences out by a value of their own
                cell.append((a, b, value if a and b else params.confidence_skip * (a + b)))
                if prev + value > best:
                    best, arg = prev + value, (a, b, value)
            if arg is not None:
                row[j], row_back[j], edges[i][j] = best, arg, cell
    if not confidences:
        return _backtrack(back, None, n, m)
    return _backtrack(back, _posteriors(edges, n, m, params.confidence_temperature), n, m)


def _posteriors(edges: list[dict[int, list[tuple[int, int, float]]]], n: int, m: int,
                temperature: float) -> Callable[[int, int, int, int, float], float]:
    """Forward-backward over the lattice: the posterior of a bead (a, b) ending at (i, j)."""
    forward: list[dict[int, float]] = [dict() for _ in range(n + 1)]
    forward[0][0] = 0.0
    for i in range(n + 1):
        for j in sorted(edges[i]):
            terms = [forward[i - a][j - b] + value / temperature
                     for a, b, value in edges[i][j] if (j - b) in forward[i - a]]
            if terms:
                forward[i][j] = _logsumexp(terms)
    backward: list[dict[int, float]] = [dict() for _ in range(n + 1)]
    backward[n][m] = 0.0
    for i in range(n, -1, -1):
        for j in sorted(edges[i], reverse=True):
            if j not in backward[i]:
                continue
            for a, b, value in edges[i][j]:
                here = backward[i][j] + value / temperature
                before = backward[i - a].get(j - b)
                backward[i - a][j - b] = here if before is None else _logaddexp(before, here)
    total = forward[n].get(m, 0.0)

    def posterior(i: int, j: int, a: int, b: int, value: float) -> float:
        start = forward[i - a].get(j - b)
        if start is None or j not in backward[i]:
            return 0.0
        return math.exp(min(0.0, start + value / temperature + backward[i][j] - total))

    return posterior


def _logsumexp(values: list[float]) -> float:
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values))


def _logaddexp(x: float, y: float) -> float:
    """log(exp(x) + exp(y)) without overflow: ``_logsumexp([x, y])``, cheaper."""
    return max(x, y) + math.log1p(math.exp(-abs(x - y)))


def _bead_values(src: _Side, tgt: _Side, i: int, a: int, b: int, cols: np.ndarray,
                 ratio: float, params: AlignParams) -> np.ndarray:
    """Values of the beads of ``a`` source sentences ending at ``i`` and ``b`` target
    sentences ending at each of ``cols``: margin, length and number terms, weighed by
    the bead's size."""
    margin = tgt.seg[b][cols] @ src.seg[a][i] - 0.5 * (src.base[a][i] + tgt.base[b][cols])
    source_length = src.cumlen[i] - src.cumlen[i - a]
    target_length = tgt.cumlen[cols] - tgt.cumlen[cols - b]
    value = margin - params.length_weight * np.log(
        (source_length + 20) / (ratio * target_length + 20)) ** 2
    numbers = src.numbers_of[a][i]
    if numbers:
        value += params.anchor_weight * np.array(
            [2 * len(numbers & other) / len(numbers | other) - 1 if other else 0.0
             for other in (tgt.numbers_of[b][j] for j in cols.tolist())])
    size = (max(1.0, src.cumsize[i] - src.cumsize[i - a])
            + np.maximum(1.0, tgt.cumsize[cols] - tgt.cumsize[cols - b]))
    return (size / 2) ** params.size_exponent * value - params.merge_penalty * (a + b - 2)


def _backtrack(back: list[dict[int, tuple[int, int, float]]],
               posterior: Callable[[int, int, int, int, float], float] | None,
               n: int, m: int) -> list[Bead]:
    if m not in back[n]:
        raise RuntimeError("no alignment path within the band")  # a bug, not bad input
    beads = []
    i, j = n, m
    while i or j:
        a, b, value = back[i][j]
        confidence = posterior(i, j, a, b, value) if a and b and posterior else 0.0
        beads.append(Bead(tuple(range(i - a, i)), tuple(range(j - b, j)), round(confidence, 4)))
        i, j = i - a, j - b
    return beads[::-1]


def _band(src: _Side, tgt: _Side, ratio: float, params: AlignParams
          ) -> list[tuple[int, int]]:
    """For each row 0..n, the columns the search may use.

    Short texts are searched in full. Longer ones are aligned at half resolution
    (recursively), and the band follows that coarse path, ``params.band`` wide.
    """
    n, m = len(src.lengths), len(tgt.lengths)
    if (n + 1) * (m + 1) <= params.max_full_cells or n < 4 or m < 4:
        return [(0, m)] * (n + 1)
    coarse_src, coarse_tgt = src.halved(tgt, params), tgt.halved(src, params)
    coarse = _search(coarse_src, coarse_tgt, ratio, _band(coarse_src, coarse_tgt, ratio, params),
                     params, max_merge=2, max_bead=4, confidences=False)
    lows = [m] * (n + 1)
    highs = [0] * (n + 1)
    i = j = 0  # corners of the coarse beads, projected to full resolution
    for bead in coarse:
        i2, j2 = i + len(bead.src), j + len(bead.tgt)
        for row in range(2 * i, min(2 * i2, n) + 1):
            lows[row] = min(lows[row], 2 * j)
            highs[row] = max(highs[row], min(2 * j2, m))
        i, j = i2, j2
    w = params.band
    band = []
    for row in range(n + 1):
        lo = min(lows[max(0, row - w):row + w + 1]) - w
        hi = max(highs[max(0, row - w):row + w + 1]) + w
        band.append((max(0, lo), min(m, hi)))
    band[0], band[n] = (0, band[0][1]), (band[n][0], m)
    return band


def _sum_pairs(rows: np.ndarray) -> np.ndarray:
    """Sum neighbouring rows pairwise (the last one alone if their number is odd)."""
    n = len(rows)
    pairs = rows[: n - n % 2].reshape(-1, 2, *rows.shape[1:]).sum(axis=1)
    return np.concatenate([pairs, rows[-1:]]) if n % 2 else pairs


def _halve(vecs: np.ndarray) -> np.ndarray:
    """Sum neighbouring vectors pairwise and renormalize."""
    pairs = _sum_pairs(vecs)
    return pairs / np.maximum(np.linalg.norm(pairs, axis=1, keepdims=True), 1e-9)
