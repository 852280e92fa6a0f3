"""Configuration in one place: folders, languages, OCR and language-detection settings.

Every stage reads its knobs from a :class:`Settings`; nothing else in the library
reads the environment. The CLI builds one from its options, tests build their own.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import json
import os
import re
import threading
import tomllib
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

from pipeline.errors import GazetteError
from pipeline.repair import RULES

__all__ = [
    "EXPORT_FORMATS",
    "LANGUAGES",
    "PIPELINE_VERSION",
    "PREFECT_TEMPLATES",
    "REGIONAL_TAGS",
    "SETTINGS_FILE",
    "Settings",
    "check_settings",
    "masked_url",
    "prefect_environment",
    "read_settings_file",
]

#: The pipeline's version, named in manifests and exports. Whether a document is
#: processed again does not hang on it being bumped: see :meth:`Settings.output_key`.
PIPELINE_VERSION = "0.4.0"

#: Where ``gazette model build`` puts the embedding model unless told otherwise.
DEFAULT_MODEL_DIR = Path(os.environ.get(
    "GAZETTE_MODEL_DIR", Path.home() / ".cache" / "gazette" / "multilingual-e5-small"))

#: Where set-up leaves an empty Prefect database, migrated for the Prefect installed
#: (``<version>/prefect.db``): a new project's first temporary server starts from a copy
#: (:func:`flows.server.seed_database`).
PREFECT_TEMPLATES = Path(os.environ.get(
    "GAZETTE_PREFECT_TEMPLATES", Path.home() / ".cache" / "gazette" / "prefect"))

#: The languages a gazette document may hold; English is the pivot of every alignment.
LANGUAGES: tuple[str, ...] = ("en", "pt", "sv", "hi")

#: The language tags TMX and XLIFF files carry by default (``--plain-codes``: ``pt``).
REGIONAL_TAGS = {"en": "en", "pt": "pt-BR", "sv": "sv-SE", "hi": "hi-IN"}

#: What ``gazette run`` and ``gazette export`` write (see :mod:`pipeline.export`).
EXPORT_FORMATS: tuple[str, ...] = ("jsonl", "tmx", "xliff", "tsv")


@dataclass(frozen=True)
class AlignParams:
    """Knobs of the sentence aligner, :func:`pipeline.align.core.align` (defaults tuned
    on the DGT and NTREX dev data; since the sets were halved, on their tuning halves
    only: see BENCHMARKS.md)."""

    #: Most sentences on one side of a bead.
    max_merge: int = 5
    #: Most sentences in a bead, both sides together (6: 1-5, 2-4, 3-3, ... but no 2-5).
    max_bead: int = 6
    #: Value of leaving one sentence unaligned (1-0, 0-1), per sentence.
    skip: float = -0.02
    #: Cost of each sentence beyond the first on a side of a merged bead.
    merge_penalty: float = 0.0
    #: A bead's value is its score times (sentences / 2) to this power: 0 counts every
    #: bead once (merging two good 1-1 beads then loses one), 1 counts sentences. A
    #: side's sentences are counted by length, each up to ``weight_cap`` characters
    #: (at least 1 a side): a heading glued to a sentence adds little to its bead.
    size_exponent: float = 0.3
    #: Weight of the squared log length ratio.
    length_weight: float = 0.1
    #: Weight of the agreement of numbers (in [-1, 1]) when both sides have numbers.
    anchor_weight: float = 0.03
    #: In the vector of merged sentences, each counts by its length in characters up
    #: to this many: a short heading or label less than a sentence.
    weight_cap: float = 40.0
    #: Sentences of the other side that each sentence is compared with for its margin.
    sample: int = 48
    #: Half-width of the band around the coarse path, in sentences.
    band: int = 8
    #: Texts with at most this many cells (n × m) are searched in full.
    max_full_cells: int = 60_000
    #: With an embedding function, merged beads are refined, and 1-1 beads below this
    #: confidence.
    refine_below: float = 0.0
    #: The most the second pass embeds, in characters, as a share of both sides'
    #: characters; the least confident beads are refined first.
    refine_budget: float = 0.2
    #: Temperature of the path weights exp(value / temperature) whose posterior is a
    #: bead's confidence: lower is surer.
    confidence_temperature: float = 0.01
    #: Value of leaving one sentence out, for confidences only: above ``skip``, so that
    #: a pair of unrelated sentences is not sure just because skipping both costs more.
    confidence_skip: float = -0.01


@dataclass(frozen=True)
class Settings:
    """Where the data lives and how each stage behaves.

    Build one with :meth:`Settings.for_root`, which puts the data folders ``raw/``,
    ``cleaned/`` and ``aligned/``, the reviewers' ``reviews/`` and the state folder
    ``.gazette/`` (Prefect's home, staging folders; git ignores it) below a project
    folder.
    """

    #: The inbox of source documents (never modified).
    raw: Path
    #: Per-document extracted pages, repaired text, repair log, language sections.
    cleaned: Path
    #: Per-document alignments and exported corpora.
    aligned: Path
    #: Private working state: Prefect's home and staging folders.
    state: Path
    #: Reviewers' decisions, one file per document (``<doc>.jsonl``): source data, kept
    #: beside the inbox and applied by every run (see :mod:`pipeline.project.decisions`).
    reviews: Path

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
    #: Embed the real concatenations of neighbours where the aligner's first pass
    #: merged sentences or was unsure, within a budget (``refine_budget``), and align
    #: again: better on many-to-many beads, about a fifth slower (see BENCHMARKS.md).
    align_second_pass: bool = True
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
    #: ``eng``, ``swe``, ``Devanagari``; see :mod:`pipeline.read.scan`).
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
    #: Worker processes of a run (:mod:`pipeline.workers`): they read the pages (text
    #: layers and OCR, one page at a time each; Tesseract runs single-threaded) and take
    #: an edition's acts through their stages: one per core.
    page_workers: int = 2
    #: The run catalog's database, a SQLAlchemy URL (``postgresql+psycopg://host/db``)
    #: for a project processed by several machines; unset, the project's SQLite file
    #: (see :mod:`pipeline.project.catalog`).
    catalog_url: str | None = None
    #: Repair rules switched off, by name (see ``pipeline.repair.RULES``).
    repair_disabled: tuple[str, ...] = ()
    #: The aligner's knobs that differ from :class:`AlignParams`, as
    #: ``(name, value)`` pairs (``[align]`` in ``gazette.toml``).
    align: tuple[tuple[str, int | float], ...] = ()

    @classmethod
    def for_root(cls, root: Path | str, **overrides: Any) -> Settings:
        """Settings for the project folder ``root``: its ``gazette.toml`` if it has one,
        then keyword arguments (a run's overrides), over the defaults.

        Raises :class:`~pipeline.errors.GazetteError` naming an unknown setting or a bad
        value.
        """
        root = Path(root).resolve()
        values: dict[str, Any] = {
            "raw": root / "raw",
            "cleaned": root / "cleaned",
            "aligned": root / "aligned",
            "state": root / ".gazette",
            "reviews": root / "reviews",
        }
        values.update(read_settings_file(root / SETTINGS_FILE))
        values.update(overrides)
        return cls(**values)

    def changed(self) -> dict[str, Any]:
        """The settings that differ from the defaults (for the run's log and report), a
        password in the catalog's URL masked (:func:`masked_url`)."""
        defaults = {f.name: f.default for f in fields(self) if f.name not in PLACES}
        return {name: masked_url(value) if name == "catalog_url" else value
                for name, default in defaults.items()
                if (value := getattr(self, name)) != default}

    def reading_key(self) -> str:
        """What a document's pages depend on besides its bytes: the reading settings and
        the reading code (the key of the reading cache)."""
        return _key({name: getattr(self, name) for name in READING_SETTINGS},
                    reading_code())

    def output_key(self) -> str:
        """What a document's outputs depend on besides its bytes: every setting that
        shapes them and all of the pipeline's code. A document processed under another
        key is processed again."""
        return _key({name: getattr(self, name) for name in OUTPUT_SETTINGS}, ("",))


#: The settings file of a project folder.
SETTINGS_FILE = "gazette.toml"
#: Fields that say where the data lives: set by the project folder, not by the file.
PLACES = ("raw", "cleaned", "aligned", "state", "reviews")
#: Settings that change how pages are read.
READING_SETTINGS = ("languages", "ocr_dpi", "ocr_languages", "max_raster_pixels",
                    "ocr_timeout", "max_cid_share", "max_broken_devanagari",
                    "min_legacy_quality", "min_ocr_confidence")
#: Settings that change no output, only how fast it is made or where state is kept.
SPEED_SETTINGS = ("page_workers", "catalog_url")
OUTPUT_SETTINGS = tuple(f.name for f in fields(Settings)
                        if f.name not in PLACES + SPEED_SETTINGS)
_PACKAGE = Path(__file__).resolve().parent


def package_imports(start: str) -> tuple[str, ...]:
    """The library's files that ``start`` (a file of the package) runs: itself and every
    module of the package it imports at module level (with the ``__init__.py`` of each
    folder it is in), and theirs, found by reading the source.

    >>> [name for name in package_imports("read/ingest.py") if "pdf" in name or "scan" in name]
    ['read/pdfread.py', 'read/scan.py']
    """
    found: set[Path] = set()
    todo = [_PACKAGE / start]
    while todo:
        path = todo.pop()
        if path in found or not path.is_file():
            continue
        found.add(path)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name == "pipeline" or not name.startswith("pipeline."):
                    continue
                module = _PACKAGE.joinpath(*name.split(".")[1:])
                todo.append(module / "__init__.py" if module.is_dir()
                            else module.with_suffix(".py"))
                todo.extend(folder / "__init__.py" for folder in module.parents
                            if folder != _PACKAGE and _PACKAGE in folder.parents)
    return tuple(sorted(path.relative_to(_PACKAGE).as_posix() for path in found))


def reading_code() -> tuple[str, ...]:
    """The library's files that reading runs (the settings' own module aside: the values
    of the reading settings are in the key), for the reading key. Found when first
    asked, not at import: every process imports the settings, and parsing the sources
    costs a tenth of a second.

    Found once, by one thread: a run's reading tasks ask for the key at the same time,
    and Python 3.11's ``ast.parse`` is not safe in threads at once (it can fail with
    "AST constructor recursion depth mismatch")."""
    with _READING_CODE_LOCK:
        return _reading_code()


_READING_CODE_LOCK = threading.Lock()


@cache
def _reading_code() -> tuple[str, ...]:
    return tuple(name for name in package_imports("read/ingest.py") if name != "config.py")


def masked_url(url: str) -> str:
    """A database URL fit to print: its password, if any, masked.

    >>> masked_url("postgresql+psycopg://gazette:s3cret@db-host:5432/catalog")
    'postgresql+psycopg://gazette:***@db-host:5432/catalog'
    >>> masked_url("postgresql+psycopg://gazette@db-host/catalog")
    'postgresql+psycopg://gazette@db-host/catalog'
    """
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", url)


def _key(values: dict[str, Any], code: tuple[str, ...]) -> str:
    """``PIPELINE_VERSION+`` a digest of the values and of the code files (a folder:
    every ``.py`` file below it), e.g. ``0.4.0+1f2e3d4c5b6a``."""
    digest = hashlib.sha256(json.dumps(values, sort_keys=True, default=str).encode())
    digest.update(_code_digest(code))
    return f"{PIPELINE_VERSION}+{digest.hexdigest()[:12]}"


@cache
def _code_digest(code: tuple[str, ...]) -> bytes:
    """The digest of the code files, read once per process: the code that runs is the
    code that was imported, whatever happens to the files later."""
    digest = hashlib.sha256()
    for name in code:
        path = _PACKAGE / name
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(file.relative_to(_PACKAGE).as_posix().encode())
            digest.update(file.read_bytes())
    return digest.digest()


def read_settings_file(path: Path) -> dict[str, Any]:
    """The settings of a ``gazette.toml`` file, checked (none if there is no file).

    Keys are the names of :class:`Settings` fields (all but the folders); the aligner's
    knobs go in an ``[align]`` table. Raises :class:`~pipeline.errors.GazetteError`
    for a file that is no TOML, an unknown key or a value of the wrong kind.
    """
    if not path.is_file():
        return {}
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise GazetteError(f"{path} is not valid TOML: {exc}",
                           "fix the file (see README, Configuration)") from exc
    return check_settings(raw, str(path))


def check_settings(values: dict[str, Any], origin: str) -> dict[str, Any]:
    """Settings by name, each checked and converted to its field's type.

    >>> checked = check_settings({"min_ocr_confidence": 65, "align": {"skip": -0.03},
    ...                           "repair_disabled": ["fix_ocr_words"]}, "test")
    >>> checked["min_ocr_confidence"], checked["align"], checked["repair_disabled"]
    (65.0, (('skip', -0.03),), ('fix_ocr_words',))
    >>> check_settings({"ocr_dpy": 300}, "gazette.toml")
    Traceback (most recent call last):
    ...
    pipeline.errors.GazetteError: gazette.toml: unknown setting 'ocr_dpy', did you mean ...
    """
    known = {f.name: f for f in fields(Settings) if f.name not in PLACES}
    checked: dict[str, Any] = {}
    for name, value in values.items():
        if name not in known:
            near = difflib.get_close_matches(name, known, n=1)
            raise GazetteError(
                f"{origin}: unknown setting {name!r}"
                + (f", did you mean {near[0]!r}?" if near else ""),
                f"the settings are: {', '.join(sorted(known))}")
        checked[name] = _checked(name, value, known[name].default, origin)
    return checked


def _checked(name: str, value: Any, default: Any, origin: str) -> Any:
    """``value`` as the type of the setting's default, or a clear error."""
    def bad(kind: str) -> GazetteError:
        return GazetteError(f"{origin}: {name} = {value!r} is not {kind}",
                            f"the default is {default!r}")

    if name == "align":
        knobs = {f.name: f.default for f in fields(AlignParams)}
        if not isinstance(value, dict) or any(key not in knobs for key in value):
            raise bad(f"a table of aligner knobs ({', '.join(knobs)})")
        return tuple(sorted((key, _checked(f"align.{key}", number, knobs[key], origin))
                            for key, number in value.items()))
    if name == "repair_disabled":
        if not isinstance(value, list | tuple) or any(rule not in RULES for rule in value):
            raise bad(f"a list of repair rules ({', '.join(RULES)})")
        return tuple(value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if isinstance(default, int | float):
        if isinstance(value, bool) or not isinstance(value, int | float) or (
                isinstance(default, int) and not isinstance(value, int)):
            raise bad("a whole number" if isinstance(default, int) else "a number")
        if value < 0 and default >= 0:
            raise bad("zero or more")
        return type(default)(value)
    if isinstance(default, Path):
        if not isinstance(value, str):
            raise bad("a folder")
        return Path(value).expanduser()
    if isinstance(default, tuple):
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise bad("a list of names")
        if name == "languages" and not set(value) <= set(LANGUAGES):
            raise bad(f"a list of {', '.join(LANGUAGES)}")
        return tuple(value)
    if not isinstance(value, str):
        raise bad("text")
    if name == "catalog_url" and not value.startswith(("postgresql", "sqlite")):
        raise bad("a database URL (postgresql+psycopg://user@host/db or sqlite:///file)")
    return value


def prefect_environment(settings: Settings) -> dict[str, str]:
    """Environment variables that make Prefect run quietly in ephemeral mode.

    Prefect's ephemeral server takes 10–16 s to start on these machines (its default
    timeout is 20 s), and a fresh database logs a telemetry traceback unless analytics
    are off. The temporary server writes to the run's terminal, and as it stops it can
    log a database connection its shutdown cancelled (SQLAlchemy's ``Exception during
    reset or similar``, a traceback): loggers that Prefect and gazette do not set
    (the root's) say only what is critical. Values already set by the user win.
    """
    wanted = {
        "PREFECT_HOME": str(settings.state / "prefect"),
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "DO_NOT_TRACK": "1",
        "PREFECT_LOGGING_EXTRA_LOGGERS": "pipeline",
        "PREFECT_LOGGING_ROOT_LEVEL": "CRITICAL",
        # the library logs outside flow runs too (loading the model while a server starts)
        "PREFECT_LOGGING_TO_API_WHEN_MISSING_FLOW": "ignore",
    }
    return {key: os.environ.get(key, value) for key, value in wanted.items()}
