"""The run catalog: what was processed, when, how long each stage took, what failed.

An embedded SQLite database in ``.gazette/catalog.sqlite`` with four tables:

``runs``       one row per ``gazette run`` (or scheduled run): trigger, start, end, counts
``documents``  one row per document: source path, content hash, pipeline version,
               status (``done``/``failed``), error, pages, last run
``stages``     one row per document and stage: status, seconds, error, last run
``working``    one row per document being processed now: its stage, pages read of
               all, and the process working on it (gone when the document is done)

``gazette status`` prints it. Together with a document's published manifest it decides
whether a document is new (:func:`is_current`). It is state, not output: deleting it
costs a re-run, nothing else.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pipeline import progress
from pipeline.config import Settings
from pipeline.records import DocumentSummary, Source
from pipeline.store import is_up_to_date

__all__ = ["Catalog", "DocumentRow", "WorkingRow", "is_current"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id INTEGER PRIMARY KEY AUTOINCREMENT,
    trigger TEXT NOT NULL,
    started TEXT NOT NULL,
    finished TEXT,
    processed INTEGER, skipped INTEGER, failed INTEGER
);
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY,
    relpath TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    pipeline_version TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    pages INTEGER,
    run_id INTEGER,
    updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS stages (
    doc_id TEXT NOT NULL,
    stage TEXT NOT NULL,
    status TEXT NOT NULL,
    seconds REAL,
    error TEXT,
    run_id INTEGER,
    updated TEXT NOT NULL,
    PRIMARY KEY (doc_id, stage)
);
CREATE TABLE IF NOT EXISTS working (
    doc_id TEXT PRIMARY KEY,
    run_id INTEGER NOT NULL,
    stage TEXT NOT NULL,
    done INTEGER,
    total INTEGER,
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started TEXT NOT NULL,
    updated TEXT NOT NULL
);
"""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class DocumentRow:
    """One document as the catalog knows it, with its stages' status and seconds."""

    doc_id: str
    relpath: str
    status: str
    pipeline_version: str
    pages: int | None
    error: str | None
    updated: str
    stages: dict[str, tuple[str, float | None]]


@dataclass(frozen=True)
class WorkingRow:
    """A document being processed: its stage, pages read of all (while it is read),
    and whether the process working on it still runs."""

    doc_id: str
    run_id: int
    stage: str
    done: int | None
    total: int | None
    pid: int
    host: str
    started: str
    updated: str

    def alive(self) -> bool | None:
        """True if its process runs, False if it is gone (a killed run), None if it is
        on another machine."""
        if self.host != socket.gethostname():
            return None
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True


