"""A Word document's text (``.docx``), as Word shows it.

A treaty's English text is often sent as the Word file it was drafted in.
:func:`docx_text` gives the text of its body, one paragraph per line, the way the rest
of the pipeline takes a text copied from a page:

- a paragraph Word numbers itself shows its number, as Word draws it from the list's
  levels (``numbering.xml``: ``Article %1``, ``(%2)``, ``%1.%2``; decimal, letters,
  roman numerals) whether the paragraph or its style asks for it: a treaty whose
  articles are numbered lists keeps its ``Article 1`` headings;
- what Word does not show is left out: text deleted in tracked changes and hidden
  text; so are the page's header and footer (parts of their own, as a PDF's running
  heads), comments, notes and a table of contents (its lines repeat the headings);
- a table row whose cells each hold one paragraph is one line, else each paragraph a
  line (:func:`pipeline.read.webpage.row_lines`).

Only the standard library reads it (``zipfile`` and ElementTree); a file that is not a
Word document, or is damaged, raises :class:`ValueError` with the reason.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from io import BytesIO
from xml.etree import ElementTree as ET

from pipeline.read.webpage import row_lines

__all__ = ["MAX_PART_BYTES", "docx_text", "format_number", "read_parts"]

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
#: The largest part read (uncompressed): a zip bomb stops here.
MAX_PART_BYTES = 200_000_000


def docx_text(data: bytes) -> str:
    """The text of a ``.docx`` file's body, a paragraph a line (see the module's
    docstring); :class:`ValueError` if ``data`` is no Word document."""
    body, numbering, styles = read_parts(
        data, ("word/document.xml", "word/numbering.xml", "word/styles.xml"), "Word document")
    if body is None:
        raise ValueError("no word/document.xml: not a Word document")
    lists = _Lists(numbering, styles)
    found = body.find(f"{_W}body")
    return "".join(f"{line}\n" for line in _lines(found, lists)) if found is not None else ""


def read_parts(data: bytes, names: Sequence[str], what: str) -> list[ET.Element | None]:
    """The XML parts ``names`` of an office document's package (a ``what``: Word's or
    OpenDocument's), each None if it has none; :class:`ValueError` for a damaged
    package (:func:`_read_part` says which parts are refused)."""
    try:
        with zipfile.ZipFile(BytesIO(data)) as package:
            return [_read_part(package, name) for name in names]
    except zipfile.BadZipFile as exc:
        raise ValueError(f"not a {what} (a damaged zip archive: {exc})") from exc


def _read_part(package: zipfile.ZipFile, name: str) -> ET.Element | None:
    """The XML part ``name`` of the package, None if it has none; :class:`ValueError`
    for a part too large, declaring a DTD or not well-formed."""
    try:
        info = package.getinfo(name)
    except KeyError:
        return None
    if info.file_size > MAX_PART_BYTES:
        raise ValueError(f"{name} unpacks to {info.file_size:,} bytes "
                         f"(limit {MAX_PART_BYTES:,})")
    raw = package.read(info)
    if b"<!DOCTYPE" in raw[:4096].upper():
        raise ValueError(f"{name} declares a DTD, which no office document does")
    try:
        return ET.fromstring(raw)
    except ET.ParseError as exc:
        raise ValueError(f"{name} is not well-formed XML ({exc})") from exc


def _lines(container: ET.Element, lists: _Lists) -> Iterator[str]:
    """The lines of the paragraphs and tables in ``container``, in order (a content
    control's children are its container's)."""
    for element in container:
        if element.tag == f"{_W}p":
            line = " ".join(f"{lists.number(element)}{_runs_text(element)}".split())
            if line:
                yield line
        elif element.tag == f"{_W}tbl":
            for row in element.findall(f"{_W}tr"):
                yield from row_lines([list(_lines(cell, lists))
                                      for cell in row.findall(f"{_W}tc")])
        elif element.tag in (f"{_W}sdt", f"{_W}sdtContent", f"{_W}customXml") \
                and not _is_index(element):
            yield from _lines(element, lists)


def _is_index(control: ET.Element) -> bool:
    """Whether a content control holds a table of contents (or another index Word
    builds from the text: its lines repeat the headings)."""
    gallery = control.find(f"{_W}sdtPr/{_W}docPartObj/{_W}docPartGallery")
    return gallery is not None and _val(gallery) in ("Table of Contents",
                                                     "Table of Figures", "Bibliographies")


def _runs_text(paragraph: ET.Element) -> str:
    """A paragraph's text as shown: its runs' text, tabs and breaks as spaces, without
    deleted (``w:del``) or hidden (``w:vanish``) runs."""
    parts = []
    for run in _shown_runs(paragraph):
        for child in run:
            if child.tag == f"{_W}t":
                parts.append(child.text or "")
            elif child.tag in (f"{_W}tab", f"{_W}br", f"{_W}cr"):
                parts.append(" ")
            elif child.tag == f"{_W}noBreakHyphen":
                parts.append("-")
    return "".join(parts)


def _shown_runs(element: ET.Element) -> Iterator[ET.Element]:
    for child in element:
        if child.tag == f"{_W}r":
            if child.find(f"{_W}rPr/{_W}vanish") is None:
                yield child
        elif child.tag not in (f"{_W}del", f"{_W}pPr", f"{_W}moveFrom"):
            yield from _shown_runs(child)  # hyperlinks, insertions, fields, smart tags


@dataclass
class _Level:
    start: int
    format: str
    text: str


@dataclass
class _Lists:
    """Word's lists: each list's levels, the list a style numbers its paragraphs with,
    and the count each list has reached."""

    numbering: ET.Element | None
    styles: ET.Element | None
    #: Each list (``w:num``) by its id: its levels, and whose count it goes on with
    #: (its abstract list's, shared with the lists of the same one, unless it
    #: restarts a level: then its own).
    levels: dict[str, dict[int, _Level]] = field(default_factory=dict)
    counter: dict[str, str] = field(default_factory=dict)
    style_lists: dict[str, tuple[str, int]] = field(default_factory=dict)
    counts: dict[str, dict[int, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.numbering is not None:
            abstract = {a.get(f"{_W}abstractNumId"): a
                        for a in self.numbering.findall(f"{_W}abstractNum")}
            for num in self.numbering.findall(f"{_W}num"):
                ref = num.find(f"{_W}abstractNumId")
                found = abstract.get(_val(ref)) if ref is not None else None
                if found is not None:
                    num_id = num.get(f"{_W}numId") or ""
                    self.levels[num_id] = _levels(found, num)
                    restarts = num.find(f"{_W}lvlOverride/{_W}startOverride") is not None
                    self.counter[num_id] = (f"list {num_id}" if restarts
                                            else f"abstract {_val(ref) if ref is not None else ''}")
        if self.styles is not None:
            for style in self.styles.findall(f"{_W}style"):
                numbered = style.find(f"{_W}pPr/{_W}numPr")
                if numbered is not None:
                    self.style_lists[style.get(f"{_W}styleId") or ""] = _num_pr(numbered)

    def number(self, paragraph: ET.Element) -> str:
        """The number Word shows before ``paragraph`` with a space after it, or ""."""
        numbered = paragraph.find(f"{_W}pPr/{_W}numPr")
        style = paragraph.find(f"{_W}pPr/{_W}pStyle")
        if numbered is not None:
            num_id, level = _num_pr(numbered)
        elif style is not None and _val(style) in self.style_lists:
            num_id, level = self.style_lists[_val(style)]
        else:
            return ""
        levels = self.levels.get(num_id)
        if not levels or level not in levels:
            return ""
        counts = self.counts.setdefault(self.counter[num_id], {})
        counts[level] = counts.get(level, levels[level].start - 1) + 1
        for deeper in [k for k in counts if k > level]:
            del counts[deeper]  # a new item restarts the levels under it

        def shown(match: re.Match[str]) -> str:
            k = int(match.group(1)) - 1
            at = levels.get(k)
            return format_number(counts.get(k, at.start if at else 1),
                                 at.format if at else "decimal")

        if levels[level].format in ("bullet", "none"):
            return ""
        text = re.sub(r"%(\d)", shown, levels[level].text)
        return f"{text} " if text else ""


def _levels(abstract: ET.Element, num: ET.Element) -> dict[int, _Level]:
    levels = {}
    for lvl in abstract.findall(f"{_W}lvl"):
        start, fmt, text = (lvl.find(f"{_W}{name}") for name in ("start", "numFmt", "lvlText"))
        levels[int(lvl.get(f"{_W}ilvl") or 0)] = _Level(
            int(_val(start) or 1) if start is not None else 1,
            _val(fmt) or "decimal" if fmt is not None else "decimal",
            _val(text) if text is not None else "")
    for override in num.findall(f"{_W}lvlOverride"):
        start = override.find(f"{_W}startOverride")
        level = int(override.get(f"{_W}ilvl") or 0)
        if start is not None and level in levels:
            levels[level].start = int(_val(start) or 1)
    return levels


def _num_pr(numbered: ET.Element) -> tuple[str, int]:
    level, num_id = numbered.find(f"{_W}ilvl"), numbered.find(f"{_W}numId")
    return (_val(num_id) if num_id is not None else "",
            int(_val(level) or 0) if level is not None else 0)


def _val(element: ET.Element) -> str:
    return element.get(f"{_W}val") or ""


def format_number(number: int, style: str) -> str:
    """A list number as Word draws it in ``style``.

    >>> [format_number(4, s) for s in ("decimal", "lowerLetter", "upperRoman", "lowerRoman")]
    ['4', 'd', 'IV', 'iv']
    """
    if style in ("lowerLetter", "upperLetter"):
        letters = ""
        while number > 0:
            number, rest = divmod(number - 1, 26)
            letters = chr(ord("a") + rest) + letters
        return letters.upper() if style == "upperLetter" else letters
    if style in ("lowerRoman", "upperRoman"):
        roman = ""
        for value, sign in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                            (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                            (4, "IV"), (1, "I")):
            count, number = divmod(number, value)
            roman += sign * count
        return roman.lower() if style == "lowerRoman" else roman
    if style == "decimalZero":
        return f"{number:02d}"
    return str(number)
