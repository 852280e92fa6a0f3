"""Stage 1, ingest: find the documents in the inbox and read every page of each.

Text dumps are decoded; PDF pages are read from their text layer with pdfplumber or,
where :func:`decide_page` says the layer is missing or broken, rasterized with
pypdfium2 and OCR'd with Tesseract. Every page records how it was read and why.
"""

from __future__ import annotations

import hashlib
import logging
import re
import tempfile
import threading
import time
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import pdfplumber
import pikepdf
import pypdfium2

from pipeline.config import Settings
from pipeline.errors import InputError
from pipeline.langsplit import looks_like_legacy_hindi
from pipeline.legacy_hindi import conversion_quality, convert_legacy_text
from pipeline.lexicon import broken_devanagari
from pipeline.parts import stitch
from pipeline.records import IngestedDocument, Page, PageMethod, Source, SourceKind
from pipeline.scan import probe_pack, read_scan
from pipeline.textlayer import PageText, read_text_layer

__all__ = [
    "PageDecision",
    "TextLayerStats",
    "decide_page",
    "decode_text",
    "discover",
    "doc_ids_for",
    "horizontal_rules",
    "ingest",
    "source_for",
    "text_in_reading_order",
]

log = logging.getLogger(__name__)

_KINDS: dict[str, SourceKind] = {".pdf": "pdf", ".txt": "text"}
_CID = re.compile(r"\(cid:\d+\)")
_UNSAFE_ID_CHARS = re.compile(r"[^A-Za-z0-9._-]+")


def discover(settings: Settings) -> list[Source]:
    """List the documents in the inbox, sorted by path.

    Hidden files and folders (names starting with ``.``) are skipped. Files that are
    neither ``.pdf`` nor ``.txt`` are listed too, so that the run reports them, and so
    are symbolic links that lead out of the inbox, which are never read. The parts of
    a decree published in parts become one source (:func:`pipeline.parts.stitch`).
    """
    raw = settings.raw.resolve()
    paths = sorted(
        path for path in settings.raw.rglob("*")
        if (path.is_file() or path.is_symlink()) and not any(
            part.startswith(".") for part in path.relative_to(settings.raw).parts)
    )
    relpaths = [path.relative_to(settings.raw).as_posix() for path in paths]
    ids = doc_ids_for(relpaths)
    return stitch([_source(path, relpath, ids[relpath], inbox=raw)
                   for path, relpath in zip(paths, relpaths, strict=True)], _head)


def source_for(path: Path) -> Source:
    """A single file as a source, outside any inbox (for the stage commands)."""
    return _source(path, path.name, doc_ids_for([path.name])[path.name])


def _source(path: Path, relpath: str, doc_id: str, inbox: Path | None = None) -> Source:
    kind = _KINDS.get(path.suffix.lower(), "unsupported")
    if inbox is not None and not path.resolve().is_relative_to(inbox):
        return Source(path=path, relpath=relpath, doc_id=doc_id, kind=kind, sha256="",
                      rejected=f"a symbolic link to {path.resolve()}, outside the inbox "
                               "(not followed)")
    try:
        data = path.read_bytes()
    except OSError as exc:
        return Source(path=path, relpath=relpath, doc_id=doc_id, kind=kind, sha256="",
                      rejected=f"cannot read the file: {exc.strerror or exc}")
    return Source(path=path, relpath=relpath, doc_id=doc_id, kind=kind,
                  sha256=hashlib.sha256(data).hexdigest(),
                  rejected="empty file (0 bytes)" if not data else None)


def doc_ids_for(relpaths: list[str]) -> dict[str, str]:
    """Derive a document id from each inbox path: a safe folder name, unique in the run.

    The id is the file name without its extension, accents dropped (``ç`` → ``c``,
    ``º`` → ``o``), every run of characters other than ASCII letters, digits, ``.``,
    ``_`` and ``-`` replaced by ``_``, and no leading ``.``, ``_`` or ``-`` (names
    beginning with ``_`` are the pipeline's own, e.g. ``_corpus``). Where two paths give
    the same id, each gets ``-`` and the first 8 hex digits of the SHA-1 of its relative
    path appended.

    >>> doc_ids_for(["samples/000_2a61d363becf8d44.txt", "Decreto nº 12.pdf"]).values()
    dict_values(['000_2a61d363becf8d44', 'Decreto_no_12'])
    >>> doc_ids_for(["a/x.txt", "b/x.pdf"])
    {'a/x.txt': 'x-7df5d9df', 'b/x.pdf': 'x-47faf3a5'}
    """
    def base(relpath: str) -> str:
        stem = unicodedata.normalize("NFKD", Path(relpath).stem)
        ascii_stem = "".join(ch for ch in stem if not unicodedata.combining(ch))
        return _UNSAFE_ID_CHARS.sub("_", ascii_stem).lstrip("._-") or "document"

    bases = {relpath: base(relpath) for relpath in relpaths}
    counts: dict[str, int] = {}
    for value in bases.values():
        counts[value] = counts.get(value, 0) + 1
    return {
        relpath: value if counts[value] == 1
        else f"{value}-{hashlib.sha1(relpath.encode()).hexdigest()[:8]}"
        for relpath, value in bases.items()
    }


