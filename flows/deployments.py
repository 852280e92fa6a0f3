"""The deployments `gazette serve` serves: scheduled ingestion, re-run of one decree, export.

Each is a thin flow around the library. All three take the project lock and wait for
it, so a scheduled run never overlaps a manual one on the same folder. The re-run and
export flows keep their results (in the project's Prefect home), so the command that
triggered them prints the same summary as a local run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger
from prefect.artifacts import create_markdown_artifact
from prefect.client.schemas.objects import ConcurrencyLimitConfig, ConcurrencyLimitStrategy
from prefect.deployments.runner import RunnerDeployment

from flows.run import gazette_run
from pipeline.config import EXPORT_FORMATS, Settings
from pipeline.export import Selection
from pipeline.records import CorpusExport, DocumentSummary
from pipeline.stages import export_corpus
from pipeline.store import project_lock

__all__ = [
    "DEFAULT_CRON",
    "deployment_names",
    "deployments",
    "export_flow",
    "rerun_flow",
    "scheduled_ingestion",
]

#: The ingestion schedule unless told otherwise: at the top of every hour.
DEFAULT_CRON = "0 * * * *"


@flow(name="scheduled-ingestion", persist_result=False)
def scheduled_ingestion(root: Path) -> list[DocumentSummary]:
    """Process the new and changed documents of ``root/raw`` (what the schedule runs)."""
    with project_lock(Settings.for_root(root), wait=True):
        return gazette_run(root, trigger="schedule")


@flow(name="rerun-decree", persist_result=True)
def rerun_flow(root: Path, doc: str) -> list[DocumentSummary]:
    """Redo every stage of one document (its id, or its path relative to ``raw/``)."""
    with project_lock(Settings.for_root(root), wait=True):
        return gazette_run(root, force=True, only=[doc], trigger="rerun")


@flow(name="export-corpus", persist_result=True)
def export_flow(
    root: Path, formats: list[str] | None = None, languages: list[str] | None = None,
    documents: list[str] | None = None, min_confidence: float = 0.0,
    exclude_flagged: bool = False, plain_codes: bool = False,
) -> CorpusExport:
    """Merge the processed documents into ``aligned/_corpus`` (see ``gazette export``)."""
    settings = Settings.for_root(root)
    selection = Selection.of(languages, documents, min_confidence, exclude_flagged)
    with project_lock(settings, wait=True):
        export = export_corpus(settings, selection, tuple(formats or EXPORT_FORMATS),
                               not plain_codes)
    get_run_logger().info("export: %s", export)
    create_markdown_artifact(
        f"Exported {export.documents} document(s) to `{export.folder}`: "
        + ", ".join(f"`{name}`" for name in export.files)
        + f". Left out: {export.left_out}.", key="gazette-export")
    return export


def deployment_names() -> dict[str, str]:
    """Deployment names as `run_deployment` wants them: ``flow-name/deployment-name``."""
    return {"ingest": "scheduled-ingestion/ingest", "rerun": "rerun-decree/rerun",
            "export": "export-corpus/export"}


def deployments(root: Path, cron: str | None = None,
                interval: float | None = None) -> list[RunnerDeployment]:
    """The three deployments for the project folder ``root``.

    Ingestion runs on ``interval`` seconds if given, else on ``cron`` (default hourly).
    """
    schedule: dict[str, Any] = ({"interval": interval} if interval
                                else {"cron": cron or DEFAULT_CRON})
    root_parameter = {"root": str(root)}
    # One ingestion at a time: a tick that comes while the last run still works is
    # cancelled by the server before any process starts (no runs pile up on the lock).
    one_at_a_time = ConcurrencyLimitConfig(
        limit=1, collision_strategy=ConcurrencyLimitStrategy.CANCEL_NEW)
    made = [
        scheduled_ingestion.to_deployment("ingest", parameters=root_parameter,
                                          concurrency_limit=one_at_a_time, **schedule),
        rerun_flow.to_deployment("rerun", parameters=root_parameter),
        export_flow.to_deployment("export", parameters=root_parameter),
    ]
    # to_deployment returns a coroutine only when called from async code
    return [d for d in made if isinstance(d, RunnerDeployment)]
