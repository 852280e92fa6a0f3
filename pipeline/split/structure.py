"""Stage 4, structure: cut each language section into the treaty's own units.

A section becomes its *preamble* (title and recitals, before article 1), its
*articles*, and its *final* clauses (from "In witness whereof" / "Em testemunho do
que" / "Till bekräftelse härav": signatures and place of signing). Inside each
article, numbered paragraphs (``1.``) and items (``a)``, ``(ii)``) are units, and
the text is cut into sentences.

Article headings (``ARTIGO 1``, ``Artigo 1.o``, ``Article 1``, ``ARTIKEL 1``,
``अनुच्छेद 1``, roman numerals, ``26-A``) are found anywhere, also inline in
run-on OCR text. A heading opens a top-level article only if its number continues
the sequence (a gap of up to ``max_gap`` numbers is tolerated, for headings OCR
destroyed); this keeps out references ("Article 9 of the Convention"). Where a
section has capitalised headings, only those open articles. A capitalised heading
right after an opening quote is an article *quoted* by an amending protocol: it
becomes a level-2 article nested in the protocol article that quotes it.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace
from typing import Any

from pipeline.editions.acts import heading_kind
from pipeline.records import Article, Section, Unit
from pipeline.split.sentences import segment_text, split_sentences
from pipeline.text.lines import ANNEX_LINE

log = logging.getLogger(__name__)

__all__ = [
    "ACT",
    "FINAL",
    "PREAMBLE",
    "articles_of",
    "decree_number",
    "find_headings",
    "normalize_number",
    "sentence_texts",
    "spans_of",
    "structure_json",
    "structure_of",
]

#: Keys of the text before the first article and of the closing formula.
PREAMBLE = "preamble"
FINAL = "final"
#: Key of the text of an act that prints another as its annex (a decree promulgating a
#: treaty), before the annex: the act's own title, articles and signatures.
ACT = "act"

_HEADING = re.compile(
    r"""(?P<quote>(?:(?<=[\s:(])|^)["“'‘])?   # an opening quote right before it
    (?<![\w])                                # not inside a word
    (?P<word>ARTIGO|Artigo|ARTICLE|Article|ARTIKEL|Artikel|अनुच्छेद)
    \s+(?P<number>\d+(?:-?[A-Z](?![a-z]))?|[IVXLC]+\b)
    (?:\s*\.?\s*[oº°](?!\w)|\.0(?![\d,.]))?   # "Artigo 1.o", "Artigo 1º"; "1.0" as OCR reads it
    """,
    re.VERBOSE,
)
_FINAL = re.compile(
    r"\b(?:In witness whereof|IN WITNESS WHEREOF|Em testemunho do que|EM TESTEMUNHO DO QUE|"
    r"Till bekräftelse härav|TILL BEKRÄFTELSE HÄRAV|जिसके साक्ष्य में)"
)
_UNIT = re.compile(
    r"""(?:(?<=^)|(?<=[\s.:;"“]))
    (?P<label>\d{1,2}\.(?=\s+["“(]?[A-ZÀ-ÖØ-Þ\u0900-\u097f])   # 1. A presente...
    |\(?[a-z]\)(?=\s)                                         # a) or (a)
    |\([ivx]+\)(?=\s))                                        # (ii)
    """,
    re.VERBOSE,
)
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_DEVANAGARI_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")


def normalize_number(number: str) -> str:
    """Normalize an article number: roman to arabic, suffix letters kept, dashes dropped.

    >>> [normalize_number(n) for n in ("XI", "26-A", "26A", "4", "XXIV", "१२")]
    ['11', '26A', '26A', '4', '24', '12']
    """
    number = number.replace("-", "").strip().translate(_DEVANAGARI_DIGITS)
    if number and all(ch in _ROMAN for ch in number):
        values = [_ROMAN[ch] for ch in number]
        total = sum(-v if v < nxt else v
                    for v, nxt in zip(values, [*values[1:], 0], strict=True))
        return str(total)
    return number


@dataclass(frozen=True)
class Heading:
    """An article heading found in a text."""

    start: int
    end: int
    number: str
    key: str
    capitalised: bool
    quoted: bool
    #: Nothing but white space before it on its line.
    line_start: bool = False
    #: An article heading, or the number of a numbered paragraph (a text that has no
    #: article headings: its paragraphs are its articles, keyed ``p1``, ``p2``, …).
    paragraph: bool = False


def _candidates(text: str) -> list[Heading]:
    """The article headings of ``text``, references to articles left out."""
    return [
        Heading(start=m.start("word"), end=m.end(), number=m.group("number"),
                key=normalize_number(m.group("number")), capitalised=m.group("word").isupper(),
                quoted=m.group("quote") is not None,
                line_start=not text[text.rfind("\n", 0, m.start()) + 1:m.start()].strip())
        for m in _HEADING.finditer(text)
        if m.group("word").isupper() or not _REFERENCE.match(text, m.end())
    ]


#: What follows an article's number where a sentence refers to it rather than a heading
#: opening it: on the same line, after its paragraph (``(2)``), a word in lower case or
#: a comma (``Article 1(2) of the Convention``, ``Article 9 shall be deleted``,
#: ``Articles 3, 4``). Headings in capitals are never references.
_REFERENCE = re.compile(r"(?:[ \t]*\([0-9a-z]{1,3}\))*[ \t]*(?:[a-zà-ÿ]|[,;])")


def find_headings(text: str, max_gap: int = 2) -> list[Heading]:
    """The headings in ``text`` that open top-level articles, in order.

    The document's own articles are the longest chain of headings whose numbers go
    up by one; a step over up to ``max_gap`` missing numbers (headings OCR destroyed)
    costs half a heading. References to other articles ("Article 10 of the
    Convention") do not fit the chain and are left out. A heading starts its line
    where the text has lines: when the headings at the start of a line make a chain
    nearly as long (all but one) as all headings do, a reference inside a sentence
    (``established pursuant to Article 4 and``) is never taken for one.

    >>> t = "ARTIGO 1 O Artigo 9 da Convenção será excluído. ARTIGO 2 Texto. ARTIGO 3 Fim."
    >>> [h.number for h in find_headings(t)]
    ['1', '2', '3']
    >>> [h.number for h in find_headings("ARTICLE 1 a ARTICLE 3 b ARTICLE 4 c")]  # 2 lost
    ['1', '3', '4']
    >>> t = "Article 1 A. Article 2 Paragraph 3 of Article 4 is deleted. Article 3 B. Article 4"
    >>> [h.number for h in find_headings(t)]
    ['1', '2', '3', '4']
    >>> t = ("Article 1\\nA body.\\nArticle 2\\nIt is set up\\nunder Article 3 and meets.\\n"
    ...      "Article 3\\nIt decides.\\nArticle 4\\nIn force.")
    >>> [(h.number, h.start) for h in find_headings(t)]
    [('1', 0), ('2', 18), ('3', 68), ('4', 90)]
    >>> t = "Whereas:\\nArticle 1(2) of the Convention provides.\\nArticle 1\\nA.\\nArticle 2\\nB."
    >>> [(h.number, h.start) for h in find_headings(t)]
    [('1', 50), ('2', 63)]
    >>> t = "Article 1\\nIt is adopted.\\nArticle 2\\nIn force.\\nLIST PROVIDED FOR IN ARTICLE 94"
    >>> [h.number for h in find_headings(t)]
    ['1', '2']
    """
    candidates = [h for h in _candidates(text) if not h.quoted]
    capitalised = [h for h in candidates if h.capitalised]
    if _chain(capitalised, max_gap):  # a title's "ARTICLE 94 OF THE AGREEMENT" opens none
        candidates = capitalised
    chain = _chain(candidates, max_gap)
    at_line_start = _chain([h for h in candidates if h.line_start], max_gap)
    if len(at_line_start) >= max(2, len(chain) - 1):
        return at_line_start
    if chain:
        return chain
    paragraphs = _chain(_paragraphs(text), max_gap)
    return [replace(h, key=f"p{h.key}") for h in paragraphs] if len(paragraphs) >= 2 else []


#: A numbered paragraph opening a line (``1. Short title and commencement.—``,
#: ``२. संक्षिप्त नाम``): the structure of a text that has no article headings.
_PARAGRAPH = re.compile(
    r"^[ \t]*[\"“]?(?P<number>\d{1,3}|[०-९]{1,3})\.(?=[ \t]+[\"“(]?[A-ZÀ-Þ\u0900-\u097f])",
    re.MULTILINE)


def _paragraphs(text: str) -> list[Heading]:
    """The numbered paragraphs that open lines, as headings keyed by their number.

    >>> [(h.number, h.key) for h in _paragraphs("S.O. 1(E).—Whereas\\n1. Short title.—(1) "
    ...     "These rules.\\n2. Definitions.—In these rules\\n२. परिभाषाएं")]
    [('1.', '1'), ('2.', '2'), ('२.', '2')]
    """
    return [Heading(start=m.start("number"), end=m.end(), number=m.group().strip(" \t\"“"),
                    key=normalize_number(m.group("number")), capitalised=False,
                    quoted=False, line_start=True, paragraph=True)
            for m in _PARAGRAPH.finditer(text)]


def _chain(candidates: list[Heading], max_gap: int) -> list[Heading]:
    """The longest chain of ``candidates`` whose numbers go up by one (see
    :func:`find_headings`)."""
    numbered: list[tuple[Heading, int, bool]] = []
    for heading in candidates:
        value, suffixed = _value(heading.key)
        if value is not None:
            numbered.append((heading, value, suffixed))
    # best[i]: score of the best chain ending at candidate i, and its predecessor
    best: list[tuple[float, int | None]] = []
    for i, (_, value, suffixed) in enumerate(numbered):
        score: float = float("-inf")
        previous = None
        if not suffixed and value <= 1 + max_gap:
            score = 1 - 0.5 * (value - 1)
        for j in range(i):
            _, before, _ = numbered[j]
            step = value - before
            if (suffixed and step == 0) or (not suffixed and 1 <= step <= max_gap + 1):
                candidate = best[j][0] + 1 - 0.5 * max(step - 1, 0)
                if candidate > score:
                    score, previous = candidate, j
        best.append((score, previous))
    if not best or max(score for score, _ in best) == float("-inf"):
        return []
    index: int | None = max(range(len(best)), key=lambda i: (best[i][0], -i))
    chain = []
    while index is not None:
        chain.append(numbered[index][0])
        index = best[index][1]
    return chain[::-1]


def _value(key: str) -> tuple[int | None, bool]:
    """The numeric value of an article key and whether it has a letter suffix."""
    digits = re.match(r"\d+", key)
    if not digits:
        return None, False
    return int(digits.group()), key != digits.group()


def articles_of(section: Section, text: str) -> list[Article]:
    """The preamble, articles (with their nested quoted articles) and final clauses.

    A text printed as the annex of an act (a text that opens with an act's heading,
    ``DECRETO Nº 8.301``, and has an annex line, ``ANEXO``, before the first article
    heading: a decree that promulgates a treaty) has the act's own text apart, keyed
    :data:`ACT`; its preamble starts at the first annex line. The annex lines after it
    are the treaty's own (a decision whose sole article puts its annex in force), and
    so is an annex line in a text that does not open with an act's heading.
    ``text`` is the document's cleaned text; every offset is into it.

    >>> from pipeline.records import Block
    >>> t = ("DECRETO Nº 1\\nPromulga a Decisão.\\nANEXO\\nDecisão n.o 1\\nO COMITÉ,\\n"
    ...      "Artigo 1.o\\nÉ adotada.")
    >>> section = Section("pt", (Block(1, 0, len(t), t, "pt", "langdetect"),))
    >>> [(a.key, t[a.start:a.end].split("\\n")[0]) for a in articles_of(section, t)]
    [('act', 'DECRETO Nº 1'), ('preamble', 'ANEXO'), ('1', 'Artigo 1.o')]
    >>> t = "Decision No 1\\nSole Article\\nThe Annex is adopted.\\nANNEX\\nArticle 1\\nText."
    >>> section = Section("en", (Block(1, 0, len(t), t, "en", "langdetect"),))
    >>> [(a.key, t[a.start:a.end].split("\\n")[0]) for a in articles_of(section, t)]
    [('preamble', 'Decision No 1'), ('1', 'Article 1')]
    """
    start, end = section.start, section.end
    body = text[start:end]
    headings = find_headings(body)
    final = _FINAL.search(body, headings[-1].end if headings else 0)
    body_end = final.start() if final else len(body)
    articles = _front(section, text, headings[0].start if headings else body_end)
    nested = [h for h in _candidates(body) if h.quoted and h.capitalised]
    for index, heading in enumerate(headings):
        stop = headings[index + 1].start if index + 1 < len(headings) else body_end
        # a numbered paragraph keeps its number in its first sentence
        articles.append(_article(section.language, heading.number, heading.key,
                                 "" if heading.paragraph else body[heading.start:heading.end],
                                 text, start + heading.start, start + stop))
        for inner in (h for h in nested if heading.end <= h.start < stop):
            inner_stop = min([h.start for h in nested if h.start > inner.start] + [stop])
            articles.append(_article(section.language, inner.number, inner.key,
                                     body[inner.start:inner.end], text, start + inner.start,
                                     start + inner_stop, level=2, parent=heading.key))
    if final:
        articles.append(_article(section.language, "", FINAL, "", text, start + body_end, end))
    return articles


def _front(section: Section, text: str, first: int) -> list[Article]:
    """What comes before the first article heading (``first``, an offset into the
    section): the act's own text if the section prints a treaty as an act's annex (see
    :func:`articles_of`), then the preamble."""
    start, body = section.start, text[section.start:section.end]
    annex = [m for m in ANNEX_LINE.finditer(body, 0, first) if body[:m.start()].strip()]
    act = annex and heading_kind(body.lstrip().split("\n", 1)[0])
    opening = annex[0].start() if act else 0
    front = []
    if opening:
        front.append(_article(section.language, "", ACT, "", text, start, start + opening))
    if body[opening:first].strip():
        front.append(_article(section.language, "", PREAMBLE, "", text, start + opening,
                              start + first))
    return front


def _article(language: str, number: str, key: str, heading: str, text: str, start: int,
             end: int, level: int = 1, parent: str | None = None) -> Article:
    """An article with its span trimmed of white space, its units and sentences."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    content = text[start:end]
    body_start = len(heading) if heading and content.startswith(heading) else 0
    units = tuple(
        Unit(kind="paragraph" if m.group("label")[0].isdigit() else "item",
             label=m.group("label"), start=start + m.start())
        for m in _UNIT.finditer(content, body_start)
    )
    # the heading is a segment of its own, the first of the article
    sentences = ((start, start + body_start),) * bool(body_start) + tuple(
        (start + a + body_start, start + b + body_start)
        for a, b in split_sentences(content[body_start:], language))
    return Article(language=language, number=number, key=key, heading=heading,
                   text=content, level=level, parent=parent, start=start, end=end,
                   units=units, sentences=sentences)


def sentence_texts(article: Article) -> list[str]:
    """The article's sentences as segments, each on one line (:func:`segment_text`)."""
    return [segment_text(article.text[start - article.start:end - article.start])
            for start, end in article.sentences]


def structure_of(sections: list[Section], text: str) -> dict[str, list[Article]]:
    """The articles of each language, in order.

    Sections labelled ``other`` or ``unreadable`` have no articles; where one
    interrupts a language's text (a list of citations taken for junk, a foreign
    phrase), the language's text goes on through it (:func:`spans_of`). Where a
    language has several sections, an article key already seen in an earlier one is
    dropped (and logged): the first occurrence is the document's own.
    """
    result: dict[str, list[Article]] = {}
    for section in spans_of(sections):
        found = result.setdefault(section.language, [])
        seen = {(a.key, a.parent) for a in found}
        for article in articles_of(section, text):
            if (article.key, article.parent) in seen:
                log.info("%s article %s appears again in a later section; the first is kept",
                         section.language, article.key)
                continue
            seen.add((article.key, article.parent))
            found.append(article)
    return result


def spans_of(sections: list[Section]) -> list[Section]:
    """Each language's stretches of text: consecutive sections of one language, with the
    ``other`` and ``unreadable`` sections between them, joined; those sections left
    out where they do not interrupt a language.

    >>> from pipeline.records import Block
    >>> def section(language, start):
    ...     return Section(language, (Block(1, start, start + 5, "", language, "junk"),))
    >>> [(s.language, s.start, s.end) for s in spans_of([section("pt", 0), section(
    ...     "unreadable", 6), section("pt", 12), section("other", 18), section("en", 24)])]
    [('pt', 0, 17), ('en', 24, 29)]
    """
    spans: list[Section] = []
    pending: list[Section] = []  # other or unreadable sections since the last span
    for section in sections:
        if section.language in ("other", "unreadable"):
            pending.append(section)
        elif spans and spans[-1].language == section.language:
            blocks = [b for s in (spans[-1], *pending, section) for b in s.blocks]
            spans[-1] = Section(section.language, tuple(blocks))
            pending = []
        else:
            spans.append(section)
            pending = []
    return spans


_DECREE = re.compile(
    r"\b(?:DECRETO|Decreto)\s+[Nn][º°o.]*\s*(?P<br>\d{1,3}(?:\.\d{3})*)"
    r"|\b(?P<in>(?:S\.\s?O\.|G\.\s?S\.\s?R\.)\s?\d+\s?\(E\))"
    r"|\b(?P<se>SFS\s+\d{4}:\d+)")


def decree_number(text: str) -> str | None:
    """The number the gazette published the document under, if its text names one.

    A Brazilian decree (not a legislative one), a Gazette of India statutory order
    or rule, or a Swedish SFS number; the first one found.

    >>> decree_number("DECRETO Nº 12.863, DE 2 DE MARÇO DE 2026")
    'Decreto nº 12.863'
    >>> decree_number("Acordo de bitributação — Suécia — Decreto nº 13.006/2026")
    'Decreto nº 13.006'
    >>> decree_number("Decreto Legislativo nº 196; ... S.O. 2562(E).—WHEREAS")
    'S.O. 2562(E)'
    >>> decree_number("Förordning (SFS 2024:1003)"), decree_number("no number") is None
    ('SFS 2024:1003', True)
    """
    match = _DECREE.search(text)
    if match is None:
        return None
    if match["br"]:
        return f"Decreto nº {match['br']}"
    return match["in"] or match["se"]


def structure_json(sections: list[Section], articles: dict[str, list[Article]]) -> dict[str, Any]:
    """The document's structure as JSON (``cleaned/<doc>/structure.json``).

    Offsets are into ``text.txt``; article texts are left out (they are slices of it).
    """
    return {
        "sections": [{"language": s.language, "start": s.start, "end": s.end,
                      "pages": [s.blocks[0].page, s.blocks[-1].page]} for s in sections],
        "articles": [a.to_json() for language_articles in articles.values()
                     for a in language_articles],
    }
