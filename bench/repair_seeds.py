"""Repair benchmark: what each rule does to the seeds, and what it does to clean text.

1. Per seed: fixes per rule, and the share of words a lexicon knows (wordfreq; pt,
   en, sv, hi) before and after repair; for seed 003 also its Hindi part alone.
2. Injected garbage: clean text (NTREX dev lines in Portuguese, English, Swedish)
   damaged like the seeds at fixed random places (closing and opening quotes turned
   into the junk letters, ``(ii)`` into look-alikes, ``l``→``i`` and ``å``→``ä``
   confusions); character error rate against the clean text before and after repair.
3. Clean text: NTREX dev (all five files) and three DGT decisions; changes other
   than NFC normalization must be zero.

    .venv/bin/python bench/repair_seeds.py --shared ../shared
"""

from __future__ import annotations

import argparse
import random
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from pipeline.lexicon import known_share
from pipeline.records import IngestedDocument, Page, Source
from pipeline.repair import repair

LANGUAGES = ("pt", "en", "sv", "hi")


def document(*texts: str) -> IngestedDocument:
    source = Source(path=Path("x"), relpath="x", doc_id="x", kind="text", sha256="")
    return IngestedDocument(source=source, pages=tuple(
        Page(number=i, method="text-dump", reason="", text=t) for i, t in enumerate(texts, 1)))


def seeds(shared: Path) -> None:
    print("| seed | fixes by rule | known words before | after |")
    print("|---|---|---:|---:|")
    for path in sorted((shared / "seeds").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        cleaned = repair(document(text))
        rules = ", ".join(f"{rule} {n}" for rule, n in
                          Counter(s.rule for s in cleaned.steps).most_common())
        before = known_share(text, LANGUAGES)[0]
        after = known_share(cleaned.pages[0].text, LANGUAGES)[0]
        print(f"| {path.name} | {rules or '—'} | {before:.1%} | {after:.1%} |")
    text = (shared / "seeds" / "003_0e74b7595024bb83.txt").read_text(encoding="utf-8")
    hindi = text.split("\n")[2][:24258]
    after = repair(document(hindi)).pages[0].text
    print(f"| 003, Hindi part only (Hindi lexicon) | | {known_share(hindi, ('hi',))[0]:.1%} | "
          f"{known_share(after, ('hi',))[0]:.1%} |")


def inject(text: str, rng: random.Random) -> str:
    """Damage ``text`` the way the seeds are damaged (only existing characters change)."""
    words = text.split(" ")
    for i, word in enumerate(words):
        roll = rng.random()
        if roll < 0.3 and word.endswith('."'):
            words[i] = word[:-2] + "iại"
        elif roll < 0.3 and word.endswith(':"'):
            words[i] = word[:-2] + "ẠỊi"
        elif roll < 0.3 and word.startswith('"'):
            words[i] = "Ị" + word[1:]
        elif roll < 0.3 and word in ("(ii)", "(i)"):
            words[i] = rng.choice(["(¡i)", "(її)", "(i¡)"]) if word == "(ii)" else "(i>"
        elif roll < 0.02 and "l" in word and word.islower() and len(word) > 4:
            words[i] = word.replace("l", "i", 1)
        elif roll < 0.05 and "å" in word:
            words[i] = word.replace("å", "ä", 1)
    return " ".join(words)


def injected(shared: Path) -> None:
    print("\n| text | characters | CER before repair | CER after repair |")
    print("|---|---:|---:|---:|")
    for name in ("por", "eng", "swe"):
        lines = (shared / "corpora" / "ntrex-dev" / f"ntrex-dev.{name}.txt").read_text(
            encoding="utf-8").splitlines()[:400]
        rng = random.Random(7)
        damaged = [inject(line, rng) for line in lines]
        repaired = [p.text for p in repair(document(*damaged)).pages]
        truth = "\n".join(lines)
        before = Levenshtein.distance(truth, "\n".join(damaged)) / len(truth)
        after = Levenshtein.distance(truth, "\n".join(repaired)) / len(truth)
        print(f"| NTREX {name}, 400 lines | {len(truth)} | {before:.2%} | {after:.2%} |")


def clean(shared: Path) -> None:
    print("\n| clean text | segments | changes other than NFC |")
    print("|---|---:|---:|")
    for name in ("eng", "por", "por-BR", "swe", "hin"):
        lines = (shared / "corpora" / "ntrex-dev" / f"ntrex-dev.{name}.txt").read_text(
            encoding="utf-8").splitlines()
        steps = repair(document(*lines)).steps
        print(f"| NTREX {name} | {len(lines)} | "
              f"{sum(s.rule != 'normalize_nfc' for s in steps)} |")
    for tmx in sorted((shared / "corpora" / "dgt-decisions").glob("*.tmx"))[:3]:
        root = ET.fromstring(tmx.read_bytes().decode("utf-16"))
        for lang in ("EN-GB", "PT-PT", "SV-SE"):
            segs = [tuv.findtext("seg") or "" for tuv in root.iter("tuv")
                    if tuv.get("lang") == lang]
            steps = repair(document(*segs)).steps
            print(f"| DGT {tmx.stem} {lang} | {len(segs)} | "
                  f"{sum(s.rule != 'normalize_nfc' for s in steps)} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    args = parser.parse_args()
    seeds(args.shared)
    injected(args.shared)
    clean(args.shared)
    return 0


if __name__ == "__main__":
    sys.exit(main())
