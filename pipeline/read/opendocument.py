"""An OpenDocument text's text (``.odt``), as LibreOffice shows it.

Brazil's federal administration keeps its documents in OpenDocument, the format of
LibreOffice. :func:`odt_text` gives the text of its body, one paragraph per line, as
:mod:`pipeline.read.wordfile` gives a Word document's:

- a numbered heading or list item shows its number, drawn from the document's outline
  numbering (``text:outline-style``) or its list's style (prefix, the numbers of the
  levels it displays, suffix: ``Article 1``, ``(a)``, ``1.2``);
- what the page does not show is left out: text deleted in tracked changes, notes,
  comments, generated indexes, the page's header and footer (``styles.xml``);
- a table row reads as a web page's does (:func:`pipeline.read.webpage.row_lines`).

Only the standard library reads it; a file that is no OpenDocument text, or is damaged,
raises :class:`ValueError` with the reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from xml.etree import ElementTree as ET

from pipeline.read.webpage import row_lines
from pipeline.read.wordfile import format_number, read_parts

__all__ = ["odt_text"]

_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
#: ODF's number formats as Word names them (:func:`~pipeline.read.wordfile.format_number`).
_FORMATS = {"1": "decimal", "a": "lowerLetter", "A": "upperLetter", "i": "lowerRoman",
            "I": "upperRoman"}
#: Elements whose text the page does not show as the document's.
_UNSHOWN = frozenset({f"{_TEXT}note", f"{_OFFICE}annotation", f"{_TEXT}tracked-changes",
                      f"{_TEXT}table-of-content", f"{_TEXT}alphabetical-index",
                      f"{_TEXT}illustration-index", f"{_TEXT}bibliography",
                      f"{_TEXT}sequence-decls", f"{_TEXT}hidden-text",
                      f"{_TEXT}hidden-paragraph", f"{_OFFICE}forms"})


def odt_text(data: bytes) -> str:
    """The text of an ``.odt`` file's body, a paragraph a line (see the module's
    docstring); :class:`ValueError` if ``data`` is no OpenDocument text."""
    content, styles = read_parts(data, ("content.xml", "styles.xml"), "OpenDocument text")
    body = content.find(f"{_OFFICE}body/{_OFFICE}text") if content is not None else None
    if body is None:
        raise ValueError("no office:text in content.xml: not an OpenDocument text")
    numbering = _Numbering([part for part in (styles, content) if part is not None])
    return "".join(f"{line}\n" for line in _lines(body, numbering, None))


@dataclass(frozen=True)
class _Level:
    format: str
    prefix: str
    suffix: str
    shown: int
    start: int


class _Numbering:
    """The document's outline numbering and list styles, and the counts reached."""

    def __init__(self, parts: list[ET.Element]) -> None:
        self.lists: dict[str, dict[int, _Level]] = {}
        self.outline: dict[int, _Level] = {}
        for part in parts:
            for style in part.iter(f"{_TEXT}list-style"):
                self.lists[style.get(f"{_STYLE}name") or ""] = _levels(
                    style, f"{_TEXT}list-level-style-number")
            for style in part.iter(f"{_TEXT}outline-style"):
                self.outline = _levels(style, f"{_TEXT}outline-level-style")
        self.counts: dict[str, list[int]] = {}

    def restart(self, style: str) -> None:
        self.counts.pop(style, None)

    def number(self, levels: dict[int, _Level], key: str, level: int,
               start: int | None = None) -> str:
        """The number shown at ``level`` (from 1) of the list or outline ``key``, counted
        on from the last; "" where the level shows none."""
        counts = self.counts.setdefault(key, [])
        del counts[level:]
        while len(counts) < level:
            at = levels.get(len(counts) + 1)
            counts.append((at.start if at else 1) - 1)
        counts[level - 1] = start if start is not None else counts[level - 1] + 1
        at = levels.get(level)
        if at is None or not at.format:
            return ""
        first = max(1, level - at.shown + 1)
        numbers = [format_number(max(1, counts[k - 1]), _FORMATS.get(
            levels[k].format if k in levels else "1", "decimal")) for k in range(first, level + 1)]
        return f"{at.prefix}{'.'.join(numbers)}{at.suffix} "


