"""Multi-part decrees: files published as "(parte 1 de 2)", "(parte 2 de 2)" become one document.

The DOU publishes a long decree in parts, each headed by the decree's title and
``(parte N de M)``. :func:`stitch` groups the inbox's sources by that title: the
first part's source carries the others (``Source.parts``) and their combined content
hash, so the document is redone when a part arrives or changes; the other parts are
not documents of their own. A decree whose parts are not all there yet is processed
with what there is, and says which part is missing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from pipeline.records import Source

__all__ = ["PartMark", "part_mark", "stitch"]

_PART = re.compile(r"^(?P<title>[^\n]{10,200}?)\s*\(parte\s+(?P<n>\d+)\s+de\s+(?P<of>\d+)\)",
                   re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class PartMark:
    """Which part of which decree a file is."""

    title: str
    number: int
    of: int


def part_mark(head: str) -> PartMark | None:
    """The part mark at the top of a file's text, if it has one.

    >>> part_mark("DECRETO Nº 12.863, DE 2 DE MARÇO DE 2026 (parte 1 de 2)\\n\\nPublicado")
    PartMark(title='DECRETO Nº 12.863, DE 2 DE MARÇO DE 2026', number=1, of=2)
    >>> part_mark("DECRETO Nº 12.863, DE 2 DE MARÇO DE 2026\\nPromulga o Protocolo") is None
    True
    """
    match = _PART.search(head[:2000])
    if match is None or not 1 <= int(match["n"]) <= int(match["of"]):
        return None
    return PartMark(" ".join(match["title"].split()).upper(), int(match["n"]), int(match["of"]))


def stitch(sources: list[Source], head_of: Callable[[Source], str]) -> list[Source]:
    """Join the parts of each multi-part decree into its first part's source.

    ``head_of`` gives the start of a source's text. Sources keep their order; a later
    part disappears into the first one present.
    """
    marks = {s.relpath: part_mark(head_of(s)) for s in sources if not s.rejected}
    groups: dict[tuple[str, int], list[tuple[int, Source]]] = {}
    for source in sources:
        mark = marks.get(source.relpath)
        if mark:
            groups.setdefault((mark.title, mark.of), []).append((mark.number, source))
    joined: dict[str, Source] = {}
    absorbed: set[str] = set()
    for (_, of), members in groups.items():
        ordered = [source for _, source in sorted(members, key=lambda m: m[0])]
        if len(ordered) == 1 and of == 1:
            continue
        first, rest = ordered[0], tuple(ordered[1:])
        combined = hashlib.sha256("".join(s.sha256 for s in ordered).encode()).hexdigest()
        joined[first.relpath] = replace(first, parts=rest, parts_expected=of,
                                        sha256=combined)
        absorbed.update(s.relpath for s in rest)
    return [joined.get(s.relpath, s) for s in sources if s.relpath not in absorbed]
