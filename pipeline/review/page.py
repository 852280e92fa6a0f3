"""``gazette review DOC``: one self-contained HTML page to check a document's alignment.

Articles are row groups, languages are columns, and each row is one aligned unit
(English sentences and their counterparts) with the aligner's confidence. Rows the
aligner flagged, and sentences left without a counterpart, are highlighted; two
filters (flagged only, confidence below a threshold) narrow the table. Words the
repair stage changed are marked and show the original OCR on hover. Unreadable
regions and pages with warnings or failures are listed with their reasons.

The page is made from a published document's files (``cleaned/<doc>/`` and
``aligned/<doc>/``), needs no network and works opened from disk.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.config import Settings
from pipeline.embedding.encoder import encoder_for
from pipeline.errors import InputError
from pipeline.export.xmltext import XmlText
from pipeline.project.store import read_manifest, write_atomic
from pipeline.records import Article, Block, Page, RepairStep, SentencePair
from pipeline.repair import final_spans

__all__ = ["Document", "Mark", "Row", "load", "render", "rows_of", "write_review"]


@dataclass(frozen=True)
class Mark:
    """A repaired stretch of ``text.txt``: [start, end) and what the OCR had there."""

    start: int
    end: int
    before: str
    rule: str


@dataclass(frozen=True)
class Row:
    """One line of the review table: per language, the sentence ids it shows."""

    article: str
    ids: dict[str, tuple[int, ...]]
    #: Per language other than English, the aligner's confidence.
    confidences: dict[str, float]
    flagged: bool
    note: str = ""

    @property
    def confidence(self) -> float:
        """The row's lowest confidence (0 for a sentence without counterpart)."""
        return min(self.confidences.values(), default=0.0)


@dataclass(frozen=True)
class Document:
    """What the review page shows of one published document."""

    doc_id: str
    source: str
    text: str
    pivot: str
    languages: tuple[str, ...]
    #: (language, article key) → heading and sentence spans in ``text``.
    headings: dict[tuple[str, str], str]
    sentences: dict[tuple[str, str], list[tuple[int, int]]]
    rows: list[Row]
    marks: list[Mark]
    #: (page, reason) of unreadable regions and of pages with warnings or failures.
    problems: list[tuple[int, str]]
    #: The aligner's beads, as in ``sentences.jsonl``.
    beads: list[SentencePair] = field(default_factory=list)
    #: (article, language) → cosine similarity of each English sentence (rows) with
    #: each sentence of the language (columns); empty unless loaded with ``embed``.
    maps: dict[tuple[str, str], np.ndarray] = field(default_factory=dict)
    #: Review decisions the last run could not apply, with why (``review.json``).
    stale: list[str] = field(default_factory=list)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def load(settings: Settings, doc_id: str,
         embed: Callable[[list[str]], np.ndarray] | None = None) -> Document:
    """Read a published document; :class:`InputError` if it was never processed. With
    ``embed`` (the run's encoder: its cache holds the sentences already), each article
    pair's similarity map is computed too."""
    cleaned, aligned = settings.cleaned / doc_id, settings.aligned / doc_id
    if not (cleaned / "manifest.json").is_file() or not aligned.is_dir():
        raise InputError(f"no processed document {doc_id!r} in {settings.cleaned}",
                         "give a document id as `gazette run` printed it")
    if not (cleaned / "text.txt").is_file():  # a pair across documents holds no text
        raise InputError(f"{doc_id!r} pairs two documents: the review covers one document "
                         "at a time",
                         f"open its exports in {aligned} (the XLIFF in a CAT tool), or "
                         "review each of its documents")
    manifest = read_manifest(settings, doc_id) or {}
    text = (cleaned / "text.txt").read_text(encoding="utf-8")
    structure = json.loads((cleaned / "structure.json").read_text(encoding="utf-8"))
    articles = [a for a in (Article.from_json(data, text) for data in structure["articles"])
                if a.level == 1]
    beads = [SentencePair.from_json(data) for data in _lines(aligned / "sentences.jsonl")]
    blocks = [Block.from_json(data, text) for data in _lines(cleaned / "blocks.jsonl")]
    pages = [Page.from_json(data) for data in _lines(cleaned / "pages.jsonl")]
    steps = [RepairStep.from_json(data) for data in _lines(cleaned / "repairs.jsonl")]
    pivot = settings.pivot_language
    languages = tuple(dict.fromkeys([pivot, *(b.language for b in beads)]))
    problems = [(page, f"unreadable region ({evidence}), characters {start}–{end}, kept out "
                       f"of alignment: “{_sample(text[start:end])}”")
                for page, start, end, evidence in _unreadable(blocks)]
    problems += [(page.number, "; ".join([page.reason] * (page.method == "failed")
                                         + list(page.warnings)))
                 for page in pages if page.method == "failed" or page.warnings]
    return Document(
        doc_id=doc_id, source=str(manifest.get("source", doc_id)), text=text, pivot=pivot,
        languages=languages,
        headings={(a.language, a.key): a.heading for a in articles},
        sentences={(a.language, a.key): list(a.sentences) for a in articles},
        rows=rows_of(beads, [a.key for a in articles if a.language == pivot], pivot),
        marks=_marks(pages, steps), problems=sorted(problems), beads=beads,
        stale=_stale(aligned / "review.json"),
        maps={} if embed is None else _maps(articles, beads, text, pivot, embed))


