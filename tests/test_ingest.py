"""Ingest: document ids, text dumps, the per-page decision, real PDFs and real OCR."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pypdfium2
import pytest
from conftest import SAMPLES, words_recovered

from pipeline.config import Settings
from pipeline.errors import InputError
from pipeline.read import ingest as ingest_module
from pipeline.read.ingest import decode_text, discover, doc_ids_for, ingest, source_for
from pipeline.read.pagedecision import TextLayerStats, decide_page, text_in_reading_order
from pipeline.read.textlayer import read_text_layer
from pipeline.text.lexicon import known_share

SCAN = SAMPLES / "scan_protocol_brazil_japan_1978_en.pdf"
TEXT_LAYER = SAMPLES / "textlayer_protocol_brazil_sweden_pt_en.pdf"


def test_doc_ids_are_safe_folder_names():
    ids = doc_ids_for(["../../etc/passwd.txt", "-rf.pdf", ".hidden.txt", "a b/ç.txt"])
    assert ids == {"../../etc/passwd.txt": "passwd", "-rf.pdf": "rf",
                   ".hidden.txt": "hidden", "a b/ç.txt": "c"}


def test_doc_ids_disambiguate_same_stem():
    ids = doc_ids_for(["2025/decreto.pdf", "2026/decreto.pdf", "other.txt"])
    assert ids["other.txt"] == "other"
    assert len(set(ids.values())) == 3
    assert all(v.startswith("decreto-") for k, v in ids.items() if "decreto" in k)


def test_discover_skips_hidden_and_lists_unsupported(settings: Settings):
    settings.raw.mkdir()
    (settings.raw / "a.txt").write_text("Article 1", encoding="utf-8")
    (settings.raw / ".partial.pdf").write_bytes(b"%PDF")
    (settings.raw / "notes.rtf").write_bytes(b"{\\rtf1")
    found = {source.relpath: source.kind for source in discover(settings)}
    assert found == {"a.txt": "text", "notes.rtf": "unsupported"}


@pytest.mark.parametrize(("encoding", "expected"), [
    ("utf-8", "utf-8-sig"), ("utf-8-sig", "utf-8-sig"), ("utf-16", "utf-16"),
    ("cp1252", "cp1252"),
])
def test_decode_text_encodings(encoding: str, expected: str):
    text = "Convenção — “Imposto” sobre a renda"
    assert decode_text(text.encode(encoding)) == (text, expected)


def test_bytes_windows_1252_cannot_read_fall_back_to_latin_1_and_lose_nothing():
    data = "Convenção nº 5 \x8d".encode("latin-1")  # 0x8D: no character in cp1252
    assert decode_text(data) == ("Convenção nº 5 \x8d", "latin-1")


def test_text_dump_pages_split_on_form_feed(tmp_path: Path, settings: Settings):
    path = tmp_path / "dump.txt"
    path.write_text("page one\fpage two", encoding="utf-8")
    document = ingest(source_for(path), settings)
    assert [(p.number, p.method, p.text) for p in document.pages] == [
        (1, "text-dump", "page one"), (2, "text-dump", "page two")]


def test_decide_page_reasons(settings: Settings):
    assert decide_page(TextLayerStats(0, 0, 0, 0.0), settings).ocr is False  # blank page
    assert decide_page(TextLayerStats(0, 0, 0, 1.0), settings).ocr is True
    broken = decide_page(TextLayerStats(500, 100, 6, 0.0), settings)
    assert broken.ocr and "6 of 100 words are (cid:N)" in broken.reason
    assert decide_page(TextLayerStats(500, 100, 5, 0.0), settings).ocr is False


# More bad inputs, run by `gazette run` too: tests/badinputs.py, tests/test_badinputs.py
@pytest.mark.parametrize(("name", "data", "message"), [
    ("notes.doc", b"\xd0\xcf\x11\xe0", "unsupported file type '.doc'"),
    ("notes.docx", b"PK\x03\x04", "cannot read the Word document: not a Word document (a "
                                    "damaged zip archive: File is not a zip file)"),
    ("notes.pdf", b"just some notes", "not a PDF: it does not start with %PDF-"),
])
def test_bad_files_raise_input_error(tmp_path: Path, settings: Settings, name: str,
                                     data: bytes, message: str):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(InputError, match=re.escape(message)):
        ingest(source_for(path), settings)


def test_text_layer_pdf_is_read_with_pdfplumber(settings: Settings):
    document = ingest(source_for(TEXT_LAYER), settings)
    assert [page.method for page in document.pages] == ["text-layer", "text-layer"]
    assert document.pages[0].reason.startswith("text layer with")
    assert "ARTIGO 1" in document.pages[0].text
    assert "ARTICLE 3" in document.pages[1].text


@pytest.mark.slow
def test_scanned_pdf_is_ocrd_by_tesseract(settings: Settings):
    """Real Tesseract on the sample scan: seed 001 rendered with noise and 1.5° skew."""
    document = ingest(source_for(SCAN), settings)
    assert {page.method for page in document.pages} == {"ocr"}
    assert all("no text layer" in page.reason for page in document.pages)
    assert all(page.confidence and page.confidence > 60 for page in document.pages)
    truth = (SAMPLES / "001_92f44dad33fafe9c.txt").read_text(encoding="utf-8")
    ocr_text = "\n".join(page.text for page in document.pages)
    assert words_recovered(truth, ocr_text) > 0.97
    assert all("deskewed -1.50°" in page.reason for page in document.pages)


@pytest.mark.slow
def test_a_turned_scan_is_turned_back(settings: Settings, tmp_path: Path):
    """A page scanned upside down reads badly, so orientation detection runs and turns it."""
    page = pypdfium2.PdfDocument(SCAN)[0].render(scale=150 / 72, grayscale=True).to_pil()
    turned = tmp_path / "turned.pdf"
    page.rotate(180).save(turned, resolution=150)
    [read] = ingest(source_for(turned), settings).pages
    assert "turned 180°" in read.reason, read.reason
    assert "Contracting State" in read.text


INDIA_PATHS = {  # the way each page of the real India PDFs must be read
    "010220_hi.pdf": ["legacy-font"] * 2,
    "1.02.2020.pdf": ["text-layer"] * 2,
    "RTIOrder_hi.pdf": ["ocr"] * 4,
    "hind_1_singlecolumn.pdf": ["ocr"] * 3,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(INDIA_PATHS))
def test_india_pdfs_take_the_right_path_and_give_readable_hindi(
        name: str, settings: Settings, shared: Path):
    document = ingest(source_for(shared / "corpora" / "india-pdfs" / name), settings)
    assert [page.method for page in document.pages] == INDIA_PATHS[name]
    for page in document.pages:
        hindi, _ = known_share(page.text, ("hi",))
        english, _ = known_share(page.text, ("en",))
        # every page reads as Hindi or, for the English edition, as English
        assert max(hindi, english) > 0.7, (page.number, page.reason, page.text[:200])
        if page.method == "ocr" and name != "1.02.2020.pdf":
            assert page.ocr_languages == "Devanagari", page.reason


def test_a_three_column_gazette_page_is_read_column_by_column(shared: Path):
    """DOU page 2: pdfplumber alone interleaves the columns' lines."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        page = pdf.pages[1]
        reading = text_in_reading_order(page)
        interleaved = page.extract_text()
    assert reading.columns == 3
    text = reading.text
    sentence = "O ADVOGADO-GERAL DA UNIÃO, no uso das atri-\nbuições que lhe conferem"
    assert sentence in text and sentence not in interleaved
    assert text.index("PORTARIA Nº 360") < text.index("CAPÍTULO IV")
    # the diagonal watermark is left out, not scattered through the lines
    assert reading.diagonal > 0 and "\nC\nO\nM" not in text


