"""Inboxes for the end-to-end pairing benchmark, built only from ``../shared``.

A user drops a gazette edition and English texts into ``raw/`` and reads ``aligned/``.
These inboxes reproduce that with gold:

* **The decisions.** The 34 DGT decisions (``dgt-decisions/*.tmx``, DGT-TM) give each
  decision's text in English, Portuguese and Swedish, segment-aligned: segment *k* of
  one language translates segment *k* of another. A document is made of its
  language's segments in order, grouped into the same paragraphs in every language
  (:func:`paragraphs`): a heading, a title line, a signature line, a list item or a
  line ending in ``:`` stands alone; sentences are grouped one to three a paragraph.
* **The edition.** The Portuguese (or Swedish) text of a decision is printed as the
  annex of a decree of the Executive that promulgates it, typeset as the Diário
  Oficial da União sets its acts (three columns, 8-point serif, justified lines with
  hyphenation, running heads and footer; :func:`dou_pages`), and these pages are put
  into the real 140-page edition of 1 October 2014 (``brazil-pdfs/DOUS1a.pdf``)
  between pages where a new act starts at the top. The *scan* is the edition's first
  page and the planted pages rendered at 300 dpi as photocopies (gray paper with a
  shadow, noise, a rotation under one degree, JPEG), with no text layer.
* **The English text** of a decision in one of eight forms: a PDF (one column, with an
  Official Journal running head), a text file of one paragraph per line (as copied from
  a web page), a hard-wrapped text file (72 columns, blank lines between paragraphs),
  the web page saved (``.html``, as EUR-Lex sets it: :func:`english_html`), a Word
  file (``.docx``, its articles numbered by Word: :func:`english_docx`), an
  OpenDocument text (``.odt``, its articles numbered by its outline: :func:`english_odt`),
  the PDF photocopied, with no text layer (``scan``: :func:`english_scan`), and one
  item of a bulletin of news, in lines (``bulletin``: :func:`english_bulletin`).
* **Distractors.** Decisions whose English text is in the inbox and whose translation
  is not; decisions printed in the edition whose English text is not (acts on the same
  subjects as the others); two NTREX news texts in English; the edition's own 454 acts.
* **India.** The English and Hindi (legacy font) editions of Lok Sabha bulletin no. 59
  (``india-pdfs``), a pair with no segment gold, and the Hindi RTI order, which has no
  English counterpart.

The decisions are cut into a *tuning* and a *reporting* half by a hash of their names
(every other one), as ``align_data.halves`` cuts the alignment sets; each half has its
own edition and inboxes, and each decision has one role in its half
(:data:`ROLES`): its English text with a Portuguese act, with a Swedish act, with both,
alone, or its Portuguese act alone.
"""

from __future__ import annotations

import hashlib
import html
import io
import itertools
import random
import re
import shutil
import textwrap
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pikepdf
import pypdfium2
from fpdf import FPDF
from PIL import Image, ImageFilter

__all__ = ["ROLES", "Decision", "Inbox", "build_edition", "build_inbox", "decision_texts",
           "decisions", "ntrex_documents", "paragraphs", "plan"]

FONTS = Path("/usr/share/fonts/truetype/dejavu")
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
LANGUAGES = {"en": "EN-GB", "pt": "PT-PT", "sv": "SV-SE"}

#: What each decision of a half is, in the order of a hash of its name: ``pt`` its
#: English text and its Portuguese decree act, ``sv`` a Swedish one, ``pt+sv`` both
#: (one English text, two translations), ``en`` its English text alone (no
#: counterpart), ``pt-only`` its Portuguese act alone (an act on the same subjects as
#: the others, whose English is not there).
ROLES = ("pt", "pt", "sv", "pt", "pt+sv", "pt", "en", "pt", "pt-only", "sv", "pt",
         "pt+sv", "pt", "en", "pt", "pt-only", "pt")

#: Edition pages after which an act starts at the top of the next page (found by
#: ``pipeline.editions.acts.find_acts`` on the edition): the planted decrees go there, in three
#: blocks, so no act of the edition is cut in two.
INSERT_AFTER = (3, 41, 95)


@dataclass(frozen=True)
class Decision:
    """One DGT decision: its segments in each language, aligned by index."""

    name: str
    #: Per segment, its text in each language that has it.
    segments: tuple[dict[str, str], ...]

    def texts(self, language: str) -> list[tuple[int, str]]:
        """The segments this language has, with their index."""
        return [(k, seg[language]) for k, seg in enumerate(self.segments) if language in seg]


def decisions(shared: Path) -> list[Decision]:
    """Every DGT decision with English and Portuguese or Swedish, in file order."""
    found = []
    for path in sorted((shared / "corpora" / "dgt-decisions").glob("*.tmx")):
        root = ET.fromstring(path.read_bytes().decode("utf-16"))
        segments = []
        for tu in root.iter("tu"):
            texts = {tuv.get("lang"): " ".join((tuv.findtext("seg") or "").split())
                     for tuv in tu.iter("tuv")}
            seg = {lang: texts[code] for lang, code in LANGUAGES.items() if texts.get(code)}
            if "en" in seg and len(seg) > 1:
                segments.append(seg)
        found.append(Decision(path.stem, tuple(segments)))
    return found