def _stale(path: Path) -> list[str]:
    """The review decisions a run could not apply, as its ``review.json`` says."""
    if not path.is_file():
        return []
    return [str(reason) for reason in json.loads(path.read_text(encoding="utf-8"))["stale"]]


#: Article pairs with more sentences than this on a side get no map (it would be
#: unreadable at the page's size).
MAP_MAX = 80


def _maps(articles: list[Article], beads: list[SentencePair], text: str, pivot: str,
          embed: Callable[[list[str]], np.ndarray]) -> dict[tuple[str, str], np.ndarray]:
    """The similarity map of every article pair the beads cover."""
    spans = {(a.language, a.key): a.sentences for a in articles}
    pairs = sorted({(b.article, b.language) for b in beads})
    maps = {}
    for article, language in pairs:
        src, tgt = spans.get((pivot, article), ()), spans.get((language, article), ())
        if not src or not tgt or max(len(src), len(tgt)) > MAP_MAX:
            continue
        vectors = embed([text[a:b] for a, b in (*src, *tgt)])
        maps[article, language] = vectors[:len(src)] @ vectors[len(src):].T
    return maps


def _unreadable(blocks: list[Block]) -> list[tuple[int, int, int, str]]:
    """Runs of consecutive unreadable blocks as (page, start, end, evidence)."""
    regions: list[tuple[int, int, int, str]] = []
    previous = None
    for block in blocks:
        if block.language == "unreadable":
            if previous is not None and previous.language == "unreadable":
                page, start, _, evidence = regions.pop()
                regions.append((page, start, block.end, evidence))
            else:
                regions.append((block.page, block.start, block.end, block.evidence))
        previous = block
    return regions


