"""Reading a PDF page's text layer in reading order, in time linear in its characters.

pdfplumber parses the page into characters; everything after that is done here:

1. **Orientation.** Characters drawn on a diagonal (a watermark such as the DOU's
   ``COMERCIALIZAÇÃO PROIBIDA POR TERCEIROS``) are left out and counted; characters
   turned a quarter or half turn (margin notes) are read after the page's body.
2. **Fake bold.** A character drawn again at (nearly) the same place, as printers make
   bold, is kept once (:func:`dedupe_chars`; pdfplumber's own ``dedupe_chars`` sorts
   with ``list.index`` and is quadratic in the page's characters).
3. **Word spaces** (:func:`word_spaces`). A space character the typesetter drew and
   then moved back over is no word break (letter-spaced type), and ink a good part of
   the type size apart is two words even where no space character was drawn.
   **Ordinals** (:func:`ordinal_indicators`): a small raised ``o`` or ``a``, often
   over a small hyphen for its rule, is the ``º`` or ``ª`` the page shows.
4. **Layout** (:func:`reading_order`). The page is cut recursively, like an XY-cut,
   on an occupancy grid of 2 pt cells. A region's *gutters* are strips at least 8 pt
   wide that stay empty over long runs (24 pt) in many of its rows and cut it into
   columns no narrower than 18 % of it. Rows that keep every gutter are columns, read
   left to right; where rows cross gutters — a title, summary or table laid across
   the columns — the region is cut into bands, read top to bottom, and each band is
   cut again. A column beside a block laid over the other columns is cut off first,
   whole (:meth:`_Grid._beside_a_column`); columns over too few of a region's rows to
   have gutters in it are cut out of it across (:meth:`_Grid._stacked`). Horizontal
   ruled lines are drawn into the grid: a table's rules break the white space between
   its cells, so a table is read row by row, and no band is cut inside a ruled row
   (:meth:`_Grid._whole_ruled_rows`). A table with no rules is told by its columns:
   they hold the same lines at the same heights, and figures rather than words after
   the first (:meth:`_Grid._figures_in_rows`).
5. **Lines.** Each region's characters become lines with pdfplumber's own text
   assembly (``extract_text``), as a plain ``page.extract_text()`` would read them.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pdfplumber.utils import extract_text
from pdfplumber.utils.text import DEFAULT_Y_TOLERANCE

__all__ = ["PageText", "Region", "as_shown", "dedupe_chars", "ordinal_indicators",
           "read_text_layer", "reading_order", "ruled_cells", "split_by_orientation",
           "word_spaces", "wrapped"]

#: Side of a cell of the occupancy grid, in points.
CELL = 2.0
#: A gutter between columns is at least this wide (points): wider than the word gaps of
#: justified lines, which can line up over a few lines of a list (at 6 pt, an EU
#: decision's single column was read as eleven).
MIN_GUTTER = 8.0
#: Where the column structure changes, a gutter is one that stays empty this tall (points).
MIN_GUTTER_RUN = 24.0
#: Each column of a split is at least this share of its region's text width; narrower
#: "columns" are the cells of a table, read row by row.
MIN_COLUMN_SHARE = 0.18
#: A gutter is empty over long runs in at least this share of its region's rows.
MIN_GUTTER_ROWS = 0.3
#: Columns that hold the same lines, at least this many, at the same heights (within
#: this many points), and after the first no more than this share of letters among
#: their characters (figures, dates, amounts), are a table's: read row by row.
MIN_TABLE_ROWS = 3
ROW_TOLERANCE = 3.0
MAX_LETTER_SHARE = 0.1
#: Columns of running text are more than this share letters (a table's are figures),
#: and their lines hold this many characters on average.
MIN_PROSE_LETTERS = 0.5
MIN_PROSE_LINE = 20
#: A region with no gutters is cut across at empty strips at least this tall (points)
#: around a part that has columns of prose (:meth:`_Grid._stacked`).
MIN_STACK_GAP = 8.0
#: A table's row between two rules is at most this tall (points): a few lines of type.
MAX_RULED_ROW = 48.0
#: Two characters with the same text and font within this distance (points) are one.
DEDUPE_TOLERANCE = 1.0
#: Word spaces are told by how much wider a gap is than the gap between the letters of
#: a word in the same font on the page (its median: 0 where the font's glyph boxes are
#: its advances, -4 pt in a PDF whose boxes are wider than the glyphs are set), in
#: shares of the type size. A space character drawn in a gap no wider than the letters'
#: gap by this share is no word break: a typesetter that letter-spaces a word draws a
#: space after each letter and moves back over it (``E n c a rg o s``: 0 wider); a
#: tight word space after a full stop is 0.11 wider.
MIN_SPACE = 0.06
#: A gap wider than the letters' by this share is a word break where no space character
#: was drawn (``doGabinete``: 0.47 of 6-point type, under pdfplumber's fixed 3 pt).
WORD_GAP = 0.3
#: A superscript is under this share of the size of the letter before it, its foot
#: raised by at least this share of that size (the DOU's ``o`` of ``Nº``: 4.3 pt after
#: 8 pt, 4.5 pt higher).
SUPERSCRIPT_SIZE = 0.7
SUPERSCRIPT_RISE = 0.2
#: Recursion limit of the cuts (a page has a handful of levels).
MAX_DEPTH = 12

Char = dict[str, Any]


@dataclass(frozen=True)
class Region:
    """A rectangle of the page (points) whose text is read as one block of lines."""

    x0: float
    top: float
    x1: float
    bottom: float


@dataclass(frozen=True)
class PageText:
    """The text of a text-layer page in reading order and how it was found."""

    text: str
    #: Characters after fake-bold de-duplication (the body's, not diagonal ones).
    chars: tuple[Char, ...]
    #: The regions of the body, in reading order.
    regions: tuple[Region, ...]
    #: Most regions side by side anywhere on the page: its columns.
    columns: int
    #: Characters drawn on a diagonal (a watermark), left out.
    diagonal: int
    #: Characters turned a quarter or half turn, read after the body.
    turned: int


def read_text_layer(chars: Sequence[Char], width: float, height: float,
                    rules: Sequence[tuple[float, float, float]] = (),
                    borders: Sequence[tuple[float, float, float]] = ()) -> PageText:
    """Read a page from pdfplumber's characters (``page.chars``) in reading order.

    ``rules`` are the page's horizontal ruled lines as ``(x0, x1, y)`` and ``borders``
    its vertical ones as ``(x, top, bottom)`` (from ``page.edges``), which mark
    tables: a row between two rules is read cell by cell where borders divide it
    (:func:`ruled_cells`).

    >>> def line(text, x, top):
    ...     return [{"text": ch, "x0": x + 5 * i, "x1": x + 5 * i + 4.5, "top": top,
    ...              "bottom": top + 8, "fontname": "F", "size": 8, "upright": True,
    ...              "matrix": (8, 0, 0, 8, 0, 0), "doctop": top}
    ...             for i, ch in enumerate(text)]
    >>> left = [c for n in range(12) for c in line(f"left{n:02d}", 20, 20 + 10 * n)]
    >>> right = [c for n in range(12) for c in line(f"right{n:02d}", 120, 20 + 10 * n)]
    >>> page = read_text_layer(left + right, 200, 200)
    >>> page.text.split()[:2], page.text.split()[12], page.columns
    (['left00', 'left01'], 'right00', 2)
    """
    body, turned, diagonal = split_by_orientation(chars)
    body = as_shown(body)
    regions = reading_order(body, width, height, rules, borders)
    parts = [_region_text(members, rules, borders) for _, members in regions]
    if turned:
        parts.append(extract_text(dedupe_chars(turned)))
    text = "\n\n".join(part for part in parts if part.strip())
    columns = max((_side_by_side(region, [r for r, _ in regions]) for region, _ in regions),
                  default=1)
    return PageText(text=text, chars=tuple(body), regions=tuple(r for r, _ in regions),
                    columns=columns, diagonal=diagonal, turned=len(turned))


def _region_text(chars: Sequence[Char], rules: Sequence[tuple[float, float, float]],
                 borders: Sequence[tuple[float, float, float]]) -> str:
    """A region's lines: a ruled table's wrapped rows cell by cell (:func:`wrapped`),
    else line by line."""
    rows = ruled_cells(chars, rules, borders) or []
    # a row none of whose cells spans two lines cannot wrap: its cells need no text
    texts = [[extract_text(list(cell)) for cell in row] if any(map(_two_lines, row)) else []
             for row in rows]
    if not any(wrapped(row) for row in texts):
        return extract_text(list(chars))
    lines = (cells if wrapped(cells) else [extract_text([c for cell in row for c in cell])]
             for row, cells in zip(rows, texts, strict=True))
    return "\n".join(text for row in lines for text in row if text)


def _two_lines(chars: Sequence[Char]) -> bool:
    """Whether ``extract_text`` may read ``chars`` as more than one line: the tops of
    their ink lie further apart than its tolerance for one line."""
    tops = [c["top"] for c in chars if c["text"].strip()]
    return bool(tops) and max(tops) - min(tops) > DEFAULT_Y_TOLERANCE


def wrapped(cells: list[str]) -> bool:
    r"""Whether a ruled row's cells (their texts) are one row whose long cells wrap,
    to be read cell by cell: some cells of one line, some of more. Cells of as many
    lines each are as many rows with no rule between them, read line by line.

    >>> wrapped(["3.", "GESTÃO AMBIENTAL (Tecnológi-\nco)", "100 (cem)"])
    True
    >>> wrapped(["Alagoas\nBahia", "12.900.486\n69.718.557"])
    False
    """
    lines = [text.count("\n") + 1 for text in cells if text]
    return len(lines) > 1 and min(lines) == 1 < max(lines)


def ruled_cells(chars: Sequence[Char], rules: Sequence[tuple[float, float, float]],
                borders: Sequence[tuple[float, float, float]]
                ) -> list[list[list[Char]]] | None:
    """A region's characters as rows of cells, or None if no ruled row has cells.

    The region is cut at the horizontal ``rules`` across it. A row with a rule above
    and below it is divided into cells at the vertical ``borders`` that run its
    whole height, so that a cell of several lines is read whole (``GESTÃO AMBIENTAL
    (Tecnológi-`` / ``co)``) before the next cell, where line by line the row's cells
    interleave. Other rows, and the text above and below the rules, are one cell.

    >>> def word(text, x, top):
    ...     return [{"text": ch, "x0": x + 5 * i, "x1": x + 5 * i + 4.5, "top": top,
    ...              "bottom": top + 8} for i, ch in enumerate(text)]
    >>> chars = word("Tecno-", 10, 12) + word("ABC", 60, 12) + word("logia", 10, 22)
    >>> rows = ruled_cells(chars, [(0, 100, 10), (0, 100, 32)], [(50, 10, 32)])
    >>> [["".join(c["text"] for c in cell) for cell in row] for row in rows]
    [['Tecno-logia', 'ABC']]
    """
    ink = [c for c in chars if c["text"].strip()]
    if not ink or not borders:
        return None
    left, right = min(c["x0"] for c in ink), max(c["x1"] for c in ink)
    cuts = sorted({y for x0, x1, y in rules if x0 < right and x1 > left})
    if not cuts:
        return None
    vertical = np.array(borders, dtype=float)
    bands: dict[int, list[Char]] = {}  # between cuts ``index - 1`` and ``index``
    for char in chars:
        bands.setdefault(bisect.bisect_right(cuts, (char["top"] + char["bottom"]) / 2),
                         []).append(char)
    rows: list[list[list[Char]]] = []
    divided = False
    for index, band in sorted(bands.items()):
        band_ink = [c for c in band if c["text"].strip()]
        if not band_ink:
            if band:
                rows.append([band])
            continue
        ruled = 0 < index < len(cuts)  # a rule above and below: a table's row
        bounds = [-math.inf, *(_crossing(vertical, band_ink) if ruled else []), math.inf]
        cells = [[c for c in band if a <= (c["x0"] + c["x1"]) / 2 < b]
                 for a, b in itertools.pairwise(bounds)]
        cells = [cell for cell in cells if cell]
        divided = divided or sum(any(c["text"].strip() for c in cell) for cell in cells) > 1
        rows.append(cells)
    return rows if divided else None


def _crossing(vertical: np.ndarray, band: Sequence[Char]) -> list[float]:
    """The x of the vertical borders (rows of ``x, top, bottom``) that run the whole
    height of a band of characters, inside it."""
    top, bottom = min(c["top"] for c in band), max(c["bottom"] for c in band)
    left, right = min(c["x0"] for c in band), max(c["x1"] for c in band)
    return sorted(set(vertical[_spanning(vertical, top, bottom, left, right), 0].tolist()))


def _spanning(vertical: np.ndarray, top: float, bottom: float, left: float, right: float
              ) -> np.ndarray:
    """Which vertical borders (rows of ``x, top, bottom``, points) run from ``top`` to
    ``bottom`` (within a point) strictly between ``left`` and ``right``."""
    return ((vertical[:, 1] <= top + 1) & (vertical[:, 2] >= bottom - 1)
            & (vertical[:, 0] > left) & (vertical[:, 0] < right))


def as_shown(body: Sequence[Char]) -> list[Char]:
    """A page body's characters as the page shows them, before the layout: drawn once
    (:func:`dedupe_chars`), with its word spaces (:func:`word_spaces`) and ordinals
    (:func:`ordinal_indicators`); steps 2 and 3 above."""
    return ordinal_indicators(word_spaces(dedupe_chars(body)))


def split_by_orientation(chars: Sequence[Char]) -> tuple[list[Char], list[Char], int]:
    """Split characters into upright ones, turned ones (90°, 180°, 270°), and a count
    of diagonal ones, from each character's text matrix."""
    body: list[Char] = []
    turned: list[Char] = []
    diagonal = 0
    for char in chars:
        a, b = char["matrix"][0], char["matrix"][1]
        angle = math.degrees(math.atan2(b, a)) % 90
        if min(angle, 90 - angle) > 1.0:
            diagonal += 1
        elif abs(b) > abs(a) or a < 0:  # a quarter or half turn
            turned.append(char)
        else:
            body.append(char)
    return body, turned, diagonal


