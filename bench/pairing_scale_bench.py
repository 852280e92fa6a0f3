"""Pairing at scale: one new document against 10,000 published documents.

The collection is synthetic but made of real sentences: each of its documents is a
digest (``pipeline.align.documents.Digest``) of 8 sentences drawn from a pool of real
Portuguese and Swedish sentences (the DGT decisions and NTREX news of
``../shared``), with the numbers those sentences hold. Hidden among them are the
real digests of the Portuguese and Swedish texts of the DGT decisions of the
*reporting* half (``bench/pairing_data.py``). Each new document is the English text
of one of those decisions; pairing it is what ``gazette run`` does for a new
document: search the index for its candidates, re-score them, link
(``pipeline.align.documents.find_translations`` with one English text).

Vectors come from the real model, embedded once before the timing (as a run finds
them in its embedding cache: the new document's own sentences are embedded when it
is processed, the published documents' digests when they were). Printed: the time to
build the index (the load), the time per new document (median and slowest of all
new documents), and how many found their translation.

Usage::

    .venv/bin/python bench/pairing_scale_bench.py --shared ../shared [--documents 10000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from functools import partial
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import pairing_data  # noqa: E402

from pipeline.align.documents import (  # noqa: E402
    DIGEST_SIZE,
    DIGEST_TOKENS,
    Digest,
    DocumentIndex,
    digest,
    find_translations,
    language_offsets,
    numbers_of,
)
from pipeline.config import Settings  # noqa: E402
from pipeline.embedding.encoder import encoder_for  # noqa: E402


class Memo:
    """The model's vectors, kept in memory once computed (a warm embedding cache)."""

    def __init__(self, encode: object) -> None:
        self.encode = encode
        self.vectors: dict[str, np.ndarray] = {}

    def __call__(self, texts: list[str]) -> np.ndarray:
        missing = list(dict.fromkeys(t for t in texts if t not in self.vectors))
        if missing:
            self.vectors.update(zip(missing, self.encode(missing), strict=True))  # type: ignore[operator]
        return np.stack([self.vectors[t] for t in texts]) if texts else np.zeros((0, 384))


def pool(shared: Path, found: list[pairing_data.Decision]) -> dict[str, list[str]]:
    """Real sentences per language: every DGT segment and NTREX line."""
    sentences: dict[str, list[str]] = {"pt": [], "sv": []}
    for decision in found:
        for language in sentences:
            sentences[language] += [text for _, text in decision.texts(language)]
    folder = shared / "corpora" / "ntrex-dev"
    for language, name in (("pt", "por"), ("sv", "swe")):
        sentences[language] += (folder / f"ntrex-dev.{name}.txt").read_text(
            encoding="utf-8").splitlines()
    return sentences


def synthetic(count: int, sentences: dict[str, list[str]], embed: Memo, seed: int
              ) -> list[Digest]:
    """``count`` digests of :data:`DIGEST_SIZE` pool sentences each, in Portuguese or
    Swedish."""
    rng = random.Random(seed)
    found = []
    for number in range(count):
        language = "pt" if number % 4 else "sv"
        texts = rng.sample(sentences[language], DIGEST_SIZE)
        mean = embed(texts).mean(axis=0)
        found.append(Digest(f"synthetic-{number}", language, rng.randrange(12, 400),
                            tuple(enumerate(texts)), (mean / np.linalg.norm(mean)).astype(
                                np.float32), sum(map(numbers_of, texts), Counter())))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--documents", type=int, default=10_000)
    args = parser.parse_args()
    found = pairing_data.decisions(args.shared)
    reporting = [d for d, role in pairing_data.plan(found)["reporting"]]
    with tempfile.TemporaryDirectory() as tmp:
        encoder = encoder_for(Settings.for_root(Path(tmp)))
        embed = Memo(encoder.encode)  # English sentences, as a run embeds them
        embed_sample = Memo(partial(encoder.encode, max_tokens=DIGEST_TOKENS))  # digests
        print(f"embedding the pool and {args.documents} synthetic digests …", file=sys.stderr)
        sentences_by_language = pool(args.shared, found)
        for texts in sentences_by_language.values():
            embed_sample(texts)  # once, in large batches
        collection = synthetic(args.documents, sentences_by_language, embed_sample, seed=2026)
        english, sentences = [], {}
        for decision in reporting:
            texts = [text for _, text in decision.texts("en")]
            english.append(digest(f"{decision.name}-en", "en", texts, embed_sample))
            sentences[f"{decision.name}-en"] = texts
            embed(texts)  # as the run embeds an English text's sentences when processing it
            for language in ("pt", "sv"):
                own = [text for _, text in decision.texts(language)]
                collection.append(digest(f"{decision.name}-{language}", language, own,
                                         embed_sample))
        offsets = language_offsets(("en", "pt", "sv"), embed_sample)
        started = time.perf_counter()
        index = DocumentIndex(collection, offsets)
        load = time.perf_counter() - started
        times, right, missed = [], 0, []
        for profile in english:
            started = time.perf_counter()
            taken, _ = find_translations([profile], index, sentences.__getitem__, embed,
                                         embed_sample)
            times.append(time.perf_counter() - started)
            name = profile.doc_id.removesuffix("-en")
            got = {m.other for m in taken}
            right += len(got & {f"{name}-pt", f"{name}-sv"})
            missed += sorted({f"{name}-pt", f"{name}-sv"} - got)
    print("| documents in the index | index built | per new document (median) | slowest "
          "| translations found |")
    print("|---:|---:|---:|---:|---:|")
    print(f"| {len(collection)} | {load:.2f} s | {statistics.median(times):.3f} s | "
          f"{max(times):.3f} s | {right} of {2 * len(english)} |")
    if missed:
        print(f"not found: {', '.join(missed)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
