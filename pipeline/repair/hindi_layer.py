"""Hindi from a broken PDF text layer: vowel signs the PDF writer put in the wrong place.

Seed 003 is what pdfplumber made of a Gazette of India page: the short i ``ि`` comes
before its consonant, in the order it is drawn (``संिवधान``), other vowel signs land
one consonant late (``दशे`` for ``देश``), and spaces or punctuation fall between a
consonant and its sign (``करन े``, ``ह,ै``). Three steps:

1. :func:`rejoin_detached_signs` — a sign after a space or a comma goes back to its
   consonant (a vowel sign never starts a word, so that much is certain; whether the
   space belonged after the sign or nowhere is decided by the lexicon);
2. :func:`reorder_short_i` — the sign goes after the consonant cluster it precedes
   where nothing but that cluster can own it;
3. :func:`shift_misplaced_signs` — where a word is still unknown, a short i moves one
   cluster on, or a vowel sign or anusvara one consonant back, if that makes a known
   Hindi word.

Glyphs that come out as other characters (``अJय`` for ``अन्य``, ``(cid:4)कसी``) are
read by :mod:`pipeline.repair.glyph_map`.
"""

from __future__ import annotations

import re

from pipeline.text.lexicon import (
    DEVANAGARI_CLUSTER,
    DEVANAGARI_CONSONANT,
    DEVANAGARI_CONSONANTS,
    is_known,
)

__all__ = [
    "join_split_words",
    "put_signs_in_place",
    "rejoin_detached_signs",
    "reorder_short_i",
    "shift_misplaced_signs",
    "sign_moves",
]

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


_SIGNS = "\u093e\u0940-\u094c\u0901\u0902"


def rejoin_detached_signs(text: str, also: str = "") -> str:
    """Give a vowel sign that a space or a comma cut off back to its consonant.

    >>> rejoin_detached_signs("करन े के लिए, गए थ,े इस ेसंशोधनकारी जलु ाई")
    'करने के लिए, गए थे, इसे संशोधनकारी जलुाई'
    >>> rejoin_detached_signs("गए थ ेइस ेसंशोधनकारी")  # two words in a row
    'गए थे इसे संशोधनकारी'

    The space goes after the sign, unless the word is known whole and what follows
    the space is no word on its own (``जलु ाई``). The short i is no such sign: drawn
    before its consonant, it starts words in a broken layer.
    ``also``: more characters to treat as signs (the glyph map's stand-ins).
    """
    sign = f"[{_SIGNS}{re.escape(also)}]"
    text = re.sub(f"([\u0900-\u097f])([,;.)])({sign}+)", r"\1\3\2", text)

    def rejoin(match: re.Match[str]) -> str:
        head, sign, tail = match.groups()
        whole = shift_misplaced_signs(head + sign + tail)
        if tail and _known(whole) and not (len(tail) > 1 and _known(tail)):
            return head + sign
        return head + sign + (" " if tail else "")

    # the word after the sign is looked at, not taken: its own sign may be cut off too
    return re.sub(f"(\\S*[\u0901-\u0963\u0970-\u097f]) ({sign}+)(?=(\\S*))", rejoin, text)


def sign_moves(word: str) -> list[str]:
    """``word`` with one short i moved on a cluster, or one sign moved back a consonant."""
    found = []
    for match in _SHORT_I_EARLY.finditer(word):
        found.append(word[:match.start()] + _short_i_moved(match) + word[match.end():])
    for match in _LATE.finditer(word):
        first, second, sign = match.groups()
        found.append(word[:match.start()] + first + sign + second + word[match.end():])
    return found


# a short i before its cluster, perhaps with a nasal sign, a u sign or a virama drawn
# between them (``सिंवदाकारी`` संविदाकारी, ``अधिसिूचत`` अधिसूचित, ``निशि्चत`` निश्चित)
_SHORT_I_EARLY = re.compile(f"\u093f([\u0901\u0902\u0941\u0942\u094d]?)({DEVANAGARI_CLUSTER})")
# a sign after the consonant (or half form: ``अनच्ुछेद``) that follows its own
_LATE = re.compile(
    f"({DEVANAGARI_CONSONANT})({DEVANAGARI_CONSONANT}\u094d?)([{_VOWEL_SIGN}\u0902])")


def _short_i_moved(match: re.Match[str]) -> str:
    between, cluster = match.groups()
    return between + cluster + "\u093f"


def shift_misplaced_signs(text: str) -> str:
    """Move signs a broken layer put one cluster off, where that makes a known word.

    >>> shift_misplaced_signs("दशे के परै संबधं इसिलए गितिविध")
    'देश के पैर संबंध इसलिए गतिविधि'

    Tried on unknown words only: each short i one cluster on (and all of them at
    once, as a word drawn in visual order has them), each vowel sign or anusvara one
    consonant back, and then one more such move on top.
    """
    def fix(match: re.Match[str]) -> str:
        word = match.group()
        if not _DEVANAGARI.search(word) or _known(word):
            return word
        first = sign_moves(word)
        all_i = _SHORT_I_EARLY.sub(_short_i_moved, word)
        for candidate in [all_i, *first, *(c2 for c in first for c2 in sign_moves(c))]:
            if _known(candidate):
                return candidate
        return word

    return _WORD.sub(fix, text)


def join_split_words(text: str) -> str:
    """Join two words a broken layer split, where the first is no word and the two are.

    >>> join_split_words("ही दसू रे देश के अनच्ु छेद 4 सिं वदाकारी संबिं धत")
    'ही दूसरे देश के अनुच्छेद 4 संविदाकारी संबंधित'
    """
    parts = re.split(r"( )", text)  # words (with their punctuation) and single spaces
    out: list[str] = []
    i = 0
    while i < len(parts):
        joined = _joined(parts[i], parts[i + 2]) if i + 2 < len(parts) else None
        if joined is not None:
            out.append(joined)
            i += 3
        else:
            out.append(parts[i])
            i += 1
    return "".join(out)


def _joined(first: str, second: str) -> str | None:
    """``first`` and ``second`` as one known word, if ``first`` is none and they make one."""
    if not (_DEVANAGARI.search(first) and _DEVANAGARI.search(second)):
        return None
    if _known(first.strip(_EDGE_PUNCTUATION)) or re.search(r"[,.;:!?)\]”।]$", first):
        return None
    whole = shift_misplaced_signs(first + second)
    return whole if _known(whole.strip(_EDGE_PUNCTUATION)) else None


_EDGE_PUNCTUATION = ",.;:!?()[]\"“”‘’'।"


def put_signs_in_place(text: str) -> str:
    """Steps 2 and 3, then join the words a layer split: what is left once signs are
    back with their consonants (and glyphs read).

    >>> put_signs_in_place("संिवधान दशे के िलए दसू रे")
    'संविधान देश के लिए दूसरे'
    """
    return join_split_words(shift_misplaced_signs(reorder_short_i(text)))
