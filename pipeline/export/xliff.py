"""XLIFF 2.0 bilingual files, one per language pair.

One ``<file>`` per document, one ``<unit>`` per export unit with a single
``<segment>``. The segment's ``state`` is ``translated`` for pairs the aligner is
confident of and ``initial`` with ``subState="gazette:flagged"`` for pairs flagged
for review; the unit's ``<notes>`` give article, decree, confidence and pages.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from itertools import groupby

from pipeline.export.units import ExportUnit
from pipeline.export.xmltext import XmlText

__all__ = ["xliff"]

_NS = "urn:oasis:names:tc:xliff:document:2.0"
#: Texts keep their spaces exactly (readers may otherwise collapse them).
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"


def xliff(
    units: Sequence[ExportUnit], language: str, tag: Callable[[str], str], clean: XmlText,
) -> str:
    """An XLIFF 2.0 document pairing English with ``language`` for every unit that has it."""
    pivot = units[0].pivot_language if units else "en"
    ET.register_namespace("", _NS)
    root = ET.Element(f"{{{_NS}}}xliff", version="2.0", srcLang=tag(pivot),
                      trgLang=tag(language))
    pairs = [(unit, t) for unit in units for t in unit.translations if t.language == language]
    for number, (doc, doc_pairs) in enumerate(groupby(pairs, key=lambda p: p[0].doc), start=1):
        file = ET.SubElement(root, f"{{{_NS}}}file", id=f"f{number}", original=clean(doc))
        for unit_number, (unit, t) in enumerate(doc_pairs, start=1):
            element = ET.SubElement(file, f"{{{_NS}}}unit", id=f"u{unit_number}",
                                    name=clean(unit.unit_id))
            notes = ET.SubElement(element, f"{{{_NS}}}notes")
            for category, value in (
                ("article", unit.article), ("decree", unit.decree or ""),
                ("confidence", f"{t.confidence:.2f}"),
                ("pages", ",".join(map(str, unit.pivot_pages))),
                ("target-pages", ",".join(map(str, t.pages))),
            ):
                if value:
                    ET.SubElement(notes, f"{{{_NS}}}note", category=category).text = clean(value)
            state = ({"state": "reviewed"} if t.reviewed
                     else {"state": "initial", "subState": "gazette:flagged"} if t.flagged
                     else {"state": "translated"})
            segment = ET.SubElement(element, f"{{{_NS}}}segment", {"id": "s1", **state})
            for name, value in (("source", unit.pivot_text), ("target", t.text)):
                ET.SubElement(segment, f"{{{_NS}}}{name}", {_XML_SPACE: "preserve"}
                              ).text = clean(value)
    ET.indent(root, space=" ")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            + ET.tostring(root, encoding="unicode") + "\n")
