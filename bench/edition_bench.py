"""Edition benchmark: a whole gazette edition's text layer, read by gazette and by plain pdfplumber.

The unit of work is a whole edition, the 140-page Diário Oficial da União section 1 of
1 October 2014 (``brazil-pdfs/DOUS1a.pdf``; mostly three columns, with tables and titles
across them). In one script, on the same file:

* **speed** — CPU and wall time of ``pipeline.read.ingest`` (the page decision, fake-bold
  de-duplication, layout analysis; pages read by 2 worker processes) against plain
  pdfplumber ``page.extract_text()`` on every page; each reader runs in a fresh
  process of its own, start-up and imports included, and CPU time includes the
  workers';
* **hyphenation** — every line that ends in a hyphen between lower-case letters is
  rejoined; the join should be a word: known to wordfreq (pt, en), or, second figure,
  also found unbroken elsewhere in the edition (names and terms wordfreq lacks), or a
  hyphenated compound the edition also prints unbroken (``quarta-feira``);
* **reading order** — the word bigrams of each page against the page's *content stream
  order* (the order the publisher's software drew the text: for this edition, checked
  by eye on pages 2, 10, 50 and 100, it is the reading order — column by column, tables
  row by row, with the running heads and margin notes first), split into lines where
  the stream jumps, its words spaced and its ordinals spelled as the reader spaces and
  spells them (``textlayer.as_shown``: the order is measured here, not the spelling).
  Agreement = shared bigrams / bigrams of the reference. Pages below 95 % are listed;
* **… and against ``pdftotext``** (poppler's own reading order, a reader we do not
  tune): both texts with line-end hyphens rejoined (``pdftotext`` rejoins them) and
  the watermark's letters, which ``pdftotext`` prints one or two to a line, left out;
* **letter-spaced words** — runs of three or more one- or two-letter "words" (``E n c
  a rg o s``, ``2 0 1 4``): a typesetter's letter-spacing read as word breaks.

Usage::

    .venv/bin/python bench/edition_bench.py --shared ../shared [--pdf FILE]
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import pdfplumber
from pdfplumber.utils import extract_text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.read.textlayer import as_shown, split_by_orientation  # noqa: E402
from pipeline.text.lexicon import is_known  # noqa: E402

HYPHEN_BREAK = re.compile(r"([^\W\d_]+)-\n([^\W\d_]+)")
WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
LETTER_SPACED = re.compile(r"(?<!\S)(?:\w\w? ){2,}\w\w?(?!\S)")
WATERMARK_LINE = re.compile(r"^[A-ZÀ-Þ]{1,2}\n", re.MULTILINE)


PLAIN = """
import json, sys, pdfplumber
with pdfplumber.open(sys.argv[1]) as pdf:
    texts = []
    for page in pdf.pages:
        texts.append(page.extract_text() or "")
        page.close()
json.dump(texts, open(sys.argv[2], "w"))
"""

GAZETTE = """
import json, sys, tempfile
from pathlib import Path
from pipeline.config import Settings
from pipeline.read.ingest import ingest, source_for
from pipeline import workers
with tempfile.TemporaryDirectory() as tmp:
    document = ingest(source_for(Path(sys.argv[1])), Settings.for_root(Path(tmp)))
workers.shutdown()  # the workers end, so their CPU time is counted
json.dump([page.text for page in document.pages], open(sys.argv[2], "w"))
"""


def children_cpu() -> float:
    """CPU seconds of this process's finished children (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(program: str, path: Path) -> tuple[list[str], float, float]:
    """Run a reader in a process of its own (interpreter start and imports included);
    returns its page texts, CPU seconds (with its workers') and wall seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "texts.json"
        started, wall = children_cpu(), time.monotonic()
        subprocess.run([sys.executable, "-c", program, str(path), str(out)], check=True,
                       cwd=ROOT)
        elapsed, used = time.monotonic() - wall, children_cpu() - started
        return json.loads(out.read_text(encoding="utf-8")), used, elapsed


def stream_order(path: Path) -> list[str]:
    """Each page's text in content stream order, a line wherever the stream jumps."""
    pages = []
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            chars = as_shown(split_by_orientation(page.chars)[0])
            lines, line = [], []
            for char in chars:
                if line and (abs(char["top"] - line[-1]["top"]) > 2
                             or char["x0"] < line[-1]["x0"] - 1):
                    lines.append(extract_text(line))
                    line = []
                line.append(char)
            lines.append(extract_text(line) if line else "")
            pages.append("\n".join(lines))
            page.close()
    return pages