class Catalog:
    """The catalog of one project folder. Each call opens its own short connection,
    so a catalog can be used from Prefect tasks on other threads."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.path = settings.state / "catalog.sqlite"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30)
        try:
            with db:  # commit or roll back
                yield db
        finally:
            db.close()

    def start_run(self, trigger: str) -> int:
        """Record the start of a run; returns its id. What a killed run left listed as
        working is cleared (a run holds the project lock: no other one works now)."""
        with self._connect() as db:
            db.execute("DELETE FROM working")
            cursor = db.execute("INSERT INTO runs (trigger, started) VALUES (?, ?)",
                                (trigger, _now()))
            return int(cursor.lastrowid or 0)

    def finish_run(self, run_id: int, summaries: list[DocumentSummary]) -> None:
        """Record the end of a run and its counts."""
        counts = {status: sum(s.status == status for s in summaries)
                  for status in ("done", "skipped", "failed")}
        with self._connect() as db:
            db.execute("UPDATE runs SET finished = ?, processed = ?, skipped = ?, failed = ? "
                       "WHERE run_id = ?", (_now(), counts["done"], counts["skipped"],
                                            counts["failed"], run_id))

    @contextmanager
    def stage(self, run_id: int, doc_id: str, stage: str) -> Iterator[None]:
        """Time one stage of one document and record how it ended; while it works, the
        document is listed as working on it, with the progress the stage reports
        (:mod:`pipeline.progress`)."""
        started = time.monotonic()
        with self._connect() as db:
            db.execute("INSERT INTO working VALUES (?, ?, ?, NULL, NULL, ?, ?, ?, ?) "
                       "ON CONFLICT (doc_id) DO UPDATE SET run_id = excluded.run_id, "
                       "stage = excluded.stage, done = NULL, total = NULL, started = CASE WHEN "
                       "working.run_id = excluded.run_id THEN working.started ELSE "
                       "excluded.started END, "
                       "pid = excluded.pid, host = excluded.host, updated = excluded.updated",
                       (doc_id, run_id, stage, os.getpid(), socket.gethostname(), _now(),
                        _now()))
        try:
            with progress.listening(lambda done, total: self._progress(doc_id, done, total)):
                yield
        except BaseException as exc:
            self._stage(run_id, doc_id, stage, "failed", time.monotonic() - started,
                        f"{type(exc).__name__}: {exc}")
            raise
        self._stage(run_id, doc_id, stage, "done", time.monotonic() - started, None)

    def _progress(self, doc_id: str, done: int, total: int) -> None:
        with self._connect() as db:
            db.execute("UPDATE working SET done = ?, total = ?, updated = ? WHERE doc_id = ?",
                       (done, total, _now(), doc_id))

    def working(self) -> list[WorkingRow]:
        """The documents being processed now (or left so by a killed run), by start."""
        with self._connect() as db:
            rows = db.execute("SELECT * FROM working ORDER BY started, doc_id").fetchall()
        return [WorkingRow(*row) for row in rows]

    def _stage(self, run_id: int, doc_id: str, stage: str, status: str, seconds: float,
               error: str | None) -> None:
        with self._connect() as db:
            db.execute("INSERT OR REPLACE INTO stages VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (doc_id, stage, status, round(seconds, 3), error, run_id, _now()))

    def record(self, run_id: int, source: Source, summary: DocumentSummary) -> None:
        """Record how a document ended in this run (done or failed, with the reason)."""
        with self._connect() as db:
            db.execute("DELETE FROM working WHERE doc_id = ?", (source.doc_id,))
            db.execute("INSERT OR REPLACE INTO documents VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (source.doc_id, source.relpath, source.sha256,
                        self.settings.output_key(),
                        summary.status, summary.error, summary.pages, run_id, _now()))

    def document(self, doc_id: str) -> dict[str, Any] | None:
        """The catalog row of one document, or None."""
        with self._connect() as db:
            db.row_factory = sqlite3.Row
            row = db.execute("SELECT * FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
        return dict(row) if row else None

    def documents(self) -> list[DocumentRow]:
        """Every document, by id, with its stages."""
        with self._connect() as db:
            stage_rows = db.execute(
                "SELECT doc_id, stage, status, seconds FROM stages").fetchall()
            doc_rows = db.execute(
                "SELECT doc_id, relpath, status, pipeline_version, pages, error, updated "
                "FROM documents ORDER BY doc_id").fetchall()
        stages: dict[str, dict[str, tuple[str, float | None]]] = {}
        for doc_id, stage, status, seconds in stage_rows:
            stages.setdefault(doc_id, {})[stage] = (status, seconds)
        return [DocumentRow(doc_id=doc_id, relpath=relpath, status=status,
                            pipeline_version=version, pages=pages, error=error,
                            updated=updated, stages=stages.get(doc_id, {}))
                for doc_id, relpath, status, version, pages, error, updated in doc_rows]

    def runs(self, limit: int = 5) -> list[tuple[Any, ...]]:
        """The latest runs, newest first: id, trigger, start, end, processed, skipped, failed."""
        with self._connect() as db:
            return db.execute("SELECT * FROM runs ORDER BY run_id DESC LIMIT ?",
                              (limit,)).fetchall()


def is_current(settings: Settings, catalog: Catalog, source: Source) -> bool:
    """True if ``source`` needs no work: the catalog has it done with this content, code
    and settings (:meth:`Settings.output_key`), and its published outputs say the same."""
    row = catalog.document(source.doc_id)
    return (row is not None and row["status"] == "done" and row["sha256"] == source.sha256
            and row["pipeline_version"] == settings.output_key()
            and is_up_to_date(settings, source))
