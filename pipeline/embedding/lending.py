"""The run's encoders lent to its worker processes, over a local socket.

A worker of the run's pool that aligns an act would load the embedding model itself:
torch and the model cost each worker some 2–3 s of CPU and half a gigabyte of memory,
more than the alignment of a few acts. The run's process loads the model once (``gazette run`` does
so while Prefect's server starts) and answers its workers instead: a worker sends the
texts, the model folder and the cache it would use, and gets the vectors back, the
same the run's encoder gives it (cached there too).

The service starts once per process (:func:`lend`) on a Unix socket that only the
process's children can use (its multiprocessing key); a worker that is told its
address (:func:`borrow_from`) embeds through it (:class:`Borrowed`).
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Callable, Sequence
from multiprocessing.connection import Client, Connection, Listener
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from pipeline.errors import GazetteError

__all__ = ["Borrowed", "borrow_from", "lend", "lender"]

log = logging.getLogger(__name__)


class Encodes(Protocol):
    def encode(self, texts: Sequence[str], max_tokens: int | None = None) -> np.ndarray: ...


_SERVICE: str | None = None
_SERVICE_LOCK = threading.Lock()
#: In a worker: where the run's process lends its encoders (None: load the model here).
_LENDER: str | None = None


def lend(encoder_of: Callable[[Path, Path | None], Encodes]) -> str:
    """Start answering this process's children with ``encoder_of(model folder, cache)``
    (once per process; later calls give the same address), and return the address."""
    global _SERVICE
    with _SERVICE_LOCK:
        if _SERVICE is None:
            listener = Listener(family="AF_UNIX",
                                authkey=multiprocessing.current_process().authkey)
            threading.Thread(target=_accept, args=(listener, encoder_of), daemon=True,
                             name="gazette-encoder-lending").start()
            _SERVICE = str(listener.address)
        return _SERVICE


def borrow_from(address: str | None) -> None:
    """In a worker: embed through the encoders lent at ``address`` from now on (None:
    load the model in this process)."""
    global _LENDER
    _LENDER = address


def lender() -> str | None:
    """Where this process borrows its encoders, if it does (see :func:`borrow_from`)."""
    return _LENDER


class Borrowed:
    """An encoder whose model runs in the process that lends it: :meth:`encode` as
    :meth:`pipeline.embedding.encoder.Encoder.encode` there, with its model folder and
    cache. One connection, used by one thread at a time."""

    def __init__(self, address: str, model_dir: Path, cache: Path | None) -> None:
        self.address, self.model_dir, self.cache = address, model_dir, cache
        self._connection: Connection | None = None
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str], max_tokens: int | None = None) -> np.ndarray:
        with self._lock:
            try:
                if self._connection is None:
                    self._connection = Client(
                        self.address, authkey=multiprocessing.current_process().authkey)
                self._connection.send((self.model_dir, self.cache, list(texts), max_tokens))
                answered, value = self._connection.recv()
            except (OSError, EOFError) as exc:
                self._connection = None
                raise GazetteError(f"the run's process no longer lends its embedding model "
                                   f"({exc})") from exc
        if not answered:
            raise GazetteError(value)
        return np.asarray(value)


def _accept(listener: Listener, encoder_of: Callable[[Path, Path | None], Encodes]
            ) -> None:
    """Take each child's connection and answer it on a thread of its own."""
    while True:
        try:
            connection = listener.accept()
        except multiprocessing.AuthenticationError:
            continue  # not one of ours
        except OSError as exc:
            log.warning("the embedding model is no longer lent to workers: %s", exc)
            return
        threading.Thread(target=_answer, args=(connection, encoder_of), daemon=True,
                         name="gazette-encoder-lent").start()


def _answer(connection: Connection, encoder_of: Callable[[Path, Path | None], Encodes]
            ) -> None:
    """Embed what one worker asks, request by request, until it hangs up. An error's
    message is sent back, to be raised in the worker."""
    with connection:
        while True:
            try:
                model_dir, cache, texts, max_tokens = connection.recv()
            except (OSError, EOFError):
                return
            answer: tuple[bool, Any]
            try:
                answer = (True, encoder_of(model_dir, cache).encode(texts, max_tokens))
            except Exception as exc:  # the worker's act fails with this reason
                answer = (False, str(exc))
            connection.send(answer)
