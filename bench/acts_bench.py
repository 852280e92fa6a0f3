"""Act benchmark: an edition cut into its acts, against act boundaries marked by hand.

The edition is the 140-page Diário Oficial da União section 1 of 1 October 2014
(``brazil-pdfs/DOUS1a.pdf``), read as a run reads it, then cut by
``pipeline.editions.acts.find_acts`` (on the lines as read: the repair stage's reflow would
join a heading to the lines around it, so acts are cut first and repaired each).
Gold: ``bench/gold/dou-2014-10-01-s1-acts.tsv`` (pages 1-15,
the *tuning* pages: the finder was written looking at them) and
``…-acts-tcu.tsv`` (pages 113-119) and ``…-acts-heldout2.tsv`` (pages 102-106, held
out until two of their misses were fixed); ``…-acts-heldout.tsv`` (pages 40-47, marked
before the finder existed), ``…-acts-heldout3.tsv`` (pages 120-127) and
``…-acts-heldout4.tsv`` (pages 80-87), never used to change it: the *reporting* pages. A found act
matches a gold act on the same page if its heading, spaces aside, starts with the gold
heading (a heading joined to its second line, or glued to another column's text, still
counts), or failing that, starts with it but for letters OCR misread (``alike``: the same
figures, 0.9 alike).

Printed per gold file: boundary precision and recall, the share of matched acts of the
right kind; over the whole edition: acts found, the share with issuing bodies and with
a page range, the acts taken for treaties (``pipeline.editions.treaties``; the edition
promulgates none), and the finder's time against reading the edition; then the same
scores with every kind's name renamed, in the edition and its gold, to one the finder's
list does not hold (``PROVIMENTO``, ``PROVIMENTOS``): acts known by their headings' shape
alone, as an edition's kind never seen would be; then the edition under another
gazette's running head (:func:`other_gazette`), and the acts found in documents that are
no edition (:func:`not_editions`). With ``--run``,
also ``gazette run`` in a fresh project (its own temporary Prefect server, every act a
task), three times: on the edition alone; on the edition with an English text beside it
that nothing in the edition translates (the Brazil–Sweden protocol's, from
``raw/samples``: the acts' digests are then embedded, to look for its translation among
them); and on the edition with a decree planted after its third page and the decree's
English text beside it (``pairing_data``: the largest Portuguese decision of the
pairing benchmark's reporting half, 137 sentences, a treaty's size), which the run
pairs and aligns. Each run's wall time is printed against this script's reading of the
same PDF (``ingest`` alone, as above) just before the run, so that the two are timed in
the same minutes (this machine's speed moves by 15 % within an hour), and against the
reading inside the run (flow start to the last page read, from its log), with the acts'
time (the edition cut to the last act done) and the acts published. With ``--run-pages
N``, the same three runs on the edition's first N pages (and the planted decree's): a
smaller edition, where a run's fixed costs weigh more. With ``--scan``, each half's gold
pages (tuning: the 27 of pages 1-15, 102-106 and 113-119; reporting: the 20 where an act
starts) are also photocopied into an image-only PDF (``pairing_data.scanned``), read by
OCR as ``gazette ingest`` reads it, cut into acts and scored against the same gold: a
scanned edition's acts.

Usage::

    .venv/bin/python bench/acts_bench.py --shared ../shared [--scan] [--run] [--run-pages N]
"""

from __future__ import annotations

import argparse
import csv
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import replace
from difflib import SequenceMatcher
from pathlib import Path

import pikepdf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline import workers  # noqa: E402
from pipeline.config import Settings  # noqa: E402
from pipeline.editions.acts import KINDS, Act, find_acts  # noqa: E402
from pipeline.editions.cut import cut_edition  # noqa: E402
from pipeline.editions.treaties import treaty_in  # noqa: E402
from pipeline.read.ingest import ingest, source_for  # noqa: E402
from pipeline.records import IngestedDocument, Page  # noqa: E402
from pipeline.repair import repair  # noqa: E402

#: How alike a found heading must be to a gold one OCR misread (difflib's ratio).
MIN_ALIKE = 0.9
FIGURES = re.compile(r"\d+")
#: The photocopies' random seed (their noise and turn), for ``--scan``.
SCAN_SEED = 40

