"""Plain-text exports: TSV per language pair (the LF Aligner habit) and JSON Lines."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.export.units import ExportUnit
from pipeline.project.store import jsonl

__all__ = ["tsv", "tsv_field", "units_jsonl"]

_WHITESPACE = re.compile(r"\s+")


def tsv_field(text: str) -> str:
    r"""Make ``text`` one TSV field: tabs, line breaks and runs of spaces become one space.

    >>> tsv_field("ARTIGO 1\n\tO presente  Acordo")
    'ARTIGO 1 O presente Acordo'
    """
    return _WHITESPACE.sub(" ", text).strip()


def tsv(units: Sequence[ExportUnit], language: str) -> str:
    r"""A TSV with a header line and one row per unit that has a ``language`` translation.

    Columns: English, the other language, confidence, document, article, and
    ``reviewed`` (``yes`` for a pair a reviewer confirmed or corrected).

    >>> from pipeline.export.units import Translation
    >>> u = ExportUnit("d", "1", (0,), "en", "Scope.", (Translation("pt", "Âmbito.", .91, False),))
    >>> for line in tsv([u], "pt").splitlines():
    ...     print(line.split("\t"))
    ['en', 'pt', 'confidence', 'document', 'article', 'reviewed']
    ['Scope.', 'Âmbito.', '0.91', 'd', '1', '']
    """
    pivot = units[0].pivot_language if units else "en"
    lines = [f"{pivot}\t{language}\tconfidence\tdocument\tarticle\treviewed"]
    lines += [f"{tsv_field(unit.pivot_text)}\t{tsv_field(t.text)}\t{t.confidence:.2f}\t"
              f"{tsv_field(unit.doc)}\t{tsv_field(unit.article)}\t{'yes' if t.reviewed else ''}"
              for unit in units for t in unit.translations if t.language == language]
    return "\n".join(lines) + "\n"


def units_jsonl(units: Sequence[ExportUnit]) -> str:
    """The units as JSON Lines, one :meth:`ExportUnit.to_json` object per line."""
    return jsonl(unit.to_json() for unit in units)
