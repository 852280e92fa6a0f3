"""Checks of exported files shared by the export tests: DTD, XLIFF rules, real readers."""

from __future__ import annotations

from pathlib import Path

from lxml import etree
from translate.storage.tmx import tmxfile
from translate.storage.xliff2 import Xliff2File

DTD = etree.DTD(str(Path(__file__).parent / "data" / "tmx14.dtd"))
XLIFF = "{urn:oasis:names:tc:xliff:document:2.0}"
STATES = {"initial", "translated", "reviewed", "final"}


def validate_tmx(text: str) -> etree._Element:
    """Parse a TMX document strictly and validate it against the TMX 1.4b DTD."""
    root = etree.fromstring(text.encode("utf-8"))
    assert DTD.validate(root), DTD.error_log.filter_from_errors()
    return root


def check_xliff(text: str) -> etree._Element:
    """Parse an XLIFF 2.0 document and check the core rules its schema states."""
    root = etree.fromstring(text.encode("utf-8"))
    assert root.tag == f"{XLIFF}xliff" and root.get("version") == "2.0"
    assert root.get("srcLang") and root.get("trgLang")
    files = root.findall(f"{XLIFF}file")
    assert files and len({f.get("id") for f in files}) == len(files)
    for file in files:
        units = file.findall(f"{XLIFF}unit")
        assert units and len({u.get("id") for u in units}) == len(units)
        for unit in units:
            assert [child.tag for child in unit][-1] == f"{XLIFF}segment"
            for segment in unit.findall(f"{XLIFF}segment"):
                assert segment.get("state") in STATES
                sub = segment.get("subState")
                assert sub is None or (":" in sub and segment.get("state"))
                assert [c.tag for c in segment] == [f"{XLIFF}source", f"{XLIFF}target"]
    return root


def read_tmx(text: str, target: str) -> list[tuple[str, str]]:
    """(source, target) of every unit, as translate-toolkit's TMX reader sees them."""
    store = tmxfile.parsestring(text.encode("utf-8"), sourcelanguage="en",
                                targetlanguage=target)
    return [(unit.source, unit.target) for unit in store.units]


def read_xliff(text: str) -> list[tuple[str, str]]:
    """(source, target) of every segment, as translate-toolkit's XLIFF 2.0 reader sees them."""
    store = Xliff2File.parsestring(text.encode("utf-8"))
    return [(unit.source, unit.target) for unit in store.units]