def plan(found: list[Decision]) -> dict[str, list[tuple[Decision, str]]]:
    """The decisions of each half with their roles: every other decision in the order
    of a hash of their names, the roles of :data:`ROLES` given in that order."""
    ordered = sorted(found, key=lambda d: hashlib.sha1(d.name.encode()).hexdigest())
    return {half: list(zip(ordered[start::2], itertools.cycle(ROLES)))
            for half, start in (("tuning", 0), ("reporting", 1))}


_LINE_LIKE = re.compile(r"[^.;:!?,]$")


def paragraphs(decision: Decision) -> list[list[int]]:
    """The decision's segments grouped into paragraphs (lists of segment indices),
    decided on the English text and the same in every language.

    A segment stands alone when it reads as a line of its own — a heading, a title or
    signature line (no closing punctuation), a list item or a recital (ends in ``;`` or
    ``,``), or a lead-in (ends in ``:``); sentences are grouped into paragraphs of one to
    three, by a draw seeded with the decision's name."""
    rng = random.Random(decision.name)
    groups: list[list[int]] = []
    open_group = False
    for k, seg in enumerate(decision.segments):
        english = seg["en"]
        sentence = english.endswith((".", ".’", ".”", ".)")) and len(english) > 60
        if sentence and open_group and len(groups[-1]) < 3 and rng.random() < 0.5:
            groups[-1].append(k)
        else:
            groups.append([k])
        open_group = sentence
    return groups


def paragraph_texts(decision: Decision, language: str) -> list[str]:
    """The decision's paragraphs in ``language`` (segments it lacks left out)."""
    out = []
    for group in paragraphs(decision):
        text = " ".join(decision.segments[k][language] for k in group
                        if language in decision.segments[k])
        if text:
            out.append(text)
    return out


def decision_texts(shared: Path) -> dict[str, str]:
    """Every DGT decision's text in each of its languages, one paragraph per line, by
    ``<decision> <language>``."""
    return {f"{decision.name} {language}": "\n".join(paragraph_texts(decision, language))
            for decision in decisions(shared) for language in LANGUAGES
            if any(language in segment for segment in decision.segments)}


# -- the English text in three forms --------------------------------------------------

def english_lines(decision: Decision) -> str:
    """One paragraph per line, as copied from a web page."""
    return "\n".join(paragraph_texts(decision, "en")) + "\n"


def english_bulletin(decision: Decision, news: Sequence[Sequence[str]]) -> str:
    """One item of a bulletin, one paragraph per line: under the bulletin's title,
    three news texts of ``news`` before it and three after (drawn by the decision's
    name), each item apart by a blank line. A short decision is a tenth of its
    bulletin, the longest most of it."""
    rng = random.Random(f"bulletin-{decision.name}")
    items = ["\n".join(lines) for lines in rng.sample(list(news), 6)]
    items.insert(3, english_lines(decision).rstrip("\n"))
    title = f"WEEKLY BULLETIN No {_journal_number(decision)}"
    return "\n\n".join([title, *items]) + "\n"


def english_wrapped(decision: Decision) -> str:
    """Hard-wrapped at 72 columns, paragraphs apart by a blank line."""
    return "\n\n".join(textwrap.fill(p, 72, break_long_words=False, break_on_hyphens=False)
                       for p in paragraph_texts(decision, "en")) + "\n"


