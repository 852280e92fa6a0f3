"""Progress of long work, told to whoever listens: the run catalog, for `gazette status`.

Work that takes a while (reading a PDF's pages) calls :func:`report` as it goes; the
code that runs a stage for a document listens for that document
(:meth:`pipeline.catalog.Catalog.stage` does). Without a listener a report does nothing,
so the stage code does not need to know who asks.

>>> seen = []
>>> with listening(lambda done, total: seen.append(f"{done}/{total}")):
...     report(1, 3)
>>> report(2, 3)  # nobody listens now
>>> seen
['1/3']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["Listener", "listening", "report"]

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
