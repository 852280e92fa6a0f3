"""Digest a project's outputs, to show that a change of code left them as they were.

Every file under ``cleaned/`` and ``aligned/`` gets a SHA-256, printed one per line
(path, digest). The build key (``"build"`` in the JSON files) names the code that made
an output, so any change of code changes it: it is left out of the digest, and nothing
else is. Run a project before and after a change and compare::

    gazette run --root /tmp/before && python scripts/output_digest.py /tmp/before > a
    gazette run --root /tmp/after && python scripts/output_digest.py /tmp/after > b
    diff a b && echo "same outputs"
"""

from __future__ import annotations

import argparse
import hashlib
import json
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


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, or of its JSON without build keys."""
    data = path.read_bytes()
    if path.suffix == ".json":
        data = json.dumps(without_build_keys(json.loads(data)), sort_keys=True).encode()
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