def english_html(decision: Decision) -> str:
    """The page EUR-Lex would show, saved: its head (title, script, style), the site's
    banner, navigation, a hidden cookie notice and footer around the text; the
    running head a table row of three cells; titles and headings as paragraphs of their
    classes, set with no-break spaces (``Article&nbsp;1``); the items after a lead-in
    (a paragraph ending in ``:``) each a row of two cells, a dash and its text; long
    paragraphs wrapped in the markup."""
    number = _journal_number(decision)
    body = []
    items = False
    for text in paragraph_texts(decision, "en"):
        marked = re.sub(r"\b(Article|No|Annex|L) (?=\d)", r"\1&nbsp;", html.escape(text))
        wrapped = textwrap.fill(marked, 100, break_long_words=False, break_on_hyphens=False)
        if items and not _LINE_LIKE.search(text):
            body.append('<table width="100%" border="0" cellspacing="0" cellpadding="0">'
                        '<col width="4%"><col width="96%"><tbody><tr>'
                        '<td valign="top"><p class="oj-normal">—</p></td>\n'
                        f'<td valign="top"><p class="oj-normal">{wrapped}</p></td>'
                        "</tr></tbody></table>")
            continue
        style = "oj-ti-art" if _LINE_LIKE.search(text) else "oj-normal"
        body.append(f'<p class="{style}">{wrapped}</p>')
        items = text.endswith(":")
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="UTF-8">',
        f"<title>EUR-Lex - {decision.name} - EN - EUR-Lex</title>",
        "<script>window.dataLayer = window.dataLayer || [];</script>",
        "<style>p.oj-normal { margin-top: 6pt }</style>", "</head>", "<body>",
        '<header role="banner"><a href="/">EUR-Lex</a> <span>Access to European Union '
        "law</span></header>",
        '<nav><ul><li><a href="/homepage.html">Home</a></li><li><a href="/search.html">'
        "Search</a></li><li>Browse by EuroVoc</li></ul></nav>",
        '<div id="cookie-consent" style="display: none">This site uses cookies.</div>',
        '<main><div id="document1"><div class="tabContent">',
        '<table width="100%" border="0"><tr><td class="oj-hd-date">'
        f'L&nbsp;{number}/1</td><td class="oj-hd-lg">EN</td>'
        '<td class="oj-hd-ti">Official Journal of the European Union</td></tr></table>',
        *body, "</div></div></main>",
        '<footer><a href="/legal-notice.html">Legal notice</a> | <a href="/cookies.html">'
        "Cookies policy</a> | © European Union</footer>",
        "<script>initialisePage();</script>", "</body>", "</html>", ""])


def english_docx(decision: Decision) -> bytes:
    """The Word file the text was drafted in: articles numbered by Word's list levels
    (``Article %1``: the heading's text is not in the paragraph, where the articles
    run 1, 2, 3 …), the items after a lead-in numbered ``(a)``, ``(b)`` … on the
    list's second level, paragraphs cut into runs at word boundaries (as Word stores
    them after edits), and the Official Journal's running head in the page header."""
    texts = paragraph_texts(decision, "en")
    articles = [k for k, text in enumerate(texts) if re.fullmatch(r"Article \d+", text)]
    numbered = [texts[k] for k in articles] == [f"Article {n}" for n in
                                                 range(1, len(articles) + 1)]
    rng = random.Random(decision.name)
    body = []
    items = False
    for k, text in enumerate(texts):
        if numbered and k in articles:
            body.append(_word_paragraph("", (0, 1)))
            continue
        item = items and not _LINE_LIKE.search(text)
        body.append(_word_paragraph(text, (1, 1) if item else None, rng))
        items = item or text.endswith(":")
    return word_document("".join(body), numbering=_WORD_LISTS, header=(
        f"L {_journal_number(decision)}/1 EN Official Journal of the European Union"))


#: A list of two levels: ``Article 1``, then ``(a)``, ``(b)`` … under it.
_WORD_LISTS = (
    '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/>'
    '<w:numFmt w:val="decimal"/><w:lvlText w:val="Article %1"/></w:lvl><w:lvl w:ilvl="1">'
    '<w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="(%2)"/></w:lvl>'
    '</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>')
_WORD_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _word_paragraph(text: str, listed: tuple[int, int] | None = None,
                    rng: random.Random | None = None) -> str:
    """A ``w:p`` of ``text``, numbered at (level, list) if ``listed``, its runs cut at
    up to two word boundaries drawn from ``rng``."""
    words = text.split(" ")
    cuts = sorted(rng.sample(range(1, len(words)), min(2, len(words) - 1))) if rng else []
    runs = [" ".join(words[a:b]) + (" " if b < len(words) else "")
            for a, b in zip([0, *cuts], [*cuts, len(words)], strict=True)] if text else []
    props = (f'<w:pPr><w:numPr><w:ilvl w:val="{listed[0]}"/><w:numId w:val="{listed[1]}"/>'
             "</w:numPr></w:pPr>") if listed else ""
    return "<w:p>" + props + "".join(
        f'<w:r><w:t xml:space="preserve">{html.escape(run, quote=False)}</w:t></w:r>'
        for run in runs) + "</w:p>"


