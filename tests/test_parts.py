"""Multi-part decrees: "(parte 1 de 2)" and "(parte 2 de 2)" become one document."""

from __future__ import annotations

from pathlib import Path

from badinputs import pdf_bytes
from conftest import SAMPLES

from pipeline.config import Settings
from pipeline.read.ingest import discover, ingest, source_for
from pipeline.records import IngestedDocument
from pipeline.repair import repair
from pipeline.split.languages import label_blocks, sections_of
from pipeline.split.structure import structure_of

SEED = SAMPLES / "004_5572047d3d386aa9.txt"  # DECRETO Nº 12.863 (parte 1 de 2)
TITLE = "DECRETO Nº 12.863, DE 2 DE MARÇO DE 2026"


def split_seed(raw: Path) -> None:
    """Seed 004 cut before its ARTIGO 6 into the two parts the DOU would publish."""
    text = SEED.read_text(encoding="utf-8")
    cut = text.index("\nARTIGO 6\n")
    raw.mkdir(parents=True, exist_ok=True)
    (raw / "dou-2026-03-03-a.txt").write_text(text[:cut], encoding="utf-8")
    (raw / "dou-2026-03-03-b.txt").write_text(
        f"{TITLE} (parte 2 de 2)\n\n{text[cut:]}", encoding="utf-8")


def outline(document: IngestedDocument, settings: Settings) -> list[str]:
    cleaned = repair(document)
    articles = structure_of(sections_of(label_blocks(cleaned, settings)), cleaned.text)
    return [a.key for a in articles["pt"] if a.level == 1]


def test_parts_become_one_document_with_provenance(settings: Settings):
    split_seed(settings.raw)
    (settings.raw / "other.txt").write_text("ARTICLE 1\nScope\n", encoding="utf-8")
    sources = discover(settings)
    assert [s.relpath for s in sources] == ["dou-2026-03-03-a.txt", "other.txt"]
    decree = sources[0]
    assert [p.relpath for p in decree.parts] == ["dou-2026-03-03-b.txt"]
    document = ingest(decree, settings)
    assert [(p.number, p.part, p.part_page) for p in document.pages] == [
        (1, "dou-2026-03-03-a.txt", 1), (2, "dou-2026-03-03-b.txt", 1)]
    # the articles run on across the parts as in the decree published whole
    assert outline(document, settings) == outline(ingest(source_for(SEED), settings), settings)
    assert outline(document, settings) == ["preamble", *map(str, range(1, 12))]


def test_a_missing_part_is_said_and_a_new_part_changes_the_document(settings: Settings):
    split_seed(settings.raw)
    (settings.raw / "dou-2026-03-03-b.txt").rename(settings.raw.parent / "later.txt")
    [alone] = discover(settings)
    assert alone.parts_expected == 2 and not alone.parts
    first = ingest(alone, settings).pages[0]
    assert "only 1 of the 2 parts of this decree are in the inbox" in first.warnings[0]
    (settings.raw.parent / "later.txt").rename(settings.raw / "dou-2026-03-03-b.txt")
    [joined] = discover(settings)
    assert joined.doc_id == alone.doc_id and joined.sha256 != alone.sha256


def test_the_parts_of_a_decree_printed_as_pdfs_become_one_document(settings: Settings):
    """A PDF's part mark is read from its first page's text layer."""
    settings.raw.mkdir(parents=True)
    for name, text in (("a.pdf", f"{TITLE} (parte 1 de 2)\n\nArt. 1 Fica promulgado."),
                       ("b.pdf", f"{TITLE} (parte 2 de 2)\n\nARTIGO 6\nAs autoridades."),
                       ("c.pdf", "PORTARIA Nº 5, DE 2 DE MARÇO DE 2026\n\nArt. 1 Fica.")):
        (settings.raw / name).write_bytes(pdf_bytes(text))
    sources = discover(settings)
    assert [(s.relpath, [p.relpath for p in s.parts], s.parts_expected)
            for s in sources] == [("a.pdf", ["b.pdf"], 2), ("c.pdf", [], 1)]
