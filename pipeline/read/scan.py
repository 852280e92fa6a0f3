"""Reading a scanned page: deskew, paper, script, orientation, the right language pack.

A document's script and language are decided once, cheaply, before its pages are read
(:func:`probe_pack`): a strip in the middle of its first scanned page is read with
``eng`` (a twenty-fifth of a page's work); readable text gives its language (``por``,
``swe`` or ``eng``, see :func:`reading_language`), unreadable text has its script
detected on that strip (``Devanagari``). Each page is then read once with that single
pack, in steps that each log what they decided (:func:`read_scan`):

1. The page is prepared (:func:`prepare_page`): its skew is measured and undone, and
   its paper is levelled to white (a shadow too); it stays in gray, so that thin
   strokes keep their edges.
2. A page whose broken text layer showed Devanagari is read with the ``Devanagari``
   script pack (it reads the English lines gazettes mix in as well); any other page
   with the document's pack.
3. Only if that reading is doubtful (mean word confidence below
   ``Settings.min_ocr_confidence``) does Tesseract's orientation and script detection
   run (``--psm 0``): a turned page is turned back, a Devanagari page read with the
   Devanagari pack, and the better reading kept.
4. A Latin page whose text is in a language none of its packs is for (a Portuguese
   decree's English treaty pages) is read again with its own pack. Single packs keep
   each language's letters: ``swe+eng`` read ``är`` as ``ar``, ``swe`` does not. A
   page read with packs that hold its language's is not read again: a page of tables
   whose strips told the probe nothing is read with ``Settings.ocr_languages``
   (``eng+por``), and a second reading with ``por`` alone doubled its cost and read
   it no better (a DOU page of beer brands: word F1 0.70 with ``eng+por``, 0.67 with
   ``por``).

The OCR engine is a parameter (:class:`OcrEngine`, Tesseract by default), so these
decisions can be tested with a scripted engine.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from PIL import Image

from pipeline.config import Settings
from pipeline.read.pageimage import Gray, despeckle, level, skew_angle, unskew, whole_lines
from pipeline.read.tesseract import OcrResult, Orientation, Tesseract
from pipeline.text.language import detect_language
from pipeline.text.lexicon import common_share, words

__all__ = ["OcrEngine", "PreparedPage", "ScanResult", "language_pack", "prepare_page",
           "probe_pack", "read_scan"]

log = logging.getLogger(__name__)

#: Packs by script; a Latin page's pack may still change with its language.
_SCRIPT_PACKS = {"Devanagari": "Devanagari"}
#: Packs for a Latin page in this language.
_LANGUAGE_PACKS = {"sv": "swe", "pt": "por", "en": "eng"}
#: The pack the probe reads its strips with.
_PROBE_PACK = "eng"
#: The strips the probe reads, in turn, as shares of the height the page's text spans
#: (see :func:`pipeline.read.pageimage.whole_lines`), and the words a strip must hold to
#: tell a language or script. A strip spans the middle of the page's width, this share
#: of it (a column of a gazette's three).
_PROBE_STRIPS = ((0.4, 0.5), (0.6, 0.7), (0.2, 0.3))
_PROBE_WIDTH = 0.4
_PROBE_MIN_WORDS = 5
#: The words in lower case a reading needs to tell its language (see
#: :func:`reading_language`).
_MIN_RUNNING_WORDS = 8
#: Without them, the share of common words by which one language must lead the next.
_CLEAR_MARGIN = 0.2
#: A smaller skew (degrees) is left alone: Tesseract follows lines that slope this
#: little, and turning the page blurs small type (of 12 DOU photocopies askew by
#: 0.25–0.75°, 8 read better unturned; from 1.25° the turn is needed: a page at 2.75°
#: read word F1 0.95 turned, 0.33 not; see BENCHMARKS.md, "A scanned edition").
_MIN_SKEW = 1.0
#: The language of a page's reading is told from its first characters, this many.
_LANGUAGE_SAMPLE = 2000


class OcrEngine(Protocol):
    """What reading a scan needs of an OCR engine: a page image (rendered at
    ``Settings.ocr_dpi``, read within ``Settings.ocr_timeout``) read with ``+``-joined
    language packs, and the orientation and script of a page image (None if it has too
    little text to tell)."""

    def read(self, image: Path, languages: str, settings: Settings) -> OcrResult: ...

    def orientation(self, image: Path) -> Orientation | None: ...


TESSERACT: OcrEngine = Tesseract()


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


@dataclass(frozen=True)
class PreparedPage:
    """A page image made ready for Tesseract (deskewed, its paper levelled, a gray PGM
    file) and the skew that was undone (degrees, 0.0 if none)."""

    path: Path
    angle: float


def reading_language(text: str, settings: Settings) -> str:
    """The language of an OCR reading (``other`` if it tells none of the packs').

    Told by its running text, the words in lower case, where it has
    ``_MIN_RUNNING_WORDS`` of them: the language of their letters
    (:func:`pipeline.text.language.detect_language`), unless another language's
    common words (:func:`pipeline.text.lexicon.common_share`) are more of them by
    ``_CLEAR_MARGIN``: short words any language has (``a``, ``no``, ``de``, ``da``, which
    English's common words hold too) outnumber a Portuguese strip's words whose accents
    OCR with ``eng`` lost (``dominio da seguranca da aviacao``).
    Capitals are names, headings and table cells, which any language prints: a
    column of beer brands (``BADEN BADEN WEISS / BAMBERG RAUCHBIER``) reads as Swedish
    by its letters and by its words alike. A reading with less running text (a list
    of cases, a table) is the language whose common words it has most of, if that
    share leads the next language's by ``_CLEAR_MARGIN``, else none. Common words,
    not whole lexicons (:func:`pipeline.text.lexicon.vocabulary`): loading three of
    those took more of a one-page scan's CPU than anything else besides Tesseract.

    >>> s = Settings.for_root(Path("."))
    >>> reading_language("This Protocol shall enter into force on the date of the later "
    ...                  "of the notifications.", s)
    'en'
    >>> reading_language("ao (UE) 2017/815 da Comissdo, de 12 de 1 UE) 2015/1998 no "
    ...     "respeitante a clarificacao, | specificas no dominio da seguranca da aviac "
    ...     "‘xecucao C(2017) 3030 da Comissao, de 15 di L5) 8005 no respeitante a "
    ...     "clarificacdo, harm ificas no dominio da seguranca da aviacao de", s)
    'pt'
    >>> reading_language("38 - Processo: 13746.000271/2007-78 - Recorrente: NITRIFEEX S/A "
    ...                  "INDUSTRIA E COMERCIO e Recorrida: FAZENDA NACIONAL", s)
    'pt'
    >>> reading_language("BADEN BADEN PILSEN CRISTAL BADEN BADEN WEISS BAMBERG ALT "
    ...                  "BAMBERG HELLES Kromus Bier BAVARIA PREMIUM LA TRAPE Leffe", s)
    'other'
    """
    languages = [lang for lang in _LANGUAGE_PACKS if lang in settings.languages]
    running = " ".join(word for word in text.split() if word.islower())
    if len(words(running)) < _MIN_RUNNING_WORDS:
        shares = sorted((common_share(text, lang), lang) for lang in languages)
        clear = len(shares) == 1 or shares[-1][0] - shares[-2][0] >= _CLEAR_MARGIN
        return shares[-1][1] if shares and clear else "other"
    language, _ = detect_language(running, settings, legacy_fonts=False)
    by_words = {lang: common_share(running, lang) for lang in languages}
    leader = max(by_words, key=lambda lang: by_words[lang], default=language)
    if language in by_words and by_words[leader] - by_words[language] >= _CLEAR_MARGIN:
        return leader
    return language


def prepare_page(page: Gray, out: Path) -> PreparedPage:
    """Deskew a rendered page and level its paper (:mod:`pipeline.read.pageimage`) into
    the file ``out``; a skew under ``_MIN_SKEW`` degrees is left alone."""
    angle = skew_angle(page)
    if abs(angle) < _MIN_SKEW:
        angle = 0.0
    else:
        page = unskew(page, angle)
    Image.fromarray(despeckle(level(page))).save(out)
    return PreparedPage(out, angle)


def probe_pack(prepared: PreparedPage, settings: Settings, engine: OcrEngine = TESSERACT
               ) -> tuple[str, str]:
    """The pack to read a document's scanned pages with, and why, from one page.

    A strip of whole text lines in the middle of the page's text (a tenth of the
    height it spans, two fifths of the page's width) is read with ``eng``: readable
    text tells its language (:func:`reading_language`); text too doubtful to tell has
    its script detected on the strip (``Devanagari``). A strip that tells neither (a
    title page's white space, a table) is passed over for the next one. None tells:
    ``Settings.ocr_languages``.
    """
    page = np.asarray(Image.open(prepared.path).convert("L"))
    strip = prepared.path.with_name(prepared.path.stem + "-probe.pgm")
    margin = round(page.shape[1] * (1 - _PROBE_WIDTH) / 2)
    try:
        for top, bottom in _PROBE_STRIPS:
            band = page[whole_lines(page, top, bottom), margin:page.shape[1] - margin]
            if not band.size:  # a blank page
                break
            Image.fromarray(band).save(strip)
            reading = engine.read(strip, _PROBE_PACK, settings)
            if reading.words < _PROBE_MIN_WORDS:
                continue
            if (reading.confidence or 0) >= settings.min_ocr_confidence:
                language = reading_language(reading.text, settings)
                if language in _LANGUAGE_PACKS:
                    return _LANGUAGE_PACKS[language], f"a strip reads as {language}"
            else:
                osd = engine.orientation(strip)
                if osd and osd.script in _SCRIPT_PACKS:
                    return _SCRIPT_PACKS[osd.script], f"a strip's script is {osd.script}"
        return settings.ocr_languages, "no strip tells a language or script"
    finally:
        strip.unlink(missing_ok=True)


def read_scan(page: PreparedPage, settings: Settings, script_hint: str | None = None,
              start_pack: str | None = None, why: str = "",
              engine: OcrEngine = TESSERACT) -> ScanResult:
    """OCR one prepared page the way the module docstring says.

    ``script_hint`` is the script a broken text layer of the page still showed
    (``Devanagari``); ``start_pack`` the document's pack (see :func:`probe_pack`) and
    ``why`` the probe's reason.
    """
    steps = [f"deskewed {page.angle:+.2f}°"] if page.angle else []
    prepared = page.path

    script = script_hint or next(
        (name for name, pack in _SCRIPT_PACKS.items() if pack == start_pack), "Latin")
    pack = language_pack(script, None, settings) if script in _SCRIPT_PACKS else \
        start_pack or settings.ocr_languages
    because = (f"script from the text layer: {script_hint}, " if script_hint
               else f"document pack ({why}), " if start_pack and why else "")
    steps.append(f"{because}read with {pack}")
    result = engine.read(prepared, pack, settings)
    if not script_hint and (result.confidence or 0) < settings.min_ocr_confidence:
        osd = engine.orientation(prepared)
        detected = osd.script if osd and osd.script in _SCRIPT_PACKS else "Latin"
        if osd and (osd.rotate or detected != script):
            if osd.rotate:
                Image.open(prepared).rotate(-osd.rotate, expand=True, fillcolor=255
                                            ).save(prepared)
            # a page of the same script, only turned, keeps its pack
            retry_pack = pack if detected == script else language_pack(detected, None, settings)
            retry = engine.read(prepared, retry_pack, settings)
            steps.append(f"confidence {result.confidence}: detected {osd.script} "
                         f"(script confidence {osd.script_confidence:.1f})"
                         + (f", turned {osd.rotate}°" if osd.rotate else "")
                         + f", read again with {retry_pack}")
            if (retry.confidence or 0) >= (result.confidence or 0):
                script, pack, result = detected, retry_pack, retry
    if script not in _SCRIPT_PACKS and result.words:
        language = reading_language(result.text[:_LANGUAGE_SAMPLE], settings)
        better = _LANGUAGE_PACKS.get(language, pack)  # no language told: keep the pack
        if better not in pack.split("+"):
            steps.append(f"text is {language}: read again with {better}")
            pack, result = better, engine.read(prepared, better, settings)
    log.info("%s: %s", prepared.name, "; ".join(steps))
    return ScanResult(text=result.text, confidence=result.confidence, words=result.words,
                      languages=pack, steps=tuple(steps),
                      word_confidences=result.word_confidences)