def word_document(body: str, numbering: str = "", header: str = "", styles: str = "") -> bytes:
    """A ``.docx`` package: ``body`` (WordprocessingML inside ``w:body``), the lists of
    ``numbering`` (``w:abstractNum`` and ``w:num`` elements), a page header of one line
    and the paragraph ``styles`` (``w:style`` elements), with the parts and relations
    Word writes for them."""
    relations = [("numbering", "numbering.xml"), ("header", "header1.xml"),
                 ("styles", "styles.xml")]
    rels = "".join(
        f'<Relationship Id="rId{n}" Type="http://schemas.openxmlformats.org/officeDocument/'
        f'2006/relationships/{kind}" Target="{target}"/>'
        for n, (kind, target) in enumerate(relations, start=1))
    parts = {
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/word/document.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
            '<Override PartName="/word/numbering.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.wordprocessingml.numbering+xml"/>'
            '<Override PartName="/word/header1.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.wordprocessingml.header+xml"/>'
            '<Override PartName="/word/styles.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>'),
        "_rels/.rels": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
            'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
            'officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
            "</Relationships>"),
        "word/_rels/document.xml.rels": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
            f'relationships">{rels}</Relationships>'),
        "word/document.xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            f'<w:document {_WORD_NS} xmlns:r="http://schemas.openxmlformats.org/'
            f'officeDocument/2006/relationships"><w:body>{body}<w:sectPr>'
            '<w:headerReference w:type="default" r:id="rId2"/></w:sectPr></w:body>'
            "</w:document>"),
        "word/numbering.xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            f"<w:numbering {_WORD_NS}>{numbering}</w:numbering>"),
        "word/header1.xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            f'<w:hdr {_WORD_NS}><w:p><w:r><w:t>{html.escape(header, quote=False)}</w:t></w:r>'
            "</w:p></w:hdr>"),
        "word/styles.xml": (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            f"<w:styles {_WORD_NS}>{styles}</w:styles>"),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for name, content in parts.items():
            package.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)),
                             content, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def english_odt(decision: Decision) -> bytes:
    """The text as an OpenDocument file (LibreOffice's): the articles numbered by the
    document's outline numbering (``Article 1`` …, where the articles run 1, 2, 3 …:
    the heading's words are not in it), the items after a lead-in a list lettered
    ``(a)``, ``(b)`` …, paragraphs cut into spans at word boundaries, and the Official
    Journal's running head in the page header."""
    texts = paragraph_texts(decision, "en")
    articles = [k for k, text in enumerate(texts) if re.fullmatch(r"Article \d+", text)]
    numbered = [texts[k] for k in articles] == [f"Article {n}" for n in
                                                 range(1, len(articles) + 1)]
    rng = random.Random(decision.name)
    body: list[str] = []
    items: list[str] = []
    lead_in = False
    for k, text in enumerate(texts):
        if lead_in and not _LINE_LIKE.search(text):
            items.append(f"<text:list-item>{_odf_paragraph(text, rng)}</text:list-item>")
            continue
        if items:
            body.append(f'<text:list text:style-name="L1">{"".join(items)}</text:list>')
            items = []
        body.append('<text:h text:outline-level="1"/>' if numbered and k in articles
                    else _odf_paragraph(text, rng))
        lead_in = text.endswith(":")
    if items:
        body.append(f'<text:list text:style-name="L1">{"".join(items)}</text:list>')
    return opendocument_text(
        "".join(body), lists=_ODF_LISTS, outline=_ODF_OUTLINE,
        header=f"L {_journal_number(decision)}/1 EN Official Journal of the European Union")


_ODF_NS = " ".join(f'xmlns:{name}="urn:oasis:names:tc:opendocument:xmlns:{urn}"' for name, urn in (
    ("office", "office:1.0"), ("text", "text:1.0"), ("style", "style:1.0"),
    ("table", "table:1.0"), ("fo", "xsl-fo-compatible:1.0")))
#: A list lettered ``(a)``, ``(b)`` …, and the outline numbering ``Article 1`` ….
_ODF_LISTS = ('<text:list-style style:name="L1"><text:list-level-style-number text:level="1" '
              'style:num-prefix="(" style:num-suffix=")" style:num-format="a"/>'
              "</text:list-style>")
_ODF_OUTLINE = ('<text:outline-style style:name="Outline"><text:outline-level-style '
                'text:level="1" style:num-prefix="Article " style:num-format="1"/>'
                "</text:outline-style>")


def _odf_paragraph(text: str, rng: random.Random) -> str:
    """A ``text:p`` of ``text``, cut into spans at up to two word boundaries."""
    words = text.split(" ")
    cuts = sorted(rng.sample(range(1, len(words)), min(2, len(words) - 1)))
    spans = [" ".join(words[a:b]) + (" " if b < len(words) else "")
             for a, b in zip([0, *cuts], [*cuts, len(words)], strict=True)]
    return "<text:p>" + "".join(f'<text:span text:style-name="T{n}">'
                                f"{html.escape(span, quote=False)}</text:span>"
                                for n, span in enumerate(spans)) + "</text:p>"


def opendocument_text(body: str, lists: str = "", outline: str = "", header: str = "") -> bytes:
    """An ``.odt`` package: ``body`` (ODF elements inside ``office:text``), the list
    styles ``lists`` (``text:list-style`` elements, with the content's automatic styles),
    the ``outline`` numbering (a ``text:outline-style``) and a page header of one line,
    with the parts LibreOffice writes for them."""
    parts = {
        "mimetype": "application/vnd.oasis.opendocument.text",
        "META-INF/manifest.xml": (
            '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
            '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
            '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/'
            'vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path='
            '"content.xml" manifest:media-type="text/xml"/><manifest:file-entry '
            'manifest:full-path="styles.xml" manifest:media-type="text/xml"/>'
            "</manifest:manifest>"),
        "content.xml": (
            f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_ODF_NS} '
            f'office:version="1.3"><office:automatic-styles>{lists}</office:automatic-styles>'
            f"<office:body><office:text>{body}</office:text></office:body>"
            "</office:document-content>"),
        "styles.xml": (
            f'<?xml version="1.0" encoding="UTF-8"?><office:document-styles {_ODF_NS} '
            f'office:version="1.3"><office:styles>{outline}</office:styles>'
            '<office:master-styles><style:master-page style:name="Standard"><style:header>'
            f"<text:p>{html.escape(header, quote=False)}</text:p></style:header>"
            "</style:master-page></office:master-styles></office:document-styles>"),
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as package:
        for name, content in parts.items():
            package.writestr(zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0)), content,
                             zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED)
    return out.getvalue()


