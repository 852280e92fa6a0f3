"""Hindi typed in the Kruti Dev 010 legacy font, converted to Unicode Devanagari.

Kruti Dev puts Devanagari glyphs on the code points of Latin letters, so a PDF text
layer made with it reads as ``yksd lHkk`` (लोक सभा). Conversion has three steps:

1. glyph sequences become Devanagari, longest first (``Hk`` → भ before ``H`` → भ्);
2. the short i (``f``), typed before the consonant it follows in speech, moves after
   that consonant and any conjunct it heads (``fLFkfr`` → स्थिति);
3. the reph (``Z``), typed after its syllable, moves before the consonant cluster it
   sits on (``dk;Z`` → कार्य).

The table is written for this project from the font's layout (the letters a Kruti
Dev typist presses for each sign). Whether a conversion worked is judged by the Hindi
lexicon (:func:`conversion_quality`), not assumed.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pipeline.text.lexicon import DEVANAGARI_CLUSTER, known_share

__all__ = [
    "conversion_quality",
    "convert_legacy_runs",
    "convert_legacy_text",
    "krutidev_to_unicode",
    "place_visual_signs",
]

# Glyph sequences, tried longest first. Full consonants are a half form plus the
# vertical bar "k", so "Hk" (भ) must win over "H" (भ्) + "k" (ा).
_TABLE: dict[str, str] = {
    # independent vowels
    "vkS": "औ", "vks": "ओ", "vk": "आ", "v": "अ", "bZ": "ई", "b": "इ", "m": "उ",
    "Å": "ऊ", "_": "ऋ", ",s": "ऐ", ",": "ए", "v‚": "ऑ",
    # consonants written as half form + bar
    "[k": "ख", "?k": "घ", ".k": "ण", "Fk": "थ", "/k": "ध", "Hk": "भ", "'k": "श",
    '"k': "ष", "{k": "क्ष", "Ùk": "त्त", "èk": "ध",
    # full consonants with their own glyph
    "d": "क", "x": "ग", "³": "ङ", "p": "च", "N": "छ", "t": "ज", ">": "झ", "¥": "ञ",
    "V": "ट", "B": "ठ", "M": "ड", "<": "ढ", "r": "त", "n": "द", "u": "न", "i": "प",
    "Q": "फ", "c": "ब", "e": "म", ";": "य", "j": "र", "y": "ल", "o": "व", "l": "स",
    "g": "ह", "K": "ज्ञ", "J": "श्र", "Ø": "क्र", "|": "द्य", "}": "द्व", "Í": "द्द",
    "Ë": "द्ध", "Ý": "फ़", "=": "त्र", "æ": "द्र", "#": "रु", ":": "रू", "V~": "ट्", "M+": "ड़", "<+": "ढ़",
    # half forms
    "D": "क्", "[": "ख्", "X": "ग्", "?": "घ्", "P": "च्", "T": "ज्", ".": "ण्",
    "R": "त्", "F": "थ्", "/": "ध्", "U": "न्", "I": "प्", "C": "ब्", "H": "भ्",
    "E": "म्", "¸": "य्", "Y": "ल्", "O": "व्", "'": "श्", '"': "ष्", "L": "स्",
    "{": "क्ष्", "Ù": "त्त्", "Þ": "फ्", "è": "ध्",
    # vowel signs and marks ("f" and "Z" are placeholders, reordered below)
    "ks": "ो", "kS": "ौ", "k": "ा", "h": "ी", "q": "ु", "w": "ू", "`": "ृ", "s": "े",
    "S": "ै", "a": "ं", "¡": "ँ", "%": "ः", "~": "्", "z": "्र", "ª": "्र", "+": "़",
    "±": "Zं", "Ê": "ीZ",
    # punctuation and digits that moved
    "A": "।", "-": ".", "&": "-", "¼": "(", "½": ")", "]": ",", "@": "/", "ö": "॰",
    "Œ": "॰", "(": ";", "¹": "*",
}
_GLYPHS = re.compile("|".join(re.escape(k) for k in sorted(_TABLE, key=len, reverse=True)))

_MARKS = "[\u093e-\u094c\u0901-\u0903\u0962\u0963]*"


def place_visual_signs(text: str, short_i: str = "f", reph: str = "Z") -> str:
    """Put signs typed (or drawn) where they are seen where Unicode stores them.

    ``short_i`` stands for a short i before the consonant cluster it follows in
    speech; ``reph`` for the reph after the cluster (and vowel signs) it sits on.

    >>> place_visual_signs("fLFkfr")  # nothing to place in Latin letters
    'fLFkfr'
    >>> place_visual_signs("fदन वषZ")
    'दिन वर्ष'
    """
    short, mark = re.escape(short_i), re.escape(reph)
    text = re.sub(f"{short}({DEVANAGARI_CLUSTER})", lambda m: m.group(1) + "ि", text)
    return re.sub(f"({DEVANAGARI_CLUSTER})({_MARKS}){mark}",
                  lambda m: "र्" + m.group(1) + m.group(2), text)


def krutidev_to_unicode(text: str) -> str:
    """Convert text typed in Kruti Dev 010 to Unicode Devanagari.

    >>> krutidev_to_unicode("yksd lHkk lekpkj Hkkx 1")
    'लोक सभा समाचार भाग 1'
    >>> krutidev_to_unicode("fuEufyf[kr fLFkfr dk;Z iwokZg~u 11-00 cts")
    'निम्नलिखित स्थिति कार्य पूर्वाह्न 11.00 बजे'
    >>> krutidev_to_unicode("¼Jherh fueZyk lhrkje.k½ us lafo/kku ds vuqPNsn 281")
    '(श्रीमती निर्मला सीतारमण) ने संविधान के अनुच्छेद 281'
    >>> krutidev_to_unicode("eas j[kh% vr% :ijs[kk #i;s")
    'में रखी: अतः रूपरेखा रुपये'
    """
    converted = place_visual_signs(_GLYPHS.sub(lambda m: _TABLE[m.group()], text))
    converted = converted.replace("f", "ि").replace("Z", "र्")
    return _COLON_AFTER_VOWEL.sub(":", _NASAL_BEFORE_SIGN.sub(r"\2\1", converted))


#: A nasal sign extracted before the vowel sign it sits on (``eas`` → मंे): Unicode
#: stores the vowel sign first (में).
_NASAL_BEFORE_SIGN = re.compile("([\u0901\u0902])([\u093e-\u094c])")
#: Kruti Dev's visarga key typed for a colon (``j[kh%`` → रखी:): a visarga never ends
#: a word after a long vowel sign.
_COLON_AFTER_VOWEL = re.compile(r"(?<=[ाीूेैोौ])ः(?=\s|$)")


# Tokens left as they are in a converted page: Devanagari already, glyph ids, and
# words in ASCII brackets (``(ii)``: Kruti Dev has its own, ``¼ ½``; a ``(`` ending a
# Kruti Dev word is its semicolon). Tokens that may be either: Latin capitals
# (``EXTRAORDINARY``, ``PART``, ``D.``, but also ``O;;`` व्यय and the danda ``A``),
# capitalized words (``Section``, but also ``Fkk`` था), and numbers with Kruti Dev's
# full stop or hyphen (``11-00`` 11.00, ``2020&21`` 2020-21).
_LATIN_CAPITALS = re.compile(r"[^a-z\s]*[A-Z][^a-z\s]*")
_DEVANAGARI_OR_GLYPH = re.compile(r"[\u0900-\u097f]|\(cid:")
_KEEP = re.compile(rf"^\(|\)|{_DEVANAGARI_OR_GLYPH.pattern}")
#: Signs only Kruti Dev text uses among tokens with no letters (``¼1½``, ``2333]``).
_KRUTI_PUNCTUATION = re.compile("[¼½\\]@]")
#: Signs a number may carry in either font: ``-`` is Kruti Dev's full stop.
_EITHER_PUNCTUATION = re.compile("[-&%]")
_TOKEN = re.compile(r"[^\s—–]+")
_DEVANAGARI_LETTER = re.compile("[\u0904-\u0939\u0958-\u0961]")


def convert_legacy_text(text: str) -> str:
    """Convert a page typed in Kruti Dev, leaving what is not Kruti Dev alone.

    Numbers and punctuation alone are converted only with Kruti Dev's own signs in
    them: in a bilingual masthead ``17,`` is English, ``17]`` Hindi. A token that may
    be either (Latin capitals, a capitalized word, a number with ``-``) is converted
    where it stands after converted Hindi (or opens a line) and before more of it (or
    the end), and only if what it becomes is Hindi words or no letters at all.

    >>> convert_legacy_text("Hkkx II—[k.M 3 PART II—Section 3 (ii) REGD. NO. D. L.-33004/99")
    'भाग II—खण्ड 3 PART II—Section 3 (ii) REGD. NO. D. L.-33004/99'
    >>> convert_legacy_text("la- 2333] ubZ fnYyh] tqykbZ 17, 2019")
    'सं. 2333, नई दिल्ली, जुलाई 17, 2019'
    >>> convert_legacy_text("vkSj O;; dk fooj.k( iwokZg~u 11-00 cts og ogka Fkk A\\n3- lHkk")
    'और व्यय का विवरण; पूर्वाह्न 11.00 बजे वह वहां था ।\\n3. सभा'
    """
    tokens = _TOKEN.findall(text)
    gaps = _TOKEN.split(text)  # the text before each token, and after the last
    kinds = [_token_kind(token) for token in tokens]
    words = list(tokens)
    for index, token in enumerate(tokens):
        if kinds[index] == "keep":
            continue
        hindi = krutidev_to_unicode(token)
        if kinds[index] == "either":
            opens_line = index == 0 or "\n" in gaps[index]
            after_hindi = opens_line or kinds[index - 1] == "hindi"
            before_hindi = index + 1 == len(tokens) or kinds[index + 1] != "keep"
            kinds[index] = ("hindi" if after_hindi and before_hindi and _reads_as_hindi(hindi)
                            else "keep")
        if kinds[index] == "hindi":
            words[index] = hindi
    return "".join(gap + word for gap, word in zip(gaps, [*words, ""], strict=True))


def _token_kind(token: str) -> str:
    """``hindi`` (Kruti Dev), ``keep`` (not Kruti Dev) or ``either`` (see above)."""
    if _KEEP.search(token):
        return "keep"
    if _LATIN_CAPITALS.fullmatch(token) or _is_english_title(token):
        return "either"
    if re.search("[A-Za-z]", token) or _KRUTI_PUNCTUATION.search(token):
        return "hindi"
    return "either" if _EITHER_PUNCTUATION.search(token) else "keep"


def _reads_as_hindi(converted: str) -> bool:
    """No Devanagari letters at all (``11.00``, ``।``), or only known Hindi words."""
    if not _DEVANAGARI_LETTER.search(converted):
        return not re.search("[A-Za-z]", converted)
    share, count = known_share(converted, ("hi",))
    return count > 0 and share == 1.0


# Kruti Dev's tell-tales inside a word: a capital after a small letter (``lHkk``), a sign
# of its own (``jftLVªh``, ``¼``), one of its letter pairs made with punctuation (``/k``
# ध, ``.k`` ण, ``'k`` श, ``"k`` ष, ``;k``), or ``]`` for a comma (``fnYyh]``).
_KRUTI_MARK = re.compile(r"[a-z][A-Z]|[ª¡¼½`~]|[/.'\";][kM]|^,[a-z]|[a-z]\]$")
#: The same tell-tales anywhere in a text, unanchored: a text without any has no token
#: with one, and nothing of it is Kruti Dev (most text: no need to look token by token).
_KRUTI_ANYWHERE = re.compile(r"[a-z][A-Z]|[ª¡¼½`~]|[/.'\";][kM]|,[a-z]|[a-z]\]")


def convert_legacy_runs(text: str) -> str:
    """Convert the stretches of a mixed text that are Kruti Dev; leave the rest alone.

    A stretch is a run of tokens with no Devanagari, glyph ids or long known Latin
    words in it; it is converted when at least three of its words, and 40 % of those
    with small letters, carry Kruti Dev's tell-tales. Text with none is returned as is.

    >>> convert_legacy_runs("of India jftLVªh laö Mhö vlk/kj.k EXTRAORDINARY Hkkx II—[k.M 3 "
    ...                     "PART II the Government")
    'of India रजिस्ट्री सं॰ डी॰ असाधरण EXTRAORDINARY भाग II—खण्ड 3 PART II the Government'
    >>> convert_legacy_runs("skatteavtalet mellan Brasilien och Sverige undertecknat")
    'skatteavtalet mellan Brasilien och Sverige undertecknat'
    """
    if not _KRUTI_ANYWHERE.search(text):
        return text
    tokens = list(_TOKEN.finditer(text))
    pieces: list[str] = []
    run: list[re.Match[str]] = []
    at = 0

    def close() -> None:
        nonlocal at
        hindi = [t for t in run if _is_kruti_word(t.group())]
        marked = [t for t in hindi if _KRUTI_MARK.search(t.group())]
        if len(marked) >= 3 and len(marked) >= 0.4 * len(hindi):
            start, end = hindi[0].start(), hindi[-1].end()
            pieces.extend((text[at:start], convert_legacy_text(text[start:end])))
            at = end
        run.clear()

    for token in tokens:
        if _ends_run(token.group()):
            close()
        else:
            run.append(token)
    close()
    return "".join(pieces) + text[at:]


#: Tokens judged below, remembered: a gazette edition's pages repeat their words, and the
#: repair rules look at every page a few times (a fifth of its repair time was here).
_TOKENS_REMEMBERED = 1 << 16


@lru_cache(maxsize=_TOKENS_REMEMBERED)
def _is_kruti_word(token: str) -> bool:
    """A token with small letters that has Kruti Dev's tell-tales or is no Latin word."""
    if not re.search("[a-z]", token):
        return False
    words = re.findall("[A-Za-z]+", token)
    return bool(_KRUTI_MARK.search(token)) or not all(
        known_share(word, ("en", "pt", "sv"))[0] == 1.0 for word in words)


@lru_cache(maxsize=_TOKENS_REMEMBERED)
def _ends_run(token: str) -> bool:
    """Devanagari, a glyph id, or a Latin word of 4+ letters, not all capitals, known to
    en/pt/sv (capitals are the English half of a bilingual masthead: they stay in)."""
    if _DEVANAGARI_OR_GLYPH.search(token):
        return True
    word = token.strip(".,;:()—-\"'")
    return (len(word) >= 4 and word.isalpha() and word.isascii() and not word.isupper()
            and known_share(word, ("en", "pt", "sv"))[0] == 1.0)


def _is_english_title(token: str) -> bool:
    """``Section``, ``Sub-section``: a capitalized English word (Kruti Dev has none)."""
    word = token.strip(".,;:()—-")
    return bool(word[:1].isupper() and word[1:].islower()) and all(
        known_share(part, ("en",))[0] == 1.0 for part in word.split("-") if part)


def conversion_quality(text: str) -> float:
    """Share of the words of converted text that the Hindi lexicon knows (0 to 1).

    >>> conversion_quality("लोक सभा समाचार भाग")
    1.0
    """
    share, count = known_share(text, ("hi",))
    return share if count else 0.0
