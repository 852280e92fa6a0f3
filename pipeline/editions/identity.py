"""What identifies a document, and whether two documents' identities agree.

Which documents translate each other is decided by their content
(:mod:`pipeline.align.documents`); identity is the supporting evidence reported with a pair,
and what explains it to a reader. Each document says which treaty it holds
(:func:`pipeline.editions.treaties.treaty_in`); the parties, named in the document's language
(``BRASIL`` / ``SUÉCIA``, ``BRAZIL`` / ``SWEDEN``, ``BRASILIEN`` / ``SVERIGE``), become
country codes through the Unicode CLDR names of every territory in each language
(Babel), so they compare across languages (``{BR, SE}``), as the instrument and the
signature date do. A gazette or a bulletin published in two languages is known by its
issue instead: its number and date, as each edition prints them (``No. 59`` /
``संख्या 59``, ``Saturday, February 1, 2020`` / ``शनिवार, 1 फरवरी, 2020``).
:func:`identity_evidence` says what agrees. Identity is brittle — a multilateral
treaty names no parties in its title, OCR and legacy fonts garble numbers
(``सख्ं या 58``), a party may be no country CLDR knows (``REPÚBLICA DA COREIA``) — so it
never decides a pair.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from pipeline.editions.treaties import MONTHS, Treaty, iso_date, treaty_in
from pipeline.text.language import without_accents

__all__ = ["Identity", "Issue", "country_code", "identity_evidence", "identity_from_json",
           "identity_json", "identity_of", "issue_of"]

#: Languages whose country names are known (Babel locales).
LANGUAGES = ("pt", "en", "sv", "hi")

#: Instruments by what they are, whatever the language names them.
_INSTRUMENTS = {"protocolo": "protocol", "protocol": "protocol", "protokoll": "protocol",
                "convenção": "convention", "convention": "convention",
                "konvention": "convention", "acordo": "agreement", "agreement": "agreement",
                "avtal": "agreement", "tratado": "treaty", "treaty": "treaty"}


@dataclass(frozen=True)
class Identity:
    """What two documents' identities agree on."""

    #: "parties", "instrument", "signature date"; or "issue number", "date".
    agrees: tuple[str, ...] = ()
    #: The treaty's parties as country codes, when they agree.
    countries: tuple[str, ...] = ()


def country_code(name: str) -> str | None:
    """The ISO code of a country as a treaty names it, in any of :data:`LANGUAGES`.

    >>> country_code("SUÉCIA"), country_code("Sweden"), country_code("SVERIGE")
    ('SE', 'SE', 'SE')
    >>> country_code("PEOPLE’S REPUBLIC OF CHINA"), country_code("Atlantis")
    ('CN', None)
    """
    key = _key(name)
    names = _country_names()
    if key in names:
        return names[key]
    # the longest known name at the end of the party ("... REPUBLIC OF CHINA")
    words = key.split()
    for start in range(1, len(words)):
        tail = " ".join(words[start:])
        if tail in names:
            return names[tail]
    return None


@dataclass(frozen=True)
class Issue:
    """The number and date of a gazette's or bulletin's issue, in the edition's language."""

    number: str
    #: ISO date.
    date: str
    language: str


_ISSUE_NUMBER = re.compile(r"(?:\bNo\.|\bN[º°]|संख्या)\s*(\d{1,5})\b")


def issue_of(text: str) -> Issue | None:
    """The issue a document's first lines name: a number and a date in one language.

    >>> issue_of("BULLETIN – PART I\\nSaturday, February 1, 2020/Magha 12\\nNo. 59\\n")
    Issue(number='59', date='2020-02-01', language='en')
    >>> issue_of("समाचार भाग 1\\nशनिवार, 1 फरवरी, 2020/12 माघ\\nसंख्या 59\\n")
    Issue(number='59', date='2020-02-01', language='hi')
    """
    head = text[:1500]
    number = _ISSUE_NUMBER.search(head)
    if number is None:
        return None
    for language, months in MONTHS.items():
        names = "|".join(months)
        month_first = re.search(rf"\b({names})\s+(\d{{1,2}}),\s*(\d{{4}})", head,
                                re.IGNORECASE)
        day_first = re.search(rf"\b(\d{{1,2}})º?\s+(?:de\s+)?({names}),?\s+(?:de\s+)?(\d{{4}})",
                              head, re.IGNORECASE)
        if month_first is not None:
            month, day, year = month_first.groups()
        elif day_first is not None:
            day, month, year = day_first.groups()
        else:
            continue
        iso = iso_date(day, month, year, language)
        return Issue(number.group(1), iso, language) if iso else None
    return None