def write_english(decision: Decision, form: str, folder: Path, shared: Path | None = None
                  ) -> Path:
    """The English text of ``decision`` written in ``form`` (one of :data:`FORMS`) into
    ``folder``, as ``<decision>-en.<suffix>`` (``.txt`` for ``lines``, ``wrapped`` and
    ``bulletin``, ``.pdf`` for ``scan``); a bulletin's news are NTREX's, from
    ``shared``, but the two :func:`_distractors` are."""
    writers: dict[str, Callable[[Decision], str | bytes]] = {
        "pdf": english_pdf, "lines": english_lines, "wrapped": english_wrapped,
        "html": english_html, "docx": english_docx, "odt": english_odt, "scan": english_scan}
    if form == "bulletin":
        if shared is None:
            raise ValueError("a bulletin's news come from ../shared: give shared")
        news = ntrex_documents(shared, "eng")[DISTRACTORS:]
        writers["bulletin"] = lambda found: english_bulletin(found, news)
    written = writers[form](decision)
    suffix = {"lines": "txt", "wrapped": "txt", "bulletin": "txt", "scan": "pdf"}.get(form, form)
    path = folder / f"{decision.name}-en.{suffix}"
    if isinstance(written, bytes):
        path.write_bytes(written)
    else:
        path.write_text(written, encoding="utf-8")
    return path


def _journal_number(decision: Decision) -> int:
    """The issue of the Official Journal an English text of ``decision`` is printed in."""
    return int(hashlib.sha1(decision.name.encode()).hexdigest()[:4], 16) % 300 + 1


def english_pdf(decision: Decision) -> bytes:
    """A one-column A4 PDF with a text layer and an Official Journal running head."""
    pdf = FPDF(format="A4")
    pdf.set_creation_date(FIXED_DATE)
    pdf.add_font("Serif", "", str(FONTS / "DejaVuSerif.ttf"))
    pdf.add_font("Serif", "B", str(FONTS / "DejaVuSerif-Bold.ttf"))
    pdf.set_auto_page_break(auto=True, margin=20)
    number = _journal_number(decision)

    def head() -> None:
        pdf.set_font("Serif", "", 8)
        pdf.cell(0, 5, f"L {number}/{pdf.page_no()}      EN      Official Journal of the "
                 f"European Union", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)

    pdf.header = head  # type: ignore[method-assign]
    pdf.add_page()
    for text in paragraph_texts(decision, "en"):
        line_like = bool(_LINE_LIKE.search(text)) and len(text) < 100
        pdf.set_font("Serif", "B" if line_like and text.isupper() else "", 10)
        pdf.multi_cell(0, 5, text, align="L" if line_like else "J",
                       new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    return bytes(pdf.output())


# -- the edition: decrees typeset as the DOU sets its acts -----------------------------

@dataclass(frozen=True)
class Block:
    """A paragraph of an act as the edition prints it."""

    style: str  # banner, dot, heading, summary, body, signature
    text: str


PT_MONTHS = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
             "setembro", "outubro", "novembro", "dezembro")


def decree(decision: Decision, language: str, number: int) -> list[Block]:
    """The decree of the Executive that promulgates ``decision``, its text in
    ``language`` as the annex (a Swedish text under a Portuguese decree: the edition
    prints it as signed)."""
    title = decision.segments[0].get("pt", decision.segments[0]["en"])
    title = title[0].lower() + title[1:]
    blocks = [Block("banner", "Atos do Poder Executivo"), Block("dot", "."),
              Block("heading", f"DECRETO Nº {number // 1000}.{number % 1000:03d}, DE 30 DE "
                               "SETEMBRO DE 2014"),
              Block("summary", f"Promulga a {title}."),
              Block("body", "A PRESIDENTA DA REPÚBLICA, no uso da atribuição que lhe confere "
                            "o art. 84, caput, inciso IV, da Constituição, e"),
              Block("body", f"Considerando que a {title} foi aprovada pelo Congresso Nacional "
                            "por meio de Decreto Legislativo e entrou em vigor para a "
                            "República Federativa do Brasil no plano jurídico externo;"),
              Block("body", "DECRETA:"),
              Block("body", f"Art. 1º Fica promulgada a {title}, anexa a este Decreto."),
              Block("body", "Art. 2º Este Decreto entra em vigor na data de sua publicação."),
              Block("body", "Brasília, 30 de setembro de 2014; 193º da Independência e 126º "
                            "da República."),
              Block("signature", "DILMA ROUSSEFF"),
              Block("signature", "Luiz Alberto Figueiredo Machado"),
              Block("heading", "ANEXO")]
    for text in paragraph_texts(decision, language):
        line_like = bool(_LINE_LIKE.search(text)) and len(text) < 100
        blocks.append(Block("heading" if line_like and text.isupper() else
                            "line" if line_like else "body", text))
    return blocks


