"""Sentence-alignment benchmark: strict/lax F1 against gold beads, the whole run's time
against the embed-once floor, and the calibration of the confidence.

Each data set (``align_data.py``) is cut in two by document; parameters are tuned on
the ``tuning`` half and figures are reported on the ``reporting`` half (``--part``).
On each half the gazette aligner (real embedding model, no embedding cache) aligns
every document once in one pass and once as by default, with the second pass that
embeds real concatenations within its budget; a length-only Gale–Church baseline
(``galechurch.py``) does too. F1 is computed as vecalign's ``score.py`` does
(``align_score.py``).

Speed is a ratio measured here, per set: the whole run (load the model, then align,
embedding included) against the floor any embedding aligner pays (load the model,
then embed every line of both sides once, in one call). The calibration table counts
the default aligner's beads of the half by confidence band, with the 95 % (Wilson)
interval of the share right: a band of twenty beads cannot show a share to five
points.

    .venv/bin/python bench/align_bench.py --shared ../shared [--part reporting] [--sets ...]
"""

from __future__ import annotations

import argparse
import math
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

import align_data
import galechurch
from align_score import f1_scores

from pipeline.align.core import Bead, align
from pipeline.config import Settings
from pipeline.embedding.encoder import Encoder

SETS: dict[str, Callable[[Path], list[align_data.Case]]] = {
    "textberg": align_data.textberg,
    "dgt-pt": lambda shared: align_data.dgt(shared, "PT-PT"),
    "dgt-sv": lambda shared: align_data.dgt(shared, "SV-SE"),
    "dgt-pt-resplit": lambda shared: align_data.dgt(shared, "PT-PT", align_data.resplit),
    "ntrex-hi": lambda shared: align_data.ntrex(shared, "hin"),
    "ntrex-pt": lambda shared: align_data.ntrex(shared, "por-BR"),
    "ntrex-sv": lambda shared: align_data.ntrex(shared, "swe"),
}


def fresh_encoder() -> Encoder:
    """An encoder with nothing loaded and no cache: each run pays the model's load."""
    return Encoder(Settings.for_root(Path()).model_dir, cache=None)


def floor_seconds(cases: list[align_data.Case]) -> float:
    """Load the model and embed every line of both sides once, in one call."""
    started = time.perf_counter()
    fresh_encoder().encode([text for case in cases for text in case.src + case.tgt])
    return time.perf_counter() - started


def align_all(cases: list[align_data.Case], refine: bool) -> tuple[list[list[Bead]], float]:
    """Load the model and align every document as gazette does (one encode call for the
    whole set, as for a whole document); the beads and the seconds."""
    started = time.perf_counter()
    encoder = fresh_encoder()
    vectors = encoder.encode([text for case in cases for text in case.src + case.tgt])
    found, offset = [], 0
    for case in cases:
        src = vectors[offset:offset + len(case.src)]
        tgt = vectors[offset + len(case.src):offset + len(case.src) + len(case.tgt)]
        offset += len(case.src) + len(case.tgt)
        found.append(align(case.src, case.tgt, src, tgt,
                           embed=encoder.encode if refine else None))
    return found, time.perf_counter() - started


def calibration(cases: list[align_data.Case], found: list[list[Bead]],
                bands: list[list[int]]) -> None:
    """Count each bead with both sides into its confidence band: [right, total]."""
    for case, beads in zip(cases, found, strict=True):
        gold = set(case.gold)
        for bead in beads:
            if bead.src and bead.tgt:
                band = bands[min(int(bead.confidence * 10), 9)]
                band[0] += (bead.src, bead.tgt) in gold
                band[1] += 1


def wilson(right: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of the share ``right / total`` (95 % for z = 1.96).

    >>> [round(x, 3) for x in wilson(8, 10)]
    [0.49, 0.943]
    """
    share, z2 = right / total, z * z / total
    centre = (share + z2 / 2) / (1 + z2)
    half = z / (1 + z2) * math.sqrt(share * (1 - share) / total + z2 / (4 * total))
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    parser.add_argument("--part", nargs="+", default=["tuning", "reporting"],
                        choices=["tuning", "reporting"])
    args = parser.parse_args()
    fresh_encoder().encode(["warm-up"])  # the model's files in the OS cache for all runs
    bands = {part: [[0, 0] for _ in range(10)] for part in args.part}
    print("| set | half | aligner | documents | source segments | strict F1 | lax F1 | "
          "Gale–Church strict | whole run / embed-once floor |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for name in args.sets:
        every = SETS[name](args.shared)
        for part in args.part:
            cases = align_data.halves(every, part)
            golds = [case.gold for case in cases]
            baseline = f1_scores(golds, [galechurch.align(c.src, c.tgt) for c in cases])
            floor = floor_seconds(cases)
            segments = sum(len(c.src) for c in cases)
            for refine in (False, True):
                found, seconds = align_all(cases, refine)
                if refine:
                    calibration(cases, found, bands[part])
                ours = f1_scores(golds, [[(b.src, b.tgt) for b in beads] for beads in found])
                print(f"| {name} | {part} | {'default (second pass)' if refine else 'one pass'} | "
                      f"{len(cases)} | {segments} | {ours['f1_strict']:.3f} | "
                      f"{ours['f1_lax']:.3f} | {baseline['f1_strict']:.3f} | "
                      f"{seconds / floor:.2f} ({seconds:.1f} s / {floor:.1f} s) |", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RAM: {peak:.0f} MB")
    for part, counts in bands.items():
        print(f"\nconfidence of the default aligner's beads, {part} halves of the sets run\n")
        print("| confidence | beads (both sides) | strictly right | 95 % interval | "
              "within 5 points of the band |")
        print("|---|---:|---:|---|---|")
        for band, (right, total) in enumerate(counts):
            if total:
                low, high = band / 10, (band + 1) / 10
                share = right / total
                near = low - 0.05 <= share <= high + 0.05
                lower, upper = wilson(right, total)
                print(f"| {low:.1f}–{high:.1f} | {total} | {share:.1%} | "
                      f"{lower:.0%}–{upper:.0%} | {'yes' if near else 'no'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