GOLD = {"tuning (pages 1-15)": ROOT / "bench/gold/dou-2014-10-01-s1-acts.tsv",
        "reporting (pages 40-47, held out)":
            ROOT / "bench/gold/dou-2014-10-01-s1-acts-heldout.tsv",
        "tuning (pages 113-119, TCU acórdãos)":
            ROOT / "bench/gold/dou-2014-10-01-s1-acts-tcu.tsv",
        "tuning (pages 102-106, reporting until their misses were fixed)":
            ROOT / "bench/gold/dou-2014-10-01-s1-acts-heldout2.tsv",
        "reporting (pages 120-127, held out)":
            ROOT / "bench/gold/dou-2014-10-01-s1-acts-heldout3.tsv",
        "reporting (pages 80-87, held out)":
            ROOT / "bench/gold/dou-2014-10-01-s1-acts-heldout4.tsv"}


def read_gold(path: Path) -> list[tuple[int, str, str]]:
    """(page, kind, heading) rows of a gold file (``#`` lines are its notes)."""
    rows = csv.DictReader((line for line in path.open(encoding="utf-8")
                           if not line.startswith("#")), delimiter="\t")
    return [(int(row["page"]), row["kind"], row["heading"]) for row in rows]


def squeeze(heading: str) -> str:
    """A heading without its spaces, in capitals, the degree sign taken for the ordinal
    indicator (the layer draws `N°`, which the page shows and OCR reads as `Nº`)."""
    return "".join(heading.split()).upper().replace("\N{DEGREE SIGN}", "º")


def same(found: str, gold: str) -> bool:
    """The found heading starts with the gold one (it may go on: a second heading line,
    another column's text glued to it)."""
    return squeeze(found).startswith(squeeze(gold))


def alike(found: str, gold: str) -> bool:
    """The found heading starts with the gold one but for letters or marks OCR misread
    (:data:`MIN_ALIKE` of it alike: `DE 30/DE SETEMBRO`), with the same figures in the
    same order (a figure misread is another act's number).

    >>> alike("PORTARIA Nº 192, DE 30/DE SETEMBRO DE 2014", "PORTARIA Nº 192, DE 30 DE "
    ...       "SETEMBRO DE 2014"), alike("PORTARIA Nº 249, DE 29", "PORTARIA Nº 248, DE 29")
    (True, False)
    """
    figures = FIGURES.findall(gold)
    found_head = squeeze(found)[:len(squeeze(gold))]
    return (FIGURES.findall(found)[:len(figures)] == figures
            and SequenceMatcher(None, squeeze(gold), found_head).ratio() >= MIN_ALIKE)


def score(acts: list[Act], gold: list[tuple[int, str, str]]) -> dict[str, float]:
    pages = {page for page, _, _ in gold}
    found = [act for act in acts if act.first_page in pages]
    unmatched = list(gold)
    right_kind = matched = 0
    for act in found:
        on_page = [g for g in unmatched if g[0] == act.first_page]
        hit = (next((g for g in on_page if same(act.heading, g[2])), None)
               or next((g for g in on_page if alike(act.heading, g[2])), None))
        if hit is None:
            print(f"    found, not in gold: p{act.first_page} {act.kind}: {act.heading[:70]}")
            continue
        unmatched.remove(hit)
        matched += 1
        right_kind += hit[1] == act.kind
    for page, kind, heading in unmatched:
        print(f"    missed: p{page} {kind}: {heading[:70]}")
    return {"gold": len(gold), "found": len(found), "matched": matched,
            "precision": matched / len(found) if found else 0.0,
            "recall": matched / len(gold), "kind": right_kind / matched if matched else 0.0}


def report(acts: list[Act], golds: dict[str, Path],
           heading: Callable[[str], str] = str, half: str = "reporting") -> None:
    """Print :func:`score` for each gold file (its headings as ``heading`` gives them),
    and over the ``half``'s together."""
    together = {"gold": 0.0, "found": 0.0, "matched": 0.0}
    for name, path in golds.items():
        print(f"  {name}:")
        figures = score(acts, [(page, kind, heading(head))
                               for page, kind, head in read_gold(path)])
        print(f"  {name}: {figures['gold']} gold acts, {figures['found']} found, "
              f"{figures['matched']} matched: boundary precision {figures['precision']:.3f}, "
              f"recall {figures['recall']:.3f}; kind right for {figures['kind']:.3f} "
              "of the matched")
        if name.startswith(half):
            for key in together:
                together[key] += figures[key]
    print(f"  all {half} pages: {together['gold']:.0f} gold acts, "
          f"{together['found']:.0f} found, {together['matched']:.0f} matched: boundary "
          f"precision {together['matched'] / max(1.0, together['found']):.3f}, "
          f"recall {together['matched'] / max(1.0, together['gold']):.3f}")


