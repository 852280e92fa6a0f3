"""What a run is to do: the inbox's documents it takes, whether any needs work, and the
summaries of those that do not."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Sequence
from typing import Any

from pipeline.config import Settings
from pipeline.errors import InputError
from pipeline.project import decisions
from pipeline.project.catalog import Catalog
from pipeline.project.store import is_up_to_date, read_manifest, write_atomic
from pipeline.read.ingest import discover
from pipeline.records import DocumentSummary, Source

__all__ = ["PAIRED", "PAIRING", "current_documents", "documents_key", "inbox_documents",
           "pairing_done", "pairings", "select_sources", "skipped", "unchanged_run"]

#: The file that makes a folder of ``aligned/`` a pair across documents (what decided it).
PAIRING = "pairing.json"
#: In the project's state folder: the documents pairing across documents last ended on.
PAIRED = "paired.json"


def pairings(settings: Settings) -> dict[str, dict[str, Any]]:
    """The pairs across documents published in ``aligned/``: pair id → its ``pairing.json``."""
    return {path.parent.name: json.loads(path.read_text(encoding="utf-8"))
            for path in sorted(settings.aligned.glob(f"*/{PAIRING}"))}


def select_sources(sources: list[Source], only: Sequence[str] | None,
                   pairs: Collection[str] = ()) -> list[Source]:
    """The sources named in ``only`` (document ids or inbox paths), or all of them. A
    name in ``pairs`` (a pair across documents: the run's pairing step redoes it)
    names no source.

    Raises :class:`InputError` for a name that matches no document nor pair.
    """
    if not only:
        return sources
    unknown = [name for name in only if name not in pairs
               and not any(name in (s.doc_id, s.relpath) for s in sources)]
    if unknown:
        raise InputError(f"no document {', '.join(map(repr, unknown))} in the inbox",
                         "give a document id as `gazette status` lists it, a pair across "
                         "documents as it lists them (english+other), or a path relative "
                         "to raw/")
    return [s for s in sources if s.doc_id in only or s.relpath in only]


def unchanged_run(settings: Settings, trigger: str = "manual") -> list[DocumentSummary] | None:
    """If no document of the inbox is new, changed or failed, pairing across documents
    ended on them as they are (:func:`pairing_done`), and no pair across documents lost
    a document or has review decisions it was not aligned with, record a
    run that found nothing to do (folded into the last run if that found nothing
    either: :meth:`Catalog.record_idle_run`) and return its summaries; else None (the
    flow has work).

    A run with nothing to do needs no Prefect flow run: the catalog and the published
    manifests answer (``gazette run`` then starts no server and imports no flow, and a
    scheduled tick no flow of its own and no report).
    """
    sources = discover(settings)
    if not all(is_up_to_date(settings, source) for source in sources):
        return None
    current = current_documents(settings, sources)
    if _paired_on(settings) != documents_key(settings, current):
        return None  # pairing did not end on these documents (a run killed before it)
    for pair_id, pair in pairings(settings).items():
        if not {pair["english"], pair["other"]} <= current:  # a pair whose file went
            return None
        if (read_manifest(settings, pair_id) or {}).get("review") != decisions.digest(
                settings, pair_id):
            return None
    summaries = [skipped(settings, source) for source in sources]
    Catalog(settings).record_idle_run(trigger, summaries)
    return summaries


def documents_key(settings: Settings, documents: Collection[str]) -> str:
    """The documents as published (each one's content and build, from its manifest),
    in one key: what pairing across documents was done on."""
    published = []
    for doc in sorted(documents):
        manifest = read_manifest(settings, doc) or {}
        published.append(f"{doc} {manifest.get('sha256')} {manifest.get('build')}")
    return hashlib.sha1("\n".join(published).encode()).hexdigest()


def pairing_done(settings: Settings, key: str) -> None:
    """Record that pairing across documents ended on the documents of ``key``
    (:func:`documents_key`): a run with nothing else to do need not pair again."""
    write_atomic(settings.state / PAIRED, json.dumps({"documents": key}) + "\n")


def _paired_on(settings: Settings) -> str:
    """The documents pairing last ended on (their key); before any pairing, none: an
    empty inbox has nothing to pair."""
    try:
        return str(json.loads((settings.state / PAIRED).read_text(encoding="utf-8"))
                   ["documents"])
    except (OSError, ValueError, KeyError, TypeError):
        return documents_key(settings, ())


def current_documents(settings: Settings, sources: list[Source] | None = None) -> set[str]:
    """The documents of the inbox's files as processed last (an edition's acts with it):
    what takes part in pairing across documents."""
    current: set[str] = set()
    for source in discover(settings) if sources is None else sources:
        manifest = read_manifest(settings, source.doc_id)
        if manifest is not None and manifest.get("sha256") == source.sha256:
            current.update(manifest.get("acts") or [source.doc_id])
    return current


def skipped(settings: Settings, source: Source) -> DocumentSummary:
    """The summary of a document that is up to date, as its manifest recorded it."""
    recorded = dict((read_manifest(settings, source.doc_id) or {}).get("summary", {}))
    recorded.update(status="skipped", languages=tuple(recorded.get("languages", ())))
    return DocumentSummary(**recorded)


def inbox_documents(settings: Settings) -> set[str]:
    """The documents of the files in raw/ (an edition's acts with it), processed or not
    yet, and the pairs across documents published: what `gazette status` does not call
    gone."""
    found: set[str] = set(pairings(settings))
    for source in discover(settings):
        found.add(source.doc_id)
        found.update((read_manifest(settings, source.doc_id) or {}).get("acts") or ())
    return found
