"""langdetect's detector with its per-character loops written for CPython.

langdetect reads a text one character at a time through method calls (each character's
Unicode block found by a binary search), then runs seven random walks over the text's
n-grams, a method call per step. An edition's hundreds of acts are labelled block by
block (:func:`pipeline.text.language.detect_language`), and this was a quarter of the
time their stages took. :class:`QuickDetector` does the same arithmetic in the same order
with the same random numbers, so it gives the very probabilities langdetect gives
(``tests/test_langsplit.py`` compares the two on real and random texts): the text is
normalised with one ``str.translate``, n-grams are taken in one loop, and the walks
update plain lists.
"""

from __future__ import annotations

import re

from langdetect.detector import Detector
from langdetect.lang_detect_exception import ErrorCode, LangDetectException
from langdetect.utils.ngram import NGram

__all__ = ["QuickDetector"]

_SPACES = re.compile(" +")
_BASIC_LATIN = re.compile("[A-z]")  # langdetect's test: 'A' <= ch <= 'z'
_FROM_COMBINING_MARKS = re.compile("[\u0300-\U0010ffff]")


class _Normalised(dict[int, str]):
    """``str.translate`` table of :meth:`NGram.normalize`, filled as characters come."""

    def __missing__(self, code: int) -> str:
        self[code] = NGram.normalize(chr(code))
        return self[code]


_NORMALISED = _Normalised()


class QuickDetector(Detector):
    """A :class:`langdetect.detector.Detector` that gives its very probabilities, faster."""

    text: str

    def append(self, text: str) -> None:
        """As langdetect's: URLs and e-mail addresses out, Vietnamese marks joined, the
        first ``max_text_length`` characters kept, runs of spaces made one."""
        text = self.URL_RE.sub(" ", text)
        text = self.MAIL_RE.sub(" ", text)
        text = NGram.normalize_vi(text)
        self.text += _SPACES.sub(" ", text[:self.max_text_length])

    def cleaning_text(self) -> None:
        """As langdetect's: Latin letters dropped from a text mostly in another script.
        (Its test for Latin Extended Additional compares a block number with a name,
        so every character from U+0300 on counts as not Latin.)"""
        latin = len(_BASIC_LATIN.findall(self.text))
        other = len(_FROM_COMBINING_MARKS.findall(self.text))
        if latin * 2 < other:
            self.text = _BASIC_LATIN.sub("", self.text)

    def _extract_ngrams(self) -> list[str]:
        """The text's 1- to 3-grams that the profiles know, as langdetect's ``NGram``
        buffer gives them: words restart at spaces, and no n-gram is taken where two
        capitals follow each other."""
        known = self.word_lang_prob_map
        found = []
        grams = " "
        capital = False
        for ch in self.text.translate(_NORMALISED):
            last = grams[-1]
            if last == " ":
                grams = " "
                capital = False
                if ch == " ":
                    continue
            elif len(grams) >= 3:
                grams = grams[1:]
            grams += ch
            if ch.isupper():
                if last.isupper():
                    capital = True
            else:
                capital = False
            if capital:
                continue
            if ch != " " and ch in known:
                found.append(ch)
            if len(grams) >= 2:
                if grams[-2:] in known:
                    found.append(grams[-2:])
                if len(grams) == 3 and grams in known:
                    found.append(grams)
        return found

    def _detect_block(self) -> None:
        """langdetect's random walks: per trial a smoothing ``alpha``, then n-grams drawn
        at random, each multiplying the languages' probabilities, normalised every fifth
        draw until one language passes ``CONV_THRESHOLD``."""
        self.cleaning_text()
        ngrams = self._extract_ngrams()
        if not ngrams:
            raise LangDetectException(ErrorCode.CantDetectError, "No features in text.")
        rows = [self.word_lang_prob_map[gram] for gram in ngrams]
        size = len(self.langlist)
        self.langprob = [0.0] * size
        draw = self.random
        draw.seed(self.seed)
        # random.choice(rows), inlined: CPython's Random.choice draws an index with
        # getrandbits until it is below the length (the tests compare with langdetect)
        count, bits, getrandbits = len(rows), len(rows).bit_length(), draw.getrandbits
        for _ in range(self.n_trial):
            prob = ([1.0 / size] * size if self.prior_map is None
                    else list(self.prior_map))
            weight = (self.alpha + draw.gauss(0.0, 1.0) * self.ALPHA_WIDTH) / self.BASE_FREQ
            i = 0
            while True:
                index = getrandbits(bits)
                while index >= count:
                    index = getrandbits(bits)
                row = rows[index]
                for j in range(size):
                    prob[j] *= weight + row[j]
                if i % 5 == 0:
                    total = sum(prob)
                    top = 0.0
                    for j in range(size):
                        p = prob[j] / total
                        if top < p:
                            top = p
                        prob[j] = p
                    if top > self.CONV_THRESHOLD or i >= self.ITERATION_LIMIT:
                        break
                i += 1
            for j in range(size):
                self.langprob[j] += prob[j] / self.n_trial
