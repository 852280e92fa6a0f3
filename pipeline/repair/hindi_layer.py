"""Hindi from a broken PDF text layer: vowel signs the PDF writer put in the wrong place.

Seed 003 is what pdfplumber made of a Gazette of India page: the short i ``ि`` comes
before its consonant, in the order it is drawn (``संिवधान``), and other vowel signs
land one consonant late (``दशे`` for ``देश``). Two steps:

1. :func:`reorder_short_i` — the sign goes after the consonant cluster it precedes
   (a short i never follows anything but a consonant, so this is certain);
2. :func:`shift_late_vowel_signs` — a vowel sign moves one consonant back where that
   makes an unknown word a known Hindi word.

Glyphs that come out as other characters (``अjय`` for ``अन्य``, ``(cid:4)कसी``) are
left alone: inferring them from the lexicon was tried and guessed wrong too often.
"""

from __future__ import annotations

import re

from pipeline.lexicon import (
    DEVANAGARI_CLUSTER,
    DEVANAGARI_CONSONANT,
    DEVANAGARI_CONSONANTS,
    is_known,
)

__all__ = ["reorder_short_i", "shift_late_vowel_signs"]

_SHORT_I_FIRST = re.compile(
    f"(?<![{DEVANAGARI_CONSONANTS}\u093c])\u093f({DEVANAGARI_CLUSTER})")
_WORD = re.compile(r"(?:\(cid:\d+\)|[^\s,.;:!?()\[\]'\"“”‘|।-])+")
_DEVANAGARI = re.compile("[\u0900-\u097f]")
_VOWEL_SIGN = "\u093e-\u094c"


def reorder_short_i(text: str) -> str:
    """Put a short i drawn before its consonant after it, as Unicode stores it.

    >>> reorder_short_i("संिवधान के अिधिनयम")
    'संविधान के अधिनियम'
    """
    while True:  # one sign moved can leave the next one with no consonant before it
        moved = _SHORT_I_FIRST.sub(lambda m: m.group(1) + "\u093f", text)
        if moved == text:
            return text
        text = moved


def _known(word: str) -> bool:
    return is_known(word, ("hi",))


def shift_late_vowel_signs(text: str) -> str:
    """Move a vowel sign drawn one consonant late back, where that makes a known word.

    >>> shift_late_vowel_signs("दशे के परै")
    'देश के पैर'
    """
    late = re.compile(f"({DEVANAGARI_CONSONANT})({DEVANAGARI_CONSONANT})([{_VOWEL_SIGN}])")

    def fix(match: re.Match[str]) -> str:
        word = match.group()
        if not _DEVANAGARI.search(word) or _known(word):
            return word
        for found in late.finditer(word):
            first, second, sign = found.groups()
            candidate = word[:found.start()] + first + sign + second + word[found.end():]
            if _known(candidate):
                return candidate
        return word

    return _WORD.sub(fix, text)
