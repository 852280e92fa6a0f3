"""Sentence splitting for treaty text in Portuguese, English, Swedish and Hindi.

A sentence ends at ``.``, ``!``, ``?`` or the Hindi danda ``।`` (closing quotes and
brackets stay with it) when the next sentence starts with a capital, a digit, an
opening quote or bracket, or Devanagari. It does not end after:

* a known abbreviation of the language (``Art.``, ``nº.``, ``No.``, ``t.ex.``);
* a token with inner full stops (``S.O.``, ``p.ex.``, ``i.e.``) or a single capital
  (an initial: ``J. Smith``);
* a sentence that so far is only an enumerator (``1.``, ``2.1.``, ``a)``, ``(ii)``):
  a numbered paragraph keeps its number.

Lines matter. A blank line (a paragraph break) ends a sentence, and so does a line
break after a line that ends a clause (``.``, ``;``, ``:``), after a short line (a
heading, a title, a signature: under 60 % of the text's usual line length) or before
an item label or article heading, or before the next item of a list of items ending in
commas (:func:`pipeline.text.lines.starts_next_item`): text given one paragraph per
line, or reflowed by
the repair stage, keeps its lines as segments, as translation memories segment it.
A line ending in a comma ends one before a short lead-in line (``Whereas:``), and a
line in capitals (``THE JOINT COMMITTEE,``) ends one before a line in mixed case, and
the other way round. Neither
ends a sentence where the next line starts in lower case (unless the line is a formula
in capitals: ``GEMENSAMMA KOMMITTÉN HAR ANTAGIT DETTA BESLUT``) or the line ends in a
hyphenated word (a wrap, a page or column break mid-sentence). Inside running text, an
item label after ``;`` or ``:`` (``…as follows: (a) the term…; (b) the term…``) starts
a sentence of its own, and so does the text after a stop and a dash (``S.O.
2562(E).—Whereas``, ``1. Short title.—(1) These rules``). Commas inside numbers
(``12,5 per cent``) never end one.
"""

from __future__ import annotations

import math
import re

from pipeline.text.lexicon import DEVANAGARI_MARKS
from pipeline.text.lines import in_capitals, is_lead_in, starts_next_item

__all__ = ["ABBREVIATIONS", "segment_text", "split_sentences"]

#: Abbreviations that take a full stop and do not end a sentence, lowercased,
#: without their final full stop. Checked for every language, as treaties mix them.
ABBREVIATIONS: dict[str, frozenset[str]] = {
    "pt": frozenset({"art", "arts", "nº", "n", "nos", "no", "p", "pág", "págs", "sr", "sra",
                     "dr", "dra", "ex", "inc", "al", "cf", "cap", "par", "parág", "v", "s"}),
    "en": frozenset({"art", "arts", "no", "nos", "para", "paras", "mr", "mrs", "ms", "dr",
                     "st", "co", "ltd", "inc", "vs", "viz", "cf", "sec", "sub", "vol",
                     "ch", "sd/-", "jr", "sr", "hon", "govt", "dept", "pvt", "e.g", "i.e",
                     "rev", "capt", "sen", "rep", "gov", "gen", "det", "lt", "col", "sgt",
                     "prof", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept",
                     "oct", "nov", "dec", "jt", "secy", "addl", "dy", "dte", "asstt", "u/s", "smt",
                     "kum"}),
    "sv": frozenset({"nr", "kap", "st", "jfr", "resp", "ca", "m.fl", "t.ex", "bl.a", "s.k",
                     "d.v.s", "dvs", "fr.o.m", "t.o.m", "o.d", "m.m", "p", "mom", "prop"}),
    "hi": frozenset({"सं", "क्र", "डॉ", "श्री", "मि", "मिस", "मिसेज", "प्रो"}),
}
_ALL_ABBREVIATIONS = frozenset().union(*ABBREVIATIONS.values())

_CANDIDATE = re.compile(
    r"""(?P<mark>[.!?।]+)["”’»)\]]*   # the mark and what closes with it
    (?P<space>\s+)
    (?=[A-ZÀ-ÖØ-Þ0-9"“”‘’«(\[\u0900-\u097f§])   # how the next sentence may start
    """,
    re.VERBOSE,
)
#: A line break, with the blank lines and indentation after it.
_BREAK = re.compile(r"[ \t]*\n\s*")
#: A line break inside a segment, with the hyphen of a word broken over it.
_WRAP = re.compile(r"(?:(?<=\w)(?P<hyphen>-))?" + _BREAK.pattern)
#: An item label or an article heading opening a line.
_LINE_OPENER = re.compile(
    r"""["“]?(?:\(?\d{1,3}\)|\d{1,3}\.(?!\d)|\(?[a-z]{1,2}\)|\(?[ivxlc]+\)|§
    |(?:ARTIGO|Artigo|ARTICLE|Article|ARTIKEL|Artikel|Art\.|अनुच्छेद)\s)""", re.VERBOSE)
