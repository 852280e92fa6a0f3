"""Digest a project's outputs, to show that a change of code left them as they were.

Every file under ``cleaned/`` and ``aligned/`` gets a SHA-256, printed one per line
(path, digest). Two things are left out of the digest, and nothing else: the build key
(``"build"`` in the JSON files), which names the code that made an output, so any change
of code changes it; and the creation date of TMX headers, the time of the run (unless
``SOURCE_DATE_EPOCH`` fixes it). Run a project before and after a change and compare::

    gazette run --root /tmp/before && python scripts/output_digest.py /tmp/before > a
    gazette run --root /tmp/after && python scripts/output_digest.py /tmp/after > b
    diff a b && echo "same outputs"
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from pathlib import Path
from typing import Any


def without_build_keys(value: Any) -> Any:
    """``value`` (parsed JSON) with every ``"build"`` entry left out, at any depth.

    >>> without_build_keys({"build": "0.4.0+abc", "pages": [{"build": 1, "n": 2}]})
    {'pages': [{'n': 2}]}
    """
    if isinstance(value, dict):
        return {k: without_build_keys(v) for k, v in value.items() if k != "build"}
    if isinstance(value, list):
        return [without_build_keys(v) for v in value]
    return value


def without_creation_date(tmx: bytes) -> bytes:
    """A TMX file without its header's creation date.

    >>> without_creation_date(b'<header srclang="en" creationdate="20261202T062926Z" />')
    b'<header srclang="en" creationdate="" />'
    """
    return re.sub(rb'creationdate="[^"]*"', b'creationdate=""', tmx, count=1)


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, without build keys and TMX creation dates."""
    data = path.read_bytes()
    if path.suffix == ".json":
        data = json.dumps(without_build_keys(json.loads(data)), sort_keys=True).encode()
    elif path.suffix == ".tmx":
        data = without_creation_date(data)
    return hashlib.sha256(data).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="the project folder")
    root = parser.parse_args().root
    for folder in ("cleaned", "aligned"):
        for path in sorted((root / folder).rglob("*")):
            if path.is_file():
                print(path.relative_to(root).as_posix(), file_digest(path))


if __name__ == "__main__":
    main()
