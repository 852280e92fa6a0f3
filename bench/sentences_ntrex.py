"""Sentence-boundary F1 on the NTREX dev files, joined into paragraphs.

Each NTREX document (``ntrex-dev.doc_ids.txt``) becomes one paragraph: its lines
joined by a space. The gold boundaries are the joins; the splitter's boundaries are
the ends of all its sentences but the last. NTREX lines are segments, and a few hold
two sentences, so a perfect splitter does not score 1.0.

    .venv/bin/python bench/sentences_ntrex.py [--shared ../shared]
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

from pipeline.split.sentences import split_sentences

FILES = {"eng": "en", "por": "pt", "por-BR": "pt", "swe": "sv", "hin": "hi"}


def paragraphs(ntrex: Path, name: str) -> list[tuple[str, set[int]]]:
    """Each document as (paragraph text, gold boundary offsets)."""
    lines = (ntrex / f"ntrex-dev.{name}.txt").read_text(encoding="utf-8").splitlines()
    doc_ids = (ntrex / "ntrex-dev.doc_ids.txt").read_text(encoding="utf-8").splitlines()
    result = []
    for _, group in itertools.groupby(zip(doc_ids, lines, strict=True), key=lambda x: x[0]):
        text, gold = "", set()
        for _, line in group:
            if text:
                gold.add(len(text))
                text += " "
            text += line.strip()
        result.append((text, gold))
    return result


def scores(ntrex: Path, name: str) -> tuple[float, float, float]:
    """Precision, recall and F1 of boundaries for one language file."""
    tp = fp = fn = 0
    for text, gold in paragraphs(ntrex, name):
        predicted = {end for _, end in split_sentences(text, FILES[name])[:-1]}
        tp += len(predicted & gold)
        fp += len(predicted - gold)
        fn += len(gold - predicted)
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    return precision, recall, 2 * precision * recall / (precision + recall)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    args = parser.parse_args()
    print("| file | precision | recall | F1 |")
    print("|---|---:|---:|---:|")
    for name in FILES:
        p, r, f = scores(args.shared / "corpora" / "ntrex-dev", name)
        print(f"| ntrex-dev.{name} | {p:.3f} | {r:.3f} | {f:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
