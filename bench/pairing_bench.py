"""Pairing benchmark, end to end: inboxes in, ``aligned/`` out, scored against gold.

Each inbox (``bench/pairing_data.py``) holds an edition with decrees planted in it
(the whole 140-page DOU with its text layer, or a scan of its first page and the
planted pages), the English texts of a half's decisions in one form (PDF, one
paragraph per line, hard-wrapped, a saved web page, a Word or OpenDocument file, the
PDF photocopied),
distractors and the India PDFs. ``gazette run`` processes it in a project of its own,
as a user's run would (its own temporary Prefect server; the reading cache of the
first project of an edition is copied to the others, so an edition is not read again
for each English form).

Scored:

* **Document pairs**: the pairs the run published (``aligned/*/pairing.json``) against
  the pairs planted — precision and recall.
* **Units** of each planted pair: a unit is right when its English text and its
  translation fall in the same gold segments of the decision's TMX (segment *k* of
  each language translates the other's *k*). A text is located in its language's
  segments by its 4-word shingles, case and accents aside, and an ordinal ``1.o`` OCR
  read as ``1.0`` taken as it (so repair, OCR accents and
  segmentation differences do not matter: :class:`GoldSide`); a text found in two
  places (a repeated phrase) counts as right if either place is the other side's.
  Precision is right units over units, recall the share of gold segments covered by
  right units (a planted pair not found covers none).

Usage::

    .venv/bin/python bench/pairing_bench.py --shared ../shared [--half reporting]
        [--edition text|scan] [--form pdf|lines|wrapped|html|docx|odt|scan|bulletin] [--work DIR]
        [--score-only]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import pairing_data  # noqa: E402
from pairing_data import FORMS, Decision, Inbox  # noqa: E402

EDITIONS = ("text", "scan")


def words(text: str) -> list[str]:
    """The words of a text, case-folded, accents and punctuation aside (a unit is
    judged by where its text falls, not by how OCR spelt it).

    >>> words("Article 1(2): the ‘Agreement’; Fazem fé; TILLÃGG; Artigo 1.0")
    ['article', '1', '2', 'the', 'agreement', 'fazem', 'fe', 'tillagg', 'artigo', '1', 'o']
    """
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", text.casefold())
                   if not unicodedata.combining(ch))
    bare = re.sub(r"(?<=\d)\.0(?!\d)", ".o", bare)  # the ordinal 1.º OCR read as 1.0
    return re.findall(r"\w+", bare)


class GoldSide:
    """One language's gold segments of a decision, for locating a text in them.

    >>> side = GoldSide([(0, "Article 1"), (1, "The list of arbitrators is adopted."),
    ...                  (2, "This Decision shall enter into force on adoption.")])
    >>> sorted(side.locate("the list of arbitrators is adopted. This Decision shall"))
    [1]
    >>> sorted(side.locate("List of arbitrators is adopted. This Decision shall enter into"
    ...                    " force on adoption"))
    [1, 2]
    >>> sorted(side.locate("Article 1")), sorted(side.locate("nothing of the kind"))
    ([0], [])
    """

    SHINGLE = 4

    def __init__(self, segments: list[tuple[int, str]]) -> None:
        self.words: list[str] = []
        self.owner: list[int] = []
        for k, text in segments:
            found = words(text)
            self.words += found
            self.owner += [k] * len(found)
        self.length = Counter(self.owner)
        self.index: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for p in range(len(self.words) - self.SHINGLE + 1):
            self.index[tuple(self.words[p:p + self.SHINGLE])].append(p)

    def locate(self, text: str) -> frozenset[int]:
        """The segments ``text`` covers (the first of :meth:`placements`)."""
        found = self.placements(text)
        return found[0] if found else frozenset()

    def placements(self, text: str) -> list[frozenset[int]]:
        """Where ``text`` may lie, best first: for each of the most voted offsets of its
        shingles, the segments at least half of whose words lie in the stretch they
        place it on (a repeated phrase has several)."""
        found = words(text)
        n = self.SHINGLE
        if len(found) < n:
            return self._short(found)
        hits = [(p - i, p) for i in range(len(found) - n + 1)
                for p in self.index.get(tuple(found[i:i + n]), ())]
        if not hits:
            return []
        offsets = Counter(d for d, _ in hits)
        drift = max(5, len(found) // 10)
        placements = []
        for offset in sorted(d for d in offsets if offsets[d] == max(offsets.values())):
            near = [p for d, p in hits if abs(d - offset) <= drift]
            covered = self._covered(min(near), max(near) + n)
            placements.append((-sum(self.length[k] for k in covered), covered))
        return [covered for _, covered in sorted(placements, key=lambda p: p[0]) if covered]

    def _short(self, found: list[str]) -> list[frozenset[int]]:
        """A text of fewer words than a shingle: where it is a whole segment, else
        where it occurs."""
        if not found:
            return []
        starts = [p for p in range(len(self.words) - len(found) + 1)
                  if self.words[p:p + len(found)] == found]
        whole = [p for p in starts if self.length[self.owner[p]] == len(found)]
        return [self._covered(start, start + len(found))
                for start in (whole or starts)]

    def _covered(self, start: int, end: int) -> frozenset[int]:
        counts = Counter(self.owner[start:end])
        return frozenset(k for k, c in counts.items() if c >= 0.5 * self.length[k])


@dataclass
class UnitScore:
    units: int = 0
    right: int = 0
    gold: int = 0
    covered: int = 0

    def add(self, other: UnitScore) -> None:
        for name in ("units", "right", "gold", "covered"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def precision(self) -> float:
        return self.right / self.units if self.units else 0.0

    @property
    def recall(self) -> float:
        return self.covered / self.gold if self.gold else 0.0


_LIST_LABEL = re.compile(r"^\((?:[a-z]{1,3}|\d{1,3})\)\s+")


def unlabelled(text: str) -> str:
    """A unit's English text without the list label a Word file's numbering puts before
    an item, which the gold's segments do not have (in a short unit, its letter would
    be a word the gold cannot place).

    >>> unlabelled("(c) ‘, as amended by:"), unlabelled("(2) of Article 5")
    ('‘, as amended by:', 'of Article 5')
    """
    return _LIST_LABEL.sub("", text)


def unit_score(decision: Decision, language: str, units: list[dict[str, object]]
               ) -> UnitScore:
    """Units of one pair against the decision's segments in English and ``language``."""
    both = [(k, seg) for k, seg in enumerate(decision.segments) if language in seg]
    canonical: dict[tuple[str, str], int] = {}
    same = {k: canonical.setdefault((seg["en"], seg[language]), k) for k, seg in both}
    english = GoldSide([(k, seg["en"]) for k, seg in both])
    other = GoldSide([(k, seg[language]) for k, seg in both])
    score = UnitScore(gold=len(set(same.values())))
    covered: set[int] = set()
    for unit in units:
        for translation in unit["translations"]:  # type: ignore[attr-defined]
            if translation["language"] != language:
                continue
            score.units += 1
            lefts = [{same[k] for k in place}
                     for place in english.placements(unlabelled(str(unit["pivot_text"])))]
            rights = [{same[k] for k in place} for place in other.placements(translation["text"])]
            agreed = next((left for left in lefts if left and left in rights), None)
            if agreed is not None:
                score.right += 1
                covered |= agreed
    score.covered = len(covered)
    return score