def ingest(source: Source, settings: Settings) -> IngestedDocument:
    """Read every page of ``source`` (and of its later parts, numbered on).

    Raises :class:`InputError` if a file cannot be read.
    """
    if not source.parts and source.parts_expected == 1:
        return IngestedDocument(source=source, pages=tuple(_read_file(source, settings)))
    pages: list[Page] = []
    for member in (source, *source.parts):
        pages += [replace(page, number=len(pages) + n, part=member.relpath,
                          part_page=page.number)
                  for n, page in enumerate(_read_file(member, settings), start=1)]
    present = 1 + len(source.parts)
    if present < source.parts_expected:
        pages[0] = replace(pages[0], warnings=(
            f"only {present} of the {source.parts_expected} parts of this decree are in "
            "the inbox; it is redone when the others arrive", *pages[0].warnings))
    return IngestedDocument(source=source, pages=tuple(pages))


def _read_file(source: Source, settings: Settings) -> list[Page]:
    if source.rejected:
        raise InputError(source.rejected)
    if source.kind == "text":
        return _read_text_dump(source.path)
    if source.kind == "pdf":
        return _read_pdf(source.path, settings)
    raise InputError(
        f"unsupported file type {source.path.suffix or '(none)'!r}",
        "the inbox takes .pdf and .txt files",
    )


def _head(source: Source) -> str:
    """The start of a source's text, for its part mark: a text dump's first 4 KB, a
    PDF's first page text layer (a scan has none: its parts are not stitched)."""
    try:
        if source.kind == "text":
            with source.path.open("rb") as handle:
                return decode_text(handle.read(4096))[0]
        if source.kind == "pdf":
            with pdfplumber.open(source.path) as pdf:
                return (pdf.pages[0].extract_text() or "") if pdf.pages else ""
    except Exception:  # an unreadable file has no head; ingest says why it fails
        return ""
    return ""


def decode_text(data: bytes) -> tuple[str, str]:
    """Decode a text dump; returns the text and the encoding used.

    UTF-8 (with or without BOM) first, then UTF-16 if a BOM says so, then Windows-1252,
    the legacy encoding of Portuguese, English and Swedish text, and finally Latin-1,
    which decodes any bytes. Guessing among all code pages (charset-normalizer) turned
    short Portuguese text into Arabic letters, so it is not used.

    >>> decode_text("Convenção".encode("cp1252"))
    ('Convenção', 'cp1252')
    >>> decode_text(b"\\xef\\xbb\\xbfArticle 1")
    ('Article 1', 'utf-8-sig')
    """
    has_utf16_bom = data[:2] in (b"\xff\xfe", b"\xfe\xff")
    if not has_utf16_bom and _looks_like_utf16le(data):
        return data.decode("utf-16-le", errors="replace"), "utf-16-le"
    for encoding in ("utf-16",) * has_utf16_bom + ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


def _looks_like_utf16le(data: bytes) -> bool:
    r"""UTF-16 without a BOM: Latin text has a NUL in nearly every odd byte.

    >>> _looks_like_utf16le("Artigo 1".encode("utf-16-le")), _looks_like_utf16le(b"a\0b")
    (True, False)
    """
    odd = data[1:4096:2]
    return len(odd) >= 4 and odd.count(0) > 0.9 * len(odd)


#: Control characters no text needs (C0 except tab, line feed, form feed, carriage return).
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f]")


def _read_text_dump(path: Path) -> list[Page]:
    text, encoding = decode_text(path.read_bytes())
    reason = f"text dump ({encoding})"
    text, controls = _CONTROL.subn("", text)
    warnings = (f"removed {controls} control character(s) (NUL and the like)",) * bool(controls)
    # A form feed separates pages in text dumps made by pdftotext.
    return [
        Page(number=number, method="text-dump", reason=reason, text=page_text,
             warnings=warnings)
        for number, page_text in enumerate(text.split("\f"), start=1)
    ]


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

    >>> s = Settings.for_root(Path("."))
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

#: File signatures of what gets mistaken for a PDF, for a clear "not a PDF" error.
_NOT_PDF = {b"\x89PNG": "a PNG image", b"PK\x03\x04": "a ZIP archive",
            b"\xff\xd8\xff": "a JPEG image", b"GIF8": "a GIF image",
            b"II*\x00": "a TIFF image", b"MM\x00*": "a TIFF image"}


