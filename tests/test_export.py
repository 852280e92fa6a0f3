"""Exports (TMX, XLIFF, TSV, JSONL) and the review page, on small hand-made units."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from html.parser import HTMLParser

import pytest
from exportcheck import check_xliff, read_tmx, read_xliff, validate_tmx
from hypothesis import given
from hypothesis import strategies as st

from pipeline.export import ExportUnit, Selection, Translation, corpus, read_units, render
from pipeline.project.store import write_atomic
from pipeline.review.page import Document, Row
from pipeline.review.page import render as render_review

CREATED = datetime(2026, 3, 2, tzinfo=UTC)
HOSTILE = ("a ]]> b < c & d > e \"quoted\" 'single'", "\u200fمرحبا\u200f RTL",
           "ctrl\x00\x01\x0b\x1f end", "lone \ud800 surrogate \udfff", "\ufffe\uffff nonchars",
           "<![CDATA[x]]>", "tab\tline\nbreak", "emoji 🧾 और हिन्दी")


def unit(doc: str, article: str, n: int, en: str, **others: str) -> ExportUnit:
    return ExportUnit(doc=doc, article=article, pivot_ids=(n,), pivot_language="en",
                      pivot_text=en, pivot_pages=(1,), decree="Decreto nº 12.863",
                      translations=tuple(Translation(lang, text, 0.9 - 0.1 * i, i > 0, (2,))
                                         for i, (lang, text) in enumerate(others.items())))


#: HOSTILE as XML 1.0 can carry it, written out by hand from the spec's Char production
#: (C0 controls but tab and newline, lone surrogates, U+FFFE and U+FFFF removed).
CARRIED = ("a ]]> b < c & d > e \"quoted\" 'single'", "\u200fمرحبا\u200f RTL",
           "ctrl end", "lone  surrogate ", " nonchars", "<![CDATA[x]]>", "tab\tline\nbreak",
           "emoji 🧾 और हिन्दी")
#: The (English, Portuguese) texts the pair files must hold, unit for unit.
EXPECTED_PT = [("Scope.", "Âmbito."), ("Taxes covered.", "Impostos visados."),
               *((f"English {i}: {text}", f"Português {i}: {text}")
                 for i, text in enumerate(CARRIED))]

UNITS = [unit("d1", "1", 0, "Scope.", pt="Âmbito.", sv="Tillämpningsområde."),
         unit("d1", "1", 1, "Taxes covered.", pt="Impostos visados."),
         *(unit("d1", "2", i, f"English {i}: {text}", pt=f"Português {i}: {text}")
           for i, text in enumerate(HOSTILE))]


def test_render_writes_every_format_with_pair_files_for_present_languages():
    rendered = render(UNITS, "d1", created=CREATED)
    assert sorted(rendered.files) == sorted([
        "d1.jsonl", "d1.tmx", "d1.en-pt.tmx", "d1.en-pt.xlf", "d1.en-pt.tsv",
        "d1.en-sv.tmx", "d1.en-sv.xlf", "d1.en-sv.tsv"])
    assert rendered.removed_characters > 0  # the control characters and surrogates
    only = render(UNITS, "d1", formats=["tsv"], regional=False)
    assert sorted(only.files) == ["d1.en-pt.tsv", "d1.en-sv.tsv"]
    with pytest.raises(ValueError, match="unknown export format"):
        render(UNITS, "d1", formats=["docx"])


def test_tmx_is_valid_tmx_14b_and_read_back_unit_for_unit():
    rendered = render(UNITS, "d1", created=CREATED)
    multi = validate_tmx(rendered.files["d1.tmx"])
    header = multi.find("header")
    assert header.get("srclang") == "en" and header.get("segtype") == "sentence"
    assert header.get("creationdate") == "20260302T000000Z"
    first = multi.find("body/tu")
    assert [t.get("{http://www.w3.org/XML/1998/namespace}lang") for t in first.findall("tuv")
            ] == ["en", "pt-BR", "sv-SE"]
    props = {p.get("type"): p.text for p in first.findall("prop")}
    assert props == {"x-document": "d1", "x-decree": "Decreto nº 12.863", "x-article": "1",
                     "x-confidence": "0.80", "x-flagged": "yes"}

    pair = rendered.files["d1.en-pt.tmx"]
    validate_tmx(pair)
    assert read_tmx(pair, "pt-BR") == EXPECTED_PT
    sv = validate_tmx(rendered.files["d1.en-sv.tmx"])
    assert len(sv.findall("body/tu")) == 1 and len(sv.findall("body/tu/tuv")) == 2


def test_xliff_follows_the_core_rules_and_is_read_back():
    rendered = render(UNITS, "d1", created=CREATED)
    root = check_xliff(rendered.files["d1.en-sv.xlf"])
    assert (root.get("srcLang"), root.get("trgLang")) == ("en", "sv-SE")
    segment = root.find(".//{urn:oasis:names:tc:xliff:document:2.0}segment")
    assert (segment.get("state"), segment.get("subState")) == ("initial", "gazette:flagged")
    pt = rendered.files["d1.en-pt.xlf"]
    check_xliff(pt)
    assert read_xliff(pt) == EXPECTED_PT


def test_hostile_strings_are_escaped_not_lost():
    text = render(UNITS, "d1", created=CREATED).files["d1.en-pt.tmx"]
    assert "]]&gt;" in text and "&lt; c &amp; d" in text and "\u200f" in text
    assert "\x00" not in text and "\ud800" not in text and "\ufffe" not in text
    tsv = render(UNITS, "d1", formats=["tsv"]).files["d1.en-pt.tsv"].splitlines()
    assert all(line.count("\t") == 5 for line in tsv)  # tabs and newlines never split a row


def test_jsonl_round_trips(tmp_path):
    path = tmp_path / "d1.jsonl"
    write_atomic(path, render(UNITS, "d1").files["d1.jsonl"])
    assert read_units(path) == UNITS


def test_corpus_filters_deduplicates_and_counts_what_it_dropped():
    other = [unit("d2", "9", 0, "Scope.", pt="Âmbito.", sv="Tillämpningsområde."),
             unit("d2", "9", 1, "New.", sv="Ny.")]
    selection = Selection(languages=("pt", "sv"), min_confidence=0.5, include_flagged=False)
    merged = corpus([UNITS, other], selection)
    assert [u.doc for u in merged] == ["d1"] * len(UNITS) + ["d2"]
    assert all(t.language == "pt" for u in merged[:-1] for t in u.translations)
    assert dict(selection.dropped) == {"flagged": 2, "duplicate": 1}
    assert corpus([UNITS, other], Selection(documents=("d2",))) == other


def _text_of_html(html: str) -> str:
    class Collect(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.parts: list[str] = []
            self.where: list[str] = []

        def handle_starttag(self, tag, attrs):
            self.where.append(tag)

        def handle_endtag(self, tag):
            self.where.pop()

        def handle_data(self, data):
            if self.where and self.where[-1] == "td":
                self.parts.append(data)

    parser = Collect()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def is_xml_char(character: str) -> bool:
    """XML 1.0's ``Char`` production (the characters an XML document may hold)."""
    code = ord(character)
    return character in "\t\n\r" or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD \
        or 0x10000 <= code <= 0x10FFFF


