"""Repair: clean text stays as it is, mojibake is fixed, every change is logged and undoable."""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import fields
from functools import cache
from pathlib import Path

import cydifflib
import pdfplumber
import pytest
from conftest import SAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.records import IngestedDocument, Page, Source
from pipeline.repair import RULES, RepairConfig, repair, rules, undo
from pipeline.repair.glyph_map import infer_glyph_map
from pipeline.repair.rules import reflow_hard_wraps, remove_running_heads
from pipeline.text.lexicon import known_share


def document(*texts: str) -> IngestedDocument:
    source = Source(path=Path("x.txt"), relpath="x.txt", doc_id="x", kind="text", sha256="")
    pages = tuple(Page(number=i, method="text-dump", reason="", text=t)
                  for i, t in enumerate(texts, start=1))
    return IngestedDocument(source=source, pages=pages)


def mojibake(text: str) -> str:
    return text.encode("utf-8").decode("cp1252")


def test_config_mirrors_rules():
    assert [f.name for f in fields(RepairConfig)] == list(RULES)


#: Tokens as ``diff_steps`` cuts text, few enough to repeat: repeats make the matcher
#: choose between equally long matches; and from 200 tokens on, the commonest are junk.
_TOKENS = ["de", "a", "Convenção", " ", "\n", ",", ".", "-", "Artigo", "1º"]


@settings(max_examples=100)  # each example diffs twice in Python: CI's 10,000 took minutes
@given(st.lists(st.sampled_from(_TOKENS), min_size=200, max_size=300), st.data())
def test_the_compiled_matcher_finds_what_difflib_finds(old: list[str], data: st.DataObject):
    """The repair log's steps come from cydifflib's SequenceMatcher: the same opcodes
    as difflib's on any two token lists (here a list and that list with some tokens
    replaced, some deleted and some inserted), so its steps are difflib's."""
    new = list(old)
    for _ in range(data.draw(st.integers(0, 12))):
        at = data.draw(st.integers(0, len(new)))
        token = data.draw(st.sampled_from(_TOKENS))
        new[at:at + data.draw(st.integers(0, 2))] = [token] * data.draw(st.integers(0, 2))
    assert (cydifflib.SequenceMatcher(None, old, new).get_opcodes()
            == difflib.SequenceMatcher(None, old, new).get_opcodes())


def test_mojibake_is_fixed_and_logged():
    original = f"O Governo da {mojibake('República')} e a {mojibake('Suécia')}, “a Convenção”"
    cleaned = repair(document("intact", original))
    assert cleaned.pages[1].text == "O Governo da República e a Suécia, “a Convenção”"
    assert [(s.rule, s.page, s.before, s.after) for s in cleaned.steps] == [
        ("ftfy", 2, mojibake("República"), "República"),
        ("ftfy", 2, mojibake("Suécia"), "Suécia"),
    ]
    assert original[cleaned.steps[0].offset:].startswith(mojibake("República"))


def test_undo_restores_the_original():
    original = f"{mojibake('tributação')} &amp; {mojibake('evasão')}\r\nfiscal"
    cleaned = repair(document(original))
    assert cleaned.steps
    assert undo(cleaned.pages[0].text, cleaned.steps) == original


def test_repair_is_idempotent():
    once = repair(document(mojibake("Convenção destinada a evitar")))
    twice = repair(IngestedDocument(source=document().source, pages=once.pages))
    assert twice.pages == once.pages and twice.steps == ()


def test_rule_can_be_switched_off():
    text = mojibake("Convenção")
    cleaned = repair(document(text), RepairConfig(ftfy=False))
    assert cleaned.pages[0].text == text and cleaned.steps == ()