def _sample(text: str, length: int = 80) -> str:
    """The start of ``text`` on one line, cut at ``length`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= length else line[:length] + "…"


def _marks(pages: list[Page], steps: list[RepairStep]) -> list[Mark]:
    """The repairs that changed words, placed in ``text.txt`` (pages joined by a blank line)."""
    marks, start = [], 0
    for page in pages:
        page_steps = [s for s in steps if s.page == page.number]
        length = len(page.text) + sum(len(s.after) - len(s.before) for s in page_steps)
        if not length:
            continue
        marks += [Mark(start + begin, start + end, step.before, step.rule)
                  for step, begin, end in final_spans(page_steps)
                  if step.after.strip() and end > begin]
        start += length + 2
    return sorted(marks, key=lambda m: m.start)


def rows_of(beads: list[SentencePair], pivot_keys: list[str], pivot: str = "en") -> list[Row]:
    """Table rows from the beads of ``sentences.jsonl``, in English article order.

    Beads of all languages covering the same English sentences share a row; a
    sentence without counterpart gets a row of its own, placed after the English
    sentence that precedes it.

    >>> beads = [SentencePair("1", "pt", (0,), (0,), "One.", "Um.", 0.9, False),
    ...          SentencePair("1", "pt", (), (1,), "", "Dois.", 0.0, True)]
    >>> [(r.ids, r.note) for r in rows_of(beads, ["1"])]
    [({'en': (0,), 'pt': (0,)}, ''), ({'pt': (1,)}, 'no English counterpart')]
    """
    order = {key: n for n, key in enumerate(pivot_keys)}
    grouped: dict[tuple[str, tuple[int, ...]], list[SentencePair]] = {}
    places: dict[tuple[str, tuple[int, ...]], float] = {}
    last_seen: dict[tuple[str, str], float] = {}
    for n, bead in enumerate(beads):
        where = (bead.article, bead.language)
        if bead.pivot_ids:
            key = (bead.article, bead.pivot_ids)
            last_seen[where] = bead.pivot_ids[-1]
        else:  # a sentence of the other language alone: a row of its own
            key = (bead.article, (-1 - n,))
            places[key] = last_seen.get(where, -1) + 0.5
        grouped.setdefault(key, []).append(bead)
    rows = []
    for (article, pivot_ids), group in grouped.items():
        matched = [b for b in group if b.ids]
        alone = pivot_ids[0] < 0
        ids = {} if alone else {pivot: pivot_ids}
        ids.update({b.language: b.ids for b in matched})
        rows.append(Row(
            article=article, ids=ids,
            confidences={b.language: b.confidence for b in matched if not alone},
            flagged=any(b.flagged for b in group) or not matched or alone,
            note="no English counterpart" if alone else
            "" if len(matched) == len(group) else "no counterpart in " + ", ".join(
                b.language for b in group if not b.ids)))
    position = {key: places.get(key, key[1][0]) for key in grouped}
    keys = sorted(grouped, key=lambda k: (order.get(k[0], len(order)), position[k]))
    by_key = dict(zip(grouped, rows, strict=True))
    return [by_key[key] for key in keys]


_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;width:100%;table-layout:fixed}
td,th{border:1px solid #ccc;padding:.35em .5em;vertical-align:top;text-align:left}
th.article{background:#eef;font-weight:600}
tr.flagged td{background:#fff3cd}
.conf{font-size:11px;color:#555;display:block}
tr.flagged .conf{color:#a00;font-weight:600}
mark.fix{background:#d6f5d6;border-bottom:1px dotted #070}
.note{font-style:italic;color:#a00}
.filters{margin:1em 0;padding:.5em;background:#f6f6f6}
.actions{position:sticky;top:0;background:#eef6ff;padding:.5em;margin:1em 0;z-index:1}
.keys{font-size:12px;color:#444}
tr.focus td{outline:2px solid #06c}
tr.decided td:first-child{border-left:4px solid #070}
"""

_ACTIONS_SCRIPT = """
var bar=document.getElementById('actions'), api=bar.dataset.api, pivot=bar.dataset.pivot;
var rows=Array.prototype.slice.call(document.querySelectorAll('tr.unit')), at=-1;
function language(){return document.getElementById('language').value;}
function focusRow(i){
  if(i<0||i>=rows.length){return;}
  if(at>=0){rows[at].classList.remove('focus');}
  at=i; rows[i].classList.add('focus'); rows[i].scrollIntoView({block:'center'});
}
function move(step,flaggedOnly){
  for(var i=at+step;i>=0&&i<rows.length;i+=step){
    if(!rows[i].hidden&&(!flaggedOnly||rows[i].classList.contains('flagged'))){
      focusRow(i);return;}
  }
}
function act(body){
  if(at<0){return;}
  var row=rows[at], status=document.getElementById('status');
  body.row=parseInt(row.dataset.row,10); body.language=body.language||language();
  fetch(api,{method:'POST',headers:{'Content-Type':'application/json'},
             body:JSON.stringify(body)})
  .then(function(r){return r.json().then(function(data){
    if(r.ok){row.classList.add('decided');row.dataset.decision=body.action;
             status.textContent='recorded: '+body.action+' (row '+body.row+')';}
    else{status.textContent='refused: '+data.error;}
    status.dataset.state=r.ok?'ok':'error';});});
}
var keys={c:{action:'confirm'},r:{action:'reject'},s:{action:'split'},
  a:{action:'join',side:'other',direction:'next'},
  A:{action:'join',side:'other',direction:'previous'},
  b:{action:'join',side:'pivot',direction:'next'},
  B:{action:'join',side:'pivot',direction:'previous'}};
document.addEventListener('keydown',function(e){
  if(e.target.tagName==='INPUT'||e.target.tagName==='SELECT'||e.ctrlKey||e.metaKey){return;}
  if(e.key==='j'){move(1,true);}
  else if(e.key==='k'){move(-1,true);}
  else if(e.key==='n'){move(1,false);}
  else if(e.key==='p'){move(-1,false);}
  else if(keys[e.key]){act(Object.assign({},keys[e.key]));}
  else if(e.key==='e'||e.key==='E'){
    var word=window.prompt('Word to correct');
    if(!word){return;}
    var correction=window.prompt('Correction of '+word,word);
    if(correction===null){return;}
    act({action:'edit',word:word,correction:correction,
         language:e.key==='E'?pivot:language()});
  } else {return;}
  e.preventDefault();
});
rows.forEach(function(row,i){row.addEventListener('click',function(){focusRow(i);});});
"""

