"""Embed sentences with the built model, caching vectors by text hash.

The model folder is made by :mod:`pipeline.embedding.build` at set-up time; a
missing or damaged folder gives a :class:`~pipeline.errors.GazetteError` naming the
set-up command. Vectors are L2-normalized float32 rows; the e5 ``query: `` prefix is
applied as the folder's ``query`` prompt. Loading happens on first use, never on import.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from pipeline import workers
from pipeline.config import Settings
from pipeline.embedding.build import verify
from pipeline.embedding.lending import Borrowed, lend, lender
from pipeline.embedding.model import SentenceModel

__all__ = ["BATCH_SIZE", "Encoder", "embedding_cache", "encoder_for", "encoder_here",
           "lend_to_workers"]

log = logging.getLogger(__name__)

#: Texts embedded at a time (sorted by length first): 16
#: embedded a treaty's sentences 20–28 % faster than 32 on 2 cores, padding less; a
#: text's vector moves by at most an ulp with the size (6e-8 measured).
BATCH_SIZE = 16
#: Held while a thread opens its connection to a cache (see ``Encoder._connection``).
_OPENING = threading.Lock()


class Encoder:
    """Sentence embeddings from a sentence-transformers folder, with an optional cache.

    ``cache`` is an SQLite file mapping SHA-1(token cut, text) to a vector, so a
    re-run embeds only texts it has not seen. Safe to share between threads: each
    thread has its own connection to the cache, and one thread at a time embeds.
    """

    def __init__(self, model_dir: Path, cache: Path | None = None,
                 batch_size: int = BATCH_SIZE,
                 threads: int | None = None, max_tokens: int = 128) -> None:
        self.model_dir = model_dir
        self.batch_size = batch_size
        #: Texts are cut to this many tokens: enough to tell a sentence's translation
        #: from its neighbours, and it bounds the cost of very long legal sentences.
        self.max_tokens = max_tokens
        self.threads = threads
        self._model: SentenceModel | None = None
        self._cache_path = cache
        self._local = threading.local()
        self._lock = threading.RLock()
        self._loading: threading.Thread | None = None
        self._starting = threading.Lock()

    @property
    def model(self) -> SentenceModel:
        """The model (:class:`~pipeline.embedding.model.SentenceModel`), loaded on
        first use."""
        with self._lock:
            return self._load()

    def load_in_background(self) -> threading.Thread:
        """Load the model on a thread of its own, once (a later call gets the same
        thread), for a process that will embed later and has other work now (a run
        that has found an English text, which pairing embeds at its end: importing
        torch takes 3 s of CPU). A failure is left for the first :meth:`encode` to
        raise, where it is handled."""
        def load() -> None:
            try:
                with self._lock:
                    self._load()
            except Exception:  # encode raises it again, where it is handled
                log.debug("loading the model ahead failed", exc_info=True)

        with self._starting:
            if self._loading is None:
                self._loading = threading.Thread(target=load, name="load-embedding-model",
                                                 daemon=True)
                self._loading.start()
            return self._loading

    def finish_loading(self) -> None:
        """Wait for the load :meth:`load_in_background` started, if it did: a process
        that ends while torch is imported on a thread is cut off half-way."""
        with self._starting:
            loading = self._loading
        if loading is not None:
            loading.join()

    def _load(self) -> SentenceModel:
        if self._model is None:
            verify(self.model_dir)
            # torch's threads sleep between steps rather than spin: in the run's
            # process they embed for its workers while those work on both cores, and
            # spinning took 2 s of their CPU on a 70-page edition (the same vectors;
            # read as OpenMP starts, so before torch is imported)
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            import torch

            # one thread in a worker of the run's pool: each worker has a core already
            threads = self.threads or (1 if workers.in_worker() else None)
            if threads:
                torch.set_num_threads(threads)
            log.info("loading embedding model from %s", self.model_dir)
            self._model = SentenceModel(self.model_dir)
        return self._model

    def encode(self, texts: Sequence[str], max_tokens: int | None = None) -> np.ndarray:
        """Vectors for ``texts``: an ``(n, 384)`` float32 array of unit rows; each text
        cut to ``max_tokens`` tokens (default: the encoder's), which the cache keys on."""
        tokens = max_tokens or self.max_tokens
        keys = [hashlib.sha1(f"e5q{tokens}:{text}".encode()).hexdigest() for text in texts]
        found = self._cached(keys)
        missing = sorted({key: text for key, text in zip(keys, texts, strict=True)
                          if key not in found}.items())
        if missing:
            with self._lock:
                vectors = self.model.encode([text for _, text in missing], prompt="query",
                                            max_tokens=tokens, batch_size=self.batch_size)
            new = {key: vector for (key, _), vector in zip(missing, vectors, strict=True)}
            self._store(new)
            found.update(new)
        if not texts:
            return np.zeros((0, 384), np.float32)
        return np.stack([found[key] for key in keys])

    def _connection(self) -> sqlite3.Connection | None:
        if self._cache_path is None:
            return None
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            self._cache_path.parent.mkdir(parents=True, exist_ok=True)
            # One thread at a time: a new file's first connections, each switching it
            # to WAL, would each hold a shared lock and want an exclusive one, and
            # SQLite fails one of them at once ("database is locked") rather than wait.
            with _OPENING:
                db = sqlite3.connect(self._cache_path, timeout=30)
                # the run's workers write to it side by side, a commit per document
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, "
                           "vector BLOB NOT NULL)")
            self._local.db = db
        return db

    def _cached(self, keys: list[str]) -> dict[str, np.ndarray]:
        db = self._connection()
        if db is None or not keys:
            return {}
        found = {}
        unique = list(dict.fromkeys(keys))
        for start in range(0, len(unique), 500):
            chunk = unique[start:start + 500]
            rows = db.execute(f"SELECT key, vector FROM vectors WHERE key IN "
                              f"({','.join('?' * len(chunk))})", chunk)
            found.update({key: np.frombuffer(blob, np.float32) for key, blob in rows})
        return found

    def _store(self, vectors: dict[str, np.ndarray]) -> None:
        db = self._connection()
        if db is None:
            return
        with db:
            db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)",
                           [(key, vector.tobytes()) for key, vector in vectors.items()])


