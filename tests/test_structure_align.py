"""Structure and article pairing: heading variants, the sequence rule, real seeds."""

from __future__ import annotations

import pytest
from conftest import SAMPLES

from pipeline.align import pair_articles
from pipeline.config import Settings
from pipeline.read.ingest import ingest, source_for
from pipeline.records import Block, Section
from pipeline.repair import repair
from pipeline.split.languages import label_blocks, sections_of
from pipeline.split.structure import (
    FINAL,
    PREAMBLE,
    articles_of,
    find_headings,
    normalize_number,
    structure_of,
)


@pytest.mark.parametrize(("text", "numbers"), [
    ("ARTIGO 1 a ARTIGO 2 b", ["1", "2"]),
    ("Artigo 1.o O texto. Artigo 2º O fim.", ["1", "2"]),
    ("Article 1 A\nArticle 2 B", ["1", "2"]),
    ("Article 1\nA.\nArticle 2 shall not apply. Article 2 Scope\nB.", ["1", "2"]),
    ("ARTIKEL 1 a ARTIKEL 2 b", ["1", "2"]),
    ("अनुच्छेद 1 क अनुच्छेद 2 ख", ["1", "2"]),
    ("ARTIGO 1 a ARTIGO 2 b ARTIGO 2A c ARTIGO 3", ["1", "2", "2A", "3"]),
])
def test_heading_variants(text: str, numbers: list[str]):
    assert [h.number for h in find_headings(text)] == numbers


def test_references_and_quoted_articles_do_not_open_articles():
    text = ('ARTIGO 1 O Artigo 3 da Convenção será substituído: "ARTIGO 2 Impostos visados" '
            "ARTIGO 2 Texto. O Article 9 shall be deleted.")
    second = text.index("ARTIGO 2 Texto")
    assert [(h.number, h.start) for h in find_headings(text)] == [("1", 0), ("2", second)]


def test_lowercase_headings_ignored_when_capitalised_ones_exist():
    text = "ARTICLE 1 Article 2 of the Convention is deleted. ARTICLE 2 End."
    assert [h.start for h in find_headings(text)] == [0, 50]


@pytest.mark.parametrize(("printed", "key"), [
    ("XI", "11"), ("XXIV", "24"), ("IV", "4"), ("26-A", "26A"), ("27A", "27A"), ("3", "3")])
def test_normalize_number(printed: str, key: str):
    assert normalize_number(printed) == key


def test_preamble_and_articles_of_a_section():
    text = "PROTOCOL The Governments agree: ARTICLE 1 Scope. ARTICLE 2 Entry into force."
    section = Section("en", (Block(1, 0, len(text), text, "en", "langdetect"),))
    articles = articles_of(section, text)
    assert [(a.key, a.text) for a in articles] == [
        (PREAMBLE, "PROTOCOL The Governments agree:"),
        ("1", "ARTICLE 1 Scope."),
        ("2", "ARTICLE 2 Entry into force."),
    ]


def test_seed_002_pairs_fourteen_articles_in_each_language():
    settings = Settings.for_root(SAMPLES)
    cleaned = repair(ingest(source_for(SAMPLES / "002_9382d4ae2bbb4b06.txt"), settings))
    articles = structure_of(sections_of(label_blocks(cleaned, settings)), cleaned.text)
    expected = [PREAMBLE] + [str(n) for n in range(1, 15)] + [FINAL]
    assert {lang: [a.key for a in found if a.level == 1] for lang, found in articles.items()} == {
        "pt": expected, "en": expected, "sv": expected}
    pairs = pair_articles(articles, "en")
    assert {lang: len(found) for lang, found in pairs.items()} == {"pt": 16, "sv": 16}
    seventh = pairs["sv"][7]
    assert seventh.pivot.heading == "ARTICLE 7" and seventh.other.heading == "ARTIKEL 7"


def test_no_pivot_no_pairs():
    text = "ARTIGO 1 a ARTIGO 2 b"
    section = Section("pt", (Block(1, 0, len(text), text, "pt", "langdetect"),))
    assert pair_articles(structure_of([section], text), "en") == {}


def structure(name: str) -> dict[str, list]:
    settings = Settings.for_root(SAMPLES)
    cleaned = repair(ingest(source_for(SAMPLES / name), settings))
    return structure_of(sections_of(label_blocks(cleaned, settings)), cleaned.text)


def test_seed_000_protocol_articles_with_nested_convention_articles():
    articles = structure("000_2a61d363becf8d44.txt")
    expected = [PREAMBLE] + [str(n) for n in range(1, 24)] + [FINAL]
    for language in ("pt", "en"):
        assert [a.key for a in articles[language] if a.level == 1] == expected
    nested_pt = {(a.parent, a.key) for a in articles["pt"] if a.level == 2}
    # protocol ARTIGO 3 replaces convention ARTIGO 2 ("Impostos visados"), 11 adds 12-A
    assert {("3", "2"), ("4", "3"), ("11", "12A"), ("20", "26A")} <= nested_pt
    quoted = next(a for a in articles["pt"] if a.parent == "3")
    assert quoted.text.startswith("ARTIGO 2 Impostos visados")
    parent = next(a for a in articles["pt"] if a.key == "3" and a.level == 1)
    assert parent.start < quoted.start < quoted.end <= parent.end


def test_seed_003_hindi_articles_pair_with_english_after_repair():
    # the Hindi headings come from a broken layer as "अअअअनननन$$ुु$$ुु छछछछ ेेददेेदद 1111":
    # repair (fake bold, cut-off signs, glyph map) makes them "अनुच्छेद 1"
    articles = structure("003_0e74b7595024bb83.txt")
    expected = [PREAMBLE] + [str(n) for n in range(1, 14)]
    assert [a.key for a in articles["hi"] if a.level == 1] == expected
    assert [a.key for a in articles["en"] if a.level == 1] == expected
    pairs = pair_articles(articles, "en")["hi"]
    assert [p.key for p in pairs] == expected
    assert pairs[5].other.heading == "अनुच्छेद 5"


def test_final_clauses_units_and_sentences():
    articles = structure("002_9382d4ae2bbb4b06.txt")
    final = articles["en"][-1]
    assert final.key == FINAL and final.text.startswith("In witness whereof")
    article_3 = next(a for a in articles["pt"] if a.key == "3")
    assert [u.label for u in article_3.units][:3] == ["1.", "a)", "i)"]
    text = (SAMPLES / "002_9382d4ae2bbb4b06.txt").read_text(encoding="utf-8")
    heading, first_sentence = (text[slice(*span)] for span in article_3.sentences[:2])
    assert heading == "ARTIGO 3"  # the heading is a segment of its own
    assert first_sentence.startswith("O parágrafo 1 do Artigo")
