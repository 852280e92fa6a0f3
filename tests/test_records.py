"""The on-disk records read back as they were written (``to_json`` → ``from_json``),
on a real seed taken through ingest, repair, the language split and structure."""

from __future__ import annotations

import json

from conftest import SAMPLES

from pipeline.config import Settings
from pipeline.read.ingest import ingest, source_for
from pipeline.records import Article, Block, Page, RepairStep, SentencePair
from pipeline.repair import repair
from pipeline.split.languages import label_blocks, sections_of
from pipeline.split.structure import structure_json, structure_of


def through_json(data: object) -> object:
    """``data`` as a file holds it: written as JSON text and parsed again."""
    return json.loads(json.dumps(data, ensure_ascii=False))


def test_a_seeds_records_read_back_equal(settings: Settings):
    document = ingest(source_for(SAMPLES / "003_0e74b7595024bb83.txt"), settings)
    cleaned = repair(document)
    assert cleaned.steps  # the seed's OCR junk gives repairs to read back
    for page in document.pages:
        assert Page.from_json(through_json(page.to_json())) == page
    for step in cleaned.steps:
        assert RepairStep.from_json(through_json(step.to_json())) == step

    text = cleaned.text
    blocks = label_blocks(cleaned, settings)
    assert [Block.from_json(through_json(b.to_json()), text) for b in blocks] == blocks
    sections = sections_of(blocks)
    articles = structure_of(sections, text)
    assert articles["en"] and articles["hi"]
    written = through_json(structure_json(sections, articles))
    assert [Article.from_json(a, text) for a in written["articles"]] == [
        a for found in articles.values() for a in found]


def test_an_ocr_page_and_a_sentence_pair_read_back_equal():
    page = Page(number=3, method="ocr", reason="no text layer; read with por", text="Artigo 1",
                ocr_languages="por", confidence=91.5, warnings=("skewed",),
                words=(("Artigo", 96.0), ("1", 87.0)))
    assert Page.from_json(through_json(page.to_json())) == page
    pair = SentencePair("preamble", "pt", (0, 1), (0,), "One. Two.", "Um e dois.", 0.87, False)
    assert SentencePair.from_json(through_json(pair.to_json("doc"))) == pair
