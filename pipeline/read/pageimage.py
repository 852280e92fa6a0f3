"""Preparing a scanned page image for Tesseract: measure the skew, undo it, level the paper.

Each step is a small function on a grayscale image held as a NumPy array (0 = black,
255 = white), written to cost little next to Tesseract's own reading of the page
(a few hundredths of a second on a 300 dpi page):

* :func:`skew_angle` projects the ink of a reduced copy along each candidate angle and
  keeps the angle whose rows are sharpest;
* :func:`unskew` turns the page back (bilinear);
* :func:`whole_lines` finds a band of whole text lines, for a quick look at the page;
* :func:`level` divides the page by its paper's own level (:func:`paper_level`), so
  that the paper is white everywhere and a shadow is not read as ink, while ink keeps
  its gray edges. The page stays in gray, unfiltered: a median filter or a bilevel page
  broke the thin strokes of a gazette's 6- and 8-point type (see BENCHMARKS.md).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageFilter

__all__ = ["Gray", "despeckle", "level", "paper_level", "skew_angle", "unskew", "whole_lines"]

#: A grayscale page: rows × columns of 0 (black) to 255 (white).
Gray = NDArray[np.uint8]

#: The reduced copy the skew is measured on is about this wide (pixels).
_SKEW_WIDTH = 1000
#: The paper's level is told per block of this many pixels square (about 3 mm at 300
#: dpi); the paper's most common gray on every this-many-th pixel of each row and column.
_BLOCK = 32
_SAMPLE = 4
#: Darker than this is ink, where the skew is measured and text lines are looked for.
_INK = 128
#: A speck: at most this many pixels darker than ``_SPECK_INK`` (any mark on the
#: levelled paper) in a window this many pixels square.
_SPECK_INK = 192
_SPECK_PIXELS = 3
_SPECK_WINDOW = 5


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


#: What a pixel is multiplied by where the paper has each gray level (0 counts as 1).
_LIFT = np.float32(255) / np.maximum(np.arange(256, dtype=np.float32), 1)


def level(page: Gray) -> Gray:
    """The page seen against its own paper (:func:`paper_level`): each pixel divided by
    the paper's level around it, so paper is white across the page, a shadow or a
    darker photocopied edge included, and ink keeps its gray edges.

    >>> page = np.tile(np.linspace(150, 240, 256).astype(np.uint8), (256, 1))  # a shadow
    >>> page[100:110, 20:236] = page[100:110, 20:236] // 3                      # a line
    >>> levelled = level(page)
    >>> int(levelled[:100].min()) > 200, int(levelled[100:110, 20:236].max()) < 100
    (True, True)
    """
    paper = Image.fromarray(paper_level(page)).resize(page.shape[::-1], Image.Resampling.BILINEAR)
    scale = _LIFT[np.asarray(paper)]
    return np.minimum(page * scale, 255).astype(np.uint8)


def despeckle(page: Gray) -> Gray:
    """The levelled page with its specks made paper: a dark pixel with at most
    ``_SPECK_PIXELS`` dark pixels in its ``_SPECK_WINDOW`` × ``_SPECK_WINDOW``
    neighbourhood (itself included) stands alone, where a stroke, a dot or a comma of
    6-point type at 300 dpi has more. Strokes are left as they are (a median filter
    thins them).

    >>> page = np.full((20, 20), 240, np.uint8)
    >>> page[3, 3] = 40                       # a speck
    >>> page[10:13, 10:13] = 40               # a full stop
    >>> cleaned = despeckle(page)
    >>> int(cleaned[3, 3]), int(cleaned[11, 11])
    (255, 40)
    """
    ink = (page < _SPECK_INK).view(np.uint8)
    counts = _box_sum(_box_sum(ink, axis=1), axis=0)  # at most 25: no overflow
    cleaned = page.copy()
    cleaned[(ink == 1) & (counts <= _SPECK_PIXELS)] = 255
    return cleaned


def _box_sum(values: NDArray[np.uint8], axis: int) -> NDArray[np.uint8]:
    """Each value summed with its neighbours along ``axis``, ``_SPECK_WINDOW`` in all
    (zeros beyond the edges)."""
    half = _SPECK_WINDOW // 2
    padded = np.pad(values, [(half, half) if a == axis else (0, 0) for a in range(2)])
    length = values.shape[axis]
    total = np.zeros_like(values)
    for offset in range(_SPECK_WINDOW):
        window = slice(offset, offset + length)
        total += padded[window] if axis == 0 else padded[:, window]
    return total


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
