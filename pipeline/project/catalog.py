"""The run catalog: what was processed, when, how long each stage took, what failed.

A database with four tables:

``runs``       one row per ``gazette run`` (or scheduled run): trigger, start, end, counts
``documents``  one row per document: source path, content hash, build key (the code
               and settings it was made with: :meth:`Settings.output_key`),
               status (``done``/``failed``), error, pages, last run
``stages``     one row per document and stage: status, seconds, error, last run
``working``    one row per document being processed now: its stage, pages read of
               all, and the process working on it (gone when the document is done)

By default it is an embedded SQLite file, ``.gazette/catalog.sqlite``. With
``Settings.catalog_url`` (a SQLAlchemy URL, ``postgresql+psycopg://host/db``) it is a
PostgreSQL database, which processes on several machines can share (SQLite's locking
is not to be trusted over NFS); the project lock is then held in PostgreSQL too
(:func:`database_lock`). One database per project.

``gazette status`` prints it. Whether a document needs work is its published manifest's
to say (:func:`pipeline.project.store.is_up_to_date`), not the catalog's: the catalog is
history and state, not output; deleting it loses that history, nothing else.
"""

from __future__ import annotations

import hashlib
import logging
import os
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from pipeline import progress
from pipeline.config import Settings
from pipeline.errors import BusyError, LockLostError
from pipeline.progress import process_alive
from pipeline.records import DocumentSummary, Source

__all__ = ["Catalog", "DocumentRow", "StageTime", "StageTimes", "WorkingRow", "database_lock"]

log = logging.getLogger(__name__)

