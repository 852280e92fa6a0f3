"""Exports and the review page on a real run: `gazette run`, `gazette export`,
`gazette review`, read back by translate-toolkit, used by OmegaT, shown in Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from exportcheck import check_xliff, read_tmx, read_xliff, validate_tmx
from projects import SampleRun, chromium, gazette

DOC = "002_9382d4ae2bbb4b06"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory, sample_run: SampleRun) -> Path:
    """A copy of the processed sample project (seed 002 in pt, en, sv among others),
    which these tests export from and write review pages into."""
    return sample_run.copy(tmp_path_factory.mktemp("exports"))


def units_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def texts_of(unit: dict) -> tuple[str, ...]:
    """A unit's English and translated texts: what makes two units one in a corpus."""
    return (unit["pivot_text"],
            *sorted(f"{t['language']}\0{t['text']}" for t in unit["translations"]))


def test_run_writes_every_format(root: Path):
    aligned = root / "aligned" / DOC
    assert {p.name for p in aligned.iterdir()} >= {
        f"{DOC}.jsonl", f"{DOC}.tmx", f"{DOC}.en-pt.tmx", f"{DOC}.en-sv.tmx",
        f"{DOC}.en-pt.xlf", f"{DOC}.en-sv.xlf", f"{DOC}.en-pt.tsv", f"{DOC}.en-sv.tsv"}
    units = units_of(aligned / f"{DOC}.jsonl")
    tmx = validate_tmx((aligned / f"{DOC}.tmx").read_text(encoding="utf-8"))
    assert len(tmx.findall("body/tu")) == len(units)
    three = [tu for tu in tmx.findall("body/tu") if len(tu.findall("tuv")) == 3]
    assert len(three) > 50  # English with both Portuguese and Swedish
    assert {u["decree"] for u in units} == {"Decreto nº 13.006"}


def test_corpus_export_validates_and_reads_back_unit_for_unit(root: Path):
    result = gazette("export", cwd=root)
    assert result.returncode == 0, result.stdout + result.stderr
    corpus = root / "aligned" / "_corpus"
    units = units_of(corpus / "corpus.jsonl")
    assert f"{len(units)} unit(s) exported" in result.stdout
    for language, tag in (("pt", "pt-BR"), ("sv", "sv-SE")):
        pairs = [(u["pivot_text"], t["text"]) for u in units for t in u["translations"]
                 if t["language"] == language]
        tmx = (corpus / f"corpus.en-{language}.tmx").read_text(encoding="utf-8")
        validate_tmx(tmx)
        assert read_tmx(tmx, tag) == pairs
        xliff = (corpus / f"corpus.en-{language}.xlf").read_text(encoding="utf-8")
        check_xliff(xliff)
        assert read_xliff(xliff) == pairs

    strict = gazette("export", "--lang", "sv", "--exclude-flagged", "--min-confidence", "0.6",
                     "--format", "tmx", "--plain-codes", "--out", "strict", cwd=root)
    assert strict.returncode == 0, strict.stdout + strict.stderr
    assert "left out:" in strict.stdout and "language" in strict.stdout
    assert sorted(p.name for p in (root / "strict").iterdir()) == [
        "corpus.en-sv.tmx", "corpus.tmx"]
    kept = validate_tmx((root / "strict" / "corpus.en-sv.tmx").read_text(encoding="utf-8"))
    confidences = [float(p.text) for p in kept.iterfind("body/tu/prop[@type='x-confidence']")]
    assert confidences and min(confidences) >= 0.6
    assert {t.get("{http://www.w3.org/XML/1998/namespace}lang")
            for t in kept.iterfind("body/tu/tuv")} == {"en", "sv"}

    bad = gazette("export", "--format", "docx", cwd=root)
    assert bad.returncode == 2 and "unknown export format" in bad.stdout


