"""Language-split accuracy: share of characters labelled as the gold says.

1. The seeds, against ../shared/gold/seed-languages.tsv.
2. Mixtures built from the NTREX dev files: blocks of 1–5 consecutive lines of one
   language (eng, por, por-BR, swe, hin), shuffled together with a fixed seed, as
   paragraphs of one text.

Gold: ../shared/gold/seed-languages.tsv (line ranges, or char ranges on one line).
Characters the gold marks ``hi-unreadable`` count as right when labelled ``hi``,
``other`` or ``unreadable``; whitespace between blocks is not counted.

    .venv/bin/python bench/langsplit_seeds.py [--shared ../shared] [--mixtures 20]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from pipeline.config import Settings
from pipeline.read.ingest import ingest, source_for
from pipeline.records import CleanedDocument, Page
from pipeline.repair import repair, repaired_position
from pipeline.split.languages import label_blocks, sections_of


def gold_spans(gold_file: Path, seeds: Path) -> dict[str, list[tuple[int, int, str]]]:
    """Gold language spans as character offsets into each seed's text."""
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for line in gold_file.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, start, end, language, _note = line.split("\t")
        text = (seeds / name).read_text(encoding="utf-8")
        line_starts = [0]
        for row in text.split("\n"):
            line_starts.append(line_starts[-1] + len(row) + 1)

        def offset(ref: str, *, end: bool, starts: list[int] = line_starts) -> int:
            if "@" in ref:
                line_no, char = ref.split("@")
                return starts[int(line_no) - 1] + int(char)
            return starts[int(ref)] - 1 if end else starts[int(ref) - 1]

        spans.setdefault(name, []).append(
            (offset(start, end=False), offset(end, end=True), language))
    return spans


def accuracy(seed: Path, spans: list[tuple[int, int, str]]) -> tuple[float, int]:
    """Share of gold characters (non-space) whose block label matches, and their count."""
    settings = Settings.for_root(Path())
    cleaned = repair(ingest(source_for(seed), settings))
    # The gold's offsets are into the seed as it is: map them through the repair log.
    labels = [""] * len(cleaned.text)
    for block in (b for s in sections_of(label_blocks(cleaned, settings)) for b in s.blocks):
        labels[block.start:block.end] = [block.language] * (block.end - block.start)
    original = seed.read_text(encoding="utf-8")
    right = total = 0
    for start, end, language in spans:
        accepted = {"hi", "other", "unreadable"} if language == "hi-unreadable" else {language}
        for position in range(start, min(end, len(original))):
            if original[position].isspace():
                continue
            label = labels[min(repaired_position(position, cleaned.steps), len(labels) - 1)]
            if not label:
                continue
            total += 1
            right += label in accepted
    return right / total, total


NTREX_LANGUAGES = {"eng": "en", "por": "pt", "por-BR": "pt", "swe": "sv", "hin": "hi"}


def mixture(ntrex: Path, seed: int) -> tuple[str, list[tuple[int, int, str]]]:
    """One shuffled mixture of NTREX blocks and its gold spans."""
    rng = random.Random(seed)
    lines = {name: (ntrex / f"ntrex-dev.{name}.txt").read_text(encoding="utf-8").splitlines()
             for name in NTREX_LANGUAGES}
    blocks = []
    for name in NTREX_LANGUAGES:
        for _ in range(4):
            size = rng.randint(1, 5)
            first = rng.randrange(len(lines[name]) - size)
            blocks.append((" ".join(lines[name][first:first + size]), NTREX_LANGUAGES[name]))
    rng.shuffle(blocks)
    text, spans = "", []
    for block, language in blocks:
        if text:
            text += "\n\n"
        spans.append((len(text), len(text) + len(block), language))
        text += block
    return text, spans


def mixture_accuracy(text: str, spans: list[tuple[int, int, str]]) -> tuple[int, int]:
    """Right and total non-space characters of one mixture."""
    settings = Settings.for_root(Path())
    page = Page(number=1, method="text-dump", reason="mixture", text=text)
    cleaned = CleanedDocument(doc_id="mixture", pages=(page,))
    labels = [""] * len(text)
    for block in (b for s in sections_of(label_blocks(cleaned, settings)) for b in s.blocks):
        labels[block.start:block.end] = [block.language] * (block.end - block.start)
    right = total = 0
    for start, end, language in spans:
        for position in range(start, end):
            if not text[position].isspace():
                total += 1
                right += labels[position] == language
    return right, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--mixtures", type=int, default=20)
    args = parser.parse_args()
    seeds = args.shared / "seeds"
    print("| seed | characters | labelled right |")
    print("|---|---:|---:|")
    for name, spans in gold_spans(args.shared / "gold" / "seed-languages.tsv", seeds).items():
        share, total = accuracy(seeds / name, spans)
        print(f"| {name} | {total} | {share:.2%} |")
    right = total = 0
    for seed in range(args.mixtures):
        r, t = mixture_accuracy(*mixture(args.shared / "corpora" / "ntrex-dev", seed))
        right, total = right + r, total + t
    print(f"| NTREX mixtures ({args.mixtures} × 20 blocks) | {total} | {right / total:.2%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