_SCRIPT = """
function applyFilters(){
  var flaggedOnly=document.getElementById('flagged-only').checked;
  var below=parseFloat(document.getElementById('below').value);
  var shown=0;
  document.querySelectorAll('tr.unit').forEach(function(row){
    var c=parseFloat(row.dataset.confidence);
    var show=(!flaggedOnly||row.classList.contains('flagged'))&&(isNaN(below)||c<below);
    row.hidden=!show; if(show){shown++;}
  });
  document.getElementById('shown').textContent=shown;
}
document.getElementById('flagged-only').addEventListener('change',applyFilters);
document.getElementById('below').addEventListener('input',applyFilters);
applyFilters();
"""


def render(document: Document, serve: str | None = None) -> str:
    """The review page as HTML text (styles and script inline); with ``serve`` (the URL
    decisions are posted to, see :mod:`pipeline.review.app`), with the reviewer's
    actions and their keys."""
    clean = XmlText()

    def text(value: str) -> str:
        return escape(clean(value))

    head = "".join(f"<th>{text(language)}</th>" for language in document.languages)
    body = _table_rows(document, text)
    problems = "".join(f"<li>page {page}: {text(reason)}</li>"
                       for page, reason in document.problems) or "<li>none</li>"
    flagged = sum(row.flagged for row in document.rows)
    stale = ("<h2>Review decisions that no longer apply</h2><ul id=\"stale\">"
             + "".join(f"<li>{text(reason)}</li>" for reason in document.stale) + "</ul>"
             if document.stale else "")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Review: {text(document.doc_id)}</title><style>{_STYLE}</style></head>
<body>
<h1>Review: {text(document.doc_id)}</h1>
<p>Source <code>{text(document.source)}</code>; {len(document.rows)} units, {flagged} flagged;
{len(document.marks)} repaired words (hover to see the OCR text).</p>
<h2>Unreadable regions and page problems</h2><ul id="problems">{problems}</ul>
{stale}
<div class="filters"><label><input type="checkbox" id="flagged-only"> flagged only</label>
<label>confidence below <input type="number" id="below" min="0" max="1" step="0.05"
value="1.01"></label> <span id="shown"></span> units shown</div>
{_actions(document, serve, text) if serve else ""}
<table id="units"><thead><tr>{head}</tr></thead><tbody>
{chr(10).join(body)}
</tbody></table>
<script>{_SCRIPT}</script>
{f"<script>{_ACTIONS_SCRIPT}</script>" if serve else ""}
</body></html>
"""


def _table_rows(document: Document, text: Callable[[str], str]) -> list[str]:
    """The table's rows: a heading row for each article, a row for each unit, and after
    an article's units its similarity maps."""
    languages = document.languages
    body = []
    current = None
    for number, row in enumerate(document.rows):
        if row.article != current:
            current = row.article
            headings = " / ".join(text(heading) for heading in (
                document.headings.get((language, row.article), "") for language in languages)
                if heading)
            body.append(f'<tr class="article"><th class="article" colspan="{len(languages)}">'
                        f"{text(row.article)}{': ' * bool(headings)}{headings}</th></tr>")
        body.append(_unit_row(document, number, row, text))
        if number + 1 == len(document.rows) or document.rows[number + 1].article != current:
            body += [f'<tr class="map"><td colspan="{len(languages)}"><details><summary>'
                     f"similarity map {text(document.pivot)} × {text(language)}</summary>"
                     f"{_map_svg(document, row.article, language)}</details></td></tr>"
                     for language in languages if (row.article, language) in document.maps]
    return body


