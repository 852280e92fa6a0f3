"""Gold sentence alignments for the alignment benchmark.

* Text+Berg dev (German/French, ``../shared/corpora/textberg-dev``, GPL-2.0 data):
  its own gold beads.
* DGT decisions (``../shared/corpora/dgt-decisions``, DGT-TM): EN-GB with PT-PT and
  with SV-SE, one document per TMX file, perturbed.
* NTREX dev (``../shared/corpora/ntrex-dev``, CC BY-SA 4.0): English with Hindi,
  Brazilian Portuguese and Swedish, one document per NTREX document id, perturbed.

The perturbation turns 1-1 segment pairs into harder beads with a fixed seed: about
6 % of positions merge two adjacent segments on the target side (2-1 beads), 6 % on
the source side (1-2), and 3 % drop a segment on one side (1-0 or 0-1).
"""

from __future__ import annotations

import itertools
import random
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Case", "dgt", "ntrex", "perturb", "textberg"]

Beads = list[tuple[tuple[int, ...], tuple[int, ...]]]


@dataclass(frozen=True)
class Case:
    """One document pair with its gold beads."""

    name: str
    src_lang: str
    tgt_lang: str
    src: list[str]
    tgt: list[str]
    gold: Beads


def parse_beads(lines: list[str]) -> Beads:
    """Beads in vecalign's format ``[0, 1]:[2]`` (a confidence after a third ``:`` is ignored).

    >>> parse_beads(["[0]:[0, 1]", "[1]:[]:0.00"])
    [((0,), (0, 1)), ((1,), ())]
    """
    beads = []
    for line in lines:
        left, right = line.split(":")[:2]
        beads.append((tuple(int(x) for x in re.findall(r"\d+", left)),
                      tuple(int(x) for x in re.findall(r"\d+", right))))
    return beads


def textberg(shared: Path) -> list[Case]:
    folder = shared / "corpora" / "textberg-dev"
    src = (folder / "dev.de").read_text(encoding="utf-8").splitlines()
    tgt = (folder / "dev.fr").read_text(encoding="utf-8").splitlines()
    gold = parse_beads((folder / "dev.defr").read_text(encoding="utf-8").splitlines())
    return [Case("textberg-dev", "de", "fr", src, tgt, gold)]


def perturb(src: list[str], tgt: list[str], seed: int) -> tuple[list[str], list[str], Beads]:
    """Merge and drop segments of a 1-1 parallel list; returns new sides and gold beads."""
    rng = random.Random(seed)
    new_src: list[str] = []
    new_tgt: list[str] = []
    gold: Beads = []
    k = 0
    while k < len(src):
        roll = rng.random()
        s0, t0 = len(new_src), len(new_tgt)
        if roll < 0.06 and k + 1 < len(src):  # 2-1: two source segments, one target line
            new_src += [src[k], src[k + 1]]
            new_tgt.append(f"{tgt[k]} {tgt[k + 1]}")
            gold.append(((s0, s0 + 1), (t0,)))
            k += 2
        elif roll < 0.12 and k + 1 < len(src):  # 1-2
            new_src.append(f"{src[k]} {src[k + 1]}")
            new_tgt += [tgt[k], tgt[k + 1]]
            gold.append(((s0,), (t0, t0 + 1)))
            k += 2
        elif roll < 0.135:  # 1-0
            new_src.append(src[k])
            gold.append(((s0,), ()))
            k += 1
        elif roll < 0.15:  # 0-1
            new_tgt.append(tgt[k])
            gold.append(((), (t0,)))
            k += 1
        else:
            new_src.append(src[k])
            new_tgt.append(tgt[k])
            gold.append(((s0,), (t0,)))
            k += 1
    return new_src, new_tgt, gold


def dgt(shared: Path, tgt_code: str, limit: int | None = None) -> list[Case]:
    """EN-GB against ``tgt_code`` (``PT-PT``, ``SV-SE``) in each DGT TMX file, perturbed."""
    cases = []
    files = sorted((shared / "corpora" / "dgt-decisions").glob("*.tmx"))[:limit]
    for number, path in enumerate(files):
        root = ET.fromstring(path.read_bytes().decode("utf-16"))
        pairs = []
        for tu in root.iter("tu"):
            segs = {tuv.get("lang"): (tuv.findtext("seg") or "").strip() for tuv in tu.iter("tuv")}
            if segs.get("EN-GB") and segs.get(tgt_code):
                pairs.append((segs["EN-GB"], segs[tgt_code]))
        src, tgt, gold = perturb([p[0] for p in pairs], [p[1] for p in pairs], seed=number)
        cases.append(Case(path.stem, "en", tgt_code[:2].lower(), src, tgt, gold))
    return cases


def ntrex(shared: Path, tgt_name: str) -> list[Case]:
    """English against ``tgt_name`` (``hin``, ``por-BR``, ``swe``) per NTREX document."""
    folder = shared / "corpora" / "ntrex-dev"
    ids = (folder / "ntrex-dev.doc_ids.txt").read_text(encoding="utf-8").splitlines()
    en = (folder / "ntrex-dev.eng.txt").read_text(encoding="utf-8").splitlines()
    other = (folder / f"ntrex-dev.{tgt_name}.txt").read_text(encoding="utf-8").splitlines()
    cases = []
    rows = zip(ids, en, other, strict=True)
    for number, (doc, group) in enumerate(itertools.groupby(rows, key=lambda r: r[0])):
        members = list(group)
        src, tgt, gold = perturb([r[1] for r in members], [r[2] for r in members], seed=number)
        lang = {"hin": "hi", "por-BR": "pt", "swe": "sv"}[tgt_name]
        cases.append(Case(doc, "en", lang, src, tgt, gold))
    return cases
