"""``gazette review DOC``: one self-contained HTML page to check a document's alignment.

Articles are row groups, languages are columns, and each row is one aligned unit
(English sentences and their counterparts, each numbered within its article as the
similarity maps number them) with the aligner's confidence. Rows the aligner flagged,
and sentences left without a counterpart, are highlighted; two filters (flagged only,
confidence below a threshold) narrow the table. Words the repair stage changed are
marked and show the original OCR on hover. Unreadable regions and pages with warnings
or failures are listed with their reasons. The page counts pairs as the run does, and
says how the table's rows differ from them.

A pair across documents (``<english>+<other>``: an English text and its translation
printed in another document) is a document for review too: its page shows the English
document's text beside the other's, with the pair's beads.

The page is made from a published document's files (``cleaned/<doc>/`` and
``aligned/<doc>/``; a pair's from its two documents' too), needs no network and works
opened from disk. Its markup is the Jinja2 template ``templates/review.html``; its
styles and scripts are ``static/``, written into the page.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

import numpy as np
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from pipeline.config import Settings
from pipeline.embedding.encoder import encoder_for
from pipeline.errors import InputError
from pipeline.export.xmltext import XmlText
from pipeline.project.decisions import in_effect, sentence_key
from pipeline.project.store import read_manifest, write_atomic
from pipeline.records import Article, Block, Page, RepairStep, SentencePair
from pipeline.repair import final_spans
from pipeline.run.crossdoc import Pairing, published_articles
from pipeline.run.plan import PAIRING

__all__ = ["Document", "Mark", "Part", "Row", "describe", "load", "render", "render_index",
           "row_decisions", "rows_of", "write_review"]

_HERE = Path(__file__).parent


@dataclass(frozen=True)
class Mark:
    """A repaired stretch of ``text.txt``: [start, end) and what the OCR had there."""

    start: int
    end: int
    before: str
    rule: str


@dataclass(frozen=True)
class Part:
    """One document's stretch [start, end) of a review page's text (a pair across
    documents has two)."""

    doc_id: str
    start: int
    end: int


@dataclass(frozen=True)
class Row:
    """One line of the review table: per language, the sentence ids it shows."""

    article: str
    ids: dict[str, tuple[int, ...]]
    #: Per language other than English, the aligner's confidence.
    confidences: dict[str, float]
    flagged: bool
    note: str = ""
    #: Per language, whether a reviewer's decision made the row's pair (at the last run).
    reviewed: frozenset[str] = frozenset()

    @property
    def confidence(self) -> float:
        """The row's lowest confidence (0 for a sentence without counterpart)."""
        return min(self.confidences.values(), default=0.0)


@dataclass(frozen=True)
class Document:
    """What the review page shows of one published document (or pair across documents)."""

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
    #: The review decisions in effect (``reviews/<doc>.jsonl``), in the order made; for a
    #: pair, its documents' word corrections too (each line names its ``file``).
    decisions: list[dict[str, Any]] = field(default_factory=list)
    #: For a pair across documents, its two documents' stretches of ``text``.
    parts: tuple[Part, ...] = ()

    def part_at(self, offset: int) -> Part:
        """The document whose text holds character ``offset``."""
        for part in self.parts:
            if part.start <= offset < part.end:
                return part
        return Part(self.doc_id, 0, len(self.text))

    def sentence(self, language: str, article: str, i: int) -> str:
        """Sentence ``i`` (0-based) of an article in ``language``."""
        start, end = self.sentences[(language, article)][i]
        return self.text[start:end]

    def counts(self) -> dict[str, tuple[int, int]]:
        """Per language, the pairs and the flagged pairs, as the run's summary counts
        them (sentences without counterpart are no pairs)."""
        found: dict[str, tuple[int, int]] = {}
        for bead in self.beads:
            pairs, flagged = found.get(bead.language, (0, 0))
            if bead.matched:
                found[bead.language] = (pairs + 1, flagged + bead.flagged)
        return found


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@dataclass
class _Read:
    """One published document's files, its offsets moved by ``offset`` (its place in a
    review page's text)."""

    text: str
    articles: list[Article]
    marks: list[Mark]
    problems: list[tuple[int, str]]


