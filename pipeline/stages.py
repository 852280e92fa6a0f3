"""Each stage run on one document, with its outputs written to the staging folders.

These are what the Prefect flow runs as tasks (``flows/run.py``) and what the CLI's
stage commands use. The stage modules themselves stay pure: they map records to
records and write nothing.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, replace
from functools import cache
from pathlib import Path
from typing import Any

from pipeline import exports, reviews, sentalign
from pipeline.align import align_sentences, pair_articles
from pipeline.catalog import Catalog, is_current
from pipeline.config import PIPELINE_VERSION, Settings
from pipeline.editions import ActDocument, Cut, cut_edition
from pipeline.embedding.encoder import Encoder
from pipeline.errors import InputError
from pipeline.export import Selection, corpus, dropped_summary, read_units, render
from pipeline.export.units import ExportUnit, article_records, unit_key, units_of
from pipeline.ingest import discover, ingest, source_for
from pipeline.langsplit import label_blocks, language_shares, sections_of
from pipeline.pairing import Pairing, find_document_pairs, identity_from_json, identity_json
from pipeline.records import (
    Article,
    CleanedDocument,
    CorpusExport,
    DocumentSummary,
    IngestedDocument,
    Section,
    SentencePair,
    Source,
)
from pipeline.repair import RULES, RepairConfig, repair
from pipeline.reviews import Review, apply_edits
from pipeline.sentalign import AlignParams, Bead
from pipeline.sentences import split_sentences
from pipeline.store import DocumentOutput, jsonl, publish_folder, read_manifest
from pipeline.structure import decree_number, structure_json, structure_of

__all__ = [
    "CORPUS",
    "align_files",
    "align_params",
    "edition_summary",
    "encoder_for",
    "export_corpus",
    "finish",
    "finish_edition",
    "pair_across_documents",
    "pair_documents",
    "published_pairs",
    "read_structure",
    "repair_config",
    "run_align",
    "run_cut",
    "run_export",
    "run_ingest",
    "run_repair",
    "run_split",
    "run_structure",
    "select_sources",
    "skipped",
    "unchanged_run",
]


def run_ingest(
    source: Source, settings: Settings, out: DocumentOutput,
    read: Callable[[Source, Settings], IngestedDocument] = ingest,
) -> IngestedDocument:
    """Read all pages with ``read`` (the flow passes a cached one); writes ``pages.jsonl``."""
    document = read(source, settings)
    out.write("cleaned", "pages.jsonl", jsonl(page.to_json() for page in document.pages))
    return document


def run_cut(document: IngestedDocument, out: DocumentOutput) -> Cut:
    """Decide whether the document is a gazette edition and cut it into its acts
    (:mod:`pipeline.editions`); for an edition, writes ``acts.jsonl`` (each act's
    document id, kind, heading, issuing bodies, pages, span and treaty)."""
    cut = cut_edition(document)
    if cut.acts:
        out.write("cleaned", "acts.jsonl", jsonl(act.provenance for act in cut.acts))
    return cut


def run_repair(document: IngestedDocument, out: DocumentOutput, review: Review | None = None,
               ) -> CleanedDocument:
    """Repair all pages with the rules the settings leave on (``repair_disabled``), then
    make the ``review``'s word edits; writes ``text.txt`` and the audit log
    ``repairs.jsonl``."""
    cleaned = repair(document, repair_config(out.settings))
    if review:
        cleaned = apply_edits(cleaned, review)
    out.write("cleaned", "text.txt", cleaned.text + "\n" if cleaned.text else "")
    out.write("cleaned", "repairs.jsonl", jsonl(step.to_json() for step in cleaned.steps))
    return cleaned


def run_split(cleaned: CleanedDocument, settings: Settings, out: DocumentOutput) -> list[Section]:
    """Label blocks with languages and group them into sections; writes ``blocks.jsonl``."""
    blocks = label_blocks(cleaned, settings)
    sections = sections_of(blocks)
    out.write("cleaned", "blocks.jsonl", jsonl(block.to_json() for block in blocks))
    return sections


def run_structure(
    sections: list[Section], cleaned: CleanedDocument, out: DocumentOutput
) -> dict[str, list[Article]]:
    """Cut each language into articles, units and sentences; writes ``structure.json``."""
    articles = structure_of(sections, cleaned.text)
    out.write("cleaned", "structure.json", json.dumps(
        structure_json(sections, articles), ensure_ascii=False, indent=1) + "\n")
    return articles


def run_align(
    articles: dict[str, list[Article]], settings: Settings, out: DocumentOutput,
    review: Review | None = None,
) -> dict[str, list[SentencePair]]:
    """Pair articles, then their sentences, with the pivot language's, keeping what the
    ``review`` fixed.

    Writes ``aligned/<doc>/articles.jsonl`` and ``sentences.jsonl``, and with a review
    ``review.json`` (its decisions, and those that no longer apply, with why).
    """
    pairs = pair_articles(articles, settings.pivot_language)
    out.write("aligned", "articles.jsonl", jsonl(article_records(out.doc_id, pairs)))
    encoder = encoder_for(settings)
    sentences = align_sentences(pairs, encoder.encode, align_params(settings),
                                flag_below=settings.flag_below,
                                second_pass=settings.align_second_pass, review=review)
    out.write("aligned", "sentences.jsonl", jsonl(
        pair.to_json(out.doc_id) for language_pairs in sentences.values()
        for pair in language_pairs))
    if review:
        out.write("aligned", "review.json", json.dumps(
            {"decisions": review.decisions, "stale": review.stale}, ensure_ascii=False,
            indent=1) + "\n")
    return sentences


def repair_config(settings: Settings) -> RepairConfig:
    """The repair rules the settings leave on (all but ``repair_disabled``)."""
    disabled = set(settings.repair_disabled)
    return RepairConfig(**{name: name not in disabled for name in RULES})


def align_params(settings: Settings) -> AlignParams:
    """The aligner's knobs: its defaults, with the settings' ``align`` values."""
    knobs: dict[str, Any] = dict(settings.align)
    return AlignParams(**knobs)


def encoder_for(settings: Settings) -> Encoder:
    """The run's encoder: one per model and cache, so the model loads once."""
    return _encoder(settings.model_dir, settings.state / "embeddings.sqlite")


