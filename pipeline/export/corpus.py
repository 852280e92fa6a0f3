"""The corpus: every processed document's published units merged into one export
(``gazette export``), and the record of what each export held."""

from __future__ import annotations

from pathlib import Path

from pipeline.config import Settings
from pipeline.errors import InputError
from pipeline.export import Selection, corpus, dropped_summary, history, read_units, render
from pipeline.export.units import unit_key
from pipeline.project.store import publish_folder
from pipeline.records import CorpusExport

__all__ = ["CORPUS", "export_corpus"]

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
    name = history.checked_name(name)
    since, before = history.read(settings, since) if since else (None, frozenset())
    units = corpus(documents, selection)
    keys = [unit_key(unit) for unit in units]
    new = [unit for unit, key in zip(units, keys, strict=True) if key not in before]
    if len(new) < len(units):
        selection.dropped[f"exported by {since}"] += len(units) - len(new)
    rendered = render(new, "corpus", formats, regional)
    publish_folder(folder, rendered.files)
    history.record(settings, name, set(keys) | before, len(new))
    jsonl_file = rendered.files.get("corpus.jsonl")
    return CorpusExport(
        folder=folder, documents=len(documents), files=tuple(rendered.files),
        units=None if jsonl_file is None else jsonl_file.count("\n"),
        left_out=dropped_summary(selection.dropped),
        removed_characters=rendered.removed_characters, name=name)