def _read(settings: Settings, doc_id: str, offset: int, label: str) -> _Read:
    """A processed document's text, top-level articles, repaired words and problems
    (each reason led by ``label``), its offsets moved by ``offset``."""
    cleaned = settings.cleaned / doc_id
    if not (cleaned / "text.txt").is_file():
        raise InputError(f"no processed document {doc_id!r} in {settings.cleaned}",
                         "give a document id as `gazette run` printed it")
    text = (cleaned / "text.txt").read_text(encoding="utf-8")
    structure = json.loads((cleaned / "structure.json").read_text(encoding="utf-8"))
    articles = [_moved(a, offset) for a in (Article.from_json(data, text)
                                            for data in structure["articles"]) if a.level == 1]
    blocks = [Block.from_json(data, text) for data in _lines(cleaned / "blocks.jsonl")]
    pages = [Page.from_json(data) for data in _lines(cleaned / "pages.jsonl")]
    steps = [RepairStep.from_json(data) for data in _lines(cleaned / "repairs.jsonl")]
    problems = [(page, f"{label}unreadable region ({evidence}), characters {start}–{end}, "
                       f"kept out of alignment: “{_sample(text[start:end])}”")
                for page, start, end, evidence in _unreadable(blocks)]
    problems += [(page.number, label + "; ".join([page.reason] * (page.method == "failed")
                                                 + list(page.warnings)))
                 for page in pages if page.method == "failed" or page.warnings]
    marks = [Mark(m.start + offset, m.end + offset, m.before, m.rule)
             for m in _marks(pages, steps)]
    return _Read(text, articles, marks, problems)


def _moved(article: Article, offset: int) -> Article:
    """``article`` with its offsets moved by ``offset``."""
    return replace(article, start=article.start + offset, end=article.end + offset,
                   units=tuple(replace(u, start=u.start + offset) for u in article.units),
                   sentences=tuple((a + offset, b + offset) for a, b in article.sentences))


def load(settings: Settings, doc_id: str,
         embed: Callable[[list[str]], np.ndarray] | None = None) -> Document:
    """Read a published document or pair across documents; :class:`InputError` if it
    was never processed. With ``embed`` (the run's encoder: its cache holds the
    sentences already), each article pair's similarity map is computed too."""
    aligned = settings.aligned / doc_id
    manifest = read_manifest(settings, doc_id)
    if manifest is None or not aligned.is_dir():
        raise InputError(f"no processed document {doc_id!r} in {settings.cleaned}",
                         "give a document id as `gazette run` printed it")
    if not (aligned / "sentences.jsonl").is_file():
        raise InputError(f"{doc_id!r} was aligned before pairs across documents could be "
                         "reviewed", f"run `gazette rerun {doc_id}` first")
    pivot = settings.pivot_language
    pairing = aligned / PAIRING
    parts: tuple[Part, ...] = ()
    if pairing.is_file():  # the English document's English beside the other's translation
        pair = json.loads(pairing.read_text(encoding="utf-8"))
        english = _read(settings, pair["english"], 0, f"{pair['english']}: ")
        other = _read(settings, pair["other"], len(english.text) + 2, f"{pair['other']}: ")
        text = english.text + "\n\n" + other.text
        parts = (Part(pair["english"], 0, len(english.text)),
                 Part(pair["other"], len(english.text) + 2, len(text)))
        english_articles = [a for a in english.articles if a.language == pivot]
        part = Pairing.from_json(pair).part
        if part is not None:  # an English text paired as a part of its file
            english_articles = [a for a in published_articles(settings, pair["english"], part)
                                .get(pivot, []) if a.level == 1]
        articles = english_articles + [a for a in other.articles if a.language != pivot]
        read = _Read(text, articles, english.marks + other.marks,
                     english.problems + other.problems)
        source = " + ".join(str((read_manifest(settings, doc) or {}).get("source", doc))
                            for doc in (pair["english"], pair["other"]))
    else:
        read, source = _read(settings, doc_id, 0, ""), str(manifest.get("source", doc_id))
    beads = [SentencePair.from_json(data) for data in _lines(aligned / "sentences.jsonl")]
    return Document(
        doc_id=doc_id, source=source, text=read.text, pivot=pivot,
        languages=tuple(dict.fromkeys([pivot, *(b.language for b in beads)])),
        headings={(a.language, a.key): a.heading for a in read.articles},
        sentences={(a.language, a.key): list(a.sentences) for a in read.articles},
        rows=rows_of(beads, [a.key for a in read.articles if a.language == pivot], pivot),
        marks=sorted(read.marks, key=lambda m: m.start), problems=sorted(read.problems),
        beads=beads, stale=_stale(aligned / "review.json"), parts=parts,
        decisions=_decisions(settings, doc_id, parts),
        maps={} if embed is None else _maps(read.articles, beads, read.text, pivot, embed))