def _check_signature(path: Path) -> None:
    """Raise :class:`InputError` unless the file starts like a PDF (``%PDF-``)."""
    with path.open("rb") as handle:
        head = handle.read(1024)
    if b"%PDF-" in head:
        return
    what = next((name for magic, name in _NOT_PDF.items() if head.startswith(magic)), None)
    if what is None and head.lstrip()[:15].lower().startswith((b"<!doctype html", b"<html")):
        what = "an HTML page"
    raise InputError(f"not a PDF: the file is {what}" if what
                     else "not a PDF: it does not start with %PDF-",
                     "put the real PDF in the inbox")


def _readable_pdf(path: Path, tmp: Path) -> tuple[Path, tuple[str, ...]]:
    """The PDF to read: the file itself, or a copy repaired by qpdf if it is damaged.

    Returns the path and the warnings to record. A PDF that needs a password, or
    that qpdf cannot open, raises :class:`InputError`.
    """
    _check_signature(path)
    try:
        with pikepdf.open(path) as pdf:
            problems = pdf.get_warnings()
            if not problems:
                return path, ()
            repaired = tmp / "repaired.pdf"
            pdf.save(repaired, encryption=False)
    except pikepdf.PasswordError as exc:
        raise InputError("encrypted PDF: it needs a password to open",
                         "ask the publisher for a copy without a password") from exc
    except pikepdf.PdfError as exc:
        raise InputError(f"cannot open PDF: {exc}",
                         "check that the file is a complete PDF") from exc
    said = "; ".join(problem.replace(f"{path}", "").lstrip(":, ") for problem in problems[:3])
    log.warning("%s is damaged; reading a copy repaired by qpdf: %s", path.name, said)
    return repaired, (f"damaged PDF repaired by qpdf: {said}",)


def _read_pdf(path: Path, settings: Settings) -> list[Page]:
    with tempfile.TemporaryDirectory(prefix="gazette-ocr-") as tmp:
        readable, warnings = _readable_pdf(path, Path(tmp))
        try:
            pdf = pdfplumber.open(readable)
        except Exception as exc:  # pdfminer raises many unrelated types for broken files
            raise InputError(f"cannot open PDF: {type(exc).__name__}: {exc}",
                             "check that the file is a complete PDF") from exc
        with pdf:
            if not pdf.pages:
                raise InputError("the PDF has no pages")
            # Text-layer pages are read here, one by one (pdfium is not thread-safe);
            # a page to OCR comes back as a job.
            progress = _Progress(path.name, len(pdf.pages))
            read = [progress.advance(_guarded(path.name, index + 1, partial(
                        _read_pdf_page, readable, index, page, settings, Path(tmp))))
                    for index, page in enumerate(pdf.pages)]
            done = _run_ocr_jobs(path.name, read, settings, progress)
    if warnings:
        done[0] = replace(done[0], warnings=warnings + done[0].warnings)
    return done