def published_pairs(project: Path) -> set[tuple[str, str]]:
    pairs = set()
    for path in project.glob("aligned/*/pairing.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        pairs.add((data["english"], data["other"]))
    return pairs


def score(inbox: Inbox, found_decisions: dict[str, Decision]) -> dict[str, object]:
    """Document pairs and units of one processed inbox."""
    expected = {(english, other) for english, others in inbox.pairs.items()
                for other in others.values()}
    found = published_pairs(inbox.folder)
    units = UnitScore()
    for english, others in inbox.pairs.items():
        if english not in inbox.decision_of:
            continue  # the India bulletins: no segment gold
        decision = found_decisions[inbox.decision_of[english]]
        for language, other in others.items():
            pair = inbox.folder / "aligned" / f"{english}+{other}" / f"{english}+{other}.jsonl"
            rows = ([json.loads(line) for line in pair.read_text(encoding="utf-8").splitlines()]
                    if (english, other) in found and pair.is_file() else [])
            units.add(unit_score(decision, language, rows))
    right = len(found & expected)
    return {"pairs found": len(found), "pairs right": right, "pairs expected": len(expected),
            "pair P": right / len(found) if found else 0.0,
            "pair R": right / len(expected) if expected else 0.0,
            "wrong": sorted(found - expected), "missed": sorted(expected - found),
            "units": units.units, "unit P": units.precision, "unit R": units.recall}


def run_gazette(project: Path) -> float:
    started = time.monotonic()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["SOURCE_DATE_EPOCH"] = "1767225600"
    done = subprocess.run([str(ROOT / ".venv/bin/gazette"), "run", "--root", str(project)],
                          cwd=project, env=env, capture_output=True, text=True, check=False)
    (project / "run.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode not in (0, 1):
        raise SystemExit(f"gazette run failed in {project}: see {project / 'run.log'}")
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--half", choices=("tuning", "reporting"), action="append")
    parser.add_argument("--edition", choices=EDITIONS, action="append")
    parser.add_argument("--form", choices=FORMS, action="append")
    parser.add_argument("--work", type=Path, help="keep the projects here (default: a "
                        "temporary folder)")
    parser.add_argument("--score-only", action="store_true",
                        help="score the projects in --work as they are")
    args = parser.parse_args()
    shared = args.shared.resolve()
    found = pairing_data.decisions(shared)
    by_name = {d.name: d for d in found}
    plan = pairing_data.plan(found)
    work = args.work or Path(tempfile.mkdtemp(prefix="pairing-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    print("| half | edition | English form | pairs found | pair P | pair R | units | unit P "
          "| unit R | run |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    notes = []
    for half in args.half or ("tuning", "reporting"):
        members = plan[half]
        for edition in args.edition or EDITIONS:
            editions = work / "editions" / half
            editions.mkdir(parents=True, exist_ok=True)
            name = f"dou-{edition}.pdf"
            if not (editions / name).is_file():
                pairing_data.build_edition(shared, members, editions, scan=edition == "scan")
            first: Path | None = None
            for form in args.form or FORMS:
                project = work / f"{half}-{edition}-{form}"
                if not args.score_only:
                    shutil.rmtree(project, ignore_errors=True)
                inbox = pairing_data.build_inbox(shared, members, half, edition, form, project,
                                                 editions / name)
                seconds = 0.0
                if not args.score_only:
                    if first is not None:  # the edition read once per half and edition
                        shutil.copytree(first / ".gazette/prefect/storage",
                                        project / ".gazette/prefect/storage")
                    seconds = run_gazette(project)
                    first = first or project
                result = score(inbox, by_name)
                print(f"| {half} | {edition} | {form} | {result['pairs found']} | "
                      f"{result['pair P']:.3f} | {result['pair R']:.3f} | {result['units']} | "
                      f"{result['unit P']:.3f} | {result['unit R']:.3f} | {seconds:.0f} s |",
                      flush=True)
                if result["wrong"] or result["missed"]:
                    notes.append(f"{half} {edition} {form}: wrong {result['wrong']}, "
                                 f"missed {result['missed']}")
    for note in notes:
        print(note)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
