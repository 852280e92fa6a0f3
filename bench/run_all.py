"""Run every benchmark from one place and record what it printed and where it ran.

Each script in :data:`SCRIPTS` runs as its own process (``--shared`` passed on), one
after another so that their timings do not disturb each other. The record —
``bench/results.json``, next to BENCHMARKS.md — holds per script the command, its exit
status, wall time, the machine's load average before and after, the tables it printed,
and where it ran: the commit (and whether the tree had changes), the Python and package
versions, Tesseract's version and the CPU count. A run of some scripts (``--only``)
replaces their entries and keeps the others', each with the commit it ran at.
BENCHMARKS.md quotes figures from these outputs. Usage::

    .venv/bin/python bench/run_all.py --shared ../shared [--only ocr_bench repair_seeds]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The benchmark scripts (the other modules of bench/ are their helpers).
SCRIPTS = ("langsplit_seeds", "sentences_ntrex", "repair_seeds", "legacy_hindi_bench",
           "ocr_bench", "edition_bench", "acts_bench", "inbox_bench", "align_bench",
           "operations_bench", "pairing_bench", "pairing_scale_bench", "scan_edition_bench")
#: Packages whose versions move the figures.
PACKAGES = ("pdfplumber", "pypdfium2", "tesserocr", "ftfy", "langdetect", "wordfreq",
            "sentence-transformers", "torch", "numpy", "pillow", "prefect", "ocrmypdf")


def environment() -> dict[str, object]:
    """Where and on what the benchmarks ran."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=False).stdout.strip()

    versions: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    tesseract = subprocess.run(["tesseract", "--version"], capture_output=True, text=True,
                               check=False)
    return {"commit": git("rev-parse", "HEAD"), "tree_changed": bool(git("status", "--short")),
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
            "python": platform.python_version(), "cpus": os.cpu_count(),
            "tesseract": (tesseract.stdout or tesseract.stderr).splitlines()[:1],
            "packages": versions}


def run(script: str, shared: Path) -> dict[str, object]:
    command = [sys.executable, f"bench/{script}.py", "--shared", str(shared)]
    load_before = os.getloadavg()
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    seconds = round(time.monotonic() - started, 1)
    print(f"{script}: exit {done.returncode} in {seconds} s", file=sys.stderr)
    return {"script": script, "command": " ".join(["python", *command[1:]]),
            "exit": done.returncode, "seconds": seconds,
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in os.getloadavg()],
            "output": done.stdout, "errors": done.stderr[-2000:] if done.returncode else ""}


def _earlier(path: Path) -> list[dict[str, object]]:
    """The entries of an earlier record (those of a record without per-entry
    environments are dropped: they cannot say where they ran)."""
    if not path.is_file():
        return []
    entries = json.loads(path.read_text(encoding="utf-8")).get("results", [])
    return [entry for entry in entries if "environment" in entry]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--only", nargs="*", choices=SCRIPTS, help="run only these")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results.json")
    args = parser.parse_args()
    where = environment()
    results = [{**run(script, args.shared.resolve()), "environment": where}
               for script in args.only or SCRIPTS]
    kept = {entry["script"]: entry for entry in _earlier(args.out)}
    kept.update((entry["script"], entry) for entry in results)
    record = {"results": [kept[script] for script in SCRIPTS if script in kept]}
    args.out.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n",
                        encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0 if all(result["exit"] == 0 for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
