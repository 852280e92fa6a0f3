"""The temporary Prefect server a command launches where none is configured: the empty
database made at set-up, a new project's copy of it (its first server starts without
migrating a database from nothing), and a server that cannot start."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from flows.server import (
    TemporaryServer,
    database_template,
    make_database_template,
    seed_database,
)
from pipeline.errors import GazetteError


def test_a_new_prefect_home_gets_a_copy_of_the_template_and_only_a_new_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    templates, home = tmp_path / "templates", tmp_path / "project" / ".gazette" / "prefect"
    monkeypatch.delenv("PREFECT_API_DATABASE_CONNECTION_URL", raising=False)
    assert not seed_database(home, templates)  # no template made: Prefect migrates
    assert not (home / "prefect.db").exists()
    template = database_template(templates)
    template.parent.mkdir(parents=True)
    template.write_bytes(b"the template")
    assert seed_database(home, templates)
    assert (home / "prefect.db").read_bytes() == b"the template"
    assert [p.name for p in home.iterdir()] == ["prefect.db"]  # no partial copy left
    (home / "prefect.db").write_bytes(b"the project's runs")
    assert not seed_database(home, templates)  # a database in use is never replaced
    assert (home / "prefect.db").read_bytes() == b"the project's runs"
    monkeypatch.setenv("PREFECT_API_DATABASE_CONNECTION_URL", "postgresql+asyncpg://x/y")
    assert not seed_database(tmp_path / "elsewhere", templates)  # Prefect's DB is not here


@pytest.mark.slow
def test_the_template_is_an_empty_database_migrated_for_the_prefect_installed(
        tmp_path: Path):
    made = make_database_template(tmp_path)
    assert made == database_template(tmp_path) and made.is_file()
    assert [p.name for p in made.parent.iterdir()] == ["prefect.db"]  # its work is gone
    with sqlite3.connect(made) as db:
        (revision,) = db.execute("SELECT version_num FROM alembic_version").fetchone()
        assert revision
        assert db.execute("SELECT count(*) FROM flow_run").fetchone() == (0,)
    before = made.stat().st_mtime_ns
    assert make_database_template(tmp_path) == made and made.stat().st_mtime_ns == before


@pytest.mark.slow
def test_a_temporary_server_that_cannot_start_says_why(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PREFECT_API_DATABASE_CONNECTION_URL",
                       f"sqlite+aiosqlite:///{tmp_path}/no/such/folder/prefect.db")
    server = TemporaryServer(tmp_path / "server.log").launch()
    try:
        with pytest.raises(GazetteError, match=r"exited at start-up: .*unable to open database"):
            server.wait(timeout=120)
    finally:
        server.stop()


@pytest.mark.slow
def test_a_temporary_server_answers_without_registering_block_types(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    home = tmp_path / "home"
    monkeypatch.setenv("PREFECT_HOME", str(home))
    monkeypatch.delenv("PREFECT_API_DATABASE_CONNECTION_URL", raising=False)
    server = TemporaryServer(tmp_path / "server.log").launch()
    try:
        server.wait(timeout=120)
    finally:
        server.stop()
    with sqlite3.connect(home / "prefect.db") as db:
        assert db.execute("SELECT count(*) FROM block_type").fetchone() == (0,)
    assert not (home / "memo_store.toml").exists()


#: A `gazette run` that records what it had imported when it launched the temporary
#: server, and stops there.
_LAUNCH_WATCHED = """
import sys
from flows import server
def launch(self):
    print("imported at launch:", sorted(m for m in ("sqlalchemy", "prefect") if m in sys.modules))
    raise SystemExit(7)
server.TemporaryServer.launch = launch
from gazette_cli.main import main
sys.argv = ["gazette", "run", "--root", sys.argv[1]]
main()
"""


def test_gazette_run_launches_the_temporary_server_before_its_heavy_imports(tmp_path: Path):
    """The server's start (some 7 s of one core) is the longest thing before a run's
    flow starts, so `gazette run` launches it before it imports Prefect or, through
    the project lock and the catalog, SQLAlchemy (0.4 s of the other core)."""
    (tmp_path / "raw").mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    done = subprocess.run([sys.executable, "-c", _LAUNCH_WATCHED, str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 7, done.stdout + done.stderr
    assert "imported at launch: []" in done.stdout
