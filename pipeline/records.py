"""Typed records passed between the stages.

Each stage maps one of these to the next: a :class:`Source` is ingested into an
:class:`IngestedDocument`, repaired into a :class:`CleanedDocument`, cut into
language :class:`Section` s, structured into :class:`Article` s, and aligned into
:class:`ArticlePair` s. All records are frozen; ``to_json`` gives the documented
on-disk form (see the README, "Data folders") and ``from_json`` reads it back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

__all__ = [
    "Article",
    "ArticlePair",
    "Block",
    "CleanedDocument",
    "CorpusExport",
    "DocumentSummary",
    "IngestedDocument",
    "Page",
    "PageMethod",
    "RepairStep",
    "Section",
    "SentencePair",
    "Source",
    "SourceKind",
    "Unit",
]

PageMethod = Literal["text-dump", "web-page", "docx", "odt", "text-layer", "legacy-font", "ocr",
                     "failed"]
SourceKind = Literal["pdf", "text", "html", "docx", "odt", "unsupported"]


@dataclass(frozen=True)
class Source:
    """A file in the inbox and the id of the document made from it."""

    path: Path
    #: Path relative to the inbox, with ``/`` separators.
    relpath: str
    doc_id: str
    #: ``unsupported`` files are reported as failed by the ingest stage.
    kind: SourceKind
    #: SHA-256 of the file's bytes; with the build key it decides re-processing.
    sha256: str
    #: Why the file cannot be read at all (found by discovery), or None.
    rejected: str | None = None
    #: The later parts of a decree published in parts (see :mod:`pipeline.read.parts`), and
    #: how many parts its mark announced; ``sha256`` then covers all of them.
    parts: tuple[Source, ...] = ()
    parts_expected: int = 1


@dataclass(frozen=True)
class Page:
    """One page of a document as read by the ingest stage."""

    number: int
    method: PageMethod
    #: Why this method was chosen (or why the page failed).
    reason: str
    text: str
    ocr_languages: str | None = None
    #: Mean Tesseract word confidence (0–100) for OCR'd pages.
    confidence: float | None = None
    warnings: tuple[str, ...] = ()
    #: Each OCR'd word with Tesseract's confidence in it (0–100), in reading order.
    words: tuple[tuple[str, float], ...] = ()
    #: For a document stitched from parts: the inbox path of the file the page is from,
    #: and its number there.
    part: str | None = None
    part_page: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The page as a JSON object (one line of ``pages.jsonl``)."""
        return asdict(self) | {"warnings": list(self.warnings),
                               "words": [list(word) for word in self.words]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Page:
        """A page from its line of ``pages.jsonl``."""
        return cls(**data | {"warnings": tuple(data.get("warnings", ())),
                             "words": tuple((w, c) for w, c in data.get("words", ()))})


@dataclass(frozen=True)
class IngestedDocument:
    """All pages of one source, in order."""

    source: Source
    pages: tuple[Page, ...]


@dataclass(frozen=True)
class RepairStep:
    """One change made by the repair stage, enough to undo it.

    ``offset`` is the character offset of ``before`` in the page's text as it was
    before the rule ran (rules run in order, each on the previous rule's output);
    ``sweep`` counts the passes of all rules over the page (a page is swept again
    while the last sweep changed it).
    """

    rule: str
    page: int
    offset: int
    before: str
    after: str
    sweep: int = 1

    def to_json(self) -> dict[str, Any]:
        """The step as a JSON object (one line of ``repairs.jsonl``)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RepairStep:
        """A step from its line of ``repairs.jsonl``."""
        return cls(**data)


@dataclass(frozen=True)
class CleanedDocument:
    """Repaired page texts and the steps that made them."""

    doc_id: str
    pages: tuple[Page, ...]
    steps: tuple[RepairStep, ...] = ()

    @property
    def text(self) -> str:
        """The whole repaired text (``text.txt``), pages separated by a blank line."""
        return "\n\n".join(page.text for page in self.pages if page.text)

    def page_at(self, offset: int) -> int:
        """The number of the page that character ``offset`` of :attr:`text` is on."""
        start = 0
        number = self.pages[0].number if self.pages else 0
        for page in self.pages:
            if not page.text:
                continue
            if start > offset:
                break
            number = page.number
            start += len(page.text) + 2
        return number


@dataclass(frozen=True)
class Block:
    """A paragraph of cleaned text with its language label."""

    page: int
    #: Character offsets of the block in the document's cleaned text (``text.txt``).
    start: int
    end: int
    text: str
    language: str
    #: What the label rests on: ``script``, ``legacy-font``, ``langdetect``,
    #: ``neighbours`` (too short to judge), ``island`` (one block between two of another
    #: language), ``junk`` (in a run of OCR junk: language ``unreadable``) or
    #: ``no-letters``.
    evidence: str

    def to_json(self) -> dict[str, Any]:
        """The block as one line of ``blocks.jsonl`` (its text is a slice of ``text.txt``)."""
        return {key: value for key, value in asdict(self).items() if key != "text"}

    @classmethod
    def from_json(cls, data: dict[str, Any], text: str) -> Block:
        """A block from its line of ``blocks.jsonl`` and the document's ``text.txt``."""
        return cls(**data, text=text[data["start"]:data["end"]])


@dataclass(frozen=True)
class Section:
    """A run of consecutive blocks in one language."""

    language: str
    blocks: tuple[Block, ...] = field(repr=False)

    @property
    def start(self) -> int:
        """Offset of the section in the document's cleaned text."""
        return self.blocks[0].start

    @property
    def end(self) -> int:
        """End offset (exclusive) of the section in the document's cleaned text."""
        return self.blocks[-1].end


@dataclass(frozen=True)
class Unit:
    """A numbered paragraph (``1.``) or an item (``a)``, ``(ii)``) inside an article."""

    kind: Literal["paragraph", "item"]
    label: str
    #: Offset of the label in the document's cleaned text.
    start: int


@dataclass(frozen=True)
class Article:
    """An article of a treaty text in one language, or its preamble or final clauses.

    Offsets (``start``, ``end``, ``sentences``) are into the document's cleaned text.
    """

    language: str
    #: The number as printed (``XI``, ``26-A``) and its normalized key (``11``, ``26A``,
    #: or ``preamble`` / ``final``).
    number: str
    key: str
    heading: str
    text: str
    #: 1 for the document's own articles; 2 for an article quoted inside one of them
    #: (an amending protocol's new text of a convention article), with its ``parent``.
    level: int = 1
    parent: str | None = None
    start: int = 0
    end: int = 0
    units: tuple[Unit, ...] = ()
    #: Sentence spans ``(start, end)``: the heading (if any) first, then the body's.
    sentences: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The article as in ``structure.json`` (its text is a slice of ``text.txt``)."""
        return {"language": self.language, "number": self.number, "key": self.key,
                "level": self.level, "parent": self.parent, "heading": self.heading,
                "start": self.start, "end": self.end, "units": [asdict(u) for u in self.units],
                "sentences": [list(span) for span in self.sentences]}

    @classmethod
    def from_json(cls, data: dict[str, Any], text: str) -> Article:
        """An article from ``structure.json`` and the document's ``text.txt``."""
        return cls(**data | {"text": text[data["start"]:data["end"]],
                             "units": tuple(Unit(**u) for u in data["units"]),
                             "sentences": tuple((a, b) for a, b in data["sentences"])})


@dataclass(frozen=True)
class ArticlePair:
    """An article of the pivot (English) text and its counterpart in another language."""

    key: str
    pivot: Article
    other: Article


@dataclass(frozen=True)
class SentencePair:
    """A bead of the sentence alignment of one article pair: English side and other side.

    ``pivot_ids`` and ``ids`` are 0-based sentence indices within the article's body
    (either may be empty: a sentence without counterpart).
    """

    article: str
    language: str
    pivot_ids: tuple[int, ...]
    ids: tuple[int, ...]
    pivot_text: str
    text: str
    confidence: float
    flagged: bool
    #: Made or kept by a reviewer's decision (see :mod:`pipeline.project.decisions`): a pair a
    #: reviewer confirmed or corrected, or a rejected pair's sentences left unpaired.
    reviewed: bool = False

    @property
    def matched(self) -> bool:
        """True if both sides have text (not a sentence left without counterpart)."""
        return bool(self.pivot_ids and self.ids)

    def to_json(self, doc_id: str) -> dict[str, Any]:
        """The pair as one line of ``aligned/<doc>/sentences.jsonl``."""
        return {"doc": doc_id, **asdict(self), "pivot_ids": list(self.pivot_ids),
                "ids": list(self.ids)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SentencePair:
        """A pair from its line of ``sentences.jsonl`` (the document id left aside)."""
        fields = {key: value for key, value in data.items() if key != "doc"}
        return cls(**fields | {"pivot_ids": tuple(data["pivot_ids"]),
                               "ids": tuple(data["ids"])})


@dataclass(frozen=True)
class DocumentSummary:
    """What happened to one document in a run."""

    doc_id: str
    relpath: str
    status: Literal["done", "skipped", "failed"]
    pages: int = 0
    methods: dict[str, int] = field(default_factory=dict)
    languages: tuple[str, ...] = ()
    repairs: int = 0
    #: Repairs per rule.
    rules: dict[str, int] = field(default_factory=dict)
    pairs: dict[str, int] = field(default_factory=dict)
    #: Sentence pairs below the confidence threshold, per language.
    flagged: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    #: The acts an edition was cut into, each a document of its own (0: the document
    #: is no edition; see :mod:`pipeline.editions.cut`).
    acts: int = 0

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON object."""
        return asdict(self) | {"languages": list(self.languages)}


@dataclass(frozen=True)
class CorpusExport:
    """What an export of the whole corpus wrote (``gazette export``)."""

    folder: Path
    #: Documents read.
    documents: int
    #: The files written into ``folder``.
    files: tuple[str, ...]
    #: Units in ``corpus.jsonl``, if that was written.
    units: int | None
    #: What was left out and why (``'12 duplicate, 3 confidence'``, or ``'nothing'``).
    left_out: str
    #: Characters XML 1.0 cannot carry, removed from the TMX and XLIFF files.
    removed_characters: int
    #: The name the export is recorded under (``gazette export --since NAME`` later).
    name: str = ""