PAGE = (822.0, 907.0)
MARGIN_X, TOP, BOTTOM = 40.0, 62.0, 60.0
GUTTER = 14.0
COLUMNS = 3
LEADING = 9.4


class _Edition:
    """Typesets blocks into three-column DOU pages, one after another."""

    def __init__(self, first_page: int) -> None:
        self.pdf = FPDF(unit="pt", format=PAGE)
        self.pdf.set_creation_date(FIXED_DATE)
        self.pdf.set_auto_page_break(False)
        for style, name in (("", "DejaVuSerif.ttf"), ("B", "DejaVuSerif-Bold.ttf"),
                            ("I", "DejaVuSerif-Italic.ttf")):
            self.pdf.add_font("Serif", style, str(FONTS / name))
        self.page_number = first_page
        self.width = (PAGE[0] - 2 * MARGIN_X - (COLUMNS - 1) * GUTTER) / COLUMNS
        self.column = COLUMNS
        self.y = PAGE[1]

    def _new_column(self) -> None:
        self.column += 1
        if self.column >= COLUMNS:
            self._new_page()
            self.column = 0
        self.y = TOP

    def _new_page(self) -> None:
        """A new page with the edition's running head and footer, as its pages print
        them (the page number, the ISSN and the date on lines of their own)."""
        pdf = self.pdf
        pdf.add_page()
        self.page_number += 1
        date = "Nº 189, quarta-feira, 1 de outubro de 2014"
        first, second = ((str(self.page_number), "ISSN 1677-7042")
                         if self.page_number % 2 == 0 else
                         (date, f"ISSN 1677-7042 {self.page_number}"))
        pdf.set_font("Serif", "B", 9)
        pdf.text(MARGIN_X, 30, first)
        pdf.text(MARGIN_X, 44, second)
        pdf.set_font("Serif", "", 6)
        pdf.text(MARGIN_X, PAGE[1] - 30, "Este documento pode ser verificado no endereço "
                 "eletrônico http://www.in.gov.br/autenticidade.html , Documento assinado "
                 "digitalmente conforme MP no- 2.200-2 de 24/08/2001, que institui a")
        pdf.text(MARGIN_X, PAGE[1] - 23, f"pelo código 00012014100100{self.page_number:03d} "
                 "Infraestrutura de Chaves Públicas Brasileira - ICP-Brasil.")

    def _line(self, words: list[str], style: str, last: bool, indent: float) -> None:
        if self.y + LEADING > PAGE[1] - BOTTOM:
            font = (self.pdf.font_family, self.pdf.font_style, self.pdf.font_size_pt)
            self._new_column()
            self.pdf.set_font(*font)
        x0 = MARGIN_X + self.column * (self.width + GUTTER) + indent
        width = self.width - indent
        pdf = self.pdf
        self.y += LEADING
        if style in ("banner", "heading", "dot", "signature"):
            line = " ".join(words)
            x = x0 + (width - pdf.get_string_width(line)) / 2
            pdf.text(x, self.y, line)
            return
        if last or len(words) == 1:
            pdf.text(x0, self.y, " ".join(words))
            return
        # each word drawn with its space, the space stretched to fill the line
        widths = [pdf.get_string_width(w) for w in words]
        gap = (width - sum(widths)) / (len(words) - 1)
        x = x0
        for word, w in zip(words, widths, strict=True):
            pdf.text(x, self.y, word if word is words[-1] else word + " ")
            x += w + gap

    def block(self, block: Block) -> None:
        pdf = self.pdf
        size, style = {"banner": (10, "B"), "heading": (8, "B"), "dot": (8, "B"),
                       "summary": (8, "I"), "signature": (8, "B")}.get(block.style, (8, ""))
        pdf.set_font("Serif", style, size)
        indent = self.width * 0.45 if block.style == "summary" else 0.0
        first = 12.0 if block.style == "body" else 0.0
        lines = hyphenated_lines(block.text, lambda s: pdf.get_string_width(s),
                                 self.width - indent, first)
        for number, words in enumerate(lines):
            self._line(words, block.style, number == len(lines) - 1,
                       indent + (first if number == 0 else 0.0))
        if block.style == "banner":
            self.y += 2

    def output(self) -> bytes:
        return bytes(self.pdf.output())


_VOWELS = set("aeiouáéíóúâêôãõàäåöü")