def dedupe_chars(chars: Sequence[Char], tolerance: float = DEDUPE_TOLERANCE) -> list[Char]:
    """Drop characters drawn again at (nearly) the same place: printers' fake bold.

    Two characters are one if they have the same text, font and size and their left
    edges and tops are within ``tolerance`` points; the first drawn is kept, and the
    order is kept. Linear in the characters (a grid of ``tolerance``-sized cells).

    >>> c = {"text": "A", "fontname": "F", "size": 9, "upright": True}
    >>> chars = [dict(c, x0=10.0, doctop=5.0), dict(c, x0=10.3, doctop=5.2),
    ...          dict(c, x0=30.0, doctop=5.0)]
    >>> [ch["x0"] for ch in dedupe_chars(chars)]
    [10.0, 30.0]
    """
    # Cells twice the tolerance wide: a duplicate lies in the character's own cell or in
    # the neighbouring one on the side it is nearer to, in each direction.
    size = 2 * tolerance
    idents: dict[tuple[Any, ...], int] = {}
    seen: dict[tuple[int, int, int], list[tuple[float, float]]] = {}
    kept: list[Char] = []
    for char in chars:
        ident = idents.setdefault(
            (char["text"], char["fontname"], char["size"], char["upright"]), len(idents))
        x, y = char["x0"], char["doctop"]
        fx, fy = x / size, y / size
        cx, cy = math.floor(fx), math.floor(fy)
        nx = cx + 1 if fx - cx > 0.5 else cx - 1
        ny = cy + 1 if fy - cy > 0.5 else cy - 1
        if not (_near(seen.get((ident, cx, cy)), x, y, tolerance)
                or _near(seen.get((ident, nx, cy)), x, y, tolerance)
                or _near(seen.get((ident, cx, ny)), x, y, tolerance)
                or _near(seen.get((ident, nx, ny)), x, y, tolerance)):
            kept.append(char)
        cell = seen.get((ident, cx, cy))
        if cell is None:
            seen[(ident, cx, cy)] = [(x, y)]
        else:
            cell.append((x, y))
    return kept


