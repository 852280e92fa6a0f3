"""Find which documents translate each other, by what they say.

A treaty's English text and its translation often arrive as separate documents: the
English text dropped into the inbox as a PDF, a web page's text or a bulletin, the
translation printed as the annex of a decree among the hundreds of acts of a gazette
edition, processed before or after it. Titles, parties and numbers can be missing or
garbled on either side, so what pairs them is their content, after Thompson & Koehn
(2020, "Exploiting Sentence Order in Document Alignment"):

1. **Digest.** A document in one language is summed up by a sample of its sentences
   spread evenly over it (:func:`digest_sample`) and the numbers it holds: made once,
   when the document is processed, and kept with it (:class:`Digest`). The mean of
   the sample's vectors is added when documents are to be paired
   (:func:`with_vectors`: the samples of all of them embedded together, not an act at a
   time). The text of an act that prints the translation as its annex (a decree's own
   articles: :data:`pipeline.split.structure.ACT`) is left out.
2. **Candidates.** For each English text, the documents of each other language whose
   digests are nearest (:class:`DocumentIndex`: one matrix product against every
   document, however many). The embeddings of all texts of one language share a
   direction that says "this is Portuguese" more than what the text says; it is taken
   out first, estimated from the language's most common words (:func:`language_offsets`).
3. **Re-scoring.** Each candidate's sampled sentences are looked up among the English
   text's sentences (:func:`rescore`). In a translation each has its counterpart, the
   counterparts come in the same order, they cover the stretch where the two overlap,
   that stretch is most of both documents and about as long in each, and the numbers
   the two documents hold are the same. An act on the same subject fails on some of
   these: a sibling decision of the same committee shares its boilerplate sentence for
   sentence, but not its numbers. An English text printed among other items (a
   bulletin, a journal's issue) is a *part* of its file: the translation is most of its
   own document, the stretch may be a small share of the English one, and that
   stretch's numbers must be the translation's (:func:`part_of`); the pair is then
   the translation and that part alone.
4. **Linking.** The best-scoring pairs are taken first (:func:`link`): each English
   text with at most one document per language, each document with one English text,
   no pair under :data:`MIN_SCORE`.

Identity evidence — the parties of a treaty, the issue of a bulletin
(:mod:`pipeline.editions.identity`) — is reported with each pair taken; it decides nothing.
Everything here is pure: vectors come from an ``embed`` function.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from pipeline.split.structure import normalize_number

__all__ = ["DIGEST_SIZE", "DIGEST_TOKENS", "MIN_SCORE", "Digest", "DocumentIndex", "Match",
           "Sentences", "digest", "digest_sample", "find_translations", "language_offsets",
           "link", "may_pair", "number_weights", "numbers_factor", "numbers_of", "pairable",
           "rescore", "with_vectors"]

Embed = Callable[[list[str]], np.ndarray]

#: Sentences sampled for a document's digest, at most, and the tokens each is cut to:
#: every act of an edition is sampled, so it must be cheap (29 s of embedding for the
#: 465 acts of a 158-page edition on 2 cores, 52 s with 12 sentences of 128).
DIGEST_SIZE = 8
DIGEST_TOKENS = 64
#: Candidates re-scored per English text and language (re-scoring is cheap; a scanned
#: act among a dozen sibling decisions can rank seventh by its digest).
CANDIDATES = 10
#: The score a pair needs to be taken (:func:`rescore`; chosen on the tuning half of
#: ``bench/pairing_bench.py``, see BENCHMARKS.md).
MIN_SCORE = 0.4


@dataclass(frozen=True)
class Digest:
    """A document as document alignment sees it: its main language, how many sentences
    it has there, a sample of them spread over it (each with its position), the mean of
    the sample's vectors (unit length; None until :func:`with_vectors` adds it), and
    the numbers the whole text holds."""

    doc_id: str
    language: str
    size: int
    sample: tuple[tuple[int, str], ...]
    vector: np.ndarray | None
    numbers: Counter[str]

    def to_json(self) -> dict[str, Any]:
        """The digest as ``cleaned/<doc>/digest.json`` holds it (without its vector:
        the embedding cache keeps the sample's)."""
        return {"language": self.language, "sentences": self.size,
                "sample": [[i, text] for i, text in self.sample],
                "numbers": dict(sorted(self.numbers.items()))}

    @classmethod
    def from_json(cls, doc_id: str, data: dict[str, Any]) -> Digest:
        """A digest from ``digest.json`` (one an older version wrote keeps its vector)."""
        vector = data.get("vector")
        return cls(doc_id, data["language"], data["sentences"],
                   tuple((i, text) for i, text in data["sample"]),
                   None if vector is None else np.array(vector, np.float32),
                   Counter(data["numbers"]))


def digest_sample(sentences: Sequence[str], size: int = DIGEST_SIZE) -> tuple[int, ...]:
    """The sentences a digest is made of: ``size`` spread evenly over the document,
    those of fewer than four words left aside where there are enough others.

    >>> digest_sample(["Article 1", *[f"Sentence number {i} is long." for i in range(9)]], 4)
    (1, 4, 6, 9)
    """
    words = [i for i, s in enumerate(sentences) if len(s.split()) >= 4]
    pool = words if len(words) >= min(size, len(sentences)) else list(range(len(sentences)))
    if len(pool) <= size:
        return tuple(pool)
    return tuple(pool[round(k * (len(pool) - 1) / (size - 1))] for k in range(size))


def digest(doc_id: str, language: str, sentences: Sequence[str], embed: Embed | None = None,
           size: int = DIGEST_SIZE) -> Digest:
    """A document's digest (see :class:`Digest`), with its vector if ``embed`` is given."""
    sample = digest_sample(sentences, size)
    texts = [sentences[i] for i in sample]
    found = Digest(doc_id, language, len(sentences), tuple(zip(sample, texts, strict=True)),
                   None, Counter(itertools.chain.from_iterable(
                       numbers_of(s).elements() for s in sentences)))
    return found if embed is None else with_vectors([found], embed)[0]


def with_vectors(digests: Sequence[Digest], embed: Embed, batch: int = 500) -> list[Digest]:
    """``digests`` each with its vector: the samples of those without one embedded
    ``batch`` digests at a time (a few thousand sentences in one call embed in about
    two thirds of the time of a call per document: less padding, fewer calls)."""
    done = list(digests)
    missing = [i for i, d in enumerate(done) if d.vector is None]
    for start in range(0, len(missing), batch):
        chunk = missing[start:start + batch]
        vectors = embed([text for i in chunk for _, text in done[i].sample])
        offset = 0
        for i in chunk:
            count = len(done[i].sample)
            mean = (vectors[offset:offset + count].mean(axis=0) if count
                    else np.zeros(384, np.float32))
            done[i] = replace(done[i], vector=_unit(mean))
            offset += count
    return done


def language_offsets(languages: Iterable[str], embed: Embed, count: int = 64
                     ) -> dict[str, np.ndarray]:
    """Each language's offset in the embedding space: the mean vector of ``count``
    strings of its most common words (wordfreq), in a fixed random order. What is left
    of a digest once its language's offset is taken out is what the text says."""
    import wordfreq

    offsets = {}
    for language in languages:
        words = wordfreq.top_n_list(language, 2000)
        rng = random.Random(f"offset-{language}")
        texts = [" ".join(rng.choice(words) for _ in range(12)) for _ in range(count)]
        offsets[language] = _unit(embed(texts).mean(axis=0))
    return offsets


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return (vector / norm if norm else vector).astype(np.float32)


class DocumentIndex:
    """Digests of many documents, searched by cosine similarity in one product, each
    with its language's offset taken out (:func:`language_offsets`), and the weights of
    the numbers they hold (:func:`number_weights`; ``weights``: those of a larger
    collection that these digests were chosen from, see :func:`pairable`)."""

    def __init__(self, digests: Sequence[Digest], offsets: dict[str, np.ndarray],
                 weights: dict[str, float] | None = None) -> None:
        self.digests = list(digests)
        self.offsets = offsets
        self.matrix = (np.stack([self.centred(d) for d in self.digests]) if self.digests
                       else np.zeros((0, 384), np.float32))
        self.languages = np.array([d.language for d in self.digests])
        self.weights = number_weights(self.digests) if weights is None else weights

    def centred(self, digest: Digest) -> np.ndarray:
        """The digest's vector with its language's offset taken out."""
        if digest.vector is None:
            raise ValueError(f"the digest of {digest.doc_id} has no vector (with_vectors)")
        return _unit(digest.vector - self.offsets.get(digest.language, 0.0))

    def nearest(self, digest: Digest, language: str, k: int = CANDIDATES,
                min_score: float = MIN_SCORE) -> list[Digest]:
        """The ``k`` documents of ``language`` nearest to ``digest``, nearest first, of
        those that may pair with it (:func:`may_pair`: a document that cannot reach
        ``min_score`` takes no candidate's place)."""
        if not self.digests:
            return []
        similarity = self.matrix @ self.centred(digest)
        similarity[self.languages != language] = -np.inf
        found: list[Digest] = []
        for i in np.argsort(-similarity, kind="stable"):
            if len(found) == k or not np.isfinite(similarity[i]):
                break
            if may_pair(digest, self.digests[i], self.weights, min_score):
                found.append(self.digests[i])
        return found


@dataclass(frozen=True)
class Match:
    """What re-scoring found for an English text and a candidate translation."""

    english: str
    other: str
    language: str
    #: What decides, 0–1: the product of the factors below (see :func:`rescore`).
    score: float
    #: Sampled sentences with their counterpart in order, and sampled sentences in the
    #: stretch where the two documents overlap.
    matched: int
    sampled: int
    #: Mean cosine similarity of the matched sentences.
    similarity: float
    #: The share of each document the overlap covers.
    english_share: float
    other_share: float
    #: How alike in length the overlap is on the two sides (shorter over longer).
    length: float
    #: The share of the numbers of the document holding fewer that the other holds
    #: too (None: one of them holds fewer than three); for a part, of the
    #: translation's numbers that the part holds.
    numbers: float | None
    #: The English sentences (first, last; indices into the English text's sentences)
    #: that the translation translates, when it is a part of a larger English text
    #: (:func:`part_of`); None when it translates the English text as a whole.
    part: tuple[int, int] | None = None

    def evidence(self) -> str:
        """What content says, in words: ``11 of 12 sampled sentences in order
        (similarity 0.91), covering 96 % and 88 %, numbers agree 1.00``, and for a part
        ``…, the English text's sentences 120-181``."""
        numbers = "" if self.numbers is None else f", numbers agree {self.numbers:.2f}"
        part = "" if self.part is None else (
            f", the English text's sentences {self.part[0] + 1}-{self.part[1] + 1}")
        return (f"{self.matched} of {self.sampled} sampled sentences in order (similarity "
                f"{self.similarity:.2f}), covering {self.english_share:.0%} and "
                f"{self.other_share:.0%}{numbers}{part}")


#: How much a sampled sentence's best counterpart must stand out from its next best
#: ones (cosine margin, with a bonus for numbers in common) to count as found.
MIN_MARGIN = 0.02
#: The length (in characters) a sentence's counterpart has at least, relative to it,
#: shorter over longer: a third, well under what translations between the pipeline's
#: languages run (0.7–1.3), and over what a heading is to a sentence (chosen on
#: ``bench/pairing_bench.py`` with both halves' scores in view, see BENCHMARKS.md).
LENGTH_RATIO = 0.35
#: The cosine similarity a counterpart needs (the model's unrelated sentences score
#: 0.73–0.87, its translations 0.77–0.95).
FLOOR = 0.80
#: Bonus to a counterpart's similarity for the numbers it shares (times their Jaccard
#: index): near-identical list items are told apart by their numbers.
NUMBER_BONUS = 0.05
#: The share of each document the overlap must cover to count fully (a decree that
#: prints the treaty after its own text, an English file with an explanatory note).
MIN_SHARE = 0.5
#: How alike in length (shorter over longer) the overlap must be on both sides to count
#: fully.
FULL_LENGTH = 0.6
#: The agreement of numbers (weighed by :func:`number_weights`) at and below which two
#: documents are not translations, and from which it counts fully (a sibling decision
#: of the same committee, alike but for its number and date, agrees 0.65–0.78; a
#: translation 0.95–1, 0.85–0.9 where OCR misread numbers and a one-page PDF keeps its
#: running head's).
NUMBERS_FLOOR = 0.75
NUMBERS_FULL = 0.92
#: The share of the numbers of the text holding more that the other must hold too,
#: for the agreement to count at all: the rest may be a running head's, a note's or
#: OCR's (a true pair of the benchmarks keeps 0.84 at least), but a table of 1,512
#: figures that happens to hold a short decision's 16 keeps 0.01.
NUMBERS_BACK = 0.25


@dataclass(frozen=True)
class Sentences:
    """A text's sentences as re-scoring looks samples up among them: their vectors,
    their numbers (:func:`numbers_of`) and their lengths in characters."""

    vectors: np.ndarray
    numbers: tuple[Counter[str], ...]
    lengths: np.ndarray

    @classmethod
    def of(cls, sentences: Sequence[str], embed: Embed) -> Sentences:
        return cls(embed(list(sentences)), tuple(map(numbers_of, sentences)),
                   np.array([len(s) for s in sentences], dtype=np.float32))


def rescore(english: Digest, english_sentences: Sentences, other: Digest,
            sample_vectors: np.ndarray, weights: dict[str, float] | None = None) -> Match:
    """How well ``other``'s sampled sentences are found, in order, among ``english``'s.

    Each sampled sentence's counterpart is its most similar English sentence of a
    comparable length, if it stands out (:func:`_counterpart`). The heaviest chain of
    counterparts in the samples' order is what the documents share. The score is the
    product of: the chain's share of the samples in the stretch it spans; the share of
    each document that stretch covers (full from :data:`MIN_SHARE`); how alike in
    length the stretch is on both sides (full from :data:`FULL_LENGTH`); the agreement
    of the two documents' numbers, each number weighing by ``weights``
    (:func:`number_weights`: a number few documents hold says more than a year all of
    them hold), none at
    :data:`NUMBERS_FLOOR` and full from :data:`NUMBERS_FULL`; and, for a chain of
    fewer than three, its length over three.

    Where the stretch leaves out some of a larger English text, ``other`` may
    translate a part of it (an item of a bulletin, a treaty after a note): the part
    (:func:`part_of`) scores as the whole would but for the English share, and with
    the share of ``other``'s numbers that the part holds (the part needs them: a
    document holding fewer than three numbers is no part). The part is the match if it
    scores as well as the whole at least.
    """
    chain = _chain(sample_vectors @ english_sentences.vectors.T, other, english_sentences)
    numbers = _containment(english.numbers, other.numbers, weights or {})
    if not chain:
        return Match(english.doc_id, other.doc_id, other.language, 0.0, 0,
                     len(other.sample), 0.0, 0.0, 0.0, 0.0, numbers)
    positions = [other.sample[i][0] for i, _, _ in chain]
    sampled = chain[-1][0] - chain[0][0] + 1
    english_span = chain[-1][1] - chain[0][1] + 1
    other_span = positions[-1] - positions[0] + 1
    english_share = english_span / max(1, english.size)
    other_share = other_span / max(1, other.size)
    length = min(english_span, other_span) / max(english_span, other_span)
    content = (len(chain) / sampled * min(1.0, other_share / MIN_SHARE)
               * min(1.0, length / FULL_LENGTH)
               * min(1.0, len(chain) / min(3, len(other.sample))))
    whole = Match(english.doc_id, other.doc_id, other.language,
                  round(content * min(1.0, english_share / MIN_SHARE) * numbers_factor(numbers),
                        4), len(chain), sampled,
                  round(float(np.mean([c for _, _, c in chain])), 4), round(english_share, 4),
                  round(other_share, 4), round(length, 4), numbers)
    if other.size > english.size:
        return whole
    part = part_of((chain[0][1], chain[-1][1]), (positions[0], positions[-1]), other.size,
                   english.size)
    if part == (0, english.size - 1):
        return whole
    return _as_part(whole, part, content, english_sentences, other.numbers, weights or {})


def _chain(similarity: np.ndarray, other: Digest, english: Sentences
           ) -> list[tuple[int, int, float]]:
    """The heaviest chain (:func:`_ordered_chain`) of the counterparts (:func:`_counterpart`)
    of ``other``'s sampled sentences, from their ``similarity`` to the English ones."""
    picks: list[tuple[int, int, float]] = []  # (sample, English sentence, cosine)
    for i, row in enumerate(similarity):
        found = _counterpart(row, other.sample[i][1], english)
        if found:
            picks.append((i, *found))
    return _ordered_chain(picks)


def _as_part(whole: Match, part: tuple[int, int], content: float, english: Sentences,
             numbers: Counter[str], weights: dict[str, float]) -> Match:
    """``whole`` as the match of the English sentences ``part`` alone, if it scores as well
    so: ``content`` (the score but for the English share and the numbers) keeping
    :func:`numbers_factor` of the share of the translation's ``numbers`` the part holds."""
    held = sum((english.numbers[i] for i in range(part[0], part[1] + 1)), Counter[str]())
    agreement = _contained(numbers, held, weights)
    if agreement is None or content * numbers_factor(agreement) < whole.score:
        return whole
    return replace(whole, score=round(content * numbers_factor(agreement), 4),
                   numbers=agreement, part=part)


def part_of(english_span: tuple[int, int], other_span: tuple[int, int], other_size: int,
            english_size: int) -> tuple[int, int]:
    """The English sentences (first, last) that translate a whole document of
    ``other_size`` sentences, of which sentences ``other_span`` were found at English
    sentences ``english_span``: the stretch found, widened on each side by the
    translation's sentences outside it (a title too short to be sampled, a last line),
    scaled as the stretch is, within the English text's ``english_size`` sentences.

    A decision of 20 sentences whose samples 1 to 18 were found at sentences 101 to
    135 of a bulletin of 300 (each of its sentences two of the bulletin's):

    >>> part_of((101, 135), (1, 18), 20, 300)
    (99, 137)
    """
    scale = (english_span[1] - english_span[0] + 1) / (other_span[1] - other_span[0] + 1)
    first = english_span[0] - round(other_span[0] * scale)
    last = english_span[1] + round((other_size - 1 - other_span[1]) * scale)
    return max(0, first), min(english_size - 1, last)


def _counterpart(row: np.ndarray, sample: str, english: Sentences
                 ) -> tuple[int, float] | None:
    """A sampled sentence's counterpart among the English sentences, as (index, cosine),
    from its similarities ``row`` to them; None if it has none.

    Only a sentence of a comparable length can translate it (:data:`LENGTH_RATIO`: in
    this model a short line such as ``Article 8`` is close to every sentence of its
    text, and would outrank the real counterpart or crowd out its margin). The best of
    its five most similar of those (with :data:`NUMBER_BONUS` for numbers in common)
    counts if it is similar enough (:data:`FLOOR`) and stands out from the others by
    :data:`MIN_MARGIN`.

    >>> english = Sentences.of(["Article 8", "b" * 40, "c" * 40], lambda s: np.eye(3))
    >>> _counterpart(np.array([0.90, 0.86, 0.83]), "x" * 40, english)
    (1, 0.86)
    >>> _counterpart(np.array([0.90, 0.86, 0.85]), "x" * 40, english)  # not told apart
    >>> _counterpart(np.array([0.90, 0.86, 0.83]), "x" * 8, english)
    (0, 0.9)
    """
    shorter = np.minimum(english.lengths, len(sample))
    longer = np.maximum(np.maximum(english.lengths, len(sample)), 1)
    comparable = np.flatnonzero(shorter / longer >= LENGTH_RATIO)
    top = comparable[np.argsort(-row[comparable], kind="stable")[:5]]
    numbers = numbers_of(sample)
    adjusted = [float(row[j]) + NUMBER_BONUS * _jaccard(numbers, english.numbers[j])
                for j in top]
    if not adjusted:
        return None
    best = int(np.argmax(adjusted))
    rivals = [value for k, value in enumerate(adjusted) if k != best]
    margin = adjusted[best] - (float(np.mean(rivals)) if rivals else 0.0)
    if margin < MIN_MARGIN or row[top[best]] <= FLOOR:
        return None
    return int(top[best]), float(row[top[best]])


def _ordered_chain(picks: list[tuple[int, int, float]]) -> list[tuple[int, int, float]]:
    """The heaviest run of ``picks`` (in sample order) whose English sentences go up,
    each weighing its similarity above :data:`FLOOR`."""
    best: list[tuple[float, int | None]] = []
    for k, (_, english, cosine) in enumerate(picks):
        score, previous = cosine - FLOOR, None
        for j in range(k):
            if picks[j][1] < english and best[j][0] + cosine - FLOOR > score:
                score, previous = best[j][0] + cosine - FLOOR, j
        best.append((score, previous))
    if not best:
        return []
    index: int | None = max(range(len(best)), key=lambda k: best[k][0])
    chain = []
    while index is not None:
        chain.append(picks[index])
        index = best[index][1]
    return chain[::-1]


_NUMBER = re.compile(r"\d+")
#: Upper-case roman numerals from 2 to 89, as one language's ``Artigo XXVI`` is another's
#: ``Article 26`` (of single letters only ``V`` and ``X``: ``I`` is the English pronoun,
#: ``L`` a series of the Official Journal).
_ROMAN_NUMBER = re.compile(r"\b(?=[IVXL])(?:XL|L?X{0,3})(?:IX|IV|V?I{0,3})\b")


def numbers_of(text: str) -> Counter[str]:
    """The numbers a text holds, as digit runs without leading zeros, whatever the
    language writes around them (``27.7.2017``, ``27 July 2017``, ``103(1)``, ``103.1``)
    or however it writes them (``Article 26``, ``Artigo XXVI``). Zero is left out: it
    tells no text from another (a table's ``0,00``), and OCR reads Portuguese
    ordinals' ``º`` as it (``artigo 100.0``, ``n.0 4``).

    >>> sorted(numbers_of("OJ L 195, 27.7.2017, p. 036").elements())
    ['195', '2017', '27', '36', '7']
    >>> sorted(numbers_of("o parágrafo 2 do Artigo XXVI, o Artigo V; I know").elements())
    ['2', '26', '5']
    >>> sorted(numbers_of("nos artigos 100.0 e 101.0, n.0 4; 0,00").elements())
    ['100', '101', '4']
    """
    digits = [n.lstrip("0") for n in _NUMBER.findall(text) if n.strip("0")]
    romans = [normalize_number(n) for n in _ROMAN_NUMBER.findall(text)
              if len(n) > 1 or n in ("V", "X")]
    return Counter(digits + romans)


def _jaccard(a: Counter[str], b: Counter[str]) -> float:
    union = sum((a | b).values())
    return sum((a & b).values()) / union if union else 0.0


def number_weights(digests: Iterable[Digest]) -> dict[str, float]:
    """Each number's weight among these documents: 1 for a number every document
    holds, more the fewer hold it (1 + log((N + 1) / (holders + 1)))."""
    holders: Counter[str] = Counter()
    count = 0
    for found in digests:
        holders.update(found.numbers.keys())
        count += 1
    return {n: 1 + math.log((count + 1) / (held + 1)) for n, held in holders.items()}


def _containment(a: Counter[str], b: Counter[str], weights: dict[str, float]
                 ) -> float | None:
    """The share of the numbers of the text holding fewer (each weighing by
    ``weights``, 1 if it has none) that the other holds too, 0 if the other holds
    under :data:`NUMBERS_BACK` of its own in common; None when either holds fewer
    than three.

    >>> _containment(numbers_of("No 64/2018 of 20 March 2019, p. 1"),
    ...              numbers_of("n.o 64/2018 de 20 de março de 2019, p. 1; L 123"), {})
    1.0
    >>> _containment(numbers_of("No 64/2018 of 20 March"), numbers_of("n.o 66/2018 de 20"),
    ...              {"64": 3.0, "66": 3.0})
    0.4
    >>> _containment(numbers_of("No 64/2018 of 20 March"),
    ...              numbers_of(f"64 2018 20 {list(range(100, 120))}"), {})
    0.0
    """
    if min(sum(a.values()), sum(b.values())) < 3:
        return None
    common = _weight(a & b, weights)
    smaller, larger = sorted((_weight(a, weights), _weight(b, weights)))
    if common < NUMBERS_BACK * larger:
        return 0.0
    return round(common / smaller, 4)


def _contained(inner: Counter[str], outer: Counter[str], weights: dict[str, float]
               ) -> float | None:
    """The share of ``inner``'s numbers (each weighing by ``weights``) that ``outer``
    holds too; None when ``inner`` holds fewer than three.

    >>> _contained(numbers_of("No 64/2018 of 20 March 2019"),
    ...            numbers_of("n.o 64/2018 de 20 de março de 2020; 1, 2, 3, 4"), {})
    0.75
    """
    if sum(inner.values()) < 3:
        return None
    return round(_weight(inner & outer, weights) / _weight(inner, weights), 4)


def _weight(numbers: Counter[str], weights: dict[str, float]) -> float:
    """The weight of ``numbers``: each number's count times its weight (1 if none)."""
    return sum(count * weights.get(n, 1.0) for n, count in numbers.items())


def numbers_factor(numbers: float | None) -> float:
    """What the agreement of two documents' numbers (:func:`_containment`) lets their
    score keep: nothing at :data:`NUMBERS_FLOOR` and below, all from
    :data:`NUMBERS_FULL`, all when either holds too few numbers to tell (None).

    >>> numbers_factor(0.7), round(numbers_factor(0.835), 2), numbers_factor(0.95)
    (0.0, 0.5, 1.0)
    """
    if numbers is None:
        return 1.0
    return min(1.0, max(0.0, (numbers - NUMBERS_FLOOR) / (NUMBERS_FULL - NUMBERS_FLOOR)))


def may_pair(a: Digest, b: Digest, weights: dict[str, float] | None = None,
             min_score: float = MIN_SCORE) -> bool:
    """Whether :func:`rescore` can give documents ``a`` and ``b`` (an English text and
    another, either way round) ``min_score``, told from their digests without a vector.

    Two of the score's factors are known before any sentence is compared, and every
    other factor is at most 1, so their product bounds the score. The overlap spans at
    most the smaller document, so the larger one's share of it and the likeness of its
    lengths on both sides give at most ``smaller / (MIN_SHARE * FULL_LENGTH * larger)``:
    a portaria of 10 sentences never pairs with a treaty of 139 as a whole. And the
    documents' numbers keep :func:`numbers_factor` of their agreement: nothing at
    :data:`NUMBERS_FLOOR` and below, all from :data:`NUMBERS_FULL`.

    >>> texts = [f"Article {n} of the Convention of 2014." for n in range(1, 40)]
    >>> treaty, act = digest("en", "en", texts), digest("pt", "pt", ["Sem número."] * 4)
    >>> may_pair(treaty, act), may_pair(treaty, digest("pt", "pt", ["Sem número."] * 5))
    (False, True)
    >>> may_pair(treaty, digest("pt", "pt", [t.replace("20", "19") for t in texts]))
    False

    A document much smaller than the English text may still be a translation of a part
    of it (:func:`rescore`), if its own numbers are among the English text's: such a
    part keeps at most :func:`numbers_factor` of that share.

    >>> act = digest("pt", "pt", [f"Artigo {n}.º da Convenção de 2014." for n in (3, 4, 5, 6)])
    >>> may_pair(treaty, act), may_pair(digest("en", "en", texts[:2] * 20), act)
    (True, False)
    """
    weights = weights or {}
    smaller, larger = sorted((max(1, a.size), max(1, b.size)))
    sizes = min(1.0, smaller / (MIN_SHARE * FULL_LENGTH * larger))
    numbers = numbers_factor(_containment(a.numbers, b.numbers, weights))
    parts = [numbers_factor(_contained(inner.numbers, outer.numbers, weights) or 0.0)
             for inner, outer in ((a, b), (b, a)) if inner.size <= outer.size]
    return max(round(sizes * numbers, 4), *parts) >= min_score


def pairable(english: Sequence[Digest], others: Sequence[Digest],
             weights: dict[str, float] | None = None) -> list[Digest]:
    """The documents of ``others`` that may pair with one of ``english`` at least
    (:func:`may_pair`): only theirs need vectors. It serves either way round: the
    English texts that may pair with one of the others.

    >>> texts = [f"Article {n} of the Convention of 2014." for n in range(1, 40)]
    >>> [d.doc_id for d in pairable([digest("en", "en", texts)], [digest(
    ...     "p1", "pt", ["Sem número."] * 4), digest("p2", "pt", texts[:30])])]
    ['p2']
    """
    return [other for other in others
            if any(may_pair(one, other, weights) for one in english)]


def link(matches: Sequence[Match], min_score: float = MIN_SCORE) -> list[Match]:
    """The matches taken, best score first (competitive linking): an English text takes
    at most one document per language, a document one English text; matches under
    ``min_score`` are never taken. Ties go to the names first in order.

    >>> def match(english, other, score):
    ...     return Match(english, other, "pt", score, 0, 0, 0.0, 0.0, 0.0, 0.0, None)
    >>> [(m.english, m.other) for m in link([match("a", "x", 0.9), match("a", "y", 0.8),
    ...     match("b", "x", 0.7), match("b", "y", 0.6), match("c", "z", 0.1)])]
    [('a', 'x'), ('b', 'y')]
    """
    taken: list[Match] = []
    paired: set[tuple[str, str]] = set()
    translations: set[str] = set()
    for match in sorted(matches, key=lambda m: (-m.score, m.english, m.other)):
        if match.score < min_score:
            break
        if (match.english, match.language) in paired or match.other in translations:
            continue
        taken.append(match)
        paired.add((match.english, match.language))
        translations.add(match.other)
    return taken


def find_translations(english: Sequence[Digest], index: DocumentIndex,
                      sentences: Callable[[str], Sequence[str]], embed: Embed,
                      embed_sample: Embed | None = None, k: int = CANDIDATES,
                      min_score: float = MIN_SCORE) -> tuple[list[Match], list[Match]]:
    """Each English text's translations among the documents of ``index``: the matches
    taken (:func:`link`) and every match scored (for the report).

    Candidates are each English text's ``k`` nearest documents per language of those
    that may pair with it (:meth:`DocumentIndex.nearest`); ``sentences`` gives an
    English text's sentences (by its document id), whose vectors ``embed`` gives;
    ``embed_sample`` (default ``embed``) gives the samples' as their digests were made.
    """
    embed_sample = embed_sample or embed
    languages = sorted(set(index.languages.tolist()))
    scored = []
    for profile in english:
        candidates = [other for language in languages
                      for other in index.nearest(profile, language, k, min_score)]
        if not candidates:
            continue  # its sentences need no vectors
        english_sentences = Sentences.of(sentences(profile.doc_id), embed)
        for other in candidates:
            scored.append(rescore(profile, english_sentences, other,
                                  embed_sample([text for _, text in other.sample]),
                                  index.weights))
    scored.sort(key=lambda m: (m.english, m.language, -m.score, m.other))
    return link(scored, min_score), scored