def _decisions(settings: Settings, doc_id: str, parts: tuple[Part, ...]
               ) -> list[dict[str, Any]]:
    """The decisions in effect that the page shows: its own file's, and for a pair its
    documents' word corrections; each with the ``file`` (document id) it is in."""
    found = [{**line, "file": doc_id} for line in in_effect(settings, doc_id)]
    for part in parts:
        found += [{**line, "file": part.doc_id} for line in in_effect(settings, part.doc_id)
                  if line.get("action") == "edit"]
    return found


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
                b.language for b in group if not b.ids),
            reviewed=frozenset(b.language for b in group if b.reviewed)))
    position = {key: places.get(key, key[1][0]) for key in grouped}
    keys = sorted(grouped, key=lambda k: (order.get(k[0], len(order)), position[k]))
    by_key = dict(zip(grouped, rows, strict=True))
    return [by_key[key] for key in keys]


def row_decisions(document: Document) -> dict[int, list[str]]:
    """The rows each decision in effect is about (its id → row numbers): a decision on
    sentences, the rows showing any of them in its language; a word correction, the
    rows whose text holds the word with the text around it."""
    if not document.decisions:
        return {}
    keys = [{(language, sentence_key(document.sentence(language, row.article, i)))
             for language, ids in row.ids.items() for i in ids
             if i < len(document.sentences.get((language, row.article), []))}
            for row in document.rows]
    found: dict[int, list[str]] = {}
    for decision in document.decisions:
        if decision.get("action") == "edit":
            edit = decision["edit"]
            needle = edit["left"][-8:] + edit["before"] + edit["right"][:8]
            rows = [n for n, row in enumerate(document.rows)
                    if any(needle in document.sentence(language, row.article, i)
                           for language, ids in row.ids.items() for i in ids)]
        else:
            said = {(side_language, key) for bead in decision.get("beads", ())
                    for side, side_language in (("pivot", document.pivot),
                                                ("other", decision.get("language")))
                    for key in bead[side]}
            rows = [n for n, row_keys in enumerate(keys)
                    if row_keys & said and decision.get("language") in document.rows[n].ids]
        for n in rows:
            found.setdefault(n, []).append(decision["id"])
    return found


@cache
def _templates() -> Environment:
    return Environment(loader=FileSystemLoader(_HERE / "templates"),
                       autoescape=select_autoescape(["html"]), trim_blocks=True,
                       lstrip_blocks=True, keep_trailing_newline=True)


def _static(name: str) -> Markup:
    """A static file's text, to be written into the page as it is."""
    return Markup((_HERE / "static" / name).read_text(encoding="utf-8"))


def render(document: Document, serve: str | None = None) -> str:
    """The review page as HTML text (styles and script inline); with ``serve`` (the URL
    decisions are posted to, see :mod:`pipeline.review.app`), with the reviewer's
    actions: buttons, keys and the list of decisions in effect, each with its undo."""
    clean = XmlText()
    on_rows = row_decisions(document)
    return _templates().get_template("review.html").render(
        doc=document, clean=clean, serve=serve, style=_static("review.css"),
        script=_static("review.js"), counts=document.counts(),
        flagged=sum(row.flagged for row in document.rows),
        orphans=sum(bool(row.note) for row in document.rows),
        groups=_groups(document, clean, on_rows),
        decisions=[_decision_view(document, d, on_rows) for d in document.decisions],
        others=[language for language in document.languages if language != document.pivot])


def render_index(documents: list[str], pairs: list[tuple[str, str]], token: str) -> str:
    """The served list of documents to review, and of pairs across documents (each
    with its translation's language); links carry the session's ``token``."""
    return _templates().get_template("index.html").render(
        documents=documents, pairs=pairs, token=token, style=_static("review.css"))


def describe(decision: dict[str, Any]) -> str:
    """What a decision says, for the list of decisions: ``reject, article 3, pt``.

    >>> describe({"action": "edit", "edit": {"before": "fiscai", "after": "fiscal"}})
    'correct “fiscai” to “fiscal”'
    """
    if decision.get("action") == "edit":
        edit = decision["edit"]
        return f"correct “{edit['before']}” to “{edit['after']}”"
    return f"{decision['action']}, article {decision.get('article')}, {decision.get('language')}"


def _groups(document: Document, clean: XmlText, on_rows: dict[int, list[str]]
            ) -> list[dict[str, Any]]:
    """The table's row groups: per article its heading, its units' rows and its maps."""
    groups: list[dict[str, Any]] = []
    for number, row in enumerate(document.rows):
        if not groups or groups[-1]["article"] != row.article:
            groups.append({"article": row.article, "rows": [], "maps": [
                _map_view(document, row.article, language) for language in document.languages
                if (row.article, language) in document.maps],
                "headings": [clean(h) for h in (document.headings.get((language, row.article))
                                                for language in document.languages) if h]})
        groups[-1]["rows"].append(_row_view(document, number, row, clean,
                                            on_rows.get(number, [])))
    return groups


