"""OCR benchmark: this pipeline, OCRmyPDF 17 and raw Tesseract on the same rendered scans.

Pages are rendered from real text of each language at 300 dpi with paper noise, blur
and a 1–3° skew (``scripts/make_samples.render_scan``), so the truth is the text:

* Portuguese — the Brazilian DOU issue (``brazil-pdfs/DOUS1a.pdf``, its text layer)
* Swedish    — the Swedish regulation (``sweden-pdfs/nfs-2007-10_konsoliderad.pdf``)
* Hindi      — NTREX dev Hindi lines (Lohit Devanagari font)
* English    — seed 001 (the Brazil–Japan protocol)

Each language is one image-only PDF of ``--pages`` pages, in two sets:

* **tuning** — ``make_samples``' aging (blur, speckles, flat gray paper): the set the
  page preparation was chosen on;
* **held out** — a different aging not looked at while tuning: paper darkening from
  right to left (a photocopy's shadow), gray ink, Gaussian noise, JPEG at quality 50.

Systems, one after another on the same files:

* **gazette** — ``pipeline.read.ingest`` (deskew, paper levelled, one pack per document from
  a probe of its first scanned page, orientation and script detection where a reading
  is doubtful; its 2 page workers started and warmed by one reading before the timing,
  as in a long run);
* **OCRmyPDF** — ``ocrmypdf -l <the language's pack> --deskew --sidecar -j 2``
  (told the language: its best case);
* **Tesseract** — ``pdftoppm -r 300 -gray``, then ``tesseract <page image>`` with the
  right single pack for the language, no image preparation, 2 pages at a time: the
  reference for CPU time.

CER is the Levenshtein distance over the truth's length after folding white space;
word F1 is order-free (the multiset of case-folded words of the reading against the
truth's); speed is pages per minute of wall time. Also reports the page decisions on the India
PDFs against the paths they should take. Usage::

    .venv/bin/python bench/ocr_bench.py --shared ../shared [--pages 2]
"""

from __future__ import annotations

import argparse
import io
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pdfplumber
import psutil
from rapidfuzz.distance import Levenshtein

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from make_samples import DPI, MARGIN, PAGE, SERIF, Aging, render_scan, wrap  # noqa: E402
from PIL import Image, ImageFilter, ImageFont  # noqa: E402

from pipeline import workers  # noqa: E402
from pipeline.config import Settings  # noqa: E402
from pipeline.read.ingest import ingest, source_for  # noqa: E402

DEVANAGARI_FONT = Path("/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf")
OCRMYPDF_PACK = {"pt": "por", "sv": "swe", "hi": "hin", "en": "eng"}
#: The right single pack for each language's pages, for the reference reading.
RIGHT_PACK = {"pt": "por", "sv": "swe", "hi": "Devanagari", "en": "eng"}
SWEDISH_LETTERS = "åäöÅÄÖ"


def cpu() -> float:
    """CPU seconds of this process, its finished children (Tesseract, pdftoppm) and its
    live ones (the page workers, with the Tesseract runs they waited for)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    live = sum(sum(child.cpu_times()[:4])  # user, system and those of its own children
               for child in psutil.Process().children(recursive=True))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime + live

#: The path each India PDF page should take (see the ingestion issue).
INDIA_GOLD = {
    "010220_hi.pdf": ["legacy-font"] * 2,      # Lok Sabha bulletin typed in Kruti Dev
    "1.02.2020.pdf": ["text-layer"] * 2,       # its English edition, born digital
    "RTIOrder_hi.pdf": ["ocr"] * 4,            # Mangal text layer in a broken encoding
    "hind_1_singlecolumn.pdf": ["ocr"] * 3,    # DV_Divya + visual-order matras, (cid:N)
}


def fold(text: str) -> str:
    """Text as compared: NFC, white space folded to single spaces."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def cer(truth: str, text: str) -> float:
    return Levenshtein.distance(fold(truth), fold(text)) / max(1, len(fold(truth)))


def word_f1(truth: str, text: str) -> float:
    """Order-free word F1: the multiset of case-folded words against the truth's."""
    want, got = (Counter(re.findall(r"\w+", fold(t).casefold())) for t in (truth, text))
    common = sum((want & got).values())
    return 2 * common / max(1, sum(want.values()) + sum(got.values()))


def age_held_out(page: Image.Image, rng: random.Random, skew: float) -> Image.Image:
    """The held-out aging: a shadow darkening the paper from 240 to 200 towards the
    left, ink at 70, Gaussian noise (σ 8), the skew, and JPEG at quality 50."""
    ink = np.asarray(page.filter(ImageFilter.GaussianBlur(1.1)), dtype=np.float32) / 255
    paper = np.linspace(200, 240, page.width, dtype=np.float32)[None, :]
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 8, ink.shape)
    aged = np.clip(paper * ink + 70 * (1 - ink) + noise, 0, 255).astype(np.uint8)
    turned = Image.fromarray(aged).rotate(skew, resample=Image.Resampling.BICUBIC,
                                          fillcolor=220)
    jpeg = io.BytesIO()
    turned.save(jpeg, "JPEG", quality=50)
    return Image.open(jpeg).convert("L")


