"""Sentence splitter: legal abbreviations, numbering, danda, and hand-checked seed passages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SAMPLES

from pipeline.sentences import split_sentences

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