def word_spaces(chars: Sequence[Char]) -> list[Char]:
    """``chars`` (in the order drawn) with the space characters that break no words
    dropped and one added in each gap between words that has none (see
    :data:`MIN_SPACE` and :data:`WORD_GAP`).

    >>> def char(text, x0, x1):
    ...     return {"text": text, "x0": x0, "x1": x1, "top": 10.0, "size": 6.0,
    ...             "fontname": "Times"}
    >>> spaced = [char("E", 50.6, 54.3), char(" ", 54.2, 55.6), char("n", 54.3, 57.3),
    ...           char(" ", 57.2, 58.6), char("c", 57.3, 59.9)]
    >>> "".join(c["text"] for c in word_spaces(spaced))
    'Enc'
    >>> "".join(c["text"] for c in word_spaces([char("d", 725.9, 728.9),
    ...     char("o", 728.9, 731.9), char("G", 734.7, 739.0), char("a", 739.0, 741.7)]))
    'do Ga'
    """
    letters = _letter_gaps(chars)
    kept: list[Char] = []
    previous: Char | None = None  # the last ink
    spaces: list[Char] = []  # the space characters drawn since
    for char in chars:
        if not char["text"].strip():
            spaces.append(char)
            continue
        if previous is not None and _same_line_on(previous, char):
            wider = (char["x0"] - previous["x1"]
                     - letters.get((previous["fontname"], previous["size"]), 0.0))
            if spaces and wider < MIN_SPACE * previous["size"]:
                spaces = []
            elif not spaces and wider > WORD_GAP * previous["size"]:
                spaces = [dict(previous, text=" ", x0=previous["x1"], x1=char["x0"])]
        kept.extend(spaces)
        kept.append(char)
        previous, spaces = char, []
    kept.extend(spaces)
    return kept


