"""Preparing a scanned page image for Tesseract: measure the skew, undo it, despeckle.

Each step is a small function on a grayscale image held as a NumPy array (0 = black,
255 = white), written to cost little next to Tesseract's own reading of the page
(a few hundredths of a second on a 300 dpi page):

* :func:`skew_angle` projects the ink of a reduced copy along each candidate angle and
  keeps the angle whose rows are sharpest;
* :func:`unskew` turns the page back (bilinear);
* :func:`whole_lines` finds a band of whole text lines, for a quick look at the page;
* :func:`median3` is the exact 3×3 median filter, from sorted column triples;
* :func:`binarize` makes the page black on white at Otsu's threshold, relative to the
  paper's own level (:func:`paper_level`), so that a shadow is not read as ink:
  Tesseract reads a bilevel page in about four fifths of the time it takes over the
  same page in gray (see BENCHMARKS.md).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageFilter

__all__ = ["Gray", "binarize", "median3", "otsu_threshold", "paper_level", "skew_angle",
           "unskew", "whole_lines"]

#: A grayscale page: rows × columns of 0 (black) to 255 (white).
Gray = NDArray[np.uint8]

#: The reduced copy the skew is measured on is about this wide (pixels).
_SKEW_WIDTH = 1000
#: The paper's level is told per block of this many pixels square (about 3 mm at 300
#: dpi), and the threshold chosen on every this-many-th pixel of each row and column.
_BLOCK = 32
_SAMPLE = 4
#: Darker than this is ink, where the skew is measured and text lines are looked for.
_INK = 128


def skew_angle(page: Gray, limit: float = 4.0, step: float = 0.25) -> float:
    """The angle (degrees, counter-clockwise) that makes the text lines horizontal.

    On a reduced copy each ink pixel is projected to the row it would fall in once the
    page is turned by the candidate angle; the angle whose row counts vary most puts
    the lines in the fewest rows.

    >>> page = np.full((400, 600), 255, np.uint8)
    >>> for row in range(50, 350, 30):   # lines that climb 1 pixel every 20 to the right
    ...     for x in range(50, 550):
    ...         page[row - x // 20: row - x // 20 + 8, x] = 0
    >>> skew_angle(page)
    -2.75
    """
    factor = max(1, page.shape[1] // _SKEW_WIDTH)
    small = page[::factor, ::factor]
    ys, xs = np.nonzero(small < _INK)
    if len(ys) == 0:
        return 0.0
    xs = xs.astype(np.float64) - small.shape[1] / 2
    best, best_score = 0.0, -1.0
    for angle in np.arange(-limit, limit + step / 2, step):
        rows = np.rint(ys - xs * math.tan(math.radians(angle))).astype(np.int64)
        counts = np.bincount(rows - rows.min()).astype(np.float64)
        score = float(np.dot(counts, counts))
        if score > best_score:
            best, best_score = float(angle), score
    return round(best, 2)


def unskew(page: Gray, angle: float) -> Gray:
    """The page turned by ``angle`` degrees counter-clockwise about its centre, with
    bilinear interpolation (whole-pixel shears cost less but read a little worse);
    what leaves the page is cut off, what enters it has the page's most common gray
    (its paper: white corners beside gray paper would look like a shadow's edge).

    >>> page = np.full((9, 9), 255, np.uint8)
    >>> for x in range(9):
    ...     page[8 - x, x] = 0                # a line rising to the right
    >>> [int(row.min()) < 128 for row in unskew(page, -45.0)]   # now lies flat
    [False, False, False, False, True, False, False, False, False]
    """
    paper = int(np.median(page[::_SAMPLE, ::_SAMPLE]))
    turned = Image.fromarray(page).rotate(angle, resample=Image.Resampling.BILINEAR,
                                          fillcolor=paper)
    return np.asarray(turned)


def whole_lines(page: Gray, top: float, bottom: float) -> slice:
    """The rows from ``top`` to ``bottom``, as shares of the height the page's ink
    spans (a last page's few paragraphs, not its white space), widened to the nearest
    rows without ink so that no text line is cut in two (an end stays where it is if
    there is no such row within a twentieth of the page).

    >>> page = np.full((200, 10), 255, np.uint8)
    >>> page[8:14] = page[18:24] = page[28:34] = 0       # three lines at the top
    >>> whole_lines(page, 0.4, 0.6)                      # the middle one
    slice(17, 24, None)
    """
    inked = (page < _INK).sum(axis=1) > 0
    rows = np.flatnonzero(inked)
    if len(rows) == 0:
        return slice(0, 0)
    first, span, reach = int(rows[0]), int(rows[-1] - rows[0]) + 1, len(page) // 20
    blank = np.flatnonzero(~inked)
    start, stop = first + round(top * span), first + round(bottom * span)
    above, below = blank[blank <= start], blank[blank >= stop]
    if len(above) and start - above[-1] <= reach:
        start = int(above[-1])
    if len(below) and below[0] - stop <= reach:
        stop = int(below[0])
    return slice(start, stop)


def median3(page: Gray) -> Gray:
    """The 3×3 median filter (edges repeated): removes speckle, keeps strokes.

    Each column's vertical triples are sorted; the median of the nine is then the
    median of (the largest of the three minima, the median of the medians, the
    smallest of the maxima) of three neighbouring columns.

    >>> page = np.full((4, 4), 200, np.uint8)
    >>> page[1, 2] = 0                        # one speck
    >>> int(median3(page).min())
    200
    """
    padded = np.pad(page, 1, mode="edge")
    up, middle, down = padded[:-2], padded[1:-1], padded[2:]
    low, high = np.minimum(up, middle), np.maximum(up, middle)
    smallest, mid_high = np.minimum(low, down), np.maximum(low, down)
    medium, largest = np.minimum(high, mid_high), np.maximum(high, mid_high)

    low_left, low_centre, low_right = _neighbours(smallest)
    high_left, high_centre, high_right = _neighbours(largest)
    lows = np.maximum(np.maximum(low_left, low_centre), low_right)
    highs = np.minimum(np.minimum(high_left, high_centre), high_right)
    mids = _median_of_three(*_neighbours(medium))
    return _median_of_three(lows, mids, highs)


def _neighbours(columns: Gray) -> tuple[Gray, Gray, Gray]:
    """Each pixel's left, own and right column, of an array padded by one column."""
    return columns[:, :-2], columns[:, 1:-1], columns[:, 2:]


def _median_of_three(a: Gray, b: Gray, c: Gray) -> Gray:
    return np.maximum(np.minimum(a, b), np.minimum(np.maximum(a, b), c))


def otsu_threshold(page: Gray) -> int:
    """The gray level that best splits the page into two classes, ink and paper (Otsu:
    the split with the largest variance between the classes' means).

    >>> otsu_threshold(np.array([[30, 40, 220, 230]], np.uint8))
    40
    >>> otsu_threshold(np.full((2, 2), 250, np.uint8))    # one class only: all paper
    0
    """
    counts = np.bincount(page.ravel(), minlength=256).astype(np.float64)
    share = np.cumsum(counts) / counts.sum()
    mass = np.cumsum(counts * np.arange(256)) / counts.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        between = (mass[-1] * share - mass) ** 2 / (share * (1 - share))
    return int(np.argmax(np.nan_to_num(between)))


def binarize(page: Gray) -> NDArray[np.bool_]:
    """True where the page is paper, False for ink, at Otsu's threshold on the page
    seen against its own paper (:func:`paper_level`): a shadow or a darker photocopied
    edge is paper, not ink.

    >>> page = np.tile(np.linspace(150, 240, 256).astype(np.uint8), (256, 1))  # a shadow
    >>> page[100:110, 20:236] = page[100:110, 20:236] // 3                      # a line
    >>> paper = binarize(page)
    >>> bool(paper[:100].all() and paper[110:].all()), bool((~paper[100:110, 20:236]).all())
    (True, True)
    """
    paper = Image.fromarray(paper_level(page))
    height, width = page.shape
    sample = page[::_SAMPLE, ::_SAMPLE]
    sample_paper = np.asarray(paper.resize(sample.shape[::-1], Image.Resampling.BILINEAR))
    seen = np.minimum(255, sample.astype(np.uint16) * 255 // np.maximum(sample_paper, 1))
    share = otsu_threshold(seen.astype(np.uint8)) / 255
    thresholds = paper.point(lambda level: round(level * share))
    return page > np.asarray(thresholds.resize((width, height), Image.Resampling.BILINEAR))


def paper_level(page: Gray) -> Gray:
    """The paper's gray level across the page, on a coarse grid (one value per
    ``_BLOCK`` × ``_BLOCK`` pixels): the lightest pixel of each block, spread to its
    neighbours (a block inside a bold letter sees the paper around it) and smoothed.

    >>> page = np.full((64, 96), 230, np.uint8)
    >>> page[:, :32] = 180                      # the left third is in shadow
    >>> page[10:20, 40:60] = 0                  # ink
    >>> paper_level(page).shape, int(paper_level(page).max())
    ((2, 3), 230)
    """
    rows, columns = (max(1, size // _BLOCK) for size in page.shape)
    blocks = page[:rows * _BLOCK, :columns * _BLOCK].reshape(rows, _BLOCK, columns, _BLOCK)
    lightest = Image.fromarray(blocks.max(axis=(1, 3)))
    return np.asarray(lightest.filter(ImageFilter.MaxFilter(3)).filter(ImageFilter.BoxBlur(1)))
