"""A deployment over several machines, on existing engines: PostgreSQL as the Prefect
server's database and as the run catalog, a Dask scheduler with worker processes in
working directories of their own, the outputs on the shared project folder — and the
same bytes as the default run (SQLite, one process)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SAMPLES
from projects import SAMPLE_INPUTS, SampleRun, doc_id, gazette, gazette_env, inbox, snapshot
from services import DaskCluster, Postgres

from flows.server import LocalServer, free_port
from pipeline.catalog import Catalog
from pipeline.config import Settings
from pipeline.store import project_lock

pytestmark = pytest.mark.slow


def test_samples_on_postgresql_and_a_dask_cluster_give_the_default_runs_bytes(
        tmp_path: Path, sample_run: SampleRun, postgres: Postgres,
        monkeypatch: pytest.MonkeyPatch):
    postgres.create_database("prefect")
    postgres.create_database("deployment")
    root = inbox(tmp_path / "shared-project", SAMPLE_INPUTS, SAMPLES)
    (root / "gazette.toml").write_text(f'catalog_url = "{postgres.url("deployment")}"\n',
                                       encoding="utf-8")
    # Prefect's server keeps its database in PostgreSQL
    for key, value in {"PREFECT_HOME": str(tmp_path / "prefect-home"),
                       "PREFECT_API_DATABASE_CONNECTION_URL": postgres.url("prefect", "asyncpg"),
                       "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}.items():
        monkeypatch.setenv(key, value)
    server = LocalServer(free_port(), tmp_path / "prefect-server.log").start()
    api = {"PREFECT_API_URL": server.api_url}
    try:
        cluster = DaskCluster(2, {**gazette_env(), **api}, tmp_path / "machines").start()
        try:
            result = gazette("run", "--dask", cluster.address, cwd=root, api=api)
        finally:
            cluster.stop()
        assert result.returncode == 0, result.stdout + result.stderr
        assert "4 processed, 0 unchanged (no stage work), 0 failed" in result.stdout
        assert snapshot(root) == sample_run.outputs(SAMPLE_INPUTS)

        # the catalog is in PostgreSQL, not in the project folder
        assert not (root / ".gazette" / "catalog.sqlite").exists()
        settings = Settings.for_root(root)
        rows = Catalog(settings).documents()
        assert {(r.doc_id, r.status) for r in rows} == {
            (doc_id(name), "done") for name in SAMPLE_INPUTS}
        assert all(set(r.stages) == {"ingest", "repair", "split", "structure", "align",
                                     "export"} for r in rows)
        status = gazette("status", cwd=root)
        assert all(doc_id(name) in status.stdout for name in SAMPLE_INPUTS)

        # and so is the project lock: held here, it turns another run away
        with project_lock(settings):
            busy = gazette("run", cwd=root, api=api)
        assert busy.returncode == 3, busy.stdout + busy.stderr
        assert "gazette (pid" in busy.stdout and "is working on" in busy.stdout
    finally:
        server.stop()
