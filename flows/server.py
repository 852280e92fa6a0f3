"""A local Prefect server for `gazette serve`, started when none is configured, and
the note that tells the project's other commands where it listens.

Schedules need a real server: with Prefect's ephemeral one, ``serve()`` logs "Cannot
schedule flows on an ephemeral server" and nothing fires. The server keeps its SQLite
database under ``PREFECT_HOME`` (``.gazette/prefect``).

While `gazette serve` runs, ``.gazette/server.json`` says which API it uses
(:func:`announce`); `gazette run`, `rerun`, `export` find it there
(:func:`resident_api`) and pay no server start. A note left by a serve that died is
recognised (its process is gone, or its API does not answer) and ignored.

Without one, `gazette run` and `rerun` launch a temporary server
(:class:`TemporaryServer`) before they import Prefect. Its first start in a new
project would migrate an empty database from nothing (6–7 s on 2 cores): set-up makes
that database once for the Prefect installed (:func:`make_database_template`), and a
new project's Prefect home gets a copy (:func:`seed_database`).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import asdict, dataclass
from importlib.metadata import version
from pathlib import Path

from pipeline.config import PREFECT_TEMPLATES
from pipeline.errors import GazetteError
from pipeline.progress import process_alive

__all__ = ["LocalServer", "ServerNote", "TemporaryServer", "announce", "answers",
           "database_template", "flush_to_api", "free_port", "make_database_template",
           "resident_api", "seed_database", "withdraw"]

#: The note `gazette serve` leaves in the project's state folder.
NOTE = "server.json"


def free_port() -> int:
    """A TCP port on the loopback interface that nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _prefect_command() -> str:
    """The ``prefect`` command beside this Python (the project's environment)."""
    return shutil.which("prefect", path=str(Path(sys.executable).parent)) or "prefect"


def database_template(templates: Path = PREFECT_TEMPLATES) -> Path:
    """Where the empty database for the Prefect installed is kept:
    ``<templates>/<Prefect's version>/prefect.db``."""
    return templates / version("prefect") / "prefect.db"


