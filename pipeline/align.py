"""Stage 5, align: pair the pivot (English) text with each other language.

At this stage articles are paired by their normalized numbers: article ``XI`` of the
Portuguese text with article ``11`` of the English one, preamble with preamble.
"""

from __future__ import annotations

import logging

from pipeline.records import Article, ArticlePair, Section
from pipeline.structure import articles_of

__all__ = ["articles_by_language", "pair_articles"]

log = logging.getLogger(__name__)


def articles_by_language(sections: list[Section]) -> dict[str, list[Article]]:
    """The articles of each language, from all its sections, first occurrence of a key kept."""
    result: dict[str, list[Article]] = {}
    for section in sections:
        if section.language in ("other", "unreadable"):
            continue
        seen = {article.key for article in result.get(section.language, [])}
        for article in articles_of(section):
            if article.key in seen:
                log.info("%s article %s appears again in a later section; the first is kept",
                         section.language, article.key)
                continue
            seen.add(article.key)
            result.setdefault(section.language, []).append(article)
    return result


def pair_articles(
    articles: dict[str, list[Article]], pivot: str
) -> dict[str, list[ArticlePair]]:
    """Pair each language's articles with the pivot language's, by article key.

    Returns one list per other language, in the pivot's article order; a language
    with no article in common with the pivot gets an empty list. Without pivot
    articles there is nothing to pair and the result is empty.

    >>> en = [Article("en", "1", "1", "ARTICLE 1", "ARTICLE 1 Scope")]
    >>> pt = [Article("pt", "I", "1", "ARTIGO I", "ARTIGO I Âmbito")]
    >>> [(p.key, p.other.heading) for p in pair_articles({"en": en, "pt": pt}, "en")["pt"]]
    [('1', 'ARTIGO I')]
    """
    pivot_articles = articles.get(pivot, [])
    if not pivot_articles:
        return {}
    pairs = {}
    for language, others in articles.items():
        if language == pivot:
            continue
        by_key = {article.key: article for article in others}
        pairs[language] = [
            ArticlePair(key=article.key, pivot=article, other=by_key[article.key])
            for article in pivot_articles if article.key in by_key
        ]
    return pairs
