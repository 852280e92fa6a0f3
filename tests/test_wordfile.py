"""Word documents read as the text Word shows (pipeline.read.wordfile, pipeline.read.ingest)."""

from __future__ import annotations

from pairing_data import word_document

from pipeline.read.wordfile import docx_text

#: Two lists on one abstract list (``Article %1``, ``%1.%2``, ``(%3)`` lower roman), and
#: a list of upper-case letters that restarts at C.
LISTS = (
    '<w:abstractNum w:abstractNumId="0">'
    '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
    '<w:lvlText w:val="Article %1"/></w:lvl>'
    '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/>'
    '<w:lvlText w:val="%1.%2"/></w:lvl>'
    '<w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerRoman"/>'
    '<w:lvlText w:val="(%3)"/></w:lvl></w:abstractNum>'
    '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
    '<w:numFmt w:val="upperLetter"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum>'
    '<w:abstractNum w:abstractNumId="2"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/>'
    '<w:lvlText w:val="•"/></w:lvl></w:abstractNum>'
    '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
    '<w:num w:numId="2"><w:abstractNumId w:val="0"/></w:num>'
    '<w:num w:numId="3"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0">'
    '<w:startOverride w:val="3"/></w:lvlOverride></w:num>'
    '<w:num w:numId="4"><w:abstractNumId w:val="2"/></w:num>')


def paragraph(text: str, level: int | None = None, num: int = 1, extra: str = "") -> str:
    listed = (f'<w:pPr><w:numPr><w:ilvl w:val="{level}"/><w:numId w:val="{num}"/></w:numPr>'
              "</w:pPr>") if level is not None else ""
    return f'<w:p>{listed}<w:r><w:t xml:space="preserve">{text}</w:t></w:r>{extra}</w:p>'


def test_word_shows_its_list_numbers_and_hides_deleted_and_hidden_text():
    body = "".join([
        paragraph("", 0), paragraph("Scope.", 1), paragraph("first", 2), paragraph("second", 2),
        paragraph("Definitions.", 1), paragraph("", 0, num=2),  # another list, the same count
        paragraph("The", extra='<w:del><w:r><w:delText> two</w:delText></w:r></w:del>'
                  '<w:ins><w:r><w:t xml:space="preserve"> Contracting</w:t></w:r></w:ins>'
                  '<w:r><w:rPr><w:vanish/></w:rPr><w:t> (hidden)</w:t></w:r>'
                  '<w:hyperlink><w:r><w:t xml:space="preserve"> States</w:t></w:r>'
                  "</w:hyperlink>"),
        paragraph("restarts at C", 0, num=3), paragraph("then D", 0, num=3),
        paragraph("a bullet", 0, num=4),
        "<w:tbl><w:tr><w:tc>" + paragraph("(a)") + "</w:tc><w:tc>" + paragraph("one;")
        + "</w:tc></w:tr><w:tr><w:tc>" + paragraph("Menu") + "</w:tc><w:tc>"
        + paragraph("Article 9") + paragraph("Text.") + "</w:tc></w:tr></w:tbl>",
        "<w:sdt><w:sdtContent>" + paragraph("In a content control.") + "</w:sdtContent></w:sdt>",
        '<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/>'
        "</w:docPartObj></w:sdtPr><w:sdtContent>" + paragraph("Article 1 Scope 3")
        + "</w:sdtContent></w:sdt>",
        # numbered by its style, as headings are
        '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr></w:p>'])
    style = ('<w:style w:type="paragraph" w:styleId="Heading1"><w:pPr><w:numPr>'
             '<w:numId w:val="1"/></w:numPr></w:pPr></w:style>')
    assert docx_text(word_document(body, numbering=LISTS, header="RUNNING HEAD",
                                   styles=style)).splitlines() == [
        "Article 1", "1.1 Scope.", "(i) first", "(ii) second", "1.2 Definitions.", "Article 2",
        "The Contracting States", "C. restarts at C", "D. then D", "a bullet", "(a) one;", "Menu",
        "Article 9", "Text.", "In a content control.", "Article 3"]
