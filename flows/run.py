"""The main job as Prefect flows: every document in the inbox through every stage.

The flows only orchestrate; the work is in :mod:`pipeline.run.stages` and
:mod:`pipeline.run.document`. Each document is one task (``process-document``) whose
stages run as nested tasks, so documents can fan out to a task runner (Dask with
``gazette run --dask``); an edition's acts go in tasks of :data:`ACTS_PER_TASK`
(``process-acts``), their stages plain calls on the run's worker processes. A document
is skipped when its published manifest says it is done with this content, build key
and review (:func:`pipeline.project.store.is_up_to_date`); a failed document is
recorded with its reason and the run goes on. Reading a document (the OCR) is cached
by content hash, pipeline version and the reading settings, so a re-run of an
unchanged file never OCRs it again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from prefect import Task, flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from prefect.context import FlowRunContext, TaskRunContext
from prefect.futures import PrefectFuture, as_completed
from prefect.task_runners import TaskRunner, ThreadPoolTaskRunner

from flows import lost_tasks
from pipeline.align.documents import MIN_SCORE
from pipeline.config import Settings, check_settings
from pipeline.editions.cut import ActDocument
from pipeline.embedding.encoder import encoder_here
from pipeline.project.catalog import Catalog
from pipeline.project.store import is_up_to_date
from pipeline.read.ingest import discover, ignored, ingest
from pipeline.records import DocumentSummary, Source
from pipeline.run import crossdoc, document, plan, stages
from pipeline.run.context import DocumentContext
from pipeline.run.report import run_report

P = ParamSpec("P")
R = TypeVar("R")

#: Failures worth a retry: the file system or the embedding cache being busy. A broken
#: or unreadable document (InputError) fails the same way every time.
TRANSIENT = (OSError, sqlite3.OperationalError, TimeoutError)

#: Documents processed at the same time by the default task runner.
DOCUMENTS_AT_ONCE = 2
#: An edition's acts sent off as one task (``process-acts``): a task run per act
#: costs the flow's process and the Prefect server more CPU than a small act's stages
#: (each act is published, and its failure recorded, on its own all the same).
ACTS_PER_TASK = 16


def _transient(task: Any, task_run: Any, state: Any) -> bool:
    """Retry only transient failures."""
    try:
        state.result()
    except TRANSIENT:
        return True
    except BaseException:
        return False
    return False


def _stage_task(fn: Callable[P, R], name: str) -> Task[P, R]:
    # The stages write their own outputs; Prefect need not cache or persist results.
    return task(name=name, cache_policy=NO_CACHE, persist_result=False, retries=2,
                retry_delay_seconds=[2.0, 10.0], retry_condition_fn=_transient)(fn)


def _reading_key(context: TaskRunContext, parameters: dict[str, Any]) -> str:
    """Cache key of a document's pages: its content (with its parts'), the reading
    settings and the reading code (:meth:`Settings.reading_key`)."""
    source: Source = parameters["source"]
    settings: Settings = parameters["settings"]
    return f"read-{source.sha256}-{settings.reading_key()}"


read_task = task(name="read-pages", cache_key_fn=_reading_key, persist_result=True,
                 retries=2, retry_delay_seconds=[2.0, 10.0],
                 retry_condition_fn=_transient)(ingest)
repair_task = _stage_task(stages.run_repair, "repair")
split_task = _stage_task(stages.run_split, "split")
structure_task = _stage_task(stages.run_structure, "structure")
align_task = _stage_task(stages.run_align, "align")
export_task = _stage_task(stages.run_export, "export")


@dataclass(frozen=True)
class Processed:
    """What became of one document of the inbox: its summary, and, for an edition,
    its acts, still to be processed (each a task of its own)."""

    summary: DocumentSummary
    acts: tuple[ActDocument, ...] = ()


#: A document's stages as the tasks above.
STAGE_TASKS = document.Stages(repair_task, split_task, structure_task, align_task, export_task)


@task(name="process-document", task_run_name="{source.doc_id}", cache_policy=NO_CACHE,
      persist_result=False)
def process_document(source: Source, settings: Settings, run_id: int) -> Processed:
    """Read one document, then cut it into acts if it is an edition, else run every
    stage on it and publish its outputs; failures are summaries."""
    acts: list[ActDocument] = []
    ctx = DocumentContext.of(source, settings)

    def work(catalog: Catalog) -> DocumentSummary:
        with catalog.stage(run_id, source.doc_id, "ingest"):
            ingested = stages.run_ingest(ctx, read=read_task)
        cut = stages.run_cut(ingested, ctx)
        get_run_logger().info("%s: %s", source.relpath, cut.reason)
        if not cut.acts:
            return document.analyse(ingested, ctx, partial(catalog.stage, run_id,
                                                           source.doc_id), STAGE_TASKS)
        summary = stages.finish_edition(ingested, cut, ctx)
        acts.extend(cut.acts)  # published: its acts are to be processed
        return summary

    summary = document.processed(ctx, run_id, work)
    _say_how_it_ended(source.relpath, summary, ctx.review.stale)
    return Processed(summary, tuple(acts))


@task(name="process-acts", cache_policy=NO_CACHE, persist_result=False)
def process_acts(acts: list[ActDocument], settings: Settings, run_id: int, done: int,
                 total: int) -> list[DocumentSummary]:
    """Run the stages from repair on some acts of an edition, on the run's worker
    processes, and publish each; ``done`` of the edition's ``total`` acts to process
    come before them, for the log."""
    summaries = []
    for act, outcome in zip(acts, document.process_acts_on_workers(acts, settings, run_id),
                            strict=True):
        _say_how_it_ended(act.doc_id, outcome.summary, outcome.stale)
        summaries.append(outcome.summary)
    failed = sum(summary.status == "failed" for summary in summaries)
    get_run_logger().info("%s: %d of %d acts processed%s", acts[0].edition,
                          done + len(acts), total, f" ({failed} failed here)" if failed else "")
    return summaries


def _submit_acts(edition: str, acts: list[ActDocument], settings: Settings, run_id: int
                 ) -> list[PrefectFuture[list[DocumentSummary]]]:
    """Send off an edition's acts, :data:`ACTS_PER_TASK` to a task."""
    return [process_acts.with_options(
        task_run_name=f"{edition} acts {start + 1}-{start + len(batch)}").submit(
        batch, settings, run_id, start, len(acts))
        for start in range(0, len(acts), ACTS_PER_TASK)
        for batch in [acts[start:start + ACTS_PER_TASK]]]


