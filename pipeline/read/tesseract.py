"""Run Tesseract in this process (tesserocr): one engine per pack and thread, kept loaded.

The library is the one tesserocr's wheel carries; its language packs are the system's
(``make setup`` installs Debian's), found where ``TESSDATA_PREFIX`` says or in the
usual places (:func:`tessdata`).

A page is recognised once and its words are taken from Tesseract's result iterator,
with their confidences and the block, paragraph and line each starts. Tesseract's own
TSV or hOCR output asks the iterator about every letter: on a DOU page that costs a
fifth of the recognition again (measured with the ``tesseract`` command, 12.7 s
against 10.6 s for plain text).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import tesserocr
from tesserocr import PSM, RIL, PyTessBaseAPI

from pipeline.config import Settings
from pipeline.errors import ToolMissingError

__all__ = ["OcrResult", "Orientation", "Tesseract", "available_languages",
           "detect_orientation", "ocr_image", "tessdata", "version"]

_INSTALL_HINT = ("install the packs with `make setup` (Debian packages tesseract-ocr-*), "
                 "or say where they are in TESSDATA_PREFIX")
#: Where systems keep Tesseract's packs, looked in when ``TESSDATA_PREFIX`` is not set.
_TESSDATA_GLOBS = ("/usr/share/tesseract-ocr/*/tessdata", "/usr/share/tessdata",
                   "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata")


@dataclass(frozen=True)
class OcrResult:
    """Text of one page image and Tesseract's mean word confidence (0–100)."""

    text: str
    confidence: float | None
    words: int
    #: Each word with its confidence (0–100), in reading order.
    word_confidences: tuple[tuple[str, float], ...] = ()


@cache
def tessdata() -> Path:
    """The folder of Tesseract's language packs: ``TESSDATA_PREFIX`` if set, else the
    first of the usual places that holds packs; :class:`ToolMissingError` if none does."""
    if os.environ.get("TESSDATA_PREFIX"):
        return Path(os.environ["TESSDATA_PREFIX"])
    for pattern in _TESSDATA_GLOBS:
        for folder in sorted(Path("/").glob(pattern.lstrip("/")), reverse=True):
            if any(folder.glob("*.traineddata")):
                return folder
    raise ToolMissingError("no Tesseract language packs found", _INSTALL_HINT)


def version() -> str:
    """The version of the Tesseract library that reads pages (``5.5.4``)."""
    return str(tesserocr.tesseract_version()).split()[1]


@cache
def available_languages() -> frozenset[str]:
    """The language packs Tesseract has (``eng``, ``por``, ``Devanagari``, ...)."""
    return frozenset(tesserocr.get_languages(f"{tessdata()}/")[1])


_ENGINES = threading.local()


def _engine(languages: str, psm: PSM) -> PyTessBaseAPI:
    """This thread's engine for these packs, loaded on first use (a pack loads in a
    tenth to a third of a second; a worker reads many pages with it)."""
    engines: dict[tuple[str, int], PyTessBaseAPI] = _ENGINES.__dict__.setdefault("by", {})
    key = (languages, int(psm))
    if key not in engines:
        missing = set(languages.split("+")) - available_languages()
        if missing:
            raise ToolMissingError(
                f"Tesseract language pack(s) {', '.join(sorted(missing))} not installed",
                _INSTALL_HINT)
        engines[key] = PyTessBaseAPI(path=f"{tessdata()}/", lang=languages, psm=psm)
    return engines[key]


