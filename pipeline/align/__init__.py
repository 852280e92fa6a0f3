"""Stage 5, align: pair the pivot (English) text with each other language.

Two levels. Articles are paired by their normalized numbers: article ``XI`` of the
Portuguese text with article ``11`` of the English one, preamble with preamble,
final clauses with final clauses. Inside each article pair the sentences are
aligned by :func:`pipeline.align.core.align` (embeddings + dynamic program), giving
:class:`~pipeline.records.SentencePair` s with a confidence; those below
``flag_below`` are flagged for review. Every language is aligned to English;
:func:`pipeline.export.units.units_of` joins the pairs that share English sentences.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pipeline.align.core import AlignParams, Bead, align
from pipeline.project.decisions import Review, anchors
from pipeline.records import Article, ArticlePair, SentencePair
from pipeline.split.structure import sentence_texts

__all__ = ["align_around", "align_sentences", "pair_articles"]

Embed = Callable[[list[str]], np.ndarray]


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


def align_sentences(
    pairs: dict[str, list[ArticlePair]], embed: Embed,
    params: AlignParams | None = None, flag_below: float = 0.5, second_pass: bool = False,
    review: Review | None = None,
) -> dict[str, list[SentencePair]]:
    """Align the sentences of every article pair, keeping the pairs a ``review`` fixed
    and never giving one it rejected (see :func:`align_around`).

    All sentences of the document are embedded in one call (the encoder batches and
    caches them); with ``second_pass`` the aligner also embeds merged neighbours.
    """
    every = [s for language_pairs in pairs.values() for pair in language_pairs
             for article in (pair.pivot, pair.other) for s in sentence_texts(article)]
    vectors = dict(zip(every, embed(every), strict=True)) if every else {}
    result: dict[str, list[SentencePair]] = {}
    for language, language_pairs in pairs.items():
        found = result.setdefault(language, [])
        for pair in language_pairs:
            src, tgt = sentence_texts(pair.pivot), sentence_texts(pair.other)
            src_vecs = np.array([vectors[s] for s in src]).reshape(len(src), -1)
            tgt_vecs = np.array([vectors[s] for s in tgt]).reshape(len(tgt), -1)
            fixed, rejected = (anchors(review, pair.key, language, src, tgt) if review
                               else ([], set()))
            for bead, reviewed in align_around(src, tgt, src_vecs, tgt_vecs, fixed, rejected,
                                               params, embed if second_pass else None):
                found.append(SentencePair(
                    article=pair.key, language=language, pivot_ids=bead.src, ids=bead.tgt,
                    pivot_text=" ".join(src[i] for i in bead.src),
                    text=" ".join(tgt[j] for j in bead.tgt),
                    confidence=bead.confidence,
                    flagged=bead.confidence < flag_below and not reviewed,
                    reviewed=reviewed))
    return result


Ids = tuple[int, ...]


def align_around(
    src: list[str], tgt: list[str], src_vecs: np.ndarray, tgt_vecs: np.ndarray,
    fixed: list[tuple[Ids, Ids]], rejected: set[tuple[Ids, Ids]],
    params: AlignParams | None = None, embed: Embed | None = None,
) -> list[tuple[Bead, bool]]:
    """Align two sentence lists around ``fixed`` beads (in order, not crossing): each
    stretch between them is aligned on its own and the fixed beads are kept as they
    are (confidence 1); a bead of ``rejected`` the aligner gives is undone into its
    sentences left without counterpart. Each bead comes with whether a review made it.

    >>> vecs = np.eye(3)
    >>> [(b.src, b.tgt, r) for b, r in align_around(["a", "b", "c"], ["x", "y", "z"],
    ...     vecs, vecs, [((1,), (1, 2))], {((0,), (0,))})]
    [((0,), (), True), ((), (0,), True), ((1,), (1, 2), True), ((2,), (), False)]
    """
    beads: list[tuple[Bead, bool]] = []
    i = j = 0
    for src_ids, tgt_ids in [*fixed, ((len(src),), (len(tgt),))]:
        for bead in align(src[i:src_ids[0]], tgt[j:tgt_ids[0]], src_vecs[i:src_ids[0]],
                          tgt_vecs[j:tgt_ids[0]], params, embed):
            moved = Bead(tuple(k + i for k in bead.src), tuple(k + j for k in bead.tgt),
                         bead.confidence)
            if (moved.src, moved.tgt) in rejected:
                beads += [(Bead(moved.src, (), 0.0), True), (Bead((), moved.tgt, 0.0), True)]
            else:
                beads.append((moved, False))
        if src_ids[0] < len(src):
            beads.append((Bead(src_ids, tgt_ids, 1.0), True))
        i, j = src_ids[-1] + 1, tgt_ids[-1] + 1
    return beads
