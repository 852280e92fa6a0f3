"""Kruti Dev 010 to Unicode: glyphs, reordered signs, and tokens that may be either font."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.config import Settings
from pipeline.read import pdfread
from pipeline.text import legacy_hindi
from pipeline.text.legacy_hindi import convert_legacy_text, krutidev_to_unicode

#: Kruti Dev as typed, and the Unicode a reader sees printed: the words of the Lok Sabha
#: bulletin (checked against Tesseract's reading of the printed page) and the common
#: words whose leftovers were reported (``U;k;ky;``, ``Fkk``, ``D;ksa``, ``Lo;a``, ``A``).
WORDS = {
    "yksd lHkk": "लोक सभा",
    "iwokZg~u": "पूर्वाह्न",
    "izLrqr fd;kA": "प्रस्तुत किया।",
    ":ijs[kk": "रूपरेखा",
    "#i;s": "रुपये",
    "j[kh%": "रखी:",
    "vr%": "अतः",
    "iqj%LFkkfir": "पुरःस्थापित",
    "eas": "में",
    "fooj.k(": "विवरण;",
    "fooj.k¹": "विवरण*",
}
#: Tokens that may be Latin or Kruti Dev, read in a Hindi sentence.
IN_CONTEXT = {
    "og U;k;ky; x;k Fkk A": "वह न्यायालय गया था ।",
    "D;ksa og Lo;a ugha x;k": "क्यों वह स्वयं नहीं गया",
    "vkSj O;; dk fooj.k": "और व्यय का विवरण",
    "iwokZg~u 11-00 cts": "पूर्वाह्न 11.00 बजे",
    "o\"kZ 2020&21 ds fy,": "वर्ष 2020-21 के लिए",
    "gS A\n3- lHkk iVy": "है ।\n3. सभा पटल",
}
#: Latin in a Kruti Dev page that must stay Latin.
KEPT = {
    "Hkkx II—[k.M 3 PART II—Section 3 (ii) REGD. NO. D. L.-33004/99":
        "भाग II—खण्ड 3 PART II—Section 3 (ii) REGD. NO. D. L.-33004/99",
    "lHkk MGIPMRND—4999LS(S3)—01-02-2020.": "सभा MGIPMRND—4999LS(S3)—01-02-2020.",
    "Hkkjr dk jkti= THE GAZETTE OF INDIA A Bill": "भारत का राजपत्र THE GAZETTE OF INDIA A Bill",
}


@pytest.mark.parametrize(("typed", "printed"), WORDS.items())
def test_kruti_dev_words_convert_to_what_is_printed(typed: str, printed: str):
    assert krutidev_to_unicode(typed) == printed


@pytest.mark.parametrize(("typed", "printed"), IN_CONTEXT.items())
def test_capitals_and_numbers_inside_hindi_are_kruti_dev(typed: str, printed: str):
    assert convert_legacy_text(typed) == printed


@pytest.mark.parametrize(("typed", "printed"), KEPT.items())
def test_latin_in_a_kruti_dev_page_stays(typed: str, printed: str):
    assert convert_legacy_text(typed) == printed


def test_the_lok_sabha_bulletin_converts_with_no_latin_left_in_hindi_words(shared: Path,
                                                                           tmp_path: Path):
    pdf = shared / "corpora" / "india-pdfs" / "010220_hi.pdf"
    settings = Settings.for_root(tmp_path)
    pages = [pdfread._read_layer(pdf, index, settings) for index in range(2)]
    assert [getattr(page, "method", None) for page in pages] == ["legacy-font"] * 2
    text = "\n".join(getattr(page, "text", "") for page in pages)
    mixed = [token for token in text.split()
             if re.search("[\u0900-\u097f]", token) and re.search("[A-Za-z]", token)]
    assert mixed == []
    assert "पूर्वाह्न 11.00 बजे" in text and "व्यय" in text and "रूपरेखा" in text


#: Kruti Dev's letters and signs, Latin text and the white space and dashes tokens end at.
_MIXED_TEXT = st.text(alphabet="akMlHAZq/.'\";,]ª¼~ \n—-", max_size=40)


@given(_MIXED_TEXT)
def test_a_text_with_no_tell_tale_anywhere_has_no_token_with_one(text: str):
    # convert_legacy_runs returns such a text at once: it would convert nothing of it
    if not legacy_hindi._KRUTI_ANYWHERE.search(text):
        tokens = legacy_hindi._TOKEN.findall(text)
        assert not any(legacy_hindi._KRUTI_MARK.search(token) for token in tokens)

