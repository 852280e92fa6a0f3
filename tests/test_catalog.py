"""The run catalog records runs, documents and stages, and decides what is new; in the
project's SQLite file and in PostgreSQL alike."""

from __future__ import annotations

import itertools
import json
import logging
import os
from dataclasses import replace
from pathlib import Path

import pytest
from services import Postgres
from sqlalchemy import create_engine, text

from pipeline.config import Settings
from pipeline.errors import BusyError, LockLostError
from pipeline.project import catalog
from pipeline.project.catalog import Catalog
from pipeline.project.store import DocumentOutput, is_up_to_date, project_lock
from pipeline.records import DocumentSummary, Source

_DATABASES = itertools.count()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def settings(request: pytest.FixtureRequest, settings: Settings) -> Settings:
    """The project's settings with its catalog in SQLite (the default) or in a fresh
    PostgreSQL database."""
    if request.param == "sqlite":
        return settings
    postgres: Postgres = request.getfixturevalue("postgres")
    name = f"catalog{next(_DATABASES)}"
    postgres.create_database(name)
    return replace(settings, catalog_url=postgres.url(name))


def source(settings: Settings, sha: str = "abc") -> Source:
    return Source(path=settings.raw / "d.txt", relpath="d.txt", doc_id="d", kind="text",
                  sha256=sha)


def publish(settings: Settings, src: Source) -> None:
    out = DocumentOutput(settings, src.doc_id)
    out.start()
    out.publish({"doc_id": src.doc_id, "sha256": src.sha256,
                 "build": settings.output_key()})


def test_catalog_records_stages_documents_and_runs(settings: Settings):
    catalog = Catalog(settings)
    run = catalog.start_run("manual")
    src = source(settings)
    with catalog.stage(run, "d", "ingest"):
        pass
    with pytest.raises(ValueError), catalog.stage(run, "d", "repair"):
        raise ValueError("broken rule")
    failed = DocumentSummary("d", "d.txt", "failed", error="ValueError: broken rule")
    catalog.record(run, src, failed)
    catalog.finish_run(run, [failed])
    [row] = catalog.documents()
    assert (row.doc_id, row.status, row.error) == ("d", "failed", "ValueError: broken rule")
    assert row.stages["ingest"][0] == "done" and row.stages["repair"][0] == "failed"
    assert catalog.runs()[0][1:2] == ("manual",) and catalog.runs()[0][4:] == (0, 0, 1)
    assert Catalog(settings).documents() == [row]  # it is on disk


def test_stages_timed_apart_are_recorded_with_the_document(settings: Settings):
    """An act's stages are timed in memory and recorded with its end, in one commit:
    the same rows as stages recorded one by one, a failed one with its reason."""
    from pipeline.project.catalog import StageTimes

    catalog = Catalog(settings)
    run = catalog.start_run("manual")
    times = StageTimes()
    with times.stage("repair"):
        pass
    with pytest.raises(ValueError), times.stage("split"):
        raise ValueError("no language")
    assert catalog.documents() == []  # nothing written yet
    catalog.record(run, source(settings), DocumentSummary("d", "d.txt", "failed",
                                                          error="ValueError: no language"),
                   times.times)
    [row] = catalog.documents()
    assert row.stages["repair"][0] == "done" and row.stages["split"][0] == "failed"
    again = StageTimes()  # the next run redoes it: its rows replace the old ones
    for stage in ("repair", "split"):
        with again.stage(stage):
            pass
    catalog.record(catalog.start_run("manual"), source(settings),
                   DocumentSummary("d", "d.txt", "done"), again.times)
    [row] = catalog.documents()
    assert (row.status, row.error) == ("done", None)
    assert row.stages["repair"][0] == row.stages["split"][0] == "done"


def test_idle_runs_in_a_row_are_folded_into_one(settings: Settings):
    """A schedule ticking over an unchanged inbox leaves one run, moved to its last
    tick; a run with work, or another trigger, starts a new one."""
    catalog = Catalog(settings)
    unchanged = [DocumentSummary("d", "d.txt", "skipped")]
    first = catalog.record_idle_run("schedule", unchanged)
    assert catalog.record_idle_run("schedule", unchanged) == first
    assert [run[0] for run in catalog.runs()] == [first]
    busy = catalog.start_run("schedule")
    catalog.finish_run(busy, [DocumentSummary("d", "d.txt", "done")])
    again = catalog.record_idle_run("schedule", unchanged)
    manual = catalog.record_idle_run("manual", unchanged)
    assert [run[0] for run in catalog.runs()] == [manual, again, busy, first]
    assert len({first, busy, again, manual}) == 4


def test_the_manifest_says_whether_a_document_needs_work_not_the_catalog(settings: Settings):
    catalog = Catalog(settings)
    src = source(settings)
    run = catalog.start_run("manual")
    catalog.record(run, src, DocumentSummary("d", "d.txt", "done"))
    assert not is_up_to_date(settings, src)  # the catalog says done; nothing published
    publish(settings, src)
    assert is_up_to_date(settings, src)
    assert not is_up_to_date(settings, source(settings, sha="changed"))
    assert not is_up_to_date(replace(settings, ocr_dpi=settings.ocr_dpi + 1), src)
    catalog.record(run, src, DocumentSummary("d", "d.txt", "failed", error="x"))
    assert is_up_to_date(settings, src)  # a later failure left the published outputs