def _say_how_it_ended(name: str, summary: DocumentSummary, stale: Sequence[str]) -> None:
    """Log a document's failure with its reason, and the review decisions that no
    longer apply to it."""
    logger = get_run_logger()
    for reason in stale:
        logger.warning("%s: a review decision no longer applies: %s", summary.doc_id, reason)
    if summary.status == "failed":
        logger.error("%s failed: %s", name, summary.error)


def _log_pairs(found: crossdoc.CrossPairs) -> None:
    """Say what pairing across documents decided, and why."""
    logger = get_run_logger()
    for pairing, aligned in found.pairs:
        logger.info("paired %s with %s (%s): aligned/%s+%s%s", pairing.english,
                    pairing.other, pairing.describe(), pairing.english, pairing.other,
                    "" if aligned else " (up to date)")
    for english, best in found.unpaired:
        logger.info("%s: no translation found%s", english, (
                    " (no document of another language is near it in length with its "
                    "numbers)") if best is None else
                    f" (best candidate {best.other}, {best.language}, score {best.score:.2f}; "
                    f"a pair needs {MIN_SCORE} and each document one partner: "
                    f"{best.evidence()})")
    for pair_id in found.removed:
        logger.info("removed the pair %s: its documents no longer pair", pair_id)


def task_runner_for(dask: str | None) -> TaskRunner[Any]:
    """Where documents are processed: two at a time in this process (the default: their
    pages go to the run's page workers, so both cores stay busy on runs of short
    documents), or on a Dask cluster — ``"local"`` starts a LocalCluster of 2
    single-threaded workers, anything else is the address of a running scheduler
    (``tcp://host:8786``)."""
    if not dask:
        return ThreadPoolTaskRunner(max_workers=DOCUMENTS_AT_ONCE)
    from prefect_dask import DaskTaskRunner

    if dask == "local":
        return DaskTaskRunner(cluster_kwargs={"n_workers": 2, "threads_per_worker": 1})
    return DaskTaskRunner(address=dask)


def gazette_run_on(dask: str | None) -> Any:
    """The main flow with its documents sent to ``dask`` (see :func:`task_runner_for`),
    or as it is when ``dask`` is None."""
    return gazette_run.with_options(task_runner=task_runner_for(dask)) if dask else gazette_run