def _levels(style: ET.Element, tag: str) -> dict[int, _Level]:
    levels = {}
    for level in style.findall(tag):
        levels[int(level.get(f"{_TEXT}level") or 1)] = _Level(
            level.get(f"{_STYLE}num-format") or "", level.get(f"{_STYLE}num-prefix") or "",
            level.get(f"{_STYLE}num-suffix") or "",
            int(level.get(f"{_TEXT}display-levels") or 1),
            int(level.get(f"{_TEXT}start-value") or 1))
    return levels


@dataclass(frozen=True)
class _Item:
    """A list item: its list's style, its depth (from 1), the number it restarts at."""

    style: str
    level: int
    start: int | None = None


def _lines(container: ET.Element, numbering: _Numbering, item: _Item | None) -> Iterator[str]:
    """The lines of the paragraphs, headings, lists and tables in ``container``, the
    list ``item`` it is if one (its first paragraph shows the item's number)."""
    pending = item
    for element in container:
        tag = element.tag
        if tag in _UNSHOWN:
            continue
        if tag in (f"{_TEXT}p", f"{_TEXT}h"):
            number = ""
            if tag == f"{_TEXT}h" and numbering.outline:
                level = int(element.get(f"{_TEXT}outline-level") or 1)
                number = numbering.number(numbering.outline, "outline", level)
            elif pending is not None and pending.style in numbering.lists:
                number = numbering.number(numbering.lists[pending.style], pending.style,
                                          pending.level, pending.start)
            pending = None
            line = " ".join(f"{number}{_inline_text(element)}".split())
            if line:
                yield line
        elif tag == f"{_TEXT}list":
            yield from _list_lines(element, numbering, item)
        elif tag == f"{_TABLE}table":
            for row in _rows(element):
                yield from row_lines([list(_lines(cell, numbering, None))
                                      for cell in row.findall(f"{_TABLE}table-cell")])
        elif tag == f"{_TEXT}section":
            yield from _lines(element, numbering, None)


def _rows(table: ET.Element) -> Iterator[ET.Element]:
    """A table's own rows in order, those in its row groups (header rows) too."""
    for child in table:
        if child.tag == f"{_TABLE}table-row":
            yield child
        elif child.tag in (f"{_TABLE}table-header-rows", f"{_TABLE}table-rows",
                           f"{_TABLE}table-row-group"):
            yield from _rows(child)


def _list_lines(element: ET.Element, numbering: _Numbering, outer: _Item | None
                ) -> Iterator[str]:
    """A list's lines: each item numbered by the list's style at its depth; a list
    at the top restarts its numbering unless it continues another."""
    style = element.get(f"{_TEXT}style-name") or (outer.style if outer else "")
    level = outer.level + 1 if outer else 1
    if outer is None and element.get(f"{_TEXT}continue-numbering") != "true" \
            and element.get(f"{_TEXT}continue-list") is None:
        numbering.restart(style)
    for child in element:
        start = child.get(f"{_TEXT}start-value")
        if child.tag == f"{_TEXT}list-item":
            yield from _lines(child, numbering, _Item(style, level,
                                                      int(start) if start else None))
        elif child.tag == f"{_TEXT}list-header":  # an item without a number
            yield from _lines(child, numbering, None)


def _inline_text(element: ET.Element) -> str:
    """A paragraph's text: its spans and links, spaces (``text:s``), tabs and line
    breaks; not its notes, comments or deleted text."""
    parts = [element.text or ""]
    for child in element:
        if child.tag not in _UNSHOWN:
            if child.tag == f"{_TEXT}s":
                parts.append(" " * int(child.get(f"{_TEXT}c") or 1))
            elif child.tag in (f"{_TEXT}tab", f"{_TEXT}line-break"):
                parts.append(" ")
            else:
                parts.append(_inline_text(child))
        parts.append(child.tail or "")
    return "".join(parts)
