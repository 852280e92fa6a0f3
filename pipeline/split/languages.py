"""Stage 3, language split: label each paragraph with its language and group them.

A block is a paragraph of cleaned text (text between blank lines), labelled by the
evidence of :mod:`pipeline.text.language` (script, legacy-font look, seeded langdetect).
Runs of OCR junk are labelled ``unreadable``. Blocks too short to judge take the
language of their neighbours. Consecutive
blocks of one language form a :class:`~pipeline.records.Section`.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

from pipeline.config import Settings
from pipeline.records import Block, CleanedDocument, Section
from pipeline.text.language import detect_language, is_devanagari, letters
from pipeline.text.lexicon import readable_share, running_share
from pipeline.text.lines import ANNEX_LINE

__all__ = ["MINOR_SHARE", "MIN_RUNNING_SHARE", "label_blocks", "language_shares", "running_shares",
           "sections_of", "split_blocks"]

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")
_WORD_OR_SYMBOLS = re.compile(r"\S+")
#: The space after a sentence-final mark (the mark stays with its sentence).
_SENTENCE_END = re.compile(r"(?<=[.!?।])\s+")


def split_blocks(text: str, max_chars: int = 1500) -> list[tuple[int, int]]:
    r"""Character spans of the blocks of ``text``: paragraphs, long ones cut at sentence ends.

    Paragraphs are separated by blank lines. Extraction can leave a whole document
    on one line (seed 003: Hindi then English), so a paragraph longer than
    ``max_chars`` is cut after sentence-final punctuation (``.``, ``!``, ``?``, ``।``)
    into pieces of at most about ``max_chars``. An annex line (``ANEXO``,
    :data:`~pipeline.text.lines.ANNEX_LINE`) is a block of its own, even with no blank line
    around it: it ends the act that prints the annex, and the annex may be in another
    language (a decree's signatures, ``ANEXO``, then a decision in Swedish).

    >>> split_blocks("ARTIGO 1\n\nO presente Acordo.\n \n\nARTIGO 2")
    [(0, 8), (10, 28), (32, 40)]
    >>> t = "DILMA ROUSSEFF\nANEXO\nGemensamma kommitténs beslut"
    >>> [t[a:b] for a, b in split_blocks(t)]
    ['DILMA ROUSSEFF', 'ANEXO', 'Gemensamma kommitténs beslut']
    >>> t = "First sentence here. Second one. Third."
    >>> [t[a:b] for a, b in split_blocks(t, max_chars=25)]
    ['First sentence here.', 'Second one. Third.']
    """
    spans = []
    start = 0
    for match in itertools.chain(_PARAGRAPH_BREAK.finditer(text), [None]):
        end = match.start() if match else len(text)
        chunk = text[start:end]
        if chunk.strip():
            lead = len(chunk) - len(chunk.lstrip())
            for a, b in _cut_at_annex_lines(text, start + lead, start + len(chunk.rstrip())):
                for c, d in _cut_at_script_changes(text, a, b):
                    spans.extend(_cut_long(text, c, d, max_chars))
        if match:
            start = match.end()
    return spans


def _cut_at_annex_lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``text[start:end]`` cut before and after each annex line in it."""
    cuts = [start, end]
    for line in ANNEX_LINE.finditer(text, start, end):
        cuts += [line.start(), line.end()]
    spans = []
    for a, b in itertools.pairwise(sorted(cuts)):
        piece = text[a:b]
        if piece.strip():
            spans.append((a + len(piece) - len(piece.lstrip()), a + len(piece.rstrip())))
    return spans


def _cut_at_script_changes(
    text: str, start: int, end: int, min_words: int = 5
) -> list[tuple[int, int]]:
    """Cut ``text[start:end]`` where Devanagari words give way to Latin ones or back.

    Only a change between runs of at least ``min_words`` words of each script counts,
    so a Latin abbreviation inside Hindi text does not cut it.

    >>> t = "भारत गणराज्य की सरकार तथा चीन जनवादी MINISTRY OF FINANCE (Department of Revenue)"
    >>> [t[a:b] for a, b in _cut_at_script_changes(t, 0, len(t))]
    ['भारत गणराज्य की सरकार तथा चीन जनवादी', 'MINISTRY OF FINANCE (Department of Revenue)']
    """
    runs: list[list[re.Match[str]]] = []  # consecutive words of one script
    for word in _WORD_OR_SYMBOLS.finditer(text, start, end):
        script = _script_of(word.group())
        if script is None:
            continue
        if runs and _script_of(runs[-1][0].group()) == script:
            runs[-1].append(word)
        else:
            runs.append([word])
    cuts = [start]
    long_runs = [run for run in runs if len(run) >= min_words]
    for before, after in itertools.pairwise(long_runs):
        if _script_of(before[0].group()) != _script_of(after[0].group()):
            cuts.append(after[0].start())
    cuts.append(end)
    return [(a, a + len(text[a:b].rstrip())) for a, b in itertools.pairwise(cuts)
            if text[a:b].strip()]


def _script_of(word: str) -> str | None:
    first = next(filter(str.isalpha, word), None)
    if first is None:
        return None
    return "devanagari" if is_devanagari(first) else "latin"


def _cut_long(text: str, start: int, end: int, max_chars: int) -> list[tuple[int, int]]:
    """Cut ``text[start:end]`` at sentence ends into pieces of at most about ``max_chars``."""
    if end - start <= max_chars:
        return [(start, end)]
    pieces = []
    piece_start = start
    last_cut = None
    for match in _SENTENCE_END.finditer(text, start, end):
        if match.start() - piece_start > max_chars and last_cut is not None:
            pieces.append((piece_start, last_cut[0]))
            piece_start = last_cut[1]
        last_cut = (match.start(), match.end())
    if last_cut is not None and end - piece_start > max_chars:
        pieces.append((piece_start, last_cut[0]))
        piece_start = last_cut[1]
    pieces.append((piece_start, end))
    return [(a, b) for a, b in pieces if b > a]


def label_blocks(document: CleanedDocument, settings: Settings) -> list[Block]:
    """Cut the cleaned text into blocks and label each with its language.

    Blocks too short to judge take the language of a judged neighbour
    (:func:`_inherit_from_neighbours`).
    """
    blocks: list[Block] = []
    text = document.text
    for start, end in split_blocks(text):
        language, evidence = detect_language(text[start:end], settings)
        blocks.append(Block(page=document.page_at(start), start=start, end=end,
                            text=text[start:end], language=language, evidence=evidence))
    return _inherit_from_neighbours(_mark_unreadable(blocks, settings))


def _mark_unreadable(blocks: list[Block], settings: Settings) -> list[Block]:
    """Label runs of junk blocks ``unreadable`` (evidence ``junk``).

    A block is junk-like when few of its characters are in known words
    (:func:`~pipeline.text.lexicon.readable_share` below ``Settings.min_readable_share``),
    as on Hindi pages OCR'd with a Latin model. A lone such block is usually a date
    or a decree number, so only runs of ``Settings.min_unreadable_run`` count.
    """
    latin = tuple(lang for lang in settings.languages if lang != "hi")
    junk = [block.evidence != "script"
            and readable_share(block.text, latin) < settings.min_readable_share
            for block in blocks]
    result = list(blocks)
    for is_junk, group in itertools.groupby(range(len(blocks)), key=lambda i: junk[i]):
        run = list(group)
        if is_junk and len(run) >= settings.min_unreadable_run:
            for i in run:
                result[i] = replace(blocks[i], language="unreadable", evidence="junk")
    return result


#: Evidence that decides a block's label by itself.
_JUDGED = ("script", "legacy-font", "langdetect", "junk")


def _inherit_from_neighbours(blocks: list[Block]) -> list[Block]:
    """Blocks not judged take the language of the closest judged block before them; or
    after them, at the start of a document and after an annex line (the annex line
    ends the act before it; what follows is the annex's, maybe in another language).
    """
    following: list[str] = []  # per block, the language of the next judged block
    later = ""
    for block in reversed(blocks):
        later = block.language if block.evidence in _JUDGED else later
        following.append(later)
    following.reverse()
    current = following[0] if following else ""
    if not current:
        return blocks
    result = []
    for block, after in zip(blocks, following, strict=True):
        if block.evidence in _JUDGED:
            current = block.language
            result.append(block)
            continue
        result.append(replace(block, language=current, evidence="neighbours"))
        if ANNEX_LINE.fullmatch(block.text) and after:
            current = after
    return result


def sections_of(blocks: list[Block], max_island_letters: int = 100) -> list[Section]:
    """Group consecutive blocks of the same language into sections.

    A single short block (fewer than ``max_island_letters`` letters, not Devanagari)
    whose neighbours
    on both sides are in another, common language (a heading or a list of foreign
    tax names in a Portuguese article, say) is taken to be in that language, with
    evidence ``island``.
    """
    runs = [list(group) for _, group in itertools.groupby(blocks, key=lambda b: b.language)]
    for index in range(1, len(runs) - 1):
        before, island, after = runs[index - 1], runs[index], runs[index + 1]
        if (len(island) == 1 and before[-1].language == after[0].language
                and island[0].evidence != "script"
                and len(letters(island[0].text)) < max_island_letters):
            runs[index] = [replace(island[0], language=before[-1].language, evidence="island")]
    relabelled = [block for run in runs for block in run]
    return [
        Section(language=language, blocks=tuple(group))
        for language, group in itertools.groupby(relabelled, key=lambda b: b.language)
    ]


#: A language holding at most this share of a document's letters does not make it a
#: text in that language: a few short lines taken for English in a Portuguese act
#: (names, table cells) leave it a Portuguese document, one that pairs across
#: documents, and are not aligned with the rest of it.
MINOR_SHARE = 0.05


def language_shares(sections: list[Section]) -> dict[str, float]:
    """Each language's share of the letters in the document's sections of a language
    (``other`` and ``unreadable`` left out), to 4 places.

    >>> from pipeline.records import Block
    >>> blocks = [Block(1, 0, 9, "Um texto.", "pt", "langdetect"),
    ...           Block(1, 10, 14, "Yes.", "en", "langdetect")]
    >>> language_shares(sections_of(blocks, max_island_letters=0))
    {'pt': 0.7, 'en': 0.3}
    """
    counts = {language: sum(len(letters(text)) for text in texts)
              for language, texts in _texts_by_language(sections).items()}
    total = sum(counts.values())
    if not total:
        return {}
    return {language: round(count / total, 4) for language, count in counts.items()}


#: A language whose text is less than this share running text
#: (:func:`pipeline.text.lexicon.running_share`) is no prose in that language: brand
#: names in a price table that langdetect took for English (``TITAN ENERGY DRINK 19``,
#: 0.01 in a DOU portaria), not the text of a treaty (0.73–0.88 in every English,
#: Swedish and Hindi text of the samples; 0.47 in a Lok Sabha bulletin, names in
#: capitals and all).
MIN_RUNNING_SHARE = 0.25


def running_shares(sections: list[Section]) -> dict[str, float]:
    """Each language's share of running text in the document's sections of it
    (``other`` and ``unreadable`` left out), to 4 places.

    >>> from pipeline.records import Block
    >>> blocks = [Block(1, 0, 20, "O imposto é devido.", "pt", "langdetect"),
    ...           Block(1, 21, 41, "TITAN ENERGY DRINK 19", "en", "langdetect")]
    >>> running_shares(sections_of(blocks, max_island_letters=0))
    {'pt': 1.0, 'en': 0.0}
    """
    return {language: round(running_share(" ".join(texts), language), 4)
            for language, texts in _texts_by_language(sections).items()}


def _texts_by_language(sections: list[Section]) -> dict[str, list[str]]:
    """The blocks' texts of each language, in order (``other`` and ``unreadable`` left
    out)."""
    texts: dict[str, list[str]] = {}
    for section in sections:
        if section.language not in ("other", "unreadable"):
            texts.setdefault(section.language, []).extend(block.text for block in section.blocks)
    return texts
