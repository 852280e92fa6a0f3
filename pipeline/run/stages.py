"""Each stage run on one document, with its outputs written to the staging folders.

These are what the Prefect flow runs as tasks (``flows/run.py``) and what the CLI's
stage commands use. The stage modules themselves stay pure: they map records to
records and write nothing. Work on the whole corpus is in :mod:`pipeline.export.corpus`
(export) and :mod:`pipeline.run.crossdoc` (pairs across documents); what a run is to do,
in :mod:`pipeline.run.plan`.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from pipeline.align import align_sentences, core, pair_articles
from pipeline.align.core import AlignParams, Bead
from pipeline.config import PIPELINE_VERSION, Settings
from pipeline.editions.cut import Cut, cut_edition
from pipeline.editions.identity import identity_json
from pipeline.embedding.encoder import encoder_for
from pipeline.export import render
from pipeline.export.units import article_records, units_of
from pipeline.project.decisions import Review, apply_edits
from pipeline.project.store import DocumentOutput, jsonl
from pipeline.read.ingest import ingest, source_for
from pipeline.records import (
    Article,
    CleanedDocument,
    DocumentSummary,
    IngestedDocument,
    Section,
    SentencePair,
    Source,
)
from pipeline.repair import RULES, RepairConfig, repair
from pipeline.run.context import DocumentContext
from pipeline.split.languages import (
    MIN_RUNNING_SHARE,
    MINOR_SHARE,
    label_blocks,
    language_shares,
    running_shares,
    sections_of,
)
from pipeline.split.sentences import segment_text, split_sentences
from pipeline.split.structure import decree_number, structure_json, structure_of

__all__ = [
    "align_files",
    "align_params",
    "edition_summary",
    "finish",
    "finish_edition",
    "languages_to_align",
    "read_structure",
    "repair_config",
    "run_align",
    "run_cut",
    "run_export",
    "run_ingest",
    "run_repair",
    "run_split",
    "run_structure",
    "write_pages",
    "write_review_outcome",
]


def run_ingest(ctx: DocumentContext,
               read: Callable[[Source, Settings], IngestedDocument] = ingest,
               ) -> IngestedDocument:
    """Read all pages with ``read`` (the flow passes one cached by content); writes
    ``pages.jsonl``. A document's identity is its file, whatever its content: what the
    cache gives back for the same content under another name takes this file's."""
    document = replace(read(ctx.source, ctx.settings), source=ctx.source)
    write_pages(document, ctx)
    return document


def write_pages(document: IngestedDocument, ctx: DocumentContext) -> None:
    """Write ``pages.jsonl``: the pages as read (an act's: its stretch of its edition's
    pages, which its repair log and review page refer to)."""
    ctx.out.write("cleaned", "pages.jsonl", jsonl(page.to_json() for page in document.pages))


def run_cut(document: IngestedDocument, ctx: DocumentContext) -> Cut:
    """Decide whether the document is a gazette edition and cut it into its acts
    (:mod:`pipeline.editions.cut`); for an edition, writes ``acts.jsonl`` (each act's
    document id, kind, heading, issuing bodies, pages, span and treaty)."""
    cut = cut_edition(document)
    if cut.acts:
        ctx.out.write("cleaned", "acts.jsonl", jsonl(act.provenance for act in cut.acts))
    return cut


def run_repair(document: IngestedDocument, ctx: DocumentContext) -> CleanedDocument:
    """Repair all pages with the rules the settings leave on (``repair_disabled``; an
    act's with its edition's running heads), then make the review's word edits; writes
    ``text.txt`` and the audit log ``repairs.jsonl``."""
    cleaned = repair(document, repair_config(ctx.settings),
                     ctx.act.running if ctx.act else frozenset())
    if ctx.review:
        cleaned = apply_edits(cleaned, ctx.review)
    ctx.out.write("cleaned", "text.txt", cleaned.text + "\n" if cleaned.text else "")
    ctx.out.write("cleaned", "repairs.jsonl", jsonl(step.to_json() for step in cleaned.steps))
    return cleaned


def run_split(cleaned: CleanedDocument, ctx: DocumentContext) -> list[Section]:
    """Label blocks with languages and group them into sections; writes ``blocks.jsonl``."""
    blocks = label_blocks(cleaned, ctx.settings)
    sections = sections_of(blocks)
    ctx.out.write("cleaned", "blocks.jsonl", jsonl(block.to_json() for block in blocks))
    return sections


