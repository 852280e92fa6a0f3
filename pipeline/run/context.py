"""The context of one document's work: what each stage needs besides its input.

Made once per document and handed to every stage, as OCRmyPDF hands a ``PageContext``
to each step of a page: the stages read the settings, write to the staging folders
and apply the review decisions from here, never from a second argument.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.config import Settings
from pipeline.editions.cut import ActDocument
from pipeline.project.decisions import Review, resolve
from pipeline.project.store import DocumentOutput
from pipeline.records import Source

__all__ = ["DocumentContext"]


@dataclass(frozen=True)
class DocumentContext:
    """One document (or one act of an edition) being processed."""

    #: The inbox file (for an act: its edition's file, under the act's document id).
    source: Source
    #: The project's settings.
    settings: Settings
    #: The document's staging folders, published when its stages are done.
    out: DocumentOutput
    #: The reviewers' decisions for this document (empty without a decisions file).
    review: Review
    #: For an act of an edition: where in the edition it is; None for a document.
    act: ActDocument | None = None

    @classmethod
    def of(cls, source: Source, settings: Settings, act: ActDocument | None = None
           ) -> DocumentContext:
        """The context of ``source``: its staging folders (not made yet) and its review
        decisions, read now."""
        return cls(source, settings, DocumentOutput(settings, source.doc_id),
                   resolve(settings, source.doc_id), act)

    @property
    def doc_id(self) -> str:
        """The document's id: its outputs' folder name."""
        return self.source.doc_id
