"""Text that XML 1.0 can carry.

XML 1.0 forbids most C0 control characters, lone surrogates and U+FFFE/U+FFFF
even as character references, so no escaping can save them: they are removed
(and counted, so an export can say how many). Line ends become ``\n``, as an XML
parser would read them anyway. Everything else is escaped by the XML writer.
"""

from __future__ import annotations

import re

__all__ = ["XmlText"]

_LINE_END = re.compile("\r\n?")
_FORBIDDEN = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class XmlText:
    r"""Removes characters XML 1.0 forbids and counts them.

    >>> clean = XmlText()
    >>> clean("Artigo\x0c 1\x00"), clean("\ud800ok\r\n"), clean.removed
    ('Artigo 1', 'ok\n', 3)
    """

    def __init__(self) -> None:
        self.removed = 0

    def __call__(self, text: str) -> str:
        cleaned, count = _FORBIDDEN.subn("", _LINE_END.sub("\n", text))
        self.removed += count
        return cleaned
