"""Cut a gazette edition into its acts.

An edition of the Diário Oficial da União (Seção 1) is a run of a few hundred acts,
each printed the same way: the issuing bodies in capitals, outermost first (the
ministry is a banner of its own, in title case over a line holding only "."), then
the act's heading, then its text, then the signature::

    Ministério da Educação
    .
    SECRETARIA DE REGULAÇÃO E SUPERVISÃO DA EDUCAÇÃO SUPERIOR
    PORTARIA Nº 563, DE 30 DE SETEMBRO DE 2014
    A SECRETÁRIA DE REGULAÇÃO E SUPERVISÃO DA EDUCAÇÃO SUPERIOR, no uso ...
    MARTA WENDEL ABRAMO
    PORTARIA Nº 564, DE 30 DE SETEMBRO DE 2014

An act starts at a heading line: a line in capitals (or in capitals up to the act's
number, ``ACÓRDÃO Nº 2506/2014 - TCU - Plenário``) that begins with the name of a
kind of act (:data:`KINDS`) and goes on as headings do — a number (``Nº 564``), a
date (``DE 30 DE SETEMBRO``), an issuer (``DESPACHO DO MINISTRO``), a qualifier
(``PORTARIA INTERMINISTERIAL Nº 954,``), the issuer's initials before the
number (``PORTARIA GM/MS Nº 2.500``) or nothing (``RETIFICAÇÕES``); a line that
names its kind again before its number quotes another act. The list is a hint: a
word it lacks names a kind when the line has a whole heading's shape — a number and
a full date, a date alone, a number carrying its year (``ARESTO Nº 994, DE 27 DE
SETEMBRO DE 2017``, ``ARESTO Nº 63/2017 - TM``) — or with the line below, its date
or number (``PROVIMENTOS DO CORREGEDOR`` / ``Em 27 de setembro de 2017``); such a
numbered line inside an act of another kind heads a list of it (``RELAÇÃO Nº
75/2014`` in a despacho). A heading line straight
after another belongs to the same act (``DESPACHOS DA PRESIDENTA DA REPÚBLICA`` /
``MENSAGEM``), unless the first is a plural with no number over a numbered heading:
then it is a group heading and an issuing body (``ATOS DO PODER EXECUTIVO`` /
``DECRETO Nº 9.123``). A plural heading (``PORTARIAS DE 29 DE SETEMBRO DE
2014``) is one act: the edition prints it under one signature. The capitals above a
heading name its issuing bodies; an act printed with none has the bodies of the act
before it (the edition names a body once for a run of its acts).

:func:`find_acts` is one pass over the lines: linear in the edition's length.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from pipeline.records import Page
from pipeline.repair.rules import line_shape, repeated_lines

__all__ = ["KINDS", "NUMBER_SIGN", "Act", "find_acts", "heading_kind", "running_lines"]

#: Kinds of act as their headings name them (singular and plural), → the kind's name.
KINDS = {
    "ACÓRDÃO": "acórdão", "ACÓRDÃOS": "acórdão", "ALVARÁ": "alvará", "ALVARÁS": "alvará",
    "APOSTILA": "apostila", "APOSTILAS": "apostila", "ATA": "ata", "ATO": "ato",
    "ATOS": "ato", "AVISO": "aviso", "AVISOS": "aviso", "CIRCULAR": "circular",
    "COMUNICADO": "comunicado", "CONSULTA": "consulta pública", "DECISÃO": "decisão",
    "DECISÕES": "decisão", "DECLARAÇÃO": "declaração", "DECRETO": "decreto",
    "DECRETOS": "decreto", "DELIBERAÇÃO": "deliberação", "DELIBERAÇÕES": "deliberação",
    "DESPACHO": "despacho", "DESPACHOS": "despacho", "EDITAL": "edital",
    "EDITAIS": "edital", "EMENDA": "emenda constitucional", "EXTRATO": "extrato",
    "EXTRATOS": "extrato", "INSTRUÇÃO": "instrução normativa",
    "INSTRUÇÕES": "instrução normativa", "LEI": "lei", "MEDIDA": "medida provisória",
    "MENSAGEM": "mensagem", "ORDEM": "ordem de serviço", "PARECER": "parecer",
    "PAUTA": "pauta", "PORTARIA": "portaria", "PORTARIAS": "portaria",
    "RESOLUÇÃO": "resolução", "RESOLUÇÕES": "resolução", "RETIFICAÇÃO": "retificação",
    "RETIFICAÇÕES": "retificação", "SÚMULA": "súmula", "SOLUÇÃO": "solução de consulta",
}

#: The number sign before an act's number as editions print it and OCR reads it, by
#: its shape: an ``N`` and up to three other characters, one of them no letter, before
#: a space and the number (``Nº``, ``No-``, ``N?2 8.385``, ``Ne? 8.385``: however OCR
#: misreads the sign; not ``NEXO 5``), or glued to it or spaced out (``Nº564``, ``N o-
#: 1.875``, ``N.º``, ``N?``), or ``N`` alone (a lost sign).
NUMBER_SIGN = (r"N(?:(?=\S{0,2}[^\sA-Za-zÀ-ÿ])\S{1,3}(?=\s+\d)"
               r"|\s*\.?\s*(?:[º°oª*]|\?2?|2(?=\s+\d))?\s*-?)\s*")

#: The issuer's initials that some headings print between the kind and the number
#: (``PORTARIA MF Nº 430``, ``PORTARIA GM/MS Nº 2.500``, ``INSTRUÇÃO NORMATIVA RFB Nº
#: 1.740``): capitals, marks of two or more joined by slashes.
_ISSUER_MARK = r"[A-Z]{2,}(?:/[A-Z]{2,})*"

#: What may follow the kind's name on a heading line: a number, a date, an issuer, a
#: qualifier in capitals, or nothing.
_HEADING_REST = re.compile(
    r"""^(
        $                                   # RETIFICAÇÕES
      | \s*-\s*[A-Z]{2,}\b                  # RESOLUÇÃO-RDC Nº 54
      | \s*""" + NUMBER_SIGN + r"""\d      # Nº 564, N o- 1.875, N?2 8.385
      | \s+""" + _ISSUER_MARK + r"""\s+""" + NUMBER_SIGN + r"""\d  # PORTARIA GM/MS Nº 2.500
      | \s+\d[\d.]*,\s+DE\s+\d              # LEI 13.487, DE 6 DE OUTUBRO: a number, no sign
      | \s+(DE|EM)\s+\d                     # PORTARIAS DE 29 DE SETEMBRO
      | \s+(DO|DA|DOS|DAS)\s+\S             # DESPACHO DO MINISTRO
      | \s+DE\s+[A-ZÁÉÍÓÚÂÊÔÃÕÇ]{3,}\b         # EXTRATO DE PARECER
      | \s+[A-ZÁÉÍÓÚÂÊÔÃÕÇ]{3,}\b            # PORTARIA INTERMINISTERIAL, EXTRATO DE PARECER
    )""", re.VERBOSE)

#: A kind's name never seen, and perhaps a qualifier or two and the issuer's initials,
#: in capitals (``ARESTO``, ``RECOMENDAÇÃO CONJUNTA``, ``EXTRATO DE CONTRATO``,
#: ``PROVIMENTO DECLARATÓRIO EXECUTIVO``, ``ARESTO MF``).
_UNSEEN_KIND = (r"[A-ZÁÉÍÓÚÂÊÔÃÕÇ]{4,}(?:\s+(?:D[EOA]S?\s+)?[A-ZÁÉÍÓÚÂÊÔÃÕÇ]{3,}){0,2}"
                rf"(?:\s+{_ISSUER_MARK})?")
#: An act's number, perhaps with its issuer's mark: ``994``, ``63-2017``, ``1.643/GC3``.
_UNSEEN_NUMBER = rf"{NUMBER_SIGN}\d[\d./-]*[A-Z\d]*"
#: A date in full, in capitals: ``DE 27 DE SETEMBRO DE 2017`` (its last ``DE`` may be
#: left out: ``DE 26 DE SETEMBRO 2014``; the first of a month is ``1º``, or ``1°``).
_FULL_DATE = r"DE\s+\d{1,2}[º°]?\s+DE\s+[A-ZÇ]+\s+(?:DE\s+)?\d{4}"
#: A line that ends with a full date.
_ENDS_WITH_A_DATE = re.compile(rf"{_FULL_DATE}\s*$")
#: A heading whose kind no word of :data:`KINDS` names, known by its shape alone: the
#: kind, then a number and a full date (``ARESTO Nº 994, DE 27 DE SETEMBRO DE 2017``,
#: perhaps marked for a note: ``(*)``; the number may have no sign before its comma:
#: ``CONVÊNIO ICMS 127, DE 29 DE SETEMBRO DE 2017``), a full date alone
#: (``PROVIMENTOS DE 27 DE SETEMBRO DE 2017``), or a number that carries its year, alone
#: or before its issuer (``ARESTO Nº 63-2017``, ``PROVIMENTO Nº 25/2017 - CGJ -
#: Plenário``; inside an act of another kind, such a line heads a list of it:
#: :func:`_listed_in`).
_UNSEEN_HEADING = re.compile(
    rf"{_UNSEEN_KIND}\s*(?:(?:{_UNSEEN_NUMBER},?\s+|\d[\d.]*,\s+|\s){_FULL_DATE}(?:\s*\(?\*\)?)?"
    rf"|{NUMBER_SIGN}\d[\d.]*[/-](?:19|20)\d\d(?:\s*-\s*[A-Z]{{2,}}\b.*)?)\s*$")
#: The same, its date on the next line (``ARESTO Nº 994,`` / ``DE 27 DE SETEMBRO DE
#: 2017``), or its issuer named where a date or a number would be, the date or the
#: number on the next line (``PROVIMENTOS DO CORREGEDOR-GERAL`` / ``Em 27 de
#: setembro de 2017``, or ``Nº 12 - …``).
_UNSEEN_OVER_ITS_DATE = re.compile(
    rf"{_UNSEEN_KIND}\s*(?:{_UNSEEN_NUMBER},?|\s+(?:DO|DA|DOS|DAS)(?:\s+[A-ZÁÉÍÓÚÂÊÔÃÕÇ-]+)+)"
    r"\s*$")
#: A line that dates or numbers the act whose heading is above it.
_DATE_OR_NUMBER_LINE = re.compile(
    rf"(?:{_FULL_DATE}|Em\s+\d{{1,2}}[º°]?\s+de\s+[a-zç]+\s+de\s+\d{{4}}|{NUMBER_SIGN}\d[\d./]*\s+-)")
#: A kind's name alone on its line, its number and date on the next.
_UNSEEN_KIND_ALONE = re.compile(rf"{_UNSEEN_KIND}\s*")
#: Where a heading's number starts: its sign, else its first figure.
_NUMBER_OR_FIGURE = re.compile(rf"{NUMBER_SIGN}\d|\d")
#: A line that gives the number and date of the act whose kind is named above it, alone
#: (``ATO DECLARATÓRIO EXECUTIVO`` / ``Nº 155, DE 30 DE SETEMBRO DE 2014``).
_NUMBER_AND_DATE_LINE = re.compile(rf"{_UNSEEN_NUMBER},?\s+{_FULL_DATE}\s*$")
#: A kind's number: ``Nº 2506/2014``, ``No- 2.304``.
_NUMBERED = re.compile(rf"\s*{NUMBER_SIGN}\d[\d./]*")
#: What may follow a number in a heading in mixed case: the year, the issuer, a date —
#: not a sentence (``ACÓRDÃO Nº 2.315/2012-P, no sentido de que …``).
_NUMBER_TAIL = re.compile(r"(\s*-\s*[A-Z]{2,}\b.*|,?\s+DE\s+\d.*|\s*)$")

#: An ordinal before a body's name: ``3ª`` of ``3ª CÂMARA``.
_ORDINAL = r"\d+[ºª]\s+"
#: Words that name an issuing body (the capitals above a heading that are not the
#: last act's signature start with one of them, perhaps after an ordinal: ``3ª CÂMARA``).
_BODY_WORDS = re.compile(
    rf"(?:{_ORDINAL})?\b(MINIST[ÉE]RIO|SECRETARIA|AG[ÊE]NCIA|SUPERINTEND[ÊE]NCIA|GABINETE|DEPARTAMENTO|"
    r"INSTITUTO|CONSELHO|COORDENA[ÇC][ÃA]O|DIVIS[ÃA]O|DIRETORIA|UNIVERSIDADE|FUNDA[ÇC][ÃA]O|"
    r"COMANDO|TRIBUNAL|PR[ÓO]-REITORIA|CASA CIVIL|ADVOCACIA|PROCURADORIA|PLEN[ÁA]RIO|"
    r"GER[ÊE]NCIA|SUPREMO|COMISS[ÃA]O|C[ÂA]MARA|SERVI[ÇC]O|BANCO|CENTRO|DELEGACIA|"
    r"ASSESSORIA|CORREGEDORIA|OUVIDORIA|AUDITORIA|SUBSECRETARIA|ESCOLA|HOSPITAL|"
    r"EMPRESA|COMPANHIA|JUSTI[ÇC]A|POL[ÍI]CIA|EX[ÉE]RCITO|MARINHA|AERON[ÁA]UTICA|REITORIA|"
    r"PRESID[ÊE]NCIA|PODER)\b")

#: Bodies printed in capitals that head a branch of state, under no banner.
_TOP_LEVEL = re.compile(r"(PRESID[ÊE]NCIA|PODER)\b")

#: How the banners over a ministry's or a branch's acts begin.
_BANNER = re.compile(r"(Minist[ée]rio|Presid[êe]ncia|Atos|Conselho|Tribunal|Poder|Entidades|"
                     r"Defensoria|Advocacia|Controladoria|Secretaria|Banco|Senado|C[âa]mara)\b")

#: Lines a page carries whatever acts it holds: running heads and footers.
_RUNNING = re.compile(
    r"^((\d+ )?ISSN \d{4}-\d{3}[\dX]|N[º°]\s*\d+, \w+-feira|Este documento pode ser verificado|"
    r"pelo c[óo]digo \d{10,}|\d{1,4}$)")


@dataclass(frozen=True)
class Act:
    """One act of an edition: its heading, issuing bodies and where it is printed."""

    kind: str
    #: The heading as printed (a heading broken over two lines is joined by a space).
    heading: str
    #: Issuing bodies, outermost first (``("Ministério da Educação", "GABINETE DO
    #: MINISTRO")``); empty if the edition names none before it.
    bodies: tuple[str, ...]
    first_page: int
    last_page: int
    #: Where the act is in the edition's text (its pages joined by a blank line, as
    #: :attr:`CleanedDocument.text`): from its first line (bodies, else heading) to
    #: the end of its last.
    start: int
    end: int
    #: The act's text: that span of the edition's (running heads between its pages
    #: included).
    text: str


class _Line(NamedTuple):
    text: str
    page: int
    #: Where the line (stripped) starts and ends in the edition's text.
    start: int
    end: int


@dataclass
class _Draft:
    kind: str
    heading: list[str]
    bodies: tuple[str, ...]
    #: The heading's page.
    first_page: int
    lines: list[_Line]
    #: Still in its heading: no line of text seen yet.
    open: bool = True
    #: Its bodies are the act before it's (the edition named none above it).
    inherited: bool = False
    #: The ranks of the bodies of a series the edition has named up to this act
    #: (``DELEGACIA``, ``ALFÂNDEGA``): a line in capitals of such a rank names a body.
    series: frozenset[str] = frozenset()

    def done(self, text: str) -> Act:
        start, end = self.lines[0].start, self.lines[-1].end
        return Act(self.kind, " ".join(self.heading), self.bodies, self.first_page,
                   self.lines[-1].page, start, end, text[start:end])


def heading_kind(line: str, after: str = "") -> str | None:
    """The kind of act ``line`` is the heading of (``after``: the line below it), or None.

    >>> heading_kind("PORTARIA Nº 564, DE 30 DE SETEMBRO DE 2014")
    'portaria'
    >>> heading_kind("DESPACHOS DO MINISTRO"), heading_kind("RETIFICAÇÕES")
    ('despacho', 'retificação')
    >>> heading_kind("PORTARIAN o- 1.875, DE 30 DE SETEMBRO DE 2014")
    'portaria'
    >>> heading_kind("DECRETO N? 8.385, DE 30 DE SETEMBRO DE 2014")
    'decreto'
    >>> heading_kind("DECRETO N?2 8.385, DE 30 DE SETEMBRO DE 2014")
    'decreto'
    >>> heading_kind("DECRETO Ne? 8.385, DE 30 DE SETEMBRO DE 2014 Promulga a decisão")
    'decreto'
    >>> heading_kind("ACÓRDÃO Nº 2506/2014 - TCU - Plenário")
    'acórdão'
    >>> heading_kind("ACÓRDÃO Nº 2.315/2012-P, no sentido de que fossem") is None
    True
    >>> heading_kind("O MINISTRO DE ESTADO DA FAZENDA, no uso das atribuições") is None
    True
    >>> heading_kind("Portaria nº 12, de 3 de março de 2014, publicada") is None
    True

    A word :data:`KINDS` does not have names a kind if the whole line has a heading's
    shape: in capitals, a number and a full date.

    >>> heading_kind("ARESTO Nº 994, DE 27 DE SETEMBRO DE 2017")
    'aresto'
    >>> heading_kind("CONSIDERANDO O DISPOSTO NO DECRETO Nº 8.385, DE 30 DE SETEMBRO") is None
    True
    """
    line = unicodedata.normalize("NFC", line.strip())
    match = re.match(r"([A-ZÁÉÍÓÚÂÊÔÃÕÇ]+)", line)
    if match is None:
        return None
    word = match.group(1)
    if word not in KINDS and word.endswith("N") and word[:-1] in KINDS:
        word = word[:-1]  # "PORTARIAN o- 1.875": the number sign glued to the kind
    if word not in KINDS:  # a kind never seen: known by the whole shape of its heading
        return _unseen_kind(word, line, after)
    if not _HEADING_REST.match(line[len(word):]) or _quotes_its_kind(word, line, after):
        return None
    # in capitals throughout, or up to its number ("ACÓRDÃO Nº 2506/2014 - TCU - Plenário")
    numbered = _NUMBERED.match(line[len(word):])
    if not _mostly_capitals(line) and not (numbered and _mostly_capitals(
            line[:len(word) + numbered.end()]) and _NUMBER_TAIL.match(
            line[len(word) + numbered.end():])):
        return None
    return KINDS[word]


def _quotes_its_kind(word: str, line: str, after: str = "") -> bool:
    """``line`` names the kind ``word`` again before its number, or goes on into the
    line in capitals ``after`` it (:func:`_goes_on`) that does: it refers to another act of that
    kind, it heads none (``SOLUÇÃO DE CONSULTA VINCULADA À SOLUÇÃO DE CONSULTA COSIT Nº
    99.006``, a line of an act's text).

    >>> _quotes_its_kind("SOLUÇÃO", "SOLUÇÃO DE CONSULTA VINCULADA À SOLUÇÃO DE CONSULTA Nº 9")
    True
    >>> _quotes_its_kind("SOLUÇÃO", "SOLUÇÃO DE CONSULTA VINCULADA", "À SOLUÇÃO DE CONSULTA")
    True
    >>> _quotes_its_kind("PORTARIA", "PORTARIA Nº 564, DE 30 DE SETEMBRO DE 2014")
    False
    """
    if _mostly_capitals(after) and _goes_on(line, after):
        line = f"{line} {after}"
    number = re.search(rf"\s{NUMBER_SIGN}\d", line)
    before = line[len(word):number.start() if number else len(line)]
    return bool(re.search(rf"\b{word}\b", before))


def _goes_on(line: str, after: str) -> bool:
    """The line ``after`` goes on with what ``line`` says: it starts with a word that
    joins it to the line above (``SOLUÇÃO DE CONSULTA VINCULADA`` / ``À SOLUÇÃO DE
    CONSULTA COSIT Nº 99.006, …``), or ``line`` ends with one. Also how a body's name
    goes on over its lines (:func:`_names`).

    >>> _goes_on("SOLUÇÃO DE CONSULTA VINCULADA", "À SOLUÇÃO DE CONSULTA COSIT Nº 99.006")
    True
    >>> _goes_on("DESPACHOS DO MINISTRO", "Em 30 de setembro de 2014")
    False
    """
    return bool(_CONNECTIVE.search(line) or _GOES_ON.match(after))


def _unseen_kind(word: str, line: str, after: str) -> str | None:
    """The kind ``word``, which :data:`KINDS` does not have, if ``line`` has a heading's
    whole shape (:data:`_UNSEEN_HEADING`), or with the line ``after`` it
    (:data:`_UNSEEN_OVER_ITS_DATE`); None for a body's name (``SECRETARIA DA RECEITA``
    over ``Em 2 de outubro de 2017`` heads no act: the heading was lost).

    >>> _unseen_kind("PROVIMENTO", "PROVIMENTO Nº 364,", "DE 30 DE SETEMBRO DE 2014")
    'provimento'
    >>> _unseen_kind("PROVIMENTOS", "PROVIMENTOS DO CORREGEDOR-GERAL",
    ...              "Em 27 de setembro de 2017")
    'provimento'
    >>> _unseen_kind("PROVIMENTO", "PROVIMENTO Nº 2518/2014 - TCU - Plenário", "")
    'provimento'
    >>> _unseen_kind("ARESTO", "ARESTO Nº 1.643/GC3, DE 29 DE SETEMBRO DE 2014 (*)", "")
    'aresto'
    >>> _unseen_kind("ARESTO", "ARESTO Nº 595, DE 26 DE SETEMBRO 2014", "")
    'aresto'
    >>> _unseen_kind("PROCESSO", "PROCESSO Nº 48500.006919/2013-25", "") is None
    True

    A line that names a kind :data:`KINDS` has before its number, after a word that
    joins it to the words before (``DA``, ``DE``, ``À``: :data:`_CONNECTIVE`), quotes an
    act of that kind (an annex's title): it heads none. A kind's name straight after
    the first word qualifies it (``CARTA CIRCULAR``, the Banco Central's).

    >>> _unseen_kind("ANEXO", "ANEXO DA PORTARIA Nº 12, DE 3 DE MARÇO DE 2014", "") is None
    True
    >>> _unseen_kind("CARTA", "CARTA CIRCULAR Nº 3.838, DE 2 DE OUTUBRO DE 2017", "")
    'carta'
    """
    shaped = _UNSEEN_HEADING.match(line) or (
        _UNSEEN_OVER_ITS_DATE.match(line) and _DATE_OR_NUMBER_LINE.match(after)) or (
        _UNSEEN_KIND_ALONE.fullmatch(line) and _NUMBER_AND_DATE_LINE.match(after))
    if not shaped or _BODY_WORDS.match(line):
        return None
    before_its_number = _NUMBER_OR_FIGURE.split(line, maxsplit=1)[0].split()
    if any(word in KINDS and _CONNECTIVE.search(joining)
           for joining, word in itertools.pairwise(before_its_number)):
        return None
    return _misread_kind(word) or _singular(word.lower())


#: Portuguese plural endings and their singulars, longest first.
_PLURALS = (("ões", "ão"), ("ães", "ão"), ("ais", "al"), ("éis", "el"), ("ns", "m"),
            ("res", "r"), ("zes", "z"), ("s", ""))


def _singular(word: str) -> str:
    """A kind's name in the singular, as :data:`KINDS` names the kinds it knows.

    >>> _singular("provimentos"), _singular("relações"), _singular("aresto")
    ('provimento', 'relação', 'aresto')
    """
    for plural, singular in _PLURALS:
        if word.endswith(plural):
            return word[:-len(plural)] + singular
    return word


def _misread_kind(word: str) -> str | None:
    """The kind of :data:`KINDS` that ``word`` is with one letter misread (OCR's
    ``ABVARÁ`` for ``ALVARÁ``), for a word of five letters or more; None if none is.

    >>> _misread_kind("ABVARÁ"), _misread_kind("ARESTO")
    ('alvará', None)
    """
    near = [kind for name, kind in KINDS.items() if len(name) == len(word) >= 5
            and sum(a != b for a, b in zip(name, word, strict=True)) == 1]
    return near[0] if len(set(near)) == 1 else None


def find_acts(pages: Sequence[Page]) -> list[Act]:
    """The acts of an edition, in the order printed. Text before the first heading
    (the masthead, the table of contents) belongs to no act."""
    acts: list[_Draft] = []
    capitals: list[_Line] = []    # lines in capitals since the last act's text
    ministry = ""                 # the banner (ministry or branch) over the acts now
    fresh = False                 # a banner since the last heading
    recent: list[_Line] = []      # the last lines, for a banner printed over two
    lines = list(_lines(pages))
    for index, line in enumerate(lines):
        current = acts[-1] if acts else None
        kind = _heading_kind_at(lines, index, recent)
        if kind and current and recent and current.lines[-1:] == recent[-1:] \
                and _banner_without_its_dot(recent[-1].text):
            ministry, fresh, capitals = recent[-1].text, True, []
            del current.lines[-1]  # it heads the new act, not the end of the last
        banner = _banner(recent) if line.text == "." else []  # "Ministério da Defesa" / "."
        if banner and not _mostly_capitals(recent[-1].text):
            ministry, fresh, capitals = " ".join(b.text for b in banner), True, []
            if current is not None and current.lines[-len(banner):] == banner:
                del current.lines[-len(banner):]
        elif kind and current and (_listed_in(current, kind, line.text, capitals) or (
                not fresh and _item_of(current, kind, line.text, capitals))):
            # "DECISÃO LIMINAR" under "DECISÕES DE …", "RELAÇÃO Nº 75/2014" under "DESPACHO …"
            current.lines.append(line)
            current.open, capitals = False, []
        elif kind and current and current.open and not capitals \
                and _groups(current, line.text):
            acts[-1] = _grouped(current, kind, line)  # "ATOS DO PODER EXECUTIVO" / "DECRETO Nº 1"
        elif kind and current and current.open and not capitals:
            current.heading.append(line.text)  # a second heading line of the same act
            current.lines.append(line)
        elif kind and current and _repeats(current, line.text):
            current.heading = [line.text]  # the act's own heading under a title repeating it
            current.lines.append(line)
            current.open = True
        elif kind:
            acts.append(_new_act(kind, line, capitals, current, ministry, fresh))
            fresh, capitals = False, []
        else:
            if current is not None:
                if current.open and _continues_heading(" ".join(current.heading), line.text):
                    current.heading.append(line.text)
                else:
                    current.open = False
                current.lines.append(line)
            capitals = [*capitals, line] if _mostly_capitals(line.text) else []
        recent = [*recent[-2:], line]
    text = "\n\n".join(page.text for page in pages if page.text)
    return [draft.done(text) for draft in acts]


def _heading_kind_at(lines: list[_Line], index: int, recent: list[_Line]) -> str | None:
    """The kind of act ``lines[index]`` heads (``recent``: the lines before it), or None;
    None too for a capitalised phrase that a title or a sentence runs through."""
    line = lines[index]
    after = lines[index + 1].text if index + 1 < len(lines) else ""
    kind = heading_kind(line.text, after)
    if kind and _inside_a_sentence(
            recent[-1].text if recent else "", line.text, after,
            same_page=bool(recent) and recent[-1].page == line.page):
        return None
    return kind


def _new_act(kind: str, heading: _Line, capitals: list[_Line], current: _Draft | None,
             ministry: str, fresh: bool) -> _Draft:
    """The act ``heading`` starts. Of the lines in capitals above it, those that name
    bodies are its issuing bodies (taken off the end of the act before it), under the
    banner now in force — but a banner printed over earlier acts gives way to bodies
    that name a branch of state (``PRESIDÊNCIA DA REPÚBLICA``; a ministry in capitals
    is a body under its banner: ``MINISTÉRIO PÚBLICO DO TRABALHO``); with none, it has
    the bodies of the act before it, or after a new banner the banner's.

    Bodies printed over an act are those that change: under the same banner, a body
    of a series (:func:`_in_series`: ``3ª CÂMARA``, ``DELEGACIA … EM MANAUS``) of the
    same rank as one in force (``1ª CÂMARA``, known by its first word) takes its place
    under the bodies above it, which stay in force (``CONSELHO ADMINISTRATIVO DE
    RECURSOS FISCAIS`` / ``3ª SEÇÃO``). A body of a series is a body whatever
    :data:`_BODY_WORDS` holds (``2ª TURMA ORDINÁRIA``), and so is, from then on, any
    line of a rank the edition has named a series by (``ALFÂNDEGA … NO PORTO DE
    PARANAGUÁ``, its place on the next line).
    Bodies of one rank but no series (``SECRETARIA EXECUTIVA`` of a council, then
    ``SECRETARIA DA RECEITA FEDERAL DO BRASIL``) may stand at different levels."""
    in_force = current.bodies if current is not None and not fresh else ()
    ranks = [_rank(body) for body in in_force]  # the banner's, first, is no body's rank
    series = current.series if current is not None else frozenset()
    start = _first_body([c.text for c in capitals], series)
    found = _names([c.text for c in capitals[start:]])
    if current is not None and found:
        del current.lines[start - len(capitals):]
    inherited = current is not None and not found and not fresh
    under_banner = bool(ministry) and (fresh or not (found and _TOP_LEVEL.match(found[0])))
    bodies = (current.bodies if current is not None and inherited
              else (ministry,) * under_banner + tuple(found))
    rank = _rank(found[0]) if found else ""
    if found and _in_series(found[0]) and rank in ranks[1:]:
        level = len(ranks) - 1 - ranks[::-1].index(rank)
        bodies = (*in_force[:level], *found)
    return _Draft(kind, [heading.text], bodies, heading.page, [*capitals[start:], heading],
                  inherited=inherited,
                  series=series | {_rank(body) for body in found if _in_series(body)})


def _groups(act: _Draft, line: str) -> bool:
    """``act``, still in its heading, is no act but a group heading over the act that
    ``line`` heads: ``act``'s heading names a kind in the plural with no number
    (``ATOS DO PODER EXECUTIVO``), and ``line`` heads an act with a number of its own
    (``DECRETO Nº 9.123, DE 2 DE OUTUBRO DE 2017``). A heading line with no number
    under it goes on the same act's heading (``DESPACHOS DA PRESIDENTA DA REPÚBLICA``
    / ``MENSAGEM``)."""
    return (len(act.heading) == 1 and _act_number(act.heading[0]) == ""
            and _act_number(line) != "" and bool(re.match(r"[A-ZÁÉÍÓÚÂÊÔÃÕÇ]+S\b", act.heading[0])))


def _grouped(group: _Draft, kind: str, heading: _Line) -> _Draft:
    """The act ``heading`` starts under the group heading ``group``: the group is one of
    its issuing bodies, after the bodies printed above the group (those of the act
    before it are no longer in force)."""
    outer = () if group.inherited else group.bodies
    return _Draft(kind, [heading.text], (*outer, " ".join(group.heading)), heading.page,
                  [*group.lines, heading], series=group.series)


#: The first line of an act's body: the authority that acts, in capitals, then what it
#: does in lower case (``A MINISTRA DE ESTADO DO MEIO AMBIENTE, no uso``).
_OPENS_AN_ACT = re.compile(r"[A-ZÁÉÍÓÚÂÊÔÃÕÇ][A-ZÁÉÍÓÚÂÊÔÃÕÇ \-/]{5,},\s+[a-zà-ÿ]")
#: Words a line of a title in capitals ends with when the title goes on in the next.
_CONNECTIVE = re.compile(r"(?:\b(?:E|DE|DA|DO|DAS|DOS|EM|NA|NO|NAS|NOS|PARA|POR|COM|À|AO|"
                         r"AOS|A|O|OU|SOBRE|ENTRE|SEUS?|SUAS?)|[,-])$")
#: Words a line in capitals starts with when it goes on with the line above
#: (``À SOLUÇÃO DE CONSULTA``, ``DA GRANDE DOURADOS``); not ``O`` or ``A``, which
#: start an act's text (``O MINISTRO DE ESTADO``).
_GOES_ON = re.compile(r"(?:DA|DE|DO|DAS|DOS|E|À|AO|AOS|EM|NO|NA|NOS|NAS|PARA|COM|POR|SOBRE|"
                      r"ENTRE)\b")


def _inside_a_sentence(before: str, line: str, after: str, same_page: bool = True) -> bool:
    """``line`` looks like a heading but goes on a title or a sentence: the line above,
    in capitals, ends with a word that joins it to the next (``REGULAMENTO INTERNO
    PARA PREVENÇÃO E`` / ``RESOLUÇÃO DE LITÍGIOS``), or announces it on the same page
    (``Onde se lê:``: a retificação quoting an act's heading; an act cut off at a page's
    end is no announcement), or the line below runs on (:func:`_runs_on`).

    >>> _inside_a_sentence("REGULAMENTO INTERNO PARA PREVENÇÃO E", "RESOLUÇÃO DE LITÍGIOS",
    ...                    "Definições")
    True
    >>> _inside_a_sentence("Onde se lê:", "ACÓRDÃO Nº 5344/2014 - TCU - 1ª Câmara",
    ...                    "1. Processo TC 007.295/2010-3")
    True
    >>> _inside_a_sentence("LUÍS ADAMS", "PORTARIA Nº 360, DE 30 DE SETEMBRO DE 2014",
    ...                    "O ADVOGADO-GERAL DA UNIÃO, no uso das atri-")
    False

    A heading whole with its number and full date goes on no title that ends with a
    comma (a body's name with a comma OCR added).

    >>> _inside_a_sentence("UNIVERSIDADE FEDERAL DE ITAJUBÁ,",
    ...                    "PORTARIA Nº 1.501, DE 29 DE SETEMBRO DE 2014", "O Reitor, no uso")
    False

    A heading that an authority acting follows (in capitals, then what it does in lower
    case) opens an act whatever the line above says: a contract's empty ``TESTEMUNHAS:``
    whose lines OCR lost.

    >>> _inside_a_sentence("TESTEMUNHAS:", "PORTARIA Nº 361, DE 30 DE SETEMBRO DE 2014",
    ...                    "A MINISTRA DE ESTADO DO MEIO AMBIENTE, no uso")
    False
    """
    spaced = bool(re.fullmatch(r"(\S{1,2} )+\S{1,2}", before))  # "A E R O P O RT U Á R I A"
    continues_title = _mostly_capitals(before) and not spaced and bool(
        _CONNECTIVE.search(before)) and not (before.endswith(",")
                                             and _ENDS_WITH_A_DATE.search(line))
    announced = same_page and before.rstrip().endswith(":") and not _OPENS_AN_ACT.match(after)
    return continues_title or announced or _runs_on(line, after)


def _runs_on(line: str, after: str) -> bool:
    """The line ``after`` a heading-like ``line`` runs on in lower case (``DECLARAÇÃO DO
    FORNECEDOR`` / ``relativa a mercadorias …``). A letter alone is OCR's, the end of a
    word it cut off; and after a heading holding its full date, such a line is another
    column's, on a page OCR read across its columns (which may have run the other
    column's words into the heading's line too).

    >>> _runs_on("DECLARAÇÃO DO FORNECEDOR", "relativa a mercadorias importadas")
    True
    >>> _runs_on("PORTARIA Nº 568, DE 30 DE SETEMBRO DE 2014", "de 2 de março de 2012")
    False
    >>> _runs_on("PORTARIA Nº 429, DE 30 DE SETEMBRO DE 2014 39 4,7891", "cre => == GLUTY 6")
    False
    >>> _runs_on("PORTARIA Nº 569, DE 30 DE SETEMBR", "o")
    False
    """
    return (len(after) > 1 and after[0].islower() and not line.rstrip().endswith(("-", ","))
            and not re.search(_FULL_DATE, line))


def _item_of(act: _Draft, kind: str, line: str, capitals: list[_Line]) -> bool:
    """``line`` heads an item of ``act``, not an act: the bare name of the act's kind
    (``DECISÃO``, ``DECISÃO LIMINAR``: no number, date or issuer), with no new issuing
    body above it — the edition prints several decisions under one ``DECISÕES DE …``."""
    return act.kind == kind and bool(_BARE.fullmatch(line)) and not _bodies_above(capitals)


def _listed_in(act: _Draft, kind: str, line: str, capitals: list[_Line]) -> bool:
    """``line`` heads a list inside ``act``, not an act: a kind never seen with a
    number but no date (``RELAÇÃO Nº 75/2014``), under an act of another kind
    (``DESPACHO DO SUPERINTENDENTE``), with no signature straight above it (a line of
    two words or more in capitals, letters alone) and no new issuing body: the lines
    in capitals above it are the list's entries (``868.204/2010-CLAUDIO ROQUE
    MARTINS``, ``ERPM``)."""
    signed = bool(capitals) and _SIGNATURE.fullmatch(capitals[-1].text) is not None
    return (kind not in _KIND_NAMES and act.kind != kind and not re.search(_FULL_DATE, line)
            and not signed and not _bodies_above(capitals))


def _bodies_above(capitals: list[_Line]) -> list[str]:
    """The issuing bodies that the lines in capitals above a heading name
    (:func:`_first_body`, :func:`_names`); empty where they are a signature or a case's
    particulars only."""
    names = [c.text for c in capitals]
    return _names(names[_first_body(names):])


#: A signature's shape: two words or more of letters alone (``JOSÉ HENRIQUE PAIM``).
_SIGNATURE = re.compile(r"[^\W\d_](?:[^\W\d_]|[.'-])*(?:\s+[^\W\d_](?:[^\W\d_]|[.'-])*)+")
#: The kinds' names (:data:`KINDS`'s values).
_KIND_NAMES = frozenset(KINDS.values())
#: A kind's name alone, or with one qualifier (``DECISÃO LIMINAR``).
_BARE = re.compile(r"[A-ZÁÉÍÓÚÂÊÔÃÕÇ]+(\s+[A-ZÁÉÍÓÚÂÊÔÃÕÇ]+)?\s*")


def _repeats(act: _Draft, line: str) -> bool:
    """``line`` heads the same act as ``act``, whose few lines are a title over it (a
    web page's ``DECRETO Nº 12.863, DE 2 DE MARÇO DE 2026 (parte 1 de 2)`` and where it
    was published, then the decree's own heading)."""
    return len(act.lines) <= 3 and _act_number(act.heading[0]) == _act_number(line) != ""


def _act_number(heading: str) -> str:
    """The kind and number of a heading, spaces and number signs aside
    (``DECRETON12863``); empty if it has no number."""
    match = re.match(rf"([A-ZÁÉÍÓÚÂÊÔÃÕÇ]+)(?:\s+{_ISSUER_MARK})?{_NUMBERED.pattern}", heading)
    return re.sub(r"[\s.º°o-]", "", match.group(0)) if match else ""


def _banner(recent: list[_Line]) -> list[_Line]:
    """The lines of the banner that ends above a "." line: from the last of ``recent``
    that starts one (``Ministério do Desenvolvimento, Indústria`` / ``e Comércio
    Exterior``), else the line just above; none if that is no banner's shape, a name
    starting with a capital letter and ending with no stop (``i.programação e a
    execução orçamentária e financeira;``, an item of a list, over a stray ".")."""
    starts = [i for i, line in enumerate(recent) if _BANNER.match(line.text)]
    banner = recent[starts[-1]:] if starts else recent[-1:]
    named = bool(banner) and banner[0].text[:1].isupper()
    return banner if named and not _END_MARK.search(banner[-1].text) else []


#: A stop, comma or colon ending a line: a sentence's or a list's, no banner's.
_END_MARK = re.compile(r"[.,;:!?]$")


def _banner_without_its_dot(line: str) -> bool:
    """A banner straight over a heading, its "." line lost (OCR misses a dot alone on
    its line): a short line in title case starting as banners do, with no end mark.

    >>> _banner_without_its_dot("Atos do Poder Executivo")
    True
    >>> _banner_without_its_dot("Conselho Nacional de Saúde, nos termos do art. 5º:")
    False
    """
    return (bool(_BANNER.match(line)) and not _mostly_capitals(line)
            and len(line.split()) <= 8 and not _END_MARK.search(line))


def _lines(pages: Sequence[Page]) -> Iterator[_Line]:
    """Each page's lines, stripped, with where they are in the edition's text; blank
    lines and running heads and footers (:data:`_RUNNING`, :func:`running_lines`) left
    out. A page read by OCR has its specks taken out of the lines' text
    (:func:`_without_specks`; where they are stays as printed)."""
    recurring = running_lines(pages)
    base = 0
    for page in pages:
        if not page.text:
            continue
        for match in re.finditer(r"[^\n]+", page.text):
            stripped = match.group().strip()
            if stripped and not _RUNNING.match(stripped) \
                    and line_shape(stripped) not in recurring:
                start = base + match.start() + match.group().index(stripped[0])
                text = _without_specks(stripped) if page.method == "ocr" else stripped
                yield _Line(text, page.number, start, start + len(stripped))
        base += len(page.text) + 2


def running_lines(pages: Sequence[Page]) -> frozenset[str]:
    """The shapes of an edition's running heads and footers, whatever their wording:
    the lines its pages repeat at their top or bottom, as the repair stage finds them
    (:func:`pipeline.repair.rules.repeated_lines`), but not a line in capitals with no
    number (a signer of many acts signs at many pages' feet; a head in capitals has
    its page's number or date) nor an act's heading (its numbers taken for figures: an
    edition of acórdãos may start most pages with one).

    >>> bodies = ["O ato primeiro.", "Outro ato, segundo.", "Um terceiro ato."]
    >>> pages = [Page(n, "text-layer", "", f"DIÁRIO OFICIAL DO ESTADO - PÁGINA {n}\\n"
    ...                f"{body}\\nJOSÉ DA SILVA") for n, body in enumerate(bodies, 1)]
    >>> sorted(running_lines(pages))
    ['DIÁRIO OFICIAL DO ESTADO - PÁGINA #']
    """
    return frozenset(
        shape for shape in repeated_lines([page.text for page in pages if page.text])
        if not (_mostly_capitals(shape) and "#" not in shape)
        and heading_kind(shape.replace("#", "0")) is None)


#: A speck OCR reads before a line in capitals (``-ABVARÁ Nº 3.605``), or as a stop
#: after its first word, before the issuer (``DESPACHOS. DO CHEFE``). Quote marks are
#: the page's own (``"JESUS ME DEU"``, a ship's name).
_SPECK = re.compile(r"^[-–—.,_~|]{1,2}(?=[A-ZÁÉÍÓÚÂÊÔÃÕÇ]{2})"
                    r"|^([A-ZÁÉÍÓÚÂÊÔÃÕÇ]{3,})\.(?= (?:DO|DA|DOS|DAS|DE) [A-ZÁÉÍÓÚÂÊÔÃÕÇ])")


def _without_specks(line: str) -> str:
    """A line read by OCR without the specks it took for marks around capitals.

    >>> _without_specks("-ABVARÁ Nº 3.605, DE 24 DE SETEMBRO DE 2014")
    'ABVARÁ Nº 3.605, DE 24 DE SETEMBRO DE 2014'
    >>> _without_specks("DESPACHOS. DO CHEFE"), _without_specks("EMPRESA LTDA. DE SÃO PAULO")
    ('DESPACHOS DO CHEFE', 'EMPRESA LTDA. DE SÃO PAULO')
    """
    return _SPECK.sub(lambda match: match.group(1) or "", line)


def _mostly_capitals(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    return len(letters) >= 3 and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


def _continues_heading(heading: str, line: str) -> bool:
    """``line`` ends the date that ``heading`` (its lines so far) leaves unfinished, or
    gives the number and date of a heading that has only named its kind.

    >>> _continues_heading("PORTARIA INTERMINISTERIAL Nº 954,", "DE 30 DE SETEMBRO DE 2014")
    True
    >>> _continues_heading("ATO DECLARATÓRIO EXECUTIVO Nº 155, DE 30 DE", "SETEMBRO DE 2014")
    True
    >>> _continues_heading("ATO DECLARATÓRIO EXECUTIVO", "Nº 155, DE 30 DE SETEMBRO DE 2014")
    True
    >>> _continues_heading("PORTARIA Nº 12, DE 3 DE MARÇO DE 2014", "DE 30 DE SETEMBRO DE 2014")
    False
    """
    if not re.search(r"\d", heading) and _NUMBER_AND_DATE_LINE.match(line):
        return True
    return (not _ENDS_WITH_A_DATE.search(heading) and bool(re.fullmatch(r"[A-ZÇ\d º]+", line))
            and bool(_ENDS_WITH_A_DATE.search(f"{heading} {line}")))


def _rank(body: str) -> str:
    """A body's rank, its first word after any ordinal.

    >>> _rank("3ª CÂMARA"), _rank("DELEGACIA DA RECEITA FEDERAL DO BRASIL EM MACEIÓ")
    ('CÂMARA', 'DELEGACIA')
    """
    return re.sub(f"^{_ORDINAL}", "", body).split(" ", 1)[0]


def _in_series(body: str) -> bool:
    """Whether ``body`` is one of a series of its rank: numbered (``3ª CÂMARA``) or
    named for its region or place (``SUPERINTENDÊNCIA REGIONAL …``, ``DELEGACIA DA
    RECEITA FEDERAL DO BRASIL EM MACEIÓ``, ``NÚCLEO NO RIO DE JANEIRO``).

    >>> _in_series("2ª TURMA ORDINÁRIA"), _in_series("SECRETARIA EXECUTIVA")
    (True, False)
    """
    return bool(re.search(rf"^{_ORDINAL}|\s(?:EM|NO|NA|NOS|NAS)\s|\bREGIONA[LI]", body))


def _first_body(capitals: list[str], series: Collection[str] = ()) -> int:
    """Where the issuing bodies start among the capitals above a heading: at the first
    line that names a body — one that starts with a word of :data:`_BODY_WORDS` or
    with a rank the edition has named a series by (``series``), or a body of a series
    (:func:`_in_series`: ``INSPETORIA …`` / ``EM FOZ DO IGUAÇU``, the lines of its name
    as :func:`_names` joins them) — after the last line that
    names no body; the lines before it are the last act's signature, or the capitals
    its text ends with. A line names no body if it is labelled (``REQUERENTE:
    SINDICATO …``, ``ASSUNTO: …``: a case's particulars, which name bodies but are
    none) or has a number that is no ordinal (``RUA LAMBARI, 10, TÉRREO``: an address
    in a table's cell; ``DA 10ª REGIÃO FISCAL`` names a body). ``len(capitals)`` if no
    line names a body.

    >>> _first_body(["JOSÉ DA SILVA", "SECRETARIA EXECUTIVA"])
    1
    >>> _first_body(["UNIVERSIDADE SALGADO DE OLIVEIRA", "RUA LAMBARI, 10, TÉRREO"])
    2
    >>> _first_body(["FULANO DE TAL", "INSPETORIA DA RECEITA FEDERAL EM FOZ DO IGUAÇU"])
    1
    >>> _first_body(["FULANO DE TAL", "INSPETORIA DA RECEITA FEDERAL", "EM FOZ DO IGUAÇU"])
    1
    """
    particulars = max((i for i, line in enumerate(capitals)
                       if ":" in line or _FIGURE.search(line)), default=-1)
    return next((i for i, line in enumerate(capitals) if i > particulars and (
        _BODY_WORDS.match(line) or _rank(line) in series
        or _in_series(_names(capitals[i:])[0]))),
        len(capitals))


#: A number of two figures or more that is no ordinal (``10``, not ``10ª``; OCR may
#: read the indicator ``a``); a figure alone may be OCR's speck (``5 DE IMIGRAÇÃO``).
_FIGURE = re.compile(r"\d{2,}(?![\dºª°oa])")


def _names(lines: list[str]) -> list[str]:
    """Body names from their lines: a line that continues a name is joined to it — one
    that starts with a connective (``DA INFORMAÇÃO``, ``PARA O RECONHECIMENTO``), one
    word that names no body (``SANITÁRIA``; ``SUPERINTENDÊNCIA-GERAL`` is a body), spaced
    letters, a line after a name ending in a connective or a comma.

    >>> _names(["INSTITUTO NACIONAL DE METROLOGIA,", "QUALIDADE E TECNOLOGIA",
    ...         "DIRETORIA DE METROLOGIA LEGAL"])
    ['INSTITUTO NACIONAL DE METROLOGIA, QUALIDADE E TECNOLOGIA', 'DIRETORIA DE METROLOGIA LEGAL']
    >>> _names(["E MOVIMENTAÇÃO DE PETRÓLEO, SEUS", "DERIVADOS E GÁS NATURAL"])
    ['E MOVIMENTAÇÃO DE PETRÓLEO, SEUS DERIVADOS E GÁS NATURAL']
    >>> _names(["COMISSÃO DE VALORES MOBILIÁRIOS", "SUPERINTENDÊNCIA-GERAL"])
    ['COMISSÃO DE VALORES MOBILIÁRIOS', 'SUPERINTENDÊNCIA-GERAL']
    >>> _names(["CONSELHO PERMANENTE", "PARA O RECONHECIMENTO", "AGÊNCIA NACIONAL", "SANITÁRIA"])
    ['CONSELHO PERMANENTE PARA O RECONHECIMENTO', 'AGÊNCIA NACIONAL SANITÁRIA']
    """
    names: list[str] = []
    for line in lines:
        if names and (_goes_on(names[-1], line)
                      or re.fullmatch(r"(\S{1,2} )+\S{1,2}", line)
                      or (" " not in line and not _BODY_WORDS.match(line))):
            names[-1] = f"{names[-1]} {line}"
        else:
            names.append(line)
    return names
