"""Character tables of the repair rules."""

from __future__ import annotations

#: Letters a Vietnamese-trained OCR model made of quotation marks, colons and full
#: stops in Portuguese, English and Swedish pages; none occurs in those languages.
VIETNAMESE_JUNK = "ẠạỊịỗ¿¼"

#: Cyrillic letters that look like Latin ones, as OCR puts them inside Latin words.
CYRILLIC_TO_LATIN = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i",
    "ї": "i", "ј": "j", "ѕ": "s", "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M",
    "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "І": "I",
})

#: OCR confusions tried on unknown words, as (wrong, right) substrings.
WORD_CONFUSIONS: tuple[tuple[str, str], ...] = (
    ("i", "l"), ("l", "i"), ("ă", "å"), ("ä", "å"), ("rn", "m"), ("ii", "ü"),
)

#: Latin phrases of legal and learned prose, whose words no modern lexicon knows: the
#: OCR word fix leaves them alone (``inter alia`` is no misread ``inter alla``).
LATIN_PHRASES: tuple[str, ...] = (
    "a fortiori", "a posteriori", "a priori", "ab initio", "ad hoc", "ad infinitum",
    "ad interim", "ad referendum", "ad valorem", "bona fide", "bona fides", "de facto",
    "de jure", "erga omnes", "et al", "et seq", "et sequentes", "ex ante", "ex officio",
    "ex post", "ex tunc", "ex nunc", "habeas corpus", "in fine", "in limine",
    "in loco", "in situ", "in totum", "inter alia", "inter partes", "inter vivos",
    "ipso facto", "ipso jure", "lex specialis", "mutatis mutandis", "pari passu",
    "per capita", "per se", "prima facie", "pro rata", "pro forma", "pro tempore",
    "quid pro quo", "sine die", "sine qua non", "status quo", "stricto sensu",
    "lato sensu", "sub judice", "sui generis", "ultra vires", "vice versa",
)