@cache
def _encoder(model_dir: Path, cache_file: Path) -> Encoder:
    return Encoder(model_dir, cache=cache_file)


def run_export(
    sentences: dict[str, list[SentencePair]], articles: dict[str, list[Article]],
    cleaned: CleanedDocument, settings: Settings, out: DocumentOutput,
) -> dict[str, int]:
    """Join the pairs into units and write every export format; returns pairs per language."""
    units = units_of(out.doc_id, sentences, articles, cleaned, settings.pivot_language,
                     decree=decree_number(cleaned.text))
    rendered = render(units, out.doc_id, settings.export_formats,
                      settings.regional_tags)
    for name, text in rendered.files.items():
        out.write("aligned", name, text)
    return {language: sum(p.matched for p in pairs)
            for language, pairs in sentences.items()}


#: Where ``gazette export`` writes, below ``aligned/`` (no document id starts with ``_``).
CORPUS = "_corpus"


def export_corpus(
    settings: Settings, selection: Selection, formats: tuple[str, ...], regional: bool,
    folder: Path | None = None, since: str | None = None, name: str | None = None,
) -> CorpusExport:
    """Merge the published units of every document into one export, written all at once
    into ``folder`` (default ``aligned/_corpus``, replaced as a whole).

    Every export is recorded under ``name`` (default: its time) with the units the
    selection gave, so that a later export ``since`` it (a name, or ``last``) leaves out
    the units it had: a translation team receives each unit once, and again only when
    its text changed.

    Raises :class:`InputError` if no document has been processed or ``since`` names no
    recorded export (nothing is written).
    """
    folder = folder or settings.aligned / CORPUS
    documents = [read_units(path) for path in sorted(settings.aligned.glob("[!._]*/*.jsonl"))
                 if path.stem == path.parent.name]
    if not documents:
        raise InputError(f"no processed documents in {settings.aligned}",
                         "run `gazette run` first")
    name = exports.checked_name(name)
    since, before = exports.read(settings, since) if since else (None, frozenset())
    units = corpus(documents, selection)
    keys = [unit_key(unit) for unit in units]
    new = [unit for unit, key in zip(units, keys, strict=True) if key not in before]
    if len(new) < len(units):
        selection.dropped[f"exported by {since}"] += len(units) - len(new)
    rendered = render(new, "corpus", formats, regional)
    publish_folder(folder, rendered.files)
    exports.record(settings, name, set(keys) | before, len(new))
    jsonl_file = rendered.files.get("corpus.jsonl")
    return CorpusExport(
        folder=folder, documents=len(documents), files=tuple(rendered.files),
        units=None if jsonl_file is None else jsonl_file.count("\n"),
        left_out=dropped_summary(selection.dropped),
        removed_characters=rendered.removed_characters, name=name)


