"""The English text in each form the inbox reads, against its paragraphs: every DGT
decision set as a saved EUR-Lex page, a Word file and an OpenDocument file
(``bench/pairing_data.py``), read by pipeline.read.webpage, wordfile and opendocument."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from pairing_data import (
    Decision,
    decisions,
    english_docx,
    english_html,
    english_odt,
    opendocument_text,
    paragraph_texts,
    word_document,
    write_english,
)

from pipeline.config import Settings
from pipeline.errors import InputError
from pipeline.read.ingest import discover, ingest
from pipeline.read.opendocument import odt_text
from pipeline.read.webpage import web_page_text
from pipeline.read.wordfile import docx_text

#: Each form: the decision's English text written in it and read back, and the label
#: its items carry.
FORMS: dict[str, tuple[Callable[[Decision], str], str]] = {
    "html": (lambda decision: web_page_text(english_html(decision)), r"— "),
    "docx": (lambda decision: docx_text(english_docx(decision)), r"\([a-z]+\) "),
    "odt": (lambda decision: odt_text(english_odt(decision)), r"\([a-z]+\) "),
}


@pytest.mark.parametrize("form", FORMS)
def test_every_decision_reads_as_its_paragraphs_in_every_form(shared: Path, form: str):
    """The text read is the decision's paragraphs, a line each, the items after a
    lead-in with their label, and the articles a Word or OpenDocument list numbers shown
    as ``Article 1`` …; nothing of a page's title, scripts, banner, navigation, cookie
    notice or footer, nor of an office file's page header (the web page alone holds its
    running head, in its text)."""
    written_and_read, label = FORMS[form]
    items = articles = 0
    for decision in decisions(shared):
        lines = written_and_read(decision).splitlines()
        if form == "html":
            assert lines[0].endswith(" EN Official Journal of the European Union"), lines[0]
            lines = lines[1:]
        items += sum(bool(re.match(label, line)) for line in lines)
        articles += sum(bool(re.fullmatch(r"Article \d+", line)) for line in lines)
        assert [re.sub(f"^{label}", "", line) for line in lines] == [
            " ".join(p.split()) for p in paragraph_texts(decision, "en")], decision.name
    assert items > 20 and articles > 100


@pytest.mark.parametrize(("form", "name", "empty"), [
    ("docx", "Word document", lambda: word_document("")),
    ("odt", "OpenDocument text", lambda: opendocument_text("")),
])
def test_the_inbox_reads_an_office_file_and_says_why_one_fails(
        shared: Path, settings: Settings, form: str, name: str, empty: Callable[[], bytes]):
    """A ``.docx`` or ``.odt`` in the inbox is a document of one page read as its editor
    shows it; an empty one and a damaged one fail with the reason."""
    decision = decisions(shared)[0]
    settings.raw.mkdir(parents=True)
    treaty = write_english(decision, form, settings.raw)
    for file, content in ((f"empty.{form}", empty()), (f"cut.{form}", treaty.read_bytes()[:300])):
        (settings.raw / file).write_bytes(content)
    sources = {source.relpath: source for source in discover(settings)}
    pages = ingest(sources[treaty.name], settings).pages
    assert [(p.method, p.text.splitlines()[0]) for p in pages] == [
        (form, paragraph_texts(decision, "en")[0])]
    with pytest.raises(InputError, match=f"no text: the {name}'s body is empty"):
        ingest(sources[f"empty.{form}"], settings)
    with pytest.raises(InputError, match=f"cannot read the {name}"):
        ingest(sources[f"cut.{form}"], settings)
