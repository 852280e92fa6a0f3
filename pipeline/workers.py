"""The run's worker processes: one pool for all the CPU work of a run.

Pages are read on them (:mod:`pipeline.read.pdfread`) and the acts of an edition go
through their stages on them (:mod:`pipeline.run.document`), so both cores work on
Python, which one process runs on one core at a time. The pool starts on first use
and is shared by every document of the run; a worker that dies breaks the pool
(``BrokenProcessPool``), and the next use starts a new one.

Each worker knows it is one (:func:`in_worker`): it embeds through the run's process
where that lends its model (:mod:`pipeline.embedding.lending`), else the model runs on
one thread in it, as each worker already has a core of its own. A worker whose run has
died (killed: its pool is gone with it) knows that too (:func:`orphaned`), and writes
nothing more.
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

__all__ = ["Here", "end_now", "in_worker", "orphaned", "pool", "running", "shutdown"]

T = TypeVar("T")

_POOL: tuple[int, Executor] | None = None
_LOCK = threading.Lock()
#: In a worker: the process id of the run it works for.
_PARENT: int | None = None


def _started() -> None:
    global _PARENT
    _PARENT = os.getppid()
    # A worker ends when its pool shuts it down, the run waiting for it: without the
    # interpreter's teardown, which took 0.6 s at a run's end. This handler runs after
    # those of the modules its work imported, and ends the process before the others.
    atexit.register(end_now, 0)


def end_now(code: int) -> None:
    """End this process with exit code ``code`` now, its logs and output flushed,
    without the interpreter's teardown: freeing every object one by one took 2.5 s
    in a process that loaded torch and Prefect, 0.6 s in one that read pages. Called
    as its last exit handler, once the others have run."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(code)


def in_worker() -> bool:
    """Whether this process is one of a pool's workers."""
    return _PARENT is not None


def orphaned() -> bool:
    """Whether this process is a worker whose run has ended under it (its parent is gone:
    another process has adopted it)."""
    return _PARENT is not None and os.getppid() != _PARENT


def pool(workers: int) -> Executor:
    """The run's pool of ``workers`` workers, started on first use and shared by all
    documents.

    Worker processes (started fresh, not forked from a process that runs threads), or
    threads inside a process that may not have children (a daemonic Dask worker, which
    is a worker of its own cluster already).
    """
    global _POOL
    with _LOCK:
        if _POOL is None or _POOL[0] != workers:
            if _POOL is not None:
                _POOL[1].shutdown()
            executor: Executor
            if multiprocessing.current_process().daemon:
                executor = ThreadPoolExecutor(max_workers=workers)
            else:
                executor = ProcessPoolExecutor(
                    max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_started)
            _POOL = (workers, executor)
        return _POOL[1]


def running() -> bool:
    """Whether the pool is started."""
    with _LOCK:
        return _POOL is not None


def shutdown() -> None:
    """Stop the workers (a later use starts new ones)."""
    global _POOL
    with _LOCK:
        if _POOL is not None:
            _POOL[1].shutdown()
            _POOL = None


class Here(Executor):
    """Work done in this process, each call as it is submitted."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # the caller sees it as a worker's failure
            future.set_exception(exc)
        return future
