"""OpenDocument texts read as LibreOffice shows them (pipeline.read.opendocument)."""

from __future__ import annotations

from pairing_data import opendocument_text

from pipeline.read.opendocument import odt_text

#: ``(a)``, then ``1.2``-style numbers two levels down; and a list of capitals.
LISTS = ('<text:list-style style:name="L1"><text:list-level-style-number text:level="1" '
         'style:num-prefix="(" style:num-suffix=")" style:num-format="a"/>'
         '<text:list-level-style-number text:level="2" style:num-suffix="." '
         'style:num-format="1" text:display-levels="2"/></text:list-style>'
         '<text:list-style style:name="L2"><text:list-level-style-number text:level="1" '
         'style:num-suffix="." style:num-format="A"/></text:list-style>')
OUTLINE = ('<text:outline-style style:name="Outline"><text:outline-level-style text:level="1" '
           'style:num-prefix="Article " style:num-format="1"/><text:outline-level-style '
           'text:level="2" style:num-format=""/></text:outline-style>')


def item(text: str, extra: str = "") -> str:
    return f"<text:list-item><text:p>{text}</text:p>{extra}</text:list-item>"


def test_opendocument_shows_its_numbers_and_hides_what_the_page_does_not():
    body = "".join([
        '<text:h text:outline-level="1"/>', '<text:h text:outline-level="2">Scope</text:h>',
        '<text:list text:style-name="L1">',
        item("one", '<text:list>' + item("sub") + item("sub two") + "</text:list>"),
        item("two"), "<text:list-header><text:p>a note on the list</text:p></text:list-header>",
        "</text:list>",
        '<text:list text:style-name="L1" text:continue-numbering="true">' + item("three")
        + "</text:list>",
        '<text:list text:style-name="L1">' + item("restarts") + "</text:list>",
        '<text:list text:style-name="L2"><text:list-item text:start-value="3"><text:p>C'
        "</text:p></text:list-item></text:list>",
        '<text:h text:outline-level="1">Definitions</text:h>',
        "<text:p>The<text:s text:c=\"3\"/>Contracting<text:tab/>States<text:note><text:note-"
        "citation>1</text:note-citation><text:note-body><text:p>A note.</text:p></text:note-"
        "body></text:note><office:annotation><text:p>A comment</text:p></office:annotation>"
        "<text:span> agree</text:span>.</text:p>",
        "<text:tracked-changes><text:changed-region><text:deletion><text:p>deleted</text:p>"
        "</text:deletion></text:changed-region></text:tracked-changes>",
        "<text:section><table:table><table:table-header-rows><table:table-row><table:table-"
        "cell><text:p>Code</text:p></table:table-cell><table:table-cell><text:p>Amount</text:p>"
        "</table:table-cell></table:table-row></table:table-header-rows><table:table-row>"
        "<table:table-cell><text:p>A</text:p></table:table-cell><table:table-cell><text:p>100"
        "</text:p></table:table-cell></table:table-row></table:table></text:section>"])
    assert odt_text(opendocument_text(body, lists=LISTS, outline=OUTLINE,
                                      header="RUNNING HEAD")).splitlines() == [
        "Article 1", "Scope", "(a) one", "a.1. sub", "a.2. sub two", "(b) two",
        "a note on the list", "(c) three", "(a) restarts", "C. C", "Article 2 Definitions",
        "The Contracting States agree.", "Code Amount", "A 100"]