def make_database_template(templates: Path = PREFECT_TEMPLATES) -> Path:
    """Make the empty, migrated database for the Prefect installed, unless it is there:
    ``prefect server database upgrade`` on a Prefect home of its own, in a child
    process, then the database copied whole (SQLite's backup, so nothing stays in its
    write-ahead log) and put in place at once."""
    target = database_template(templates)
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as home:
        env = {key: value for key, value in os.environ.items()
               if key not in ("PREFECT_API_URL", "PREFECT_API_DATABASE_CONNECTION_URL")}
        env.update(PREFECT_HOME=home, PREFECT_SERVER_ANALYTICS_ENABLED="false",
                   DO_NOT_TRACK="1")
        done = subprocess.run([_prefect_command(), "server", "database", "upgrade", "-y"],
                              env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise GazetteError(f"migrating an empty Prefect database failed: "
                               f"{(done.stderr or done.stdout).strip()[-2000:]}")
        partial = Path(home) / "template.db"
        with sqlite3.connect(Path(home) / "prefect.db") as source, \
                sqlite3.connect(partial) as copy:
            source.backup(copy)
        partial.replace(target)
    return target


def seed_database(home: Path, templates: Path = PREFECT_TEMPLATES) -> bool:
    """Give the Prefect home ``home`` a copy of the empty database made at set-up
    (:func:`make_database_template`) if it has no database yet and Prefect keeps it
    there (no other database is configured); True if it did. Without a template for
    the Prefect installed, Prefect migrates a new database as it always does."""
    database = home / "prefect.db"
    template = database_template(templates)
    if (database.exists() or not template.is_file()
            or os.environ.get("PREFECT_API_DATABASE_CONNECTION_URL")):
        return False
    home.mkdir(parents=True, exist_ok=True)
    partial = home / f".prefect.db.{os.getpid()}"
    shutil.copyfile(template, partial)
    try:  # never over a database another process has put there since
        os.link(partial, database)
    except FileExistsError:
        return False
    finally:
        partial.unlink()
    return True


class LocalServer:
    """``prefect server start`` on 127.0.0.1, as a child process."""

    def __init__(self, port: int, log: Path) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.api_url = f"{self.url}/api"
        self._log = log
        self._process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120.0) -> LocalServer:
        """Start the server and wait until ``/api/health`` answers. Its UI is told where
        its API is (``PREFECT_SERVER_UI_API_URL``, unless set already): left to itself
        it calls port 4200, whatever port it serves on."""
        self._log.parent.mkdir(parents=True, exist_ok=True)
        env = {"PREFECT_SERVER_UI_API_URL": self.api_url, **os.environ}
        with self._log.open("ab") as log:
            self._process = subprocess.Popen(
                [_prefect_command(), "server", "start", "--host", "127.0.0.1", "--port",
                 str(self.port)],
                stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise GazetteError(f"the Prefect server exited at start-up (see {self._log})")
            if answers(self.api_url):
                return self
            time.sleep(0.5)
        self.stop()
        raise GazetteError(f"the Prefect server did not answer within {timeout:.0f} s "
                           f"(see {self._log})")

    def stop(self) -> None:
        """Stop the server and its workers (SIGTERM to its process group, then SIGKILL),
        after this process has sent what it still holds for the API and stopped
        sending (else Prefect prints "Error logging to API" as the process exits)."""
        if self._process is None or self._process.poll() is not None:
            return
        flush_to_api(stop=True)
        os.killpg(self._process.pid, signal.SIGTERM)
        try:
            self._process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait()


class TemporaryServer:
    """Prefect's API for one command, as Prefect's ephemeral mode serves it (uvicorn on
    Prefect's app factory, without the UI and with only the services an ephemeral
    server runs), but launched by gazette before it imports Prefect, so that the two
    start side by side: Prefect's own start comes after this process has imported
    the flows and Prefect's server code (6 s on 2 cores) and then takes 8–10 s, while
    a core idles. Its output goes to ``log``; :meth:`stop` ends it.

    It registers no block types at start: a run stores nothing in blocks, and to find
    whether its registry changed Prefect imports every installed collection
    (``prefect_dask`` brings Dask's ``distributed``) and registers 54 block types in a
    new project's database: 2.5 of the 8 s of CPU it took to answer. A resident
    server (`gazette serve`) registers them as Prefect always does."""

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.api_url = f"http://127.0.0.1:{self.port}/api"
        self._log = log
        self._process: subprocess.Popen[bytes] | None = None

    def launch(self) -> TemporaryServer:
        """Start the server's process and return at once (:meth:`wait` for it)."""
        self._log.parent.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_EPHEMERAL": "1",
               "PREFECT__SERVER_FINAL": "1", "PREFECT_SERVER_REGISTER_BLOCKS_ON_START": "false",
               # else the memo's check imports every collection all the same
               "PREFECT_SERVER_MEMOIZE_BLOCK_AUTO_REGISTRATION": "false"}
        with self._log.open("wb") as log:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "--factory",
                 "prefect.server.api.server:create_app", "--host", "127.0.0.1", "--port",
                 str(self.port), "--log-level", "error", "--lifespan", "on"],
                stdout=log, stderr=subprocess.STDOUT, env=env)
        return self

    def wait(self, timeout: float = 120.0) -> None:
        """Wait until the API answers; a clear error with the server's last words if it
        exits or does not answer in time."""
        deadline = time.monotonic() + timeout
        while not answers(self.api_url, timeout=1.0):
            if self._process is None or self._process.poll() is not None:
                raise GazetteError(f"Prefect's temporary server exited at start-up: "
                                   f"{self._last_words()}")
            if time.monotonic() > deadline:
                self.stop()
                raise GazetteError(f"Prefect's temporary server did not answer within "
                                   f"{timeout:.0f} s: {self._last_words()}")
            time.sleep(0.1)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 5 s)."""
        if self._process is None or self._process.poll() is not None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def _last_words(self) -> str:
        """The last lines the server wrote (where a traceback says what failed)."""
        lines = [line for line in self._log.read_text(encoding="utf-8", errors="replace")
                 .splitlines() if line.strip()]
        return " / ".join(lines[-4:])[-1500:] + f" (see {self._log})"


def flush_to_api(stop: bool = False) -> None:
    """Send the logs and events this process's Prefect holds for the API now, while the
    server still listens (a temporary server stops as the process exits, and events
    still queued then end in "Error flushing events" tracebacks); with ``stop``, send no
    more logs after."""
    import logging

    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogHandler, APILogWorker

    APILogWorker.drain_all(timeout=5)
    EventsWorker.drain_all(timeout=5)
    if not stop:
        return
    loggers = [logging.getLogger(), *(logger for logger in logging.Logger.manager.loggerDict
                                      .values() if isinstance(logger, logging.Logger))]
    for logger in loggers:
        for handler in [h for h in logger.handlers if isinstance(h, APILogHandler)]:
            logger.removeHandler(handler)


def answers(api_url: str, timeout: float = 2.0) -> bool:
    """True if a Prefect API answers its health check at ``api_url``."""
    try:
        with urllib.request.urlopen(f"{api_url}/health", timeout=timeout) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


@dataclass(frozen=True)
class ServerNote:
    """Where a running `gazette serve` of a project sends its flow runs."""

    api_url: str
    pid: int
    host: str

    def alive(self) -> bool:
        """The serve that wrote the note still runs (as far as this machine can tell)
        and its API answers."""
        return process_alive(self.pid, self.host) is not False and answers(self.api_url)


def announce(state: Path, api_url: str) -> ServerNote:
    """Leave the note for this process serving on ``api_url`` (written whole, atomically)."""
    note = ServerNote(api_url, os.getpid(), socket.gethostname())
    state.mkdir(parents=True, exist_ok=True)
    partial = state / f".{NOTE}.{os.getpid()}"
    partial.write_text(json.dumps(asdict(note)) + "\n", encoding="utf-8")
    partial.replace(state / NOTE)
    return note


def withdraw(state: Path) -> None:
    """Remove this process's note (a note another serve wrote since is left alone)."""
    note = _read_note(state)
    if note is not None and note.pid == os.getpid() and note.host == socket.gethostname():
        (state / NOTE).unlink(missing_ok=True)


def resident_api(state: Path) -> ServerNote | None:
    """The note of a live `gazette serve` of this project, or None."""
    note = _read_note(state)
    return note if note is not None and note.alive() else None


def _read_note(state: Path) -> ServerNote | None:
    try:
        data = json.loads((state / NOTE).read_text(encoding="utf-8"))
        return ServerNote(str(data["api_url"]), int(data["pid"]), str(data["host"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
