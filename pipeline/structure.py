"""Stage 4, structure: cut each language section into the treaty's articles.

Article headings (``ARTIGO 1``, ``Article 1``, ``ARTIKEL 1``, ``अनुच्छेद 1``) are
found anywhere in a section, also inline in a run-on paragraph as OCR leaves them.
A heading opens a top-level article only if its number continues the sequence
(1, 2, 3, ...): that keeps out references such as "Article 9 of the Convention"
and the articles an amending protocol quotes. Where a section has capitalised
headings (``ARTIGO``), only those count. Text before the first article is kept
as the ``preamble``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.records import Article, Section

__all__ = ["PREAMBLE", "articles_of", "find_headings", "normalize_number"]

#: Key of the text before the first article (title and preamble).
PREAMBLE = "preamble"

_HEADING = re.compile(
    r"""(?<![\w"“'‘])                      # not inside a word or right after a quote
    (?P<word>ARTIGO|Artigo|ARTICLE|Article|ARTIKEL|Artikel|अनुच्छेद)
    \s+(?P<number>\d+(?:-?[A-Z](?![a-z]))?|[IVXLC]+\b)
    (?:\s*\.?\s*[oº°](?!\w))?               # "Artigo 1.o", "Artigo 1º"
    """,
    re.VERBOSE,
)
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def normalize_number(number: str) -> str:
    """Normalize an article number: roman to arabic, suffix letters kept, dashes dropped.

    >>> [normalize_number(n) for n in ("XI", "26-A", "26A", "4", "XXIV")]
    ['11', '26A', '26A', '4', '24']
    """
    number = number.replace("-", "").strip()
    if number and all(ch in _ROMAN for ch in number):
        values = [_ROMAN[ch] for ch in number]
        total = sum(-v if v < nxt else v for v, nxt in zip(values, [*values[1:], 0],
                                                            strict=True))
        return str(total)
    return number


@dataclass(frozen=True)
class _Heading:
    start: int
    end: int
    number: str
    key: str
    capitalised: bool


def find_headings(text: str) -> list[_Heading]:
    """All article headings in ``text`` that open a top-level article, in order.

    >>> t = "ARTIGO 1 O Artigo 9 da Convenção será excluído. ARTIGO 2 Texto. ARTIGO 3 Fim."
    >>> [h.number for h in find_headings(t)]
    ['1', '2', '3']
    """
    candidates = [
        _Heading(m.start(), m.end(), m.group("number"), normalize_number(m.group("number")),
                 m.group("word").isupper())
        for m in _HEADING.finditer(text)
    ]
    if any(h.capitalised for h in candidates):
        candidates = [h for h in candidates if h.capitalised]
    accepted: list[_Heading] = []
    expected = 1
    for heading in candidates:
        digits = re.match(r"\d+", heading.key)
        if not digits:
            continue
        value, suffixed = int(digits.group()), heading.key != digits.group()
        if value == expected and not suffixed:
            accepted.append(heading)
            expected += 1
        elif value == expected - 1 and suffixed and accepted:
            accepted.append(heading)  # 26A after 26
    return accepted


def articles_of(section: Section) -> list[Article]:
    """The preamble and articles of one language section."""
    text = section.text
    headings = find_headings(text)
    articles = []
    first = headings[0].start if headings else len(text)
    if text[:first].strip():
        articles.append(Article(language=section.language, number="", key=PREAMBLE,
                                heading="", text=text[:first].strip()))
    for index, heading in enumerate(headings):
        end = headings[index + 1].start if index + 1 < len(headings) else len(text)
        articles.append(Article(
            language=section.language, number=heading.number, key=heading.key,
            heading=text[heading.start:heading.end], text=text[heading.start:end].strip(),
        ))
    return articles