def ordinal_indicators(chars: Sequence[Char]) -> list[Char]:
    """``chars`` with each superscript ``o`` and ``a`` (:data:`SUPERSCRIPT_SIZE`,
    :data:`SUPERSCRIPT_RISE`) after a figure, an ``N`` or a full stop as the ordinal
    indicator ``º`` or ``ª``, and the small hyphen drawn under one for its rule left
    out: the DOU's layer spells the ``Nº`` the page shows ``No-``, and ``1º`` ``1o``.
    The indicator takes its figure's height, so that it is read on its line. After a
    word a superscript letter is a footnote's mark, and stays.

    >>> def char(text, x0, top, size=8.0):
    ...     return {"text": text, "x0": x0, "x1": x0 + size / 2, "top": top,
    ...             "bottom": top + size, "size": size}
    >>> "".join(c["text"] for c in ordinal_indicators([char("N", 10, 10),
    ...     char("o", 14, 9, 4.3), char("-", 14.2, 11, 4.3), char(" ", 16.4, 10),
    ...     char("1", 18, 10), char("o", 22, 9, 4.3), char("o", 25, 10),
    ...     char("d", 30, 10), char("a", 34, 9, 4.3)]))
    'Nº 1ºoda'
    """
    kept: list[Char] = []
    base: Char | None = None  # the last ink before that is no superscript
    for char in chars:
        small = base is not None and char["size"] < SUPERSCRIPT_SIZE * base["size"]
        if small and char["text"] == "-" and kept and kept[-1]["text"] in _ORDINALS.values():
            continue
        if (small and base is not None and char["text"] in _ORDINALS
                and (base["text"] in "Nn." or base["text"].isdigit())
                and char["bottom"] < base["bottom"] - SUPERSCRIPT_RISE * base["size"]):
            kept.append(dict(char, text=_ORDINALS[char["text"]], top=base["top"],
                             bottom=base["bottom"]))
            continue
        if char["text"].strip():
            base = char
        kept.append(char)
    return kept


_ORDINALS = {"o": "\N{MASCULINE ORDINAL INDICATOR}", "a": "\N{FEMININE ORDINAL INDICATOR}"}


def _letter_gaps(chars: Sequence[Char]) -> dict[tuple[str, float], float]:
    """The median gap (points) between ink drawn one after the other on a line with no
    space between, in the same font and size, for each font and size. A letter of
    another size is not the next letter of a word: the DOU's superscript ``o`` (``3o``,
    ``no``) is mostly followed by the next word with no space drawn, and counting those
    gaps made the word gap its letters' gap (``art. 3oda Lei no8.427``)."""
    gaps: dict[tuple[str, float], list[float]] = {}
    for previous, char in itertools.pairwise(chars):
        if (previous["text"].strip() and char["text"].strip()
                and (previous["fontname"], previous["size"]) == (char["fontname"], char["size"])
                and _same_line_on(previous, char)):
            gaps.setdefault((previous["fontname"], previous["size"]), []).append(
                char["x0"] - previous["x1"])
    return {font: float(np.median(values)) for font, values in gaps.items()}


def _same_line_on(previous: Char, char: Char) -> bool:
    """True if ``char`` follows ``previous`` on its line, to the right of it."""
    return (abs(char["top"] - previous["top"]) < 0.3 * previous["size"]
            and char["x0"] >= previous["x0"])


def _near(points: list[tuple[float, float]] | None, x: float, y: float,
          tolerance: float) -> bool:
    """True if one of ``points`` is within ``tolerance`` of ``(x, y)`` in both directions."""
    if points is None:
        return False
    return any(abs(px - x) <= tolerance and abs(py - y) <= tolerance for px, py in points)