def hyphenated_lines(text: str, measure: Callable[[str], float], width: float,
                     first_indent: float = 0.0) -> list[list[str]]:
    """Greedy lines of words no wider than ``width``; a word that does not fit is cut
    after a vowel followed by a consonant, with a hyphen, as the edition cuts them.

    >>> hyphenated_lines("a bb ccccccc", len, 7)
    [['a', 'bb'], ['ccccccc']]
    >>> hyphenated_lines("tributação", len, 6)
    [['tribu-'], ['tação']]
    >>> hyphenated_lines("reconhecimento", len, 8)
    [['reconhe-'], ['cimento']]
    """
    words = text.split()
    lines: list[list[str]] = []
    line: list[str] = []
    room = width - first_indent
    queue = list(reversed(words))
    while queue:
        word = queue.pop()
        candidate = " ".join([*line, word])
        if measure(candidate) <= room:
            line.append(word)
            continue
        cut = _hyphen_cut(word, line, measure, room)
        if cut:
            line.append(word[:cut] + "-")
            queue.append(word[cut:])
        elif not line:
            line.append(word)  # too long for any line: it overflows
            lines.append(line)
            line, room = [], width
            continue
        else:
            queue.append(word)
        lines.append(line)
        line, room = [], width
    if line:
        lines.append(line)
    return lines


def _hyphen_cut(word: str, line: list[str], measure: Callable[[str], float],
                room: float) -> int:
    """The last place ``word`` may be cut with its head fitting after ``line``, or 0: before
    a consonant (or ``ch``, ``lh``, ``nh``) followed by a vowel, three letters at least on
    each side (``tribu-tação``, ``re-conhecimento``)."""
    if len(word) < 7 or not word.isalpha():
        return 0
    lower = word.lower()
    for cut in range(len(word) - 3, 2, -1):
        consonant = lower[cut] not in _VOWELS and lower[cut] != "h"
        onset = lower[cut + 1] if lower[cut + 1] != "h" or lower[cut] not in "cln" else (
            lower[cut + 2] if cut + 2 < len(word) else "")
        if consonant and onset in _VOWELS and measure(
                " ".join([*line, word[:cut] + "-"])) <= room:
            return cut
    return 0


def dou_pages(acts: list[list[Block]], first_page: int) -> bytes:
    """The acts typeset one after another on pages of the edition, numbered from
    ``first_page + 1``."""
    edition = _Edition(first_page)
    for act in acts:
        for block in act:
            edition.block(block)
        edition.y += 4
    return edition.output()


# -- scans ----------------------------------------------------------------------------

def photocopy(page: Image.Image, rng: random.Random) -> Image.Image:
    """A page as a photocopy reads: gray paper darkening towards one side, gray ink,
    noise, a rotation under one degree, JPEG at quality 60."""
    ink = np.asarray(page.convert("L").filter(ImageFilter.GaussianBlur(0.7)),
                     dtype=np.float32) / 255
    paper = np.linspace(210, 242, page.width, dtype=np.float32)[None, :]
    if rng.random() < 0.5:
        paper = paper[:, ::-1]
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 7, ink.shape)
    aged = np.clip(paper * ink + 60 * (1 - ink) + noise, 0, 255).astype(np.uint8)
    turned = Image.fromarray(aged).rotate(rng.uniform(-0.8, 0.8),
                                          resample=Image.Resampling.BICUBIC, fillcolor=225)
    jpeg = io.BytesIO()
    turned.save(jpeg, "JPEG", quality=60)
    return Image.open(jpeg).convert("L")


def scanned(pdf: Path | bytes, out: Path | io.BytesIO, seed: int,
            numbers: Sequence[int] | None = None) -> None:
    """Every page of ``pdf`` (a file or its bytes; or the pages ``numbers``, from 1)
    rendered at 300 dpi as a photocopy, into an image-only PDF."""
    rng = random.Random(seed)
    document = pypdfium2.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    pages = [document[n - 1] for n in numbers] if numbers is not None else list(document)
    images = [photocopy(page.render(scale=300 / 72).to_pil(), rng) for page in pages]
    document.close()
    images[0].save(out, "PDF", save_all=True, append_images=images[1:], resolution=300,
                   creationDate=FIXED_DATE.timetuple(), modDate=FIXED_DATE.timetuple())


def english_scan(decision: Decision) -> bytes:
    """The English PDF (:func:`english_pdf`) printed and photocopied: an image-only PDF,
    as an Official Journal scanned by a library would come."""
    out = io.BytesIO()
    scanned(english_pdf(decision), out, seed=_journal_number(decision))
    return out.getvalue()


# -- inboxes --------------------------------------------------------------------------

FORMS = ("pdf", "lines", "wrapped", "html", "docx", "odt", "scan", "bulletin")


