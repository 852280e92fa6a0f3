"""Word lists of the gazette languages (from wordfreq's bundled data, no network).

Used as evidence: the share of a text's words that a language knows tells readable
text from OCR junk, and is the measure the repair rules must not lower. A language may
add the words of its domain that wordfreq lacks (:data:`DOMAIN_LISTS`: for Hindi, the
terms of tax treaties in ``pipeline/text/data/hindi_legal_terms.txt``).
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path

import wordfreq

__all__ = [
    "DEVANAGARI_CLUSTER",
    "DEVANAGARI_CONSONANT",
    "DEVANAGARI_CONSONANTS",
    "DEVANAGARI_MARKS",
    "DOMAIN_LISTS",
    "broken_devanagari",
    "common_share",
    "common_words",
    "domain_words",
    "is_known",
    "known_share",
    "readable_share",
    "running_share",
    "vocabulary",
    "words",
    "zipf",
]

#: Devanagari vowel signs and other marks: parts of words, though not letters to ``re``.
DEVANAGARI_MARKS = "[\u0900-\u0903\u093a-\u094f\u0951-\u0957\u0962\u0963]"
#: A word: a run of letters and combining marks.
_WORD = re.compile(rf"[^\W\d_](?:[^\W\d_]|{DEVANAGARI_MARKS})*")


#: Word lists of a language's domain, in ``pipeline/text/data``: one word per line, ``#``
#: starts a comment.
DOMAIN_LISTS = {"hi": "hindi_legal_terms.txt"}


@cache
def domain_words(language: str) -> frozenset[str]:
    """The words of ``language``'s domain list (none if it has no list).

    >>> "संविदाकारी" in domain_words("hi"), len(domain_words("pt"))
    (True, 0)
    """
    name = DOMAIN_LISTS.get(language)
    if name is None:
        return frozenset()
    lines = (Path(__file__).parent / "data" / name).read_text(encoding="utf-8").splitlines()
    return frozenset(word for line in lines if (word := line.split("#")[0].strip()))


@cache
def vocabulary(language: str) -> frozenset[str]:
    """The lowercased words known for ``language`` (``en``, ``pt``, ``sv``, ``hi``):
    wordfreq's and its domain list's. Taken from wordfreq's lists of words by
    frequency band, not its dictionary of frequencies, which is slower to build (a
    process that repairs text or decides on text-layer pages loads three languages'
    words)."""
    # the arguments as get_frequency_dict passes them, so that wordfreq reads the list
    # once for both (its cache tells ``(language,)`` from ``(language, "best")``)
    bands = wordfreq.get_frequency_list(language, "best")
    return frozenset(itertools.chain.from_iterable(bands)) | domain_words(language)


@cache
def common_words(language: str) -> frozenset[str]:
    """The lowercased words of ``language`` at least once in a million words (Zipf 3
    and more: wordfreq's small list, some 30,000), a twentieth of the time
    :func:`vocabulary` takes to load: enough to tell languages apart by their words.

    >>> "seguinte" in common_words("pt"), "fiscai" in common_words("pt")
    (True, False)
    """
    return frozenset(itertools.chain.from_iterable(
        wordfreq.get_frequency_list(language, wordlist="small")))


def common_share(text: str, language: str) -> float:
    """Share of the words of ``text`` (:func:`words`) among ``language``'s common words.

    >>> common_share("O presente Protocolo entrará em vigor", "pt")
    1.0
    """
    found = words(text)
    return sum(w in common_words(language) for w in found) / len(found) if found else 0.0


def running_share(text: str, language: str) -> float:
    """Share of the words of ``text`` that are running text of ``language``: written
    without a capital (scripts with no case, Devanagari, always are) and among its
    common words. Prose scores 0.7–0.9; names and table cells in capitals, which any
    language prints, score next to nothing.

    >>> running_share("It shall be paid in the other State.", "en")
    0.75
    >>> running_share("ENERGY DRINK 19 TODA HORA 13 TITAN POWER BULL", "en")
    0.0
    """
    found = [word for word in text.split() if word == word.lower()]
    known = sum(w in common_words(language) for w in words(" ".join(found)))
    total = len(words(text))
    return known / total if total else 0.0


def is_known(word: str, languages: tuple[str, ...]) -> bool:
    """Whether any of ``languages`` knows ``word`` (case-insensitive).

    >>> is_known("Convenção", ("en", "pt")), is_known("fiscai", ("pt",))
    (True, False)
    """
    word = word.lower()
    return any(word in vocabulary(lang) for lang in languages)


def words(text: str, min_letters: int = 2) -> list[str]:
    """The words of ``text`` with at least ``min_letters`` characters, lowercased.

    >>> words("ARTIGO 2 O seguinte: (ii) Estados-Contratantes")
    ['artigo', 'seguinte', 'ii', 'estados', 'contratantes']
    >>> words("भारत गणराज्य की सरकार")
    ['भारत', 'गणराज्य', 'की', 'सरकार']
    """
    return [w.lower() for w in _WORD.findall(text) if len(w) >= min_letters]


def known_share(text: str, languages: tuple[str, ...]) -> tuple[float, int]:
    """Share of the words of ``text`` known in any of ``languages``, and the word count.

    >>> known_share("O presente Protocolo entrará em vigor", ("pt",))
    (1.0, 5)
    >>> known_share("Acordaram o seguinte fiscai", ("pt",))  # "fiscai" is OCR damage
    (0.6666666666666666, 3)
    """
    found = words(text)
    if not found:
        return 0.0, 0
    known = sum(is_known(w, languages) for w in found)
    return known / len(found), len(found)


def readable_share(text: str, languages: tuple[str, ...]) -> float:
    """Share of the non-space characters of ``text`` that are in known words of 3+ letters.

    A word known but for accents OCR misread or lost counts (a Swedish act read with a
    Portuguese model: ``ministerrâdet``, ``MINISTERRADET``). Prose scores about 0.6–0.9;
    OCR junk of a page read with the wrong script model scores near 0, as do lines of
    bare numbers (so look at runs, not single lines).

    >>> round(readable_share("O presente Protocolo entrará em vigor.", ("pt",)), 2)
    0.88
    >>> readable_share("A 26 1988 a 2013 De 9 7 A 7 26 39, Ạạ¿. )", ("en", "pt", "sv"))
    0.0
    >>> round(readable_share("Beslut nr 1/2019 i AVS-EU-ministerrâdet", ("sv",)), 2)
    0.63
    """
    visible = len(text) - sum(map(str.isspace, text))
    if not visible:
        return 0.0
    known = sum(len(w) for w in _WORD.findall(text)
                if len(w) >= 3 and (is_known(w, languages) or _misread_marks(w, languages)))
    return known / visible


def _misread_marks(word: str, languages: tuple[str, ...]) -> bool:
    """Whether ``word`` is a known word whose accents OCR misread or lost: a letter of
    it bears a mark only where the known word's does.

    >>> _misread_marks("ministerrâdet", ("sv",)), _misread_marks("MINISTERRADET", ("sv",))
    (True, True)
    >>> _misread_marks("vàa", ("sv",))
    False
    """
    known = accented_words(languages).get(without_marks(word))
    return known is not None and len(known) == len(word) and all(
        a == without_marks(a) or b != without_marks(b)
        for a, b in zip(word.lower(), known, strict=True))


@cache
def _frequencies(language: str) -> dict[str, float]:
    return dict(wordfreq.get_frequency_dict(language))


@lru_cache(maxsize=1 << 16)  # the repair rules ask about the same words on every page
def zipf(word: str, languages: tuple[str, ...]) -> float:
    """The highest Zipf frequency of ``word`` (lowercased) in ``languages``; 0 if unknown.

    >>> zipf("fiscal", ("pt",)) > 4 > zipf("fiscai", ("pt",))
    True
    """
    word = word.lower()
    best = max((_frequencies(lang).get(word, 0.0) for lang in languages), default=0.0)
    return round(math.log10(best) + 9, 2) if best > 0 else 0.0


def without_marks(word: str) -> str:
    """A word lower-cased with its accents and other combining marks taken off.

    >>> without_marks("Överensstämmelse"), without_marks("ôverensstâmmelse")
    ('overensstammelse', 'overensstammelse')
    """
    if word.isascii():  # most words: nothing to take off
        return word.lower()
    return "".join(ch for ch in unicodedata.normalize("NFD", word.lower())
                   if not unicodedata.combining(ch))


@cache
def accented_words(languages: tuple[str, ...], min_zipf: float = 2.5) -> dict[str, str]:
    """The words of ``languages`` at least ``min_zipf`` frequent, by their form without
    marks (:func:`without_marks`): for each form, its most frequent word (of the
    languages' equally frequent words, the first language's)."""
    best = _most_frequent((bare, frequency, word) for language in languages
                          for bare, (frequency, word)
                          in _accented_words_of(language, min_zipf).items())
    return {bare: word for bare, (_, word) in best.items()}


@cache
def _accented_words_of(language: str, min_zipf: float) -> dict[str, tuple[float, str]]:
    """:func:`accented_words` of one language, with each word's frequency: the part a
    process computes once, whichever languages it asks about together."""
    floor = 10 ** (min_zipf - 9)
    return _most_frequent((without_marks(word), frequency, word)
                          for word, frequency in _frequencies(language).items()
                          if frequency >= floor and word.isalpha())


def _most_frequent(entries: Iterable[tuple[str, float, str]]) -> dict[str, tuple[float, str]]:
    """For each form of ``(form, frequency, word)`` entries, the most frequent word with
    its frequency; of equally frequent words, the first."""
    best: dict[str, tuple[float, str]] = {}
    for bare, frequency, word in entries:
        if bare not in best or frequency > best[bare][0]:
            best[bare] = (frequency, word)
    return best


#: Devanagari consonants, as a character-class range for building patterns.
DEVANAGARI_CONSONANTS = "\u0915-\u0939\u0958-\u095f"
#: One consonant (with its nukta), and a conjunct: consonants joined by virama.
DEVANAGARI_CONSONANT = f"[{DEVANAGARI_CONSONANTS}]\u093c?"
DEVANAGARI_CLUSTER = f"{DEVANAGARI_CONSONANT}(?:\u094d{DEVANAGARI_CONSONANT})*"

_DEVANAGARI_WORD = re.compile(r"\S*[\u0900-\u097f]\S*")
# A vowel sign, virama or nukta with no consonant before it (``ि`` typed in visual
# order, ``ूािधकार``), or Latin letters and symbols inside a Devanagari word (``बोड=``).
_MISSPELT = re.compile(
    f"(?:^|(?<![{DEVANAGARI_CONSONANTS}\u093c]))[\u093e-\u094d\u093c]|[A-Za-z+=?<>@#$%^&*]")


def broken_devanagari(text: str) -> tuple[int, int]:
    """Count Devanagari words and those that break the script's spelling.

    >>> broken_devanagari("भारत का संविधान")
    (3, 0)
    >>> broken_devanagari("भारत का संिवधान ूािधकार बोड=")
    (5, 3)
    """
    found = _DEVANAGARI_WORD.findall(text)
    return len(found), sum(bool(_MISSPELT.search(word.strip(".,;:()[]।"))) for word in found)
