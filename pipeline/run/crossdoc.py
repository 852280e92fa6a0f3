"""Pairs across documents: each English text aligned with its translations printed in
other documents, wherever they are.

When a document is processed, :func:`run_digest` keeps its digest
(``cleaned/<doc>/digest.json``) if it holds one language: English only, or no English
(a language under :data:`MINOR_SHARE` of its letters does not count). After a run,
:func:`pair_across_documents` finds the pairs among all the documents of the inbox,
old and new, by content (:mod:`pipeline.align.documents`; an English text printed among
other items of its file pairs as that part of it, and only the part is aligned:
:func:`part_articles`), publishes each pair into
``aligned/<english>+<other>/`` (the export formats, ``sentences.jsonl`` with the beads,
``pairing.json`` with what decided, a manifest) and records it in the catalog, aligns a
pair again only when either document, the build or the pair's review decisions
(``reviews/<english>+<other>.jsonl``, applied as for one document) changed, and removes
the pairs no longer found. Its end is recorded with the documents it was done on
(:func:`pipeline.run.plan.pairing_done`): a run killed after its documents but before
pairing ended leaves the next one pairing to do. ``gazette match`` and ``gazette pair``
use the same decision and the same alignment on files given by hand.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, replace
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.align import align_sentences, pair_articles
from pipeline.align.documents import (
    DIGEST_TOKENS,
    Digest,
    DocumentIndex,
    Match,
    digest,
    find_translations,
    language_offsets,
    number_weights,
    pairable,
    with_vectors,
)
from pipeline.config import Settings
from pipeline.editions.identity import Identity, identity_evidence, identity_from_json, identity_of
from pipeline.embedding.build import MANIFEST
from pipeline.embedding.encoder import BATCH_SIZE, encoder_for
from pipeline.errors import InputError
from pipeline.export import render
from pipeline.export.units import ExportUnit, units_of
from pipeline.project import decisions
from pipeline.project.catalog import Catalog
from pipeline.project.store import DocumentOutput, jsonl, read_manifest, write_atomic
from pipeline.records import Article, Block, Section, SentencePair
from pipeline.run.plan import (
    PAIRING,
    current_documents,
    documents_key,
    pairing_done,
    pairings,
)
from pipeline.run.stages import align_params, read_structure, write_review_outcome
from pipeline.split.languages import MINOR_SHARE, language_shares, sections_of
from pipeline.split.structure import ACT, decree_number, sentence_texts, structure_of

__all__ = ["CrossPairs", "Pairing", "document_language", "embeds_at_pairing", "kept_offsets",
           "match_files", "offsets_file", "pair_across_documents", "pair_documents",
           "part_articles", "published_articles", "published_pairs", "run_digest"]

log = logging.getLogger(__name__)

DIGEST = "digest.json"


def document_language(shares: dict[str, float], pivot: str) -> str | None:
    """The one language a document is in, for pairing across documents: the pivot
    language if it holds all but :data:`MINOR_SHARE` of the letters, else the largest
    other language if the pivot holds at most that share; None for a document in
    several languages (it pairs inside itself).

    >>> document_language({"en": 0.98, "pt": 0.02}, "en"), document_language(
    ...     {"pt": 0.9, "en": 0.03, "sv": 0.07}, "en"), document_language({"en": 0.5,
    ...     "pt": 0.5}, "en")
    ('en', 'pt', None)
    """
    if not shares:
        return None
    if shares.get(pivot, 0.0) >= 1 - MINOR_SHARE:
        return pivot
    if shares.get(pivot, 0.0) <= MINOR_SHARE:
        return max(sorted(shares), key=lambda language: shares[language])
    return None


def document_sentences(articles: dict[str, list[Article]], language: str) -> list[str]:
    """A document's sentences in ``language``, in order, headings included; the text
    of an act printing the treaty as its annex (:data:`pipeline.split.structure.ACT`) is left
    out, as no translation of the treaty holds it."""
    return [sentence for article in _own_articles(articles, language)
            for sentence in sentence_texts(article)]


def _own_articles(articles: dict[str, list[Article]], language: str) -> list[Article]:
    return [article for article in articles.get(language, []) if article.key != ACT]


def part_articles(articles: dict[str, list[Article]], blocks: Sequence[Block], text: str,
                  part: tuple[int, int], language: str) -> dict[str, list[Article]]:
    """The articles of a part of a document: its sentences ``part`` (first, last, as
    :func:`document_sentences` counts them in ``language``), the blocks they are in cut
    to them, cut into articles again. A bulletin's other items are left out, and the
    part's articles are its own: an earlier item's ``Article 1`` does not take the
    place of the part's (:func:`pipeline.split.structure.structure_of` keeps a
    language's first article of a number)."""
    spans = [span for article in _own_articles(articles, language) for span in article.sentences]
    start, end = spans[part[0]][0], spans[part[1]][1]
    inside = [replace(block, start=max(start, block.start), end=min(end, block.end),
                      text=text[max(start, block.start):min(end, block.end)])
              for block in blocks if block.end > start and block.start < end]
    return structure_of(sections_of(inside), text)


