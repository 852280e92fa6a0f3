"""Operations for real: a Prefect server, `gazette serve` with a schedule, re-run and
export deployments, `gazette status`, and documents fanned out to a Dask cluster."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import threading
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import SAMPLES
from projects import (
    GAZETTE,
    SampleRun,
    at_work,
    chromium,
    doc_id,
    gazette,
    gazette_env,
    inbox,
    snapshot,
    spawn,
    stop,
    wait_for,
)
from services import DaskCluster

from flows.server import free_port
from flows.serving import _interrupts_deferred
from pipeline.config import Settings
from pipeline.project.catalog import Catalog

pytestmark = pytest.mark.slow
PDF = "textlayer_protocol_brazil_sweden_pt_en.pdf"
DOC = "textlayer_protocol_brazil_sweden_pt_en"


def test_a_dropped_file_is_processed_on_schedule_then_rerun_and_exported(
        tmp_path: Path, prefect_api: dict[str, str]):
    (tmp_path / "raw").mkdir()
    settings = Settings.for_root(tmp_path)
    serving = spawn("serve", "--interval", "5", cwd=tmp_path, env=prefect_api)
    try:
        def ran_on_schedule() -> bool:
            assert serving.poll() is None, serving.communicate()[0]
            return "schedule" in {run[1] for run in Catalog(settings).runs(limit=50)}

        wait_for(ran_on_schedule, 150, "a first scheduled run, on the empty inbox")
        [(_, _, first, *_)] = Catalog(settings).runs(limit=50)

        def ticked_again() -> bool:  # an idle tick moves the idle run to its time
            return Catalog(settings).runs(limit=50)[0][2] != first

        wait_for(ticked_again, 60, "a second tick on the empty inbox")
        # idle ticks are looked at by serve itself: one catalog run, no flow run
        assert len(Catalog(settings).runs(limit=50)) == 1
        assert not our_runs(prefect_api, tmp_path)
        shutil.copy(SAMPLES / PDF, tmp_path / "raw" / PDF)  # a new decree lands

        def processed() -> bool:
            row = Catalog(settings).document(DOC)
            return row is not None and row["status"] == "done"

        wait_for(processed, 300, "the scheduled run to process the new file")
        assert (tmp_path / "aligned" / DOC / f"{DOC}.en-pt.tmx").is_file()
        assert "schedule" in {run[1] for run in Catalog(settings).runs(limit=50)}

        # the other commands find the server in .gazette/server.json: no PREFECT_API_URL
        found = "Prefect: the server of `gazette serve` (pid"
        again = gazette("serve", cwd=tmp_path)
        assert again.returncode == 3 and "`gazette serve` runs for" in again.stdout
        run = gazette("run", cwd=tmp_path)
        assert found in run.stdout and "temporary server" not in run.stdout + run.stderr
        assert "0 processed, 1 unchanged" in run.stdout, run.stdout + run.stderr

        rerun = gazette("rerun", DOC, cwd=tmp_path)
        assert rerun.returncode == 0, rerun.stdout + rerun.stderr
        assert found in rerun.stdout and "rerun-decree/rerun-" in rerun.stdout
        assert "1 processed, 0 unchanged" in rerun.stdout  # the summary of a local run
        assert "rerun" in {run[1] for run in Catalog(settings).runs(limit=50)}

        export = gazette("export", "--lang", "pt", cwd=tmp_path)
        assert export.returncode == 0, export.stdout + export.stderr
        assert "export-corpus/export-" in export.stdout
        assert "1 document(s) read; left out: " in export.stdout
        assert "unit(s) exported to" in export.stdout
        assert (tmp_path / "aligned" / "_corpus" / "corpus.en-pt.tmx").is_file()

        status = gazette("status", cwd=tmp_path)
        assert DOC[:20] in status.stdout and "(schedule)" in status.stdout
    finally:
        out = stop(serving)
    assert serving.returncode == 0, out
    assert "gazette serve: stopped" in out
    assert not (tmp_path / ".gazette" / "server.json").exists()  # the note goes with it


def test_a_schedule_faster_than_its_runs_never_runs_two_at_once(
        tmp_path: Path, prefect_api: dict[str, str]):
    scan = "scan_protocol_brazil_japan_1978_en.pdf"
    root = inbox(tmp_path, [scan], SAMPLES)
    settings = Settings.for_root(root)
    seen: list[str] = []
    working: dict[str, list[str]] = {}
    failure = ""
    serving = spawn("serve", "--interval", "1", cwd=root, env=prefect_api)
    try:
        def at_work_on_the_scan() -> bool:
            assert serving.poll() is None, serving.communicate()[0]
            working.update(at_work(root, seen))
            return doc_id(scan) in working

        wait_for(at_work_on_the_scan, 300, "gazette status to show the scheduled run")
        _, stage, pages, _, process = working[doc_id(scan)]
        assert stage in {"ingest", "repair", "split", "structure", "align", "export"}, seen[-1]
        assert process.startswith("pid ") and pages in {"", *(f"{n} of 3" for n in range(4))}, \
            seen[-1]

        def processed() -> bool:
            row = Catalog(settings).document(doc_id(scan))
            return row is not None and row["status"] == "done"

        wait_for(processed, 300, "the scheduled run to process the scan")
    except AssertionError as exc:
        failure = str(exc)
    finally:
        out = stop(serving)
    runs = our_runs(prefect_api, root)
    assert not failure and "gazette serve: stopped" in out, (
        f"{failure}\nruns: {[(r['state_name'], r['state']['message']) for r in runs]}\n"
        f"serve said: {out[-6000:]}")

    # ticks came every second while the run worked for many: they started no other run
    # (none for the server to cancel; a run still finishing when serve stopped is
    # cancelled by serve), and no two runs ever overlapped
    assert all(run["state_name"] == "Completed" or run["state"]["message"]
               == "gazette serve stopped" for run in runs), \
        [(run["state_name"], run["state"]["message"]) for run in runs]
    ran = sorted((when(run["start_time"]), when(run["end_time"] or "9999-12-31T00:00Z"))
                 for run in runs if run["start_time"])
    assert ran and all(end <= next_start
                       for (_, end), (next_start, _) in itertools.pairwise(ran)), ran


def when(timestamp: str) -> datetime:
    return datetime.fromisoformat(timestamp)


def our_runs(prefect_api: dict[str, str], root: Path) -> list[dict[str, Any]]:
    """The flow runs of the deployments of the project in ``root``."""
    return [run for run in flow_runs(prefect_api["PREFECT_API_URL"])
            if run["deployment_id"] and run["parameters"].get("root") == str(root)]


def flow_runs(api_url: str) -> list[dict[str, Any]]:
    """The Prefect server's flow runs (the 200 last started), as its REST API gives them."""
    request = urllib.request.Request(
        f"{api_url}/flow_runs/filter", method="POST",
        data=json.dumps({"limit": 200, "sort": "START_TIME_DESC"}).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return list(json.loads(answer.read()))


def test_a_worker_without_a_server_says_how_to_get_one(tmp_path: Path):
    result = gazette("worker", "--pool", "gazette", cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "no Prefect server for" in result.stdout
    assert "gazette serve --pool gazette" in result.stdout


def test_serve_starts_a_local_server_and_ctrl_c_stops_it(tmp_path: Path):
    (tmp_path / "raw").mkdir()
    port = free_port()
    serving = spawn("serve", "--port", str(port), cwd=tmp_path, env={})
    health = f"http://127.0.0.1:{port}/api/health"

    def up() -> bool:
        assert serving.poll() is None, serving.communicate()[0]
        try:
            with urllib.request.urlopen(health, timeout=2):
                return True
        except OSError:
            return False

    wait_for(up, 150, "the local Prefect server")
    out = stop(serving)
    assert serving.returncode == 0, out
    assert "Error" not in out and "Traceback" not in out  # an orderly shutdown, quietly
    assert f"starting a Prefect server on http://127.0.0.1:{port}" in " ".join(out.split())
    assert "gazette serve: stopped" in out
    with pytest.raises(OSError):
        urllib.request.urlopen(health, timeout=2)



def test_a_ctrl_c_while_prefect_is_imported_lands_after_the_import():
    # the signal as the process gets it: any of its threads may take it (gazette serve
    # has a second thread, started before the import, at that point)
    send = threading.Event()
    sender = threading.Thread(target=lambda: send.wait() and os.kill(os.getpid(), signal.SIGINT))
    sender.start()
    finished, handler = False, signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt), _interrupts_deferred():
        send.set()
        sender.join()
        for _ in range(100):  # Python runs a handler at a loop's jump back
            pass
        finished = True
    assert finished
    assert signal.getsignal(signal.SIGINT) is handler


def test_documents_fan_out_to_a_dask_local_cluster(
        tmp_path: Path, sample_run: SampleRun, prefect_api: dict[str, str]):
    # one short document: PDFs on Dask workers are tested with a cluster of separate
    # processes in test_deployment
    inputs = ("004_5572047d3d386aa9.txt",)
    root = inbox(tmp_path, inputs, SAMPLES)
    dask = gazette("run", "--dask", "local", cwd=root, api=prefect_api)
    assert dask.returncode == 0, dask.stdout + dask.stderr
    assert "LocalCluster" in dask.stdout + dask.stderr
    assert "1 processed" in dask.stdout
    # the same bytes as the sample project's run in one process
    assert snapshot(root) == sample_run.outputs(inputs)


@pytest.mark.slow
def test_the_prefect_ui_of_a_server_on_another_port_calls_that_port(
        prefect_api: dict[str, str]):
    """A server started by gazette on any port tells its UI where its API is (left to
    itself, Prefect's UI calls port 4200 and shows 'Can't connect to Server API')."""
    api = prefect_api["PREFECT_API_URL"]
    with urllib.request.urlopen(api.removesuffix("/api") + "/ui-settings", timeout=10) as r:
        settings = json.loads(r.read())
    assert settings["api_url"] == api and not api.endswith(":4200/api")


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Chromium (Debian chromium) missing")
def test_the_prefect_ui_on_another_port_shows_the_runs_and_the_run_report_in_chromium(
        tmp_path: Path, prefect_api: dict[str, str]):
    """The UI of the session's server (on a free port, not 4200) in a browser: the runs
    page lists a gazette run, and the run's report artifact renders its table."""
    from playwright.sync_api import sync_playwright
    from prefect import get_client
    from prefect.client.schemas.filters import (
        ArtifactFilter,
        ArtifactFilterFlowRunId,
        FlowRunFilter,
        FlowRunFilterName,
    )
    from prefect.settings import PREFECT_API_URL, temporary_settings

    root = inbox(tmp_path, ["001_92f44dad33fafe9c.txt"], SAMPLES)
    run = gazette("run", cwd=root, api=prefect_api)
    assert run.returncode == 0, run.stdout + run.stderr
    name = re.search(r"Beginning flow run '([^']+)'", run.stdout + run.stderr).group(1)
    ui = prefect_api["PREFECT_API_URL"].removesuffix("/api")
    with sync_playwright() as playwright:
        browser = chromium(playwright)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{ui}/runs")
            page.get_by_text(name).first.wait_for(timeout=120_000)  # from the API it calls
            assert "Can't connect" not in page.inner_text("body")
            # this run's report (other tests' runs on the server have theirs)
            with temporary_settings({PREFECT_API_URL: prefect_api["PREFECT_API_URL"]}), \
                    get_client(sync_client=True) as client:
                [flow_run] = client.read_flow_runs(
                    flow_run_filter=FlowRunFilter(name=FlowRunFilterName(any_=[name])))
                [report] = client.read_artifacts(artifact_filter=ArtifactFilter(
                    flow_run_id=ArtifactFilterFlowRunId(any_=[flow_run.id])))
            page.goto(f"{ui}/artifacts/artifact/{report.id}")
            page.get_by_text("001_92f44dad33fafe9c").first.wait_for(timeout=120_000)
            page.screenshot(path=str(tmp_path / "artifact.png"))
        finally:
            browser.close()


def test_a_run_a_stopped_worker_left_pending_is_cancelled(
        tmp_path: Path, prefect_api: dict[str, str]):
    """A worker stopped while it starts a scheduled run leaves the run pending for good,
    holding the ingestion's one-run slot: `gazette serve --pool` cancels such a run once
    it has been pending longer than a worker takes to start one, and not before."""
    from prefect import get_client
    from prefect.client.schemas.objects import StateType
    from prefect.settings import PREFECT_API_URL, temporary_settings
    from prefect.states import Pending

    from flows.deployments import (
        cancel_orphans,
        deploy_to_pool,
        deployment_names,
        deployments,
    )

    (tmp_path / "raw").mkdir()
    with temporary_settings({PREFECT_API_URL: prefect_api["PREFECT_API_URL"]}):
        deploy_to_pool(deployments(tmp_path, "every 3600 s", pool=True), "orphans")
        with get_client(sync_client=True) as client:
            ingest = client.read_deployment_by_name(deployment_names(tmp_path)["ingest"])
            run = client.create_flow_run_from_deployment(ingest.id)
            client.set_flow_run_state(run.id, Pending(), force=True)  # as a worker does
        assert cancel_orphans(tmp_path) == []  # a worker may still be starting it
        assert cancel_orphans(tmp_path, after=0) == [run.name]
        with get_client(sync_client=True) as client:
            state = client.read_flow_run(run.id).state
            assert state is not None and state.type == StateType.CANCELLED
            assert "left pending" in (state.message or "")


def test_a_dask_worker_killed_mid_ocr_leaves_no_task_run_running(
        tmp_path: Path, sample_run: SampleRun, prefect_api: dict[str, str]):
    """A Dask worker killed while it OCRs a scan: Dask reads the document again on the
    other worker, the run ends with the outputs of a plain run, and the task runs of the
    lost attempt end Crashed with the reason (Prefect would show them Running for ever)."""
    from prefect import get_client
    from prefect.client.schemas.filters import (
        FlowRunFilter,
        FlowRunFilterId,
        FlowRunFilterName,
        FlowRunFilterState,
        FlowRunFilterStateType,
    )
    from prefect.client.schemas.objects import StateType
    from prefect.settings import PREFECT_API_URL, temporary_settings

    from flows.lost_tasks import LOST

    scan = "scan_protocol_brazil_japan_1978_en.pdf"
    root = inbox(tmp_path / "project", [scan], SAMPLES)
    settings = Settings.for_root(root)
    cluster = DaskCluster(2, {**gazette_env(), **prefect_api}, tmp_path / "machines").start()
    try:
        run = subprocess.Popen([str(GAZETTE), "run", "--dask", cluster.address], cwd=root,
                               env={**gazette_env(), **prefect_api}, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
        def reading_pages() -> bool:
            """Prefect has the scan's read-pages task run as running: its worker is then
            killed (the lost attempt's task run is on the server, left running)."""
            assert run.poll() is None, run.communicate()[0]
            rows = [row for row in Catalog(settings).working() if row.stage == "ingest"
                    and (row.done is None or row.total is None or row.done < row.total)]
            if not rows:
                return False
            with temporary_settings({PREFECT_API_URL: prefect_api["PREFECT_API_URL"]}), \
                    get_client(sync_client=True) as client:
                ours = [r.id for r in client.read_flow_runs(flow_run_filter=FlowRunFilter(
                    state=FlowRunFilterState(type=FlowRunFilterStateType(any_=[
                        StateType.RUNNING]))))
                        if str(r.parameters.get("root")) == str(root.resolve())]
                reading = [t for t in client.read_task_runs(flow_run_filter=FlowRunFilter(
                    id=FlowRunFilterId(any_=ours))) if ours and t.name.startswith(
                    "read-pages") and t.state is not None and t.state.type == StateType.RUNNING]
            if not reading:
                return False
            os.kill(rows[0].pid, signal.SIGKILL)
            return True

        wait_for(reading_pages, 300, "the scan's pages read on a Dask worker")
        out, _ = run.communicate(timeout=600)
    finally:
        cluster.stop()
    assert run.returncode == 0, out
    assert snapshot(root) == sample_run.outputs([scan])
    name = re.search(r"Beginning flow run '([^']+)'", out).group(1)
    with temporary_settings({PREFECT_API_URL: prefect_api["PREFECT_API_URL"]}), get_client(
            sync_client=True) as client:
        [flow_run] = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(name=FlowRunFilterName(any_=[name])))
        states = [(t.name, t.state.type.value, t.state.message)
                  for t in client.read_task_runs(flow_run_filter=FlowRunFilter(
                      id={"any_": [flow_run.id]}))
                  if t.state is not None]
    assert not [s for s in states if s[1] in ("RUNNING", "PENDING")], states
    crashed = [s for s in states if s[1] == "CRASHED"]
    assert crashed and all(message == LOST for _, _, message in crashed), states
    assert f"ended Crashed: {LOST}" in " ".join(out.split())


def test_a_worker_stopped_while_it_starts_a_run_cancels_that_run(
        tmp_path: Path, prefect_api: dict[str, str]):
    """`gazette worker` stopped with a run of its project pending (as it is while a
    worker starts it, before its process runs): the run is cancelled as the worker
    stops, so the next tick of the schedule is not refused."""
    from prefect import get_client
    from prefect.client.schemas.objects import StateType
    from prefect.settings import PREFECT_API_URL, temporary_settings
    from prefect.states import Pending

    from flows.deployments import deploy_to_pool, deployment_names, deployments

    (tmp_path / "raw").mkdir()
    with temporary_settings({PREFECT_API_URL: prefect_api["PREFECT_API_URL"]}):
        deploy_to_pool(deployments(tmp_path, "every 3600 s", pool=True), "stopping")
        working = spawn("worker", "--pool", "stopping", "--root", str(tmp_path),
                        cwd=tmp_path, env=prefect_api)
        try:
            with get_client(sync_client=True) as client:
                wait_for(lambda: client.read_workers_for_work_pool("stopping"), 120,
                         "the worker polling its pool")
                ingest = client.read_deployment_by_name(deployment_names(tmp_path)["ingest"])
                run = client.create_flow_run_from_deployment(ingest.id, state=Pending())
        finally:
            out = stop(working)
        with get_client(sync_client=True) as client:
            state = client.read_flow_run(run.id).state
    assert state is not None and state.type == StateType.CANCELLED, (state, out)
    assert "left pending" in (state.message or "")
    assert f"flow run {run.name} cancelled (left pending as the worker stopped)" in " ".join(
        out.split()), out
