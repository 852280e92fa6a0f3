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

* A many-to-many set of our own (:func:`resplit`): DGT EN-PT with the two sides'
  sentence splits made to differ, as in literary text: 2-2 beads whose sides are cut
  at different places (the first two source sentences joined, the last two target
  ones), 2-3 and 3-2 beads likewise.

Each set is cut in two by document (:func:`halves`): parameters are tuned on the
``tuning`` half and figures reported on the ``reporting`` half. Text+Berg dev is one
document; it is cut at the gold bead nearest its middle into two documents first.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Case", "dgt", "halves", "ntrex", "perturb", "resplit", "textberg"]

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
    """Text+Berg dev, cut into two documents at the gold bead nearest its middle."""
    folder = shared / "corpora" / "textberg-dev"
    src = (folder / "dev.de").read_text(encoding="utf-8").splitlines()
    tgt = (folder / "dev.fr").read_text(encoding="utf-8").splitlines()
    gold = parse_beads((folder / "dev.defr").read_text(encoding="utf-8").splitlines())
    whole = Case("textberg-dev", "de", "fr", src, tgt, gold)
    cut = min(range(1, len(gold)), key=lambda n: abs(_start(gold[n:])[0] - len(src) / 2))
    return [_part(whole, gold[:cut], "first half"), _part(whole, gold[cut:], "second half")]


def _start(beads: Beads) -> tuple[int, int]:
    """The first source and target index the beads hold."""
    return (min((i for s, _ in beads for i in s), default=0),
            min((j for _, t in beads for j in t), default=0))


def _part(case: Case, beads: Beads, name: str) -> Case:
    """The stretch of ``case`` the consecutive gold ``beads`` cover, renumbered from 0."""
    i0, j0 = _start(beads)
    i1 = max((i for s, _ in beads for i in s), default=i0 - 1) + 1
    j1 = max((j for _, t in beads for j in t), default=j0 - 1) + 1
    gold = [(tuple(i - i0 for i in s), tuple(j - j0 for j in t)) for s, t in beads]
    return Case(f"{case.name} {name}", case.src_lang, case.tgt_lang, case.src[i0:i1],
                case.tgt[j0:j1], gold)


def halves(cases: list[Case], part: str) -> list[Case]:
    """The ``tuning`` or the ``reporting`` half of a set's documents: the documents in
    the order of a hash of their names, every other one, so the split is fixed and
    does not follow the corpus's own order."""
    ordered = sorted(cases, key=lambda c: hashlib.sha1(c.name.encode()).hexdigest())
    return ordered[{"tuning": 0, "reporting": 1}[part]::2]


#: How a run of consecutive 1-1 segments is cut into lines, per side: the segments (by
#: offset in the run) that each new line joins. ``(((0,), (1,)), ((0, 1),))`` is a 2-1
#: bead: two source lines, one target line holding both segments; ``(((0,),), ())`` drops
#: the target segment (1-0).
Pattern = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
_ONE_TO_ONE: Pattern = (((0,),), ((0,),))

#: Perturbation: cumulative probability, pattern.
_PERTURB: list[tuple[float, Pattern]] = [
    (0.06, (((0,), (1,)), ((0, 1),))),    # 2-1
    (0.12, (((0, 1),), ((0,), (1,)))),    # 1-2
    (0.135, (((0,),), ())),               # 1-0
    (0.15, ((), ((0,),))),                # 0-1
]
#: Resplitting: the same segments cut at different places on the two sides.
_RESPLIT: list[tuple[float, Pattern]] = [
    (0.10, (((0, 1), (2,)), ((0,), (1, 2)))),                 # 2-2: ab c / a bc
    (0.14, (((0, 1), (2, 3)), ((0,), (1, 2), (3,)))),         # 2-3: ab cd / a bc d
    (0.18, (((0,), (1, 2), (3,)), ((0, 1), (2, 3)))),         # 3-2
]


def _rearrange(src: list[str], tgt: list[str], seed: int,
               patterns: list[tuple[float, Pattern]]) -> tuple[list[str], list[str], Beads]:
    """Cut a 1-1 parallel list into new lines: at each position a random draw picks the
    first pattern whose probability it is below and that fits in what is left (else
    1-1). Returns the new sides and the gold beads."""
    rng = random.Random(seed)
    new_src: list[str] = []
    new_tgt: list[str] = []
    gold: Beads = []
    k = 0
    while k < len(src):
        roll = rng.random()
        fits = [p for below, p in patterns if roll < below and k + _span(p) <= len(src)]
        src_groups, tgt_groups = fits[0] if fits else _ONE_TO_ONE
        s0, t0 = len(new_src), len(new_tgt)
        new_src += [" ".join(src[k + o] for o in group) for group in src_groups]
        new_tgt += [" ".join(tgt[k + o] for o in group) for group in tgt_groups]
        gold.append((tuple(range(s0, len(new_src))), tuple(range(t0, len(new_tgt)))))
        k += _span((src_groups, tgt_groups))
    return new_src, new_tgt, gold


def _span(pattern: Pattern) -> int:
    """How many segments of the run a pattern takes."""
    return 1 + max(o for side in pattern for group in side for o in group)


def perturb(src: list[str], tgt: list[str], seed: int) -> tuple[list[str], list[str], Beads]:
    """Merge and drop segments of a 1-1 parallel list (about 6 % 2-1, 6 % 1-2, 1.5 % 1-0
    and 1.5 % 0-1 beads); returns new sides and gold beads."""
    return _rearrange(src, tgt, seed, _PERTURB)


def resplit(src: list[str], tgt: list[str], seed: int) -> tuple[list[str], list[str], Beads]:
    """Make the sentence splits of a 1-1 parallel list differ by side; returns new sides
    and gold beads. About 10 % of positions start a 2-2 bead (source ``ab c``, target
    ``a bc``), 4 % a 2-3 and 4 % a 3-2 bead (``ab cd`` against ``a bc d``)."""
    return _rearrange(src, tgt, seed, _RESPLIT)


def _dgt_pairs(shared: Path, tgt_code: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each DGT TMX file's name and its EN-GB / ``tgt_code`` segment pairs."""
    found = []
    for path in sorted((shared / "corpora" / "dgt-decisions").glob("*.tmx")):
        root = ET.fromstring(path.read_bytes().decode("utf-16"))
        pairs = []
        for tu in root.iter("tu"):
            segs = {tuv.get("lang"): (tuv.findtext("seg") or "").strip() for tuv in tu.iter("tuv")}
            if segs.get("EN-GB") and segs.get(tgt_code):
                pairs.append((segs["EN-GB"], segs[tgt_code]))
        found.append((path.stem, pairs))
    return found


def dgt(shared: Path, tgt_code: str, change: Callable[..., tuple[list[str], list[str], Beads]]
        = perturb) -> list[Case]:
    """EN-GB against ``tgt_code`` (``PT-PT``, ``SV-SE``) in each DGT TMX file, changed by
    ``change`` (:func:`perturb`, or :func:`resplit`) with the file's number as seed."""
    cases = []
    for number, (name, pairs) in enumerate(_dgt_pairs(shared, tgt_code)):
        src, tgt, gold = change([p[0] for p in pairs], [p[1] for p in pairs], seed=number)
        cases.append(Case(name, "en", tgt_code[:2].lower(), src, tgt, gold))
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
