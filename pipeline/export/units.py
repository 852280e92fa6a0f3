"""The unit of every export: one English sentence group with its translations.

An :class:`ExportUnit` joins the sentence pairs of all languages that cover the
same English sentences of one article (so a protocol aligned to Portuguese and
Swedish gives units with three texts), and carries what a translator needs to
judge it: document, decree number, article, source pages and, per language, the
aligner's confidence and whether the pair was flagged. ``aligned/<doc>/units.jsonl``
holds them, one JSON object per line; every export format is made from them.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from pipeline.records import Article, ArticlePair, CleanedDocument, SentencePair

__all__ = [
    "ExportUnit",
    "Selection",
    "Translation",
    "article_records",
    "deduplicate",
    "select",
    "unit_key",
    "units_of",
]


@dataclass(frozen=True)
class Translation:
    """One language's side of a unit."""

    language: str
    text: str
    confidence: float
    flagged: bool
    pages: tuple[int, ...] = ()
    #: The pair was confirmed or corrected by a reviewer (see :mod:`pipeline.project.decisions`).
    reviewed: bool = False


@dataclass(frozen=True)
class ExportUnit:
    """English sentences of one article and their translations (a ``<tu>`` in TMX)."""

    doc: str
    article: str
    #: 0-based sentence indices of the English side within the article.
    pivot_ids: tuple[int, ...]
    pivot_language: str
    pivot_text: str
    translations: tuple[Translation, ...]
    pivot_pages: tuple[int, ...] = ()
    decree: str | None = None

    @property
    def unit_id(self) -> str:
        """A stable id, unique in the corpus: ``<doc>:<article>:<first>-<last>``."""
        return f"{self.doc}:{self.article}:{self.pivot_ids[0]}-{self.pivot_ids[-1]}"

    @property
    def confidence(self) -> float:
        """The lowest confidence of its translations (a unit is as good as its worst pair)."""
        return min((t.confidence for t in self.translations), default=0.0)

    @property
    def flagged(self) -> bool:
        """True if any of its pairs was flagged for review."""
        return any(t.flagged for t in self.translations)

    def to_json(self) -> dict[str, Any]:
        """The unit as one line of ``units.jsonl``."""
        record = asdict(self)
        record["pivot_ids"] = list(self.pivot_ids)
        record["pivot_pages"] = list(self.pivot_pages)
        record["translations"] = [asdict(t) | {"pages": list(t.pages)}
                                  for t in self.translations]
        return record

    @classmethod
    def from_json(cls, record: dict[str, Any]) -> ExportUnit:
        """The inverse of :meth:`to_json`."""
        return cls(
            doc=record["doc"], article=record["article"],
            pivot_ids=tuple(record["pivot_ids"]), pivot_language=record["pivot_language"],
            pivot_text=record["pivot_text"], pivot_pages=tuple(record["pivot_pages"]),
            decree=record.get("decree"),
            translations=tuple(
                Translation(language=t["language"], text=t["text"],
                            confidence=t["confidence"], flagged=t["flagged"],
                            pages=tuple(t["pages"]), reviewed=t.get("reviewed", False))
                for t in record["translations"]),
        )


def units_of(
    doc_id: str, sentences: dict[str, list[SentencePair]],
    articles: dict[str, list[Article]], cleaned: CleanedDocument | None, pivot: str,
    decree: str | None = None,
) -> list[ExportUnit]:
    """Join the matched sentence pairs of every language into units, in document order.

    Pairs of different languages join when they cover exactly the same English
    sentences of the same article; sentences left without counterpart are not units.
    Source pages come from ``cleaned`` (without it, units have no pages).
    """
    def pages(language: str, key: str, ids: tuple[int, ...]) -> tuple[int, ...]:
        if cleaned is None:
            return ()
        article = by_key[language, key]
        return tuple(sorted({cleaned.page_at(article.sentences[i][0]) for i in ids}))

    by_key = {(a.language, a.key): a for language_articles in articles.values()
              for a in language_articles if a.level == 1}
    grouped: dict[tuple[str, tuple[int, ...]], list[SentencePair]] = {}
    for language_pairs in sentences.values():
        for pair in language_pairs:
            if pair.matched:
                grouped.setdefault((pair.article, pair.pivot_ids), []).append(pair)
    order = {a.key: n for n, a in enumerate(a for a in articles.get(pivot, []) if a.level == 1)}
    units = [
        ExportUnit(
            doc=doc_id, article=article, pivot_ids=pivot_ids, pivot_language=pivot,
            pivot_text=pairs[0].pivot_text, decree=decree,
            pivot_pages=pages(pivot, article, pivot_ids),
            translations=tuple(
                Translation(language=p.language, text=p.text, confidence=p.confidence,
                            flagged=p.flagged, pages=pages(p.language, article, p.ids),
                            reviewed=p.reviewed)
                for p in pairs),
        )
        for (article, pivot_ids), pairs in grouped.items()
    ]
    return sorted(units, key=lambda u: (order.get(u.article, len(order)), u.pivot_ids))