def pdftotext_order(path: Path) -> list[str]:
    """Each page's text as poppler's ``pdftotext`` reads it (its own reading order)."""
    done = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True,
                          text=True)
    return done.stdout.split("\f")[:-1]


def unhyphenated(text: str) -> str:
    """``text`` with line-end hyphens rejoined and watermark letters left out, as
    ``pdftotext`` gives it."""
    return HYPHEN_BREAK.sub(r"\1\2", WATERMARK_LINE.sub("", text))


def letter_spaced(texts: list[str]) -> int:
    """Runs of three or more one- or two-letter words in ``texts``."""
    return sum(len(LETTER_SPACED.findall(text)) for text in texts)


def bigrams(text: str) -> Counter[tuple[str, str]]:
    tokens = text.split()
    return Counter(itertools.pairwise(tokens))


def agreement(text: str, reference: str) -> float:
    """Shared bigrams over the reference's bigrams, on one page."""
    return overall_agreement([text], [reference])


def overall_agreement(texts: list[str], references: list[str]) -> float:
    """Shared bigrams over the references' bigrams, over all pages."""
    shared = sum(sum((bigrams(t) & bigrams(r)).values())
                 for t, r in zip(texts, references, strict=True))
    return shared / max(1, sum(sum(bigrams(r).values()) for r in references))


def hyphenation(texts: list[str], vocabulary: set[str]) -> tuple[int, int, int]:
    """Line-end hyphenations between lower-case letters: total, rejoined into a word
    wordfreq knows, and into a word wordfreq or the edition knows."""
    total = known = edition = 0
    for text in texts:
        for match in HYPHEN_BREAK.finditer(text):
            head, tail = match.groups()
            if not (head[-1].islower() and tail[0].islower()):
                continue
            total += 1
            joined = head + tail
            if is_known(joined, ("pt", "en")):
                known += 1
                edition += 1
            elif joined.lower() in vocabulary or f"{head}-{tail}".lower() in vocabulary:
                edition += 1
    return total, known, edition


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--pdf", type=Path, help="another edition (default: the DOU)")
    args = parser.parse_args()
    path = args.pdf or args.shared / "corpora" / "brazil-pdfs" / "DOUS1a.pdf"

    reference = stream_order(path)
    ours, ours_cpu, ours_wall = measure(GAZETTE, path)
    theirs, theirs_cpu, theirs_wall = measure(PLAIN, path)
    # Words printed unbroken somewhere in the edition: a word broken at a line end
    # gives two pieces here, not itself (joining the breaks first, as this script did
    # until 2026-12-01, put every join's word into the vocabulary it was checked against).
    vocabulary = {word.lower() for text in reference for word in WORD.findall(text)}

    print(f"{path.name}: {len(ours)} pages")
    print()
    print("| reader | CPU time | wall time | CPU ratio to plain |")
    print("|---|---:|---:|---:|")
    print(f"| plain pdfplumber `extract_text()` | {theirs_cpu:.1f} s | {theirs_wall:.1f} s "
          "| 1.00 |")
    print(f"| gazette `ingest` | {ours_cpu:.1f} s | {ours_wall:.1f} s | "
          f"{ours_cpu / theirs_cpu:.2f} |")
    print()
    poppler = [unhyphenated(text) for text in pdftotext_order(path)]
    print("| reader | line-end hyphenations | rejoin into a wordfreq word | "
          "… or a word of the edition | bigram agreement with stream order | "
          "… with `pdftotext` | letter-spaced runs |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, texts in (("plain pdfplumber", theirs), ("gazette", ours)):
        total, known, edition = hyphenation(texts, vocabulary)
        stream = overall_agreement(texts, reference)
        order = overall_agreement([unhyphenated(t) for t in texts], poppler)
        print(f"| {name} | {total} | {known / total:.1%} | {edition / total:.1%} | "
              f"{stream:.1%} | {order:.1%} | {letter_spaced(texts)} |")
    print(f"| `pdftotext` | | | | | | {letter_spaced(poppler)} |")
    low = [(number, agreement(text, ref)) for number, (text, ref)
           in enumerate(zip(ours, reference, strict=True), start=1)]
    low = [(number, score) for number, score in low if score < 0.95]
    print()
    print("gazette pages under 95 % bigram agreement: "
          + (", ".join(f"{n} ({s:.0%})" for n, s in low) or "none"))


if __name__ == "__main__":
    main()