def read_edition(pdf: Path) -> tuple[IngestedDocument, float]:
    """``pdf`` read as a run reads it (in a fresh project, its page workers stopped
    after), and the seconds that took."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        document = ingest(source_for(pdf), Settings.for_root(Path(tmp)))
    workers.shutdown()
    return document, time.perf_counter() - started


def scanned_half(pdf: Path, half: str) -> None:
    """The pages of a ``half``'s gold (``tuning`` or ``reporting``) photocopied
    (``pairing_data.scanned``: 300 dpi, gray paper, noise, a turn under 1°, JPEG; no
    text layer) into one PDF, read by OCR as ``gazette ingest`` reads it, cut into acts
    and scored against the same gold."""
    from pairing_data import scanned

    golds = {name: path for name, path in GOLD.items() if name.startswith(half)}
    numbers = sorted({page for path in golds.values() for page, _, _ in read_gold(path)})
    with tempfile.TemporaryDirectory() as tmp:
        scan = Path(tmp) / f"{pdf.stem}-{half}-scan.pdf"
        scanned(pdf, scan, seed=SCAN_SEED, numbers=numbers)
        document, read = read_edition(scan)
    acts = [replace(act, first_page=numbers[act.first_page - 1],
                    last_page=numbers[act.last_page - 1]) for act in find_acts(document.pages)]
    print(f"the {half} pages scanned ({len(numbers)} pages, read by OCR in {read:.0f} s): "
          f"{len(acts)} acts found")
    report(acts, golds, half=half)


def renamed(text: str) -> str:
    """``text`` with every kind's name that :data:`KINDS` holds, in capitals, renamed to
    a kind it does not hold (:data:`UNSEEN`), plural for plural.

    >>> renamed("PORTARIAS DE 29 DE SETEMBRO / DECRETO Nº 1 / PORTARIAN o- 2 / Portaria")
    'PROVIMENTOS DE 29 DE SETEMBRO / PROVIMENTO Nº 1 / PROVIMENTON o- 2 / Portaria'
    """
    return _KIND_WORD.sub(lambda m: UNSEEN[m.group(1).endswith("S")], text)


#: What :func:`unseen_kinds` names every kind: singular, plural.
UNSEEN = ("PROVIMENTO", "PROVIMENTOS")
_KIND_WORD = re.compile(r"\b(" + "|".join(sorted(KINDS, key=len, reverse=True))
                        + r")(?=N?\b)")


def unseen_kinds(document: IngestedDocument) -> None:
    """The edition cut with every kind's name renamed (:func:`renamed`), in its
    text and in the gold: how far the finder knows acts by their headings' shape, not by
    its list of kinds."""
    pages = [replace(page, text=renamed(page.text)) for page in document.pages]
    acts = find_acts(pages)
    print(f"every kind renamed {UNSEEN[0]}: {len(acts)} acts found")
    report(acts, GOLD, renamed)


#: The running head of another gazette, put at the top of every page of the edition in
#: place of the DOU's (:func:`other_gazette_pages`), with the page's number after it.
STATE_HEAD = "DIÁRIO OFICIAL DO ESTADO DE SÃO PAULO - VOLUME 124 - PÁGINA"
_DOU_HEAD = re.compile(r"^.*(ISSN 1677-7042|DI[ÁA]RIO OFICIAL DA UNI[ÃA]O).*\n?", re.MULTILINE)


def other_gazette_pages(pages: Sequence[Page]) -> tuple[Page, ...]:
    """The edition's pages as another gazette would print them: the DOU's masthead and
    running head lines taken out, :data:`STATE_HEAD` and the page's number put first on
    each page."""
    return tuple(replace(page, text=f"{STATE_HEAD} {page.number}\n"
                         + _DOU_HEAD.sub("", page.text)) for page in pages)


def other_gazette(document: IngestedDocument, acts: list[Act]) -> None:
    """The edition under another gazette's head (:func:`other_gazette_pages`), cut as
    a run cuts it (:func:`pipeline.editions.cut.cut_edition`: no masthead it knows),
    against the DOU's own acts; each act repaired as a run repairs it (with its
    edition's running heads), counting the acts whose text still holds the head, and
    as it would be without them (each act's own pages alone)."""
    cut = cut_edition(IngestedDocument(document.source, other_gazette_pages(document.pages)))
    same = sum(a.act.heading == b.heading for a, b in zip(cut.acts, acts, strict=False))
    kept = sum(STATE_HEAD in repair(a.document, running=a.running).text for a in cut.acts)
    alone = sum(STATE_HEAD in repair(a.document).text for a in cut.acts)
    print(f"under another gazette's running head: {cut.reason}; {same} of the DOU's "
          f"{len(acts)} acts with the same heading; the head left in the repaired text "
          f"of {kept} acts ({alone} if each act's repair found running heads on its own "
          "pages alone)")


def not_editions(shared: Path) -> None:
    """The acts found in documents that are no edition, which a cut by acts must leave
    whole: the samples, the 34 EU decisions of ``dgt-decisions`` in each of their
    languages, the 60 NTREX news documents in each language, and the Indian and
    Swedish PDFs. Prints how many documents hold how many acts."""
    import pairing_data

    texts = {path.name: path.read_text(encoding="utf-8")
             for path in sorted((ROOT / "raw/samples").glob("*.txt"))}
    texts |= pairing_data.decision_texts(shared)
    for language in ("eng", "por", "por-BR", "swe", "hin"):
        for number, lines in enumerate(pairing_data.ntrex_documents(shared, language)):
            texts[f"ntrex {language} {number}"] = "\n".join(lines)
    found = {name: len(find_acts([Page(1, "text-dump", "", text)]))
             for name, text in texts.items()}
    pdfs = [*sorted((ROOT / "raw/samples").glob("*.pdf")),
            *sorted((shared / "corpora/india-pdfs").glob("*.pdf")),
            *sorted((shared / "corpora/sweden-pdfs").glob("*.pdf"))]
    for pdf in pdfs:
        found[pdf.name] = len(find_acts(read_edition(pdf)[0].pages))
    counts = sorted(set(found.values()))
    print(f"documents that are no edition: {len(found)}; acts found: "
          + ", ".join(f"{count} in {sum(n == count for n in found.values())}"
                      for count in counts)
          + "; the most: " + ", ".join(f"{name} ({count})" for name, count
                                       in sorted(found.items(), key=lambda i: -i[1])[:3]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--run", action="store_true",
                        help="also time `gazette run` on the edition in a fresh project")
    parser.add_argument("--scan", action="store_true",
                        help="also cut the acts of each half's gold pages photocopied "
                             "and read by OCR")
    parser.add_argument("--run-pages", type=int, metavar="N",
                        help="also time `gazette run` on the edition's first N pages (a "
                             "smaller edition, where a run's fixed costs weigh more)")
    args = parser.parse_args()
    pdf = args.shared / "corpora/brazil-pdfs/DOUS1a.pdf"

    document, read = read_edition(pdf)
    started = time.perf_counter()
    acts = find_acts(document.pages)
    cut = time.perf_counter() - started

    print(f"{pdf.name}: {len(document.pages)} pages, {len(acts)} acts found")
    report(acts, GOLD)
    with_bodies = sum(bool(act.bodies) for act in acts) / len(acts)
    ranged = sum(act.first_page <= act.last_page for act in acts) / len(acts)
    print(f"  whole edition: {len(acts)} acts; with issuing bodies {with_bodies:.3f}, "
          f"with a page range {ranged:.3f}; kinds: "
          + ", ".join(f"{kind} {sum(a.kind == kind for a in acts)}"
                      for kind in sorted({a.kind for a in acts})))
    treaties = [act for act in acts if treaty_in(act.text) is not None]
    print(f"  treaties recognised among the edition's acts: {len(treaties)} (it prints "
          "no treaty decree: each one found would be wrong)")
    print(f"  time: reading {read:.1f} s, finding acts "
          f"{cut:.2f} s ({cut / read:.1%} of reading)")

    unseen_kinds(document)
    other_gazette(document, acts)
    not_editions(args.shared)
    if args.scan:
        for half in ("tuning", "reporting"):
            scanned_half(pdf, half)
    if args.run:
        run_all(pdf, args.shared)
    if args.run_pages:
        with tempfile.TemporaryDirectory() as tmp:
            print(f"  the edition's first {args.run_pages} pages:")
            run_all(first_pages(pdf, args.run_pages, Path(tmp)), args.shared, args.run_pages)


def run_all(pdf: Path, shared: Path, pages: int | None = None) -> None:
    """:func:`run_edition` on ``pdf`` alone, with an English text nothing in it
    translates, and (the edition's first ``pages`` pages, default all) with a decree
    planted and its English text."""
    protocol = (ROOT / "raw/samples/002_9382d4ae2bbb4b06.txt").read_text(encoding="utf-8")
    english = protocol[protocol.index("PROTOCOL AMENDING"):protocol.index("PROTOKOLL")]
    for name, extra in (("the edition alone", {}),
                        ("the edition and an English text", {"protocol_en.txt": english})):
        run_edition(pdf, name, extra)
    with tempfile.TemporaryDirectory() as tmp:
        planted, english = planted_edition(shared, Path(tmp), pages)
        run_edition(planted, "the edition with a decree planted and its English text",
                    {"decision_en.txt": english})


def planted_edition(shared: Path, folder: Path, pages: int | None) -> tuple[Path, str]:
    """The edition with a decree planted after its third page (its first ``pages``
    pages and the decree's, if given), in ``folder``, and the decree's English text: the
    largest Portuguese decision of the pairing benchmark's reporting half."""
    import pairing_data

    members = [(decision, role) for decision, role
               in pairing_data.plan(pairing_data.decisions(shared))["reporting"]
               if role == "pt"]
    decision = max(members, key=lambda member: len(member[0].texts("pt")))[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pikepdf: the edition's pages have no form
        name = pairing_data.build_edition(shared, [(decision, "pt")], folder, scan=False)
        edition = folder / name
        if pages is not None:
            dou = shared / "corpora/brazil-pdfs/DOUS1a.pdf"
            with pikepdf.open(edition) as whole, pikepdf.open(dou) as plain:
                planted = len(whole.pages) - len(plain.pages)
            edition = first_pages(edition, pages + planted, folder)
    return edition, pairing_data.english_lines(decision)


def first_pages(pdf: Path, count: int, folder: Path) -> Path:
    """A PDF of the first ``count`` pages of ``pdf`` (a smaller edition), in ``folder``."""
    part = folder / f"{pdf.stem}-{count}.pdf"
    with pikepdf.open(pdf) as whole, pikepdf.new() as out, warnings.catch_warnings():
        warnings.simplefilter("ignore", pikepdf.PageCopyWarning)  # the edition has no form
        out.pages.extend(whole.pages[:count])
        out.save(part)
    return part


def run_edition(pdf: Path, name: str, extra: dict[str, str]) -> None:
    """Time `gazette run` on the edition (and the ``extra`` files) in a fresh project,
    against this script's reading of the edition just before."""
    _, read = read_edition(pdf)
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "raw").mkdir()
        shutil.copy(pdf, Path(tmp) / "raw" / pdf.name)
        for file, text in extra.items():
            (Path(tmp) / "raw" / file).write_text(text, encoding="utf-8")
        started = time.perf_counter()
        done = subprocess.run([str(ROOT / ".venv/bin/gazette"), "run"], cwd=tmp,
                              capture_output=True, text=True, check=False)
        seconds = time.perf_counter() - started
        acts = sorted(p.name for p in (Path(tmp) / "aligned").glob(f"{pdf.stem}--*"))
        pairs = sorted(p.name for p in (Path(tmp) / "aligned").glob("*+*"))
    log = done.stdout + done.stderr
    in_run = logged_seconds(log, "Beginning flow run", " pages read (")
    cut = logged_seconds(log, f"{pdf.stem}: ", " acts processed", start_marker=" acts, ")
    print(f"  gazette run on {name}: exit {done.returncode}, {seconds:.1f} s wall, "
          f"{len(acts)} acts and {len(pairs)} pairs published; in the run: reading "
          f"{in_run:.1f} s, acts {cut:.1f} s; this script's reading just before {read:.1f} s; "
          f"run / this script's reading {seconds / read:.2f}x, "
          f"run / the run's reading {seconds / in_run:.2f}x")


def logged_seconds(log: str, start: str, end: str, start_marker: str = "") -> float:
    """Seconds from the first log line holding ``start`` (and ``start_marker``) to the
    last holding ``end``, by the lines' ``HH:MM:SS.mmm`` stamps (nan if either is
    missing)."""
    def stamp(line: str) -> float:
        hours, minutes, rest = line[:12].split(":")
        return int(hours) * 3600 + int(minutes) * 60 + float(rest)

    lines = [line for line in log.splitlines() if line[:2].isdigit() and line[2:3] == ":"]
    first = next((stamp(line) for line in lines if start in line and start_marker in line),
                 None)
    last = next((stamp(line) for line in reversed(lines) if end in line), None)
    return float("nan") if first is None or last is None else last - first


if __name__ == "__main__":
    main()