@dataclass(frozen=True)
class Selection:
    """Which units and translations an export keeps.

    ``None`` for languages or documents means all of them.
    """

    languages: tuple[str, ...] | None = None
    documents: tuple[str, ...] | None = None
    min_confidence: float = 0.0
    include_flagged: bool = True
    #: Keep only pairs a reviewer confirmed or corrected.
    reviewed_only: bool = False
    #: What was left out and why (filled in by :func:`select` and :func:`deduplicate`).
    dropped: Counter[str] = field(default_factory=Counter, compare=False)

    @classmethod
    def of(cls, languages: Sequence[str] | None = None, documents: Sequence[str] | None = None,
           min_confidence: float = 0.0, exclude_flagged: bool = False,
           reviewed_only: bool = False) -> Selection:
        """A selection from command-line style options (empty lists mean all)."""
        return cls(languages=tuple(languages) if languages else None,
                   documents=tuple(documents) if documents else None,
                   min_confidence=min_confidence, include_flagged=not exclude_flagged,
                   reviewed_only=reviewed_only)


def select(units: Iterable[ExportUnit], selection: Selection) -> list[ExportUnit]:
    """Keep the units and translations ``selection`` asks for; count the rest.

    A unit whose translations are all filtered out is dropped; ``selection.dropped``
    counts dropped translations by reason (``language``, ``confidence``, ``flagged``,
    ``not reviewed``) and dropped units (``document``, ``no translation left``).

    >>> fr = Translation("fr", "Bonjour.", 0.4, True)
    >>> pt = Translation("pt", "Olá.", 0.9, False)
    >>> unit = ExportUnit("d", "1", (0,), "en", "Hello.", (fr, pt))
    >>> s = Selection(min_confidence=0.5)
    >>> [t.language for u in select([unit], s) for t in u.translations], dict(s.dropped)
    (['pt'], {'confidence': 1})
    """
    kept = []
    for unit in units:
        if selection.documents is not None and unit.doc not in selection.documents:
            selection.dropped["document"] += 1
            continue
        translations = []
        for t in unit.translations:
            if selection.languages is not None and t.language not in selection.languages:
                selection.dropped["language"] += 1
            elif t.confidence < selection.min_confidence:
                selection.dropped["confidence"] += 1
            elif t.flagged and not selection.include_flagged:
                selection.dropped["flagged"] += 1
            elif selection.reviewed_only and not t.reviewed:
                selection.dropped["not reviewed"] += 1
            else:
                translations.append(t)
        if translations:
            kept.append(replace(unit, translations=tuple(translations)))
        else:
            selection.dropped["no translation left"] += 1
    return kept


def unit_key(unit: ExportUnit) -> str:
    """What makes a unit the same in a later export: its document, article and texts
    (a unit whose text or translations changed is new).

    >>> u = ExportUnit("d", "1", (0,), "en", "Scope.", (Translation("pt", "Âmbito.", .9, False),))
    >>> unit_key(u) == unit_key(replace(u, pivot_ids=(3,))), unit_key(u) == unit_key(
    ...     replace(u, pivot_text="Scope"))
    (True, False)
    """
    text = "\0".join((unit.doc, unit.article, *_texts(unit)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]


def _texts(unit: ExportUnit) -> tuple[str, ...]:
    """A unit's texts: English, then each translation with its language, in order."""
    return (unit.pivot_text, *sorted(f"{t.language}\0{t.text}" for t in unit.translations))


def deduplicate(units: Iterable[ExportUnit], dropped: Counter[str]) -> list[ExportUnit]:
    """Keep the first of units with the same texts in every language; count the others.

    Treaties repeat boilerplate ("Done in duplicate…"); a translation memory needs it once.
    """
    seen: set[tuple[str, ...]] = set()
    kept = []
    for unit in units:
        key = _texts(unit)
        if key in seen:
            dropped["duplicate"] += 1
        else:
            seen.add(key)
            kept.append(unit)
    return kept


def article_records(doc_id: str, pairs: dict[str, list[ArticlePair]]) -> list[dict[str, Any]]:
    """One JSON object per article pair (the lines of ``aligned/<doc>/articles.jsonl``)."""
    return [
        {
            "doc": doc_id,
            "article": pair.key,
            "pivot_language": pair.pivot.language,
            "language": language,
            "pivot_heading": pair.pivot.heading,
            "heading": pair.other.heading,
            "pivot_text": pair.pivot.text,
            "text": pair.other.text,
        }
        for language, language_pairs in pairs.items()
        for pair in language_pairs
    ]
