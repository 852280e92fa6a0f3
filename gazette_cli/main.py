"""The ``gazette`` command: the main job (``gazette run``) and one command per stage.

The commands parse and print; the library (``pipeline``) and the flows (``flows``) do
the work. This module holds the project's commands (run, rerun, status, export,
review); :mod:`gazette_cli.files` the commands on files, :mod:`gazette_cli.serving`
serve and worker, :mod:`gazette_cli.common` what they share.
"""

from __future__ import annotations

import getpass
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

import gazette_cli
from gazette_cli.common import (
    DaskOption,
    LocalOption,
    RootOption,
    SetOption,
    WaitOption,
    app,
    console,
    error,
    locked,
    or_exit,
    parse_overrides,
    prefect_settings,
    server,
    stop_when_logged,
    temporary_server,
    trigger,
)
from gazette_cli.printing import print_export, print_ignored, print_pairs, report, working_table
from pipeline.config import Settings

if TYPE_CHECKING:
    from flows.server import TemporaryServer
    from pipeline.records import DocumentSummary

__all__ = ["app", "main"]


def main() -> None:
    """The ``gazette`` command: the app, its exit code kept for the process's end
    (:func:`gazette_cli.end_without_teardown`)."""
    try:
        app()
    except SystemExit as exc:
        code = exc.code
        if isinstance(code, int) or code is None:
            gazette_cli.EXIT_CODE.append(code or 0)
        raise


@app.command()
def run(
    root: RootOption = Path(),
    force: Annotated[bool, typer.Option(help="Redo documents that are up to date.")] = False,
    wait: WaitOption = False,
    dask: DaskOption = None,
    set_: SetOption = None,
) -> None:
    """Run the main job: every new or changed document in raw/ through every stage.

    Exits 1 if any document failed (the others are still processed), 3 if another
    gazette run or export is working on the same folder.
    """
    overrides = or_exit(lambda: parse_overrides(set_ or []))
    settings = prefect_settings(root, overrides)

    # The temporary server starts first, while this process imports what it runs (the
    # project lock brings the catalog's SQLAlchemy) and looks at the inbox: most runs
    # have work, and a run with none, or one that finds the folder busy, stops it unused.
    with temporary_server() as temporary, locked(settings, wait):
        from pipeline.run.plan import unchanged_run

        summaries = None if force else unchanged_run(settings)
        if summaries is None:
            summaries = _run_flow(root.resolve(), force, dask, overrides, temporary)
        else:
            console.print(f"nothing new or changed in {settings.raw}: no flow run")
    report(summaries, settings)


def _run_flow(root: Path, force: bool, dask: str | None, overrides: dict[str, Any],
              temporary: TemporaryServer | None) -> list[DocumentSummary]:
    """The main flow on the project ``root``, once a ``temporary`` server just launched
    answers. The embedding model is not loaded ahead: the server's start and this
    process's imports take both cores, and a run with nothing to embed (an edition in
    one language alone) never needs it (the flow loads it when it finds a text that
    pairing will embed)."""
    from flows.run import gazette_run_on  # Prefect reads its settings on import

    stop_when_logged()
    if temporary is not None:
        or_exit(temporary.wait)
    summaries: list[DocumentSummary] = gazette_run_on(dask)(root, force=force,
                                                            overrides=overrides)
    return summaries


FormatsOption = Annotated[list[str] | None, typer.Option(
    "--format", "-f", help="jsonl, tmx, xliff or tsv (repeat; default: all).")]
LanguagesOption = Annotated[list[str] | None, typer.Option(
    "--lang", "-l", help="Only these languages besides English (repeat).")]
DocumentsOption = Annotated[list[str] | None, typer.Option(
    "--doc", "-d", help="Only these document ids (repeat).")]
MinConfidenceOption = Annotated[float, typer.Option(
    min=0.0, max=1.0, help="Leave out pairs with a lower confidence.")]
ExcludeFlaggedOption = Annotated[bool, typer.Option(
    "--exclude-flagged", help="Leave out pairs flagged for review.")]
ReviewedOnlyOption = Annotated[bool, typer.Option(
    "--reviewed-only", help="Only pairs a reviewer confirmed or corrected.")]