#: A stop or colon with a dash, after a label or a heading (``S.O. 2562(E).—``,
#: ``1. Short title and commencement.—``, ``का.आ. 2562(अ).—``): the text goes on as a
#: sentence of its own.
_STOP_DASH = re.compile(r"(?P<mark>[.:][ \t]?[—–])(?P<space>[ \t]*)(?=[^\s—–])")
#: An item label after ``;`` or ``:`` inside running text.
_ITEM_AFTER_CLAUSE = re.compile(
    r"(?P<mark>[;:])(?P<space>\s+)(?=[\"“]?(?:\(\d{1,3}\)|\(?[a-z]{1,2}\)|\(?[ivx]+\))\s)")
#: A line shorter than this share of the text's usual line length ends where its
#: paragraph (or heading, title, signature line) ends.
SHORT_LINE = 0.6
_ENUMERATOR = re.compile(
    r"\s*[\"“]?(?:\(?\d+(?:\.\d+)*[.)]\.?|\(?[a-z]{1,2}\)|\(?[ivxlc]+\)|§)\s*")
#: A letter with its combining marks (Devanagari vowel signs are marks, not letters).
_LETTER = rf"[^\W\d_]{DEVANAGARI_MARKS}*"
_INNER_STOPS = re.compile(rf"(?:(?:{_LETTER}){{1,4}}\.)+(?:{_LETTER}){{0,4}}")
_INITIAL = re.compile(rf"{_LETTER}")


def split_sentences(text: str, language: str = "en") -> list[tuple[int, int]]:
    """Character spans of the sentences of ``text`` (one paragraph or more).

    >>> t = "Nos termos do Art. 5 a taxa é de 12,5 por cento. O Acordo entra em vigor."
    >>> [t[a:b] for a, b in split_sentences(t, "pt")]
    ['Nos termos do Art. 5 a taxa é de 12,5 por cento.', 'O Acordo entra em vigor.']
    >>> t = "New Delhi, S.O. 2562(E). Whereas the Protocol was signed. 2. The tax applies."
    >>> [t[a:b] for a, b in split_sentences(t, "en")]
    ['New Delhi, S.O. 2562(E).', 'Whereas the Protocol was signed.', '2. The tax applies.']
    >>> t = "यह करार लागू होगा। भारत सरकार ने अधिसूचित किया।"
    >>> [t[a:b] for a, b in split_sentences(t, "hi")]
    ['यह करार लागू होगा।', 'भारत सरकार ने अधिसूचित किया।']
    >>> t = ("THE JOINT COUNCIL,\\nHaving regard to the Agreement,\\nWhereas:\\n(1) The term "
    ...      "applies in the territory of each Party, to the extent of its laws;\\n"
    ...      "(2) the tax is levied\\non income.")
    >>> [t[a:b] for a, b in split_sentences(t, "en")]  # doctest: +NORMALIZE_WHITESPACE
    ['THE JOINT COUNCIL,', 'Having regard to the Agreement,', 'Whereas:',
     '(1) The term applies in the territory of each Party, to the extent of its laws;',
     '(2) the tax is levied\\non income.']
    >>> t = "the following terms: (a) the term person; (b) the term company."
    >>> [t[a:b] for a, b in split_sentences(t, "en")]
    ['the following terms:', '(a) the term person;', '(b) the term company.']
    >>> t = "S.O. 2562(E).—Whereas it was signed. 1. Short title.—(1) These rules apply."
    >>> [t[a:b] for a, b in split_sentences(t, "en")]
    ['S.O. 2562(E).—', 'Whereas it was signed.', '1. Short title.—', '(1) These rules apply.']
    """
    spans = []
    start = 0
    width = _usual_line_length(text)
    for brk in [*_BREAK.finditer(text), None]:
        if brk is not None and not _ends_segment(text, brk, width, text[start:brk.start()]):
            continue
        end = brk.start() if brk else len(text)
        spans += _split_paragraph(text, start, end)
        start = brk.end() if brk else end
    return spans


