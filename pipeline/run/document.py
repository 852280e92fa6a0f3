"""One document, or one act of an edition, through the stages from repair on.

The flow (``flows/run.py``) runs a document's stages as tasks of their own. An
edition's acts, hundreds of small documents, go through the same stages as plain calls
on the run's worker processes (:func:`process_acts_on_workers`): a task run per stage and
act would cost more than the work, and in the flow's process the acts' Python would
share one core. Either way a failure becomes the document's summary with its reason,
what it did not publish is discarded, and the catalog records how it ended.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager
from dataclasses import dataclass

from pipeline import workers
from pipeline.config import Settings
from pipeline.editions.cut import ActDocument
from pipeline.embedding import lending
from pipeline.embedding.encoder import lend_to_workers
from pipeline.errors import LockLostError
from pipeline.project.catalog import Catalog, StageTimes
from pipeline.project.store import check_project_lock
from pipeline.records import (
    Article,
    CleanedDocument,
    DocumentSummary,
    IngestedDocument,
    Section,
    SentencePair,
)
from pipeline.run import crossdoc, stages
from pipeline.run.context import DocumentContext

__all__ = ["ActOutcome", "Stages", "analyse", "process_act", "process_acts_on_workers",
           "processed"]


@dataclass(frozen=True)
class Stages:
    """The functions a document goes through from repair on: the stages of
    :mod:`pipeline.run.stages` as they are, or the flow's tasks of them."""

    repair: Callable[[IngestedDocument, DocumentContext], CleanedDocument] = stages.run_repair
    split: Callable[[CleanedDocument, DocumentContext], list[Section]] = stages.run_split
    structure: Callable[[list[Section], CleanedDocument, DocumentContext],
                        dict[str, list[Article]]] = stages.run_structure
    align: Callable[[dict[str, list[Article]], DocumentContext],
                    dict[str, list[SentencePair]]] = stages.run_align
    export: Callable[[dict[str, list[SentencePair]], dict[str, list[Article]],
                      CleanedDocument, DocumentContext], dict[str, int]] = stages.run_export


def analyse(document: IngestedDocument, ctx: DocumentContext,
            stage: Callable[[str], AbstractContextManager[None]], through: Stages = Stages()
            ) -> DocumentSummary:
    """Repair, split, structure, align and export one document, make its digest for
    pairing across documents, and publish it; ``stage`` times each stage for the
    catalog (:meth:`Catalog.stage` or :meth:`StageTimes.stage`)."""
    with stage("repair"):
        cleaned = through.repair(document, ctx)
    with stage("split"):
        sections = through.split(cleaned, ctx)
    with stage("structure"):
        articles = through.structure(sections, cleaned, ctx)
    with stage("align"):
        sentences = through.align(stages.languages_to_align(articles, sections), ctx)
    with stage("export"):
        counts = through.export(sentences, articles, cleaned, ctx)
    crossdoc.run_digest(articles, sections, ctx.settings, ctx.out)
    return stages.finish(cleaned, sections, sentences, counts, ctx)


def processed(ctx: DocumentContext, run_id: int, work: Callable[[Catalog], DocumentSummary],
              times: StageTimes | None = None) -> DocumentSummary:
    """Do ``work`` on a document's staging folders and record how it ended (with the
    stage ``times`` it kept): its summary, or on any error a failed summary with the
    reason; outputs ``work`` did not publish are discarded. A lost project lock is no
    document's fault: it is raised."""
    source, out = ctx.source, ctx.out
    catalog = Catalog(ctx.settings)
    out.start()
    try:
        summary = work(catalog)
    except LockLostError:
        raise
    except Exception as exc:  # a failed document is reported; the run goes on
        summary = DocumentSummary(doc_id=source.doc_id, relpath=source.relpath,
                                  status="failed", error=str(exc))
    finally:
        out.discard()
    catalog.record(run_id, source, summary, times.times if times else ())
    return summary


@dataclass(frozen=True)
class ActOutcome:
    """How one act's stages ended: its summary, and the review decisions that no
    longer apply to it (with why), for the run's log."""

    summary: DocumentSummary
    stale: tuple[str, ...] = ()


def process_act(act: ActDocument, settings: Settings, run_id: int,
                encoders: str | None = None) -> ActOutcome:
    """Write an act's pages, take it through the stages from repair on and publish it
    (on a worker whose run has ended: nothing, see :func:`pipeline.workers.orphaned`).
    On a worker, ``encoders`` is where the run's process lends its embedding model
    (:mod:`pipeline.embedding.lending`: each worker would load it otherwise)."""
    check_project_lock()
    lending.borrow_from(encoders)
    ctx = DocumentContext.of(act.document.source, settings, act)
    times = StageTimes()  # recorded with the act's end: one commit, not two per stage

    def work(catalog: Catalog) -> DocumentSummary:
        catalog.working_on(run_id, act.doc_id, "stages")
        stages.write_pages(act.document, ctx)
        return analyse(act.document, ctx, times.stage, Stages())

    summary = processed(ctx, run_id, work, times)
    return ActOutcome(summary, tuple(ctx.review.stale))


def process_acts_on_workers(acts: Sequence[ActDocument], settings: Settings, run_id: int
                            ) -> list[ActOutcome]:
    """:func:`process_act` for each of ``acts`` on the run's workers, all sent off at
    once, so every worker has one to work on. A worker that dies (killed, out of
    memory) fails the acts the pool still had with the reason, so the next run takes
    them up again, and the pool starts anew for the acts after them."""
    outcomes = []
    for act, future in zip(acts, _sent(acts, settings, run_id), strict=True):
        try:
            outcomes.append(future.result())
        except BrokenProcessPool as exc:
            workers.shutdown()
            summary = DocumentSummary(
                doc_id=act.doc_id, relpath=act.document.source.relpath, status="failed",
                error=f"the process working on it died ({exc}); run again to redo it")
            Catalog(settings).record(run_id, act.document.source, summary)
            outcomes.append(ActOutcome(summary))
    return outcomes


def _sent(acts: Sequence[ActDocument], settings: Settings, run_id: int
          ) -> list[Future[ActOutcome]]:
    pool = workers.pool(settings.page_workers)
    encoders = lend_to_workers() if isinstance(pool, ProcessPoolExecutor) else None
    sent = []
    for act in acts:
        try:
            sent.append(pool.submit(process_act, act, settings, run_id, encoders))
        except (BrokenProcessPool, RuntimeError) as exc:  # a worker died as acts were
            # handed out, or the pool was stopped for one that died (after shutdown)
            broken: Future[ActOutcome] = Future()
            broken.set_exception(BrokenProcessPool(str(exc)))
            sent.append(broken)
    return sent