_METADATA = MetaData()
_RUNS = Table(
    "runs", _METADATA,
    Column("run_id", Integer, primary_key=True, autoincrement=True),
    Column("trigger", Text, nullable=False),
    Column("started", Text, nullable=False),
    Column("finished", Text),
    Column("processed", Integer), Column("skipped", Integer), Column("failed", Integer),
    sqlite_autoincrement=True,
)
_DOCUMENTS = Table(
    "documents", _METADATA,
    Column("doc_id", Text, primary_key=True),
    Column("relpath", Text, nullable=False),
    Column("sha256", Text, nullable=False),
    Column("build_key", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("error", Text),
    Column("pages", Integer),
    Column("run_id", Integer),
    Column("updated", Text, nullable=False),
)
_STAGES = Table(
    "stages", _METADATA,
    Column("doc_id", Text, primary_key=True),
    Column("stage", Text, primary_key=True),
    Column("status", Text, nullable=False),
    Column("seconds", Float),
    Column("error", Text),
    Column("run_id", Integer),
    Column("updated", Text, nullable=False),
)
_WORKING = Table(
    "working", _METADATA,
    Column("doc_id", Text, primary_key=True),
    Column("run_id", Integer, nullable=False),
    Column("stage", Text, nullable=False),
    Column("done", Integer),
    Column("total", Integer),
    Column("pid", Integer, nullable=False),
    Column("host", Text, nullable=False),
    Column("started", Text, nullable=False),
    Column("updated", Text, nullable=False),
)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def catalog_url(settings: Settings) -> str:
    """The catalog's database: ``Settings.catalog_url``, or the project's SQLite file."""
    return settings.catalog_url or f"sqlite:///{settings.state / 'catalog.sqlite'}"


@cache
def _engine(url: str) -> Engine:
    """One engine (and connection pool) per database and process, its tables made.

    A SQLite catalog is in write-ahead-log mode, so `gazette status` reads while a run
    writes (even one stopped in the middle of a commit) and never waits for it; its
    commits are not flushed to disk one by one (``synchronous=NORMAL``: a crashed
    process loses nothing, a power cut at most the last commits, never the file's
    consistency), as an edition's acts make thousands of small ones.
    """
    is_sqlite = url.startswith("sqlite")
    engine = create_engine(url, connect_args={"timeout": 30} if is_sqlite else {},
                           pool_pre_ping=not is_sqlite)
    if is_sqlite:
        event.listen(engine, "connect", _write_ahead)
    with engine.begin() as db:
        _METADATA.create_all(db)
        _rename_old_columns(db)
    return engine


def _write_ahead(connection: Any, _: Any) -> None:
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")


def _rename_old_columns(db: Connection) -> None:
    """Bring a catalog an older gazette made up to date: ``documents.pipeline_version``
    (which held the build key) is ``build_key``."""
    columns = {column["name"] for column in inspect(db).get_columns("documents")}
    if "pipeline_version" in columns:
        db.execute(text("ALTER TABLE documents RENAME COLUMN pipeline_version TO build_key"))


@dataclass(frozen=True)
class DocumentRow:
    """One document as the catalog knows it, with its stages' status and seconds."""

    doc_id: str
    relpath: str
    status: str
    build_key: str
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
        return process_alive(self.pid, self.host)


@dataclass(frozen=True)
class StageTime:
    """How one stage of one document ended, and how long it took."""

    stage: str
    status: str
    seconds: float
    error: str | None = None


@dataclass
class StageTimes:
    """The stages of a short document (an act of an edition) timed here, to be
    recorded with how the document ended, in one transaction (:meth:`Catalog.record`):
    hundreds of acts would make two commits per stage each with :meth:`Catalog.stage`."""

    times: list[StageTime] = field(default_factory=list)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time stage ``name`` and keep how it ended."""
        started = time.monotonic()
        try:
            yield
        except BaseException as exc:
            self.times.append(StageTime(name, "failed", time.monotonic() - started,
                                        f"{type(exc).__name__}: {exc}"))
            raise
        self.times.append(StageTime(name, "done", time.monotonic() - started))


def _stage_row(run_id: int, doc_id: str, timed: StageTime) -> dict[str, Any]:
    """A ``stages`` row: how one stage of one document ended in run ``run_id``."""
    return {"doc_id": doc_id, "stage": timed.stage, "status": timed.status,
            "seconds": round(timed.seconds, 3), "error": timed.error, "run_id": run_id,
            "updated": _now()}


@cache
def _upsert_statement(postgres: bool, table: Table, columns: tuple[str, ...]) -> Any:
    """INSERT into ``table`` of rows with ``columns``, or UPDATE the row with the same
    key: made once per table and columns (an act's rows are recorded hundreds of times
    a run, and each statement's ``excluded`` columns are new objects)."""
    statement = (postgresql if postgres else sqlite).insert(table)
    keys = [column.name for column in table.primary_key]
    return statement.on_conflict_do_update(index_elements=keys, set_={
        name: statement.excluded[name] for name in columns if name not in keys})


class Catalog:
    """The catalog of one project. Each call takes a connection from the process's
    pool for one transaction, so a catalog can be used from tasks on other threads."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        if settings.catalog_url is None:
            settings.state.mkdir(parents=True, exist_ok=True)
        self.url = catalog_url(settings)

    @contextmanager
    def _connect(self) -> Iterator[Connection]:
        with _engine(self.url).begin() as db:  # commit or roll back
            yield db

    def _upsert(self, db: Connection, table: Table, *rows: dict[str, Any]) -> None:
        """INSERT ``rows`` (each with the same columns), or UPDATE the row with the same
        key."""
        db.execute(_upsert_statement(self.url.startswith("postgresql"), table,
                                     tuple(rows[0])), list(rows))

    def start_run(self, trigger: str) -> int:
        """Record the start of a run; returns its id. What a killed run left listed as
        working is cleared (a run holds the project lock: no other one works now)."""
        with self._connect() as db:
            db.execute(delete(_WORKING))
            result = db.execute(_RUNS.insert().values(trigger=trigger, started=_now())
                                .returning(_RUNS.c.run_id))
            return int(result.scalar_one())

    def finish_run(self, run_id: int, summaries: list[DocumentSummary]) -> None:
        """Record the end of a run and its counts."""
        counts = {status: sum(s.status == status for s in summaries)
                  for status in ("done", "skipped", "failed")}
        with self._connect() as db:
            db.execute(update(_RUNS).where(_RUNS.c.run_id == run_id).values(
                finished=_now(), processed=counts["done"], skipped=counts["skipped"],
                failed=counts["failed"]))

    def record_idle_run(self, trigger: str, summaries: list[DocumentSummary]) -> int:
        """Record a run that found nothing to do (every document skipped); returns its
        id. Idle runs in a row (a schedule ticking over an unchanged inbox) are folded
        into one: the last run, if idle too with the same trigger and count, is moved
        to now rather than a new one recorded."""
        now = _now()
        with self._connect() as db:
            last = db.execute(select(_RUNS).order_by(_RUNS.c.run_id.desc()).limit(1)).first()
            if (last is not None and last.trigger == trigger and last.finished is not None
                    and last.processed == 0 and last.failed == 0
                    and last.skipped == len(summaries)):
                db.execute(update(_RUNS).where(_RUNS.c.run_id == last.run_id).values(
                    started=now, finished=now))
                return int(last.run_id)
        run_id = self.start_run(trigger)
        self.finish_run(run_id, summaries)
        return run_id

    @contextmanager
    def stage(self, run_id: int, doc_id: str, stage: str) -> Iterator[None]:
        """Time one stage of one document and record how it ended; while it works, the
        document is listed as working on it, with the progress the stage reports
        (:mod:`pipeline.progress`)."""
        started = time.monotonic()
        self.working_on(run_id, doc_id, stage)
        try:
            with progress.listening(lambda done, total: self._progress(doc_id, done, total)):
                yield
        except BaseException as exc:
            self._stage(run_id, doc_id, stage, "failed", time.monotonic() - started,
                        f"{type(exc).__name__}: {exc}")
            raise
        self._stage(run_id, doc_id, stage, "done", time.monotonic() - started, None)

    def working_on(self, run_id: int, doc_id: str, stage: str) -> None:
        """List the document as working on ``stage`` (since it started in this run)."""
        with self._connect() as db:
            was = db.execute(select(_WORKING.c.run_id, _WORKING.c.started)
                             .where(_WORKING.c.doc_id == doc_id)).first()
            self._upsert(db, _WORKING, {
                "doc_id": doc_id, "run_id": run_id, "stage": stage, "done": None,
                "total": None, "pid": os.getpid(), "host": socket.gethostname(),
                "started": was.started if was and was.run_id == run_id else _now(),
                "updated": _now()})

    def _progress(self, doc_id: str, done: int, total: int) -> None:
        with self._connect() as db:
            db.execute(update(_WORKING).where(_WORKING.c.doc_id == doc_id).values(
                done=done, total=total, updated=_now()))

    def working(self) -> list[WorkingRow]:
        """The documents being processed now (or left so by a killed run), by start."""
        with self._connect() as db:
            rows = db.execute(select(_WORKING).order_by(_WORKING.c.started,
                                                        _WORKING.c.doc_id)).all()
        return [WorkingRow(*row) for row in rows]

    def _stage(self, run_id: int, doc_id: str, stage: str, status: str, seconds: float,
               error: str | None) -> None:
        with self._connect() as db:
            self._upsert(db, _STAGES, _stage_row(run_id, doc_id,
                                                 StageTime(stage, status, seconds, error)))

    def record(self, run_id: int, source: Source, summary: DocumentSummary,
               stages: Sequence[StageTime] = ()) -> None:
        """Record how a document ended in this run (done or failed, with the reason),
        and the ``stages`` timed for it by a :class:`StageTimes`."""
        with self._connect() as db:
            if stages:
                self._upsert(db, _STAGES, *(_stage_row(run_id, source.doc_id, timed)
                                            for timed in stages))
            db.execute(delete(_WORKING).where(_WORKING.c.doc_id == source.doc_id))
            self._upsert(db, _DOCUMENTS, {
                "doc_id": source.doc_id, "relpath": source.relpath, "sha256": source.sha256,
                "build_key": self.settings.output_key(), "status": summary.status,
                "error": summary.error, "pages": summary.pages, "run_id": run_id,
                "updated": _now()})

    def record_pair(self, run_id: int | None, pair_id: str, relpath: str, sha256: str
                    ) -> None:
        """Record a pair across documents as published (a document whose source is its
        two documents' files, ``relpath``)."""
        with self._connect() as db:
            self._upsert(db, _DOCUMENTS, {
                "doc_id": pair_id, "relpath": relpath, "sha256": sha256,
                "build_key": self.settings.output_key(), "status": "done", "error": None,
                "pages": None, "run_id": run_id, "updated": _now()})

    def forget(self, doc_id: str) -> None:
        """Remove a document's rows (a pair across documents that no longer pairs)."""
        with self._connect() as db:
            for table in (_DOCUMENTS, _STAGES, _WORKING):
                db.execute(delete(table).where(table.c.doc_id == doc_id))

    def document(self, doc_id: str) -> dict[str, Any] | None:
        """The catalog row of one document, or None."""
        with self._connect() as db:
            row = db.execute(select(_DOCUMENTS).where(_DOCUMENTS.c.doc_id == doc_id)).first()
        return dict(row._mapping) if row else None

    def documents(self) -> list[DocumentRow]:
        """Every document, by id, with its stages."""
        with self._connect() as db:
            stage_rows = db.execute(select(_STAGES.c.doc_id, _STAGES.c.stage,
                                           _STAGES.c.status, _STAGES.c.seconds)).all()
            doc_rows = db.execute(select(
                _DOCUMENTS.c.doc_id, _DOCUMENTS.c.relpath, _DOCUMENTS.c.status,
                _DOCUMENTS.c.build_key, _DOCUMENTS.c.pages, _DOCUMENTS.c.error,
                _DOCUMENTS.c.updated).order_by(_DOCUMENTS.c.doc_id)).all()
        stages: dict[str, dict[str, tuple[str, float | None]]] = {}
        for doc_id, stage, status, seconds in stage_rows:
            stages.setdefault(doc_id, {})[stage] = (status, seconds)
        return [DocumentRow(doc_id=doc_id, relpath=relpath, status=status,
                            build_key=build_key, pages=pages, error=error,
                            updated=updated, stages=stages.get(doc_id, {}))
                for doc_id, relpath, status, build_key, pages, error, updated in doc_rows]

    def runs(self, limit: int = 5) -> list[tuple[Any, ...]]:
        """The latest runs, newest first: id, trigger, start, end, processed, skipped, failed."""
        with self._connect() as db:
            rows = db.execute(select(_RUNS).order_by(_RUNS.c.run_id.desc()).limit(limit))
            return [tuple(row) for row in rows]


#: The advisory lock's key: the same number for every process of a project (the
#: project has its own database).
_LOCK_KEY = int.from_bytes(hashlib.sha256(b"gazette project lock").digest()[:8], "big",
                           signed=True)


#: Who holds the project lock: the one advisory lock on ``_LOCK_KEY`` in this database.
#: Other advisory locks on the server (Prefect's own, other projects') are not it.
_HOLDER = text(
    "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
    "WHERE l.locktype = 'advisory' AND l.granted AND l.pid <> pg_backend_pid() "
    "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND l.classid::text::bigint = :high AND l.objid::text::bigint = :low LIMIT 1")


def _lock_key_parts() -> dict[str, int]:
    """``_LOCK_KEY`` as ``pg_locks`` shows a bigint advisory key: two unsigned halves."""
    unsigned = _LOCK_KEY & 0xFFFF_FFFF_FFFF_FFFF
    return {"high": unsigned >> 32, "low": unsigned & 0xFFFF_FFFF}


@contextmanager
def database_lock(settings: Settings, wait: bool = False) -> Iterator[Callable[[], None]]:
    """The project lock held in the catalog's PostgreSQL database (an advisory lock on
    a connection of its own), for processes on several machines: PostgreSQL releases
    it when the holder's connection ends, however its process ends. Without ``wait``, a
    held lock raises :class:`BusyError` naming the holder.

    The connection can end under a run too (PostgreSQL restarted, a network cut), and
    the lock with it. What this gives is a check to make before a write that needs
    the lock: it takes the lock again on a new connection (and logs that it was
    lost), or raises :class:`LockLostError` if another process holds it now or
    PostgreSQL cannot be reached.
    """
    engine = _engine(catalog_url(settings))
    holder = f"gazette (pid {os.getpid()} on {socket.gethostname()})"
    held = [_locked_connection(engine, settings, holder, wait)]

    def check() -> None:
        if _holds_lock(held[0]):
            return
        held[0].invalidate()
        try:
            held[0] = _locked_connection(engine, settings, holder, wait=False)
        except (BusyError, DBAPIError) as exc:
            raise LockLostError(
                f"the project lock was lost (the connection to PostgreSQL ended) and "
                f"cannot be taken again: {exc}", "the run stopped before writing; "
                "run it again once PostgreSQL is back and no other run is going") from exc
        log.warning("the project lock was lost (the connection to PostgreSQL ended) and "
                    "is held again")

    try:
        yield check
    finally:
        try:
            held[0].execute(select(func.pg_advisory_unlock(_LOCK_KEY)))
            held[0].commit()
        except SQLAlchemyError:
            pass  # the connection ended, and the lock with it
        held[0].close()


def _locked_connection(engine: Engine, settings: Settings, holder: str, wait: bool
                       ) -> Connection:
    """A new connection holding the project lock (see :func:`database_lock`)."""
    db = engine.connect()
    try:
        db.execute(text("SELECT set_config('application_name', :name, false)"),
                   {"name": holder})
        if wait:
            db.execute(select(func.pg_advisory_lock(_LOCK_KEY)))
        elif not db.execute(select(func.pg_try_advisory_lock(_LOCK_KEY))).scalar_one():
            other = db.execute(_HOLDER, _lock_key_parts()).scalar()
            raise BusyError(f"{other or 'another process'} is working on "
                            f"{settings.state.parent}", "wait for it to finish, or pass --wait")
        db.commit()
    except BaseException:
        db.close()
        raise
    return db


def _holds_lock(db: Connection) -> bool:
    """Whether ``db`` is still connected and holds the project lock."""
    try:
        held = db.execute(text(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND pid = pg_backend_pid()")).scalar_one()
        db.commit()
    except SQLAlchemyError:
        return False
    return bool(held)
