"""The empty Prefect database made at set-up, and a new project's copy of it: the first
temporary server of a new project starts without migrating a database from nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from flows.server import database_template, make_database_template, seed_database


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