@cache
def seed_text(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


@cache
def repaired_seed(name: str) -> IngestedDocument:
    """A seed repaired once for all the tests that look at it (repair is deterministic
    and its records are frozen)."""
    return repair(document(seed_text(name)))


SEEDS = ["000_2a61d363becf8d44.txt", "001_92f44dad33fafe9c.txt", "002_9382d4ae2bbb4b06.txt",
         "003_0e74b7595024bb83.txt", "004_5572047d3d386aa9.txt"]


@pytest.mark.parametrize("name", SEEDS)
def test_seed_repairs_are_logged_undoable_idempotent_and_not_worse(name: str):
    text = seed_text(name)
    cleaned = repaired_seed(name)
    assert undo(cleaned.pages[0].text, cleaned.steps) == text
    again = repair(IngestedDocument(source=document().source, pages=cleaned.pages))
    assert again.steps == (), again.steps[:3]
    languages = ("pt", "en", "sv", "hi")
    before, _ = known_share(text, languages)
    after, _ = known_share(cleaned.pages[0].text, languages)
    assert after >= before


def test_clean_seed_is_untouched():
    assert repaired_seed("001_92f44dad33fafe9c.txt").steps == ()


@pytest.mark.parametrize(("name", "rule", "before", "after"), [
    ("000_2a61d363becf8d44.txt", "fix_quote_junk", "seguinteẠỊi", 'seguinte:"'),
    ("000_2a61d363becf8d44.txt", "fix_numbering_glyphs", "її", "ii"),
    ("000_2a61d363becf8d44.txt", "fix_numbering_glyphs", "¡i", "ii"),
    ("000_2a61d363becf8d44.txt", "fix_ocr_words", "fiscai", "fiscal"),
    ("000_2a61d363becf8d44.txt", "fix_ocr_words", "quaiquer", "qualquer"),
    ("002_9382d4ae2bbb4b06.txt", "fix_ocr_words", "frän", "från"),
    ("002_9382d4ae2bbb4b06.txt", "fix_ocr_words", "năgon", "någon"),
    ("002_9382d4ae2bbb4b06.txt", "fix_quote_junk", "profitsiại", 'profits."'),
    ("003_0e74b7595024bb83.txt", "collapse_fake_bold", "ििििवववव", "िव"),
])
def test_seed_garbage_is_fixed(name: str, rule: str, before: str, after: str):
    steps = repaired_seed(name).steps
    assert any(s.rule == rule and s.before == before and s.after == after for s in steps)


def test_a_pdf_that_draws_bold_four_times_over_gets_its_numbers_and_marks_back():
    # seed 003 draws its bold notification number and the article numbers in running
    # text four times over, as it draws its bold Hindi
    repaired = repaired_seed("003_0e74b7595024bb83.txt").pages[0].text
    assert "का.आ. 2562(अ).—जबकि," in repaired
    assert "करार के अनुच्छेद 1 को" in repaired and "जाएगा: “अनुच्छेद 1" in repaired
    assert "(a) चीन" in repaired and "(b) भारत" in repaired
    assert not re.search(r"(\S)\1{3}", repaired)


def test_running_heads_and_displaced_numbers():
    repaired = repaired_seed("003_0e74b7595024bb83.txt").pages[0].text
    assert "THE GAZETTE OF INDIA : EXTRAORDINARY [PART" not in repaired.split("MINISTRY")[1]
    assert "If the enterprise carries on business" in repaired
    repaired = repaired_seed("002_9382d4ae2bbb4b06.txt").pages[0].text
    assert "2. For the purposes of this Convention, income derived by or through an entity " \
           "or arrangement" in repaired


def test_hard_wraps_are_reflowed():
    text = (SAMPLES / "004_5572047d3d386aa9.txt").read_text(encoding="utf-8")
    repaired = repair(document(text)).pages[0].text
    assert ("Prevenir a Evasão Fiscal em Relação ao Imposto sobre a Renda e o seu Protocolo, "
            "firmado em Santiago") in repaired
    assert "\nARTIGO 1\n" in repaired and "comunicar-se" in repaired


def test_a_rule_that_would_change_too_much_stops_and_flags():
    junk = "fiscai quaiquer " * 20
    cleaned = repair(document(junk))
    assert not any(s.rule == "fix_ocr_words" for s in cleaned.steps)
    assert any("fix_ocr_words stopped" in w for w in cleaned.pages[0].warnings)


@pytest.mark.parametrize("name", ["eng", "por", "por-BR", "swe", "hin"])
def test_clean_ntrex_text_changes_only_by_nfc(shared: Path, name: str):
    """Clean text comes out identical except for the documented NFC normalization."""
    lines = (shared / "corpora" / "ntrex-dev" / f"ntrex-dev.{name}.txt").read_text(
        encoding="utf-8").splitlines()
    cleaned = repair(document(*lines))
    assert {step.rule for step in cleaned.steps} <= {"normalize_nfc"}
    assert [p.text for p in cleaned.pages] == [unicodedata.normalize("NFC", t) for t in lines]


def dgt_segments(tmx: Path, language: str) -> list[str]:
    """The segments of one language (``EN-GB``, ``PT-PT``, ``SV-SE``) of a DGT TMX file."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(tmx.read_bytes().decode("utf-16"))
    return [tuv.findtext("seg") or "" for tuv in root.iter("tuv")
            if tuv.get("lang") == language]


@pytest.mark.parametrize("language", ["EN-GB", "PT-PT", "SV-SE"])
def test_clean_dgt_segments_change_only_by_nfc(shared: Path, language: str):
    segments = dgt_segments(shared / "corpora" / "dgt-decisions" / "22019D0391.tmx", language)
    assert len(segments) > 10
    cleaned = repair(document(*segments))
    assert {step.rule for step in cleaned.steps} <= {"normalize_nfc"}
    assert [p.text for p in cleaned.pages] == [
        unicodedata.normalize("NFC", s) for s in segments]


@pytest.mark.slow
def test_dou_heads_and_margin_notes_are_removed(shared: Path):
    """Pages 2–12 of a real DOU issue, read column by column: their heads go, nothing else."""
    import difflib

    import pdfplumber

    from pipeline.read.pagedecision import text_in_reading_order

    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        text = "\n\n".join(text_in_reading_order(pdf.pages[i]).text
                           for i in range(1, 12))
    repaired = remove_running_heads(text)
    assert text.count("ISSN 1677-7042") == 11 and "ISSN 1677-7042" not in repaired
    assert "quarta-feira, 1 de outubro de 2014" not in repaired
    assert repaired.count("ICP-Brasil") <= 1
    assert text.count("Este documento pode") == 11 and "Este documento pode" not in repaired
    removed = [line for line in difflib.ndiff(text.splitlines(), repaired.splitlines())
               if line.startswith("- ")]
    assert removed and all(
        re.search(r"ISSN|feira|ICP-Brasil|autenticidade|digitalmente|código|documento|^- \d+$",
                  line) for line in removed), removed


def test_broken_hindi_layer_glyphs_are_read_by_a_map_inferred_from_the_seed():
    text = (SAMPLES / "003_0e74b7595024bb83.txt").read_text(encoding="utf-8")
    hindi = text.split("\n")[2][:24258]  # the Hindi part, before the English title
    readings = {r.stand_in: r.reading for r in infer_glyph_map(hindi)}
    assert {k: readings.get(k) for k in ("’", "-", "J", "*", "T")} == {
        "’": "ज्", "-": "प्र", "J": "न्", "*": "स्", "T": "म्"}
    repaired = repair(document(hindi)).pages[0].text
    for word in ("गणराज्य", "प्रोटोकॉल", "किसी", "अन्य", "स्थायी", "निम्न"):
        assert word in repaired
    # the bold article headings (अनु<छेद, fake bold and split) now read as headings
    numbers = {int(n) for n in re.findall(r"अनुच्छेद (\d+)", repaired)}
    assert set(range(1, 14)) <= numbers
    # a short i drawn before a nasal sign, split off with it (सिं वदाकारी), is put back
    assert "सिं वदाकारी" not in repaired and repaired.count("संविदाकारी") >= 30
    # the sign ें has a glyph id, mostly cut off from its word by the layer's space
    # (म (cid:23)दिया): read by the words it ends (करेंगे, तीसवें), rejoined where it
    # stands apart, and a reph cut off from the next word as well (काय Eकरता) still
    # goes back to its own
    assert "(cid:23)" not in repaired and repaired.count(" में ") >= 80
    assert "करेंगे" in repaired and "में कार्य करता" in repaired
    # the known-word share with the legal terms list (BENCHMARKS.md: 0.919)
    assert known_share(repaired, ("hi",))[0] >= 0.915


def test_glyph_map_reads_another_broken_hindi_pdf_with_its_own_map(shared: Path):
    # held out: a SEBI order whose Mangal text layer maps glyphs to other codes than seed 003
    with pdfplumber.open(shared / "corpora" / "india-pdfs" / "RTIOrder_hi.pdf") as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    readings = {r.stand_in: r.reading for r in infer_glyph_map(text)}
    assert readings.get("+") == "ी" and readings.get("C") == "न्" and readings.get("X") == "क्त"
    repaired = repair(document(text)).pages[0].text
    assert "तारीख" in repaired and "अक्तूबर" in repaired
    assert known_share(repaired, ("hi",))[0] >= known_share(text, ("hi",))[0] + 0.1


@pytest.mark.parametrize(("text", "rule"), [
    # a Latin phrase is no OCR error (inter alia → "inter alla")
    ("The competent authorities of the two States shall, inter alia, exchange the "
     "information that is relevant for carrying out the provisions of this Convention.",
     "fix_ocr_words"),
    ("As autoridades competentes dos dois Estados trocarão, inter alia, as informações "
     "necessárias para aplicar as disposições da presente Convenção.", "fix_ocr_words"),
    # a number that ends a sentence before a quotation is no displaced paragraph number
    ("She was found in a home for people aged 34. \"I am honoured,\" she said. The "
     "family said she had lived there since the summer.", "move_displaced_paragraph_numbers"),
    ("O prazo é o do Artigo 5. (Os valores constam do anexo.) e vale para todos.",
     "move_displaced_paragraph_numbers"),
    # IMO circular references in a page of Portuguese are no Kruti Dev Hindi
    ("jangadas não abrangidas\nCirc.809/MSC IMO\nCirc.1006/MSC IMO\nCirc.1328/MSC IMO\n"
     "Jangada pneumática", "convert_legacy_hindi"),
])
def test_clean_text_in_context_is_left_alone(text: str, rule: str):
    """False positives of whole clean documents (BENCHMARKS.md, clean documents)."""
    assert [step.rule for step in repair(document(text)).steps] == []


def test_a_short_line_before_a_title_in_capitals_keeps_its_break():
    page = ("O Comité produz efeitos\na partir da data das\nassinaturas do Comité\n"
            "APÊNDICE A\nOrganismos de avaliação aditados\nà lista")
    assert reflow_hard_wraps(page) == (
        "O Comité produz efeitos a partir da data das assinaturas do Comité\n"
        "APÊNDICE A\nOrganismos de avaliação aditados à lista")


def test_signature_lines_after_a_wrapped_sentence_keep_their_breaks():
    page = ("Decide, con-\nforme o art. 84 da Cons-\ntituição e a Lei nº 9.784,\n"
            "de 29 de janeiro de 1999.\nDILMA ROUSSEFF\nLuiz Alberto Machado")
    assert reflow_hard_wraps(page) == (
        "Decide, conforme o art. 84 da Constituição e a Lei nº 9.784, de 29 de janeiro de "
        "1999.\n\nDILMA ROUSSEFF\nLuiz Alberto Machado")


@given(st.lists(st.sampled_from(["(cid:7)", "a", "-", ".", "0", " ", "\n", "ab"]), max_size=40))
def test_fake_bold_in_text_without_hindi_is_collapsed_as_word_by_word(pieces: list[str]):
    # collapse_fake_bold takes such a text whole: a glyph id drawn four times is one
    text = "".join(pieces)
    word_by_word = "".join(rules._FAKE_BOLD.sub(r"\1", token) for token in re.split(r"(\s+)", text))
    assert rules.collapse_fake_bold(text) == word_by_word