def test_a_block_across_the_columns_is_read_after_them_and_whole(shared: Path):
    """DOU page 9: three columns, then an act and its table across the whole page."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        text = text_in_reading_order(pdf.pages[8]).text
    # column 1 runs into its next act before column 2 starts, and column 3 ends
    # before the act printed across the page
    assert text.index("PORTARIA Nº 841") < text.index("PORTARIA Nº 2.049")
    assert text.index("NILVA CELESTINA DO CARMO") < text.index("PORTARIA Nº 563")
    # lines of the block across the page are whole lines, not cut at the gutters
    assert ("A SECRETÁRIA DE REGULAÇÃO E SUPERVISÃO DA EDUCAÇÃO SUPERIOR, no uso da "
            "atribuição que lhe confere o pelo Decreto nº 7.690") in text


def test_tables_inside_columns_are_read_row_by_row(shared: Path):
    """DOU page 16: two-column tables (name, number) inside each of three columns."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        text = text_in_reading_order(pdf.pages[15]).text
    for row in ("REDE FORTE 9", "REFRI PET 4", "SARANDI AGUA TONICA 25"):
        assert row in text.splitlines()


def test_an_unruled_table_of_figures_is_read_row_by_row(shared: Path):
    """DOU page 93: a table with no rules between its blocks of rows. Its columns of
    figures hold the same lines as its column of names; cut into columns, each state's
    name came out lines away from its figures."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        lines = text_in_reading_order(pdf.pages[92]).text.splitlines()
    assert any(line.startswith("Região Nordeste 250.885.851 250.885.851 26.171.678")
               for line in lines)
    assert any(line.startswith("Alagoas 12.900.486 12.900.486 1.094.775") for line in lines)


def _column_of(texts: list[str], x: float) -> list[dict[str, object]]:
    """Characters of lines 10 pt apart, one text a line, from ``x``."""
    return [{"text": ch, "x0": x + 5 * i, "x1": x + 5 * i + 4.5, "top": 20 + 10 * n,
             "bottom": 28 + 10 * n, "fontname": "F", "size": 8, "upright": True,
             "matrix": (8, 0, 0, 8, 0, 0), "doctop": 20 + 10 * n}
            for n, text in enumerate(texts) for i, ch in enumerate(text)]


def test_only_columns_of_figures_on_the_same_lines_are_read_across():
    """Columns on one grid of lines are a table's if they hold figures, not words:
    prose and lists set side by side stay columns."""
    names = [f"Estado{n}" for n in range(12)]
    figures = [f"{n}1.234.567" for n in range(12)]
    words = [f"entrada{n}" for n in range(12)]
    table = read_text_layer(_column_of(names, 20) + _column_of(figures, 120)
                            + _column_of(figures, 220), 320, 200).text.splitlines()
    assert table[:2] == ["Estado0 01.234.567 01.234.567", "Estado1 11.234.567 11.234.567"]
    listed = read_text_layer(_column_of(names, 20) + _column_of(words, 120)
                             + _column_of(figures, 220), 320, 200).text.split()
    assert listed[:3] == ["Estado0", "Estado1", "Estado2"]


def test_a_ruled_tables_wrapped_cells_are_read_whole(shared: Path):
    """DOU page 10: a ruled table whose long cells wrap. Read line by line, the row's
    cells interleave (``(Tecnológi- 100 (cem) FACULDADE … CEN-`` / ``co) DO SUL …``);
    each cell is read whole, in the row's order. A row of one line each stays a line."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        text = text_in_reading_order(pdf.pages[9]).text
    assert "GESTÃO AMBIENTAL (Tecnológi-\nco)\n100 (cem)" in text
    assert "RUA LINHA BONITA, 0, ESTRADA RINCÃO BONITO, CEN-\nTRO, NOVO CABRAIS/RS" in text
    row = ("4. 201205817 ENFERMAGEM (Bacharelado) 100 (cem) FACULDADE SALESIANA DE SANTA "
           "TERESA MISSAO SALESIANA DE MATO GROSSO RUA DOM AQUINO, 1119, CENTRO, CORUMBÁ/MS")
    assert row in text.splitlines()
    assert text.index("3.\n200902802") < text.index(row)


