"""Stage 6, export: write aligned pairs in formats translators load.

At this stage: one TSV per language pair (``en-pt.tsv``: article, English text,
other text; the LF Aligner habit) and the JSON Lines records behind them.
"""

from __future__ import annotations

import re
from typing import Any

from pipeline.records import ArticlePair

__all__ = ["pair_records", "pairs_tsv", "tsv_field"]

_WHITESPACE = re.compile(r"\s+")


def tsv_field(text: str) -> str:
    """Make ``text`` one TSV field: tabs, line breaks and runs of spaces become one space.

    >>> tsv_field("ARTIGO 1\\n\\tO presente  Acordo")
    'ARTIGO 1 O presente Acordo'
    """
    return _WHITESPACE.sub(" ", text).strip()


def pairs_tsv(pairs: list[ArticlePair], pivot: str, language: str) -> str:
    r"""A TSV with a header line and one row per article pair.

    >>> from pipeline.records import Article
    >>> a = ArticlePair("1", Article("en", "1", "1", "ARTICLE 1", "ARTICLE 1 Scope"),
    ...                 Article("pt", "1", "1", "ARTIGO 1", "ARTIGO 1 Âmbito"))
    >>> [line.split("\t") for line in pairs_tsv([a], "en", "pt").splitlines()]
    [['article', 'en', 'pt'], ['1', 'ARTICLE 1 Scope', 'ARTIGO 1 Âmbito']]
    """
    lines = [f"article\t{pivot}\t{language}"]
    lines += [f"{pair.key}\t{tsv_field(pair.pivot.text)}\t{tsv_field(pair.other.text)}"
              for pair in pairs]
    return "\n".join(lines) + "\n"


def pair_records(doc_id: str, pairs: dict[str, list[ArticlePair]]) -> list[dict[str, Any]]:
    """One JSON object per article pair (the lines of ``pairs.jsonl``)."""
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