def run_digest(articles: dict[str, list[Article]], sections: list[Section],
               settings: Settings, out: DocumentOutput) -> Digest | None:
    """A document's digest, written to ``digest.json`` if the document is in one
    language (:func:`document_language`); None for one in several. Nothing is embedded
    now: pairing embeds the samples of all documents together, and only when there are
    English texts and others to pair (:func:`pair_across_documents`)."""
    language = document_language(language_shares(sections), settings.pivot_language)
    sentences = document_sentences(articles, language) if language else []
    if not sentences:
        return None
    assert language is not None
    found = digest(out.doc_id, language, sentences)
    out.write("cleaned", DIGEST, json.dumps(found.to_json(), ensure_ascii=False) + "\n")
    return found


def embeds_at_pairing(settings: Settings, doc_id: str) -> bool:
    """Whether pairing across documents will embed this document's sentences, as far as
    the document tells: it is a text in the pivot language (its digest says so), which
    pairing compares sentence by sentence with its candidates. A run that finds one can
    load the model while it reads its other documents."""
    try:
        found = json.loads((settings.cleaned / doc_id / DIGEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(found, dict) and found.get("language") == settings.pivot_language


@dataclass(frozen=True)
class Pairing:
    """An English text and its translation in another document, with what decided."""

    english: str
    other: str
    language: str
    #: The content score (:func:`pipeline.align.documents.rescore`).
    confidence: float
    #: What content says (:meth:`pipeline.align.documents.Match.evidence`).
    content: str
    #: What the two documents' identities agree on (supporting evidence only).
    identity: Identity
    #: The English text's sentences (first, last) the translation translates, when it
    #: is a part of the English document (a bulletin's item); None for the whole.
    part: tuple[int, int] | None = None

    @property
    def pair_id(self) -> str:
        """The pair's id, its folders' name: ``<english>+<other>``."""
        return f"{self.english}+{self.other}"

    @classmethod
    def of(cls, match: Match, identity: Identity) -> Pairing:
        return cls(match.english, match.other, match.language, match.score,
                   match.evidence(), identity, match.part)

    def to_json(self) -> dict[str, Any]:
        """The pairing as ``pairing.json`` holds it."""
        return {**asdict(self), "decided_by": "content",
                "identity": {"agrees": list(self.identity.agrees),
                             "countries": list(self.identity.countries)}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pairing:
        identity = data.get("identity") or {}
        part = data.get("part")
        return cls(data["english"], data["other"], data["language"], float(data["confidence"]),
                   data["content"], Identity(tuple(identity.get("agrees", ())),
                                             tuple(identity.get("countries", ()))),
                   None if part is None else (int(part[0]), int(part[1])))

    def describe(self) -> str:
        """For the log: ``pt, confidence 0.92: 11 of 12 sampled sentences …; identity:
        parties, instrument agree``."""
        identity = (f"; identity: {', '.join(self.identity.agrees)} agree"
                    if self.identity.agrees else "; identity: nothing to compare or agree")
        return f"{self.language}, confidence {self.confidence:.2f}: {self.content}{identity}"


@dataclass(frozen=True)
class CrossPairs:
    """What one pairing step found: the pairs (each with whether it was aligned now,
    False when it was up to date), the English texts left unpaired with their best
    candidate (if any), and the pairs removed because they were no longer found."""

    pairs: tuple[tuple[Pairing, bool], ...]
    unpaired: tuple[tuple[str, Match | None], ...]
    removed: tuple[str, ...]


def _sample_embedder(settings: Settings) -> Callable[[list[str]], np.ndarray]:
    """How digests' samples are embedded: cut to :data:`DIGEST_TOKENS` tokens."""
    return partial(encoder_for(settings).encode, max_tokens=DIGEST_TOKENS)


def kept_offsets(languages: Collection[str], settings: Settings,
                 embed: Callable[[list[str]], np.ndarray] | None = None
                 ) -> dict[str, np.ndarray]:
    """Each language's offset (:func:`pipeline.align.documents.language_offsets`, its
    strings embedded by ``embed``, default as digests' samples are), kept per machine.

    They depend only on the model, so they are kept beside it
    (:func:`offsets_file`, for this build of the model) and computed only for the
    languages the file lacks: ``gazette model build`` computes every language's at
    set-up, and a new project does not embed them again (0.85 s of a first run on 2
    cores). A file that cannot be written is left out; the offsets are still given.
    """
    path = offsets_file(settings)
    model = _model_key(settings)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    kept = ({language: np.array(vector, np.float32)
             for language, vector in data.get("offsets", {}).items()}
            if data.get("model") == model else {})
    missing = sorted(set(languages) - kept.keys())
    if missing:
        kept |= language_offsets(missing, embed or _sample_embedder(settings))
        try:
            write_atomic(path, json.dumps({"model": model, "offsets": {
                language: vector.tolist() for language, vector in sorted(kept.items())}}))
        except OSError as exc:
            log.debug("language offsets not kept in %s: %s", path, exc)
    return {language: kept[language] for language in languages}


def offsets_file(settings: Settings) -> Path:
    """Where a machine keeps the language offsets: beside its model folder."""
    return settings.model_dir.parent / f"{settings.model_dir.name}.language-offsets.json"


def _model_key(settings: Settings) -> str:
    """What the offsets were computed from: the model's build (its manifest), how
    digests' samples are cut and batched, and the word lists (wordfreq's version)."""
    try:
        manifest = (settings.model_dir / MANIFEST).read_bytes()
    except OSError:  # no model: embedding says so, with the command that builds one
        return ""
    words = metadata.version("wordfreq")
    return (f"{hashlib.sha1(manifest).hexdigest()}/{DIGEST_TOKENS}/batch-{BATCH_SIZE}"
            f"/wordfreq-{words}")


def _translations(english: list[Digest], others: list[Digest],
                  sentences: Callable[[str], Sequence[str]], settings: Settings
                  ) -> tuple[list[Match], list[Match]]:
    """The English texts' translations among ``others``, as
    :func:`pipeline.align.documents.find_translations` finds them. Only the documents
    that may pair (:func:`pipeline.align.documents.pairable`, by their sizes and
    numbers) are embedded: beside a treaty, five of an edition's 455 acts."""
    weights = number_weights(others)  # the numbers' weights among all the documents
    others = pairable(english, others, weights)
    english = pairable(others, english, weights)
    if not english or not others:
        return [], []
    embed_sample = _sample_embedder(settings)
    english = with_vectors(english, embed_sample)
    others = with_vectors(others, embed_sample)
    offsets = kept_offsets({d.language for d in others} | {settings.pivot_language},
                           settings)
    return find_translations(english, DocumentIndex(others, offsets, weights), sentences,
                             encoder_for(settings).encode, embed_sample)


def pair_across_documents(settings: Settings, run_id: int | None = None,
                          realign: Collection[str] = ()) -> CrossPairs:
    """Find and publish the pairs across the documents of the inbox (see the module's
    docstring), recorded in the catalog under ``run_id``; the pairs named in ``realign``
    are aligned again even if up to date (``gazette rerun PAIR``). Documents whose
    files are gone from ``raw/`` take no part."""
    documents = current_documents(settings)
    digests = _current_digests(settings, documents)
    pivot = settings.pivot_language
    english = [d for d in digests if d.language == pivot]
    others = [d for d in digests if d.language != pivot]
    found, scored = _translations(english, others, lambda doc: document_sentences(
        published_articles(settings, doc), pivot), settings)
    catalog = Catalog(settings)
    pairs = []
    for pairing in (Pairing.of(match, _identity(settings, match)) for match in found):
        manifests = [read_manifest(settings, doc) or {}
                     for doc in (pairing.english, pairing.other)]
        aligned = _publish_pair(settings, pairing, manifests, pairing.pair_id in realign)
        if aligned or catalog.document(pairing.pair_id) is None:
            _record_pair(catalog, run_id, pairing, manifests)
        pairs.append((pairing, aligned))
    taken = {pairing.english for pairing, _ in pairs}
    best = {m.english: m for m in sorted(scored, key=lambda m: m.score)}
    unpaired = tuple((d.doc_id, best.get(d.doc_id)) for d in english if d.doc_id not in taken)
    removed = _remove_stale(settings, {p.pair_id for p, _ in pairs})
    for pair_id in removed:
        catalog.forget(pair_id)
    pairing_done(settings, documents_key(settings, documents))
    return CrossPairs(tuple(pairs), unpaired, removed)


def _record_pair(catalog: Catalog, run_id: int | None, pairing: Pairing,
                 manifests: list[dict[str, Any]]) -> None:
    """Record a published pair in the catalog: a document whose source is its two
    documents' files (their ``manifests``)."""
    catalog.record_pair(run_id, pairing.pair_id, " + ".join(
        str(m.get("source", "?")) for m in manifests), hashlib.sha256("+".join(
            str(m.get("sha256")) for m in manifests).encode()).hexdigest())


def _current_digests(settings: Settings, documents: Collection[str]) -> list[Digest]:
    """The digests of the ``documents`` (those whose files are in the inbox, an edition's
    acts with it) processed to the end."""
    done = {row.doc_id for row in Catalog(settings).documents() if row.status == "done"}
    digests = []
    for doc in sorted(documents):
        path = settings.cleaned / doc / DIGEST
        if doc in done and path.is_file():
            digests.append(Digest.from_json(doc, json.loads(path.read_text(encoding="utf-8"))))
    return digests


def _identity(settings: Settings, match: Match) -> Identity:
    def of(doc: str) -> Any:
        return identity_from_json((read_manifest(settings, doc) or {}).get("identity", {}))

    return identity_evidence(of(match.english), of(match.other))


def _publish_pair(settings: Settings, pairing: Pairing, manifests: list[dict[str, Any]],
                  force: bool = False) -> bool:
    """Align and publish a pair of documents with these ``manifests``, unless it is up to
    date (and not ``force``); True if it was aligned now. Up to date: the same two
    documents (content, and the review decisions each was made with), build, pairing and
    review decisions of the pair."""
    pair_id = pairing.pair_id
    record = {"doc_id": pair_id, "pair": [pairing.english, pairing.other],
              "sha256": [m.get("sha256") for m in manifests],
              "reviews": [m.get("review") for m in manifests],
              "build": settings.output_key(), "pairing": pairing.to_json(),
              "review": decisions.digest(settings, pair_id)}
    published = read_manifest(settings, pair_id) or {}
    if not force and all(published.get(key) == value for key, value in record.items()):
        return False
    review = decisions.resolve(settings, pair_id)
    # the documents' word corrections are made in their texts already; known here, a
    # decision made on a sentence before its correction still names it
    for doc in (pairing.english, pairing.other):
        review.edits += decisions.resolve(settings, doc).edits
    units, sentences = align_across(
        pair_id, published_articles(settings, pairing.english, pairing.part),
        published_articles(settings, pairing.other), settings, manifests[1].get("decree"),
        review)
    out = DocumentOutput(settings, pair_id)
    out.start()
    try:
        for name, text in render(units, pair_id, settings.export_formats,
                                 settings.regional_tags).files.items():
            out.write("aligned", name, text)
        out.write("aligned", "sentences.jsonl", jsonl(
            pair.to_json(pair_id) for found in sentences.values() for pair in found))
        write_review_outcome(out, review)
        out.write("aligned", PAIRING, json.dumps(pairing.to_json(), ensure_ascii=False,
                                                 indent=1) + "\n")
        out.publish(record)
    finally:
        out.discard()
    return True


def _remove_stale(settings: Settings, keep: set[str]) -> tuple[str, ...]:
    """Remove the published pairs not in ``keep``; their ids."""
    removed = []
    for pair_id in pairings(settings):
        if pair_id not in keep:
            for folder in (settings.aligned / pair_id, settings.cleaned / pair_id):
                shutil.rmtree(folder, ignore_errors=True)
            removed.append(pair_id)
    return tuple(removed)


def published_pairs(settings: Settings) -> list[tuple[Pairing, int]]:
    """The pairs across documents published in ``aligned/``, each with its number of
    units (``gazette status`` lists them)."""
    pairs = []
    for pair_id, data in pairings(settings).items():
        units = settings.aligned / pair_id / f"{pair_id}.jsonl"
        pairs.append((Pairing.from_json(data), units.read_text(encoding="utf-8").count("\n")
                      if units.is_file() else 0))
    return pairs


def published_articles(settings: Settings, doc_id: str, part: tuple[int, int] | None = None
                       ) -> dict[str, list[Article]]:
    """A processed document's articles by language, as its structure stage found them;
    with ``part``, those of that part of its pivot language's text (:func:`part_articles`:
    an English text paired as a part of its file)."""
    cleaned = settings.cleaned / doc_id
    text = (cleaned / "text.txt").read_text(encoding="utf-8")
    structure = json.loads((cleaned / "structure.json").read_text(encoding="utf-8"))
    articles: dict[str, list[Article]] = {}
    for data in structure["articles"]:
        article = Article.from_json(data, text)
        articles.setdefault(article.language, []).append(article)
    if part is None:
        return articles
    blocks = [Block.from_json(json.loads(line), text)
              for line in (cleaned / "blocks.jsonl").read_text(encoding="utf-8").splitlines()]
    return part_articles(articles, blocks, text, part, settings.pivot_language)


def align_across(
    pair_id: str, english: dict[str, list[Article]], other: dict[str, list[Article]],
    settings: Settings, decree: str | None, review: decisions.Review | None = None,
) -> tuple[list[ExportUnit], dict[str, list[SentencePair]]]:
    """The pivot language's articles of one document aligned with the other languages'
    of another, keeping what the pair's ``review`` fixed: the units (marked with the
    promulgating ``decree``'s number, if the translation is a decree), and the beads by
    language paired with the pivot."""
    pivot = settings.pivot_language
    articles = {pivot: english.get(pivot, []),
                **{language: found for language, found in other.items() if language != pivot}}
    sentences = align_sentences(
        pair_articles(articles, pivot), encoder_for(settings).encode, align_params(settings),
        flag_below=settings.flag_below, second_pass=settings.align_second_pass, review=review)
    return units_of(pair_id, sentences, articles, None, pivot, decree), sentences


def pair_documents(english: Path, other: Path, settings: Settings,
                   part: tuple[int, int] | None = None) -> tuple[list[ExportUnit], list[str]]:
    """Align an English document with its translation kept in another one (``gazette pair``).

    Both files go through ingest, repair, language split and structure, writing nothing;
    the pivot language's articles of ``english`` (of its sentences ``part`` only, if
    given: :func:`part_articles`) are paired with the other languages' articles of
    ``other``, then their sentences are aligned. Returns the units, as ``gazette run``
    exports them, and the languages paired with the pivot. Raises :class:`InputError`
    if ``english`` has no text in the pivot language.
    """
    pivot = settings.pivot_language
    english_text, english_sections, english_articles = read_structure(english, settings)
    other_text, _, other_articles = read_structure(other, settings)
    if not english_articles.get(pivot):
        raise InputError(f"no {pivot} text found in {english}")
    if part is not None:
        english_articles = part_articles(
            english_articles, [b for section in english_sections for b in section.blocks],
            english_text.text, part, pivot)
    units, sentences = align_across(f"{english.stem}+{other.stem}", english_articles,
                                    other_articles, settings, decree_number(other_text.text))
    return units, list(sentences)


def match_files(files: Sequence[Path], settings: Settings
                ) -> tuple[list[Pairing], list[Match], list[str]]:
    """The pairs among files given by hand (``gazette match``), decided as a run decides
    them: the pairs, every match scored, and the files left out (in several languages,
    or holding no text)."""
    pivot = settings.pivot_language
    digests: list[Digest] = []
    sentences: dict[str, list[str]] = {}
    identities: dict[str, Any] = {}
    left_out = []
    for file in files:
        cleaned, sections, articles = read_structure(file, settings)
        language = document_language(language_shares(sections), pivot)
        found = document_sentences(articles, language) if language else []
        if not found or language is None:
            left_out.append(str(file))
            continue
        digests.append(digest(str(file), language, found))
        sentences[str(file)] = found
        identities[str(file)] = identity_of(cleaned.text)
    taken, scored = _translations([d for d in digests if d.language == pivot],
                                  [d for d in digests if d.language != pivot],
                                  sentences.__getitem__, settings)
    return ([Pairing.of(m, identity_evidence(identities[m.english], identities[m.other]))
             for m in taken], scored, left_out)