SinceOption = Annotated[str | None, typer.Option(
    help="Only units new or changed since the export recorded under this name "
         "('last': the latest).")]
NameOption = Annotated[str | None, typer.Option(
    help="Record this export under NAME (default: export-<time>).")]
PlainCodesOption = Annotated[bool, typer.Option(
    "--plain-codes", help="Write pt, sv, hi instead of pt-BR, sv-SE, hi-IN.")]
OutOption = Annotated[Path | None, typer.Option(
    help="Output folder (default aligned/_corpus; replaced as a whole).")]


@app.command()
def export(
    root: RootOption = Path(), formats: FormatsOption = None,
    languages: LanguagesOption = None, documents: DocumentsOption = None,
    min_confidence: MinConfidenceOption = 0.0, exclude_flagged: ExcludeFlaggedOption = False,
    reviewed_only: ReviewedOnlyOption = False, since: SinceOption = None,
    name: NameOption = None, plain_codes: PlainCodesOption = False, out: OutOption = None,
    wait: WaitOption = False, local: LocalOption = False,
) -> None:
    """Merge every processed document into one corpus: TMX, XLIFF, TSV and JSONL.

    Units are filtered, de-duplicated across documents, and written as
    corpus.tmx (all languages), corpus.en-<xx>.tmx/.xlf/.tsv per language pair and
    corpus.jsonl. Says what it left out and why. Each export is recorded by name, so
    that --since NAME exports only what is new or changed after it. With a Prefect
    server configured (PREFECT_API_URL, as `gazette serve` sets up) it triggers the
    export deployment.
    """
    from pipeline.export import FORMATS, Selection
    from pipeline.export.corpus import export_corpus

    settings = prefect_settings(root)
    if server() and not local and out is None:
        print_export(trigger(root.resolve(), "export", {
            "root": str(root.resolve()), "formats": formats, "languages": languages,
            "documents": documents, "min_confidence": min_confidence,
            "exclude_flagged": exclude_flagged, "plain_codes": plain_codes,
            "reviewed_only": reviewed_only, "since": since, "name": name}))
        return
    selection = Selection.of(languages, documents, min_confidence, exclude_flagged,
                             reviewed_only)
    try:
        with locked(settings, wait):
            export_ = or_exit(lambda: export_corpus(
                settings, selection, tuple(formats or FORMATS), not plain_codes, out,
                since, name))
    except ValueError as exc:
        error(str(exc))
        raise typer.Exit(2) from exc
    print_export(export_)


@app.command()
def rerun(
    doc: Annotated[str, typer.Argument(
        help="A document id (as `gazette status` lists it), a pair across documents "
             "(english+other), or a path relative to raw/.")],
    root: RootOption = Path(),
    local: LocalOption = False,
) -> None:
    """Redo every stage of one decree, e.g. after a fix.

    With a Prefect server configured (PREFECT_API_URL) it triggers the re-run
    deployment that `gazette serve` serves and waits for it; otherwise it runs here.
    Pages of an unchanged file come from the reading cache (no new OCR).
    """
    settings = prefect_settings(root)
    if server() and not local:
        report(trigger(root.resolve(), "rerun", {"root": str(root.resolve()), "doc": doc}),
                settings)
        return
    with temporary_server() as temporary:
        from flows.deployments import rerun_flow  # Prefect reads its settings on import

        if temporary is not None:
            or_exit(temporary.wait)
        summaries = or_exit(lambda: rerun_flow(root.resolve(), doc))
    report(summaries, settings)


