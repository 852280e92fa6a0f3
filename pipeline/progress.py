"""Progress of long work, told to whoever listens: the run catalog, for `gazette status`;
and whether the process doing it still runs (:func:`process_alive`).

Work that takes a while (reading a PDF's pages) calls :func:`report` as it goes; the
code that runs a stage for a document listens for that document
(:meth:`pipeline.project.catalog.Catalog.stage` does). Without a listener a report does nothing,
so the stage code does not need to know who asks.

>>> seen = []
>>> with listening(lambda done, total: seen.append(f"{done}/{total}")):
...     report(1, 3)
>>> report(2, 3)  # nobody listens now
>>> seen
['1/3']
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["Listener", "listening", "process_alive", "report"]

#: Told the units of work done so far, and how many there are in all.
Listener = Callable[[int, int], None]

_LISTENER: ContextVar[Listener | None] = ContextVar("gazette_progress", default=None)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Send the reports made in this context (this thread, this task) to ``listener``."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


def report(done: int, total: int) -> None:
    """Tell the listener, if any, that ``done`` of ``total`` units are done."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(done, total)


def process_alive(pid: int, host: str) -> bool | None:
    """Whether the process ``pid`` on ``host`` still runs: True or False on this machine,
    None for a process on another one (it cannot be asked from here).

    >>> process_alive(os.getpid(), socket.gethostname()), process_alive(1, "elsewhere")
    (True, None)
    """
    if host != socket.gethostname():
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: it exists
    return True
