"""Configuration in one place: folders, languages, OCR and language-detection settings.

Every stage reads its knobs from a :class:`Settings`; nothing else in the library
reads the environment. The CLI builds one from its options, tests build their own.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "EXPORT_FORMATS",
    "LANGUAGES",
    "PIPELINE_VERSION",
    "REGIONAL_TAGS",
    "Settings",
    "prefect_environment",
]

#: Bumped whenever a stage's output for the same input can change; a document whose
#: content hash and pipeline version are unchanged is not processed again.
PIPELINE_VERSION = "0.4.0"

#: Where ``gazette model build`` puts the embedding model unless told otherwise.
DEFAULT_MODEL_DIR = Path(os.environ.get(
    "GAZETTE_MODEL_DIR", Path.home() / ".cache" / "gazette" / "multilingual-e5-small"))

#: The languages a gazette document may hold; English is the pivot of every alignment.
LANGUAGES: tuple[str, ...] = ("en", "pt", "sv", "hi")

#: The language tags TMX and XLIFF files carry by default (``--plain-codes``: ``pt``).
REGIONAL_TAGS = {"en": "en", "pt": "pt-BR", "sv": "sv-SE", "hi": "hi-IN"}

#: What ``gazette run`` and ``gazette export`` write (see :mod:`pipeline.export`).
EXPORT_FORMATS: tuple[str, ...] = ("jsonl", "tmx", "xliff", "tsv")


@dataclass(frozen=True)
class Settings:
    """Where the data lives and how each stage behaves.

    Build one with :meth:`Settings.for_root`, which puts the data folders ``raw/``,
    ``cleaned/`` and ``aligned/`` and the state folder ``.gazette/`` (Prefect's home,
    staging folders; git ignores it) below a project folder.
    """

    #: The inbox of source documents (never modified).
    raw: Path
    #: Per-document extracted pages, repaired text, repair log, language sections.
    cleaned: Path
    #: Per-document alignments and exported corpora.
    aligned: Path
    #: Private working state: Prefect's home and staging folders.
    state: Path

    #: Languages of the language split; any other text is labelled ``other``.
    languages: tuple[str, ...] = LANGUAGES
    #: The authoritative language every other language is aligned to.
    pivot_language: str = "en"
    #: langdetect is random by design; a fixed seed makes its labels reproducible.
    langdetect_seed: int = 0
    #: Blocks with fewer letters than this take the language of their neighbours.
    min_block_letters: int = 40
    #: A block with fewer of its characters in known words than this is junk-like ...
    min_readable_share: float = 0.5
    #: ... and this many junk-like blocks in a row are labelled ``unreadable``.
    min_unreadable_run: int = 3

    #: The sentence-transformers folder built by ``gazette model build`` (outside git).
    model_dir: Path = DEFAULT_MODEL_DIR
    #: Re-embed merged neighbours where the aligner's first pass merged or skipped
    #: sentences: slightly better, about twice as slow (see BENCHMARKS.md).
    align_second_pass: bool = False
    #: Sentence pairs with a lower confidence are flagged for review.
    flag_below: float = 0.5
    #: Formats ``gazette run`` writes per document into ``aligned/<doc>/``.
    export_formats: tuple[str, ...] = EXPORT_FORMATS
    #: Write ``pt-BR``, ``sv-SE``, ``hi-IN`` in TMX and XLIFF (else plain ``pt``, ``sv``…).
    regional_tags: bool = True
    #: Rasterization resolution for OCR.
    ocr_dpi: int = 300
    #: Tesseract packs for scanned pages whose language the probe of their document
    #: cannot tell (a document in one language is read with its single pack: ``por``,
    #: ``eng``, ``swe``, ``Devanagari``; see :mod:`pipeline.scan`).
    ocr_languages: str = "eng+por"
    #: A page that would rasterize to more pixels than this is recorded as failed, not
    #: rendered (an A4 page at 300 dpi has 8.7 million; a decompression bomb billions).
    max_raster_pixels: int = 150_000_000
    #: Seconds Tesseract may spend on one page before the page is recorded as failed.
    ocr_timeout: float = 180.0
    #: A text-layer page whose share of ``(cid:N)`` tokens exceeds this goes to OCR.
    max_cid_share: float = 0.05
    #: ... and so does one where more of its Devanagari words break the script's spelling.
    max_broken_devanagari: float = 0.05
    #: A legacy-font (Kruti Dev) page is OCR'd instead if fewer of its converted words
    #: are known Hindi words (the Lok Sabha bulletin converts at 85–90 %).
    min_legacy_quality: float = 0.6
    #: A first OCR reading with a lower mean word confidence (0–100) makes the page
    #: go through orientation and script detection (a turned or Devanagari page).
    min_ocr_confidence: float = 70.0
    #: Worker processes that read the pages of a run (text layers and OCR, one page at a
    #: time each; Tesseract runs single-threaded): one per core.
    page_workers: int = 2

    @classmethod
    def for_root(cls, root: Path, **overrides: Any) -> Settings:
        """Settings for the project folder ``root``; keyword arguments override fields."""
        root = Path(root).resolve()
        values: dict[str, Any] = {
            "raw": root / "raw",
            "cleaned": root / "cleaned",
            "aligned": root / "aligned",
            "state": root / ".gazette",
        }
        values.update(overrides)
        return cls(**values)


def prefect_environment(settings: Settings) -> dict[str, str]:
    """Environment variables that make Prefect run quietly in ephemeral mode.

    Prefect's ephemeral server takes 10–16 s to start on these machines (its default
    timeout is 20 s), and a fresh database logs a telemetry traceback unless analytics
    are off. Values already set by the user win.
    """
    wanted = {
        "PREFECT_HOME": str(settings.state / "prefect"),
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "DO_NOT_TRACK": "1",
        "PREFECT_LOGGING_EXTRA_LOGGERS": "pipeline",
    }
    return {key: os.environ.get(key, value) for key, value in wanted.items()}
