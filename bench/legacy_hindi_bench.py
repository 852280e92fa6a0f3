"""Legacy-font Hindi: our Kruti Dev conversion against Tesseract reading the same pages.

For each page of ``india-pdfs/010220_hi.pdf`` (a Lok Sabha bulletin typed in Kruti Dev
010), two readings of the same text:

* **gazette** — the page's text layer converted to Unicode (``pipeline.read.pdfread``, the
  path the page decision takes for it);
* **Tesseract** — the page rendered at 300 dpi (pypdfium2, gray) and read with
  ``tesseract -l Devanagari`` (the script pack).

Reported per page: Devanagari words (2+ letters), the share wordfreq's Hindi list
knows, and the Latin letters left inside Devanagari words (a conversion leftover such
as ``U;k;ky;`` for न्यायालय). Usage::

    .venv/bin/python bench/legacy_hindi_bench.py --shared ../shared
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.config import Settings  # noqa: E402
from pipeline.read import pdfread  # noqa: E402
from pipeline.text.lexicon import is_known, words  # noqa: E402

DEVANAGARI = re.compile("[\u0900-\u097f]")


def hindi_words(text: str) -> list[str]:
    return [word for word in words(text) if DEVANAGARI.search(word)]


def leftovers(text: str) -> list[str]:
    """Tokens that mix Devanagari and Latin letters."""
    return [token for token in text.split()
            if DEVANAGARI.search(token) and re.search("[A-Za-z]", token)]


def tesseract_page(pdf_path: Path, index: int, folder: Path) -> str:
    pdf = pypdfium2.PdfDocument(pdf_path)
    try:
        image = folder / f"page-{index + 1}.png"
        pdf[index].render(scale=300 / 72, grayscale=True).to_pil().save(image)
    finally:
        pdf.close()
    return subprocess.run(["tesseract", str(image), "-", "-l", "Devanagari", "--psm", "3"],
                          check=True, capture_output=True, text=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
    pdf_path = args.shared / "corpora" / "india-pdfs" / "010220_hi.pdf"
    print("| page | path | words (gazette / Tesseract) | known: gazette | known: Tesseract "
          "| Latin inside Hindi words: gazette | Tesseract |")
    print("|---|---|---|---|---|---|---|")
    totals = {"ours": [0, 0], "theirs": [0, 0]}
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings.for_root(Path(tmp))
        pages = len(pypdfium2.PdfDocument(pdf_path))
        for index in range(pages):
            page = pdfread._read_layer(pdf_path, index, settings)  # in this process
            ours = getattr(page, "text", "")
            theirs = tesseract_page(pdf_path, index, Path(tmp))
            cells = []
            for name, text in (("ours", ours), ("theirs", theirs)):
                found = hindi_words(text)
                known = sum(is_known(word, ("hi",)) for word in found)
                totals[name][0] += known
                totals[name][1] += len(found)
                cells.append((len(found), known / max(1, len(found)), len(leftovers(text))))
            print(f"| {index + 1} | {getattr(page, 'method', 'ocr needed')} | "
                  f"{cells[0][0]} / {cells[1][0]} | {cells[0][1]:.3f} | {cells[1][1]:.3f} | "
                  f"{cells[0][2]} | {cells[1][2]} |")
    (ok, n), (tk, tn) = totals["ours"], totals["theirs"]
    print(f"| all | | {n} / {tn} | {ok / n:.3f} | {tk / tn:.3f} | | |")


if __name__ == "__main__":
    main()
