"""An edition cut into acts, each a document of its own: what is cut and what is not,
act pages that hold exactly the act, and an edition's summary and freshness."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
from acts_bench import STATE_HEAD, other_gazette_pages
from conftest import SAMPLES
from pairing_data import decision_texts, ntrex_documents

from pipeline.config import Settings
from pipeline.editions.cut import MIN_ACTS, cut_edition
from pipeline.project.store import DocumentOutput, is_up_to_date
from pipeline.read.ingest import ingest, source_for
from pipeline.read.pagedecision import text_in_reading_order
from pipeline.records import DocumentSummary, IngestedDocument, Page
from pipeline.repair import repair
from pipeline.run.stages import edition_summary


def dou_pages(shared: Path, count: int) -> list[Page]:
    """The first pages of the DOU of 1 October 2014, read as a run reads a text layer."""
    with pdfplumber.open(shared / "corpora/brazil-pdfs/DOUS1a.pdf") as pdf:
        return [Page(n, "text-layer", "test", text_in_reading_order(pdf.pages[n - 1]).text)
                for n in range(1, count + 1)]


def test_an_edition_is_cut_into_acts_whose_pages_hold_exactly_the_act(shared: Path):
    source = source_for(SAMPLES / "001_92f44dad33fafe9c.txt")
    pages = dou_pages(shared, 8)
    cut = cut_edition(IngestedDocument(source, tuple(pages)))
    assert cut.reason == "an edition (masthead 'ISSN 1677-7042'): cut into 38 acts"
    ids = [act.doc_id for act in cut.acts]
    assert len(set(ids)) == len(ids) and all(i.startswith(f"{source.doc_id}--") for i in ids)
    assert ids[1:3] == [f"{source.doc_id}--despacho-p1", f"{source.doc_id}--despacho-p1-2"]
    for act in cut.acts:
        document = act.document
        assert "\n\n".join(p.text for p in document.pages if p.text) == act.act.text
        numbers = [p.number for p in document.pages]
        assert numbers == list(range(numbers[0], act.act.last_page + 1))
        assert numbers[0] <= act.act.first_page  # its bodies may be printed a page before
        assert document.source.doc_id == act.doc_id
        assert document.source.sha256 == source.sha256  # the act is the edition's content
    portaria = next(a for a in cut.acts if a.doc_id.endswith("--portaria-360"))
    assert portaria.act.text.startswith("ADVOCACIA-GERAL DA UNIÃO\nPORTARIA Nº 360, DE 30")


def test_an_edition_of_another_gazette_is_cut_and_its_acts_lose_its_running_heads(
        shared: Path):
    """The DOU's pages under a state gazette's running head instead of the DOU's: no
    masthead the cut knows, the same acts; each act's repair drops the edition's head,
    which an act of a page or two does not repeat often enough to be found by it."""
    source = source_for(SAMPLES / "001_92f44dad33fafe9c.txt")
    pages = dou_pages(shared, 8)
    state = other_gazette_pages(pages)
    assert not any("ISSN" in page.text for page in state)
    dou = cut_edition(IngestedDocument(source, tuple(pages)))
    cut = cut_edition(IngestedDocument(source, state))
    assert cut.reason == "an edition (no masthead known): cut into 38 acts"
    assert [a.act.heading for a in cut.acts] == [a.act.heading for a in dou.acts]
    shape = "DIÁRIO OFICIAL DO ESTADO DE SÃO PAULO - VOLUME # - PÁGINA #"
    assert all(a.running == {shape} | dou.acts[0].running for a in cut.acts)
    alone = [a.doc_id for a in cut.acts if STATE_HEAD in repair(a.document).text]
    assert len(alone) >= 3, alone  # the acts that run on over a page
    assert not any(STATE_HEAD in repair(a.document, running=a.running).text
                   for a in cut.acts)


def test_documents_without_a_masthead_or_with_few_acts_stay_whole(shared: Path):
    """The samples (a decree cut out by hand among them) and two pages around a
    decree are not editions, with a masthead or without."""
    for path in sorted(SAMPLES.glob("*.txt")):
        assert not cut_edition(ingest(source_for(path), Settings.for_root(Path()))).acts
    source = source_for(SAMPLES / "004_5572047d3d386aa9.txt")
    decree = (SAMPLES / "004_5572047d3d386aa9.txt").read_text(encoding="utf-8")
    masthead = "ISSN 1677-7042\nAtos do Poder Executivo\n.\n"
    cut = cut_edition(IngestedDocument(source, (Page(1, "text-layer", "t", masthead + decree),)))
    assert not cut.acts and cut.reason.endswith(f"fewer than {MIN_ACTS}: one document")


def test_legal_texts_and_news_in_any_language_are_no_editions(shared: Path):
    """What a cut by acts alone must leave whole: each EU decision in each of its
    languages and each NTREX news document, with a masthead or without."""
    texts = list(decision_texts(shared).values())
    texts += ["\n".join(lines) for language in ("eng", "por-BR", "swe")
              for lines in ntrex_documents(shared, language)]
    assert len(texts) > 250
    source = source_for(SAMPLES / "001_92f44dad33fafe9c.txt")
    for text in texts:
        for head in ("", "ISSN 1677-7042\n"):
            cut = cut_edition(IngestedDocument(source, (Page(1, "text-dump", "t", head + text),)))
            assert not cut.acts, (cut.reason, text[:200])


def test_an_edition_failed_when_an_act_failed_and_is_current_only_with_all_its_acts(
        tmp_path: Path):
    edition = DocumentSummary("e", "e.pdf", "done", pages=3, acts=3)
    acts = [DocumentSummary("e--a", "e.pdf", "done", languages=("pt",)),
            DocumentSummary("e--b", "e.pdf", "done", languages=("en", "pt"), pairs={"pt": 4}),
            DocumentSummary("e--c", "e.pdf", "failed", error="no text")]
    summary = edition_summary(edition, acts)
    assert (summary.status, summary.error) == ("failed", "1 of 3 acts failed: e--c: no text")
    assert (summary.languages, summary.pairs) == (("pt", "en"), {"pt": 4})
    assert edition_summary(edition, acts[:2]).status == "done"

    settings = Settings.for_root(tmp_path)
    source = source_for(SAMPLES / "001_92f44dad33fafe9c.txt")

    def publish(doc_id: str, aligned: bool, **extra: object) -> None:
        out = DocumentOutput(settings, doc_id)
        out.start()
        out.publish({"sha256": source.sha256, "build": settings.output_key(), **extra},
                    aligned)

    publish(source.doc_id, aligned=False, acts=[f"{source.doc_id}--a", f"{source.doc_id}--b"])
    assert not (settings.aligned / source.doc_id).exists()  # an edition aligns nothing
    publish(f"{source.doc_id}--a", aligned=True)
    assert not is_up_to_date(settings, source)  # act b was never published
    publish(f"{source.doc_id}--b", aligned=True)
    assert is_up_to_date(settings, source)
