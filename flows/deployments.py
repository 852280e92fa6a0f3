"""The deployments `gazette serve` serves: scheduled ingestion, re-run of one decree, export.

Each is a thin flow around the library. All three take the project lock and wait for
it, so a scheduled run never overlaps a manual one on the same folder. The re-run and
export flows keep their results (in the project's Prefect home), so the command that
triggered them prints the same summary as a local run.

`gazette serve` runs the flows in processes of its own; with ``--pool`` it leaves them
to the Prefect workers of a process work pool (:func:`deploy_to_pool`), started by
`gazette worker` on any machine that sees the project folder and has gazette
installed: the deployments name their flows by module path, so a worker needs no copy
of the code, and they tell the flow-run processes where the project's results live.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

from prefect import Flow, deploy, flow, get_client, get_run_logger
from prefect.artifacts import create_markdown_artifact
from prefect.client.schemas.actions import WorkPoolCreate
from prefect.client.schemas.filters import (
    FlowRunFilter,
    FlowRunFilterDeploymentId,
    FlowRunFilterState,
    FlowRunFilterStateType,
)
from prefect.client.schemas.objects import (
    ConcurrencyLimitConfig,
    ConcurrencyLimitStrategy,
    FlowRun,
    StateType,
)
from prefect.deployments.runner import RunnerDeployment
from prefect.exceptions import ObjectAlreadyExists, ObjectNotFound
from prefect.states import Cancelled
from prefect.types.entrypoint import EntrypointType
from prefect.workers.process import ProcessWorker

from flows.run import gazette_run_on
from pipeline.config import EXPORT_FORMATS, Settings
from pipeline.export import Selection
from pipeline.export.corpus import export_corpus
from pipeline.project.store import project_lock
from pipeline.records import CorpusExport, DocumentSummary
from pipeline.run.plan import unchanged_run

__all__ = [
    "ORPHAN_SECONDS",
    "cancel_orphans",
    "cancel_unfinished",
    "cancel_unstarted",
    "deploy_to_pool",
    "deployment_names",
    "deployments",
    "export_flow",
    "pause",
    "rerun_flow",
    "scheduled_ingestion",
    "start_ingestion",
]

@flow(name="scheduled-ingestion", persist_result=False)
def scheduled_ingestion(root: Path, dask: str | None = None) -> list[DocumentSummary]:
    """Process the new and changed documents of ``root/raw`` (what the schedule runs),
    on the Dask scheduler at ``dask`` if given. A tick that finds nothing new runs no
    main flow and publishes no report (:func:`pipeline.run.plan.unchanged_run`)."""
    settings = Settings.for_root(root)
    with project_lock(settings, wait=True):
        idle = unchanged_run(settings, trigger="schedule")
        if idle is not None:
            get_run_logger().info("nothing new in %s: %d document(s) unchanged",
                                  settings.raw, len(idle))
            return idle
        return list(gazette_run_on(dask)(root, trigger="schedule"))


@flow(name="rerun-decree", persist_result=True)
def rerun_flow(root: Path, doc: str) -> list[DocumentSummary]:
    """Redo every stage of one document (its id, or its path relative to ``raw/``)."""
    with project_lock(Settings.for_root(root), wait=True):
        return list(gazette_run_on(None)(root, force=True, only=[doc], trigger="rerun"))


@flow(name="export-corpus", persist_result=True)
def export_flow(
    root: Path, formats: list[str] | None = None, languages: list[str] | None = None,
    documents: list[str] | None = None, min_confidence: float = 0.0,
    exclude_flagged: bool = False, plain_codes: bool = False, reviewed_only: bool = False,
    since: str | None = None, name: str | None = None,
) -> CorpusExport:
    """Merge the processed documents into ``aligned/_corpus`` (see ``gazette export``)."""
    settings = Settings.for_root(root)
    selection = Selection.of(languages, documents, min_confidence, exclude_flagged,
                             reviewed_only)
    with project_lock(settings, wait=True):
        export = export_corpus(settings, selection, tuple(formats or EXPORT_FORMATS),
                               not plain_codes, since=since, name=name)
    get_run_logger().info("export: %s", export)
    create_markdown_artifact(
        f"Exported {export.documents} document(s) to `{export.folder}`: "
        + ", ".join(f"`{name}`" for name in export.files)
        + f". Left out: {export.left_out}.", key="gazette-export")
    return export


#: The flow behind each kind of deployment.
FLOWS: dict[str, Flow[Any, Any]] = {
    "ingest": scheduled_ingestion, "rerun": rerun_flow, "export": export_flow}


def deployment_names(root: Path) -> dict[str, str]:
    """The deployments of the project folder ``root`` (resolved), as `run_deployment`
    wants them: ``flow-name/deployment-name``. Each folder has its own, so projects
    served on one Prefect server neither replace each other's deployments nor share
    the one-ingestion-at-a-time limit.

    >>> deployment_names(Path("/srv/gazette"))["rerun"]
    'rerun-decree/rerun-gazette-4d6647b1'
    """
    return {kind: f"{flow.name}/{kind}-{_folder_tag(root)}" for kind, flow in FLOWS.items()}


def _folder_tag(root: Path) -> str:
    """The folder's name and a digest of its path: readable, and unique per folder."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", root.name).strip("-") or "root"
    return f"{name}-{hashlib.sha256(str(root).encode()).hexdigest()[:8]}"