def reading_order(chars: Sequence[Char], width: float, height: float,
                  rules: Sequence[tuple[float, float, float]] = (),
                  borders: Sequence[tuple[float, float, float]] = ()
                  ) -> list[tuple[Region, list[Char]]]:
    """Cut the page into regions in reading order, each with its characters.

    See the module docstring for the cuts. A character belongs to the region that
    holds its centre.
    """
    ink = [c for c in chars if c["text"].strip()]
    if not ink:
        return [(Region(0, 0, width, height), list(chars))] if chars else []
    grid = _Grid(ink, width, height, rules, borders)
    leaves: list[tuple[int, int, int, int, np.ndarray]] = []
    grid.cut(np.arange(len(ink)), 0, leaves)
    # White space characters go with the region of the nearest ink before them.
    owner = np.empty(len(ink), dtype=np.int64)
    for number, (*_, members) in enumerate(leaves):
        owner[members] = number
    groups: list[list[Char]] = [[] for _ in leaves]
    index, last = 0, 0
    for char in chars:
        if char["text"].strip():
            last = int(owner[index])
            index += 1
        groups[last].append(char)
    return [(Region(x0 * CELL, y0 * CELL, x1 * CELL, y1 * CELL), group)
            for (x0, y0, x1, y1, _), group in zip(leaves, groups, strict=True)]


def _side_by_side(region: Region, regions: list[Region]) -> int:
    """How many regions share some height with ``region`` (itself included)."""
    return sum(1 for other in regions
               if other.top < region.bottom and region.top < other.bottom)


