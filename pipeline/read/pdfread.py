"""Reading a PDF's pages on worker processes: text layers, the page decision, OCR.

A PDF is checked (its signature; a damaged file is repaired by qpdf) and its pages are
read in three rounds, each spread over the ``Settings.page_workers`` worker processes
that a whole run shares (:mod:`pipeline.workers`), so both cores work on whatever pages
there are, in this document or in one processed beside it:

1. every page's text layer is read and :func:`~pipeline.read.pagedecision.decide_page` says
   how the page is to be read; text-layer and legacy-font pages are done;
2. if pages need OCR, the document's pack is probed once, on the first of them whose
   text layer shows no script (:func:`pipeline.read.scan.probe_pack`);
3. each page to OCR is rasterized, prepared and read by one worker, which deletes its
   image when done (the probed page, prepared by the probe already, is not rendered
   again): no edition is ever held whole as images.

Each page's decision and its reason are logged here as its result comes back, and the
document's progress every tenth of its pages.
"""

from __future__ import annotations

import gc
import logging
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pdfplumber
import pikepdf
import pypdfium2

from pipeline import progress, workers
from pipeline.config import Settings
from pipeline.errors import GazetteError, InputError
from pipeline.read.pagedecision import (
    PageDecision,
    decide_page,
    text_in_reading_order,
    text_layer_stats,
)
from pipeline.read.pageimage import Gray
from pipeline.read.scan import PreparedPage, prepare_page, probe_pack, read_scan
from pipeline.records import Page
from pipeline.text.legacy_hindi import conversion_quality, convert_legacy_text

__all__ = ["first_page_text", "read_pdf", "sweep_scratch"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: File signatures of what gets mistaken for a PDF, for a clear "not a PDF" error.
_NOT_PDF = {b"\x89PNG": "a PNG image", b"PK\x03\x04": "a ZIP archive",
            b"\xff\xd8\xff": "a JPEG image", b"GIF8": "a GIF image",
            b"II*\x00": "a TIFF image", b"MM\x00*": "a TIFF image"}


def read_pdf(path: Path, settings: Settings) -> list[Page]:
    """Read every page of the PDF at ``path`` (see the module docstring).

    Raises :class:`InputError` if the file is no PDF, needs a password, cannot be
    opened or has no pages, and :class:`GazetteError` if a page worker died; a page
    that fails is recorded as failed with its reason.
    """
    sweep_scratch(settings)
    try:
        return _read_pages(path, settings)
    except BrokenProcessPool as exc:  # a worker died as pages were handed out
        workers.shutdown()
        raise GazetteError(f"a process reading pages of {path.name} died ({exc})",
                           "run again: the document is read anew") from exc


def _read_pages(path: Path, settings: Settings) -> list[Page]:
    with _scratch_folder(settings, "pdf") as tmp:
        readable, warnings = _readable_pdf(path, tmp)
        count = _page_count(readable)
        tracker = _Progress(path.name, count)
        pages: dict[int, Page] = {}
        to_ocr: list[_OcrNeed] = []
        pool = _pool_for(count, settings)
        layers = [pool.submit(_read_layer, readable, index, settings) for index in range(count)]
        for number, future in enumerate(layers, start=1):
            item = _outcome(path.name, number, future)
            if isinstance(item, Page):
                pages[number] = tracker.advance(item)
            else:
                to_ocr.append(item)
        if to_ocr:
            pack, why, probed = None, "", None
            unhinted = next((need for need in to_ocr if need.script_hint is None), None)
            if unhinted is not None:
                pack, why, probed = _outcome(path.name, unhinted.number, pool.submit(
                    _probe, readable, unhinted.number - 1, settings, tmp))
                log.info("%s: scanned pages read with %s (%s)", path.name, pack, why)
            scans = [(need.number, pool.submit(
                _ocr_page, readable, need, settings, pack, why,
                probed if need is unhinted else None)) for need in to_ocr]
            for number, scan in scans:
                pages[number] = tracker.advance(_outcome(path.name, number, scan))
    done = [pages[number] for number in sorted(pages)]
    if warnings:
        done[0] = replace(done[0], warnings=warnings + done[0].warnings)
    return done


def _pool_for(pages: int, settings: Settings) -> Executor:
    """Where a document of ``pages`` pages is read: on the run's workers, but a one-page
    document in this process when no worker is running yet (``gazette ingest`` of one
    scan): starting a worker, a fresh interpreter with its imports, costs a tenth of
    the page's OCR, and there is nothing to read beside it."""
    return workers.Here() if pages == 1 and not workers.running() else workers.pool(
        settings.page_workers)


def _outcome(name: str, number: int, future: Future[Any]) -> Any:
    """A worker's result. A worker that died (killed, out of memory) fails the document,
    so that the next run reads it again, and the pool starts anew for the next one."""
    try:
        return future.result()
    except BrokenProcessPool as exc:
        workers.shutdown()
        raise GazetteError(f"the process reading page {number} of {name} died ({exc})",
                           "run again: the document is read anew") from exc


class _Progress:
    """Logs each page's decision as it comes back, and how many of a document's pages
    are read, every tenth of them and at the end; reports each page done to the
    listener of :mod:`pipeline.progress` (the run catalog)."""

    def __init__(self, name: str, total: int) -> None:
        self.name, self.total, self.done = name, total, 0
        self.started = time.monotonic()
        self.step = max(1, total // 10)

    def advance(self, page: Page) -> Page:
        self.done += 1
        progress.report(self.done, self.total)
        log.info("%s page %d: %s (%s)", self.name, page.number, page.method, page.reason)
        if self.done % self.step == 0 or self.done == self.total:
            log.info("%s: %d of %d pages read (%.0f s)", self.name, self.done, self.total,
                     time.monotonic() - self.started)
        return page


# --- Scratch folders: in the project's state folder, swept of what killed runs left --


@contextmanager
def _scratch_folder(settings: Settings, purpose: str) -> Iterator[Path]:
    """A temporary folder under ``.gazette/tmp/<host>`` named for this process, removed
    after.

    A process killed while it reads (``kill -9``) cannot remove its folder; the next
    read on this machine removes every folder whose process is gone
    (:func:`sweep_scratch`).
    """
    root = scratch_root(settings)
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f"{purpose}-{os.getpid()}-", dir=root) as tmp:
        yield Path(tmp)


def scratch_root(settings: Settings) -> Path:
    """This machine's scratch folders: ``.gazette/tmp/<host>`` (machines sharing the
    project folder each sweep their own only: a process id means nothing elsewhere)."""
    return settings.state / "tmp" / (socket.gethostname() or "localhost")


def sweep_scratch(settings: Settings) -> list[str]:
    """Remove this machine's scratch folders of processes that are gone; returns their
    names."""
    root = scratch_root(settings)
    swept = []
    for folder in sorted(root.iterdir()) if root.is_dir() else ():
        pid = folder.name.split("-")[1] if folder.name.count("-") >= 2 else ""
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)
            swept.append(folder.name)
    if swept:
        log.info("removed %d scratch folder(s) left by killed runs in %s", len(swept), root)
    return swept


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