def test_a_ruled_rows_wrapped_cells_stay_whole_in_a_page_of_columns(shared: Path):
    """DOU page 13: the same table as page 10, above a page of three columns. A row's
    first line crosses the columns' gutters and its wrapped lines do not; the page was
    cut between them, and each row's cells interleaved line by line."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        text = text_in_reading_order(pdf.pages[12]).text
    assert "- CENTRO DE ESTUDOS UNIVERSITA-\nRIOS DE COLIDER" in text
    assert "SOCIEDADE ACREANA DE EDUCA-\nCAO E CULTURA LTDA" in text


def test_three_columns_under_two_are_read_column_by_column(shared: Path):
    """DOU page 85 prints two columns over three. The three columns' middle one fills
    the upper part's gutter, but its short lines do not: the lower part was cut into
    bands a line or two high, too thin to find columns in, and read across the page
    (an act's heading shared a line with two other columns' text)."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        text = text_in_reading_order(pdf.pages[84]).text
    assert ("A COMISSÃO TÉCNICA VINCULADA AO MINISTÉRIO\nDO ESPORTE, de que trata a Lei nº "
            "11.438 de 29 de dezembro de\n") in text
    assert "a) a aprovação do projeto desportivo, relacionado no anexo I,\naprovado" in text
    assert ("GABINETE DA MINISTRA\nPORTARIA INTERMINISTERIAL Nº 364,\nDE 30 DE SETEMBRO DE "
            "2014\nAltera o Anexo I") in text


