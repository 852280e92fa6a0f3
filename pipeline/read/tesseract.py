"""Run Tesseract through pytesseract: a version probe and one call per page image."""

from __future__ import annotations

import logging
import os
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytesseract

from pipeline.errors import ToolMissingError

__all__ = ["OcrResult", "Orientation", "Tesseract", "available_languages",
           "detect_orientation", "ocr_image", "version"]

log = logging.getLogger(__name__)

_INSTALL_HINT = "install it with `make setup` (Debian package tesseract-ocr)"


@dataclass(frozen=True)
class OcrResult:
    """Text of one page image and Tesseract's mean word confidence (0–100)."""

    text: str
    confidence: float | None
    words: int
    #: Each word with its confidence (0–100), in reading order.
    word_confidences: tuple[tuple[str, float], ...] = ()


@cache
def version() -> str:
    """Tesseract's version, or :class:`ToolMissingError` if it is not installed."""
    try:
        return str(pytesseract.get_tesseract_version())
    except pytesseract.TesseractNotFoundError as exc:
        raise ToolMissingError("Tesseract is not installed", _INSTALL_HINT) from exc


@cache
def available_languages() -> frozenset[str]:
    """The language packs Tesseract has (``eng``, ``por``, ``Devanagari``, ...).

    Asked of ``tesseract --list-langs`` itself: pytesseract's list leaves out the
    script packs, whose names start with a capital.
    """
    version()
    listing = subprocess.run([pytesseract.pytesseract.tesseract_cmd, "--list-langs"],
                             capture_output=True, text=True, check=True, timeout=60)
    return frozenset(line.strip() for line in listing.stdout.splitlines()[1:] if line.strip())


def ocr_image(image: Path, languages: str, timeout: float) -> OcrResult:
    """OCR one page image file with the given ``+``-joined language packs.

    Tesseract reads the file itself (no PNG round trip through pytesseract). Lines are
    rebuilt from the word boxes; paragraphs Tesseract finds are separated by a blank line.
    """
    missing = set(languages.split("+")) - available_languages()
    if missing:
        raise ToolMissingError(
            f"Tesseract language pack(s) {', '.join(sorted(missing))} not installed",
            _INSTALL_HINT,
        )
    # OpenMP threads inside Tesseract make a page up to 45x slower on 2 cores when
    # pages already run in parallel processes; one thread per Tesseract is the rule.
    os.environ["OMP_THREAD_LIMIT"] = "1"
    data = pytesseract.image_to_data(
        str(image), lang=languages, config="--psm 3", timeout=timeout,
        output_type=pytesseract.Output.DICT,
    )
    return _result_from_data(data)


@dataclass(frozen=True)
class Orientation:
    """Tesseract's orientation and script detection of a page."""

    #: Degrees to turn the page clockwise to make it upright (0, 90, 180, 270).
    rotate: int
    script: str
    script_confidence: float


def detect_orientation(image: Path, timeout: float) -> Orientation | None:
    """Orientation and script of a page image (``--psm 0``), or None if Tesseract finds
    too little text to tell."""
    os.environ["OMP_THREAD_LIMIT"] = "1"
    try:
        osd = pytesseract.image_to_osd(str(image), config="--psm 0", timeout=timeout,
                                       output_type=pytesseract.Output.DICT)
    except pytesseract.TesseractError as exc:
        log.info("%s: no orientation/script detection (%s)", image.name,
                 str(exc).strip().splitlines()[-1] if str(exc).strip() else exc)
        return None
    return Orientation(rotate=int(osd["rotate"]), script=str(osd["script"]),
                       script_confidence=float(osd["script_conf"]))


class Tesseract:
    """Tesseract as the OCR engine of :mod:`pipeline.read.scan` (its ``OcrEngine``)."""

    def read(self, image: Path, languages: str, timeout: float) -> OcrResult:
        """See :func:`ocr_image`."""
        return ocr_image(image, languages, timeout)

    def orientation(self, image: Path, timeout: float) -> Orientation | None:
        """See :func:`detect_orientation`."""
        return detect_orientation(image, timeout)


def _result_from_data(data: dict[str, list]) -> OcrResult:
    """Rebuild text and confidence from ``image_to_data`` output.

    >>> d = {"text": ["Article", "1", "", "Scope"], "conf": [90, 80, -1, 70],
    ...      "block_num": [1, 1, 1, 1], "par_num": [1, 1, 1, 2], "line_num": [1, 1, 1, 1]}
    >>> r = _result_from_data(d)
    >>> r.text, r.confidence, r.words, r.word_confidences[0]
    ('Article 1\\n\\nScope', 80.0, 3, ('Article', 90.0))
    """
    paragraphs: dict[tuple[int, int], dict[int, list[str]]] = {}
    confidences: list[float] = []
    scored: list[tuple[str, float]] = []
    for word, conf, block, par, line in zip(
        data["text"], data["conf"], data["block_num"], data["par_num"], data["line_num"],
        strict=True,
    ):
        if not str(word).strip():
            continue
        paragraphs.setdefault((block, par), {}).setdefault(line, []).append(str(word))
        if float(conf) >= 0:
            confidences.append(float(conf))
            scored.append((str(word), round(float(conf), 1)))
    text = "\n\n".join(
        "\n".join(" ".join(words) for words in lines.values()) for lines in paragraphs.values()
    )
    mean = round(sum(confidences) / len(confidences), 2) if confidences else None
    return OcrResult(text=text, confidence=mean, words=len(confidences),
                     word_confidences=tuple(scored))
