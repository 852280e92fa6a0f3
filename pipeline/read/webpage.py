"""A saved web page's text, as a reader sees it on the page.

An English text often comes as the web page that publishes it (EUR-Lex, a ministry's
site), saved as ``.html``. :func:`web_page_text` gives the text a browser shows, one
block per line — a paragraph, a heading, a list item, a table row — which is the shape
the rest of the pipeline takes from a text copied off a web page:

- what a page does not show is left out: scripts, styles, the title in the tab, and
  elements marked ``hidden``, ``aria-hidden="true"`` or ``display: none``; so is what
  it strikes out as deleted or revoked (``del``, ``s``, ``strike``);
- so is the site around the text, as the page marks it: where the page has a ``main``
  element (or ``role="main"``), its dominant content, only that is read; and
  everywhere its navigation (``nav``, ``role="navigation"``), and a header, footer or
  sidebar (``header``, ``footer``, ``aside`` and their roles ``banner``,
  ``contentinfo``, ``complementary``) that is not part of its ``main`` content or of
  an ``article``;
- a no-break space is a space and a soft hyphen nothing, as a browser copies them;
- a table row whose cells each hold one block is one line (EUR-Lex sets a list item's
  label and text in two cells: ``(a)`` | ``the Annex is amended…`` → ``(a) the
  Annex is amended…``); a row whose cells hold several blocks (a page laid out in a
  table) gives each block its own line.

:func:`decode_web_page` decodes the file by its byte-order mark or the charset it
declares. Everything here is pure and uses only the standard library's HTML parser.
"""

from __future__ import annotations

import codecs
import re
from html.parser import HTMLParser

__all__ = ["decode_web_page", "looks_like_html", "row_lines", "web_page_text"]

#: Elements whose content a page never shows as text, or shows as struck out: text the
#: page marks as deleted or no longer in force (``del``, ``s``, ``strike``: the
#: Brazilian presidency's law pages strike out revoked wording), as an office file's
#: tracked deletions.
_UNSHOWN = frozenset({"script", "style", "template", "noscript", "title", "svg", "math",
                      "iframe", "object", "canvas", "select", "button", "del", "s",
                      "strike"})
#: The site around the text, by element and by role: always (navigation), or outside
#: the page's main content and its articles (a page's header, footer and sidebar).
_NAVIGATION = frozenset({"nav"})
_AROUND = frozenset({"header", "footer", "aside"})
_ROLES_AROUND = frozenset({"banner", "contentinfo", "complementary"})
_CONTENT = frozenset({"main", "article"})
#: Elements that start and end a line.
_BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details",
    "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1",
    "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "legend", "li", "main", "nav",
    "ol", "p", "pre", "section", "summary", "table", "ul"})
#: Elements whose end tag may be left out before the next of their kind (``<p>a<p>b``).
_ENDS_ITS_SIBLING = frozenset({"p", "li", "dt", "dd"})
#: Elements without content or end tag.
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                   "meta", "param", "source", "track", "wbr"})
#: A page that marks its dominant content.
_MAIN = re.compile(r"<main\b|\brole\s*=\s*[\"']?main\b", re.IGNORECASE)
_SPACES = re.compile(r"[ \t\n\r\f]+")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_HTML_START = re.compile(r"\A\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)\b",
                         re.IGNORECASE | re.DOTALL)


def looks_like_html(text: str) -> bool:
    """Whether a text is an HTML document (it opens with a doctype or an ``html`` tag).

    >>> looks_like_html("<!DOCTYPE html>\\n<html lang='en'>"), looks_like_html("Article 1")
    (True, False)
    """
    return bool(_HTML_START.match(text[:4096]))


