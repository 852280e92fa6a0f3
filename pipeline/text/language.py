"""Language evidence: which language a piece of text is in, and how we know.

Below every stage that needs to know: ingestion (the OCR pack of a scanned page, a
text layer typed in a legacy Hindi font), the page decision and the language split.
Devanagari script decides Hindi; Hindi typed in a legacy font is told by its letter
patterns (:func:`looks_like_legacy_hindi`); other text is labelled by langdetect
restricted to the configured languages and seeded, so the same text always gets the
same label (:func:`detect_language`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Protocol

from langdetect.detector_factory import PROFILES_DIRECTORY, DetectorFactory
from langdetect.lang_detect_exception import LangDetectException

from pipeline.text.lexicon import is_known
from pipeline.text.quick_langdetect import QuickDetector

__all__ = ["DetectionSettings", "detect_language", "is_devanagari", "letters",
           "looks_like_legacy_hindi", "without_accents"]


class DetectionSettings(Protocol):
    """What :func:`detect_language` reads of the project's settings
    (:class:`pipeline.config.Settings` has them)."""

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages a block may be labelled with."""

    @property
    def min_block_letters(self) -> int:
        """The fewest letters a block needs to be judged on its own."""

    @property
    def langdetect_seed(self) -> int:
        """langdetect's seed: the same text always gets the same label."""

_PARENTHESES = re.compile(r"\([^()]*\)")


def letters(text: str) -> list[str]:
    """The letters of ``text`` (Devanagari vowel signs are marks, not letters)."""
    return list(filter(str.isalpha, text))


def without_accents(text: str) -> str:
    """``text`` with its accents dropped, compatibility characters spelled out.

    >>> without_accents("Acórdão nº 5, SUÉCIA")
    'Acordao no 5, SUECIA'
    """
    return "".join(ch for ch in unicodedata.normalize("NFKD", text)
                   if not unicodedata.combining(ch))


def is_devanagari(ch: str) -> bool:
    """Whether ``ch`` is in the Devanagari blocks."""
    return "\u0900" <= ch <= "\u097f" or "\ua8e0" <= ch <= "\ua8ff"


@cache
def _factory(languages: tuple[str, ...], seed: int) -> DetectorFactory:
    """A langdetect factory that knows only ``languages``: the restriction is the profiles."""
    factory = DetectorFactory()
    profiles = [(Path(PROFILES_DIRECTORY) / lang).read_text(encoding="utf-8")
                for lang in languages]
    factory.load_json_profile(profiles)
    factory.set_seed(seed)
    return factory


_LATIN_CAPITALS = re.compile(r"\b[A-Z][A-Z]+\b")


def detect_language(text: str, settings: DetectionSettings, legacy_fonts: bool = True
                    ) -> tuple[str, str]:
    """Label one block: returns ``(language, evidence)``.

    Evidence is ``script`` (mostly Devanagari letters: Hindi), ``legacy-font`` (Hindi
    typed in a legacy font, see :func:`looks_like_legacy_hindi`; not looked for if
    ``legacy_fonts`` is false: OCR reads letters as they look, so its text is in no
    font's encoding), ``langdetect``, ``neighbours`` (too few letters to judge;
    resolved by :func:`label_blocks`) or ``no-letters``.

    >>> from types import SimpleNamespace
    >>> s = SimpleNamespace(languages=("pt", "en", "sv", "hi"), min_block_letters=40,
    ...                     langdetect_seed=0)
    >>> detect_language("O presente Protocolo entrará em vigor na data da última notificação.", s)
    ('pt', 'langdetect')
    >>> detect_language("यह प्रोटोकॉल दोनों देशों के बीच लागू होगा और इसके प्रावधान प्रभावी होंगे", s)
    ('hi', 'script')
    >>> detect_language("(a)", s)
    ('other', 'neighbours')
    >>> detect_language("रजिस्ट्री सं॰ डी॰ REGD. NO. असाधारण EXTRAORDINARY भाग II—खण्ड 3", s)
    ('hi', 'script')
    """
    found = letters(text)
    if not found:
        return "other", "no-letters"
    # Words in Latin capitals (REGD., EXTRAORDINARY, PART II) are the English half of a
    # bilingual Gazette of India masthead: they do not outvote its Hindi.
    devanagari = sum(map(is_devanagari, found))
    mixed_case = letters(_LATIN_CAPITALS.sub(" ", text))
    if devanagari and devanagari / len(mixed_case) >= 0.5 and "hi" in settings.languages:
        return "hi", "script"
    if len(found) < settings.min_block_letters:
        return "other", "neighbours"
    latin_langs = tuple(lang for lang in settings.languages if lang != "hi")
    if legacy_fonts and "hi" in settings.languages and looks_like_legacy_hindi(text, latin_langs):
        return "hi", "legacy-font"
    # Treaties quote foreign terms in parentheses: "o imposto nacional sobre a renda
    # (den statliga inkomstskatten)". Judge the text around them where there is enough.
    outside = _PARENTHESES.sub(" ", text)
    if len(letters(outside)) >= settings.min_block_letters:
        text = outside
    detector = QuickDetector(_factory(latin_langs, settings.langdetect_seed))
    detector.append(unicodedata.normalize("NFC", _capitals_lowered(text)))
    try:
        return detector.detect(), "langdetect"
    except LangDetectException:
        return "other", "neighbours"


def _capitals_lowered(text: str) -> str:
    """``text`` with its words in capitals in lower case: langdetect takes no n-grams
    from a word in capitals, so a heading or a table in capitals would be judged by its
    few other words (``DECISÕES DE 22 DE SETEMBRO … INTERESSADO: LORIVAL BENTO`` was
    English).

    >>> _capitals_lowered("PORTARIA Nº 5, DE 2 DE MARÇO de 2026 (Anexo)")
    'portaria Nº 5, de 2 de março de 2026 (Anexo)'
    """
    return _WORD.sub(lambda m: m.group().lower() if m.group().isupper() else m.group(), text)


_WORD = re.compile(r"\S+")
_LOWER_TOKEN = re.compile(r"\S*[a-z]\S*")


def looks_like_legacy_hindi(text: str, latin_languages: tuple[str, ...]) -> bool:
    """True for Hindi typed in a legacy font (Kruti Dev and kin) and read as Latin letters.

    Evidence: of the tokens with lower-case letters, most are no word of the Latin
    languages, and many carry ``k``, the legacy fonts' sign for the vowel ा.

    >>> looks_like_legacy_hindi("jftLVªh laö Mhö vlk/kj.k EXTRAORDINARY Hkkx II—[k.M 3—mi "
    ...                         "izkf/dkj ls izdkf'kr PUBLISHED ubZ fnYyh] cqèkokj] tqykbZ",
    ...                         ("en", "pt", "sv"))
    True
    >>> looks_like_legacy_hindi("O presente Protocolo entrará em vigor na data da última "
    ...                         "notificação pela via diplomática", ("en", "pt", "sv"))
    False
    """
    tokens = _LOWER_TOKEN.findall(text)
    if len(tokens) < 8 or sum("k" in t for t in tokens) < 0.17 * len(tokens):
        return False  # too few tokens with "k" to pass the test below (18 %, at least)
    unknown = [t for t in tokens
               if not any(is_known(w, latin_languages) for w in re.findall(r"[^\W\d_]+", t))
               or re.search(r"[^\w\s'’.,;:()-]", t)]
    with_aa = [t for t in unknown if "k" in t]
    return len(unknown) >= 0.6 * len(tokens) and len(with_aa) >= 0.3 * len(unknown)