@given(st.text(alphabet=st.characters(codec=None), max_size=40))
def test_any_text_gives_well_formed_xml_and_html(text):
    """Any string, markup and control characters included, comes back out as it went in
    (less what XML 1.0 cannot carry) from TMX, XLIFF and the review page."""
    expected = "".join(filter(is_xml_char, text.replace("\r\n", "\n").replace("\r", "\n")))
    units = [unit("d", "1", 0, text, pt=text)]
    rendered = render(units, "d", formats=["tmx", "xliff"], created=CREATED)
    assert read_tmx(rendered.files["d.en-pt.tmx"], "pt-BR") == [(expected, expected)]
    assert read_xliff(rendered.files["d.en-pt.xlf"]) == [(expected, expected)]
    document = Document(doc_id=text, source=text, text=text, pivot="en", languages=("en",),
                        headings={}, sentences={("en", "1"): [(0, len(text))]},
                        rows=[Row("1", {"en": (0,)}, {}, False)], marks=[], problems=[])
    assert _text_of_html(render_review(document)) == expected


def test_units_file_is_one_json_object_per_line():
    lines = render(UNITS, "d1").files["d1.jsonl"].splitlines()
    assert len(lines) == len(UNITS) and json.loads(lines[0])["translations"][0]["language"] == "pt"


