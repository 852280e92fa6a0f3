"""The page decision: how each PDF page is read (text layer, legacy font, or OCR), and why.

:func:`decide_page` is the one place that decides; it looks only at
:class:`TextLayerStats`, which :func:`text_layer_stats` measures on a page's text layer
as :func:`text_in_reading_order` reads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pdfplumber

from pipeline.config import Settings
from pipeline.read.textlayer import PageText, read_text_layer
from pipeline.records import PageMethod
from pipeline.text.language import looks_like_legacy_hindi
from pipeline.text.lexicon import broken_devanagari

__all__ = [
    "PageDecision",
    "TextLayerStats",
    "decide_page",
    "horizontal_rules",
    "text_in_reading_order",
    "text_layer_stats",
    "vertical_rules",
]

_CID = re.compile(r"\(cid:\d+\)")


@dataclass(frozen=True)
class TextLayerStats:
    """What a PDF page's text layer looks like, as :func:`decide_page` needs it."""

    chars: int
    words: int
    cid_tokens: int
    #: Share of the page area covered by images.
    image_coverage: float
    #: U+FFFD characters: glyphs the PDF writer could not map to Unicode.
    replacement_chars: int = 0
    devanagari_words: int = 0
    #: Devanagari words that break its spelling (see :func:`broken_devanagari`).
    broken_devanagari: int = 0
    #: The page uses a legacy Hindi font by name (KrutiDev, DevLys, Chanakya, DV_*) or
    #: its text reads like Hindi typed in one (Kruti Dev letter patterns).
    legacy_hindi: bool = False


@dataclass(frozen=True)
class PageDecision:
    """How to read a page and why."""

    method: PageMethod
    reason: str

    @property
    def ocr(self) -> bool:
        """True if the page is to be OCR'd."""
        return self.method == "ocr"


def decide_page(stats: TextLayerStats, settings: Settings) -> PageDecision:
    """Decide how a PDF page is read: text layer, legacy-font conversion, or OCR.

    This is the one place that decides; the reason is stored with the page and
    logged. A text layer is broken — and the page OCR'd — if it has ``(cid:N)``
    glyph ids (over ``Settings.max_cid_share`` of its words), replacement
    characters, or Devanagari that breaks the script's spelling (over
    ``Settings.max_broken_devanagari`` of its Devanagari words). Hindi typed in a
    legacy font is converted (and OCR'd after all if the conversion reads badly).

    >>> s = Settings.for_root(".")
    >>> decide_page(TextLayerStats(0, 0, 0, 0.98), s)
    PageDecision(method='ocr', reason='no text layer, an image covers 98% of the page')
    >>> decide_page(TextLayerStats(900, 150, 40, 0.0), s).reason
    'broken text layer: 40 of 150 words are (cid:N) glyph ids (max_cid_share=0.05)'
    >>> decide_page(TextLayerStats(900, 150, 0, 0.0, devanagari_words=100,
    ...                            broken_devanagari=30), s).reason
    'broken text layer: 30 of 100 Devanagari words break its spelling (max 0.05)'
    >>> decide_page(TextLayerStats(900, 150, 0, 0.0, legacy_hindi=True), s).method
    'legacy-font'
    >>> decide_page(TextLayerStats(900, 150, 0, 0.0), s)
    PageDecision(method='text-layer', reason='text layer with 900 characters')
    """
    if stats.chars == 0:
        if stats.image_coverage == 0:
            return PageDecision("text-layer", "blank page: no text layer and no image")
        return PageDecision(
            "ocr", f"no text layer, an image covers {stats.image_coverage:.0%} of the page")
    if stats.words and stats.cid_tokens / stats.words > settings.max_cid_share:
        return PageDecision(
            "ocr",
            f"broken text layer: {stats.cid_tokens} of {stats.words} words are (cid:N) "
            f"glyph ids (max_cid_share={settings.max_cid_share})",
        )
    if stats.replacement_chars:
        return PageDecision("ocr", f"broken text layer: {stats.replacement_chars} "
                                   "replacement character(s) (U+FFFD)")
    if stats.devanagari_words >= 5 and (
            stats.broken_devanagari / stats.devanagari_words > settings.max_broken_devanagari):
        return PageDecision(
            "ocr", f"broken text layer: {stats.broken_devanagari} of {stats.devanagari_words} "
                   f"Devanagari words break its spelling (max {settings.max_broken_devanagari})")
    if stats.legacy_hindi:
        return PageDecision("legacy-font", "Hindi typed in a legacy font (Kruti Dev letters)")
    return PageDecision("text-layer", f"text layer with {stats.chars} characters")


#: Legacy Hindi fonts by name (subset prefixes like ``HFJLJA+`` come before the name).
_LEGACY_FONT = re.compile(r"(?:^|\+)(?:Kruti|DevLys|Chanakya|Walkman|DV_|DV-)", re.IGNORECASE)


def text_in_reading_order(page: pdfplumber.page.Page) -> PageText:
    """A text-layer page's text in reading order (see :mod:`pipeline.read.textlayer`).

    Gazettes print two or three columns, with titles, summaries and tables across
    them; pdfplumber alone reads across the columns line by line.
    """
    return read_text_layer(page.chars, float(page.width), float(page.height),
                           horizontal_rules(page), vertical_rules(page))


def horizontal_rules(page: pdfplumber.page.Page) -> list[tuple[float, float, float]]:
    """The page's horizontal ruled lines as ``(x0, x1, y)``, touching pieces joined
    (a table draws each cell's border on its own)."""
    pieces = sorted((round(float(edge["top"])), float(edge["x0"]), float(edge["x1"]))
                    for edge in page.horizontal_edges)
    rules: list[tuple[float, float, float]] = []
    for y, x0, x1 in pieces:
        if rules and rules[-1][2] == y and x0 <= rules[-1][1] + 1:
            rules[-1] = (rules[-1][0], max(rules[-1][1], x1), y)
        else:
            rules.append((x0, x1, y))
    return rules


def vertical_rules(page: pdfplumber.page.Page) -> list[tuple[float, float, float]]:
    """The page's vertical ruled lines as ``(x, top, bottom)``: a table's cell borders
    (each cell's drawn on its own)."""
    return [(float(edge["x0"]), float(edge["top"]), float(edge["bottom"]))
            for edge in page.vertical_edges]


def text_layer_stats(page: pdfplumber.page.Page, reading: PageText,
                     settings: Settings) -> TextLayerStats:
    """What :func:`decide_page` needs to know of a page read by :func:`text_in_reading_order`."""
    text = reading.text
    area = float(page.width * page.height) or 1.0
    covered = sum(
        max(0.0, float(min(im["x1"], page.width) - max(im["x0"], 0)))
        * max(0.0, float(min(im["bottom"], page.height) - max(im["top"], 0)))
        for im in page.images
    )
    devanagari, broken = broken_devanagari(text)
    latin = tuple(lang for lang in settings.languages if lang != "hi")
    legacy_fonts = {font for font in {c["fontname"] for c in reading.chars}
                    if _LEGACY_FONT.search(font)}
    return TextLayerStats(
        chars=len(reading.chars),
        words=len(text.split()),
        cid_tokens=len(_CID.findall(text)),
        image_coverage=round(min(covered / area, 1.0), 2),
        replacement_chars=text.count("\ufffd"),
        devanagari_words=devanagari,
        broken_devanagari=broken,
        legacy_hindi=bool(legacy_fonts) or looks_like_legacy_hindi(text, latin),
    )
