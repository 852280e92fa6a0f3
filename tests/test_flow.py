"""The main job end to end: `gazette run` (a real Prefect flow) on real samples."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import SAMPLES
from projects import (
    BROKEN,
    SAMPLE_INPUTS,
    SampleRun,
    doc_id,
    gazette,
    run_until,
    snapshot,
)

from flows.run import ACTS_PER_TASK
from pipeline.config import Settings
from pipeline.review.page import load


@pytest.mark.slow
def test_run_processes_samples_reports_failures_and_skips_unchanged(
        sample_run: SampleRun, tmp_path: Path, prefect_api: dict[str, str]):
    # the first run as from a fresh clone (its own temporary Prefect server); the later
    # runs, on a copy, use the session's server
    first, root = sample_run.result, sample_run.root
    assert first.returncode == 1, first.stderr  # one document failed, the others ran
    assert "4 processed, 0 unchanged (no stage work), 1 failed" in first.stdout
    assert f"{BROKEN} failed: not a PDF: the file is an HTML page" in first.stdout
    assert "Traceback" not in first.stdout + first.stderr  # an expected failure, said once

    docs = set(map(doc_id, SAMPLE_INPUTS))
    assert {p.name for p in (root / "cleaned").iterdir()} == docs  # nothing half-written
    assert {p.name for p in (root / "aligned").iterdir()} == docs

    pages = [json.loads(line) for line in (
        root / "cleaned" / "scan_protocol_brazil_japan_1978_en" / "pages.jsonl"
    ).read_text(encoding="utf-8").splitlines()]
    assert {page["method"] for page in pages} == {"ocr"}
    assert "Contracting State" in pages[0]["text"]

    aligned = root / "aligned" / "002_9382d4ae2bbb4b06"
    articles = [json.loads(line) for line in (aligned / "articles.jsonl").read_text(
        encoding="utf-8").splitlines()]
    expected = ["preamble", *map(str, range(1, 15)), "final"]
    for language in ("pt", "sv"):
        assert [a["article"] for a in articles if a["language"] == language] == expected
    tsv = [row.split("\t") for row in (aligned / "002_9382d4ae2bbb4b06.en-sv.tsv").read_text(
        encoding="utf-8").splitlines()]
    assert tsv[0] == ["en", "sv", "confidence", "document", "article", "reviewed"]
    assert {row[4] for row in tsv[1:]} == set(expected)  # every article has sentence pairs
    witness = next(row for row in tsv if row[0].startswith("In witness whereof"))
    assert witness[1].startswith("Till bekräftelse härav") and witness[4] == "final"
    sentences = [json.loads(line) for line in (aligned / "sentences.jsonl").read_text(
        encoding="utf-8").splitlines()]
    assert len(sentences) > 200 and all(0 <= s["confidence"] <= 1 for s in sentences)
    units = [json.loads(line) for line in (aligned / "002_9382d4ae2bbb4b06.jsonl").read_text(
        encoding="utf-8").splitlines()]
    assert sum({t["language"] for t in unit["translations"]} == {"pt", "sv"}
               for unit in units) > 50
    pt = (root / "aligned" / "textlayer_protocol_brazil_sweden_pt_en"
          / "textlayer_protocol_brazil_sweden_pt_en.en-pt.tsv")
    assert {row.split("\t")[4] for row in pt.read_text(encoding="utf-8").splitlines()[1:]} == {
        "preamble", "1", "2", "3"}
    structure = json.loads((root / "cleaned" / "002_9382d4ae2bbb4b06" / "structure.json")
                           .read_text(encoding="utf-8"))
    assert [s["language"] for s in structure["sections"]] == ["pt", "en", "sv"]

    project = sample_run.copy(tmp_path / "project")
    outputs = snapshot(project)
    second = gazette("run", cwd=project, api=prefect_api)
    assert "0 processed, 4 unchanged (no stage work), 1 failed" in second.stdout
    # only the broken file is tried again; no stage runs for the unchanged documents
    assert "Task run 'repair" not in second.stderr + second.stdout
    assert snapshot(project) == outputs

    # A repair setting changed in gazette.toml: every document is redone from repair on,
    # its pages come from the reading cache, and the rule is off.
    (project / "gazette.toml").write_text('repair_disabled = ["fix_ocr_words"]\n',
                                            encoding="utf-8")
    changed = gazette("run", cwd=project, api=prefect_api)
    assert "4 processed, 0 unchanged" in changed.stdout, changed.stdout
    assert (changed.stdout + changed.stderr).count("Cached(type=COMPLETED)") == 4
    for stage in ("repair", "split", "structure", "align", "export"):
        assert f"Task run '{stage}-" in changed.stdout + changed.stderr, stage
    repairs = (project / "cleaned" / "002_9382d4ae2bbb4b06" / "repairs.jsonl").read_text(
        encoding="utf-8")
    assert "fix_ocr_words" in outputs["cleaned/002_9382d4ae2bbb4b06/repairs.jsonl"].decode()
    assert "fix_ocr_words" not in repairs
    (project / "gazette.toml").write_text("repair_disabled = [\"fix_everything\"]\n",
                                            encoding="utf-8")
    bad = gazette("run", cwd=project, api=prefect_api)
    assert bad.returncode == 1 and "is not a list of repair rules" in bad.stdout


@pytest.mark.slow
def test_stage_commands(tmp_path: Path):
    split = gazette("split", str(SAMPLES / "002_9382d4ae2bbb4b06.txt"), cwd=tmp_path)
    assert split.returncode == 0, split.stderr
    assert "en articles: preamble 1 2 3 4 5 6 7 8 9 10 11 12 13 14" in split.stdout

    pdf = SAMPLES / "textlayer_protocol_brazil_sweden_pt_en.pdf"
    ingest = gazette("ingest", "--json", str(pdf), cwd=tmp_path)
    assert [json.loads(line)["method"] for line in ingest.stdout.splitlines()] == [
        "text-layer", "text-layer"]

    result = gazette("export", cwd=tmp_path)
    assert result.returncode == 1 and "run `gazette run` first" in result.stdout
    result = gazette("review", "nothing-here", cwd=tmp_path)
    assert result.returncode == 1 and "no processed document 'nothing-here'" in result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("passes", [[], ["--one-pass"]], ids=["default", "one-pass"])
def test_align_command_on_perturbed_ntrex(tmp_path: Path, shared: Path, passes: list[str]):
    """`gazette align` prints one bead per line covering both files, mostly right, with
    its second pass (the default) and without."""
    from align_data import ntrex
    from align_score import f1_scores

    case = ntrex(shared, "swe")[3]
    (tmp_path / "en.txt").write_text("\n".join(case.src) + "\n", encoding="utf-8")
    (tmp_path / "sv.txt").write_text("\n".join(case.tgt) + "\n", encoding="utf-8")
    result = gazette("align", "en.txt", "sv.txt", "--src-lang", "en", "--tgt-lang", "sv",
                     *passes, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert all(re.fullmatch(r"\[[\d, ]*\]:\[[\d, ]*\]:\d\.\d\d", line) for line in lines)
    beads = [tuple(tuple(json.loads(side)) for side in line.rsplit(":", 1)[0].split(":"))
             for line in lines]
    assert [i for s, _ in beads for i in s] == list(range(len(case.src)))
    assert [j for _, t in beads for j in t] == list(range(len(case.tgt)))
    assert f1_scores([case.gold], [beads])["f1_strict"] >= 0.9


@pytest.mark.slow
def test_an_edition_is_cut_into_acts_and_its_treaty_decree_paired_with_its_english_text(
        tmp_path: Path, shared: Path, prefect_api: dict[str, str]):
    """A test edition of real pages: DOU pages 1-3 of 1 October 2014, the Brazil-Sweden
    decree (the Portuguese part of seed 002, under the heading its title names) as the
    Executive's act, then pages 4-10; the protocol's English text in a file of its own.
    The run cuts the edition, finds the decree among its acts and pairs it with the
    English text, giving the article pairs `gazette pair` gives for the decree cut out
    by hand. A run killed half-way through the acts is resumed, not redone."""
    import pdfplumber

    from pipeline.read.pagedecision import text_in_reading_order

    text = (SAMPLES / "002_9382d4ae2bbb4b06.txt").read_text(encoding="utf-8")
    english_start = text.index("PROTOCOL AMENDING THE CONVENTION")
    with pdfplumber.open(shared / "corpora/brazil-pdfs/DOUS1a.pdf") as pdf:
        dou = [text_in_reading_order(pdf.pages[n]).text for n in range(10)]
    # a line in English at the decree's end, as editions print (a note, a name): the
    # act is still a Portuguese document, one that pairs
    note = "\n\nThis decree was published in the Official Gazette of the Union today.\n"
    decree = "Atos do Poder Executivo\n.\nDECRETO Nº 13.006\n" + text[:english_start] + note
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "dou.txt").write_text("\f".join([*dou[:3], decree, *dou[3:]]),
                                              encoding="utf-8")
    (tmp_path / "raw" / "en.txt").write_text(text[english_start:text.index("PROTOKOLL")],
                                             encoding="utf-8")
    (tmp_path / "pt.txt").write_text(text[:english_start], encoding="utf-8")  # by hand

    # the first run is killed as its first task of acts is done (two at a time: the
    # third task's acts are not even sent off); the next one does the rest
    killed = run_until(tmp_path, " acts processed", prefect_api)
    cut = re.search(r"dou.txt: an edition \(masthead 'ISSN 1677-7042'\): cut into (\d+) acts",
                    killed)
    assert cut and int(cut.group(1)) > 2 * ACTS_PER_TASK, killed
    total = int(cut.group(1))
    run = gazette("run", "--wait", cwd=tmp_path, api=prefect_api)
    assert run.returncode == 0, run.stdout + run.stderr
    log = " ".join((run.stdout + run.stderr).split())
    left = re.search(rf"dou: {total} acts, (\d+) to process", log)
    assert left and 0 < int(left.group(1)) < total, log
    paired = re.search(r"paired en with dou--decreto-13006 \(pt, confidence ([\d.]+): .*?; "
                       r"identity: parties, instrument agree\)", log)
    assert paired and float(paired.group(1)) >= 0.5, log
    assert not list(tmp_path.glob("*/.staging-*"))  # nothing half-written left
    acts = [json.loads(line) for line in (tmp_path / "cleaned/dou/acts.jsonl").read_text(
        encoding="utf-8").splitlines()]
    treaties = [act for act in acts if act["treaty"]]
    assert [(a["doc_id"], a["pages"], a["bodies"], a["treaty"]["parties"]) for a in treaties] == [
        ("dou--decreto-13006", [4, 4], ["Atos do Poder Executivo"], ["BRASIL", "SUÉCIA"])]
    assert all(a["heading"] and a["bodies"] and a["pages"] for a in acts)
    # each act is a document with its own outputs; the edition aligns nothing itself
    assert {p.name for p in (tmp_path / "aligned").iterdir()} == {
        *(a["doc_id"] for a in acts), "en", "en+dou--decreto-13006"}
    manifest = json.loads((tmp_path / "cleaned/dou--decreto-13006/manifest.json").read_text(
        encoding="utf-8"))
    assert manifest["act"]["edition"] == "dou" and manifest["source"] == "dou.txt"
    assert 0 < manifest["language_shares"]["en"] < 0.05 < manifest["language_shares"]["pt"]

    told = gazette("pair", "raw/en.txt", "pt.txt", cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    found = (tmp_path / "aligned/en+dou--decreto-13006/en+dou--decreto-13006.en-pt.tsv"
             ).read_text(encoding="utf-8")
    rows = [line.split("\t") for line in found.splitlines()[1:]]
    by_hand = [line.split("\t") for line in told.stdout.splitlines()[1:]]
    assert len(rows) == len(by_hand) > 100
    for row, expected in zip(rows, by_hand, strict=True):  # same pairs, same articles
        assert (row[0], row[4]) == (expected[0], expected[4])
        if row[1] == expected[1]:
            assert abs(float(row[2]) - float(expected[2])) <= 0.02
        else:  # the act holds its heading and title lines: its first pair may hold them
            assert row is rows[0] and row[1].endswith(expected[1])

    units = [json.loads(line) for line in (
        tmp_path / "aligned/en+dou--decreto-13006/en+dou--decreto-13006.jsonl").read_text(
        encoding="utf-8").splitlines()]
    assert {unit["decree"] for unit in units} == {"Decreto nº 13.006"}  # marked in exports
    # the pair is reviewable: the English text beside the act's, the act's repairs marked
    # (its pages.jsonl is its stretch of the edition's pages)
    review = load(Settings.for_root(tmp_path), "en+dou--decreto-13006")
    assert [part.doc_id for part in review.parts] == ["en", "dou--decreto-13006"]
    assert review.counts()["pt"][0] == len(rows)  # the page counts the pairs exported
    act_marks = [m for m in review.marks if m.start >= review.parts[1].start]
    assert act_marks and all(review.text[m.start:m.end].strip() for m in act_marks)

    again = gazette("run", cwd=tmp_path, api=prefect_api)
    assert again.returncode == 0 and "no flow run" in again.stdout, again.stdout
    status = " ".join(gazette("status", cwd=tmp_path).stdout.split())
    assert "pairs across documents" in status
    listed = re.search(r"│ en │ dou--decreto-13006 │ pt │ .*? │ parties, instrument │ "
                       r"([\d.]+) │ (\d+) │", status)
    assert listed and float(listed.group(1)) >= 0.5 and int(listed.group(2)) == len(rows), status


@pytest.mark.slow
def test_the_model_is_loaded_only_by_a_run_that_finds_an_english_text(
        tmp_path: Path, prefect_api: dict[str, str]):
    """A run of a Portuguese text alone, with its own temporary server as a user's
    first run has, does not load the embedding model (importing torch is 3 s of CPU,
    and nothing embeds); the next run, which finds an English text that pairing will
    embed, loads it, and so does a run after that where only the Portuguese text
    changed: the English text, up to date, is still paired."""
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "pt.txt").write_bytes((SAMPLES / "004_5572047d3d386aa9.txt").read_bytes())
    alone = gazette("run", cwd=tmp_path)  # its own temporary server
    assert alone.returncode == 0, alone.stdout + alone.stderr
    assert "loading embedding model" not in alone.stdout + alone.stderr
    text = (SAMPLES / "002_9382d4ae2bbb4b06.txt").read_text(encoding="utf-8")
    (tmp_path / "raw" / "en.txt").write_text(
        text[text.index("PROTOCOL AMENDING"):text.index("PROTOKOLL")], encoding="utf-8")
    english = gazette("run", cwd=tmp_path, api=prefect_api)
    assert english.returncode == 0, english.stdout + english.stderr
    assert "loading embedding model" in english.stdout + english.stderr
    with (tmp_path / "raw" / "pt.txt").open("a", encoding="utf-8") as portuguese:
        portuguese.write("\nArtigo 99. Este Acordo entra em vigor na data da assinatura.\n")
    changed = gazette("run", cwd=tmp_path, api=prefect_api)
    assert changed.returncode == 0, changed.stdout + changed.stderr
    assert "en.txt: unchanged since its last run, skipped" in changed.stdout + changed.stderr
    assert "loading embedding model" in changed.stdout + changed.stderr


@pytest.mark.slow
def test_a_document_is_its_file_whatever_its_content(tmp_path: Path, prefect_api: dict[str, str]):
    """Three copies of one text under three names, then one renamed: every output names
    its own file, though the reading cache (keyed by content) read the text once."""
    pdf = (SAMPLES / "textlayer_protocol_brazil_sweden_pt_en.pdf").read_bytes()
    (tmp_path / "raw").mkdir()
    for name in ("a", "b", "c"):
        (tmp_path / "raw" / f"{name}.pdf").write_bytes(pdf)
    run = gazette("run", cwd=tmp_path, api=prefect_api)
    assert run.returncode == 0, run.stdout + run.stderr

    def manifest(doc: str) -> dict[str, str]:
        return json.loads((tmp_path / "cleaned" / doc / "manifest.json").read_text(
            encoding="utf-8"))

    assert [(manifest(d)["doc_id"], manifest(d)["source"]) for d in "abc"] == [
        ("a", "a.pdf"), ("b", "b.pdf"), ("c", "c.pdf")]
    (tmp_path / "raw" / "c.pdf").rename(tmp_path / "raw" / "d.pdf")
    run = gazette("run", cwd=tmp_path, api=prefect_api)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (manifest("d")["doc_id"], manifest("d")["source"]) == ("d", "d.pdf")
    units = (tmp_path / "aligned" / "d" / "d.jsonl").read_text(encoding="utf-8").splitlines()
    assert units and {json.loads(line)["doc"] for line in units} == {"d"}
    # the renamed file's former document is kept, and said to be gone
    status = " ".join(gazette("status", cwd=tmp_path).stdout.split())
    assert re.search(r"│ c │ done \(file gone\)", status), status
    assert "1 document(s) whose file is gone from raw/" in status