def test_reviewed_pairs_are_marked_in_every_format_and_can_be_exported_alone():
    reviewed = replace(UNITS[1], translations=tuple(
        replace(t, reviewed=True) for t in UNITS[1].translations))
    files = render([UNITS[0], reviewed], "d1", created=CREATED).files
    assert [(u.pivot_text, [t.reviewed for t in u.translations])
            for u in read_units_text(files["d1.jsonl"])] == [
        ("Scope.", [False, False]), ("Taxes covered.", [True])]
    assert [row.split("\t")[5] for row in files["d1.en-pt.tsv"].splitlines()] == [
        "reviewed", "", "yes"]
    assert 'state="reviewed"' in files["d1.en-pt.xlf"] and files["d1.en-pt.xlf"].count(
        'state="reviewed"') == 1
    assert files["d1.en-pt.tmx"].count('<prop type="x-reviewed">yes</prop>') == 2  # tu, tuv
    selection = Selection.of(reviewed_only=True)
    kept = corpus([[UNITS[0], reviewed]], selection)
    assert [u.pivot_text for u in kept] == ["Taxes covered."]
    assert dict(selection.dropped) == {"not reviewed": 2, "no translation left": 1}


def test_an_export_since_an_earlier_one_holds_only_new_or_changed_units(tmp_path):
    from pipeline.config import Settings
    from pipeline.errors import InputError
    from pipeline.export.corpus import export_corpus

    settings = Settings.for_root(tmp_path)

    def publish(doc: str, units: list[ExportUnit]) -> None:
        write_atomic(settings.aligned / doc / f"{doc}.jsonl",
                     render(units, doc, ("jsonl",)).files[f"{doc}.jsonl"])

    def export(**options: str) -> list[str]:
        done = export_corpus(settings, Selection(), ("jsonl",), True, **options)
        return [u.pivot_text for u in read_units(done.folder / "corpus.jsonl")]

    publish("d1", UNITS[:2])
    assert export(name="first") == ["Scope.", "Taxes covered."]
    publish("d2", [unit("d2", "1", 0, "New decree.", pt="Novo decreto.")])
    publish("d1", [UNITS[0], replace(UNITS[1], pivot_text="Taxes covered, amended.")])
    assert export(since="first", name="second") == ["Taxes covered, amended.", "New decree."]
    assert export(since="last") == []  # nothing new since the second
    assert export(since="first") == ["Taxes covered, amended.", "New decree."]
    with pytest.raises(InputError, match="no recorded export 'third'"):
        export(since="third")
    with pytest.raises(InputError, match="not usable"):
        export(name="last")


def read_units_text(text: str) -> list[ExportUnit]:
    return [ExportUnit.from_json(json.loads(line)) for line in text.splitlines()]


def test_the_review_page_lists_decisions_that_no_longer_apply():
    text = "Scope."
    document = Document(doc_id="d", source="d.txt", text=text, pivot="en", languages=("en",),
                        headings={}, sentences={("en", "1"): [(0, len(text))]},
                        rows=[Row("1", {"en": (0,)}, {}, False)], marks=[], problems=[],
                        stale=["pt article 3: a fixed pair whose sentences are no longer in "
                               "the text"])
    page = render_review(document)
    assert "Review decisions that no longer apply" in page
    assert "pt article 3: a fixed pair whose sentences are no longer in the text" in page
    assert "no longer apply" not in render_review(replace(document, stale=[]))
