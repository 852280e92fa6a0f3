"""Saved web pages read as the text they show (pipeline.read.webpage, pipeline.read.ingest)."""

from __future__ import annotations

import pytest

from pipeline.config import Settings
from pipeline.errors import InputError
from pipeline.read.ingest import discover, ingest
from pipeline.read.webpage import decode_web_page, web_page_text


@pytest.mark.parametrize(("markup", "text"), [
    # end tags left out, as HTML allows: each cell and row ends where the next starts
    ("<table><tr><td>(a)<td>the Annex<tr><td>(b)<td>Article 2</table>after",
     "(a) the Annex\n(b) Article 2\nafter\n"),
    # a page laid out in a table: a cell of several blocks gives each its own line
    ("<table><tr><td><p>Menu</p></td><td><h1>Article 1</h1><p>The Parties.</p>"
     "<table><tr><td>(i)</td><td>one;</td></tr></table></td></tr></table>",
     "Menu\nArticle 1\nThe Parties.\n(i) one;\n"),
    # what a page does not show
    ('<p hidden>a</p><div aria-hidden="true"><div>b</div></div><p style="DISPLAY:none">c'
     '</p><noscript>Enable JavaScript</noscript><p>shown<template>t</template></p>',
     "shown\n"),
    # wording struck out as revoked, as the Brazilian presidency's law pages print it
    ("<p>Art. 1º Texto vigente.</p><p><strike>Art. 2º Texto revogado.</strike></p>"
     "<p>Art. 3º The rate is <del>15</del><ins>10</ins> per cent.</p>",
     "Art. 1º Texto vigente.\nArt. 3º The rate is 10 per cent.\n"),
    # a hidden paragraph whose end tag is left out ends where the next one starts
    ("<p hidden>Skip to content<p>Article 1<ul><li style='display:none'>x<li>(a) one</ul>",
     "Article 1\n(a) one\n"),
    # a header or footer inside the text is the text's; the page's own are not
    ('<header>Ministry</header><article><header><h1>Convention</h1></header><p>Text.</p>'
     '<footer>Done at Brasília</footer></article><div role="contentinfo">Contact</div>',
     "Convention\nText.\nDone at Brasília\n"),
    # a page that marks its main content: only that is its text
    ('<div class="breadcrumb">Home &gt; Treaties</div><div role="main"><div><p>Article 1</p>'
     '</div><p>Scope.</p></div><div class="panel">Languages: BG ES CS</div>',
     "Article 1\nScope.\n"),
    # a main element that shows nothing (a template's) leaves the page's text as it is
    ('<template><main>later</main></template><div role="Navigation">Menu</div><p>Text.</p>',
     "Text.\n"),
    # preformatted text keeps its lines; elsewhere white space is a space
    ("<pre>ARTICLE 1\n  text</pre><p>a\n   b&nbsp;c&shy;d<br/>e</p>",
     "ARTICLE 1\ntext\na b cd\ne\n"),
])
def test_web_page_text_follows_the_page(markup: str, text: str):
    assert web_page_text(markup) == text


def test_a_web_page_is_decoded_as_it_declares():
    page = ('<html><head><meta http-equiv="Content-Type" content="text/html; '
            'charset=windows-1252"></head><body><p>Convenção</p></body></html>')
    assert decode_web_page(page.encode("cp1252")) == (page, "cp1252")
    assert decode_web_page(b"\xef\xbb\xbf<p>Convention</p>") == ("<p>Convention</p>", "utf-8-sig")
    assert decode_web_page(b'<meta charset="x-unknown"><p>a') is None


def test_the_inbox_reads_web_pages_whatever_their_name(settings: Settings):
    """An ``.html`` file is a document read as a web page, and so is a ``.txt`` that holds
    one; a page that shows no text fails with the reason."""
    raw = settings.raw
    raw.mkdir(parents=True)
    (raw / "treaty.html").write_text("<!DOCTYPE html><title>T</title><nav>Home</nav>"
                                     "<h1>ARTICLE 1</h1><p>Scope.</p>", encoding="utf-8")
    (raw / "saved.txt").write_text("<html><body><p>Article 2</p></body></html>",
                                   encoding="utf-8")
    (raw / "empty.htm").write_text("<html><script>render()</script></html>", encoding="utf-8")
    (raw / "plain.txt").write_text("<p> is a tag\n", encoding="utf-8")
    sources = {source.relpath: source for source in discover(settings)}
    assert {relpath: source.kind for relpath, source in sources.items()} == {
        "empty.htm": "html", "plain.txt": "text", "saved.txt": "text", "treaty.html": "html"}
    pages = {relpath: ingest(source, settings).pages
             for relpath, source in sources.items() if relpath != "empty.htm"}
    assert [(p.method, p.text) for p in pages["treaty.html"]] == [
        ("web-page", "ARTICLE 1\nScope.\n")]
    assert [(p.method, p.text) for p in pages["saved.txt"]] == [("web-page", "Article 2\n")]
    assert [(p.method, p.text) for p in pages["plain.txt"]] == [("text-dump", "<p> is a tag\n")]
    with pytest.raises(InputError, match="no text: the web page shows none"):
        ingest(sources["empty.htm"], settings)
