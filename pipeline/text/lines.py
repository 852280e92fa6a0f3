"""What a line of a document is, by its shape: read by the stages that decide where a
paragraph, a segment or a language section ends (repair's reflow, the language split,
the sentence splitter, structure).
"""

from __future__ import annotations

import re

__all__ = ["ANNEX_LINE", "in_capitals", "is_lead_in", "starts_next_item"]

#: A line naming an annex and nothing else (``ANEXO``, ``ANNEX II``, ``BILAGA``).
ANNEX_LINE = re.compile(
    r"^[ \t]*(?:ANEXO|Anexo|ANNEX|Annex|BILAGA|Bilaga|अनुलग्नक|अनुसूची)(?:[ \t]+[IVX\d]+)?"
    r"[ \t]*$", re.MULTILINE)


def in_capitals(line: str) -> bool:
    """``APÊNDICE A``, ``DILMA ROUSSEFF``: letters mostly of a cased script, none of
    them lower case (Devanagari has no capitals: a line in it, ``GST`` or not, is in
    none)."""
    if any(map(str.islower, line)):  # most lines: found at once, and the answer
        return False
    upper = sum(map(str.isupper, line))
    return upper >= 2 and 2 * upper >= sum(map(str.isalpha, line))


def starts_next_item(paragraph: str, line: str) -> bool:
    """Whether ``line`` starts the next item of a list that ``paragraph`` (so far) is an
    item of: the paragraph ends in a comma, and the line opens with the capitalised
    word the paragraph opened with (a list of references, of recitals).

    >>> starts_next_item("Commission Regulation (EU) No 70/2014, OJ L 23, p. 25,",
    ...                  "Commission Regulation (EU) 2015/445, OJ L 74, p. 1,")
    True
    >>> starts_next_item("Having regard to the Agreement,", "Whereas:")
    False
    """
    first = paragraph.split(None, 1)[:1]
    return (paragraph.rstrip().endswith(",") and bool(first) and first[0][0].isupper()
            and line.split(None, 1)[:1] == first and not in_capitals(first[0]))


def is_lead_in(before: str, line: str, short: float) -> bool:
    """Whether ``line`` is a lead-in after a clause ending in a comma: a short line (under
    ``short`` characters) opening in a capital and ending in a colon, the recitals'
    ``Whereas:`` or the enacting ``HAS DECIDED AS FOLLOWS:``.

    >>> is_lead_in("and in particular Article 23(4) thereof,", "Whereas:", 50)
    True
    >>> is_lead_in("the Parties agreed on the following,", "as follows:", 50)
    False
    """
    line = line.strip()
    return (before.rstrip().endswith(",") and line[:1].isupper() and line.endswith(":")
            and len(line) < short)
