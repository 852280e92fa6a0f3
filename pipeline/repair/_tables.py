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
