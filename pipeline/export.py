"""Stage 6, export: write aligned pairs in formats translators load.

At this stage: one TSV per language pair (``en-pt.tsv``: English, other language,
confidence, document, article; the LF Aligner habit), with only the pairs that
have text on both sides, and the JSON Lines records behind them.
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.records import ArticlePair, SentencePair

__all__ = ["article_records", "sentence_tsv", "tsv_field"]

_WHITESPACE = re.compile(r"\s+")


def tsv_field(text: str) -> str:
    r"""Make ``text`` one TSV field: tabs, line breaks and runs of spaces become one space.

    >>> tsv_field("ARTIGO 1\n\tO presente  Acordo")
    'ARTIGO 1 O presente Acordo'
    """
    return _WHITESPACE.sub(" ", text).strip()


def sentence_tsv(pairs: list[SentencePair], doc_id: str, pivot: str, language: str) -> str:
    r"""A TSV with a header line and one row per sentence pair with text on both sides.

    >>> p = SentencePair("1", "pt", (0,), (0,), "Scope.", "Âmbito.", 0.91, False)
    >>> [line.split("\t") for line in sentence_tsv([p], "d", "en", "pt").splitlines()]
    [['en', 'pt', 'confidence', 'document', 'article'], ['Scope.', 'Âmbito.', '0.91', 'd', '1']]
    """
    lines = [f"{pivot}\t{language}\tconfidence\tdocument\tarticle"]
    lines += [f"{tsv_field(p.pivot_text)}\t{tsv_field(p.text)}\t{p.confidence:.2f}\t"
              f"{doc_id}\t{p.article}"
              for p in pairs if p.matched]
    return "\n".join(lines) + "\n"


def article_records(doc_id: str, pairs: dict[str, list[ArticlePair]]) -> list[dict[str, Any]]:
    """One JSON object per article pair (the lines of ``articles.jsonl``)."""
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