@flow(name="gazette-run", persist_result=False, task_runner=task_runner_for(None))
def gazette_run(root: Path, force: bool = False, only: Sequence[str] | None = None,
                trigger: str = "manual",
                overrides: dict[str, Any] | None = None) -> list[DocumentSummary]:
    """Process every new or changed document under ``root/raw``.

    ``only`` limits the run to these document ids or inbox paths; ``force`` redoes them
    even if they are current (their pages still come from the reading cache). Settings
    come from ``root/gazette.toml``, with ``overrides`` (setting name → value) on top.
    """
    logger = get_run_logger()
    settings = Settings.for_root(root, **check_settings(overrides or {}, "the run's overrides"))
    changed = settings.changed()
    if changed:
        logger.info("settings other than the defaults: %s", ", ".join(
            f"{name} = {value!r}" for name, value in changed.items()))
    catalog = Catalog(settings)
    pairs = plan.pairings(settings)
    sources = plan.select_sources(discover(settings), only, pairs)
    run_id = catalog.start_run(trigger)
    logger.info("run %d (%s): %d document(s) in %s", run_id, trigger, len(sources),
                settings.raw)
    for relpath, reason in ignored(settings):
        logger.info("ignored %s: %s", relpath, reason)
    futures = _submit_documents(sources, settings, run_id, force)
    _load_model_ahead(settings, [s.doc_id for s in sources if s.doc_id not in futures])
    acts = {}  # an edition's acts, sent off as soon as it is cut
    for future in as_completed(list(futures.values())):
        processed = future.result()
        _load_model_ahead(settings, [processed.summary.doc_id])
        todo = [act for act in processed.acts
                if force or not is_up_to_date(settings, act.document.source)]
        if processed.acts:
            logger.info("%s: %d acts, %d to process", processed.summary.doc_id,
                        len(processed.acts), len(todo))
        acts[processed.summary.doc_id] = _submit_acts(processed.summary.doc_id, todo,
                                                      settings, run_id)
    summaries = [_summary(source, futures, acts, settings, catalog, run_id)
                 for source in sources]
    catalog.finish_run(run_id, summaries)
    _end_lost_task_runs([*futures.values(), *(f for found in acts.values() for f in found)])
    try:  # documents changed or went: pairs across documents may have too
        _log_pairs(crossdoc.pair_across_documents(
            settings, run_id, realign=[name for name in only or () if name in pairs]
            if force else ()))
    except Exception as exc:  # the documents' own outputs stand; say what failed
        logger.error("pairing documents across languages failed: %s", exc)
    encoder_here(settings).finish_loading()
    create_markdown_artifact(run_report(summaries, changed), key="gazette-run",
                             description=f"gazette run {run_id} on {settings.raw}")
    return summaries


def _load_model_ahead(settings: Settings, doc_ids: list[str]) -> None:
    """Start loading the embedding model in the background, while the run reads its
    documents, if one of these (processed now, or up to date from an earlier run) is an
    English text, which pairing will embed (:func:`crossdoc.embeds_at_pairing`)."""
    if any(crossdoc.embeds_at_pairing(settings, doc) for doc in doc_ids):
        encoder_here(settings).load_in_background()


def _end_lost_task_runs(futures: list[PrefectFuture[Any]]) -> None:
    """On a Dask cluster, end Crashed the task runs a lost worker left running
    (:mod:`flows.lost_tasks`): the documents' task runs, ``futures``, are all done."""
    context = FlowRunContext.get()
    if context is None or context.flow_run is None or isinstance(
            context.task_runner, ThreadPoolTaskRunner):
        return  # in this process: a task run cannot lose its process and leave the flow
    try:
        lost_tasks.end_lost_task_runs(context.flow_run.id, [f.task_run_id for f in futures])
    except Exception as exc:  # a tidy-up of Prefect's view: the documents' outputs stand
        get_run_logger().warning("could not look for task runs a lost worker left: %s", exc)


def _submit_documents(sources: list[Source], settings: Settings, run_id: int, force: bool
                      ) -> dict[str, PrefectFuture[Processed]]:
    """Send off each document that needs work (all with ``force``), saying which."""
    logger = get_run_logger()
    futures = {}
    for number, source in enumerate(sources, start=1):
        if not force and is_up_to_date(settings, source):
            logger.info("[%d/%d] %s: unchanged since its last run, skipped",
                        number, len(sources), source.relpath)
            continue
        logger.info("[%d/%d] %s -> %s", number, len(sources), source.relpath, source.doc_id)
        futures[source.doc_id] = process_document.submit(source, settings, run_id)
    return futures


def _summary(source: Source, futures: dict[str, PrefectFuture[Processed]],
             acts: dict[str, list[PrefectFuture[list[DocumentSummary]]]], settings: Settings,
             catalog: Catalog, run_id: int) -> DocumentSummary:
    """How a document ended in this run: skipped, or as processed (an edition with what
    its acts gave, recorded failed if any act failed)."""
    if source.doc_id not in futures:
        return plan.skipped(settings, source)
    summary = futures[source.doc_id].result().summary
    if summary.acts:
        summary = stages.edition_summary(summary, [act for found in acts[source.doc_id]
                                                   for act in found.result()])
        if summary.status == "failed":
            catalog.record(run_id, source, summary)
    return summary