def deployments(root: Path, schedule: str, dask: str | None = None, pool: bool = False
                ) -> list[RunnerDeployment]:
    """The three deployments for the project folder ``root``.

    Ingestion has no Prefect schedule: `gazette serve` keeps it (``schedule`` says when,
    for the deployment's description) and starts a run only when the inbox has work
    (:func:`start_ingestion`). Its documents go to the Dask scheduler at ``dask`` if
    given. With ``pool``, the deployments are made for workers of a work pool (see
    :func:`deploy_to_pool`) rather than for `prefect.serve`.
    """
    root_parameter = {"root": str(root)}
    common: dict[str, Any] = {}
    if pool:
        # Workers import the flows (installed with gazette); their flow runs keep
        # results where the project's commands read them, whatever the worker's
        # PREFECT_HOME, and log the library's messages.
        settings = Settings.for_root(root)
        common = {"entrypoint_type": EntrypointType.MODULE_PATH, "job_variables": {"env": {
            "PREFECT_RESULTS_LOCAL_STORAGE_PATH": str(settings.state / "prefect" / "storage"),
            "PREFECT_LOGGING_EXTRA_LOGGERS": "pipeline"}}}
    # One ingestion at a time: a tick that comes while the last run still works is
    # cancelled by the server before any process starts (no runs pile up on the lock).
    one_at_a_time = ConcurrencyLimitConfig(
        limit=1, collision_strategy=ConcurrencyLimitStrategy.CANCEL_NEW)
    name = {kind: full.split("/", 1)[1] for kind, full in deployment_names(root).items()}
    made = [
        scheduled_ingestion.to_deployment(
            name["ingest"], concurrency_limit=one_at_a_time,
            parameters={**root_parameter, "dask": dask}, description=(
                f"Started by `gazette serve` {schedule} when {root / 'raw'} has new, "
                "changed or failed documents."), **common),
        rerun_flow.to_deployment(name["rerun"], parameters=root_parameter, **common),
        export_flow.to_deployment(name["export"], parameters=root_parameter, **common),
    ]
    # to_deployment returns a coroutine only when called from async code
    return [d for d in made if isinstance(d, RunnerDeployment)]


def deploy_to_pool(made: list[RunnerDeployment], pool: str) -> list[UUID]:
    """Register ``made`` (from :func:`deployments` with ``pool``) with the process work
    pool ``pool``, created if the server has none of that name; returns their ids."""
    with get_client(sync_client=True) as client:
        try:
            client.read_work_pool(pool)
        except ObjectNotFound:
            # (a worker starting at the same time may have made it: `--type process`)
            with suppress(ObjectAlreadyExists):
                client.create_work_pool(WorkPoolCreate(
                    name=pool, type="process",
                    base_job_template=ProcessWorker.get_default_base_job_template()))
    ids = deploy(*made, work_pool_name=pool, print_next_steps_message=False,
                 ignore_warnings=True)
    assert isinstance(ids, list)  # called from sync code
    return ids


