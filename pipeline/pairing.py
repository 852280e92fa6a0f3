"""Find which documents hold the same treaty in different languages.

A treaty's English text and its translation often arrive as separate documents: the
English text dropped into the inbox, the Portuguese one inside a decree. Each document
says which treaty it holds (:func:`pipeline.treaties.treaty_in`); the parties, named
in the document's language (``BRASIL`` / ``SUÉCIA``, ``BRAZIL`` / ``SWEDEN``,
``BRASILIEN`` / ``SVERIGE``), become country codes through the Unicode CLDR names of
every territory in each language (Babel), so they compare across languages
(``{BR, SE}``). Two documents are a pair when their parties are the same countries and
one of them is English; :func:`find_pairs` says so with its evidence.

A gazette or a bulletin published in two languages is known by its issue instead: its
number and date, as each edition prints them (``No. 59`` / ``संख्या 59``, ``Saturday,
February 1, 2020`` / ``शनिवार, 1 फरवरी, 2020``): :func:`find_issue_pairs`. A party whose
name is no country's (``REPÚBLICA DA COREIA``: CLDR knows ``Coreia do Sul``) pairs
nothing: better no pair than a wrong one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from pipeline.language import without_accents
from pipeline.treaties import MONTHS, Treaty, iso_date, treaty_in

__all__ = ["Issue", "Pairing", "country_code", "find_document_pairs", "find_issue_pairs",
           "find_pairs", "identity_from_json", "identity_json", "identity_of", "issue_of"]

#: Languages whose country names are known (Babel locales).
LANGUAGES = ("pt", "en", "sv", "hi")

#: Instruments by what they are, whatever the language names them.
_INSTRUMENTS = {"protocolo": "protocol", "protocol": "protocol", "protokoll": "protocol",
                "convenção": "convention", "convention": "convention",
                "konvention": "convention", "acordo": "agreement", "agreement": "agreement",
                "avtal": "agreement", "tratado": "treaty", "treaty": "treaty"}


@dataclass(frozen=True)
class Pairing:
    """Two documents found to hold the same treaty, English first."""

    english: str
    other: str
    countries: tuple[str, ...]
    #: What agrees: "parties", "instrument", "signature date".
    evidence: tuple[str, ...]
    #: 1.0 when parties, instrument and signature date (where both give them) agree,
    #: less for each that is missing.
    confidence: float


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


def find_pairs(treaties: Sequence[tuple[str, Treaty | None]]) -> list[Pairing]:
    """Pairs of documents (by name) holding the same treaty: each English document with,
    per other language, the document that agrees best (the first named on a tie); a
    translation pairs with one English document at most."""
    known = [(name, treaty, _countries(treaty)) for name, treaty in treaties
             if treaty is not None]
    known = [(name, treaty, countries) for name, treaty, countries in known
             if len(countries) >= 2]
    pairs: list[Pairing] = []
    taken: set[str] = set()
    for name, treaty, countries in known:
        if treaty.language != "en":
            continue
        best: dict[str, Pairing] = {}
        for other, other_treaty, other_countries in known:
            if other_treaty.language == "en" or other in taken or other_countries != countries:
                continue
            pairing = _pairing(name, treaty, other, other_treaty, countries)
            held = best.get(other_treaty.language)
            if held is None or pairing.confidence > held.confidence:
                best[other_treaty.language] = pairing
        pairs.extend(best.values())
        taken.update(pairing.other for pairing in best.values())
    return pairs


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


def find_issue_pairs(issues: Sequence[tuple[str, Issue | None]]) -> list[Pairing]:
    """Pairs of documents (by name) that are the same issue in English and in another
    language: the same number and date."""
    english = [(name, issue) for name, issue in issues if issue and issue.language == "en"]
    pairs = []
    for name, issue in english:
        pairs += [Pairing(name, other, (), ("issue number", "date"), 1.0)
                  for other, found in issues
                  if found is not None and found.language != "en"
                  and (found.number, found.date) == (issue.number, issue.date)]
    return pairs


def find_document_pairs(documents: Sequence[tuple[str, Treaty | None, Issue | None]]
                        ) -> list[Pairing]:
    """Pairs among documents given as (name, the treaty it holds, the issue it is): by
    treaty (:func:`find_pairs`), and, for documents that hold none, by issue
    (:func:`find_issue_pairs`). :func:`identity_of` gives both for a text."""
    return (find_pairs([(name, treaty) for name, treaty, _ in documents])
            + find_issue_pairs([(name, None if treaty else issue)
                                for name, treaty, issue in documents]))


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


def _pairing(english: str, treaty: Treaty, other: str, other_treaty: Treaty,
             countries: frozenset[str]) -> Pairing:
    evidence = ["parties"]
    checks = 1
    kinds = {_INSTRUMENTS.get(t.instrument.lower()) for t in (treaty, other_treaty)}
    if None not in kinds:
        checks += 1
        if len(kinds) == 1:
            evidence.append("instrument")
    if treaty.signed_on and other_treaty.signed_on:
        checks += 1
        if treaty.signed_on == other_treaty.signed_on:
            evidence.append("signature date")
    return Pairing(english, other, tuple(sorted(countries)), tuple(evidence),
                   round(len(evidence) / checks, 3))


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
