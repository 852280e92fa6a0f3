"""TMX 1.4b translation memories, multilingual or for one language pair.

One ``<tu>`` per unit, with a ``<tuv>`` for English and each translation. The
``<tu>`` carries the document, decree, article and lowest confidence as
``<prop>``s (``x-`` types, as TMX asks of tool-specific properties); each
``<tuv>`` carries its source pages and, for translations, its confidence::

    <tu tuid="002_9382d4ae2bbb4b06:3:0-0">
      <prop type="x-document">002_9382d4ae2bbb4b06</prop>
      <prop type="x-article">3</prop>
      <prop type="x-confidence">0.93</prop>
      <tuv xml:lang="en"><prop type="x-pages">4</prop><seg>…</seg></tuv>
      <tuv xml:lang="pt-BR"><prop type="x-pages">1</prop>
        <prop type="x-confidence">0.93</prop><seg>…</seg></tuv>
    </tu>
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from datetime import datetime

from pipeline.export.units import ExportUnit
from pipeline.export.xmltext import XmlText

__all__ = ["tmx"]

_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def tmx(
    units: Sequence[ExportUnit], languages: Sequence[str], tag: Callable[[str], str],
    created: datetime, tool_version: str, clean: XmlText,
) -> str:
    """A TMX document with the pivot and ``languages`` of every unit that has one of them.

    ``tag`` maps a language code to the ``xml:lang`` written (``pt`` → ``pt-BR``);
    ``clean`` removes characters XML cannot carry and counts them.
    """
    pivot = units[0].pivot_language if units else "en"
    root = ET.Element("tmx", version="1.4")
    ET.SubElement(root, "header", {
        "creationtool": "gazette", "creationtoolversion": tool_version,
        "segtype": "sentence", "o-tmf": "gazette-units-jsonl", "adminlang": "en",
        "srclang": tag(pivot), "datatype": "plaintext",
        "creationdate": created.strftime("%Y%m%dT%H%M%SZ"),
    })
    body = ET.SubElement(root, "body")
    for unit in units:
        translations = [t for t in unit.translations if t.language in languages]
        if not translations:
            continue
        tu = ET.SubElement(body, "tu", tuid=clean(unit.unit_id))
        _prop(tu, "x-document", clean(unit.doc))
        if unit.decree:
            _prop(tu, "x-decree", clean(unit.decree))
        _prop(tu, "x-article", clean(unit.article))
        _prop(tu, "x-confidence", f"{min(t.confidence for t in translations):.2f}")
        if any(t.flagged for t in translations):
            _prop(tu, "x-flagged", "yes")
        if all(t.reviewed for t in translations):
            _prop(tu, "x-reviewed", "yes")
        _tuv(tu, tag(pivot), unit.pivot_pages, clean(unit.pivot_text))
        for t in translations:
            tuv = _tuv(tu, tag(t.language), t.pages, clean(t.text))
            _prop(tuv, "x-confidence", f"{t.confidence:.2f}", before_seg=True)
            if t.reviewed:
                _prop(tuv, "x-reviewed", "yes", before_seg=True)
    ET.indent(root, space=" ")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n'
            + ET.tostring(root, encoding="unicode") + "\n")


def _prop(parent: ET.Element, kind: str, value: str, before_seg: bool = False) -> None:
    prop = ET.Element("prop", type=kind)
    prop.text = value
    if before_seg:  # a <tuv>'s props come before its <seg>
        parent.insert(len(parent) - 1, prop)
    else:
        parent.append(prop)


def _tuv(tu: ET.Element, lang: str, pages: Sequence[int], text: str) -> ET.Element:
    tuv = ET.SubElement(tu, "tuv", {_XML_LANG: lang})
    if pages:
        _prop(tuv, "x-pages", ",".join(map(str, pages)))
    ET.SubElement(tuv, "seg").text = text
    return tuv