AGINGS = {"tuning": None, "held out": age_held_out}


def pdf_paragraphs(path: Path, pages: range) -> list[str]:
    """Paragraph-sized chunks of a PDF's text layer (lines joined, hyphens kept)."""
    with pdfplumber.open(path) as pdf:
        lines = [line.strip() for index in pages
                 for line in (pdf.pages[index].extract_text() or "").splitlines()]
    chunks, chunk = [], []
    for line in lines:
        if line:
            chunk.append(line)
        if len(chunk) == 6 or (not line and chunk):
            chunks.append(" ".join(chunk))
            chunk = []
    return chunks + ([" ".join(chunk)] if chunk else [])


def texts(shared: Path) -> dict[str, tuple[list[str], Path]]:
    corpora = shared / "corpora"
    hindi = (corpora / "ntrex-dev" / "ntrex-dev.hin.txt").read_text(encoding="utf-8")
    english = (ROOT / "raw" / "samples" / "001_92f44dad33fafe9c.txt").read_text(
        encoding="utf-8")
    return {
        "pt": (pdf_paragraphs(corpora / "brazil-pdfs" / "DOUS1a.pdf", range(1, 4)), SERIF),
        "sv": (pdf_paragraphs(corpora / "sweden-pdfs" / "nfs-2007-10_konsoliderad.pdf",
                              range(1, 4)), SERIF),
        "hi": (hindi.splitlines()[:120], DEVANAGARI_FONT),
        "en": ([p for p in english.split("\n\n") if p.strip()], SERIF),
    }


def make_scans(shared: Path, folder: Path, pages: int, age: Aging | None = None
               ) -> dict[str, tuple[Path, list[str]]]:
    """One image-only PDF per language and the truth of each of its pages."""
    rng = random.Random(2026)
    scans = {}
    for language, (paragraphs, font) in texts(shared).items():
        images, truths = [], []
        for number in range(pages):
            skew = rng.choice((-1, 1)) * rng.uniform(1.0, 3.0)
            page_text = _page_paragraphs(paragraphs, number, font)
            images += render_scan(page_text, seed=number, font_path=font, skew=skew,
                                  age=age)[:1]
            truths.append("\n".join(page_text))
        path = folder / f"{language}.pdf"
        images[0].save(path, save_all=True, append_images=images[1:], resolution=DPI)
        scans[language] = (path, truths)
    return scans


def _page_paragraphs(paragraphs: list[str], number: int, font_path: Path) -> list[str]:
    """The paragraphs that fit on page ``number`` (as ``render_scan`` lays them out)."""
    font = ImageFont.truetype(str(font_path), 42)
    room = (PAGE[1] - 2 * MARGIN) // 62 - 1
    pages: list[list[str]] = [[]]
    used = 0
    for paragraph in paragraphs:
        lines = len(wrap(paragraph, font, PAGE[0] - 2 * MARGIN)) + 1
        if used + lines > room and pages[-1]:
            if len(pages) > number:
                break
            pages.append([])
            used = 0
        pages[-1].append(paragraph)
        used += lines
    return pages[number]


def run_gazette(scans: dict[str, tuple[Path, list[str]]], settings: Settings
                ) -> tuple[dict[str, list[str]], dict[str, list[str]], float, float]:
    # What a long run has done already: its page workers started, their lexicons and
    # language profiles loaded (by reading one file before the timing).
    ingest(source_for(scans["en"][0]), settings)
    started, cpu_started = time.monotonic(), cpu()
    texts_, packs = {}, {}
    for language, (path, _) in scans.items():
        document = ingest(source_for(path), settings)
        texts_[language] = [page.text for page in document.pages]
        packs[language] = [page.ocr_languages or "eng" for page in document.pages]
    elapsed, used = time.monotonic() - started, cpu() - cpu_started
    workers.shutdown()
    return texts_, packs, elapsed, used


def run_ocrmypdf(scans: dict[str, tuple[Path, list[str]]], folder: Path
                 ) -> tuple[dict[str, list[str]], float]:
    started = time.monotonic()
    out = {}
    for language, (path, _) in scans.items():
        sidecar = folder / f"{language}.ocrmypdf.txt"
        subprocess.run([str(Path(sys.executable).parent / "ocrmypdf"),
                        "-l", OCRMYPDF_PACK[language], "--deskew", "--sidecar", str(sidecar),
                        "--output-type", "none", "-j", "2", "-q", str(path), "-"],
                       check=True, capture_output=True)
        out[language] = sidecar.read_text(encoding="utf-8").split("\f")
    return out, time.monotonic() - started