def decode_web_page(data: bytes) -> tuple[str, str] | None:
    """A web page's markup and its encoding, as its byte-order mark or its ``<meta>``
    charset tells them (ISO-8859-1 and ASCII read as Windows-1252, as browsers read
    them); None if neither tells one this can decode.

    >>> decode_web_page('<meta charset="iso-8859-1"><p>Convenção'.encode("cp1252"))[1]
    'cp1252'
    >>> decode_web_page(b"<p>no charset") is None
    True
    """
    for bom, encoding in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                          (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            return data.decode(encoding, errors="replace"), encoding
    declared = _CHARSET.search(data[:4096])
    if declared is None:
        return None
    try:
        encoding = codecs.lookup(declared.group(1).decode("ascii")).name
    except LookupError:
        return None
    if encoding in ("latin-1", "iso8859-1", "ascii"):
        encoding = "cp1252"
    return data.decode(encoding, errors="replace"), encoding


def web_page_text(markup: str) -> str:
    """The text a web page shows, one block per line (see the module's docstring).

    >>> print(web_page_text('''<html><head><title>Tab</title><script>x()</script></head>
    ... <body><nav><a href="/">Home</a></nav><header>Site name</header>
    ... <main><h1>Article&nbsp;1</h1><p>The <b>Parties</b>
    ...   agree.<br>They sign.</p>
    ... <table><tr><td><p>(a)</p></td><td><p>the Annex is amended;</p></td></tr></table>
    ... </main><footer>© 2019</footer></body></html>'''), end="")
    Article 1
    The Parties agree.
    They sign.
    (a) the Annex is amended;
    """
    lines = _read(markup, main_only=bool(_MAIN.search(markup)))
    if not lines:  # its main element shows nothing (one inside a template): all of it
        lines = _read(markup, main_only=False)
    return "".join(f"{line}\n" for line in lines)


def _read(markup: str, main_only: bool) -> list[str]:
    reader = _Reader(main_only)
    reader.feed(markup)
    reader.close()
    return reader.finish()


class _Box:
    """The lines read so far in the page or in a table cell, and the line being read."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.words: list[str] = []

    def add(self, text: str) -> None:
        self.words.append(text)

    def end_line(self) -> None:
        line = _SPACES.sub(" ", "".join(self.words)).strip()
        if line:
            self.lines.append(line)
        self.words = []


class _Reader(HTMLParser):
    """The parser behind :func:`web_page_text`: a stack of boxes (the page, then each
    open table cell) and of open table rows, each a list of its cells' lines."""

    def __init__(self, main_only: bool) -> None:
        super().__init__(convert_charrefs=True)
        #: Read only inside the page's main content: the open main element's tag, and
        #: how many elements of that tag are open from it.
        self.main_only = main_only
        self.main: tuple[str, int] | None = None
        self.boxes = [_Box()]
        self.rows: list[list[list[str]]] = []
        self.tables: list[tuple[int, int]] = []  # (open boxes, open rows) at each table
        self.hidden: list[str] = []  # the open element whose content is left out, nested
        self.content = 0  # open main and article elements
        self.pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.hidden:
            if tag != self.hidden[0]:
                return
            if tag not in _ENDS_ITS_SIBLING or len(self.hidden) > 1:
                self.hidden.append(tag)
                return
            self.hidden.pop()  # a hidden paragraph or item ends where the next starts
        attributes = dict(attrs)
        if tag not in _VOID and self._hides(tag, attributes):
            self.hidden.append(tag)
            return
        if self.main is not None and tag == self.main[0] and tag not in _VOID:
            self.main = (tag, self.main[1] + 1)
        elif self.main is None and (tag == "main"
                                    or (attributes.get("role") or "").lower() == "main"):
            self.main = (tag, 1)
        if tag in _CONTENT:
            self.content += 1
        if tag == "pre":
            self.pre += 1
        if tag == "table":
            self.boxes[-1].end_line()
            self.tables.append((len(self.boxes), len(self.rows)))
        elif tag == "tr" and self.tables:
            self._close_row()
            self.rows.append([])
        elif tag in ("td", "th") and self.tables:
            self._close_cell()
            if len(self.rows) == self.tables[-1][1]:  # a cell with no row opened
                self.rows.append([])
            self.boxes.append(_Box())
        elif tag == "br" or tag in _BLOCKS:
            self.boxes[-1].end_line()

    def handle_endtag(self, tag: str) -> None:
        if self.hidden:
            if tag == self.hidden[0]:
                self.hidden.pop()
            return
        if self.main is not None and tag == self.main[0]:
            self.main = (tag, self.main[1] - 1) if self.main[1] > 1 else None
        if tag in _CONTENT:
            self.content = max(0, self.content - 1)
        if tag == "pre":
            self.pre = max(0, self.pre - 1)
        if tag == "table" and self.tables:
            self._close_row()
            self.tables.pop()
        elif tag in ("tr", "tbody", "thead", "tfoot") and self.tables:
            self._close_row()
        elif tag in ("td", "th") and self.tables:
            self._close_cell()
        elif tag in _BLOCKS:
            self.boxes[-1].end_line()

    def handle_data(self, data: str) -> None:
        if self.hidden or (self.main_only and self.main is None):
            return
        data = data.replace("\xa0", " ").replace("\xad", "")
        if not self.pre:
            self.boxes[-1].add(data)
            return
        first, *rest = data.split("\n")
        self.boxes[-1].add(first)
        for line in rest:
            self.boxes[-1].end_line()
            self.boxes[-1].add(line)

    def finish(self) -> list[str]:
        """The page's lines, every open table closed."""
        while self.tables:
            self._close_row()
            self.tables.pop()
        self.boxes[0].end_line()
        return self.boxes[0].lines

    def _hides(self, tag: str, attrs: dict[str, str | None]) -> bool:
        role = (attrs.get("role") or "").lower()
        return (tag in _UNSHOWN or tag in _NAVIGATION or role == "navigation"
                or ((tag in _AROUND or role in _ROLES_AROUND) and not self.content)
                or "hidden" in attrs or (attrs.get("aria-hidden") or "").lower() == "true"
                or bool(_HIDDEN_STYLE.search(attrs.get("style") or "")))

    def _close_cell(self) -> None:
        """End the open cell of the innermost table, if any, adding it to its row."""
        if self.tables and len(self.boxes) > self.tables[-1][0]:
            cell = self.boxes.pop()
            cell.end_line()
            self.rows[-1].append(cell.lines)

    def _close_row(self) -> None:
        """End the open row of the innermost table, if any: one line if each of its
        cells holds one block at most, else each block a line."""
        self._close_cell()
        if self.tables and len(self.rows) > self.tables[-1][1]:
            box = self.boxes[-1]
            box.end_line()
            box.lines += row_lines(self.rows.pop())


def row_lines(cells: list[list[str]]) -> list[str]:
    """The lines of a table row whose cells hold these lines: one line if each cell
    holds one at most, else every cell's lines in turn (a page or a document laid out
    in a table). Word's and OpenDocument's rows read the same way
    (:mod:`pipeline.read.wordfile`, :mod:`pipeline.read.opendocument`).

    >>> row_lines([["(a)"], ["the Annex is amended;"]])
    ['(a) the Annex is amended;']
    >>> row_lines([["Menu"], ["Article 1", "The Parties."], []])
    ['Menu', 'Article 1', 'The Parties.']
    """
    filled = [lines for lines in cells if lines]
    if all(len(lines) == 1 for lines in filled):
        return [" ".join(lines[0] for lines in filled)] if filled else []
    return [line for lines in filled for line in lines]