@app.command()
def status(root: RootOption = Path()) -> None:
    """Show the run catalog: the documents at work now (stage, pages read), every document
    with its stages and their seconds, the last runs."""
    from pipeline.project.catalog import Catalog
    from pipeline.run.plan import inbox_documents

    settings = Settings.for_root(root)
    catalog = Catalog(settings)
    rows = catalog.documents()
    print_ignored(settings)
    working = catalog.working()
    if working:
        console.print(working_table(working))
    if not rows:
        console.print(f"no documents processed yet in {settings.state.parent}")
        return
    table = Table(title=f"gazette status: {settings.state.parent}")
    # ids and times whole (an id is what `gazette rerun` takes); stages and errors wrap
    for column in ("document", "status", "pages", "stages (seconds)", "updated", "error"):
        table.add_column(column, **({"overflow": "fold"} if column in ("stages (seconds)", "error")
                                    else {"no_wrap": True}))
    in_inbox = inbox_documents(settings)
    gone = [row.doc_id for row in rows if row.doc_id not in in_inbox]
    for row in rows:
        stages = " ".join(f"{name} {seconds:.1f}" if state == "done" and seconds is not None
                          else f"[red]{name} {state}[/red]"
                          for name, (state, seconds) in row.stages.items())
        status_text = "[red]failed[/red]" if row.status == "failed" else row.status
        if row.doc_id in gone:
            status_text += " [yellow](file gone)[/yellow]"
        table.add_row(row.doc_id, status_text, str(row.pages or 0), stages, row.updated,
                      row.error or "")
    console.print(table)
    if gone:
        console.print(f"{len(gone)} document(s) whose file is gone from raw/: their outputs "
                      "and review decisions are kept, and they pair with nothing; remove "
                      "cleaned/<doc>/, aligned/<doc>/ and reviews/<doc>.jsonl by hand if they "
                      "are no longer wanted")
    print_pairs(settings)
    for run_id, cause, started, finished, processed, skipped, failed in catalog.runs():
        console.print(f"run {run_id} ({cause}) {started} → {finished or 'unfinished'}: "
                      f"{processed or 0} processed, {skipped or 0} unchanged, "
                      f"{failed or 0} failed")


@app.command()
def review(
    doc: Annotated[str | None, typer.Argument(
        help="A document id, as `gazette run` printed it, or a pair across documents "
             "(english+other) (with --serve: the page to open; without, all are listed).")
    ] = None,
    root: RootOption = Path(),
    out: Annotated[Path | None, typer.Option(
        help="Where to write the page (default aligned/<doc>/review.html).")] = None,
    serve: Annotated[bool, typer.Option(
        "--serve", help="Serve the review pages on 127.0.0.1, taking decisions.")] = False,
    port: Annotated[int, typer.Option(help="Port for --serve (0: a free one).")] = 0,
    who: Annotated[str | None, typer.Option(
        help="The reviewer's name in the decisions (default: your login).")] = None,
) -> None:
    """Review a document's alignment: write a self-contained HTML page, or with --serve
    a local web app whose decisions the next run applies.

    Articles as rows, languages as columns, each unit with its confidence; flagged
    units highlighted and filterable; repaired words show their OCR text on hover;
    unreadable regions and page problems listed with their reasons. A pair across
    documents (english+other) is reviewed the same way. Served, each unit can be
    confirmed, rejected, joined with a neighbouring sentence or row, split, or have a
    word corrected, by button or key (j/k go through the flagged units); the decisions
    go to reviews/<doc>.jsonl, are listed on the page and can be undone. The server
    listens on 127.0.0.1 only and answers only URLs with the token it prints.
    """
    settings = Settings.for_root(root)
    if serve:
        _serve_review(settings, doc, port, who or getpass.getuser())
        return
    if doc is None:
        error("give the document to review (or --serve)")
        raise typer.Exit(2)
    from pipeline.review.page import write_review

    path = or_exit(lambda: write_review(settings, doc, out))
    console.print(f"review page written to {path}")


def _serve_review(settings: Settings, doc: str | None, port: int, who: str) -> None:
    """Run the review app until Ctrl-C; print the URL with its token."""
    import uvicorn

    from flows.server import free_port
    from pipeline.review.app import review_app

    token = secrets.token_urlsafe(24)
    port = port or free_port()
    path = f"/doc/{doc}" if doc else "/"
    console.print(f"review at http://127.0.0.1:{port}{path}?token={token}", soft_wrap=True)
    console.print(f"decisions go to {settings.reviews}; Ctrl-C stops.")
    sys.stdout.flush()
    uvicorn.run(review_app(settings, token, who), host="127.0.0.1", port=port,
                log_level="warning")


# The commands on files and the serving commands register themselves on import; listed
# after the project's own in `gazette --help`.
from gazette_cli import files, serving  # noqa: E402, F401