def segment_text(sentence: str) -> str:
    """A sentence as a segment of one line: a line break inside it (a wrap, a page or
    column break mid-sentence) is a space, or nothing after a hyphen.

    >>> segment_text("essa pessoa não terá direito a\\n\\nqualquer benefício ou non-\\nresident")
    'essa pessoa não terá direito a qualquer benefício ou non-resident'
    """
    return _WRAP.sub(lambda m: "-" if m.group("hyphen") else " ", sentence)


def _usual_line_length(text: str) -> int:
    """The length most lines of ``text`` reach (its 90th percentile): where the text
    was wrapped, or the length of its long paragraphs."""
    lengths = sorted(len(line.strip()) for line in text.split("\n") if line.strip())
    return lengths[math.ceil(0.9 * (len(lengths) - 1))] if lengths else 0


def _ends_segment(text: str, brk: re.Match[str], width: int, paragraph: str) -> bool:
    """Whether the line break ``brk`` ends a sentence (see the module's docstring), in
    ``paragraph`` (the text since the last one that did)."""
    before = text[text.rfind("\n", 0, brk.start()) + 1:brk.start()].strip()
    after = text[brk.end():text.find("\n", brk.end()) % (len(text) + 1)]
    if not before or not after:
        return True
    if after[0].islower() and not (_CLAUSE_END.search(before) or _is_formula(before)):
        return False  # the line runs on: a wrap, a page or a column break mid-sentence
    if before[-1] == "-" and before[-2:-1].isalpha() and after[0].isalpha():
        return False  # a word hyphenated over the break
    return ("\n" in brk.group().lstrip(" \t")[1:]  # a blank line
            or bool(_CLAUSE_END.search(before))
            or len(before) < SHORT_LINE * width
            or bool(_LINE_OPENER.match(after))
            or starts_next_item(paragraph, after)
            or is_lead_in(before, after, SHORT_LINE * width)
            or in_capitals(before) != in_capitals(after))


_CLAUSE_END = re.compile(r"[.;:!?।][\"”’»)\]]*$")


def _is_formula(line: str) -> bool:
    """A line of words in capitals that does not run on (a comma or a hyphen would say
    it does): an enacting formula, ``GEMENSAMMA KOMMITTÉN HAR ANTAGIT DETTA BESLUT``,
    which Swedish follows with a recital in lower case.

    >>> _is_formula("GEMENSAMMA KOMMITTÉN HAR ANTAGIT DETTA BESLUT"), _is_formula("A UNIÃO,")
    (True, False)
    """
    words = line.split()
    return (len(words) >= 3 and not line.endswith((",", "-"))
            and not any(c.islower() for c in line) and sum(c.isalpha() for c in line) >= 10)


def _split_paragraph(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    spans = []
    start = _skip_space(text, start)
    candidates = sorted([*_CANDIDATE.finditer(text, start, stop),
                         *_ITEM_AFTER_CLAUSE.finditer(text, start, stop),
                         *_STOP_DASH.finditer(text, start, stop)],
                        key=lambda m: m.start())
    for match in candidates:
        end = match.start("space")
        if end <= start or (match.re is _CANDIDATE and not _is_boundary(text, start, match)):
            continue
        spans.append((start, end))
        start = match.end()
    end = start + len(text[start:stop].rstrip())
    if end > start:
        spans.append((start, end))
    return spans


def _is_boundary(text: str, start: int, match: re.Match[str]) -> bool:
    if match.group("mark") in ("!", "?", "।") or len(match.group("mark")) > 1:
        return True
    before = text[start:match.start("mark")]
    if _ENUMERATOR.fullmatch(before + "."):
        return False  # "1." or "2.1." opening a numbered paragraph
    token = before.rsplit(None, 1)[-1] if before.strip() else ""
    token = re.split(r"[/(\[\"“‘«]", token)[-1]  # "No.54/2019/F.No" -> "F.No"
    if token.lower() in _ALL_ABBREVIATIONS:
        return False
    if _INNER_STOPS.fullmatch(token) and "." in token:
        return False  # S.O., p.ex., i.e, यू.एन
    # an initial: "J. Smith", "डियोनिसियो ए. लिंड" (Devanagari has no capitals)
    return not (_INITIAL.fullmatch(token) and (token.isupper() or "\u0900" <= token[0] <= "\u097f"))


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position
