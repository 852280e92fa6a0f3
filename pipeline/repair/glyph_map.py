"""Read the glyphs of a broken Hindi font back, with a map inferred from the text itself.

A PDF whose Devanagari font lost its character map gives, for the glyphs of conjuncts
and sign combinations, whatever code the font put them on: seed 003 reads
``गणरा’य`` for गणराज्य, ``-ोटोकॉल`` for प्रोटोकॉल, ``(cid:4)कसी`` for किसी. Within
one document the substitutions are consistent, so each stand-in is read the way that
makes the most of its words Hindi words (:func:`infer_glyph_map`) and the map is
applied word by word (:func:`apply_glyph_map`).

A reading is a piece of Devanagari (a consonant, a half form, a conjunct, a vowel
sign, a consonant with its sign) or one of two signs drawn away from where Unicode
stores them: the short i before its consonant (:data:`SHORT_I`) and the reph after
its syllable (:data:`REPH`).
"""

from __future__ import annotations

import itertools
import logging
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cache, lru_cache

from pipeline.repair.hindi_layer import (
    rejoin_detached_signs,
    reorder_short_i,
    shift_misplaced_signs,
    sign_moves,
)
from pipeline.text.legacy_hindi import place_visual_signs
from pipeline.text.lexicon import (
    DEVANAGARI_CONSONANT,
    DEVANAGARI_CONSONANTS,
    vocabulary,
    zipf,
)

__all__ = ["REPH", "SHORT_I", "GlyphReading", "apply_glyph_map", "infer_glyph_map"]

log = logging.getLogger(__name__)

#: Stand-ins for the two signs drawn away from their place (private-use characters).
SHORT_I, REPH = "\ue000", "\ue001"

#: A glyph id as pdfplumber gives a glyph it cannot map to a character: ``(cid:23)``.
_GLYPH_ID = r"\(cid:\d+\)"
#: A glyph id, or a character that has no business inside a Devanagari word (a digit
#: only right after Devanagari: ``27क`` is article 27A).
_STAND_IN = _GLYPH_ID + r"|[A-Za-z’‘*+<>@\[\]^$#&=|~_{}\\(-]|(?<=[\u0900-\u097fA-Za-z])[0-9]"
_STAND_INS = re.compile(_STAND_IN)
#: A word as a broken layer gives it: Devanagari and stand-ins, no spaces.
_WORD = re.compile(rf"(?:[\u0900-\u0963\u0970-\u097f]|{_STAND_IN}|[{SHORT_I}{REPH}])+")
_DEVANAGARI = re.compile("[\u0900-\u097f]")
_GLYPH_IDS = re.compile(f"(?:{_GLYPH_ID})+")
_LETTER = re.compile(f"[\u0904-\u0914{DEVANAGARI_CONSONANTS}\u0960\u0961]")
#: Stand-ins that are also punctuation a Hindi word may carry (``उप-पैरा``,
#: ``(ख)``): read only where the reading makes a known word.
_PUNCTUATION = frozenset("-(")
_SIGNS = "ािीुूृेैोौ"

#: Evidence needed: weighted words, and twice as much as any rival reading has. A word
#: weighs by its length, as short words are easy to hit by chance: five letters or
#: more 2, three or four 1, fewer ½; and three words, or one of four letters or more.
MIN_EVIDENCE = 2.0
MIN_LEAD = 2.0


@dataclass(frozen=True)
class GlyphReading:
    """What a stand-in was read as, and the words that showed it."""

    stand_in: str
    reading: str
    evidence: float
    examples: tuple[str, ...]


@cache
def _pieces() -> tuple[str, ...]:
    """Every reading tried: pieces of Devanagari the Hindi lexicon's words are made of."""
    hindi = vocabulary("hi")
    consonant = f"[{DEVANAGARI_CONSONANTS}]"
    conjunct = f"{DEVANAGARI_CONSONANT}\u094d{DEVANAGARI_CONSONANT}"
    consonants = sorted({c for word in hindi for c in re.findall(consonant, word)})
    conjuncts = Counter(m for word in hindi for m in re.findall(conjunct, word))
    pieces = set(consonants) | {c + "\u094d" for c in consonants}
    pieces |= {c for c, n in conjuncts.items() if n >= 20}
    pieces |= {c + s for c in consonants for s in _SIGNS}
    pieces |= set(_SIGNS) | {s + "ं" for s in _SIGNS} | {"ं", "ँ", "ः", "ओं", "एं", "ईं"}
    pieces |= {SHORT_I, REPH} | {s + REPH for s in _SIGNS} | {s + "ं" + REPH for s in "ीेो"}
    return tuple(sorted(pieces))


def _weight(word: str) -> float:
    letters = len(_LETTER.findall(word))
    return 2.0 if letters >= 5 else 1.0 if letters >= 3 else 0.5


def _letters_of(word: str) -> str:
    """What a word is made of, whatever the order (moving signs keeps it)."""
    return "".join(sorted(word.replace(SHORT_I, "ि").replace(REPH, "र्")))


@cache
def _hindi_letters() -> frozenset[str]:
    return frozenset(_letters_of(word) for word in vocabulary("hi"))


@lru_cache(maxsize=1 << 18)
def _as_hindi(word: str) -> str | None:
    """The known Hindi word ``word`` is once its signs are in place, if it is one."""
    if _letters_of(word) not in _hindi_letters():
        return None
    for variant in (word, *sign_moves(word)):
        placed = place_visual_signs(variant, SHORT_I, REPH)
        if SHORT_I in placed or REPH in placed or _STAND_INS.search(placed):
            continue
        for candidate in (placed, shift_misplaced_signs(reorder_short_i(placed))):
            if candidate in vocabulary("hi"):
                return candidate
    return None