# --- In the parent: is it a PDF, and can it be opened? ------------------------------


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


def _page_count(path: Path) -> int:
    """The number of pages, as pdfplumber (which the workers use) sees them."""
    try:
        pdf = pdfplumber.open(path)
    except Exception as exc:  # pdfminer raises many unrelated types for broken files
        raise InputError(f"cannot open PDF: {type(exc).__name__}: {exc}",
                         "check that the file is a complete PDF") from exc
    with pdf:
        if not pdf.pages:
            raise InputError("the PDF has no pages")
        return len(pdf.pages)


# --- In the workers: one page each ---------------------------------------------------


@dataclass(frozen=True)
class _OcrNeed:
    """A page to OCR and what its text layer told about it."""

    number: int
    reason: str
    #: The script the page's broken text layer still showed (``Devanagari``).
    script_hint: str | None


_OPEN = threading.local()


def _open(path: Path) -> pdfplumber.PDF:
    """This worker's open copy of the PDF (one document at a time)."""
    stat = path.stat()
    key = (path, stat.st_mtime_ns, stat.st_size)
    cached = getattr(_OPEN, "pdf", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    if cached is not None:
        cached[1].close()
    pdf = pdfplumber.open(path)
    _OPEN.pdf = (key, pdf)
    return pdf


def _guarded(number: int, read: Callable[[], T]) -> T | Page:
    """Run ``read``; a failure becomes a page recorded as failed with its reason."""
    try:
        return read()
    except Exception as exc:  # one bad page must not stop the document
        return Page(number=number, method="failed", reason=f"{type(exc).__name__}: {exc}",
                    text="")


def _read_layer(path: Path, index: int, settings: Settings) -> Page | _OcrNeed:
    """Read a page from its text layer, or say why it is to be OCR'd."""
    return _guarded(index + 1, partial(_decide_and_read, path, index, settings))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a page is parsed and laid out.

    A page is some 100,000 short-lived objects, with the page's characters alive
    throughout: the collector would scan them again and again (measured: 60 % more
    CPU time for a DOU page). It runs once when the page is done instead.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _decide_and_read(path: Path, index: int, settings: Settings) -> Page | _OcrNeed:
    number = index + 1
    with _collector_paused():
        page = _open(path).pages[index]
        try:
            reading = text_in_reading_order(page)
            stats = text_layer_stats(page, reading, settings)
            width, height = float(page.width), float(page.height)
        finally:
            page.close()  # its parsed objects are no longer needed
    decision = decide_page(stats, settings)
    if decision.method == "legacy-font":
        converted = convert_legacy_text(reading.text)
        quality = conversion_quality(converted)
        if quality >= settings.min_legacy_quality:
            return Page(number=number, method="legacy-font",
                        reason=f"{decision.reason}; converted to Unicode, {quality:.0%} of "
                               "the words known Hindi words", text=converted)
        decision = PageDecision("ocr", f"{decision.reason}, but its conversion has only "
                                       f"{quality:.0%} known Hindi words "
                                       f"(min_legacy_quality={settings.min_legacy_quality})")
    if not decision.ocr:
        reason = decision.reason + (f", read column by column ({reading.columns} columns)"
                                    if reading.columns > 1 else "") + (
            f"; {reading.diagonal} characters drawn on a diagonal (a watermark) left out"
            if reading.diagonal else "")
        return Page(number=number, method="text-layer", reason=reason, text=reading.text)
    pixels = width * height * (settings.ocr_dpi / 72) ** 2
    if pixels > settings.max_raster_pixels:
        raise InputError(f"page would rasterize to {pixels / 1e6:,.0f} megapixels at "
                         f"{settings.ocr_dpi} dpi (limit {settings.max_raster_pixels / 1e6:,.0f})",
                         "raise Settings.max_raster_pixels if the page is real")
    # A broken layer still shows its script: Devanagari (or Hindi in a legacy font).
    hint = "Devanagari" if stats.devanagari_words or stats.legacy_hindi else None
    return _OcrNeed(number, decision.reason, hint)


def _probe(path: Path, index: int, settings: Settings, tmp: Path
           ) -> tuple[str, str, PreparedPage | None]:
    """The document's pack, from this page (see :func:`pipeline.read.scan.probe_pack`), and
    the page prepared for its own reading, in the document's scratch folder ``tmp``."""
    try:
        page = prepare_page(_rasterize(path, index, settings.ocr_dpi),
                            tmp / f"page-{index + 1:04d}.pgm")
        return (*probe_pack(page, settings), page)
    except Exception as exc:  # each page then says for itself why it cannot be read
        return settings.ocr_languages, f"no probe: {type(exc).__name__}: {exc}", None


def _ocr_page(path: Path, need: _OcrNeed, settings: Settings, pack: str | None,
              why: str, prepared: PreparedPage | None) -> Page:
    """OCR a page, prepared already (by the probe) or rasterized and prepared here; the
    image is deleted when done."""
    return _guarded(need.number, partial(_read_page, path, need, settings, pack, why,
                                         prepared))


def _read_page(path: Path, need: _OcrNeed, settings: Settings, pack: str | None,
               why: str, prepared: PreparedPage | None) -> Page:
    started = time.monotonic()
    with _scratch_folder(settings, "ocr") as tmp:
        page = prepared or prepare_page(_rasterize(path, need.number - 1, settings.ocr_dpi),
                                        tmp / f"page-{need.number:04d}.pgm")
        try:
            result = read_scan(page, settings, need.script_hint, pack, why)
        finally:
            page.path.unlink(missing_ok=True)
    log.debug("page %d: OCR'd %d words in %.1f s", need.number, result.words,
              time.monotonic() - started)
    return Page(number=need.number, method="ocr",
                reason=f"{need.reason}; {'; '.join(result.steps)}", text=result.text,
                ocr_languages=result.languages, confidence=result.confidence,
                warnings=() if result.words else ("OCR found no words",),
                words=result.word_confidences)


#: Held while pdfium works. It may serve one thread of a process at a time, even on
#: different documents (pypdfium2's docs): two threads rendering a DOU page each, as
#: the run's two document threads do with one-page PDFs read in its own process (and a
#: Dask worker's page threads with any), crashed the process 11 times out of 12.
_PDFIUM = threading.Lock()


@contextmanager
def _pdfium(path: Path) -> Iterator[pypdfium2.PdfDocument]:
    """The PDF opened by pdfium, with :data:`_PDFIUM` held until it is closed."""
    with _PDFIUM:
        pdf = pypdfium2.PdfDocument(path)
        try:
            yield pdf
        finally:
            pdf.close()


def _rasterize(path: Path, index: int, dpi: int) -> Gray:
    """Render one page in 8-bit gray."""
    with _pdfium(path) as pdf:
        return np.asarray(pdf[index].render(scale=dpi / 72, grayscale=True).to_pil()
                          .convert("L"))


def first_page_text(path: Path) -> str:
    """The text layer of a PDF's first page as pdfium gives it, in the order it is
    drawn, lines ending in ``\\n`` ("" for a scan): what a file says at its top, for a
    fraction of the cost of laying the page out (0.02 s of CPU on the DOU's front
    page, where pdfplumber's ``extract_text`` takes 0.6 s)."""
    with _pdfium(path) as pdf:
        return (pdf[0].get_textpage().get_text_range().replace("\r\n", "\n")
                if len(pdf) else "")
