"""The main job as a Prefect flow: every document in the inbox through every stage.

The flow only orchestrates; the work is in :mod:`pipeline.stages`. Documents whose
content and pipeline version are unchanged since their last complete run are
skipped; a document that fails is recorded with its reason and the run goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

from prefect import Task, flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from pipeline import stages
from pipeline.config import Settings
from pipeline.ingest import discover
from pipeline.records import DocumentSummary, Source
from pipeline.store import DocumentOutput, is_up_to_date

P = ParamSpec("P")
R = TypeVar("R")


def _stage_task(fn: Callable[P, R], name: str) -> Task[P, R]:
    # The stages write their own outputs; Prefect need not cache or persist results.
    return task(name=name, cache_policy=NO_CACHE, persist_result=False)(fn)


ingest_task = _stage_task(stages.run_ingest, "ingest")
repair_task = _stage_task(stages.run_repair, "repair")
split_task = _stage_task(stages.run_split, "split")
structure_task = _stage_task(stages.run_structure, "structure")
align_task = _stage_task(stages.run_align, "align")
export_task = _stage_task(stages.run_export, "export")


@flow(name="process-document", flow_run_name="{source.doc_id}", persist_result=False)
def process_document(source: Source, settings: Settings) -> DocumentSummary:
    """Run every stage on one document and publish its outputs."""
    out = DocumentOutput(settings, source.doc_id)
    out.start()
    try:
        document = ingest_task(source, settings, out)
        cleaned = repair_task(document, out)
        sections = split_task(cleaned, settings, out)
        articles = structure_task(sections, cleaned, out)
        sentences = align_task(articles, settings, out)
        counts = export_task(sentences, articles, cleaned, settings, out)
        return stages.finish(source, cleaned, sections, sentences, counts, out)
    finally:
        out.discard()


@flow(name="gazette-run", persist_result=False)
def gazette_run(root: Path, force: bool = False) -> list[DocumentSummary]:
    """Process every new or changed document under ``root/raw``."""
    logger = get_run_logger()
    settings = Settings.for_root(root)
    sources = discover(settings)
    logger.info("%d document(s) in %s", len(sources), settings.raw)
    summaries = []
    for number, source in enumerate(sources, start=1):
        if not force and is_up_to_date(settings, source):
            logger.info("[%d/%d] %s: unchanged since its last run, skipped",
                        number, len(sources), source.relpath)
            summaries.append(stages.skipped(settings, source))
            continue
        logger.info("[%d/%d] %s -> %s", number, len(sources), source.relpath, source.doc_id)
        try:
            summaries.append(process_document(source, settings))
        except Exception as exc:  # a failed document is reported; the run goes on
            logger.error("%s failed: %s", source.relpath, exc)
            summaries.append(DocumentSummary(doc_id=source.doc_id, relpath=source.relpath,
                                             status="failed", error=str(exc)))
    return summaries