def _read(word: str, mapping: dict[str, str]) -> str:
    return _STAND_INS.sub(lambda m: mapping.get(m.group(), m.group()), word)


def _broken_words(text: str) -> Counter[str]:
    """The words with stand-ins, and each joined with the next (layers split words)."""
    words = [w for w in _WORD.findall(text) if _DEVANAGARI.search(w)]
    joined = [a + b for a, b in itertools.pairwise(words) if _STAND_INS.search(a)]
    return Counter(w for w in words + joined if _STAND_INS.search(w))


def infer_glyph_map(text: str) -> list[GlyphReading]:
    """Read each stand-in the way that turns most of its words into Hindi words.

    >>> text = "गणरा’य का रा’य और वाणि’यिक -ोटोकॉल -ावधान -योग "
    >>> [(r.stand_in, r.reading) for r in infer_glyph_map(text)]
    [('-', 'प्र'), ('’', 'ज्')]

    Rounds: in each, the words with one unread stand-in left vote on its reading;
    a reading is taken when its evidence is at least :data:`MIN_EVIDENCE` and
    :data:`MIN_LEAD` times that of any reading that explains other words. What one
    round reads lets the next see words that had two stand-ins.
    """
    words = _broken_words(text)
    mapping: dict[str, str] = {}
    found: list[GlyphReading] = []
    while True:
        alone: dict[str, list[str]] = defaultdict(list)
        for word in words:
            read = _read(word, mapping)
            left = set(_STAND_INS.findall(read)) - set(mapping)
            if len(left) == 1:
                alone[left.pop()].append(read)
        new = [reading for stand_in, ws in sorted(alone.items())
               if (reading := _best_reading(stand_in, _inside(stand_in, ws))
                   or _best_reading(stand_in, ws))]
        if not new:
            return found
        for reading in new:
            mapping[reading.stand_in] = reading.reading
            log.info("glyph %s read as %s (%.1f words: %s)", reading.stand_in,
                     reading.reading, reading.evidence, ", ".join(reading.examples))
        found.extend(new)


def _inside(stand_in: str, words: list[str]) -> list[str]:
    """The ``words`` that ``stand_in`` does not start: the words that tell its reading
    first. At a word's start it may be a sign the layer's space cut off from the word
    before (``म (cid:23)दिया`` is में दिया), and a consonant read there makes a word
    as often by chance (नदिया)."""
    return [word for word in words if not word.startswith(stand_in)]


def _best_reading(stand_in: str, words: list[str]) -> GlyphReading | None:
    votes = []
    for piece in _pieces():
        hits = {w: h for w in words if (h := _as_hindi(w.replace(stand_in, piece)))}
        if hits:
            weight = sum(_weight(h) for h in hits.values())
            frequency = sum(zipf(h, ("hi",)) for h in hits.values())
            votes.append((weight, frequency, piece, hits))
    if not votes:
        return None
    votes.sort(key=lambda v: (-v[0], -v[1], v[2]))
    weight, _, piece, hits = votes[0]
    rival = max((v[0] for v in votes[1:] if not set(v[3]) <= set(hits)), default=0.0)
    if weight < MIN_EVIDENCE or weight < MIN_LEAD * rival:
        return None
    if len(set(hits.values())) < 3 and max(len(_LETTER.findall(h)) for h in hits.values()) < 4:
        return None  # two short words alone: ``बक0`` makes बकरा, ``ब0क`` बराक
    return GlyphReading(stand_in, piece, weight, tuple(sorted(set(hits.values())))[:5])


def apply_glyph_map(text: str, readings: list[GlyphReading]) -> str:
    """Read the stand-ins of ``text`` with ``readings``, word by word.

    >>> readings = [GlyphReading("’", "ज्", 3, ()), GlyphReading("(cid:4)", SHORT_I, 9, ())]
    >>> apply_glyph_map("भारत गणरा’य क( सरकार (cid:4)कसी (ख)", readings)
    'भारत गणराज्य क( सरकार किसी (ख)'

    A stand-in that is also punctuation (``-``, ``(``) is read only where that makes
    a known word; signs drawn away from their place go back where Unicode has them.
    Other stand-ins are read inside Devanagari words, and glyph ids standing alone too:
    a sign the layer set apart between spaces, where a lone Latin letter is English.

    >>> readings = [GlyphReading("(cid:23)", "ें", 5, ()), GlyphReading("E", REPH, 5, ())]
    >>> apply_glyph_map("संबंध म (cid:23) दोहरे, भारत म,(cid:23) उस, म (cid:23)दिया E", readings)
    'संबंध में दोहरे, भारत में, उस, में दिया E'
    """
    mapping = {r.stand_in: r.reading for r in readings}
    certain = {k: v for k, v in mapping.items() if k not in _PUNCTUATION}

    def read(match: re.Match[str]) -> str:
        word = match.group()
        if not _STAND_INS.search(word) or not (_DEVANAGARI.search(word)
                                               or _GLYPH_IDS.fullmatch(word)):
            return word
        return _as_hindi(_read(word, mapping)) or _read(word, certain)

    if not mapping:
        return text
    text = rejoin_detached_signs(_WORD.sub(read, text), REPH)
    return place_visual_signs(text, SHORT_I, REPH).replace(SHORT_I, "ि").replace(REPH, "र्")
