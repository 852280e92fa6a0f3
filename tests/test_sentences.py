"""Sentence splitter: legal abbreviations, numbering, danda, and hand-checked seed passages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SAMPLES

from pipeline.split.sentences import split_sentences

CASES = Path(__file__).parent / "data" / "seed_sentences.json"


def sentences(text: str, language: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text, language)]


@pytest.mark.parametrize(("language", "text", "expected"), [
    ("pt", "Conforme o Art. 84 da Constituição. O Decreto entra em vigor.",
     ["Conforme o Art. 84 da Constituição.", "O Decreto entra em vigor."]),
    ("pt", "Lei nº. 7.689, de 15 de dezembro de 1988. Fica promulgado o Protocolo.",
     ["Lei nº. 7.689, de 15 de dezembro de 1988.", "Fica promulgado o Protocolo."]),
    ("pt", "Decisão n.o 1/2019 do Comité. Os artigos 94.o e 100.o aplicam-se.",
     ["Decisão n.o 1/2019 do Comité.", "Os artigos 94.o e 100.o aplicam-se."]),
    ("pt", "Outros rendimentos, p.ex. Juros, são tributados. Fim.",
     ["Outros rendimentos, p.ex. Juros, são tributados.", "Fim."]),
    ("en", "The term, i.e. The State, applies. It ends.",
     ["The term, i.e. The State, applies.", "It ends."]),
    ("en", "Sd/- Rajat Bansal. Joint Secretary.", ["Sd/- Rajat Bansal.", "Joint Secretary."]),
    ("en", "shall not exceed 12,5 per cent of the gross amount. However, it applies.",
     ["shall not exceed 12,5 per cent of the gross amount.", "However, it applies."]),
    ("en", "New Delhi, the 17th July, 2019 S.O. 2562(E). Whereas the Protocol was signed.",
     ["New Delhi, the 17th July, 2019 S.O. 2562(E).", "Whereas the Protocol was signed."]),
    ("en", "1. This Convention shall apply to persons. 2. It shall apply to taxes.",
     ["1. This Convention shall apply to persons.", "2. It shall apply to taxes."]),
    ("en", '"(2). However, such dividends may be taxed."',
     ['"(2). However, such dividends may be taxed."']),
    ("sv", "Skatter, t.ex. Inkomstskatt, m.fl. Andra skatter. Avtalet gäller.",
     ["Skatter, t.ex. Inkomstskatt, m.fl. Andra skatter.", "Avtalet gäller."]),
    ("hi", "यह करार लागू होगा। भारत सरकार ने अधिसूचित किया।",
     ["यह करार लागू होगा।", "भारत सरकार ने अधिसूचित किया।"]),
])
def test_splitter_cases(language: str, text: str, expected: list[str]):
    assert sentences(text, language) == expected


def test_hand_checked_seed_passages():
    """Passages of the seeds split by hand (tests/data/seed_sentences.json)."""
    for case in json.loads(CASES.read_text(encoding="utf-8")):
        text = (SAMPLES / case["seed"]).read_text(encoding="utf-8")
        passage = text[text.index(case["first"]):text.index(case["last"]) + len(case["last"])]
        assert sentences(passage, case["language"]) == case["sentences"], case["seed"]


def test_items_of_a_list_ending_in_commas_are_segments_when_wrapped():
    """A list of references as a PDF wraps it, and in a narrow column: each item is a
    segment (the translation memory segments it so), a wrap inside an item is not, and
    a comma before a capitalised word that does not open the next item is no end."""
    wrapped = ("as amended by:\n"
               "Commission Regulation (EU) No 70/2014, OJ L 23, 28.1.2014, p. 25, as last\n"
               "corrected,\n"
               "Commission Regulation (EU) No 245/2014, OJ L 74, 14.3.2014, p. 33,\n"
               "Commission Implementing Regulation (EU) 2019/413, OJ L 73, 15.3.2019, p. 98,\n"
               "signed at Brussels and at Bern, Switzerland, by the Parties in two\n"
               "Commission copies.")
    assert [" ".join(s.split()) for s in sentences(wrapped, "en")] == [
        "as amended by:",
        "Commission Regulation (EU) No 70/2014, OJ L 23, 28.1.2014, p. 25, as last corrected,",
        "Commission Regulation (EU) No 245/2014, OJ L 74, 14.3.2014, p. 33,",
        "Commission Implementing Regulation (EU) 2019/413, OJ L 73, 15.3.2019, p. 98, signed "
        "at Brussels and at Bern, Switzerland, by the Parties in two Commission copies."]
    column = ("Regulamento (UE) n.o 70/2014 da\nComissão (JO L 23 de 28.1.2014,\np. 25),\n"
              "Regulamento (UE) n.o 245/2014 da\nComissão (JO L 74 de 14.3.2014,\np. 33).")
    assert len(sentences(column, "pt")) == 2


def test_lead_ins_and_lines_in_capitals_are_segments():
    """``Whereas:`` after a recital ending in a comma, a line in capitals after one in
    mixed case, and the Swedish enacting formula in capitals before its recital in
    lower case, are segments of their own, as the
    translation memories of EU decisions segment them (the text as a PDF's reflowed
    paragraphs, and as a scan's blocks). A lower-case line after a line in capitals
    that runs on (a comma) still continues it."""
    english = ("THE JOINT COMMITTEE,\nHaving regard to the Regional Convention on "
               "pan-Euro-Mediterranean preferential rules of origin, and in particular "
               "Article 4 thereof,\nWhereas:\n(1) The Convention provides rules.")
    assert sentences(english, "en") == [
        "THE JOINT COMMITTEE,", english.split("\n")[1], "Whereas:",
        "(1) The Convention provides rules."]
    swedish = ("GEMENSAMMA KOMMITTÉN HAR ANTAGIT DETTA BESLUT\n\nmed beaktande av den "
               "regionala konventionen, och\n\nav följande skäl:")
    assert sentences(swedish, "sv") == [
        "GEMENSAMMA KOMMITTÉN HAR ANTAGIT DETTA BESLUT",
        "med beaktande av den regionala konventionen, och\n\nav följande skäl:"]
    assert len(sentences("A PRESIDENTA DA REPÚBLICA,\nno uso da atribuição que lhe "
                         "confere o art. 84, decreta.", "pt")) == 1
    title = ("amending the provisions of Appendix II of the Regional Convention on "
             "pan-Euro-Mediterranean preferential rules of origin\nTHE JOINT COMMITTEE,")
    assert sentences(title, "en") == title.split("\n")
    hindi = "भारत सरकार ने करार को अधिसूचित\nकिया और यह GST नियम के अधीन है।"
    assert sentences(hindi, "hi") == [hindi]  # no capitals in Devanagari