def test_a_table_across_the_columns_is_read_row_by_row_under_its_two_line_cells(shared: Path):
    """DOU page 76: an unruled table across the page, one of whose cells holds two
    lines (``AG 884-2`` / ``CC 10.220-2``). The second lines stand alone far from the
    columns' gutters and keep each row's crossing apart: the table is not cut into
    its columns."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        text = text_in_reading_order(pdf.pages[75]).text
    assert ("RS0085000 PA SÃO VIRGÍLIO 54220.002266/2005-44 RECUPERAÇÃO MAT. DE CONSTRUÇÃO "
            "5 AG 884-2 R$ 40.000,00") in text


def test_a_column_beside_an_act_over_the_other_two_is_read_whole(shared: Path):
    """DOU page 40: an act laid over two columns beside the third, which goes on with
    an act from the page before. The act's centred heading lines cross the two
    columns' gutter; they and the gaps between them made bands a line tall, too thin
    to find the third column's gutter in, and each was read across the page
    (``PORTARIA N° 248, DE 29 DE SETEMBRO DE 2014 cial;``). The running head, one
    line across the page above them, stays whole (page 31)."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        text = text_in_reading_order(pdf.pages[39]).text
        head = text_in_reading_order(pdf.pages[30]).text.splitlines()[0]
    assert ("SECRETARIA NACIONAL DE PROTEÇÃO\nE DEFESA CIVIL\nPORTARIA N° 248, DE 29 DE "
            "SETEMBRO DE 2014\nReconhece situação de emergência em municípios.\n") in text
    assert ("antes da\nhomologação estadual para certificação da real situação emergen-\n"
            "cial;\nConsiderando que as homologações") in text
    assert text.splitlines()[1] == "ISSN 1677-7042 1 Nº 189, quarta-feira, 1 de outubro de 2014"
    assert head == "Nº 189, quarta-feira, 1 de outubro de 2014 1 ISSN 1677-7042 31"


def test_columns_over_a_small_share_of_the_page_are_read_column_by_column(shared: Path):
    """DOU page 64: three columns over the top sixth of the page, tables across it
    below. The columns' gutters are empty in too few of the page's rows to be found,
    and the three were read across, line by line (``à Câ DESPACHO DO
    SUPERINTENDENTE mara``). The tables under them stay row by row; page 1's list of
    parties (``ADV.(A/S) :RAFAEL BARBOSA …``, labels and names) is no prose and stays
    line by line."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        text = text_in_reading_order(pdf.pages[63]).text
        parties = text_in_reading_order(pdf.pages[0]).text
    assert ("disponíveis em www.aneel.gov.br/biblioteca.\nMARCOS BRAGATTO\n\n"
            "SUPERINTENDÊNCIA DE REGULAÇÃO\nECONÔMICA\nDESPACHO DO SUPERINTENDENTE\n"
            "Em 30 de setembro de 2014\nNº 3.968 - Processo") in text
    assert "junto à Câ-\nmara de Comercialização" in text
    assert "ADV.(A/S) :ADVOGADO-GERAL DA UNIÃO\n" in parties


def test_the_lower_edge_of_a_line_makes_no_band(shared: Path):
    """DOU page 59: only the lower edge of the last line of the top's three columns
    reaches the rows below them, and crosses a gutter there. Those rows were a band
    holding no character's centre, the cut kept the region whole, and its three
    columns were read across, line by line."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        text = text_in_reading_order(pdf.pages[58]).text
    assert ("Art. 1º Os Anexos I, II e III da Instrução Normativa nº 44,\nde 20 de dezembro "
            "de 2013, do Ministério das Cidades, que dispõe\n") in text