class _Grid:
    """The characters' boxes in grid cells, and the recursive cuts over them."""

    def __init__(self, ink: Sequence[Char], width: float, height: float,
                 rules: Sequence[tuple[float, float, float]],
                 borders: Sequence[tuple[float, float, float]] = ()) -> None:
        self.nx = max(1, math.ceil(width / CELL))
        self.ny = max(1, math.ceil(height / CELL))
        box = np.array([(c["x0"], c["x1"], c["top"], c["bottom"]) for c in ink], dtype=float)
        # Shrink each box a little so that touching neighbours do not fill a gap.
        self.left = np.clip(np.floor((box[:, 0] + 0.25) / CELL), 0, self.nx - 1).astype(int)
        self.right = np.clip(np.ceil((box[:, 1] - 0.25) / CELL), 1, self.nx).astype(int)
        self.right = np.maximum(self.right, self.left + 1)
        self.top = np.clip(np.floor((box[:, 2] + 0.5) / CELL), 0, self.ny - 1).astype(int)
        self.bottom = np.clip(np.ceil((box[:, 3] - 0.5) / CELL), 1, self.ny).astype(int)
        self.bottom = np.maximum(self.bottom, self.top + 1)
        self.cx = (box[:, 0] + box[:, 1]) / 2 / CELL
        self.cy = (box[:, 2] + box[:, 3]) / 2 / CELL
        self.letter = np.array([c["text"].isalpha() for c in ink], dtype=bool)
        self.rules = [(x0 / CELL, x1 / CELL, y / CELL) for x0, x1, y in rules]
        self.borders = np.array(borders, dtype=float).reshape(-1, 3)  # points

    def occupancy(self, members: np.ndarray) -> np.ndarray:
        """A boolean (rows × columns) grid, true where a member's box lies."""
        diff = np.zeros((self.ny + 1, self.nx + 1), dtype=np.int32)
        left, right = self.left[members], self.right[members]
        top, bottom = self.top[members], self.bottom[members]
        np.add.at(diff, (top, left), 1)
        np.add.at(diff, (top, right), -1)
        np.add.at(diff, (bottom, left), -1)
        np.add.at(diff, (bottom, right), 1)
        return diff.cumsum(axis=0).cumsum(axis=1)[:self.ny, :self.nx] > 0

    def cut(self, members: np.ndarray, depth: int,
            leaves: list[tuple[int, int, int, int, np.ndarray]]) -> None:
        """Cut the region of ``members`` into columns and bands, or make it a leaf."""
        occupied = self.occupancy(members)
        rows = np.flatnonzero(occupied.any(axis=1))
        cols = np.flatnonzero(occupied.any(axis=0))
        x0, x1, y0, y1 = int(cols[0]), int(cols[-1]) + 1, int(rows[0]), int(rows[-1]) + 1
        region = occupied[y0:y1, x0:x1]
        self._rule(region, x0, y0)
        if depth >= MAX_DEPTH:
            leaves.append((x0, y0, x1, y1, members))
            return
        gutters = _gutters(region)
        if not gutters:
            parts = self._stacked(members, region, x0, x1, y0)
        else:
            parts = self._parts(members, gutters, region, x0, x1, y0, y1)
        if len(parts) < 2:
            leaves.append((x0, y0, x1, y1, members))
            return
        for part in parts:
            self.cut(part, depth + 1, leaves)

    def _parts(self, members: np.ndarray, gutters: list[tuple[int, int]], region: np.ndarray,
               x0: int, x1: int, y0: int, y1: int) -> list[np.ndarray]:
        """The region's members cut at its ``gutters``: into bands where rows cross
        them, else into columns (none: the region is a leaf)."""
        bands = self._whole_ruled_rows(_bands(region, gutters), x0, x1, y0)
        bands = self._beside_a_column(members, gutters, bands, np.asarray(region.any(axis=1)),
                                      x0, x1, y0)
        if len(bands) > 1:
            parts = self._split(members, self.cy, [y0 + row for row, _ in bands] + [y1])
            if len(parts) < 2:  # the other bands hold only the lower edges of its lines
                parts = self._prose_columns(members, gutters, bands, x0, x1, y0)
        else:
            parts = self._columns(members, gutters, bands[0][1], x0, x1)
            if self._figures_in_rows(parts):
                parts = []
        return parts

    def _stacked(self, members: np.ndarray, region: np.ndarray, x0: int, x1: int, y0: int
                 ) -> list[np.ndarray]:
        """The members of a region with no gutters, cut across at empty strips
        (:data:`MIN_STACK_GAP`) around each part between them that has columns of prose
        (:meth:`_prose`); none if no part has.

        Columns over a small share of a region's rows have no gutter in it
        (:data:`MIN_GUTTER_ROWS`): DOU page 64 prints three columns over a sixth of the
        page, tables across it under them, and its three columns were read across,
        line by line. The strips between the other parts are no cut: a table's rows
        stay together."""
        gap = _cells(MIN_STACK_GAP)
        empty = np.asarray(~region.any(axis=1))
        strips = [(start, end) for start, end in _runs(empty) if end - start >= gap]
        if not strips:  # one part, the region itself: it has no gutters
            return []
        edges = [0, *((start + end) // 2 for start, end in strips), len(region)]
        prose = [self._prose_in(self._within(members, y0 + top, y0 + bottom),
                                region[top:bottom], x0, x1)
                 for top, bottom in itertools.pairwise(edges)]
        if not any(prose):
            return []
        cuts = [edge for edge, before, after in zip(edges[1:-1], prose[:-1], prose[1:], strict=True)
                if before or after]
        return self._split(members, self.cy, [y0, *(y0 + cut for cut in cuts), y0 + len(region)])

    def _columns(self, members: np.ndarray, gutters: list[tuple[int, int]],
                 crossed: tuple[bool, ...], x0: int, x1: int) -> list[np.ndarray]:
        """The members of a band from ``x0`` to ``x1``, cut at the gutters it does not
        cross (none: no parts)."""
        kept = [x0 + (start + end) / 2 for (start, end), cross
                in zip(gutters, crossed, strict=True) if not cross]
        return self._split(members, self.cx, [x0, *kept, x1]) if kept else []

    def _prose_columns(self, members: np.ndarray, gutters: list[tuple[int, int]],
                       bands: list[tuple[int, tuple[bool, ...]]], x0: int, x1: int, y0: int
                       ) -> list[np.ndarray]:
        """The columns of the one band of ``bands`` that holds every member's centre, if
        they are prose; else none (the region is a leaf).

        Rows that only the lower edge of a band's last line reaches, crossing a gutter
        the band's other rows leave empty, are a band of their own. Cut there, the
        region would keep every member in one part and be cut the same way again, down
        to :data:`MAX_DEPTH`, then read as one, across its columns (the top of DOU page
        59: three columns read line by line). Columns of prose are running text: mostly
        letters, three lines or more each, in no ruled table. The figure tables that
        come out the same way (DOU pages 38 and 94) are read as one region, row by row."""
        if self._ruled_rows(x0, x1):
            return []
        starts = [y0 + row for row, _ in bands]
        held = bands[max(0, bisect.bisect_right(starts, float(self.cy[members[0]])) - 1)]
        parts = self._columns(members, gutters, held[1], x0, x1)
        return parts if self._prose(parts) else []

    def _prose(self, parts: list[np.ndarray]) -> bool:
        """Whether ``parts`` are two or more columns of running text: mostly letters,
        :data:`MIN_TABLE_ROWS` lines or more each, of :data:`MIN_PROSE_LINE` characters
        or more on average (a list's labels, ``ADV.(A/S)``, are letters too)."""
        def prose(part: np.ndarray) -> bool:
            lines = len(_line_centres(self.cy[part]))
            return bool(self.letter[part].mean() > MIN_PROSE_LETTERS) and (
                lines >= MIN_TABLE_ROWS and len(part) >= MIN_PROSE_LINE * lines)
        return len(parts) >= 2 and all(prose(part) for part in parts)

    def _prose_in(self, members: np.ndarray, occupied: np.ndarray, x0: int, x1: int) -> bool:
        """Whether ``members``, whose cells are ``occupied`` (from grid column ``x0`` to
        ``x1``), stand in columns of prose."""
        gutters = _gutters(occupied)
        return bool(gutters) and self._prose(
            self._columns(members, gutters, (False,) * len(gutters), x0, x1))

    def _within(self, members: np.ndarray, top: float, bottom: float) -> np.ndarray:
        """The members whose centres lie from grid row ``top`` to ``bottom``."""
        return members[(self.cy[members] >= top) & (self.cy[members] < bottom)]

    def _beside_a_column(self, members: np.ndarray, gutters: list[tuple[int, int]],
                         bands: list[tuple[int, tuple[bool, ...]]], text: np.ndarray,
                         x0: int, x1: int, y0: int) -> list[tuple[int, tuple[bool, ...]]]:
        """``bands`` (of the region from ``x0``, ``x1``, ``y0``, whose rows with ink are
        ``text``), each run of them that leaves one gutter uncrossed made one band, where
        that gutter cuts the run into columns of prose (:meth:`_prose`).

        A column of running text can stand beside a block laid across the other columns
        (DOU page 40: an act over two columns, its centred heading lines crossing their
        gutter, beside the third column). The block's heading lines and the gaps
        between them make bands a line or two tall, too thin to find the column's
        gutter in (:data:`MIN_GUTTER_RUN`): each was read across the page, heading and
        column line by line. Joined, the run is cut at the gutter first. A table's
        columns are no prose, and its rows stay bands. The region's first and last
        lines, if thin (a running head, a footer: one line across the page), stay
        bands of their own."""
        run = _cells(MIN_GUTTER_RUN)
        lines = _runs(text)
        head = lines[0][1] if lines[0][1] - lines[0][0] < run else 0
        foot = lines[-1][0] if len(lines) > 1 and lines[-1][1] - lines[-1][0] < run else len(text)
        ends = [start for start, _ in bands[1:]] + [len(text)]
        runs: list[tuple[list[int], tuple[bool, ...], bool]] = []  # bands, crossed, inner
        for index, (start, crossed) in enumerate(bands):
            inner = ends[index] > head and start < foot
            if inner and runs and runs[-1][2]:
                either = tuple(a or b for a, b in zip(runs[-1][1], crossed, strict=True))
                if not all(either):
                    runs[-1] = ([*runs[-1][0], index], either, True)
                    continue
            runs.append(([index], crossed, inner))
        joined: list[tuple[int, tuple[bool, ...]]] = []
        for indices, crossed, _ in runs:
            first, last = indices[0], indices[-1]
            top, bottom = max(bands[first][0], head), min(ends[last], foot)
            part = self._within(members, y0 + top, y0 + bottom)
            if len(indices) > 1 and self._prose(self._columns(part, gutters, crossed, x0, x1)):
                joined.extend([bands[first]] if top > bands[first][0] else [])
                joined.append((top, crossed))
                joined.extend([(bottom, bands[last][1])] if bottom < ends[last] else [])
            else:
                joined.extend(bands[i] for i in indices)
        return joined

    def _whole_ruled_rows(self, bands: list[tuple[int, tuple[bool, ...]]], x0: int, x1: int,
                          y0: int) -> list[tuple[int, tuple[bool, ...]]]:
        """``bands`` (of the region from ``x0``, ``x1``, ``y0``) with no cut inside a
        ruled table's row (:meth:`_ruled_rows`): a band that starts inside one joins the
        band before it, which crosses the gutters either crosses. Line by line, a row
        whose long cells wrap crosses fewer gutters after its first line (``9.
        200903740 … FACULDADE`` / ``FRÁSIO DE TOLEDO … PRU-``), and cut there its cells
        could not be read whole."""
        if len(bands) < 2:
            return bands
        rows = self._ruled_rows(x0, x1)
        joined: list[tuple[int, tuple[bool, ...]]] = []
        for start, crossed in bands:
            if joined and any(top + 1 <= y0 + start < bottom for top, bottom in rows):
                first, before = joined[-1]
                joined[-1] = (first, tuple(a or b for a, b in zip(before, crossed, strict=True)))
            else:
                joined.append((start, crossed))
        return joined

    def _ruled_rows(self, x0: int, x1: int) -> list[tuple[float, float]]:
        """The table rows ruled across columns ``x0`` to ``x1`` of the grid, as (top,
        bottom) grid rows: two rules across it at most :data:`MAX_RULED_ROW` apart, with
        a border inside it running from one to the other (a cell's side: rules above
        and below a box, a notice or an act, are no table row)."""
        slack = 0.05 * (x1 - x0)
        across = sorted({y for left, right, y in self.rules
                         if left <= x0 + slack and right >= x1 - slack})
        return [(top, bottom) for top, bottom in itertools.pairwise(across)
                if bottom - top <= MAX_RULED_ROW / CELL
                and bool(_spanning(self.borders, top * CELL, bottom * CELL,
                                   (x0 + slack) * CELL, (x1 - slack) * CELL).any())]

    def _figures_in_rows(self, parts: list[np.ndarray]) -> bool:
        """Whether the columns a region would be cut into are a table's, to be read row
        by row: each holds the same lines, at the same heights (at least
        :data:`MIN_TABLE_ROWS`), and the columns after the first (its row labels) hold
        figures, not words. Columns of prose, or of list entries (``878.080/2014-MARCOS
        JOSE SOARES``), can share their lines' heights too (a gazette sets its columns
        on one grid of lines), but not their lack of letters."""
        lines = [_line_centres(self.cy[part]) for part in parts]
        rows = len(lines[0])
        if len(parts) < 2 or rows < MIN_TABLE_ROWS or any(len(found) != rows for found in lines):
            return False
        if np.ptp(np.array(lines), axis=0).max() > ROW_TOLERANCE / CELL:
            return False
        return bool(self.letter[np.concatenate(parts[1:])].mean() <= MAX_LETTER_SHARE)

    def _rule(self, region: np.ndarray, x0: int, y0: int) -> None:
        """Draw the ruled lines inside a region into its grid: a table's rules break
        the white space between its cells, so its cells are not taken for columns."""
        height, width = region.shape
        for left, right, y in self.rules:
            row = int(y) - y0
            start, end = max(0, int(left) - x0), min(width, math.ceil(right) - x0)
            if 0 <= row < height and start < end:
                region[row, start:end] = True

    @staticmethod
    def _split(members: np.ndarray, centres: np.ndarray, edges: Sequence[float]
               ) -> list[np.ndarray]:
        """The members whose centres fall between each pair of consecutive inner edges."""
        bounds = [-math.inf, *edges[1:-1], math.inf]
        parts = [members[(centres[members] >= low) & (centres[members] < high)]
                 for low, high in itertools.pairwise(bounds)]
        return [part for part in parts if len(part)]


def _gutters(occupied: np.ndarray) -> list[tuple[int, int]]:
    """The gutters of a region: strips of grid columns, at least ``MIN_GUTTER`` wide,
    empty over long runs (``MIN_GUTTER_RUN``) in many of its rows, that cut it into
    columns no narrower than ``MIN_COLUMN_SHARE`` of its width (strongest first)."""
    height, width = occupied.shape
    run = _cells(MIN_GUTTER_RUN)
    if height < run:
        return []
    text_rows = occupied.any(axis=1)
    share = _in_long_empty_run(occupied, run)[text_rows].mean(axis=0)
    candidates = [(start + a, start + b)
                  for start, end in _runs(share >= MIN_GUTTER_ROWS)
                  # the core of a wide empty stretch: where it is empty most often
                  for a, b in _runs(share[start:end] >= 0.9 * share[start:end].max())
                  if b - a >= MIN_GUTTER / CELL and start + a > 0 and start + b < width]
    chosen: list[tuple[int, int]] = []
    for start, end in sorted(candidates, key=lambda c: -float(share[c[0]:c[1]].mean())):
        trial = sorted([*chosen, (start, end)])
        edges = [0, *((a + b) / 2 for a, b in trial), width]
        if min(b - a for a, b in itertools.pairwise(edges)) >= MIN_COLUMN_SHARE * width:
            chosen = trial
    return chosen


def _bands(occupied: np.ndarray, gutters: list[tuple[int, int]]
           ) -> list[tuple[int, tuple[bool, ...]]]:
    """Runs of rows that cross the same gutters: each run's first row and which gutters
    its rows cross (a title, summary or table row laid across the columns fills them;
    so does a column laid over a gutter, its short lines included: see
    :func:`_short_gaps_filled`)."""
    run = _cells(MIN_GUTTER_RUN)
    text = np.asarray(occupied.any(axis=1))
    crossing = np.stack([
        _short_gaps_filled(occupied[:, start:end].mean(axis=1) >= 0.5, text,
                           np.asarray(occupied[:, max(0, start - run):end + run].any(axis=1)
                                      | (occupied[:, :start].any(axis=1)
                                         & occupied[:, end:].any(axis=1))),
                           run)
        for start, end in gutters], axis=1)
    bands: list[tuple[int, tuple[bool, ...]]] = []
    for row in np.flatnonzero(text):
        signature = tuple(bool(flag) for flag in crossing[row])
        if not bands or bands[-1][1] != signature:
            bands.append((int(row), signature))
    return bands


def _short_gaps_filled(crossing: np.ndarray, text: np.ndarray, beside: np.ndarray, run: int
                       ) -> np.ndarray:
    """The rows that cross a gutter (``crossing``), with each gap between two of them
    shorter than ``run`` (a gutter's height, :data:`MIN_GUTTER_RUN`) filled if at least
    half its rows of ``text`` are ``beside`` the gutter: with ink within that distance
    of it, or on both sides of it.

    Columns leave a gutter empty all the way down. A column laid over it (three
    columns under a page's two) leaves it for a short line or a paragraph's end only,
    and those lines reach up to the gutter or sit beside the other columns' lines: the
    gutter is crossed there too, else the lower part is cut into bands too thin to
    find its own columns in. A line that stands alone far from the gutter (a table's
    cell on a second line) leaves its gap open, and its table is read row by row.

    >>> crossing = np.array([0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 1], dtype=bool)
    >>> text = np.ones(11, dtype=bool)
    >>> beside = np.array([1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1], dtype=bool)
    >>> _short_gaps_filled(crossing, text, beside, 3).astype(int)
    array([0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 1])
    """
    filled = crossing.copy()
    for start, end in _runs(~crossing):
        lines = text[start:end]
        if start > 0 and end < len(crossing) and end - start < run and (
                not lines.any() or beside[start:end][lines].mean() >= 0.5):
            filled[start:end] = True
    return filled


def _line_centres(centres: np.ndarray) -> list[float]:
    """The heights of the lines of characters whose vertical centres (grid units) are
    ``centres``: runs of centres less than a cell apart.

    >>> _line_centres(np.array([10.2, 3.0, 10.0, 3.4, 6.5]))
    [3.2, 6.5, 10.1]
    """
    ordered = np.sort(centres)
    lines = np.split(ordered, np.flatnonzero(np.diff(ordered) > 1.0) + 1)
    return [round(float(line.mean()), 2) for line in lines]


def _cells(points: float) -> int:
    """A length in points as a whole number of grid cells, at least one.

    >>> _cells(24.0), _cells(0.5)
    (12, 1)
    """
    return max(1, round(points / CELL))


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """The ``[start, end)`` runs of true values.

    >>> _runs(np.array([0, 1, 1, 0, 1], dtype=bool))
    [(1, 3), (4, 5)]
    """
    padded = np.concatenate(([False], flags, [False])).astype(np.int8)
    change = np.flatnonzero(np.diff(padded))
    return [(int(a), int(b)) for a, b in zip(change[::2], change[1::2], strict=True)]


def _in_long_empty_run(occupied: np.ndarray, run: int) -> np.ndarray:
    """True where a cell lies in a vertical run of at least ``run`` empty cells."""
    height = occupied.shape[0]
    filled = np.vstack([np.zeros((1, occupied.shape[1]), dtype=np.int32),
                        occupied.cumsum(axis=0, dtype=np.int32)])
    window_empty = (filled[run:] - filled[:-run]) == 0  # window starting at each row
    starts = np.vstack([np.zeros((1, occupied.shape[1]), dtype=np.int32),
                        window_empty.cumsum(axis=0, dtype=np.int32)])
    rows = np.arange(height)
    first = np.clip(rows - run + 1, 0, window_empty.shape[0])
    last = np.clip(rows + 1, 0, window_empty.shape[0])
    return (starts[last] - starts[first]) > 0
