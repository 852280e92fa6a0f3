"""Store: atomic files, all-or-nothing publication, safe folder names."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.config import Settings
from pipeline.project import store
from pipeline.project.store import (
    DocumentOutput,
    is_up_to_date,
    publish_folder,
    read_manifest,
    write_atomic,
)
from pipeline.records import Source


def test_write_atomic_leaves_no_temporary_file(tmp_path):
    path = tmp_path / "a" / "out.txt"
    write_atomic(path, "first")
    write_atomic(path, "second")
    assert path.read_text() == "second"
    assert [p.name for p in path.parent.iterdir()] == ["out.txt"]


def test_publish_swaps_in_whole_folders(settings: Settings):
    out = DocumentOutput(settings, "doc")
    out.start()
    out.write("cleaned", "text.txt", "v1")
    out.write("aligned", "en-pt.tsv", "v1")
    assert not (settings.cleaned / "doc").exists()  # nothing visible before publish
    out.publish({"sha256": "1"})
    assert (settings.cleaned / "doc" / "text.txt").read_text() == "v1"
    assert read_manifest(settings, "doc") == {"sha256": "1"}

    again = DocumentOutput(settings, "doc")
    again.start()
    again.write("cleaned", "text.txt", "v2")
    again.discard()  # a failed re-run
    assert (settings.cleaned / "doc" / "text.txt").read_text() == "v1"
    assert sorted(p.name for p in settings.cleaned.iterdir()) == ["doc"]


def test_every_published_file_is_on_disk_before_its_folder_appears(
        settings: Settings, monkeypatch: pytest.MonkeyPatch):
    """Staged files are written plainly and synced together: each one, the manifest
    included, before the swap that publishes it."""
    synced: set[str] = set()
    published: list[set[str]] = []
    real_fsync, real_swap = os.fsync, store._swap_in

    def fsync(fd: int) -> None:
        synced.add(Path(f"/proc/self/fd/{fd}").readlink().name)
        real_fsync(fd)

    def swap_in(staging, final) -> None:
        published.append({p.name for p in staging.iterdir()} - synced)
        real_swap(staging, final)

    monkeypatch.setattr(store.os, "fsync", fsync)
    monkeypatch.setattr(store, "_swap_in", swap_in)
    out = DocumentOutput(settings, "doc")
    out.start()
    out.write("cleaned", "text.txt", "v1")
    out.write("aligned", "en-pt.tsv", "v1")
    out.publish({"sha256": "1"})
    publish_folder(settings.aligned / "_corpus", {"corpus.tmx": "<tmx/>"})
    assert published == [set(), set(), set()]  # aligned, cleaned, the corpus: all synced
    assert synced == {"text.txt", "en-pt.tsv", "manifest.json", "corpus.tmx"}


def test_up_to_date_needs_same_hash_code_and_settings(settings: Settings):
    source = Source(path=settings.raw / "a.txt", relpath="a.txt", doc_id="a", kind="text",
                    sha256="abc")
    assert not is_up_to_date(settings, source)
    out = DocumentOutput(settings, "a")
    out.start()
    out.publish({"sha256": "abc", "build": settings.output_key()})
    assert is_up_to_date(settings, source)
    changed = Source(path=source.path, relpath="a.txt", doc_id="a", kind="text", sha256="def")
    assert not is_up_to_date(settings, changed)
    # another setting that shapes the outputs: the document is redone
    assert not is_up_to_date(replace(settings, repair_disabled=("fix_ocr_words",)), source)
    # one that does not (speed only): still up to date
    assert is_up_to_date(replace(settings, page_workers=1), source)


@pytest.mark.parametrize("doc_id", ["../escape", "a/b", ".."])
def test_document_ids_cannot_escape_the_data_folders(settings: Settings, doc_id: str):
    with pytest.raises(ValueError, match="escape"):
        DocumentOutput(settings, doc_id)