def run_structure(sections: list[Section], cleaned: CleanedDocument, ctx: DocumentContext
                  ) -> dict[str, list[Article]]:
    """Cut each language into articles, units and sentences; writes ``structure.json``."""
    articles = structure_of(sections, cleaned.text)
    ctx.out.write("cleaned", "structure.json", json.dumps(
        structure_json(sections, articles), ensure_ascii=False, indent=1) + "\n")
    return articles


def languages_to_align(articles: dict[str, list[Article]], sections: list[Section]
                       ) -> dict[str, list[Article]]:
    """The articles of the languages a document is written in, to align. Left out, as
    each of its pairs with the rest of the document would be noise (flagged, confidence
    0.00–0.05): a language holding at most
    :data:`~pipeline.split.languages.MINOR_SHARE` of the letters (a few table cells
    taken for English in a Portuguese act), and one with less than
    :data:`~pipeline.split.languages.MIN_RUNNING_SHARE` running text (a price table of
    brand names in capitals, however long)."""
    shares, running = language_shares(sections), running_shares(sections)
    return {language: found for language, found in articles.items()
            if shares.get(language, 0.0) > MINOR_SHARE
            and running.get(language, 0.0) >= MIN_RUNNING_SHARE}


def run_align(articles: dict[str, list[Article]], ctx: DocumentContext
              ) -> dict[str, list[SentencePair]]:
    """Pair articles, then their sentences, with the pivot language's, keeping what the
    review fixed.

    Writes ``aligned/<doc>/articles.jsonl`` and ``sentences.jsonl``, and with a review
    ``review.json`` (its decisions, and those that no longer apply, with why).
    """
    settings, out, review = ctx.settings, ctx.out, ctx.review
    pairs = pair_articles(articles, settings.pivot_language)
    out.write("aligned", "articles.jsonl", jsonl(article_records(out.doc_id, pairs)))
    encoder = encoder_for(settings)
    sentences = align_sentences(pairs, encoder.encode, align_params(settings),
                                flag_below=settings.flag_below,
                                second_pass=settings.align_second_pass, review=review)
    out.write("aligned", "sentences.jsonl", jsonl(
        pair.to_json(out.doc_id) for language_pairs in sentences.values()
        for pair in language_pairs))
    write_review_outcome(out, review)
    return sentences


def write_review_outcome(out: DocumentOutput, review: Review) -> None:
    """With review decisions in effect, write ``review.json``: how many, and those that no
    longer apply, with why."""
    if review:
        out.write("aligned", "review.json", json.dumps(
            {"decisions": review.decisions, "stale": review.stale}, ensure_ascii=False,
            indent=1) + "\n")


def repair_config(settings: Settings) -> RepairConfig:
    """The repair rules the settings leave on (all but ``repair_disabled``)."""
    disabled = set(settings.repair_disabled)
    return RepairConfig(**{name: name not in disabled for name in RULES})


def align_params(settings: Settings) -> AlignParams:
    """The aligner's knobs: its defaults, with the settings' ``align`` values."""
    knobs: dict[str, Any] = dict(settings.align)
    return AlignParams(**knobs)


def run_export(sentences: dict[str, list[SentencePair]], articles: dict[str, list[Article]],
               cleaned: CleanedDocument, ctx: DocumentContext) -> dict[str, int]:
    """Join the pairs into units and write every export format; returns pairs per language."""
    settings = ctx.settings
    units = units_of(ctx.doc_id, sentences, articles, cleaned, settings.pivot_language,
                     decree=decree_number(cleaned.text))
    rendered = render(units, ctx.doc_id, settings.export_formats, settings.regional_tags)
    for name, text in rendered.files.items():
        ctx.out.write("aligned", name, text)
    return {language: sum(p.matched for p in pairs)
            for language, pairs in sentences.items()}


