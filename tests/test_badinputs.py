"""Bad input: every case of the generated corpus behaves as its expectation says."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from badinputs import build
from projects import gazette

from pipeline.config import Settings
from pipeline.errors import InputError
from pipeline.project.catalog import Catalog
from pipeline.read.ingest import discover, ignored, ingest


def test_each_bad_input_is_processed_or_rejected_with_its_reason(settings: Settings):
    cases = build(settings.raw)
    sources = {source.relpath: source for source in discover(settings)}
    assert set(sources) == set(cases)
    for relpath, expect in cases.items():
        source = sources[relpath]
        if expect.outcome == "rejected":
            with pytest.raises(InputError) as error:
                ingest(source, settings)
            assert expect.note in str(error.value), relpath
            continue
        document = ingest(source, settings)
        notes = [note for page in document.pages for note in (page.reason, *page.warnings)]
        assert document.pages, relpath
        if expect.note:
            assert any(expect.note in note for note in notes), (relpath, notes)
        if relpath != "bomb.pdf":
            assert "Contracting States" in " ".join(p.text for p in document.pages) or \
                relpath == "latin1.txt" or relpath == "one-long-line.txt", relpath


def test_document_ids_stay_inside_the_data_folders(settings: Settings):
    build(settings.raw)
    for source in discover(settings):
        assert source.doc_id and "/" not in source.doc_id
        assert not source.doc_id.startswith(("." , "-", "_"))
        assert (settings.cleaned / source.doc_id).resolve().parent == settings.cleaned.resolve()


@pytest.mark.slow
def test_run_over_the_corpus_goes_on_and_reports_every_reason(
        tmp_path: Path, prefect_api: dict[str, str]):
    cases = build(tmp_path / "raw")
    (tmp_path / "raw" / "..dots..txt").write_text("Article 1", encoding="utf-8")
    result = gazette("run", cwd=tmp_path, api=prefect_api)
    assert "ignored ..dots..txt: hidden: its name starts with '.'" in result.stdout
    assert result.returncode == 1  # some documents failed, the others were processed
    rejected = {name: e for name, e in cases.items() if e.outcome == "rejected"}
    processed = {name for name, e in cases.items() if e.outcome == "processed"}
    said = " ".join(result.stdout.split())  # the table and messages, unwrapped
    for name, expect in rejected.items():
        assert re.search(re.escape(f"{name} failed: ") + ".{0,60}" + re.escape(expect.note),
                         said), name
    assert f"{len(processed)} processed, 0 unchanged (no stage work), {len(rejected)} failed" \
        in result.stdout
    docs = {p.name for p in (tmp_path / "cleaned").iterdir()}
    assert len(docs) == len(processed)  # a folder per processed document, nothing else
    assert not any(p.name.startswith(".") for p in (tmp_path / "aligned").iterdir())
    for doc in docs:
        manifest = json.loads((tmp_path / "cleaned" / doc / "manifest.json").read_text(
            encoding="utf-8"))
        assert manifest["summary"]["status"] == "done"
    catalog = Catalog(Settings.for_root(tmp_path))
    sources = {s.relpath: s for s in discover(Settings.for_root(tmp_path))}
    for name, expect in rejected.items():
        row = catalog.document(sources[name].doc_id)
        assert row is not None and row["status"] == "failed" and expect.note in row["error"]
    bomb = [json.loads(line) for line in
            (tmp_path / "cleaned" / "bomb" / "pages.jsonl").read_text().splitlines()]
    assert bomb[0]["method"] == "failed" and "megapixels" in bomb[0]["reason"]

    # Run twice, the hostile inbox gives the same catalog: the same documents done,
    # the same ones failed with the same reasons.
    def rows() -> list[tuple[object, ...]]:
        return [(r.doc_id, r.relpath, r.status, r.pages, r.error) for r in catalog.documents()]
    first = rows()
    again = gazette("run", cwd=tmp_path, api=prefect_api)
    assert again.returncode == 1
    assert f"0 processed, {len(processed)} unchanged (no stage work), {len(rejected)} failed" \
        in again.stdout
    assert rows() == first


def test_hidden_files_are_ignored_and_said_so(settings: Settings):
    settings.raw.mkdir()
    (settings.raw / "..dots..txt").write_text("Article 1", encoding="utf-8")
    (settings.raw / ".part").mkdir()
    (settings.raw / ".part" / "decree.pdf").write_bytes(b"%PDF-1.4")
    assert discover(settings) == []
    assert ignored(settings) == [("..dots..txt", "hidden: its name starts with '.'"),
                                 (".part/decree.pdf", "in the hidden folder '.part'")]


def test_repair_of_text_that_changes_past_every_limit_does_not_crash():
    """Binary bytes read as Latin-1: ftfy changes more than there are words (it raised
    KeyError 'ftfy' when a rule without a limit went past 100 %)."""
    from pipeline.records import IngestedDocument, Page, Source
    from pipeline.repair import repair

    text = "".join(ch for ch in random.Random(7).randbytes(2048).decode("latin-1")
                   if ch >= " " or ch in "\n\t")
    source = Source(path=Path("x.txt"), relpath="x.txt", doc_id="x", kind="text", sha256="")
    cleaned = repair(IngestedDocument(source=source, pages=(
        Page(number=1, method="text-dump", reason="test", text=text),)))
    assert cleaned.pages[0].text


def test_scratch_folders_of_killed_runs_are_swept(settings: Settings):
    """kill -9 during OCR leaves page images; the next read removes them, and only them:
    not a live process's, nor another machine's (its process ids are not this one's)."""
    from pipeline.read.pdfread import scratch_root, sweep_scratch

    scratch = scratch_root(settings)
    dead = scratch / "ocr-999999999-abcd"
    live = scratch / f"ocr-{os.getpid()}-efgh"
    elsewhere = settings.state / "tmp" / "another-host" / "ocr-999999999-ijkl"
    for folder in (dead, live, elsewhere):
        folder.mkdir(parents=True)
        (folder / "page-0001.pgm").write_bytes(b"P5 1 1 255 \x00")
    assert sweep_scratch(settings) == [dead.name]
    assert not dead.exists() and live.exists() and elsewhere.exists()