def test_a_box_around_columns_is_no_table_row():
    """Rules above and below a title over two columns, and a border between the
    columns below the title: a box, not a table's row (no border runs from rule to
    rule, and it is taller than a few lines), read as a title over two columns."""
    title = [{**char, "top": 8.0, "bottom": 16.0} for char in _column_of(
        ["A TITLE OVER THE TWO COLUMNS"], 30)]
    left = _column_of([f"left{n:02d}" for n in range(12)], 20)
    right = _column_of([f"right{n:02d}" for n in range(12)], 120)
    page = read_text_layer(title + left + right, 220, 160, rules=[(10, 210, 4), (10, 210, 145)],
                           borders=[(110, 18, 145), (10, 4, 145), (210, 4, 145)])
    words = page.text.split()
    assert words[:7] == ["A", "TITLE", "OVER", "THE", "TWO", "COLUMNS", "left00"]
    assert words.index("left11") < words.index("right00")


def test_letter_spaced_words_are_words_and_word_gaps_are_spaces(shared: Path):
    """The DOU letter-spaces table cells by drawing a space after each letter and moving
    back over it; a word gap drawn with no space character is still a gap; real spaces
    stay, in fonts whose glyph boxes are wider than the glyphs are set."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        table, names, spaced = (text_in_reading_order(pdf.pages[n]).text
                                for n in (93, 11, 126))
    assert "Encargos 938.244 830.482" in table and "E n c a" not in table
    assert "Amortização 5.383.119 3.524.808" in table
    assert "BRAGANÇA" in names and "B R A G" not in names
    assert "Comissionada, FC-05, da Subsecretaria" in spaced
    with pdfplumber.open(shared / "corpora" / "india-pdfs" / "1.02.2020.pdf") as pdf:
        tahoma = text_in_reading_order(pdf.pages[1]).text
    assert "(Lok Sabha adjourned till 11 A.M., Monday, the 3rd February, 2020)" in tahoma


def test_a_word_after_a_superscript_is_a_word_of_its_own(shared: Path):
    """The DOU sets ordinals with a superscript ``o`` and draws no space after it: the
    gap to the next word is what tells them apart (``3oda`` before)."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        text = text_in_reading_order(pdf.pages[4]).text
    assert "confere o art. 3º da Lei nº 8.427" in text
    assert "Lei nº 10.883" in text and "nº10.883" not in text


def test_superscript_ordinals_read_as_the_page_shows_them(shared: Path):
    """The DOU's layer spells the ``Nº`` its pages show as ``N``, a small raised ``o``
    and a small hyphen for the rule under it (``No-``), and ``1º`` as ``1o``. The
    indicator is read on its figure's line: raised, its centre had fallen into the
    band above the line on page 73 (``º º`` / ``De 1/1/2016 a 1/1/2017``)."""
    with pdfplumber.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf") as pdf:
        second, reformulations, dates = (text_in_reading_order(pdf.pages[n]).text
                                         for n in (1, 128, 72))
    assert "PORTARIA Nº 360, DE 30" in second and "Art. 4º Fica" in second
    assert "No-" not in second and "4o " not in second
    assert "Aprovar as 1ªs Reformulaç" in reformulations
    assert "Período de Execução De 1º/1/2016 a 1º/1/2017." in dates