def start_ingestion(root: Path) -> str | None:
    """Start a flow run of ``root``'s ingestion deployment and return its name; None if
    one is scheduled, pending or running already (it will see the same inbox)."""
    with get_client(sync_client=True) as client:
        deployment = client.read_deployment_by_name(deployment_names(root)["ingest"])
        busy = client.read_flow_runs(limit=1, flow_run_filter=FlowRunFilter(
            deployment_id=FlowRunFilterDeploymentId(any_=[deployment.id]),
            state=FlowRunFilterState(type=FlowRunFilterStateType(any_=[
                StateType.SCHEDULED, StateType.PENDING, StateType.RUNNING,
                StateType.CANCELLING]))))
        if busy:
            return None
        return client.create_flow_run_from_deployment(deployment.id).name


def pause(deployment_ids: list[UUID]) -> None:
    """Pause the schedules of these deployments (as `prefect.serve` does as it stops)."""
    with get_client(sync_client=True) as client:
        for deployment_id in deployment_ids:
            client.pause_deployment(deployment_id)


def cancel_unfinished(root: Path) -> list[str]:
    """Mark Cancelled the runs of ``root``'s deployments that are still pending or
    running on the server, once the `gazette serve` that ran them has stopped (and
    killed their processes); returns their names.

    A run stopped that way keeps its one-ingestion-at-a-time slot until its lease runs
    out (5 minutes): every tick until then would be cancelled.
    """
    return _cancel(root, [StateType.PENDING, StateType.RUNNING, StateType.CANCELLING],
                   "gazette serve stopped")


#: How long a flow run may stay pending (a worker starting its process) before it is
#: taken for one a stopped worker left behind.
ORPHAN_SECONDS = 60.0


def cancel_orphans(root: Path, after: float = ORPHAN_SECONDS) -> list[str]:
    """Mark Cancelled the runs of ``root``'s deployments pending for more than ``after``
    seconds; returns their names. A worker stopped while it was starting a run leaves
    it pending for good, holding the ingestion's one-run slot until Prefect's lease
    runs out (5 minutes), and the ticks meanwhile are refused; `gazette serve --pool`
    calls this as it goes, so that ingestion resumes at the next tick."""
    now = datetime.now(UTC)
    return _cancel(root, [StateType.PENDING], "left pending (its worker stopped)",
                   lambda run: run.state is not None
                   and (now - run.state.timestamp).total_seconds() > after)


def cancel_unstarted(root: Path) -> list[str]:
    """Mark Cancelled the runs of ``root``'s deployments that are pending with no
    process started for them; returns their names. A `gazette worker` calls this as it
    stops: a run it was starting when it was stopped would stay pending for good (see
    :func:`cancel_orphans`). A run another worker is starting at that very moment is
    cancelled too: it had not begun, and the next tick starts another."""
    return _cancel(root, [StateType.PENDING], "left pending (its worker stopped)",
                   lambda run: run.infrastructure_pid is None)


def _cancel(root: Path, states: list[StateType], why: str,
            which: Callable[[FlowRun], bool] = lambda run: True) -> list[str]:
    """Mark Cancelled the runs of ``root``'s deployments in ``states`` that ``which``
    picks; returns their names."""
    with get_client(sync_client=True) as client:
        ids = []
        for name in deployment_names(root).values():
            try:
                ids.append(client.read_deployment_by_name(name).id)
            except ObjectNotFound:
                continue
        runs = [run for run in client.read_flow_runs(flow_run_filter=FlowRunFilter(
            deployment_id=FlowRunFilterDeploymentId(any_=ids),
            state=FlowRunFilterState(type=FlowRunFilterStateType(any_=states))))
            if which(run)] if ids else []
        for run in runs:
            client.set_flow_run_state(run.id, Cancelled(message=why), force=True)
    return [run.name for run in runs]