@dataclass
class Inbox:
    """What one inbox holds and what should come of it."""

    half: str
    #: ``text`` (the whole edition with its text layer) or ``scan``.
    edition: str
    form: str
    folder: Path
    #: The English document id → per language, the act's document id it pairs with.
    pairs: dict[str, dict[str, str]] = field(default_factory=dict)
    #: Document id → the decision it holds.
    decision_of: dict[str, str] = field(default_factory=dict)
    #: English documents that pair with nothing.
    unpaired: list[str] = field(default_factory=list)


Members = list[tuple[Decision, str]]


def _planted(members: Members) -> Iterator[tuple[Decision, str, int]]:
    """Each planted act: its decision, language and decree number."""
    number = 8301
    for dec, role in members:
        for language in ("pt", "sv"):
            if language in role.replace("-only", "").split("+"):
                yield dec, language, number
                number += 7


def build_edition(shared: Path, members: Members, out: Path, scan: bool) -> str:
    """The edition with the half's decrees planted (or its scan); returns the edition's
    file name."""
    acts = [decree(dec, language, number) for dec, language, number in _planted(members)]
    dou = pikepdf.open(shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf")
    blocks = [acts[i::len(INSERT_AFTER)] for i in range(len(INSERT_AFTER))]
    result = pikepdf.new()
    if scan:  # the masthead page, then the planted pages
        result.pages.append(dou.pages[0])
        for group in filter(None, blocks):
            _append(result, dou_pages(group, 1))
    else:
        previous = 0
        for after, group in zip(INSERT_AFTER, blocks, strict=True):
            result.pages.extend(dou.pages[previous:after])
            if group:  # fewer decrees than blocks: no blank page
                _append(result, dou_pages(group, after))
            previous = after
        result.pages.extend(dou.pages[previous:])
    name = f"dou-{'scan' if scan else 'text'}.pdf"
    if scan:
        plain = out / ".plain.pdf"
        result.save(plain, deterministic_id=True)
        scanned(plain, out / name, seed=len(members))
        plain.unlink()
    else:
        result.save(out / name, deterministic_id=True)
    return name


def _append(result: pikepdf.Pdf, pdf_bytes: bytes) -> None:
    planted = pikepdf.open(io.BytesIO(pdf_bytes))
    result.pages.extend(planted.pages)


def act_id(edition_file: str, number: int) -> str:
    """The document id a run gives the planted decree number ``number``."""
    return f"{Path(edition_file).stem}--decreto-{number}"


def build_inbox(shared: Path, members: Members, half: str, edition: str, form: str,
                folder: Path, edition_file: Path) -> Inbox:
    """An inbox in ``folder/raw``: the edition (a copy of ``edition_file``), the English
    texts of the half in ``form``, the NTREX distractors and the India PDFs."""
    raw = folder / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(edition_file, raw / edition_file.name)
    inbox = Inbox(half, edition, form, folder)
    planted: dict[str, dict[str, str]] = {}
    for dec, language, number in _planted(members):
        planted.setdefault(dec.name, {})[language] = act_id(edition_file.name, number)
        inbox.decision_of[act_id(edition_file.name, number)] = dec.name
    (raw / "en").mkdir(exist_ok=True)
    for dec, role in members:
        if role == "pt-only":
            continue
        doc = write_english(dec, form, raw / "en", shared).stem
        inbox.decision_of[doc] = dec.name
        if dec.name in planted:
            inbox.pairs[doc] = planted[dec.name]
        else:
            inbox.unpaired.append(doc)
    _distractors(shared, raw)
    india = shared / "corpora" / "india-pdfs"
    (raw / "india").mkdir(exist_ok=True)
    for name in ("1.02.2020.pdf", "010220_hi.pdf", "RTIOrder_hi.pdf"):
        shutil.copyfile(india / name, raw / "india" / name)
    inbox.pairs["1.02.2020"] = {"hi": "010220_hi"}
    inbox.unpaired += ["ntrex-news-1", "ntrex-news-2"]
    return inbox


#: The NTREX news documents put into every inbox as English texts nothing translates.
DISTRACTORS = 2


def _distractors(shared: Path, raw: Path) -> None:
    """The first :data:`DISTRACTORS` NTREX news documents in English (nothing in the
    inbox translates them)."""
    for number, document in enumerate(ntrex_documents(shared, "eng")[:DISTRACTORS], start=1):
        (raw / f"ntrex-news-{number}.txt").write_text("\n".join(document) + "\n",
                                                      encoding="utf-8")


def ntrex_documents(shared: Path, language: str) -> list[list[str]]:
    """The NTREX news documents in ``language`` (as its file names it: ``eng``,
    ``por-BR``, ``swe`` …), each its lines, in the corpus's order."""
    folder = shared / "corpora" / "ntrex-dev"
    ids = (folder / "ntrex-dev.doc_ids.txt").read_text(encoding="utf-8").splitlines()
    lines = (folder / f"ntrex-dev.{language}.txt").read_text(encoding="utf-8").splitlines()
    return [[line for _, line in group]
            for _, group in itertools.groupby(zip(ids, lines, strict=True),
                                              key=lambda row: row[0])]