@pytest.mark.skipif(shutil.which("omegat") is None, reason="OmegaT (Debian omegat) missing")
def test_omegat_fills_a_project_from_our_tmx(root: Path, tmp_path: Path):
    """OmegaT's console mode pre-translates English source text from tm/auto/."""
    gazette("export", "--lang", "pt", cwd=root)
    corpus = root / "aligned" / "_corpus"
    units = units_of(corpus / "corpus.jsonl")[:25]
    project = tmp_path / "omegat-project"
    for folder in ("source", "target", "tm/auto", "omegat", "glossary", "dictionary"):
        (project / folder).mkdir(parents=True)
    shutil.copy(corpus / "corpus.en-pt.tmx", project / "tm" / "auto")
    (project / "source" / "treaty.txt").write_text(
        "\n\n".join(u["pivot_text"] for u in units) + "\n", encoding="utf-8")
    (project / "omegat.project").write_text(OMEGAT_PROJECT, encoding="utf-8")
    run = subprocess.run(["omegat", str(project), "--mode=console-translate"],
                         capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Source language: en" in run.stdout + run.stderr  # it read our TMX header
    target = (project / "target" / "treaty.txt").read_text(encoding="utf-8")
    paragraphs = [p for p in target.split("\n\n") if p.strip()]
    expected = [u["translations"][0]["text"] for u in units]
    assert [p.strip() for p in paragraphs] == expected


OMEGAT_PROJECT = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<omegat>
  <project version="1.0">
    <source_dir>source</source_dir>
    <source_dir_excludes/>
    <target_dir>target</target_dir>
    <tm_dir>tm</tm_dir>
    <glossary_dir>glossary</glossary_dir>
    <glossary_file>glossary/glossary.txt</glossary_file>
    <dictionary_dir>dictionary</dictionary_dir>
    <source_lang>en</source_lang>
    <target_lang>pt-BR</target_lang>
    <source_tok>org.omegat.tokenizer.LuceneEnglishTokenizer</source_tok>
    <target_tok>org.omegat.tokenizer.LucenePortugueseTokenizer</target_tok>
    <sentence_seg>false</sentence_seg>
    <support_default_translations>true</support_default_translations>
    <remove_tags>false</remove_tags>
  </project>
</omegat>
"""


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Chromium (Debian chromium) missing")
def test_review_page_renders_in_chromium(root: Path, tmp_path: Path):
    from playwright.sync_api import sync_playwright

    result = gazette("review", DOC, cwd=root)
    assert result.returncode == 0, result.stdout + result.stderr
    page_file = root / "aligned" / DOC / "review.html"
    assert "http://" not in page_file.read_text(encoding="utf-8")  # nothing to fetch
    with sync_playwright() as playwright:
        browser = chromium(playwright)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(page_file.as_uri())
            assert page.locator("#units thead th").all_inner_texts() == ["en", "pt", "sv"]
            headings = page.locator("th.article").all_inner_texts()
            assert [h.split(":")[0] for h in headings] == [
                "preamble", *map(str, range(1, 15)), "final"]
            assert "ARTICLE 3 / ARTIGO 3 / ARTIKEL 3" in headings[3]
            rows = page.locator("tr.unit")
            total = rows.count()
            assert page.locator("#shown").inner_text() == str(total)
            page.check("#flagged-only")
            flagged = page.locator("tr.unit.flagged").count()
            assert 0 < flagged < total
            assert page.locator("#shown").inner_text() == str(flagged)
            assert page.locator("tr.unit:not([hidden])").count() == flagged
            page.uncheck("#flagged-only")
            page.fill("#below", "0.6")
            below = int(page.locator("#shown").inner_text())
            assert 0 < below < total
            # a similarity map per article pair, with the aligner's beads on it
            maps = page.locator("tr.map svg.map")
            assert maps.count() == 2 * len(headings)  # pt and sv for each article
            assert page.locator("tr.map svg rect.bead[stroke='#c00']").count() >= 1
            repaired = page.locator("mark.fix").first
            assert repaired.get_attribute("title").startswith(("OCR: ", "inserted by "))
            page.fill("#below", "1.01")
            page.screenshot(path=str(tmp_path / "review.png"), full_page=False)
        finally:
            browser.close()
    assert (tmp_path / "review.png").stat().st_size > 10_000


def test_an_export_since_the_last_holds_exactly_a_new_decree_s_units(
        sample_run: SampleRun, tmp_path: Path):
    """The processed samples exported and recorded while one decree's outputs were not
    there yet; once they are, `--since` that export gives exactly that decree's units
    (but those whose texts another sample, the same protocol, already gave)."""
    root = sample_run.copy(tmp_path / "project")
    new = "textlayer_protocol_brazil_sweden_pt_en"
    shutil.move(root / "aligned" / new, tmp_path / new)
    first = gazette("export", "--format", "jsonl", "--name", "before-" + new, cwd=root)
    assert first.returncode == 0, first.stdout + first.stderr
    assert f"Recorded as before-{new}" in first.stdout
    shutil.move(tmp_path / new, root / "aligned" / new)  # the new decree is published

    since = gazette("export", "--format", "jsonl", "--since", "last", cwd=root)
    assert since.returncode == 0, since.stdout + since.stderr
    exported = units_of(root / "aligned" / "_corpus" / "corpus.jsonl")
    known = {texts_of(unit) for path in (root / "aligned").glob("[!_]*/*.jsonl")
             if path.stem == path.parent.name != new for unit in units_of(path)}
    expected = [unit for unit in units_of(root / "aligned" / new / f"{new}.jsonl")
                if texts_of(unit) not in known]
    assert [(u["doc"], u["pivot_text"]) for u in exported] == [
        (u["doc"], u["pivot_text"]) for u in expected] and exported
    assert f"exported by before-{new}" in since.stdout
    nothing = gazette("export", "--format", "jsonl", "--since", "last", cwd=root)
    assert "0 unit(s) exported" in nothing.stdout