def test_a_catalog_made_by_an_older_gazette_is_brought_up_to_date(settings: Settings):
    """Its ``documents.pipeline_version`` column held the build key: it is renamed."""
    url = catalog.catalog_url(settings)
    settings.state.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url)
    with engine.begin() as db:
        db.execute(text("CREATE TABLE documents (doc_id TEXT PRIMARY KEY, relpath TEXT NOT "
                        "NULL, sha256 TEXT NOT NULL, pipeline_version TEXT NOT NULL, status "
                        "TEXT NOT NULL, error TEXT, pages INTEGER, run_id INTEGER, updated "
                        "TEXT NOT NULL)"))
        db.execute(text("INSERT INTO documents VALUES ('d', 'd.txt', 'abc', 'old-key', "
                        "'done', NULL, 3, 1, '2026-01-01T00:00:00+00:00')"))
    engine.dispose()
    rows = Catalog(settings).documents()
    assert [(row.doc_id, row.build_key, row.pages) for row in rows] == [("d", "old-key", 3)]


def test_a_document_at_work_is_listed_with_its_progress_until_recorded(settings: Settings):
    import os

    from pipeline import progress

    catalog = Catalog(settings)
    run = catalog.start_run("manual")
    with catalog.stage(run, "d", "ingest"):
        progress.report(3, 140)  # as the PDF reader does, page by page
        [working] = Catalog(settings).working()  # what `gazette status` reads meanwhile
        assert (working.doc_id, working.stage, working.done, working.total) == (
            "d", "ingest", 3, 140)
        assert working.pid == os.getpid() and working.alive()
    progress.report(4, 140)  # out of the stage: nobody listens
    with catalog.stage(run, "d", "repair"):
        [working] = catalog.working()
        assert (working.stage, working.done, working.total) == ("repair", None, None)
    catalog.record(run, source(settings), DocumentSummary("d", "d.txt", "done"))
    assert catalog.working() == []


def test_what_a_killed_run_left_working_is_shown_gone_and_cleared_by_the_next(
        settings: Settings):
    catalog = Catalog(settings)
    run = catalog.start_run("manual")
    with catalog.stage(run, "d", "ingest"):
        pass  # the run is killed before it records the document
    with catalog._connect() as db:  # as if by a process that has gone
        db.execute(text("UPDATE working SET pid = 2147483646"))
    [left] = catalog.working()
    assert left.alive() is False
    catalog.start_run("manual")
    assert catalog.working() == []


def test_the_project_lock_turns_a_second_holder_away_naming_the_first(settings: Settings):
    with (project_lock(settings),
          pytest.raises(BusyError, match=rf"gazette \(pid {os.getpid()}"),
          project_lock(replace(settings))):  # as another process would ask
        pass
    with project_lock(settings):  # released: free again
        pass


@pytest.mark.slow
def test_the_lock_holder_named_is_this_project_s_not_another_advisory_lock_s(
        postgres: Postgres, tmp_path: Path):
    """PostgreSQL is shared (Prefect's server keeps its database there too): advisory
    locks held by others on the server are not this project's holder."""
    name, neighbour = f"catalog{next(_DATABASES)}", f"catalog{next(_DATABASES)}"
    postgres.create_database(name)
    postgres.create_database(neighbour)
    settings = replace(Settings.for_root(tmp_path), catalog_url=postgres.url(name))
    others = [create_engine(postgres.url(db)).connect() for db in (name, neighbour)]
    try:
        for other, key in zip(others, (7, catalog._LOCK_KEY), strict=True):
            other.execute(text("SELECT set_config('application_name', 'prefect', false)"))
            assert other.execute(text("SELECT pg_try_advisory_lock(:key)"),
                                 {"key": key}).scalar_one()
        with (project_lock(settings),
              pytest.raises(BusyError, match=rf"^gazette \(pid {os.getpid()} on "),
              project_lock(replace(settings))):
            pass
    finally:
        for other in others:
            other.close()


@pytest.mark.slow
def test_a_lock_lost_with_postgresql_restarting_is_taken_again_or_stops_the_writes(
        postgres: Postgres, tmp_path: Path, caplog: pytest.LogCaptureFixture):
    """PostgreSQL restarts under a run, and the run's lock goes with its connection: the
    next publish takes it again and says so; if another process took it meanwhile, the
    publish stops with LockLostError and publishes nothing."""
    name = f"catalog{next(_DATABASES)}"
    postgres.create_database(name)
    settings = replace(Settings.for_root(tmp_path), catalog_url=postgres.url(name))
    with project_lock(settings):
        postgres.restart()
        with caplog.at_level(logging.WARNING, logger="pipeline.project.catalog"):
            publish(settings, source(settings))
        assert "the project lock was lost" in caplog.text
        with pytest.raises(BusyError), project_lock(replace(settings)):  # held again
            pass
        postgres.restart()
        other = create_engine(postgres.url(name)).connect()  # another process, first
        assert other.execute(text("SELECT pg_try_advisory_lock(:key)"),
                             {"key": catalog._LOCK_KEY}).scalar_one()
        with pytest.raises(LockLostError, match="cannot be taken again"):
            publish(settings, source(settings, sha="new"))
        other.close()
    assert json.loads((settings.cleaned / "d" / "manifest.json").read_text())["sha256"] == "abc"