def finish(
    source: Source, cleaned: CleanedDocument, sections: list[Section],
    sentences: dict[str, list[SentencePair]], counts: dict[str, int], out: DocumentOutput,
    review: Review, act: ActDocument | None = None,
) -> DocumentSummary:
    """Publish the document's outputs with its manifest (the digest of the ``review``
    decisions applied; an act's says where in its edition it is) and return its
    summary."""
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
    _publish(source, summary, out, review.digest, {"identity": identity_json(cleaned.text),
                                    "decree": decree_number(cleaned.text),
                                    "language_shares": language_shares(sections),
                                    **({} if act is None else {"act": act.provenance})})
    return summary


def finish_edition(document: IngestedDocument, cut: Cut, out: DocumentOutput
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
    _publish(source, summary, out, reviews.digest(out.settings, source.doc_id), {"acts": ids},
             aligned=False)
    for folder in (out.settings.cleaned, out.settings.aligned):
        for old in folder.glob(f"{source.doc_id}--*"):
            if old.name not in ids:
                shutil.rmtree(old, ignore_errors=True)
    return summary


def _publish(source: Source, summary: DocumentSummary, out: DocumentOutput,
             review: str | None, extra: dict[str, Any], aligned: bool = True) -> None:
    out.publish({
        "doc_id": source.doc_id,
        "source": source.relpath,
        "parts": [part.relpath for part in source.parts],
        "sha256": source.sha256,
        "pipeline_version": PIPELINE_VERSION,
        "build": out.settings.output_key(),
        "summary": summary.to_json(),
        "review": review,
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


def pair_documents(english: Path, other: Path, settings: Settings,
                   ) -> tuple[list[ExportUnit], list[str]]:
    """Align an English document with its translation kept in another one (``gazette pair``).

    Both files go through ingest, repair, language split and structure, writing nothing;
    the pivot language's articles of ``english`` are paired with the other languages'
    articles of ``other``, then their sentences are aligned. Returns the units, as
    ``gazette run`` exports them, and the languages paired with the pivot. Raises
    :class:`InputError` if ``english`` has no text in the pivot language.
    """
    pivot = settings.pivot_language
    _, _, english_articles = read_structure(english, settings)
    other_text, _, other_articles = read_structure(other, settings)
    if not english_articles.get(pivot):
        raise InputError(f"no {pivot} text found in {english}")
    return _align_across(f"{english.stem}+{other.stem}", english_articles, other_articles,
                         settings, decree_number(other_text.text))


def _align_across(
    pair_id: str, english: dict[str, list[Article]], other: dict[str, list[Article]],
    settings: Settings, decree: str | None,
) -> tuple[list[ExportUnit], list[str]]:
    """The pivot language's articles of one document aligned with the other languages'
    of another: the units (marked with the promulgating ``decree``'s number, if the
    translation is a decree), and the languages paired with the pivot."""
    pivot = settings.pivot_language
    articles = {pivot: english.get(pivot, []),
                **{language: found for language, found in other.items() if language != pivot}}
    sentences = align_sentences(
        pair_articles(articles, pivot), encoder_for(settings).encode, align_params(settings),
        flag_below=settings.flag_below, second_pass=settings.align_second_pass)
    return units_of(pair_id, sentences, articles, None, pivot, decree), list(sentences)


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
            return [text[a:b] for a, b in split_sentences(text, language)]
        return text.splitlines()

    source, target = segments(src, src_lang), segments(tgt, tgt_lang)
    encoder = encoder_for(settings)
    vectors = encoder.encode(source + target)
    return sentalign.align(source, target, vectors[:len(source)], vectors[len(source):],
                           align_params(settings),
                           embed=encoder.encode if settings.align_second_pass else None)


def select_sources(sources: list[Source], only: Sequence[str] | None) -> list[Source]:
    """The sources named in ``only`` (document ids or inbox paths), or all of them.

    Raises :class:`InputError` for a name that matches no document.
    """
    if not only:
        return sources
    unknown = [name for name in only
               if not any(name in (s.doc_id, s.relpath) for s in sources)]
    if unknown:
        raise InputError(f"no document {', '.join(map(repr, unknown))} in the inbox",
                         "give a document id as `gazette status` lists it, or a path "
                         "relative to raw/")
    return [s for s in sources if s.doc_id in only or s.relpath in only]


#: A language holding at most this share of a document's letters does not make it a
#: text in that language: a few short lines taken for English in a Portuguese act
#: (names, table cells) leave it a Portuguese document, one that pairs.
MINOR_SHARE = 0.05


def pair_across_documents(settings: Settings) -> list[tuple[Pairing, bool]]:
    """Align the processed documents that hold one treaty (or one issue of a gazette)
    in English and in another language, each pair into ``aligned/<english>+<other>/``.

    Candidates are documents with text in the pivot language only and documents with
    none, a language's share of a document's letters up to :data:`MINOR_SHARE` aside
    (:mod:`pipeline.pairing` decides which belong together); a pair is published
    with the export formats, ``pairing.json`` (what agreed) and a manifest, and is
    aligned again only when either document or the build changed. Returns each pair
    found, and whether it was aligned now (False: it was up to date).
    """
    pivot = settings.pivot_language
    english: list[tuple[str, dict[str, Any]]] = []
    others: list[tuple[str, dict[str, Any]]] = []
    for row in Catalog(settings).documents():
        manifest = read_manifest(settings, row.doc_id) if row.status == "done" else None
        if manifest is None:
            continue
        shares = manifest.get("language_shares") or {}  # none: an edition
        if shares.get(pivot, 0.0) >= 1 - MINOR_SHARE:
            english.append((row.doc_id, manifest))
        elif shares and shares.get(pivot, 0.0) <= MINOR_SHARE:
            others.append((row.doc_id, manifest))
    if not english or not others:
        return []
    candidates = english + others
    pairings = find_document_pairs([
        (doc, *identity_from_json(manifest.get("identity", {})))
        for doc, manifest in candidates])
    shas = {doc: manifest["sha256"] for doc, manifest in candidates}
    decrees = {doc: manifest.get("decree") for doc, manifest in others}
    return [(pairing, _publish_pair(settings, pairing, shas, decrees[pairing.other]))
            for pairing in pairings]


def _publish_pair(settings: Settings, pairing: Pairing, shas: dict[str, str],
                  decree: str | None) -> bool:
    pair_id = f"{pairing.english}+{pairing.other}"
    record = {"doc_id": pair_id, "pair": [pairing.english, pairing.other],
              "sha256": [shas[pairing.english], shas[pairing.other]],
              "build": settings.output_key()}
    published = read_manifest(settings, pair_id) or {}
    if all(published.get(key) == value for key, value in record.items()):
        return False
    units, _ = _align_across(pair_id, _published_articles(settings, pairing.english),
                             _published_articles(settings, pairing.other), settings, decree)
    out = DocumentOutput(settings, pair_id)
    out.start()
    try:
        for name, text in render(units, pair_id, settings.export_formats,
                                 settings.regional_tags).files.items():
            out.write("aligned", name, text)
        out.write("aligned", "pairing.json", json.dumps(asdict(pairing), ensure_ascii=False,
                                                        indent=1) + "\n")
        out.publish(record)
    finally:
        out.discard()
    return True


def published_pairs(settings: Settings) -> list[tuple[Pairing, int]]:
    """The pairs across documents published in ``aligned/``, each with its number of
    units (``gazette status`` lists them)."""
    pairs = []
    for path in sorted(settings.aligned.glob("*/pairing.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        pairing = Pairing(english=data["english"], other=data["other"],
                          countries=tuple(data["countries"]), evidence=tuple(data["evidence"]),
                          confidence=float(data["confidence"]))
        units = path.parent / f"{path.parent.name}.jsonl"
        pairs.append((pairing, units.read_text(encoding="utf-8").count("\n")
                      if units.is_file() else 0))
    return pairs


def _published_articles(settings: Settings, doc_id: str) -> dict[str, list[Article]]:
    """A processed document's articles by language, as its structure stage found them."""
    text = (settings.cleaned / doc_id / "text.txt").read_text(encoding="utf-8")
    structure = json.loads((settings.cleaned / doc_id / "structure.json").read_text(
        encoding="utf-8"))
    articles: dict[str, list[Article]] = {}
    for data in structure["articles"]:
        article = Article.from_json(data, text)
        articles.setdefault(article.language, []).append(article)
    return articles


def unchanged_run(settings: Settings, trigger: str = "manual") -> list[DocumentSummary] | None:
    """If no document of the inbox is new, changed or failed, record a run that found
    nothing to do and return its summaries; else None (the flow has work).

    A run with nothing to do needs no Prefect flow run: the catalog and the published
    manifests answer (``gazette run`` then starts no server and imports no flow).
    """
    catalog = Catalog(settings)
    sources = discover(settings)
    if not all(is_current(settings, catalog, source) for source in sources):
        return None
    run_id = catalog.start_run(trigger)
    summaries = [skipped(settings, source) for source in sources]
    catalog.finish_run(run_id, summaries)
    return summaries


def skipped(settings: Settings, source: Source) -> DocumentSummary:
    """The summary of a document that is up to date, as its manifest recorded it."""
    recorded = dict((read_manifest(settings, source.doc_id) or {}).get("summary", {}))
    recorded.update(status="skipped", languages=tuple(recorded.get("languages", ())))
    return DocumentSummary(**recorded)