def ocr_image(image: Path, languages: str, timeout: float) -> OcrResult:
    """OCR one page image file with the given ``+``-joined language packs (``--psm 3``).

    Tesseract is not told the image's resolution (``Settings.ocr_dpi``), as the
    ``tesseract`` command is not told it by a render that carries none: it then takes
    the scale of the page's layout from the height of its letters. Told 300 dpi, it
    read 32 photocopied DOU pages of 6- and 8-point type worse (mean word F1 0.952
    against 0.956; two pages 0.888 and 0.916 against 0.946 and 0.964, while no page
    lost more than 0.014 by not telling; see BENCHMARKS.md, "A scanned edition").
    Lines are rebuilt from the words; paragraphs Tesseract finds are separated by a
    blank line. A page not read within ``timeout`` seconds raises
    :class:`TimeoutError`.
    """
    engine = _engine(languages, PSM.AUTO)
    engine.SetImageFile(str(image))
    if not engine.Recognize(timeout=max(1, round(timeout * 1000))):  # 0 is no limit
        raise TimeoutError(f"Tesseract did not read {image.name} within {timeout:g} s "
                           "(Settings.ocr_timeout)")
    words: list[tuple[str, float, tuple[int, int, int]]] = []
    block = paragraph = line = 0
    iterator = engine.GetIterator()
    while iterator is not None and not iterator.Empty(RIL.WORD):
        block += iterator.IsAtBeginningOf(RIL.BLOCK)
        paragraph += iterator.IsAtBeginningOf(RIL.PARA)
        line += iterator.IsAtBeginningOf(RIL.TEXTLINE)
        words.append((iterator.GetUTF8Text(RIL.WORD) or "", iterator.Confidence(RIL.WORD),
                      (block, paragraph, line)))
        if not iterator.Next(RIL.WORD):
            break
    return _result_from_words(words)


@dataclass(frozen=True)
class Orientation:
    """Tesseract's orientation and script detection of a page."""

    #: Degrees to turn the page clockwise to make it upright (0, 90, 180, 270).
    rotate: int
    script: str
    script_confidence: float


def detect_orientation(image: Path) -> Orientation | None:
    """Orientation and script of a page image (``--psm 0``), or None if Tesseract finds
    too little text to tell. (It takes a fraction of a reading, which has the time
    limit.)"""
    engine = _engine("osd", PSM.OSD_ONLY)
    engine.SetImageFile(str(image))
    osd = engine.DetectOrientationScript()
    if not osd:
        return None
    # Tesseract reports how far the page is turned counter-clockwise
    return Orientation(rotate=(360 - int(osd["orient_deg"])) % 360,
                       script=str(osd["script_name"]),
                       script_confidence=float(osd["script_conf"]))


class Tesseract:
    """Tesseract as the OCR engine of :mod:`pipeline.read.scan` (its ``OcrEngine``)."""

    def read(self, image: Path, languages: str, settings: Settings) -> OcrResult:
        """See :func:`ocr_image`."""
        return ocr_image(image, languages, settings.ocr_timeout)

    def orientation(self, image: Path) -> Orientation | None:
        """See :func:`detect_orientation`."""
        return detect_orientation(image)


def _result_from_words(words: list[tuple[str, float, tuple[int, int, int]]]) -> OcrResult:
    """Text and confidence from the words, each with its confidence and its (block,
    paragraph, line) numbers.

    >>> r = _result_from_words([("Article", 90, (1, 1, 1)), ("1", 80, (1, 1, 1)),
    ...                         ("Scope", 70, (1, 2, 2)), (" ", 95, (1, 2, 2))])
    >>> r.text, r.confidence, r.words, r.word_confidences[0]
    ('Article 1\\n\\nScope', 80.0, 3, ('Article', 90.0))
    """
    kept = [(word, float(confidence), place) for word, confidence, place in words
            if word.strip()]
    paragraphs: dict[tuple[int, int], dict[int, list[str]]] = {}
    for word, _, (block, paragraph, line) in kept:
        paragraphs.setdefault((block, paragraph), {}).setdefault(line, []).append(word)
    text = "\n\n".join(
        "\n".join(" ".join(line) for line in lines.values()) for lines in paragraphs.values()
    )
    mean = round(sum(c for _, c, _ in kept) / len(kept), 2) if kept else None
    return OcrResult(text=text, confidence=mean, words=len(kept),
                     word_confidences=tuple((word, round(c, 1)) for word, c, _ in kept))