def encoder_for(settings: Settings) -> Encoder | Borrowed:
    """The run's encoder: one per model and cache, so the model loads once; in a worker
    that borrows the run's encoders (:mod:`pipeline.embedding.lending`), that one."""
    address = lender()
    if address is not None and workers.in_worker():
        return _borrowed(address, settings.model_dir, embedding_cache(settings))
    return encoder_here(settings)


def encoder_here(settings: Settings) -> Encoder:
    """The encoder whose model runs in this process (one per model and cache)."""
    return _encoder(settings.model_dir, embedding_cache(settings))


def lend_to_workers() -> str:
    """Lend this process's encoders to the workers it starts (see
    :mod:`pipeline.embedding.lending`); the address to give them."""
    return lend(_encoder)


def embedding_cache(settings: Settings) -> Path:
    """Where vectors are cached: ``.gazette/embeddings.sqlite`` on one machine; with a
    PostgreSQL catalog (machines sharing the project folder, perhaps over NFS, where
    SQLite's locks do not hold), a cache of this machine's beside its model, one per
    project: ``<model dir>/../embeddings/<project digest>.sqlite``."""
    if settings.catalog_url is None:
        return settings.state / "embeddings.sqlite"
    project = hashlib.sha1(str(settings.state.resolve()).encode()).hexdigest()[:12]
    return settings.model_dir.parent / "embeddings" / f"{project}.sqlite"


@cache
def _encoder(model_dir: Path, cache_file: Path | None) -> Encoder:
    return Encoder(model_dir, cache=cache_file)


@cache
def _borrowed(address: str, model_dir: Path, cache_file: Path) -> Borrowed:
    return Borrowed(address, model_dir, cache_file)