def _unit_row(document: Document, number: int, row: Row, text: Callable[[str], str]) -> str:
    """One unit's row: per language its sentences (repaired words marked) and the
    aligner's confidence, and the row's note."""
    contents = []
    for language in document.languages:
        spans = document.sentences.get((language, row.article), [])
        content = " ".join(_marked(document, *(spans[i] if i < len(spans) else (0, 0)), text)
                           for i in row.ids.get(language, ()))
        if language in row.confidences:
            content += f'<span class="conf">confidence {row.confidences[language]:.2f}</span>'
        contents.append(content)
    if row.note:
        contents[0] += f'<span class="note">{text(row.note)}</span>'
    cells = [f'<td lang="{text(language)}">{content}</td>'
             for language, content in zip(document.languages, contents, strict=True)]
    css = "unit flagged" if row.flagged else "unit"
    return (f'<tr class="{css}" data-row="{number}" '
            f'data-confidence="{row.confidence:.2f}">{"".join(cells)}</tr>')


def _map_svg(document: Document, article: str, language: str) -> str:
    """One article pair's similarity map as SVG: a cell per sentence pair, darker for
    more similar (English down, the translation across), the aligner's beads outlined
    (red: flagged, green: made by a review)."""
    similarity = document.maps[article, language]
    n, m = similarity.shape
    cell = max(3, min(10, 320 // max(n, m)))
    cells = []
    for i in range(n):
        for j in range(m):
            shade = int(255 - 255 * min(max((float(similarity[i, j]) - 0.7) / 0.25, 0), 1))
            cells.append(f'<rect x="{j * cell}" y="{i * cell}" width="{cell}" '
                         f'height="{cell}" fill="rgb({shade},{shade},{shade})"/>')
    for bead in document.beads:
        if bead.article != article or bead.language != language or not bead.matched:
            continue
        colour = "#070" if bead.reviewed else "#c00" if bead.flagged else "#06c"
        cells.append(
            f'<rect class="bead" x="{bead.ids[0] * cell}" y="{bead.pivot_ids[0] * cell}" '
            f'width="{len(bead.ids) * cell}" height="{len(bead.pivot_ids) * cell}" '
            f'fill="none" stroke="{colour}" stroke-width="1.5"><title>'
            f"{language} {list(bead.ids)} ↔ en {list(bead.pivot_ids)}: "
            f"{bead.confidence:.2f}</title></rect>")
    return (f'<svg class="map" width="{m * cell}" '
            f'height="{n * cell}" role="img" aria-label="similarity of the {n} English and '
            f'{m} {language} sentences of article {escape(article)}">{"".join(cells)}</svg>')


def _actions(document: Document, serve: str, text: Callable[[str], str]) -> str:
    """The reviewer's bar: the language acted on, the keys, where results are said."""
    options = "".join(f'<option value="{text(language)}">{text(language)}</option>'
                      for language in document.languages if language != document.pivot)
    return f"""<div class="actions" id="actions" data-api="{text(serve)}"
data-pivot="{text(document.pivot)}">
<label>translation <select id="language">{options}</select></label>
<span class="keys"><kbd>j</kbd>/<kbd>k</kbd> next/previous flagged unit, <kbd>n</kbd>/<kbd>p</kbd>
any unit; <kbd>c</kbd> confirm, <kbd>r</kbd> reject, <kbd>a</kbd>/<kbd>A</kbd> join the
translation's next/previous sentence, <kbd>b</kbd>/<kbd>B</kbd> join the English
next/previous sentence, <kbd>s</kbd> split, <kbd>e</kbd>/<kbd>E</kbd> correct a word of the
translation/English. Decisions apply at the next run of the document.</span>
<div id="status" role="status"></div></div>"""


def _marked(document: Document, start: int, end: int, text: Callable[[str], str]) -> str:
    """``text[start:end]`` as HTML with repaired stretches marked (original on hover)."""
    out, at = [], start
    for mark in document.marks:
        if mark.start < at or mark.end > end:
            continue
        out.append(text(document.text[at:mark.start]))
        out.append(f"<mark class=\"fix\" title=\"{_origin(mark, text)}\">"
                   f"{text(document.text[mark.start:mark.end])}</mark>")
        at = mark.end
    out.append(text(document.text[at:end]))
    return "".join(out)


def _origin(mark: Mark, text: Callable[[str], str]) -> str:
    """The hover text of a repaired stretch: what the OCR had, and the rule."""
    if mark.before.strip():
        return f"OCR: {text(mark.before)} ({mark.rule})"
    return f"inserted by {mark.rule}"


def write_review(settings: Settings, doc_id: str, path: Path | None = None) -> Path:
    """Write the review page (default ``aligned/<doc>/review.html``) and return its path."""
    path = path or settings.aligned / doc_id / "review.html"
    write_atomic(path, render(load(settings, doc_id, encoder_for(settings).encode)))
    return path
