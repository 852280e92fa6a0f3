"""A scanned edition: gazette's reading against plain Tesseract, page by page and in CPU.

Pages of the real 140-page DOU (``brazil-pdfs/DOUS1a.pdf``: three columns of 8-point
serif, tables, a watermark) are rendered at 300 dpi as photocopies
(``pairing_data.photocopy``: gray paper darkening to one side, gray ink, noise, a
rotation under one degree, JPEG) into an image-only PDF, one per half:

* **tuning** pages: 1, 19, 37, … (every 18th page from the first);
* **reporting** pages: 10, 28, 46, … (every 18th from the tenth);
* two more sets, **check-5** (5, 23, 41, …) and **check-14** (14, 32, 50, …), first
  read on 2026-12-07 to decide one question (whether Tesseract is told the
  resolution) with all four sets in view: since then no cleaner than the tuning half.

The truth is each page's text layer: the words of its upright characters (the
diagonal watermark left out) as the page shows them, as gazette's text-layer reading
takes them before its layout (``textlayer.as_shown``). That mends three faults of the
layer: a justified table cell draws a space character over every gap between its
letters (``1 1 . 5 9 7 . 2 9 0 / 0 0 0 1`` where the page prints ``11.597.290/0001``);
words in lower case run into one with a capital where the layer lost a space
(``doGabinete``); and the DOU's superscript ``o`` and ``a``, small, raised and often over
a rule drawn as a hyphen (``No-``), are the ordinal indicators the page shows
(``Nº``). Words are taken in the order the layer draws them (pdfplumber's text flow):
grouped by position, two columns' lines at nearly the same height ran together into
words no page prints. Word F1 is order-free (``ocr_bench.word_f1``), with the degree
sign and the ordinal indicator taken as one letter in the truth and in both readings
(``compared``): the layer writes the DOU's ``N°`` with a degree sign, which the page
shows as the ``º`` OCR reads, and a degree sign, no letter, would cut ``N°`` from its
word. The report also gives the means against the truth before 2026-12-06 (the
layer's words grouped by position, only letter-spaced letters and ``doGabinete``
mended: ``truth(…, "layer")``), and for each page the share of the truth's word
bigrams, in the order the layer draws them, that each reading has (:func:`in_order`):
a measure of the reading's order, which its misread words lower as well.

Systems, on the same image-only PDF:

* **gazette** — ``pipeline.read.ingest`` of the whole PDF in a fresh process, as
  ``gazette ingest`` reads it (imports, the probe, its 2 page workers' start-up and
  everything they run counted);
* **Tesseract** — for each page ``pdftoppm -r 300 -gray`` then ``tesseract -l por
  --psm 3`` with one thread (``OMP_THREAD_LIMIT=1``), each page read once, 2 pages at a
  time: a user reading the pages in parallel.

Then the per-document cost: each of the first ``--single`` pages of the half alone in
a one-page PDF, read by gazette in a fresh process and by the reference.

With ``--renders``, also how far a page's figure moves with the picture of the same
scan alone: each page read by the Tesseract library gazette runs, as
``pipeline.read.tesseract.ocr_image`` reads a page (in process, ``por``; not
prepared), from ``pdftoppm -r 300 -gray``'s render, from pypdfium2's render at
300 dpi (the one gazette prepares) and from the JPEG the PDF holds (``pdfimages``):
the same pixels of the same scan, resampled or not. The spread is the noise under a
comparison page by page.

CPU time on a shared machine moves by a tenth or more from one run of the same work to
the next (the same Tesseract call on the same page took 11.4 s and 14.4 s), so each
measurement is made ``--repeat`` times, the two systems taking turns to go first, and
a ratio is the sum of one system's CPU over the other's: a slow spell of the machine
falls on both. ``--seed`` makes the photocopies with another draw of their noise, paper
and turn: how far a page's figures move with the copy alone. Usage::

    .venv/bin/python bench/scan_edition_bench.py --shared ../shared --half reporting
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import pdfplumber
from pdfplumber.utils import extract_words
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "scripts"))

import ocr_bench  # noqa: E402
from edition_bench import agreement, overall_agreement  # noqa: E402
from pairing_data import scanned  # noqa: E402

from pipeline.read import tesseract  # noqa: E402
from pipeline.read.pdfread import _rasterize  # noqa: E402  the render gazette prepares
from pipeline.read.textlayer import as_shown, split_by_orientation  # noqa: E402

EDITION = Path("corpora/brazil-pdfs/DOUS1a.pdf")
HALVES = {"tuning": 1, "reporting": 10, "check-5": 5, "check-14": 14}
STEP = 18

T = TypeVar("T")
U = TypeVar("U")

#: What the fresh gazette process runs: ingest the PDF, print each page's text as JSON.
_READ = """
import json, sys
from pathlib import Path
from pipeline.config import Settings
from pipeline.read.ingest import ingest, source_for
from pipeline import workers
document = ingest(source_for(Path(sys.argv[1])), Settings.for_root(Path(sys.argv[2])))
workers.shutdown()
print(json.dumps([[page.method, page.text] for page in document.pages]))
"""


def pages_of(half: str, total: int) -> list[int]:
    """The page numbers (from 1) of a half."""
    return list(range(HALVES[half], total + 1, STEP))


def truth(edition: Path, numbers: list[int], shape: str = "shown") -> list[str]:
    """Each page's words as the page shows them (``shape`` ``shown``) or as the text
    layer's words grouped by position (``layer``, the truth before 2026-12-06); the
    rotated watermark left out either way."""
    texts = []
    with pdfplumber.open(edition) as pdf:
        for number in numbers:
            page = pdf.pages[number - 1]
            if shape == "shown":
                words = extract_words(as_shown(split_by_orientation(page.chars)[0]),
                                      use_text_flow=True)
            else:
                words = page.filter(lambda obj: obj.get("object_type") != "char"
                                    or abs(obj["matrix"][1]) < 0.01).extract_words()
            texts.append(" ".join(word["text"] for word in words))
    return texts if shape == "shown" else [mended(text) for text in texts]


def mended(text: str) -> str:
    """A text layer's words grouped by position with its spacing mended as the truth
    before 2026-12-06 mended it.

    >>> mended("Serviço de Im- p r e s s ã o / S U G R A e o Ministério doGabinete")
    'Serviço de Im- pressão / SUGRA e o Ministério do Gabinete'
    """
    words: list[str] = []
    for letter_case, run in itertools.groupby(text.split(), _letter_case):
        group = list(run)
        words.extend(["".join(group)] if letter_case and len(group) >= 3 else group)
    return re.sub(r"(?<=[a-zà-ÿ])(?=[A-ZÀ-Þ])", " ", " ".join(words))


def compared(text: str) -> str:
    """A text as its words are compared: the degree sign as the ordinal indicator.

    >>> compared("Lei N° 8.427 e Nº 9")
    'Lei Nº 8.427 e Nº 9'
    """
    return text.replace("\N{DEGREE SIGN}", "\N{MASCULINE ORDINAL INDICATOR}")


def _letter_case(word: str) -> str:
    """``upper`` or ``lower`` for a word of one letter, else empty."""
    if len(word) != 1 or not word.isalpha():
        return ""
    return "upper" if word.isupper() else "lower"


def run_gazette(pdf: Path, root: Path) -> tuple[list[str], list[str], float, float]:
    """Page texts and methods, wall and CPU seconds of gazette reading ``pdf`` afresh."""
    started, cpu_started = time.monotonic(), ocr_bench.cpu()
    done = subprocess.run([sys.executable, "-c", _READ, str(pdf), str(root)], cwd=ROOT,
                          check=True, capture_output=True, text=True)
    wall, used = time.monotonic() - started, ocr_bench.cpu() - cpu_started
    pages = json.loads(done.stdout)
    return [text for _, text in pages], [method for method, _ in pages], wall, used


def run_tesseract(pdf: Path, pages: int, folder: Path) -> tuple[list[str], float, float]:
    """Page texts, wall and CPU seconds of the reference (``ocr_bench.run_tesseract``:
    pdftoppm + tesseract with ``por``, one thread, 2 pages at a time)."""
    texts, wall, used = ocr_bench.run_tesseract({"pt": (pdf, [""] * pages)}, folder)
    return texts["pt"], wall, used


def taking_turns(ours: Callable[[int], T], theirs: Callable[[int], U], repeat: int
                 ) -> tuple[list[T], list[U]]:
    """Each system run ``repeat`` times, by turns, the other one first every second time
    (each call gets its round's number)."""
    mine: list[T] = []
    others: list[U] = []
    for round_ in range(repeat):
        if round_ % 2:
            others.append(theirs(round_))
            mine.append(ours(round_))
        else:
            mine.append(ours(round_))
            others.append(theirs(round_))
    return mine, others


def single_pages(edition: Path, numbers: list[int], folder: Path, repeat: int
                 ) -> list[tuple[int, float, float]]:
    """Each page alone as a one-page scan: (page, gazette CPU, reference CPU), each CPU
    summed over ``repeat`` runs taken by turns."""
    rows = []
    for number in numbers:
        pdf = folder / f"single-{number}.pdf"
        scanned(edition, pdf, seed=number, numbers=[number])
        ours, theirs = taking_turns(
            lambda round_, pdf=pdf, number=number: run_gazette(
                pdf, folder / f"root-{number}-{round_}")[3],
            lambda _, pdf=pdf: run_tesseract(pdf, 1, folder)[2], repeat)
        rows.append((number, sum(ours), sum(theirs)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--half", choices=sorted(HALVES), default="reporting")
    parser.add_argument("--single", type=int, default=3,
                        help="pages of the half also read alone, as one-page scans")
    parser.add_argument("--repeat", type=int, default=2,
                        help="runs of each system for the CPU ratios, taking turns")
    parser.add_argument("--seed", type=int,
                        help="another draw of the photocopies' noise, paper and turn (default: "
                             "the set's first page number, the draw the tables quote)")
    parser.add_argument("--renders", action="store_true",
                        help="also read each page from three pictures of the same scan")
    args = parser.parse_args()
    edition = args.shared / EDITION
    with pdfplumber.open(edition) as pdf:
        numbers = pages_of(args.half, len(pdf.pages))
    truths = {shape: truth(edition, numbers, shape) for shape in ("shown", "layer")}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        scan = folder / f"DOUS1a-{args.half}-scan.pdf"
        scanned(edition, scan, seed=HALVES[args.half] if args.seed is None else args.seed,
                numbers=numbers)
        ours_runs, theirs_runs = taking_turns(
            lambda round_: run_gazette(scan, folder / f"root-{round_}"),
            lambda _: run_tesseract(scan, len(numbers), folder), args.repeat)
        singles = single_pages(edition, numbers[:args.single], folder, args.repeat)
        renders = pictures_read(scan, len(numbers), folder) if args.renders else {}
    ours, methods, *_ = ours_runs[0]
    theirs = theirs_runs[0][0]
    report(args.half, numbers, truths, ours, methods, theirs,
           [(o[2], o[3], t[1], t[2]) for o, t in zip(ours_runs, theirs_runs, strict=True)],
           singles)
    if renders:
        report_renders(numbers, truths["shown"], ours, theirs, renders)


def pictures_read(scan: Path, pages: int, folder: Path) -> dict[str, list[str]]:
    """Each page of ``scan`` read as ``ocr_image`` reads a page (``por``), from
    each of three pictures of it, by picture: ``pdftoppm``'s render, pypdfium2's and the
    image the PDF holds; two pages at a time."""
    pictures: dict[str, list[Path]] = {"pdftoppm": [], "pypdfium2": [], "embedded": []}
    for index in range(pages):
        stem = folder / f"picture-{index}"
        subprocess.run(["pdftoppm", "-r", "300", "-gray", "-f", str(index + 1), "-l",
                        str(index + 1), "-singlefile", str(scan), stem], check=True)
        Image.fromarray(_rasterize(scan, index, 300)).save(f"{stem}-pdfium.pgm")
        subprocess.run(["pdfimages", "-j", "-f", str(index + 1), "-l", str(index + 1),
                        str(scan), f"{stem}-held"], check=True)
        Image.open(f"{stem}-held-000.jpg").convert("L").save(f"{stem}-held.pgm")
        for name, suffix in zip(pictures, (".pgm", "-pdfium.pgm", "-held.pgm"), strict=True):
            pictures[name].append(Path(f"{stem}{suffix}"))
    with ThreadPoolExecutor(max_workers=2) as pool:  # tesserocr lets go of the GIL
        return {name: list(pool.map(lambda image: tesseract.ocr_image(
            image, "por", 600).text, images)) for name, images in pictures.items()}


def report_renders(numbers: list[int], truths: list[str], ours: list[str],
                   theirs: list[str], renders: dict[str, list[str]]) -> None:
    """Print each page's word F1 from each picture (:func:`pictures_read`), their spread,
    and gazette's and the reference's difference beside it."""
    f1s = {name: word_f1s(truths, texts) for name, texts in renders.items()}
    gap = [a - b for a, b in zip(word_f1s(truths, ours), word_f1s(truths, theirs),
                                 strict=True)]
    print("\n| page | " + " | ".join(f"library on {name}" for name in f1s)
          + " | spread | gazette − Tesseract |")
    print("|---:|" + "---:|" * (len(f1s) + 2))
    spreads = []
    for row, number in enumerate(numbers):
        values = [f1s[name][row] for name in f1s]
        spreads.append(max(values) - min(values))
        print(f"| {number} | " + " | ".join(f"{value:.3f}" for value in values)
              + f" | {spreads[-1]:.3f} | {gap[row]:+.3f} |")
    means = [sum(values) / len(values) for values in f1s.values()]
    print("| all | " + " | ".join(f"{mean:.3f}" for mean in means)
          + f" | mean {sum(spreads) / len(spreads):.3f}, largest {max(spreads):.3f} | |")


def word_f1s(truths: list[str], texts: list[str]) -> list[float]:
    """Each page's word F1 (``ocr_bench.word_f1``) as :func:`compared` compares."""
    return [ocr_bench.word_f1(compared(t), compared(o))
            for t, o in zip(truths, texts, strict=True)]


def in_order(truths: list[str], texts: list[str]) -> list[float]:
    """Each page's share of the truth's word bigrams, in the order its layer draws them,
    that the reading has (``edition_bench.agreement``, as :func:`compared` compares): an
    order measure of a reading, which its misread words lower as well."""
    return [agreement(compared(o), compared(t)) for t, o in zip(truths, texts, strict=True)]


def report(half: str, numbers: list[int], truths: dict[str, list[str]], ours: list[str],
           methods: list[str], theirs: list[str],
           times: list[tuple[float, float, float, float]],
           singles: list[tuple[int, float, float]]) -> None:
    """Print the pages' word F1 against each truth (``truths``, by :func:`truth`'s
    shape), and the CPU of each run (``times``: gazette's wall and CPU, the reference's
    wall and CPU) and of the one-page scans."""
    ours_f1, theirs_f1 = (word_f1s(truths["shown"], texts) for texts in (ours, theirs))
    ours_order, theirs_order = (in_order(truths["shown"], texts) for texts in (ours, theirs))
    print(f"### {half} half: {len(numbers)} pages\n")
    print("| page | read as | gazette word F1 | Tesseract word F1 | gazette bigrams | "
          "Tesseract bigrams |")
    print("|---:|---|---:|---:|---:|---:|")
    for number, method, a, b, c, d in zip(numbers, methods, ours_f1, theirs_f1, ours_order,
                                          theirs_order, strict=True):
        mark = " (below)" if a < b else ""
        print(f"| {number} | {method} | {a:.3f}{mark} | {b:.3f} | {c:.3f} | {d:.3f} |")
    mean = sum(ours_f1) / len(ours_f1), sum(theirs_f1) / len(theirs_f1)
    truth = [compared(text) for text in truths["shown"]]
    whole = [overall_agreement([compared(text) for text in texts], truth)
             for texts in (ours, theirs)]
    print(f"| all | | **{mean[0]:.3f}** | {mean[1]:.3f} | {whole[0]:.3f} | {whole[1]:.3f} |")
    below = sum(a < b for a, b in zip(ours_f1, theirs_f1, strict=True))
    print(f"\npages below plain Tesseract: {below} of {len(numbers)}")
    old = [sum(word_f1s(truths["layer"], texts)) / len(numbers) for texts in (ours, theirs)]
    print(f"against the layer's words grouped by position (the truth "
          f"before 2026-12-06): gazette {old[0]:.3f}, Tesseract {old[1]:.3f}\n")
    print("| run | gazette wall | gazette CPU | reference wall | reference CPU | CPU ratio |")
    print("|---:|---:|---:|---:|---:|---:|")
    for round_, (ours_wall, ours_cpu, theirs_wall, theirs_cpu) in enumerate(times, start=1):
        print(f"| {round_} | {ours_wall:.1f} s | {ours_cpu:.1f} s | {theirs_wall:.1f} s | "
              f"{theirs_cpu:.1f} s | {ours_cpu / theirs_cpu:.2f} |")
    total = sum(t[1] for t in times) / sum(t[3] for t in times)
    print(f"| all | | | | | **{total:.2f}** |")
    command = subprocess.run(["tesseract", "--version"], capture_output=True, text=True,
                             check=True).stdout.split()[1]
    print("\ngazette: a fresh process reading the whole PDF, with the Tesseract library "
          f"{tesseract.version()} (tesserocr's); reference: pdftoppm + the tesseract "
          f"command {command} -l por, 1 thread, 2 pages at a time")
    if singles:
        print(f"\n| one-page scan | gazette CPU ({len(times)} runs) | reference CPU | ratio |")
        print("|---:|---:|---:|---:|")
        for number, a, b in singles:
            print(f"| page {number} | {a:.1f} s | {b:.1f} s | {a / b:.2f} |")
        total = sum(a for _, a, _ in singles) / sum(b for *_, b in singles)
        print(f"| all | | | **{total:.2f}** |")


if __name__ == "__main__":
    main()