def _row_view(document: Document, number: int, row: Row, clean: XmlText,
              decided: list[str]) -> dict[str, Any]:
    """One unit's row: per language its numbered sentences (repaired words marked)
    and the aligner's confidence; the row's note and the decisions about it."""
    cells = []
    for language in document.languages:
        spans = document.sentences.get((language, row.article), [])
        sentences = [(i + 1, _marked(document, *spans[i], clean))
                     for i in row.ids.get(language, ()) if i < len(spans)]
        cells.append({"language": language, "sentences": sentences,
                      "confidence": row.confidences.get(language),
                      "reviewed": language in row.reviewed})
    return {"number": number, "row": row, "cells": cells, "decided": decided}


def _decision_view(document: Document, decision: dict[str, Any],
                   on_rows: dict[int, list[str]]) -> dict[str, Any]:
    """A decision in effect as the list shows it: what, where, who and when."""
    rows = [n for n, ids in on_rows.items() if decision["id"] in ids]
    return {"id": decision["id"], "file": decision["file"], "what": describe(decision),
            "who": decision.get("who", ""), "at": decision.get("at", ""),
            "rows": " ".join(map(str, rows)),
            "elsewhere": decision["file"] != document.doc_id}


#: The similarity shown white (and below) and black (and above) in the maps.
MAP_WHITE, MAP_BLACK = 0.7, 0.95


def _map_view(document: Document, article: str, language: str) -> dict[str, Any]:
    """One article pair's similarity map as the template draws it: a cell per sentence
    pair, darker for more similar (English down, the translation across, numbered as
    the table numbers them), the aligner's beads outlined (red: flagged, green: made by
    a review)."""
    similarity = document.maps[article, language]
    n, m = similarity.shape
    cell = max(3, min(16, 320 // max(n, m)))
    shades = 255 - 255 * np.clip((similarity - MAP_WHITE) / (MAP_BLACK - MAP_WHITE), 0, 1)
    beads = [{"x": bead.ids[0] * cell, "y": bead.pivot_ids[0] * cell,
              "width": len(bead.ids) * cell, "height": len(bead.pivot_ids) * cell,
              "colour": "#070" if bead.reviewed else "#c00" if bead.flagged else "#06c",
              "title": f"{document.pivot} {_numbers(bead.pivot_ids)} ↔ {language} "
                       f"{_numbers(bead.ids)}: {bead.confidence:.2f}"}
             for bead in document.beads
             if bead.article == article and bead.language == language and bead.matched]
    step = 1 if max(n, m) <= 20 else 5
    return {"language": language, "article": article, "rows": n, "columns": m, "cell": cell,
            "cells": [(j * cell, i * cell, int(shades[i, j])) for i in range(n)
                      for j in range(m)],
            "beads": beads, "row_ticks": [(i * cell, i + 1) for i in range(0, n, step)],
            "column_ticks": [(j * cell, j + 1) for j in range(0, m, step)],
            "white": MAP_WHITE, "black": MAP_BLACK}


def _numbers(ids: tuple[int, ...]) -> str:
    """Sentence numbers as the table shows them (from 1): ``3`` or ``3–4``."""
    return str(ids[0] + 1) if len(ids) == 1 else f"{ids[0] + 1}–{ids[-1] + 1}"


def _marked(document: Document, start: int, end: int, clean: XmlText) -> Markup:
    """``text[start:end]`` as HTML with repaired stretches marked (original on hover)."""
    out, at = [], start
    for mark in document.marks:
        if mark.start < at or mark.end > end:
            continue
        out.append(escape(clean(document.text[at:mark.start])))
        out.append(f"<mark class=\"fix\" title=\"{escape(_origin(mark, clean))}\">"
                   f"{escape(clean(document.text[mark.start:mark.end]))}</mark>")
        at = mark.end
    out.append(escape(clean(document.text[at:end])))
    return Markup("".join(out))


def _origin(mark: Mark, clean: XmlText) -> str:
    """The hover text of a repaired stretch: what the OCR had, and the rule."""
    if mark.before.strip():
        return f"OCR: {clean(mark.before)} ({mark.rule})"
    return f"inserted by {mark.rule}"


def write_review(settings: Settings, doc_id: str, path: Path | None = None) -> Path:
    """Write the review page (default ``aligned/<doc>/review.html``) and return its path."""
    path = path or settings.aligned / doc_id / "review.html"
    write_atomic(path, render(load(settings, doc_id, encoder_for(settings).encode)))
    return path
