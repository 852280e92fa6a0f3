"""Repair benchmark: what each rule does to the seeds, and what it does to clean text.

1. Per seed: fixes per rule, and the share of words a lexicon knows (wordfreq and the
   Hindi legal terms list; pt, en, sv, hi) before and after repair; for seed 003 also
   its Hindi part alone, with and without the legal terms list (without it, the list
   neither counts words as known nor votes on the glyph readings of repair).
2. Injected garbage: clean text (NTREX dev lines in Portuguese, English, Swedish)
   damaged like the seeds at fixed random places (closing and opening quotes turned
   into the junk letters, ``(ii)`` into look-alikes, ``l``→``i`` and ``å``→``ä``
   confusions); character error rate against the clean text before and after repair.
3. Clean text: NTREX dev (all five files) and three DGT decisions segment by segment;
   then whole documents (NTREX documents joined into paragraphs, all DGT decisions
   joined per language, seed 001, clean prose with Latin phrases and numbers ending
   sentences), where context-hungry rules see their context; changes other than NFC
   normalization must be zero.

    .venv/bin/python bench/repair_seeds.py --shared ../shared
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from rapidfuzz.distance import Levenshtein

from pipeline.records import IngestedDocument, Page, Source
from pipeline.repair import repair
from pipeline.text import lexicon
from pipeline.text.lexicon import known_share

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
    for with_list in (False, True):
        # in a process of its own: the lexicon and the glyph readings are cached
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            before, after = pool.apply(hindi_of_003, (shared, with_list))
        print(f"| 003, Hindi part only (Hindi lexicon: wordfreq"
              f"{' + legal terms list' if with_list else ' alone'}) | | {before:.1%} | "
              f"{after:.1%} |")


def hindi_of_003(shared: Path, with_list: bool) -> tuple[float, float]:
    """Seed 003's Hindi part: the share of its words known before and after repair."""
    if not with_list:
        lexicon.DOMAIN_LISTS.clear()
    text = (shared / "seeds" / "003_0e74b7595024bb83.txt").read_text(encoding="utf-8")
    hindi = text.split("\n")[2][:24258]
    after = repair(document(hindi)).pages[0].text
    return known_share(hindi, ("hi",))[0], known_share(after, ("hi",))[0]


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


#: Clean legal and news prose written for this benchmark: Latin phrases, and numbers
#: that end sentences before quotations and numbered items. Tuning data: it was written
#: in the same change as the guards it exercises (the Latin phrases, the sentence-final
#: numbers), and they were made to pass it.
CLEAN_PROSE = (
    "The competent authorities shall, inter alia, exchange information on a bona fide "
    "request; the provisions apply mutatis mutandis to the taxes referred to in Article "
    "2. \"It is a matter of ex officio review,\" the minister said. The rate is pro rata "
    "temporis and applies ipso facto. The committee met ad hoc on 14 March and again on "
    "the 21st. She was appointed at the age of 34. \"I am honoured,\" she said.",
    "As autoridades competentes trocarão, inter alia, as informações necessárias, e o "
    "disposto aplica-se mutatis mutandis ao Artigo 5. \"Trata-se de uma revisão de "
    "ofício\", disse o ministro. A taxa é calculada pro rata e vale erga omnes desde o dia "
    "7. (Os valores constam do anexo.) O prazo termina em 2015 e é de 3. anos segundo o "
    "decreto.",
    "De behöriga myndigheterna ska inter alia utbyta upplysningar, och bestämmelserna "
    "tillämpas mutatis mutandis på artikel 9. \"Det är en fråga om prövning ex officio\", "
    "sade ministern. Han var 8. \"Jag minns det väl\", sade han.",
)


def clean_documents(shared: Path) -> None:
    """Clean text as whole documents (a page each), where the context-hungry rules see
    what they look for: NTREX documents joined into paragraphs, DGT decisions joined per
    language, seed 001, and clean prose with Latin phrases and sentence-final numbers."""
    print("\n| clean documents | documents | characters | changes other than NFC, by rule |")
    print("|---|---:|---:|---|")
    corpora = shared / "corpora"
    ids = (corpora / "ntrex-dev" / "ntrex-dev.doc_ids.txt").read_text(
        encoding="utf-8").splitlines()
    sets: list[tuple[str, list[str]]] = []
    for name in ("eng", "por", "por-BR", "swe", "hin"):
        lines = (corpora / "ntrex-dev" / f"ntrex-dev.{name}.txt").read_text(
            encoding="utf-8").splitlines()
        docs: dict[str, list[str]] = {}
        for doc_id, line in zip(ids, lines, strict=True):
            docs.setdefault(doc_id, []).append(line)
        sets.append((f"NTREX {name}, documents as paragraphs",
                     [" ".join(doc) for doc in docs.values()]))
    for lang in ("EN-GB", "PT-PT", "SV-SE"):
        decisions = []
        for tmx in sorted((corpora / "dgt-decisions").glob("*.tmx")):
            root = ET.fromstring(tmx.read_bytes().decode("utf-16"))
            decisions.append("\n".join(tuv.findtext("seg") or "" for tuv in root.iter("tuv")
                                       if tuv.get("lang") == lang))
        sets.append((f"DGT decisions {lang}, whole", decisions))
    seed = (Path(__file__).resolve().parent.parent / "raw" / "samples"
            / "001_92f44dad33fafe9c.txt").read_text(encoding="utf-8")
    sets.append(("seed 001 (clean English protocol)", [seed]))
    sets.append(("clean prose with Latin phrases and sentence-final numbers",
                 list(CLEAN_PROSE)))
    for label, texts in sets:
        rules = Counter(s.rule for s in repair(document(*texts)).steps
                        if s.rule != "normalize_nfc")
        print(f"| {label} | {len(texts)} | {sum(map(len, texts))} | "
              f"{', '.join(f'{r} {n}' for r, n in rules.most_common()) or '0'} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    args = parser.parse_args()
    seeds(args.shared)
    injected(args.shared)
    clean(args.shared)
    clean_documents(args.shared)
    return 0


if __name__ == "__main__":
    sys.exit(main())