class _Progress:
    """Logs how many of a document's pages are read, every tenth of them and at the end."""

    def __init__(self, name: str, total: int) -> None:
        self.name, self.total, self.done = name, total, 0
        self.started = time.monotonic()
        self.step = max(1, total // 10)
        self.lock = threading.Lock()

    def advance(self, item: Any) -> Any:
        """Count ``item`` as read if it is a page (not an OCR job still to run)."""
        if isinstance(item, Page):
            with self.lock:
                self.done += 1
                if self.done % self.step == 0 or self.done == self.total:
                    log.info("%s: %d of %d pages read (%.0f s)", self.name, self.done,
                             self.total, time.monotonic() - self.started)
        return item


def _guarded(name: str, number: int, read: Callable[[], Any]) -> Any:
    """Run ``read``; a failure becomes a page recorded as failed with its reason."""
    try:
        return read()
    except Exception as exc:  # one bad page must not stop the document
        log.warning("%s page %d failed: %s", name, number, exc)
        return Page(number=number, method="failed", reason=f"{type(exc).__name__}: {exc}",
                    text="")


@dataclass(frozen=True)
class _OcrJob:
    """A page to OCR: its rasterized image and what the text layer told about it."""

    number: int
    image: Path
    reason: str
    script_hint: str | None

    def run(self, settings: Settings, start_pack: str | None, why: str) -> Page:
        started = time.monotonic()
        result = read_scan(self.image, settings, self.script_hint, start_pack, why)
        log.info("page %d: OCR'd %d words in %.1f s, mean confidence %s", self.number,
                 result.words, time.monotonic() - started, result.confidence)
        return Page(number=self.number, method="ocr",
                    reason=f"{self.reason}; {'; '.join(result.steps)}", text=result.text,
                    ocr_languages=result.languages, confidence=result.confidence,
                    warnings=() if result.words else ("OCR found no words",),
                    words=result.word_confidences)


def _run_ocr_jobs(name: str, read: list[Page | _OcrJob], settings: Settings,
                  progress: _Progress) -> list[Page]:
    """OCR the pages that need it, ``Settings.ocr_workers`` at a time.

    The document's pack is decided once, from a strip of its first page to OCR that
    has no script from its text layer (:func:`pipeline.scan.probe_pack`), so each page
    is read once with one pack. A page that reads badly with it, or is in another
    language, is still read again with its own pack.
    """
    jobs = [item for item in read if isinstance(item, _OcrJob)]
    pages = {item.number: item for item in read if isinstance(item, Page)}
    start_pack, why = None, ""
    unhinted = next((job for job in jobs if job.script_hint is None), None)
    if unhinted is not None:
        start_pack, why = probe_pack(unhinted.image, settings)
        log.info("%s: scanned pages read with %s (%s)", name, start_pack, why)
    with ThreadPoolExecutor(max_workers=settings.ocr_workers) as pool:
        done = list(pool.map(lambda job: progress.advance(_guarded(
            name, job.number, partial(job.run, settings, start_pack, why))), jobs))
    pages.update((page.number, page) for page in done)
    return [pages[number] for number in sorted(pages)]


def _read_pdf_page(
    path: Path, index: int, plumber_page: pdfplumber.page.Page, settings: Settings, tmp: Path
) -> Page | _OcrJob:
    """Read a page from its text layer, or rasterize it and return the OCR job."""
    number = index + 1
    reading = text_in_reading_order(plumber_page)
    text, columns = reading.text, reading.columns
    stats = _text_layer_stats(plumber_page, reading, settings)
    plumber_page.close()  # its parsed objects are no longer needed
    decision = decide_page(stats, settings)
    if decision.method == "legacy-font":
        converted = convert_legacy_text(text)
        quality = conversion_quality(converted)
        if quality >= settings.min_legacy_quality:
            log.info("%s page %d: %s; converted, %.0f%% of its words are Hindi words",
                     path.name, number, decision.reason, 100 * quality)
            return Page(number=number, method="legacy-font",
                        reason=f"{decision.reason}; converted to Unicode, {quality:.0%} of "
                               "the words known Hindi words", text=converted)
        decision = PageDecision("ocr", f"{decision.reason}, but its conversion has only "
                                       f"{quality:.0%} known Hindi words "
                                       f"(min_legacy_quality={settings.min_legacy_quality})")
    log.info("%s page %d: %s (%s)", path.name, number,
             "OCR" if decision.ocr else "text layer", decision.reason)
    if not decision.ocr:
        reason = decision.reason + (f", read column by column ({columns} columns)"
                                    if columns > 1 else "") + (
            f"; {reading.diagonal} characters drawn on a diagonal (a watermark) left out"
            if reading.diagonal else "")
        return Page(number=number, method="text-layer", reason=reason, text=text)
    pixels = float(plumber_page.width * plumber_page.height) * (settings.ocr_dpi / 72) ** 2
    if pixels > settings.max_raster_pixels:
        raise InputError(f"page would rasterize to {pixels / 1e6:,.0f} megapixels at "
                         f"{settings.ocr_dpi} dpi (limit {settings.max_raster_pixels / 1e6:,.0f})",
                         "raise Settings.max_raster_pixels if the page is real")
    image = _rasterize(path, index, settings.ocr_dpi, tmp)
    # A broken layer still shows its script: Devanagari (or Hindi in a legacy font).
    hint = "Devanagari" if stats.devanagari_words or stats.legacy_hindi else None
    return _OcrJob(number, image, decision.reason, hint)


def text_in_reading_order(page: pdfplumber.page.Page) -> PageText:
    """A text-layer page's text in reading order (see :mod:`pipeline.textlayer`).

    Gazettes print two or three columns, with titles, summaries and tables across
    them; pdfplumber alone reads across the columns line by line.
    """
    return read_text_layer(page.chars, float(page.width), float(page.height),
                           horizontal_rules(page))


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


def _text_layer_stats(page: pdfplumber.page.Page, reading: PageText,
                      settings: Settings) -> TextLayerStats:
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


def _rasterize(path: Path, index: int, dpi: int, tmp: Path) -> Path:
    """Render one page to an 8-bit grayscale PGM file that Tesseract reads directly."""
    pdf = pypdfium2.PdfDocument(path)
    try:
        bitmap = pdf[index].render(scale=dpi / 72, grayscale=True)
        out = tmp / f"page-{index + 1:04d}.pgm"
        bitmap.to_pil().save(out)
        return out
    finally:
        pdf.close()
