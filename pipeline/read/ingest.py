"""Stage 1, ingest: find the documents in the inbox and read every page of each.

This module holds the inbox (which files are documents, and their ids), text dumps
(decoded), saved web pages, Word documents and OpenDocument texts (the text they
show: :mod:`pipeline.read.webpage`, :mod:`pipeline.read.wordfile`,
:mod:`pipeline.read.opendocument`); PDFs
are read by :mod:`pipeline.read.pdfread`: from their text layer, or, where
:func:`pipeline.read.pagedecision.decide_page` says the layer is missing or broken,
rasterized and OCR'd with Tesseract. Every page records how it was read and why.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache, partial
from pathlib import Path

from pipeline.config import Settings
from pipeline.errors import InputError
from pipeline.read.opendocument import odt_text
from pipeline.read.parts import stitch
from pipeline.read.pdfread import first_page_text, read_pdf
from pipeline.read.webpage import decode_web_page, looks_like_html, web_page_text
from pipeline.read.wordfile import docx_text
from pipeline.records import IngestedDocument, Page, PageMethod, Source, SourceKind
from pipeline.text.language import without_accents

__all__ = [
    "MAX_CONTROL_SHARE",
    "decode_text",
    "discover",
    "doc_ids_for",
    "ignored",
    "ingest",
    "source_for",
]

_KINDS: dict[str, SourceKind] = {".pdf": "pdf", ".txt": "text", ".html": "html",
                                  ".htm": "html", ".xhtml": "html", ".docx": "docx",
                                  ".odt": "odt"}
_UNSAFE_ID_CHARS = re.compile(r"[^A-Za-z0-9._-]+")


def discover(settings: Settings) -> list[Source]:
    """List the documents in the inbox, sorted by path.

    Hidden files and folders (names starting with ``.``) are skipped. Files that are
    neither ``.pdf`` nor ``.txt`` are listed too, so that the run reports them, and so
    are symbolic links that lead out of the inbox, which are never read. The parts of
    a decree published in parts become one source (:func:`pipeline.read.parts.stitch`).
    """
    raw = settings.raw.resolve()
    paths = [path for path, parts in _inbox_files(settings) if not _hidden(parts)]
    relpaths = [path.relative_to(settings.raw).as_posix() for path in paths]
    ids = doc_ids_for(relpaths)
    return stitch([_source(path, relpath, ids[relpath], inbox=raw)
                   for path, relpath in zip(paths, relpaths, strict=True)], _head)


def ignored(settings: Settings) -> list[tuple[str, str]]:
    """The inbox's files that are no documents, each with the reason: hidden files and
    files in hidden folders (a name starting with ``.``, as uploads in progress have).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as root:
    ...     settings = Settings.for_root(Path(root))
    ...     (settings.raw / ".uploads").mkdir(parents=True)
    ...     _ = (settings.raw / ".uploads" / "a.pdf").write_bytes(b"%PDF")
    ...     _ = (settings.raw / "..dots..txt").write_text("Article 1")
    ...     for relpath, reason in ignored(settings):
    ...         print(relpath, "-", reason)
    ..dots..txt - hidden: its name starts with '.'
    .uploads/a.pdf - in the hidden folder '.uploads'
    """
    found = []
    for _path, parts in _inbox_files(settings):
        hidden = _hidden(parts)
        if hidden:
            reason = ("hidden: its name starts with '.'" if hidden == [parts[-1]]
                      else f"in the hidden folder {hidden[0]!r}")
            found.append(("/".join(parts), reason))
    return found


def _inbox_files(settings: Settings) -> list[tuple[Path, tuple[str, ...]]]:
    """Every file (and symbolic link) in the inbox, sorted, with its path's parts
    relative to the inbox."""
    return [(path, path.relative_to(settings.raw).parts)
            for path in sorted(settings.raw.rglob("*")) if path.is_file() or path.is_symlink()]


def _hidden(parts: tuple[str, ...]) -> list[str]:
    """The hidden names (starting with ``.``) on a path: uploads in progress and the like."""
    return [part for part in parts if part.startswith(".")]


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
        status = path.stat()
        sha256 = _digest(str(path), status.st_ino, status.st_size, status.st_mtime_ns,
                         status.st_ctime_ns)
    except OSError as exc:
        return Source(path=path, relpath=relpath, doc_id=doc_id, kind=kind, sha256="",
                      rejected=f"cannot read the file: {exc.strerror or exc}")
    return Source(path=path, relpath=relpath, doc_id=doc_id, kind=kind, sha256=sha256,
                  rejected="empty file (0 bytes)" if not status.st_size else None)


@lru_cache(maxsize=65_536)
def _digest(path: str, inode: int, size: int, mtime_ns: int, ctime_ns: int) -> str:
    """The SHA-256 of a file's bytes, remembered while the file keeps its inode, size
    and times: `gazette serve` discovers the inbox at every tick, and reads no file
    again that has not changed since (a write changes the change time, which no tool
    sets back). A long inbox of large PDFs costs a tick its directory listing."""
    with Path(path).open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


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
        ascii_stem = without_accents(Path(relpath).stem)
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
    if source.kind in _ONE_PAGE:
        return [_ONE_PAGE[source.kind](source.path.read_bytes())]
    if source.kind == "pdf":
        return read_pdf(source.path, settings)
    raise InputError(
        f"unsupported file type {source.path.suffix or '(none)'!r}",
        "the inbox takes .pdf, .txt, .html, .docx and .odt files",
    )


@lru_cache(maxsize=4096)
def _head(source: Source) -> str:
    """The start of a source's text, for its part mark: the first 4 KB of a text dump
    or of the text a web page or an office document shows, a PDF's first page text
    layer as drawn (:func:`~pipeline.read.pdfread.first_page_text`; a scan has none:
    its parts are not stitched). Remembered by source (path and content hash):
    `gazette serve` discovers the inbox at every tick."""
    try:
        if source.kind == "text":
            with source.path.open("rb") as handle:
                return decode_text(handle.read(4096))[0]
        if source.kind in _ONE_PAGE:
            return _ONE_PAGE[source.kind](source.path.read_bytes()).text[:4096]
        if source.kind == "pdf":
            return first_page_text(source.path)
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


#: A text dump with a larger share of control characters (C0 and C1, but tab, line
#: and page breaks) is binary data, not text: random bytes have about a quarter.
MAX_CONTROL_SHARE = 0.1
_ANY_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")


def _read_text_dump(path: Path) -> list[Page]:
    data = path.read_bytes()
    decoded, encoding = decode_text(data)
    if looks_like_html(decoded):  # a web page saved under another name
        return [_read_web_page(data)]
    text, warnings = _printable(decoded)
    if not text.strip():
        raise InputError("no text: the file holds only white space")
    # A form feed separates pages in text dumps made by pdftotext.
    return [
        Page(number=number, method="text-dump", reason=f"text dump ({encoding})",
             text=page_text, warnings=warnings)
        for number, page_text in enumerate(text.split("\f"), start=1)
    ]


def _read_web_page(data: bytes) -> Page:
    """A saved web page as one page: the text it shows (:mod:`pipeline.read.webpage`),
    decoded as it declares, else as a text dump is."""
    markup, encoding = decode_web_page(data) or decode_text(data)
    markup, warnings = _printable(markup)
    text = web_page_text(markup)
    if not text.strip():
        raise InputError("no text: the web page shows none",
                         "save the page as it shows its text (a page its scripts fill in "
                         "shows none without them: copy its text into a .txt file)")
    return Page(number=1, method="web-page", text=text, warnings=warnings,
                reason=f"web page ({encoding}): the text it shows, a block a line, "
                       "without its scripts, styles and navigation")


#: How each office format is read, and what it is called.
_OFFICE: dict[str, tuple[Callable[[bytes], str], str, PageMethod]] = {
    "docx": (docx_text, "Word document", "docx"),
    "odt": (odt_text, "OpenDocument text", "odt")}


def _read_office_document(kind: str, data: bytes) -> Page:
    """A Word document or an OpenDocument text as one page: the text of its body
    (:mod:`pipeline.read.wordfile`, :mod:`pipeline.read.opendocument`)."""
    read, name, method = _OFFICE[kind]
    try:
        text = read(data)
    except ValueError as exc:
        raise InputError(f"cannot read the {name}: {exc}",
                         "open and save it again, or put its PDF in the inbox") from exc
    if not text.strip():
        raise InputError(f"no text: the {name}'s body is empty")
    return Page(number=1, method=method, text=text,
                reason=f"{name}: its body's text, a paragraph a line, list numbers as "
                       "the document shows them, without deleted or hidden text, notes, "
                       "headers and footers")


#: How a file that is one page (a web page, an office document) is read, by its kind.
_ONE_PAGE: dict[str, Callable[[bytes], Page]] = {
    "html": _read_web_page, "docx": partial(_read_office_document, "docx"),
    "odt": partial(_read_office_document, "odt")}


def _printable(decoded: str) -> tuple[str, tuple[str, ...]]:
    """A decoded file's text without control characters, and a warning if it had some;
    :class:`InputError` if it is binary data."""
    unprintable = len(_ANY_CONTROL.findall(decoded))
    if unprintable > MAX_CONTROL_SHARE * len(decoded):
        raise InputError(f"binary data, not text: {unprintable} of its {len(decoded)} "
                         "characters are control characters",
                         "put the document's text (UTF-8, UTF-16 or Windows-1252) or its PDF "
                         "in the inbox")
    text, controls = _CONTROL.subn("", decoded)
    return text, (f"removed {controls} control character(s) (NUL and the like)",) * bool(
        controls)
