"""Reading a scanned page: deskew, denoise, script, orientation, the right language pack.

A document's script and language are decided once, cheaply, before its pages are read
(:func:`probe_pack`): a strip across the middle of its first scanned page is read
with ``eng`` (a quarter of a page's work); readable text gives its language (``por``,
``swe`` or ``eng``), unreadable text has its script detected on that strip
(``Devanagari``). Each page is then read once with that single pack, in steps that each
log what they decided (:func:`read_scan`):

1. The skew is measured (the angle whose horizontal projection has the sharpest
   lines) and undone; a median filter removes speckle.
2. A page whose broken text layer showed Devanagari is read with the ``Devanagari``
   script pack (it reads the English lines gazettes mix in as well); any other page
   with the document's pack.
3. Only if that reading is doubtful (mean word confidence below
   ``Settings.min_ocr_confidence``) does Tesseract's orientation and script detection
   run (``--psm 0``): a turned page is turned back, a Devanagari page read with the
   Devanagari pack, and the better reading kept.
4. A Latin page whose text is in another language than its pack's (a Portuguese
   decree's English treaty pages) is read again with its own pack. Single packs keep
   each language's letters: ``swe+eng`` read ``är`` as ``ar``, ``swe`` does not.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

from pipeline._exec import tesseract
from pipeline.config import Settings
from pipeline.langsplit import detect_language

__all__ = ["ScanResult", "deskew_angle", "language_pack", "probe_pack", "read_scan"]

log = logging.getLogger(__name__)

#: Packs by script; a Latin page's pack may still change with its language.
_SCRIPT_PACKS = {"Devanagari": "Devanagari"}
#: Packs for a Latin page in this language.
_LANGUAGE_PACKS = {"sv": "swe", "pt": "por", "en": "eng"}
#: The pack the probe reads its strip with, and the strip's share of the page height.
_PROBE_PACK = "eng"
_PROBE_STRIP = (0.3, 0.55)


@dataclass(frozen=True)
class ScanResult:
    """The OCR of one page image and what was done to get it."""

    text: str
    confidence: float | None
    words: int
    languages: str
    steps: tuple[str, ...]
    #: Each word with Tesseract's confidence in it (0–100).
    word_confidences: tuple[tuple[str, float], ...] = ()


def deskew_angle(image: Image.Image, limit: float = 4.0, step: float = 0.25) -> float:
    """The angle (degrees, counter-clockwise) that makes the text lines horizontal.

    Measured on a reduced copy: the rotation whose row sums vary most has its lines
    in the fewest rows.
    """
    small = image.convert("L")
    small.thumbnail((1000, 1000))
    ink = Image.eval(small, lambda v: 255 if v < 128 else 0)
    best, best_score = 0.0, -1.0
    for angle in np.arange(-limit, limit + step / 2, step):
        rows = np.asarray(ink.rotate(float(angle), fillcolor=0), dtype=np.float32).sum(axis=1)
        score = float(np.var(rows))
        if score > best_score:
            best, best_score = float(angle), score
    return round(best, 2)


def language_pack(script: str | None, language: str | None, settings: Settings) -> str:
    """The Tesseract packs for a page of this script and (Latin) language.

    >>> s = Settings.for_root(Path("."))
    >>> language_pack("Devanagari", None, s), language_pack("Latin", "sv", s)
    ('Devanagari', 'swe')
    >>> language_pack("Latin", "pt", s), language_pack(None, None, s)
    ('por', 'eng+por')
    """
    if script in _SCRIPT_PACKS:
        return _SCRIPT_PACKS[script]
    return _LANGUAGE_PACKS.get(language or "", settings.ocr_languages)


def probe_pack(image_path: Path, settings: Settings) -> tuple[str, str]:
    """The pack to read a document's scanned pages with, and why, from one page image.

    A strip across the middle of the page is read with ``eng``: readable text tells
    its language; text too doubtful to tell has its script detected on the strip
    (``Devanagari``). Neither: ``Settings.ocr_languages``.
    """
    image = Image.open(image_path)
    top, bottom = (round(share * image.height) for share in _PROBE_STRIP)
    strip = image_path.with_name(image_path.stem + "-probe.pgm")
    image.crop((0, top, image.width, bottom)).convert("L").save(strip)
    try:
        reading = tesseract.ocr_image(strip, _PROBE_PACK, settings.ocr_timeout)
        if (reading.confidence or 0) >= settings.min_ocr_confidence and reading.words >= 5:
            language, _ = detect_language(reading.text, settings)
            if language in _LANGUAGE_PACKS:
                return _LANGUAGE_PACKS[language], f"a strip reads as {language}"
        osd = tesseract.detect_orientation(strip, settings.ocr_timeout)
        if osd and osd.script in _SCRIPT_PACKS:
            return _SCRIPT_PACKS[osd.script], f"a strip's script is {osd.script}"
        return settings.ocr_languages, "a strip tells no language"
    finally:
        strip.unlink(missing_ok=True)


def read_scan(image_path: Path, settings: Settings, script_hint: str | None = None,
              start_pack: str | None = None, why: str = "") -> ScanResult:
    """OCR one page image (a grayscale file) the way the module docstring says.

    ``script_hint`` is the script a broken text layer of the page still showed
    (``Devanagari``); ``start_pack`` the document's pack (see :func:`probe_pack`) and
    ``why`` the probe's reason.
    """
    steps: list[str] = []
    image: Image.Image = Image.open(image_path)
    angle = deskew_angle(image)
    if abs(angle) >= 0.3:
        image = image.rotate(angle, resample=Image.Resampling.BILINEAR, fillcolor=255)
        steps.append(f"deskewed {angle:+.2f}°")
    prepared = image_path.with_name(image_path.stem + "-prepared.pgm")
    image.filter(ImageFilter.MedianFilter(3)).convert("L").save(prepared)

    script = script_hint or next(
        (name for name, pack in _SCRIPT_PACKS.items() if pack == start_pack), "Latin")
    pack = language_pack(script, None, settings) if script in _SCRIPT_PACKS else \
        start_pack or settings.ocr_languages
    because = (f"script from the text layer: {script_hint}, " if script_hint
               else f"document pack ({why}), " if start_pack and why else "")
    steps.append(f"{because}read with {pack}")
    result = tesseract.ocr_image(prepared, pack, settings.ocr_timeout)
    if not script_hint and (result.confidence or 0) < settings.min_ocr_confidence:
        osd = tesseract.detect_orientation(prepared, settings.ocr_timeout)
        detected = osd.script if osd and osd.script in _SCRIPT_PACKS else "Latin"
        if osd and (osd.rotate or detected != script):
            if osd.rotate:
                Image.open(prepared).rotate(-osd.rotate, expand=True, fillcolor=255
                                            ).save(prepared)
            retry_pack = language_pack(detected, None, settings)
            retry = tesseract.ocr_image(prepared, retry_pack, settings.ocr_timeout)
            steps.append(f"confidence {result.confidence}: detected {osd.script} "
                         f"(script confidence {osd.script_confidence:.1f})"
                         + (f", turned {osd.rotate}°" if osd.rotate else "")
                         + f", read again with {retry_pack}")
            if (retry.confidence or 0) >= (result.confidence or 0):
                script, pack, result = detected, retry_pack, retry
    if script not in _SCRIPT_PACKS and result.words:
        language, _ = detect_language(result.text, settings)
        better = _LANGUAGE_PACKS.get(language, pack)  # no language told: keep the pack
        if better != pack:
            steps.append(f"text is {language}: read again with {better}")
            pack, result = better, tesseract.ocr_image(prepared, better, settings.ocr_timeout)
    log.info("%s: %s", image_path.name, "; ".join(steps))
    return ScanResult(text=result.text, confidence=result.confidence, words=result.words,
                      languages=pack, steps=tuple(steps),
                      word_confidences=result.word_confidences)
