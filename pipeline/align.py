"""Stage 5, align: pair the pivot (English) text with each other language.

At this stage articles are paired by their normalized numbers: article ``XI`` of the
Portuguese text with article ``11`` of the English one, preamble with preamble,
final clauses with final clauses.
"""

from __future__ import annotations

import logging

from pipeline.records import Article, ArticlePair

__all__ = ["pair_articles"]

log = logging.getLogger(__name__)


def pair_articles(
    articles: dict[str, list[Article]], pivot: str
) -> dict[str, list[ArticlePair]]:
    """Pair each language's top-level articles with the pivot language's, by key.

    Nested (quoted) articles travel inside their parents and are not paired apart.

    Returns one list per other language, in the pivot's article order; a language
    with no article in common with the pivot gets an empty list. Without pivot
    articles there is nothing to pair and the result is empty.

    >>> en = [Article("en", "1", "1", "ARTICLE 1", "ARTICLE 1 Scope")]
    >>> pt = [Article("pt", "I", "1", "ARTIGO I", "ARTIGO I Âmbito")]
    >>> [(p.key, p.other.heading) for p in pair_articles({"en": en, "pt": pt}, "en")["pt"]]
    [('1', 'ARTIGO I')]
    """
    pivot_articles = [a for a in articles.get(pivot, []) if a.level == 1]
    if not pivot_articles:
        return {}
    pairs = {}
    for language, others in articles.items():
        if language == pivot:
            continue
        by_key = {article.key: article for article in others if article.level == 1}
        pairs[language] = [
            ArticlePair(key=article.key, pivot=article, other=by_key[article.key])
            for article in pivot_articles if article.key in by_key
        ]
    return pairs
