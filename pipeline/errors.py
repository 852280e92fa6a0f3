"""Errors the library raises; each says what went wrong and what to do about it."""

from __future__ import annotations

__all__ = ["BusyError", "GazetteError", "InputError", "LockLostError", "ToolMissingError"]


class GazetteError(Exception):
    """Base class: a message and, where there is one, a remedy for the user."""

    def __init__(self, message: str, remedy: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.remedy = remedy

    def __str__(self) -> str:
        return f"{self.message} ({self.remedy})" if self.remedy else self.message


class InputError(GazetteError):
    """A source document cannot be read: broken, encrypted, or of an unknown kind."""


class ToolMissingError(GazetteError):
    """An external program (Tesseract) or its data is not installed."""


class BusyError(GazetteError):
    """Another gazette process is working on the same project folder."""


class LockLostError(GazetteError):
    """The project lock was lost under a run (its database connection ended) and could
    not be taken again: the run stops before writing more."""
