"""Stage 6, export: aligned units in the formats translators load.

:func:`render` turns a list of :class:`ExportUnit` s into files, named after a
stem (the document id, or ``corpus`` for a corpus export):

========================  ==========================================================
``<stem>.jsonl``          every unit, all languages (:meth:`ExportUnit.to_json`)
``<stem>.tmx``            TMX 1.4b, multilingual: English and every translation
``<stem>.en-<xx>.tmx``    TMX 1.4b for one language pair (CAT tools skip other pairs)
``<stem>.en-<xx>.xlf``    XLIFF 2.0 for one language pair
``<stem>.en-<xx>.tsv``    English, other language, confidence, document, article
========================  ==========================================================

``gazette run`` writes them per document into ``aligned/<doc>/``; ``gazette export``
merges the documents (:func:`corpus`), filters and de-duplicates them.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pipeline.config import EXPORT_FORMATS, PIPELINE_VERSION, REGIONAL_TAGS
from pipeline.export.tabular import tsv, units_jsonl
from pipeline.export.tmx import tmx
from pipeline.export.units import ExportUnit, Selection, Translation, deduplicate, select
from pipeline.export.xliff import xliff
from pipeline.export.xmltext import XmlText

__all__ = [
    "FORMATS",
    "ExportUnit",
    "Rendered",
    "Selection",
    "Translation",
    "corpus",
    "creation_time",
    "dropped_summary",
    "language_tag",
    "read_units",
    "render",
]

#: The export formats, in the order they are written.
FORMATS = EXPORT_FORMATS


@dataclass
class Rendered:
    """The files of one export (name → text) and what had to be left out of them."""

    files: dict[str, str] = field(default_factory=dict)
    #: Characters XML 1.0 cannot carry, removed from the TMX and XLIFF files.
    removed_characters: int = 0


def language_tag(regional: bool) -> Callable[[str], str]:
    """How language codes are written in TMX and XLIFF: ``pt-BR`` or plain ``pt``."""
    return (lambda code: REGIONAL_TAGS.get(code, code)) if regional else (lambda code: code)


def creation_time() -> datetime:
    """The creation date written into TMX headers.

    ``SOURCE_DATE_EPOCH`` (the reproducible-builds convention) fixes it, so that
    exports of the same input are byte-identical; otherwise it is the current time.
    """
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return datetime.fromtimestamp(int(epoch), UTC) if epoch else datetime.now(UTC)


def render(
    units: Sequence[ExportUnit], stem: str, formats: Sequence[str] = FORMATS,
    regional: bool = True, created: datetime | None = None,
) -> Rendered:
    """All files of ``formats`` for ``units``; pair files only for languages present.

    ``regional`` chooses the language tags (:func:`language_tag`); ``created`` the
    TMX creation date (default :func:`creation_time`).
    """
    unknown = set(formats) - set(FORMATS)
    if unknown:
        raise ValueError(f"unknown export format(s): {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(FORMATS)})")
    pivot = units[0].pivot_language if units else "en"
    languages = list(dict.fromkeys(t.language for u in units for t in u.translations))
    created = created or creation_time()
    tag = language_tag(regional)
    clean = XmlText()
    out = Rendered()
    if "jsonl" in formats:
        out.files[f"{stem}.jsonl"] = units_jsonl(units)
    if "tmx" in formats and units:
        out.files[f"{stem}.tmx"] = tmx(units, languages, tag, created, PIPELINE_VERSION,
                                       clean)
    for language in languages:
        pair = f"{stem}.{pivot}-{language}"
        if "tmx" in formats:
            out.files[f"{pair}.tmx"] = tmx(units, [language], tag, created,
                                           PIPELINE_VERSION, clean)
        if "xliff" in formats:
            out.files[f"{pair}.xlf"] = xliff(units, language, tag, clean)
        if "tsv" in formats:
            out.files[f"{pair}.tsv"] = tsv(units, language)
    out.removed_characters = clean.removed
    return out


def read_units(path: Path) -> list[ExportUnit]:
    """The units of one ``<doc>.jsonl`` file."""
    return [ExportUnit.from_json(json.loads(line))
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def corpus(documents: Sequence[list[ExportUnit]], selection: Selection) -> list[ExportUnit]:
    """Merge the units of several documents: filtered, then de-duplicated.

    What was left out is counted in ``selection.dropped``.
    """
    units = select((u for document in documents for u in document), selection)
    return deduplicate(units, selection.dropped)


def dropped_summary(dropped: Counter[str]) -> str:
    """``'12 duplicate, 3 confidence'``, or ``'nothing'``."""
    return ", ".join(f"{n} {reason}" for reason, n in dropped.most_common()) or "nothing"
