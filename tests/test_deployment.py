"""A deployment over several machines, on existing engines: PostgreSQL as the Prefect
server's database and as the run catalog, `gazette serve` handing the flow runs to a
work pool, a Prefect worker and Dask workers each in a working directory of its own,
the outputs on the shared project folder — and the same bytes as the default run
(SQLite, one process). This is what the README's deployment section says to do."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SAMPLES
from projects import (
    SAMPLE_INPUTS,
    SampleRun,
    doc_id,
    gazette,
    gazette_env,
    inbox,
    snapshot,
    spawn,
    stop,
    wait_for,
)
from services import DaskCluster, Postgres

from flows.server import LocalServer, free_port
from pipeline.config import Settings
from pipeline.project.catalog import Catalog
from pipeline.project.store import project_lock

pytestmark = pytest.mark.slow


def test_samples_through_a_work_pool_on_postgresql_and_dask_give_the_default_runs_bytes(
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
    settings = Settings.for_root(root)
    machines = tmp_path / "machines"
    try:
        cluster = DaskCluster(2, {**gazette_env(), **api}, machines).start()
        serving = spawn("serve", "--pool", "gazette", "--interval", "10", "--dask",
                        cluster.address, cwd=root, env=api)
        (machines / "prefect-worker").mkdir()
        working = spawn("worker", "--pool", "gazette", "--root", str(root),
                        cwd=machines / "prefect-worker", env=api)
        try:
            def all_done() -> bool:
                for process in (serving, working):
                    assert process.poll() is None, process.communicate()[0]
                rows = Catalog(settings).documents()
                return {r.doc_id for r in rows if r.status == "done"} == {
                    doc_id(name) for name in SAMPLE_INPUTS}

            wait_for(all_done, 600, "the scheduled run on the pool's worker")
            # a re-run through the pool prints the summary the worker's flow returned
            rerun = gazette("rerun", doc_id(SAMPLE_INPUTS[3]), cwd=root, api=api)
            assert rerun.returncode == 0, rerun.stdout + rerun.stderr
            assert "1 processed, 0 unchanged (no stage work), 0 failed" in rerun.stdout
        finally:
            worker_out = stop(working)
            serve_out = stop(serving)
            cluster.stop()
        assert "gazette serve: stopped" in serve_out, serve_out
        assert "Worker 'ProcessWorker" in worker_out and "'scheduled-ingestion'" in worker_out
        assert snapshot(root) == sample_run.outputs(SAMPLE_INPUTS)

        # the catalog is in PostgreSQL, not in the project folder
        assert not (root / ".gazette" / "catalog.sqlite").exists()
        rows = Catalog(settings).documents()
        assert all(set(r.stages) == {"ingest", "repair", "split", "structure", "align",
                                     "export"} for r in rows)
        assert {"schedule", "rerun"} <= {run[1] for run in Catalog(settings).runs(limit=50)}
        status = gazette("status", cwd=root)
        assert all(doc_id(name) in status.stdout for name in SAMPLE_INPUTS)

        # and so is the project lock: held here, it turns another run away
        with project_lock(settings):
            busy = gazette("run", cwd=root, api=api)
        assert busy.returncode == 3, busy.stdout + busy.stderr
        assert "gazette (pid" in busy.stdout and "is working on" in busy.stdout
    finally:
        server.stop()