def identity_evidence(english: tuple[Treaty | None, Issue | None],
                      other: tuple[Treaty | None, Issue | None]) -> Identity:
    """What the identities of two documents (:func:`identity_of`) agree on: the
    treaty's parties as countries (then its instrument and signature date, where both
    give them), or, for documents holding no treaty, the issue's number and date.

    >>> brazil_sweden = Treaty("Protocol", "", ("BRAZIL", "SWEDEN"), "en",
    ...                        signed_on="1975-04-25")
    >>> identity_evidence((brazil_sweden, None), (Treaty("Protocolo", "", ("BRASIL",
    ...     "SUÉCIA"), "pt", signed_on="1975-04-25"), None))
    Identity(agrees=('parties', 'instrument', 'signature date'), countries=('BR', 'SE'))
    >>> identity_evidence((None, Issue("59", "2020-02-01", "en")),
    ...                   (None, Issue("58", "2020-02-01", "hi")))
    Identity(agrees=('date',), countries=())
    """
    (treaty, issue), (other_treaty, other_issue) = english, other
    if treaty is not None and other_treaty is not None:
        countries = _countries(treaty)
        if len(countries) < 2 or countries != _countries(other_treaty):
            return Identity()
        agrees = ["parties"]
        kinds = {_INSTRUMENTS.get(t.instrument.lower()) for t in (treaty, other_treaty)}
        if None not in kinds and len(kinds) == 1:
            agrees.append("instrument")
        if treaty.signed_on and treaty.signed_on == other_treaty.signed_on:
            agrees.append("signature date")
        return Identity(tuple(agrees), tuple(sorted(countries)))
    if issue is not None and other_issue is not None:
        return Identity(tuple(name for name, same in (
            ("issue number", issue.number == other_issue.number),
            ("date", issue.date == other_issue.date)) if same))
    return Identity()


def identity_of(text: str) -> tuple[Treaty | None, Issue | None]:
    """What pairs a document with its translation: the treaty it holds, else the issue
    of a gazette or bulletin it is."""
    treaty = treaty_in(text)
    return treaty, None if treaty else issue_of(text)


def identity_json(text: str) -> dict[str, Any]:
    """:func:`identity_of` as a manifest records it."""
    treaty, issue = identity_of(text)
    return {"treaty": treaty and asdict(treaty), "issue": issue and asdict(issue)}


def identity_from_json(data: dict[str, Any]) -> tuple[Treaty | None, Issue | None]:
    """The identity a manifest recorded (:func:`identity_json`)."""
    treaty, issue = data.get("treaty"), data.get("issue")
    return (None if treaty is None else Treaty(**treaty | {"parties": tuple(treaty["parties"])}),
            None if issue is None else Issue(**issue))


def _countries(treaty: Treaty) -> frozenset[str]:
    codes = {country_code(party) for party in treaty.parties}
    return frozenset(code for code in codes if code) if None not in codes else frozenset()


def _key(name: str) -> str:
    """A name compared without case, accents or punctuation."""
    plain = without_accents(name.casefold())
    return " ".join(re.sub(r"[^\w\s]", " ", plain).split())


@cache
def _country_names() -> dict[str, str]:
    """Every country's name in every language of :data:`LANGUAGES` → its code."""
    from babel import Locale

    names: dict[str, str] = {}
    for language in LANGUAGES:
        for code, name in Locale(language).territories.items():
            if code.isalpha() and len(code) == 2:  # countries, not regions ("001")
                names.setdefault(_key(name), code)
    return names