def finish(cleaned: CleanedDocument, sections: list[Section],
           sentences: dict[str, list[SentencePair]], counts: dict[str, int],
           ctx: DocumentContext) -> DocumentSummary:
    """Publish the document's outputs with its manifest (the digest of the review
    decisions applied; an act's says where in its edition it is) and return its
    summary."""
    source, act = ctx.source, ctx.act
    summary = DocumentSummary(
        doc_id=source.doc_id,
        relpath=source.relpath,
        status="done",
        pages=len(cleaned.pages),
        methods=dict(Counter(page.method for page in cleaned.pages)),
        languages=tuple(dict.fromkeys(s.language for s in sections if s.language != "other")),
        repairs=len(cleaned.steps),
        rules=dict(Counter(step.rule for step in cleaned.steps)),
        pairs=counts,
        flagged={language: sum(p.flagged for p in pairs if p.matched)
                 for language, pairs in sentences.items()},
    )
    # what pairs it with a translation in another document, found once, here
    _publish(ctx, summary, {"identity": identity_json(cleaned.text),
                            "decree": decree_number(cleaned.text),
                            "language_shares": language_shares(sections),
                            **({} if act is None else {"act": act.provenance})})
    return summary


def finish_edition(document: IngestedDocument, cut: Cut, ctx: DocumentContext
                   ) -> DocumentSummary:
    """Publish an edition (its pages and acts; its acts are documents of their own)
    and return its summary. Outputs of acts a former version of the edition had and
    this one has not are removed."""
    source = document.source
    summary = DocumentSummary(
        doc_id=source.doc_id, relpath=source.relpath, status="done",
        pages=len(document.pages),
        methods=dict(Counter(page.method for page in document.pages)), acts=len(cut.acts))
    ids = [act.doc_id for act in cut.acts]
    _publish(ctx, summary, {"acts": ids}, aligned=False)
    for folder in (ctx.settings.cleaned, ctx.settings.aligned):
        for old in folder.glob(f"{source.doc_id}--*"):
            if old.name not in ids:
                shutil.rmtree(old, ignore_errors=True)
    return summary


def _publish(ctx: DocumentContext, summary: DocumentSummary, extra: dict[str, Any],
             aligned: bool = True) -> None:
    source = ctx.source
    ctx.out.publish({
        "doc_id": source.doc_id,
        "source": source.relpath,
        "parts": [part.relpath for part in source.parts],
        "sha256": source.sha256,
        "pipeline_version": PIPELINE_VERSION,
        "build": ctx.settings.output_key(),
        "summary": summary.to_json(),
        "review": ctx.review.digest,
        **extra,
    }, aligned)


def edition_summary(edition: DocumentSummary, acts: list[DocumentSummary]
                    ) -> DocumentSummary:
    """An edition's summary with what its acts gave in this run: their languages and
    pairs, and, if any act failed, the edition failed with their reasons (so the next
    run takes it up again; its acts that are done are not redone)."""
    failed = [act for act in acts if act.status == "failed"]
    pairs: Counter[str] = Counter()
    flagged: Counter[str] = Counter()
    for act in acts:
        pairs.update(act.pairs)
        flagged.update(act.flagged)
    languages = tuple(dict.fromkeys(lang for act in acts for lang in act.languages))
    error = (f"{len(failed)} of {edition.acts} acts failed: "
             + "; ".join(f"{act.doc_id}: {act.error}" for act in failed)) if failed else None
    return replace(edition, status="failed" if failed else edition.status, error=error,
                   languages=languages, pairs=dict(pairs), flagged=dict(flagged))


def read_structure(
    path: Path, settings: Settings,
) -> tuple[CleanedDocument, list[Section], dict[str, list[Article]]]:
    """Ingest, repair, split and structure one file, writing nothing (the stage commands)."""
    cleaned = repair(ingest(source_for(path), settings), repair_config(settings))
    sections = sections_of(label_blocks(cleaned, settings))
    return cleaned, sections, structure_of(sections, cleaned.text)


def align_files(src: Path, tgt: Path, settings: Settings, *, src_lang: str, tgt_lang: str,
                split: bool = False) -> list[Bead]:
    """Align two files of segments (``gazette align``): one segment per line, or with
    ``split`` running text cut into sentences (in ``src_lang`` and ``tgt_lang``).

    Uses the project's aligner settings (``[align]`` in gazette.toml) and its embedding
    cache, as ``gazette run`` does.
    """
    def segments(path: Path, language: str) -> list[str]:
        text = path.read_text(encoding="utf-8")
        if split:
            return [segment_text(text[a:b]) for a, b in split_sentences(text, language)]
        return text.splitlines()

    source, target = segments(src, src_lang), segments(tgt, tgt_lang)
    encoder = encoder_for(settings)
    vectors = encoder.encode(source + target)
    return core.align(source, target, vectors[:len(source)], vectors[len(source):],
                      align_params(settings),
                      embed=encoder.encode if settings.align_second_pass else None)
