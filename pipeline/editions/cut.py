"""A gazette edition cut into its acts, each act a document of its own.

The decision is made here, once per document, on its pages as read: a document is an
edition when :func:`pipeline.editions.acts.find_acts` finds at least :data:`MIN_ACTS`
acts in it, by their headings' shape and place. A gazette's masthead it knows (the
Diário Oficial da União's ``ISSN 1677-7042`` running head, or its title line) is
reported, not required: another gazette's edition (a state's Diário Oficial) is cut
as well. Anything else — a decree cut out by hand, a treaty text, a bulletin, news —
stays one document: it holds one act heading at most (none in the EU decisions, NTREX
news and Indian and Swedish PDFs of ``../shared``; one in a decree).

Each act becomes an :class:`~pipeline.records.IngestedDocument` of its own — its span
of each page it is printed on — with an id made of the edition's and the act's
(``DOUS1a--portaria-563``), and goes through repair and the later stages as any
document does. The cut comes before repair, not after, because repair joins hard-wrapped
lines and drops running heads: the lines an act is recognised by (its heading, the
ministry's banner over a ``.``) would be gone. Each act's repairs are then its own,
logged against its own pages.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass, replace
from functools import cached_property
from typing import Any

from pipeline.editions.acts import NUMBER_SIGN, Act, find_acts, running_lines
from pipeline.editions.treaties import treaty_in
from pipeline.records import IngestedDocument, Page
from pipeline.text.language import without_accents

__all__ = ["MIN_ACTS", "ActDocument", "Cut", "act_pages", "act_slugs", "cut_edition"]

#: The fewest acts a document must hold to be cut: a page or two of an edition
#: printed around one decree is still that decree.
MIN_ACTS = 3

#: A gazette's masthead that the log names: the DOU's ISSN (its sections are
#: 1677-7042, -7050, -7069) as its running head prints it, or its title on a line of
#: its own.
_MASTHEAD = re.compile(r"^\s*(\d+\s+)?ISSN 1677-70\d\d\b|^\s*DI[ÁA]RIO OFICIAL DA UNI[ÃA]O\s*$",
                       re.MULTILINE)


@dataclass(frozen=True)
class ActDocument:
    """One act of an edition: what it is and its pages, ready for repair."""

    #: The edition's document id.
    edition: str
    act: Act
    #: The act's pages, with the source they are from (the edition's file, under the
    #: act's document id).
    document: IngestedDocument
    #: The shapes of the edition's running heads and footers
    #: (:func:`pipeline.editions.acts.running_lines`): an act of a page or two does not
    #: repeat them often enough for its repair to find them, and they would stay in
    #: its text, a head run into the sentence it interrupts.
    running: frozenset[str] = frozenset()

    @property
    def doc_id(self) -> str:
        return self.document.source.doc_id

    @cached_property
    def provenance(self) -> dict[str, Any]:
        """Where the act comes from, as its manifest and ``acts.jsonl`` record it (found
        once: the cut writes it, the act's manifest repeats it)."""
        treaty = treaty_in(self.act.text)
        return {"doc_id": self.doc_id, "edition": self.edition, "kind": self.act.kind,
                "heading": self.act.heading, "bodies": list(self.act.bodies),
                "pages": [self.act.first_page, self.act.last_page],
                "start": self.act.start, "end": self.act.end,
                "treaty": None if treaty is None else asdict(treaty)}


@dataclass(frozen=True)
class Cut:
    """What the cut decided for one document: its acts (none: it stays one document)
    and why, for the log."""

    acts: tuple[ActDocument, ...]
    reason: str


def cut_edition(document: IngestedDocument) -> Cut:
    """Cut ``document`` into its acts if it is an edition (see the module's docstring)."""
    masthead = next((m.group().strip() for page in document.pages
                     for m in [_MASTHEAD.search(page.text)] if m), None)
    acts = find_acts(document.pages)
    if len(acts) < MIN_ACTS:
        under = f" under masthead {masthead!r}" if masthead else ""
        return Cut((), f"{len(acts)} act(s) found{under}, fewer than {MIN_ACTS}: one document")
    known = f"masthead {masthead!r}" if masthead else "no masthead known"
    edition = document.source.doc_id
    running = running_lines(document.pages)
    return Cut(tuple(
        ActDocument(edition, act, IngestedDocument(
            replace(document.source, doc_id=f"{edition}--{slug}"), act_pages(document, act)),
            running)
        for slug, act in zip(act_slugs(acts), acts, strict=True)),
        f"an edition ({known}): cut into {len(acts)} acts")


#: An act's number in its heading: after its sign (``Nº 2506/2014``), or with none before
#: the comma and the date (``CONVÊNIO ICMS 127, DE 29 DE SETEMBRO DE 2017``).
_NUMBER = re.compile(rf"{NUMBER_SIGN}(\d[\d./]*\d|\d)|\s(\d[\d.]*\d|\d)(?=,\s+DE\s+\d)")


def act_slugs(acts: list[Act]) -> list[str]:
    """Each act's part of its document id: its kind and number, else its kind and
    first page; a second act of the same name gets ``-2`` (then ``-3``, …).

    >>> from pipeline.editions.acts import Act
    >>> acts = [Act("portaria", "PORTARIA Nº 563, DE 30 DE SETEMBRO DE 2014", (), 1, 1, 0, 1, ""),
    ...         Act("acórdão", "ACÓRDÃO Nº 2506/2014 - TCU - Plenário", (), 2, 2, 1, 2, ""),
    ...         Act("retificação", "RETIFICAÇÃO", (), 3, 3, 2, 3, ""),
    ...         Act("portaria", "PORTARIA No- 563, DE 1º DE OUTUBRO DE 2014", (), 4, 4, 3, 4, "")]
    >>> act_slugs(acts)
    ['portaria-563', 'acordao-2506-2014', 'retificacao-p3', 'portaria-563-2']
    >>> act_slugs([Act("decreto", "DECRETO N?2 8.385, DE 30 DE SETEMBRO", (), 1, 1, 0, 1, ""),
    ...            Act("convênio", "CONVÊNIO ICMS 127, DE 29 DE SETEMBRO", (), 1, 1, 0, 1, "")])
    ['decreto-8385', 'convenio-127']
    """
    seen: Counter[str] = Counter()
    slugs = []
    for act in acts:
        kind = without_accents(act.kind).replace(" ", "-")
        number = _NUMBER.search(act.heading)
        slug = (f"{kind}-{(number.group(1) or number.group(2)).replace('.', '').replace('/', '-')}"
                if number else f"{kind}-p{act.first_page}")
        seen[slug] += 1
        slugs.append(slug if seen[slug] == 1 else f"{slug}-{seen[slug]}")
    return slugs


def act_pages(edition: IngestedDocument, act: Act) -> tuple[Page, ...]:
    """The act's span of the edition's pages: the part of each page it covers (pages
    between, even empty ones, whole). Joined as a document's text, they are
    ``act.text``.
    """
    pages: list[Page] = []
    base = 0
    for page in edition.pages:
        start, end = max(act.start - base, 0), min(act.end - base, len(page.text))
        if page.text and start < end:
            pages.append(replace(page, text=page.text[start:end]))
        elif not page.text and pages and base < act.end:
            pages.append(page)  # an empty page inside the act
        if page.text:
            base += len(page.text) + 2
    return tuple(pages)