@pytest.mark.slow
def test_a_page_worker_that_dies_fails_the_document_not_the_run(settings: Settings,
                                                                 shared: Path):
    """kill -9 of a page worker: the document fails with the reason, the next one reads."""
    import os
    import signal
    import threading

    import psutil

    from pipeline import workers as run_workers
    from pipeline.errors import GazetteError

    run_workers.pool(settings.page_workers)  # started here, so its workers can be found
    failure: list[BaseException] = []

    def read() -> None:
        try:
            ingest(source_for(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf"), settings)
        except BaseException as exc:  # what the reading thread ends with
            failure.append(exc)

    reader = threading.Thread(target=read)
    reader.start()
    workers: list[psutil.Process] = []
    while reader.is_alive() and not workers:  # wait until a worker is busy with a page
        # the pool's workers only: this process may have other children (a test
        # worker's Prefect server)
        workers = [child for child in psutil.Process().children()
                   if "spawn_main" in " ".join(child.cmdline())
                   and child.cpu_percent(interval=0.1) > 0]
    os.kill(workers[0].pid, signal.SIGKILL)
    reader.join()
    assert failure and isinstance(failure[0], GazetteError)
    assert "the process reading page" in str(failure[0]) and "died" in str(failure[0])
    pages = ingest(source_for(TEXT_LAYER), settings).pages
    assert [page.method for page in pages] == ["text-layer", "text-layer"]


def test_a_pool_broken_as_pages_are_handed_out_fails_the_document(settings: Settings,
                                                                  monkeypatch):
    """A worker that dies before its page is handed out breaks the pool at `submit`: the
    document fails with the reason, and the next read starts a new pool."""
    from concurrent.futures.process import BrokenProcessPool

    from pipeline import workers
    from pipeline.errors import GazetteError

    class BrokenPool:
        def submit(self, *args: object, **kwargs: object) -> None:
            raise BrokenProcessPool("A child process terminated abruptly")

    stopped = []
    monkeypatch.setattr(workers, "pool", lambda count: BrokenPool())
    monkeypatch.setattr(workers, "shutdown", lambda: stopped.append(True))
    with pytest.raises(GazetteError, match=r"a process reading pages of .* died"):
        ingest(source_for(TEXT_LAYER), settings)
    assert stopped == [True]


def test_discovery_hashes_a_file_again_only_when_it_changed(tmp_path: Path):
    """`gazette serve` discovers the inbox at every tick: an unchanged file is not read
    again, a rewritten one is, even with its size and modification time put back."""
    settings = Settings.for_root(tmp_path)
    path = settings.raw / "a.txt"
    path.parent.mkdir(parents=True)
    path.write_text("Article 1. One.", encoding="utf-8")
    first = discover(settings)[0].sha256
    reads = ingest_module._digest.cache_info().misses
    assert discover(settings)[0].sha256 == first
    assert ingest_module._digest.cache_info().misses == reads  # not read again
    times = path.stat()
    path.write_text("Article 1. Two.", encoding="utf-8")  # same size
    os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))  # same modification time
    assert discover(settings)[0].sha256 != first


#: Two threads of one process at once: each renders its own page and reads the first
#: page's text of the other's file, as the run's two document threads do with the
#: one-page PDFs they read in its process, and `discover` with a file's part mark.
_SIDE_BY_SIDE = """
import sys, threading
from pathlib import Path
from pipeline.read.pdfread import _rasterize, first_page_text
a, b = map(Path, sys.argv[1:])
def work(mine, other):
    for _ in range(2):
        _rasterize(mine, 0, 300)
        first_page_text(other)
threads = [threading.Thread(target=work, args=pair) for pair in ((a, b), (b, a))]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
"""


def test_pdfium_works_for_one_thread_at_a_time(shared: Path, tmp_path: Path):
    """pdfium may serve one thread of a process at a time, even on two documents: two
    threads rendering a DOU page each crashed the process 11 times out of 12 before
    its calls took turns. Run in a process of its own: a crash fails this test, not
    the test session."""
    subprocess.run(["pdfseparate", "-l", "2", shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf",
                    tmp_path / "page-%d.pdf"], check=True)
    done = subprocess.run([sys.executable, "-c", _SIDE_BY_SIDE, str(tmp_path / "page-1.pdf"),
                           str(tmp_path / "page-2.pdf")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
