"""Inbox benchmark: reading a run's worth of short documents keeps both cores busy.

A scheduled run finds many short documents (notifications, decrees of a few pages).
This script reads such an inbox — the shared India PDFs (Hindi text layers, broken
ones OCR'd, a legacy font), the Swedish regulation, and the two sample PDFs (a scan
and a text layer) — with ``pipeline.read.ingest`` as ``gazette run`` does: documents one
at a time and two at a time (the flow's default), their pages read by the run's page
workers. It reports wall time, CPU time (with the workers' and Tesseract's) and their
ratio: 2.0 means both cores worked all the time.

Usage::

    .venv/bin/python bench/inbox_bench.py --shared ../shared
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """
import sys, tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from pipeline.config import Settings
from pipeline.read.ingest import ingest, source_for
from pipeline import workers
at_once, files = int(sys.argv[1]), sys.argv[2:]
with tempfile.TemporaryDirectory() as tmp:
    settings = Settings.for_root(Path(tmp))
    with ThreadPoolExecutor(max_workers=at_once) as documents:
        pages = sum(len(d.pages) for d in documents.map(
            lambda f: ingest(source_for(Path(f)), settings), files))
workers.shutdown()
print(pages)
"""


def inbox(shared: Path) -> list[Path]:
    corpora = shared / "corpora"
    return [*sorted((corpora / "india-pdfs").glob("*.pdf")),
            corpora / "sweden-pdfs" / "nfs-2007-10_konsoliderad.pdf",
            *sorted((ROOT / "raw" / "samples").glob("*.pdf"))]


def run(at_once: int, files: list[Path]) -> tuple[int, float, float]:
    """Pages read, wall and CPU seconds of a fresh process reading ``files``."""
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-c", PROGRAM, str(at_once), *map(str, files)],
                               cwd=ROOT, stdout=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    assert process.stdout is not None
    pages = int(process.stdout.read().strip() or 0)
    if status:
        raise SystemExit(f"reading failed (status {status})")
    return pages, wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
    files = inbox(args.shared)
    print(f"{len(files)} documents: {', '.join(f.name for f in files)}")
    print()
    print("| documents at a time | pages | wall time | CPU time | CPU / wall |")
    print("|---:|---:|---:|---:|---:|")
    for at_once in (1, 2):
        pages, wall, used = run(at_once, files)
        print(f"| {at_once} | {pages} | {wall:.1f} s | {used:.1f} s | {used / wall:.2f} |")


if __name__ == "__main__":
    main()
