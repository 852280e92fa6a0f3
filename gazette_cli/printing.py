"""How the ``gazette`` commands print a run, the catalog and an export."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer
from rich.table import Table

from gazette_cli.common import console
from pipeline.config import Settings
from pipeline.records import CorpusExport, DocumentSummary

if TYPE_CHECKING:  # the catalog brings SQLAlchemy: `gazette run` imports it later, while
    # Prefect's temporary server, launched first, starts on the other core
    from pipeline.project.catalog import WorkingRow


def report(summaries: list[DocumentSummary], settings: Settings) -> None:
    """Print the run summary and the failures with their reasons; exit 1 if any failed."""
    console.print(summary_table(summaries))
    failed = [s for s in summaries if s.status == "failed"]
    for s in failed:
        console.print(f"[red]{s.relpath} failed:[/red] {s.error}")
    print_ignored(settings)
    done = sum(s.status == "done" for s in summaries)
    skipped = sum(s.status == "skipped" for s in summaries)
    console.print(f"{done} processed, {skipped} unchanged (no stage work), {len(failed)} failed."
                  f" Outputs in {settings.cleaned} and {settings.aligned}.")
    if failed:
        raise typer.Exit(1)


def print_ignored(settings: Settings) -> None:
    """Say which files of the inbox are no documents, and why."""
    from pipeline.read.ingest import ignored

    for relpath, reason in ignored(settings):
        console.print(f"ignored {relpath}: {reason}")


def summary_table(summaries: list[DocumentSummary]) -> Table:
    """The run summary: one row per document."""
    table = Table(title="gazette run")
    table.add_column("document", no_wrap=True)
    for column in ("status", "pages", "method", "languages", "repairs", "pairs"):
        table.add_column(column)
    for s in summaries:
        methods = ", ".join(f"{name} {count}" for name, count in s.methods.items())
        pairs = ", ".join(
            f"en-{lang} {count}" + (f" ({s.flagged[lang]} flagged)" if s.flagged.get(lang) else "")
            for lang, count in s.pairs.items())
        status = "[red]failed[/red]" if s.status == "failed" else s.status
        languages = " ".join(s.languages) + (f" ({s.acts} acts)" if s.acts else "")
        table.add_row(s.doc_id, status, str(s.pages), methods, languages.strip(),
                      str(s.repairs), pairs)
    return table


def working_table(rows: list[WorkingRow]) -> Table:
    """The documents being processed now: stage, pages read, and by which process."""
    table = Table(title="at work now")
    for column in ("document", "run", "stage", "pages", "since (UTC)", "process"):
        table.add_column(column, no_wrap=True)
    for row in rows:
        alive = row.alive()
        process = (f"pid {row.pid}" if alive else f"[red]gone: pid {row.pid}[/red]"
                   if alive is False else f"pid {row.pid} on {row.host}")
        pages = f"{row.done} of {row.total}" if row.total else ""
        table.add_row(row.doc_id, str(row.run_id), row.stage, pages,
                      row.started[11:19], process)
    return table


def print_export(export: CorpusExport) -> None:
    """What an export wrote, where, and what it left out."""
    console.print(f"{export.documents} document(s) read; left out: {export.left_out}.")
    if export.removed_characters:
        console.print(f"{export.removed_characters} character(s) that XML 1.0 forbids "
                      "were removed from the TMX and XLIFF files.")
    for name in export.files:
        console.print(f"  {export.folder / name}")
    console.print(f"{export.units} unit(s) exported to {export.folder}."
                  if export.units is not None else f"exported to {export.folder}.")
    console.print(f"Recorded as {export.name} (gazette export --since {export.name}).")


def print_pairs(settings: Settings) -> None:
    """The pairs across documents the runs found and aligned, if any."""
    from pipeline.run.crossdoc import published_pairs

    pairs = published_pairs(settings)
    if not pairs:
        return
    table = Table(title="pairs across documents (aligned/<english>+<other>/)")
    for column in ("english", "other", "language", "content", "identity agrees",
                   "confidence", "units"):
        table.add_column(column, overflow="fold")
    for pairing, units in pairs:
        table.add_row(pairing.english, pairing.other, pairing.language, pairing.content,
                      ", ".join(pairing.identity.agrees) or "-",
                      f"{pairing.confidence:.2f}", str(units))
    console.print(table)
