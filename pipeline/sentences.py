"""Sentence splitting for treaty text in Portuguese, English, Swedish and Hindi.

A sentence ends at ``.``, ``!``, ``?`` or the Hindi danda ``।`` (closing quotes and
brackets stay with it) when the next sentence starts with a capital, a digit, an
opening quote or bracket, or Devanagari. It does not end after:

* a known abbreviation of the language (``Art.``, ``nº.``, ``No.``, ``t.ex.``);
* a token with inner full stops (``S.O.``, ``p.ex.``, ``i.e.``) or a single capital
  (an initial: ``J. Smith``);
* a sentence that so far is only an enumerator (``1.``, ``2.1.``, ``a)``, ``(ii)``):
  a numbered paragraph keeps its number.

A blank line (a paragraph break) always ends a sentence; commas inside numbers
(``12,5 per cent``) never do.
"""

from __future__ import annotations

import re

from pipeline.lexicon import DEVANAGARI_MARKS

__all__ = ["ABBREVIATIONS", "split_sentences"]

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
                     "oct", "nov", "dec", "jt", "secy", "addl", "dy", "dte", "asstt", "u/s"}),
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
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
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
    """
    spans = []
    paragraph_start = 0
    for brk in [*_PARAGRAPH_BREAK.finditer(text), None]:
        paragraph_end = brk.start() if brk else len(text)
        spans += _split_paragraph(text, paragraph_start, paragraph_end)
        paragraph_start = brk.end() if brk else paragraph_end
    return spans


def _split_paragraph(text: str, start: int, stop: int) -> list[tuple[int, int]]:
    spans = []
    start = _skip_space(text, start)
    for match in _CANDIDATE.finditer(text, start, stop):
        end = match.start("space")
        if end <= start or not _is_boundary(text, start, match):
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