def run_tesseract(scans: dict[str, tuple[Path, list[str]]], folder: Path
                  ) -> tuple[dict[str, list[str]], float, float]:
    """The reference: ``pdftoppm -r 300 -gray`` and ``tesseract`` with the right single
    pack per page, 2 pages at a time; returns the texts, wall and CPU seconds."""
    started, cpu_started = time.monotonic(), cpu()
    jobs = [(language, index, path) for language, (path, truths) in scans.items()
            for index in range(len(truths))]
    env = {"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"}

    def read(job: tuple[str, int, Path]) -> tuple[str, int, str]:
        language, index, path = job
        stem = folder / f"{language}-{index}"
        subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-f", str(index + 1),
                        "-l", str(index + 1), "-singlefile", str(path), str(stem)],
                       check=True, capture_output=True, env=env)
        result = subprocess.run(["tesseract", f"{stem}.pgm", "-", "-l", RIGHT_PACK[language],
                                 "--psm", "3"],
                                check=True, capture_output=True, text=True, env=env)
        return language, index, result.stdout

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(read, jobs))
    out: dict[str, list[str]] = {language: [""] * len(scans[language][1]) for language in scans}
    for language, index, text in results:
        out[language][index] = text
    return out, time.monotonic() - started, cpu() - cpu_started


def india_decisions(shared: Path, settings: Settings) -> tuple[int, int, list[str]]:
    right, total, rows = 0, 0, []
    for name, gold in INDIA_GOLD.items():
        document = ingest(source_for(shared / "corpora" / "india-pdfs" / name), settings)
        got = [page.method for page in document.pages]
        right += sum(g == m for g, m in zip(gold, got, strict=True))
        total += len(gold)
        rows.append(f"| {name} | {', '.join(got)} | {', '.join(gold)} |")
    return right, total, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--pages", type=int, default=3, help="pages per language")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name, age in AGINGS.items():
            folder = Path(tmp) / name.replace(" ", "-")
            folder.mkdir()
            report(name, make_scans(args.shared, folder, args.pages, age), folder)
        settings = Settings.for_root(Path(tmp))
        right, total, rows = india_decisions(args.shared, settings)
        print()
        print(f"India PDFs: {right} of {total} pages take the right path")
        print("| file | path taken per page | right path |")
        print("|---|---|---|")
        print("\n".join(rows))


def report(name: str, scans: dict[str, tuple[Path, list[str]]], folder: Path) -> None:
    """Read one set of scans with each system and print its tables."""
    ours, packs, ours_time, ours_cpu = run_gazette(scans, Settings.for_root(folder))
    theirs, theirs_time = run_ocrmypdf(scans, folder)
    raw, raw_time, raw_cpu = run_tesseract(scans, folder)
    pages = sum(len(truths) for _, truths in scans.values())
    print(f"\n### {name} set\n")
    print("| language | pages | gazette CER | word F1 | packs | OCRmyPDF CER | word F1 | "
          "Tesseract CER (right pack) | word F1 |")
    print("|---|---|---|---|---|---|---|---|---|")
    for language, (_, truths) in scans.items():
        def mean(outputs: list[str], measure: Callable[[str, str], float],
                 truths: list[str] = truths) -> float:
            return sum(map(measure, truths, outputs)) / len(truths)
        cells = [f"{mean(out[language], cer):.2%} | {mean(out[language], word_f1):.3f}"
                 for out in (ours, theirs, raw)]
        print(f"| {language} | {len(truths)} | {cells[0]} | "
              f"{', '.join(sorted(set(packs[language])))} | {cells[1]} | {cells[2]} |")
    truth_sv = "".join(scans["sv"][1])
    print()
    print("Swedish letters å, ä, ö (truth / gazette / Tesseract swe): "
          f"{sum(map(truth_sv.count, SWEDISH_LETTERS))} / "
          f"{sum(sum(map(text.count, SWEDISH_LETTERS)) for text in ours['sv'])} / "
          f"{sum(sum(map(text.count, SWEDISH_LETTERS)) for text in raw['sv'])}")
    print()
    print("| system | wall time | pages/min | CPU time | CPU ratio to pdftoppm + tesseract |")
    print("|---|---|---|---|---|")
    print(f"| gazette | {ours_time:.1f} s | {60 * pages / ours_time:.1f} | {ours_cpu:.1f} s | "
          f"{ours_cpu / raw_cpu:.2f} |")
    print(f"| OCRmyPDF 17 (-j 2) | {theirs_time:.1f} s | {60 * pages / theirs_time:.1f} | "
          "| |")
    print(f"| pdftoppm + tesseract, right single pack (2 at a time) | {raw_time:.1f} s | "
          f"{60 * pages / raw_time:.1f} | {raw_cpu:.1f} s | 1.00 |")


if __name__ == "__main__":
    main()
