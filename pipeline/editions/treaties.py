"""Recognise treaties: the decrees that promulgate them and the treaty texts themselves.

Two things announce a treaty in a gazette:

* a decree's summary (*ementa*) under its heading::

      DECRETO Nº 12.863, DE 2 DE MARÇO DE 2026
      Promulga o Protocolo alterando a Convenção entre a República Federativa do
      Brasil e a República do Chile Destinada a Evitar a Dupla Tributação ..., firmado
      em Santiago, em 3 de março de 2022.

* the treaty's own title, in capitals, in any of its languages::

      PROTOCOL AMENDING THE CONVENTION BETWEEN BRAZIL AND SWEDEN FOR THE AVOIDANCE ...
      PROTOKOLL OM ÄNDRING I SKATTEAVTALET MELLAN BRASILIEN OCH SVERIGE FÖR ...

* else its preamble, where the parties name themselves::

      The Government of the Federative Republic of Brazil and the Government of Japan,
      Desiring to modify and supplement the "Convention between ...

:func:`treaty_in` reads both from an act's text (or a whole pre-cut document's) and
returns what it found: the instrument, the title, the parties as printed, where and
when it was signed, and the decree that promulgates it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.editions.acts import Act, find_acts
from pipeline.records import Page

__all__ = ["MONTHS", "Treaty", "act_treaties", "iso_date", "parties_of", "treaties_in",
           "treaty_in", "treaty_titles"]

#: Month names, January first, per language (dates in decrees, gazettes, bulletins).
MONTHS = {
    "en": ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december"),
    "pt": ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
           "setembro", "outubro", "novembro", "dezembro"),
    "hi": ("जनवरी", "फरवरी", "मार्च", "अप्रैल", "मई", "जून", "जुलाई", "अगस्त", "सितंबर",
           "अक्टूबर", "नवंबर", "दिसंबर"),
}

#: Instrument words that open a treaty's title, and the word that introduces its
#: parties, per language.
TITLES = {
    "pt": (r"PROTOCOLO|CONVENÇÃO|ACORDO|TRATADO|MEMORANDO", "ENTRE", r"E"),
    "en": (r"PROTOCOL|CONVENTION|AGREEMENT|TREATY|MEMORANDUM", "BETWEEN", r"AND"),
    "sv": (r"PROTOKOLL|AVTAL|KONVENTION|ÖVERENSKOMMELSE", "MELLAN", r"OCH"),
}

#: What a party's name ends at: the treaty's purpose or a comma.
_PURPOSE = re.compile(
    r"\s+(DESTINAD[AO]|PARA|RELATIV[AO]|SOBRE|COM VISTAS|FOR|WITH|ON|CONCERNING|FÖR|OM|"
    r"BETRÄFFANDE|ANGÅENDE)\b|,|\.|\(")

#: Words in front of a party's name (its government, its form of state).
_PARTY_PREFIX = re.compile(
    r"^((O|A|OS|AS|THE)\s+)?((GOVERNO|GOVERNMENT)\s+(D[AOE]S?|OF)\s+)?((A|O|THE)\s+)?"
    r"((REPÚBLICA\s+FEDERATIVA|REPÚBLICA|REINO|FEDERATIVE\s+REPUBLIC|PEOPLE[’']S\s+REPUBLIC|"
    r"REPUBLIC|KINGDOM|"
    r"ESTADO|STATE)\s+(D[AOE]S?|OF)\s+)?((A|O|THE)\s+)?", re.IGNORECASE)

#: A bilateral treaty's opening words: the two governments, then what they desire.
_PREAMBLE = re.compile(
    r"(?:(The\s+Government\s+of)|O\s+Governo\s+d[aoe]s?)\s[^,\n]{3,120}?\s(?:and|e)\s+"
    r"(?:the\s+Government\s+of|o\s+Governo\s+d[aoe]s?)\s[^,\n]{2,120}?,?\s*\n?\s*"
    r"(?=Desiring|Desirous|Wishing|Considering|Desejando|Desejosos|Considerando)")

_DECREE = re.compile(r"DECRETO\s+N[º°o]\s*-?\s*([\d.]+),?\s+DE\s+(\d{1,2})º?\s+DE\s+"
                     r"([A-ZÇ]+)\s+DE\s+(\d{4})")
_PROMULGATES = re.compile(
    r"Promulga\s+(?:o|a)\s+((?:Protocolo|Convenção|Acordo|Tratado|Memorando|Emenda|Ajuste)"
    r"\b.*?)(?:,\s*(?:firmad|assinad|celebrad)[oa]s?\s+em\s+([^,]+),\s+em\s+(\d{1,2})º?\s+de\s+"
    r"(\w+)\s+de\s+(\d{4})|\.\s)", re.DOTALL)


@dataclass(frozen=True)
class Treaty:
    """A treaty an act promulgates or prints."""

    #: "Protocolo", "Convenção", "Protocol", … (as the title names it).
    instrument: str
    title: str
    #: The parties as printed, government and form of state left out
    #: (``("BRASIL", "CHILE")``, ``("BRAZIL", "SWEDEN")``).
    parties: tuple[str, ...]
    #: Language of the title the parties come from.
    language: str
    signed_at: str | None = None
    #: ISO date.
    signed_on: str | None = None
    #: The promulgating decree: its number and ISO date.
    decree: str | None = None
    decree_on: str | None = None


def treaty_titles(text: str) -> list[tuple[str, str]]:
    """Treaty titles in capitals in ``text``, with their language, in order: titles that
    open with an instrument and name parties, on a line of their own or after a
    sentence or an annex's heading (not ``EXTRATO DO ACORDO … ENTRE A UNIÃO E …``, a
    domestic agreement's notice).

    >>> treaty_titles("PROTOCOL AMENDING THE CONVENTION BETWEEN BRAZIL AND SWEDEN FOR "
    ...               "THE AVOIDANCE OF DOUBLE TAXATION The Government of Brazil ...")
    ... # doctest: +NORMALIZE_WHITESPACE
    [('en', 'PROTOCOL AMENDING THE CONVENTION BETWEEN BRAZIL AND SWEDEN
             FOR THE AVOIDANCE OF DOUBLE TAXATION')]
    """
    found = []
    for language, (instrument, between, _) in TITLES.items():
        pattern = re.compile(rf"(?<![^\s])(?:{instrument})\b[^a-zà-ÿ]*?\b{between}\b[^a-zà-ÿ]*")
        for match in pattern.finditer(text):
            if not _opens(text[:match.start()]):
                continue
            title = _capitals_only(match.group(0).strip())
            found.append((match.start(), language, title))
    return [(language, title) for _, language, title in sorted(found)]


def parties_of(title: str, language: str) -> tuple[str, ...]:
    """The parties a treaty title names.

    >>> parties_of("PROTOCOLO ALTERANDO A CONVENÇÃO ENTRE O GOVERNO DA REPÚBLICA "
    ...            "FEDERATIVA DO BRASIL E O GOVERNO DA REPÚBLICA DA ÍNDIA DESTINADA A", "pt")
    ('BRASIL', 'ÍNDIA')
    >>> parties_of("SKATTEAVTALET MELLAN BRASILIEN OCH SVERIGE FÖR UNDVIKANDE", "sv")
    ('BRASILIEN', 'SVERIGE')
    """
    _, between, conjunction = TITLES[language]
    after = re.split(rf"\b{between}\b", title, maxsplit=1, flags=re.IGNORECASE)
    if len(after) < 2:
        return ()
    names = _PURPOSE.split(after[1], maxsplit=1)[0]
    parties = re.split(rf"\s+{conjunction}\s+", names.strip(), flags=re.IGNORECASE)
    cleaned = tuple(_PARTY_PREFIX.sub("", party).strip() for party in parties)
    return tuple(party for party in cleaned if party)


def treaty_in(text: str) -> Treaty | None:
    """The treaty ``text`` (an act, or a pre-cut decree) promulgates or prints, if any.

    A decree's summary (``Promulga o Protocolo …``) is read first: it gives the title in
    the gazette's language, the place and date of signature and the decree; otherwise
    the first treaty title in capitals that names its parties.
    """
    promulgates = _PROMULGATES.search(text[:4000])
    if promulgates is not None:
        title = " ".join(promulgates.group(1).split())
        decree = _DECREE.search(text[:promulgates.start()])
        place, day, month, year = promulgates.group(2, 3, 4, 5)
        return Treaty(
            instrument=title.split()[0], title=title,
            parties=parties_of(title.upper(), "pt"), language="pt",
            signed_at=" ".join(place.split()) if place else None,
            signed_on=iso_date(day, month, year) if place else None,
            decree=decree.group(1) if decree else None,
            decree_on=iso_date(*decree.group(2, 3, 4)) if decree else None)
    for language, title in treaty_titles(text):
        parties = parties_of(title, language)
        if len(parties) >= 2:
            return Treaty(instrument=title.split()[0].capitalize(), title=title,
                          parties=parties, language=language)
    preamble = _PREAMBLE.search(text[:4000])
    if preamble is not None:
        language = "en" if preamble.group(1) else "pt"
        between = TITLES[language][1]
        parties = parties_of(f"{between} {' '.join(preamble.group(0).split()).upper()},",
                             language)
        if len(parties) == 2:
            names = "|".join(instrument for instrument, _, _ in TITLES.values())
            instrument = re.match(rf"\s*({names})\b", text, re.IGNORECASE)
            return Treaty(instrument=instrument.group(1).capitalize() if instrument else "",
                          title="", parties=parties, language=language)
    return None


def _opens(before: str) -> bool:
    """A title may start after ``before``: at a line's start, after a sentence, or
    after an annex's heading."""
    line = before.rsplit("\n", 1)[-1].rstrip()
    return not line or line.endswith((".", ";", ":")) or bool(
        re.search(r"\b(ANNEXURE|ANNEX|ANEXO|BILAGA)$", line))


def _capitals_only(run: str) -> str:
    """The title in a run that may end with the first capitalised word of the text
    after it (``… SOBRE A RENDA O`` before ``Governo da República``), without what
    follows it (``, CELEBRADA EM NOVA DELHI …``, ``SIGNED AT …``)."""
    run = re.split(r",?\s+(?:CELEBRAD|ASSINAD|FIRMAD|SIGNED|DONE|UNDERTECKNA)", run)[0]
    words = run.split()
    while words and len(words) > 3 and not re.search(r"[A-ZÀ-Þ]{2}", words[-1]):
        words.pop()
    if words and len(words[-1]) == 1 and words[-1] in {"O", "A", "E", "THE"}:
        words.pop()
    return " ".join(words).rstrip(" ,")


def iso_date(day: str, month: str, year: str, language: str = "pt") -> str | None:
    """A date from its day, month name and year (None if the month is no month).

    >>> iso_date("3", "Março", "2022"), iso_date("1", "फरवरी", "2020", "hi")
    ('2022-03-03', '2020-02-01')
    """
    months = MONTHS[language]
    if month.lower() not in months:
        return None
    return f"{int(year):04d}-{months.index(month.lower()) + 1:02d}-{int(day):02d}"


def act_treaties(pages: Sequence[Page]) -> list[tuple[Act, Treaty | None]]:
    """The acts of a document's pages (:func:`pipeline.editions.acts.find_acts`), each with the
    treaty it promulgates or prints, if any."""
    return [(act, treaty_in(act.text)) for act in find_acts(pages)]


def treaties_in(pages: Sequence[Page]) -> list[tuple[str, Treaty]]:
    """The treaties a document holds, each with the heading of its act: per act of an
    edition, or the whole text (heading "") for a document with no act heading."""
    found = act_treaties(pages)
    if not found:
        whole = treaty_in("\n\n".join(page.text for page in pages))
        return [] if whole is None else [("", whole)]
    return [(act.heading, treaty) for act, treaty in found if treaty is not None]
