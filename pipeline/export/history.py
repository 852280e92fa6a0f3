"""The record of corpus exports: which units each one held, for ``gazette export --since``.

Each export is a JSON file in ``.gazette/exports/<name>.json``: its name, time, the
number of units it wrote, and the keys (:func:`pipeline.export.units.unit_key`) of every
unit known as of that export — those it wrote and those the export it was made since
had — so that ``--since NAME`` means "new or changed after NAME".
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

from pipeline.config import Settings
from pipeline.errors import InputError
from pipeline.project.store import write_atomic

__all__ = ["LAST", "checked_name", "read", "record"]

#: ``--since last``: the export recorded last.
LAST = "last"

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _folder(settings: Settings) -> Path:
    return settings.state / "exports"


def checked_name(name: str | None) -> str:
    """The name an export is recorded under: ``name``, or ``export-<UTC time>``.
    :class:`InputError` for a name that is not a plain file name, or is ``last``."""
    name = name or f"export-{datetime.now(UTC):%Y%m%dT%H%M%S%fZ}"
    if not _NAME.fullmatch(name) or name == LAST:
        raise InputError(f"export name {name!r} is not usable",
                         "letters, digits, '.', '_' and '-', not 'last'")
    return name


def record(settings: Settings, name: str, keys: set[str] | frozenset[str], written: int
           ) -> None:
    """Record export ``name`` (see :func:`checked_name`) and the units known as of it."""
    write_atomic(_folder(settings) / f"{name}.json", json.dumps(
        {"name": name, "at": datetime.now(UTC).isoformat(), "written": written,
         "units": sorted(keys)}, indent=0) + "\n")


def read(settings: Settings, name: str) -> tuple[str, frozenset[str]]:
    """Export ``name`` (the last one, for ``last``): its name and the unit keys known
    as of it."""
    records = {path.stem: json.loads(path.read_text(encoding="utf-8"))
               for path in _folder(settings).glob("*.json")}
    if name == LAST and records:
        name = max(records, key=lambda n: records[n]["at"])
    if name not in records:
        known = ", ".join(sorted(records)) or "none yet"
        raise InputError(f"no recorded export {name!r}", f"recorded exports: {known}")
    return name, frozenset(records[name]["units"])
