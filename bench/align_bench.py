"""Sentence-alignment benchmark: strict/lax F1 and speed against gold beads.

For each data set (see ``align_data.py``) the gazette aligner (real embedding model,
no embedding cache, so the time includes embedding; once in one pass, once with the
second pass that embeds merged neighbours) and a length-only Gale–Church
baseline (``galechurch.py``) align every document; F1 is computed as vecalign's
``score.py`` does (``align_score.py``). Time is wall-clock seconds per 1,000 source
segments; peak RAM is the process's maximum resident set size.

    .venv/bin/python bench/align_bench.py --shared ../shared [--sets textberg dgt-pt ...]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import align_data
import galechurch
from align_score import f1_scores

from pipeline.config import Settings
from pipeline.embedding.encoder import Encoder
from pipeline.sentalign import align

SETS = {
    "textberg": lambda shared: align_data.textberg(shared),
    "dgt-pt": lambda shared: align_data.dgt(shared, "PT-PT"),
    "dgt-sv": lambda shared: align_data.dgt(shared, "SV-SE"),
    "ntrex-hi": lambda shared: align_data.ntrex(shared, "hin"),
    "ntrex-pt": lambda shared: align_data.ntrex(shared, "por-BR"),
    "ntrex-sv": lambda shared: align_data.ntrex(shared, "swe"),
}


#: confidence decile -> [right, total] over all sets run
CALIBRATION = [[0, 0] for _ in range(10)]


def run(name: str, cases: list[align_data.Case], encoder: Encoder, refine: bool) -> str:
    started = time.perf_counter()
    # one encode call for the whole set, as gazette does for a whole document
    texts = [text for case in cases for text in case.src + case.tgt]
    vectors = encoder.encode(texts)
    tests = []
    offset = 0
    for case in cases:
        src = vectors[offset:offset + len(case.src)]
        tgt = vectors[offset + len(case.src):offset + len(case.src) + len(case.tgt)]
        offset += len(case.src) + len(case.tgt)
        beads = align(case.src, case.tgt, src, tgt, embed=encoder.encode if refine else None)
        tests.append([(b.src, b.tgt) for b in beads])
        gold = set(case.gold)
        for bead in beads:
            if bead.src and bead.tgt:
                decile = min(int(bead.confidence * 10), 9)
                CALIBRATION[decile][0] += (bead.src, bead.tgt) in gold
                CALIBRATION[decile][1] += 1
    seconds = time.perf_counter() - started
    golds = [case.gold for case in cases]
    ours = f1_scores(golds, tests)
    baseline = f1_scores(golds, [galechurch.align(c.src, c.tgt) for c in cases])
    segments = sum(len(c.src) for c in cases)
    mode = "with second pass" if refine else "one pass"
    return (f"| {name} | {mode} | {len(cases)} | {segments} | {ours['f1_strict']:.3f} | "
            f"{ours['f1_lax']:.3f} | {baseline['f1_strict']:.3f} | {baseline['f1_lax']:.3f} | "
            f"{1000 * seconds / segments:.1f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    args = parser.parse_args()
    print("| set | aligner | documents | source segments | strict F1 | lax F1 | "
          "Gale–Church strict | Gale–Church lax | s / 1,000 segments |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.sets:
        cases = SETS[name](args.shared)
        for refine in (False, True):
            # a fresh cache-less encoder each time: every run embeds from scratch
            encoder = Encoder(Settings.for_root(Path()).model_dir, cache=None)
            encoder.encode(["warm-up"])  # model loading is not alignment time
            print(run(name, cases, encoder, refine), flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RAM: {peak:.0f} MB\n")
    print("| confidence | beads (both sides) | strictly right |")
    print("|---|---:|---:|")
    for decile, (right, total) in enumerate(CALIBRATION):
        if total:
            print(f"| {decile / 10:.1f}–{(decile + 1) / 10:.1f} | {total} | {right / total:.1%} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
