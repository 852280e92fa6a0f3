"""Where outputs go: atomic files and per-document folders that appear all at once.

A document's outputs are written into hidden staging folders beside their final
places (``cleaned/.staging-<doc>``, ``aligned/.staging-<doc>``) and swapped in by
:meth:`DocumentOutput.publish` only when every stage has finished, so a crash or a
failing stage never leaves a half-written document: the previous complete output
(if any) stays. ``cleaned/<doc>/manifest.json`` is written last and records the
content hash, build key and review digest that :func:`is_up_to_date` compares: the
one place that says whether a document needs work.

A staging folder's files are written plainly, as nothing reads them there, and put on
disk together (:func:`sync_folder`) just before the folder is swapped in: after a power
cut a published folder holds its files' whole text. Synced one by one as each was
written, every file cost a journal commit of its own; an edition's 266 acts on two
workers waited 1–3 s on the disk for them.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from pipeline import workers
from pipeline.config import Settings
from pipeline.errors import BusyError, LockLostError
from pipeline.project import decisions
from pipeline.project.catalog import database_lock
from pipeline.records import Source

__all__ = [
    "MANIFEST",
    "DocumentOutput",
    "check_project_lock",
    "is_up_to_date",
    "jsonl",
    "project_lock",
    "publish_folder",
    "read_manifest",
    "sync_folder",
    "write_atomic",
    "write_staged",
]

MANIFEST = "manifest.json"

# Files are created with the permissions the user's umask gives (mkstemp would make
# them private); read once, as reading the umask means setting it.
_UMASK = os.umask(0o022)
os.umask(_UMASK)


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file in the same folder, fsync and rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_staged(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` in a staging folder, plainly (see the module's
    docstring); :func:`sync_folder` puts it on disk before the folder is published."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)


def sync_folder(folder: Path) -> None:
    """Put every file in ``folder`` on disk, the files written beforehand: the first
    sync commits what the file system holds for all of them, so the others mostly
    find theirs done."""
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def jsonl(records: Iterable[dict[str, Any]]) -> str:
    r"""JSON Lines text: one compact object per line, keys in a stable order.

    Text is written as it is, except lone surrogates (which UTF-8 cannot carry):
    a line holding one is written with ``\u`` escapes, so it still reads back exactly.

    >>> jsonl([{"a": "é"}, {"a": "\ud800"}])
    '{"a": "é"}\n{"a": "\\ud800"}\n'
    """
    lines = []
    for record in records:
        line = json.dumps(record, ensure_ascii=False)
        if _SURROGATE.search(line):
            line = json.dumps(record)
        lines.append(line + "\n")
    return "".join(lines)


_SURROGATE = re.compile("[\ud800-\udfff]")


class DocumentOutput:
    """The staging folders of one document and how to publish them."""

    def __init__(self, settings: Settings, doc_id: str) -> None:
        if not doc_id or doc_id.startswith(".") or any(ch in doc_id for ch in "/\\\0"):
            raise ValueError(f"document id {doc_id!r} would escape the data folders")
        self.settings = settings
        self.doc_id = doc_id
        self._final = {"cleaned": settings.cleaned / doc_id, "aligned": settings.aligned / doc_id}
        self._staging = {name: path.parent / f".staging-{doc_id}"
                         for name, path in self._final.items()}

    def start(self) -> None:
        """Empty the staging folders (left-overs of an interrupted run are dropped)."""
        for path in self._staging.values():
            shutil.rmtree(path, ignore_errors=True)
            path.mkdir(parents=True)

    def write(self, folder: str, name: str, text: str) -> Path:
        """Write one output file into the staging folder ``cleaned`` or ``aligned``."""
        path = self._staging[folder] / name
        write_staged(path, text)
        return path

    def publish(self, manifest: dict[str, Any], aligned: bool = True) -> None:
        """Write the manifest and swap the staging folders in, ``aligned`` first.

        The manifest lives in ``cleaned``, which is swapped last: until it is in place,
        :func:`is_up_to_date` sees the old manifest and the document is redone.
        Without ``aligned`` (an edition: its acts are aligned, not it) the document's
        ``aligned`` folder is removed rather than published.
        """
        self.write("cleaned", MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")
        published = ("aligned", "cleaned") if aligned else ("cleaned",)
        for name in published:
            sync_folder(self._staging[name])
        check_project_lock()
        for name in ("aligned", "cleaned"):
            if name in published:
                _swap_in(self._staging[name], self._final[name])
            else:
                shutil.rmtree(self._final[name], ignore_errors=True)

    def discard(self) -> None:
        """Remove the staging folders after a failure; published outputs stay as they were."""
        for path in self._staging.values():
            shutil.rmtree(path, ignore_errors=True)


def _swap_in(staging: Path, final: Path) -> None:
    """Replace folder ``final`` by ``staging`` (two renames; the old one is removed)."""
    old = final.parent / f".old-{final.name}"
    shutil.rmtree(old, ignore_errors=True)
    if final.exists():
        final.rename(old)
    staging.rename(final)
    shutil.rmtree(old, ignore_errors=True)


def publish_folder(final: Path, files: dict[str, str]) -> None:
    """Make ``final`` a folder holding exactly ``files`` (name → text), all at once."""
    staging = final.parent / f".staging-{final.name}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        for name, text in files.items():
            write_staged(staging / name, text)
        sync_folder(staging)
        check_project_lock()
        _swap_in(staging, final)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def read_manifest(settings: Settings, doc_id: str) -> dict[str, Any] | None:
    """The manifest of a published document, or None."""
    path = settings.cleaned / doc_id / MANIFEST
    try:
        return dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return None


def is_up_to_date(settings: Settings, source: Source) -> bool:
    """True if ``source`` was processed to the end, with this content, code, settings and
    review decisions: its outputs are published, or, for an edition, each of its acts'
    are."""
    manifest = read_manifest(settings, source.doc_id)
    if (manifest is None or manifest.get("sha256") != source.sha256
            or manifest.get("build") != settings.output_key()
            or manifest.get("review") != decisions.digest(settings, source.doc_id)):
        return False
    if "acts" in manifest:
        return all(is_up_to_date(settings, replace(source, doc_id=act))
                   for act in manifest["acts"])
    return (settings.aligned / source.doc_id).is_dir()


#: How this process checks, before a write that needs it, that it still holds the
#: project lock: set while it holds one that can be lost under it (PostgreSQL's).
_LOCK_CHECK: Callable[[], None] | None = None


def check_project_lock() -> None:
    """Before a write that needs the project lock: make sure this process still holds
    it, if it holds one that can be lost (see :func:`pipeline.project.catalog.database_lock`;
    raises :class:`~pipeline.errors.LockLostError`). A process that holds none (a Dask
    worker, or one of the run's workers, writing for the run that holds it) checks only
    that the run is still there (:func:`pipeline.workers.orphaned`)."""
    if workers.orphaned():
        raise LockLostError("the run this worker worked for has ended",
                            "a new run redoes what it left")
    if _LOCK_CHECK is not None:
        _LOCK_CHECK()


@contextmanager
def project_lock(settings: Settings, wait: bool = False) -> Iterator[None]:
    """Hold the project folder's lock: one ``gazette run`` or ``export`` at a time.

    The lock is an ``flock`` on ``.gazette/lock``, so the kernel releases it when its
    process ends, however it ends (a killed run never leaves a stale lock). Without
    ``wait``, a held lock raises :class:`BusyError` naming the holder. With a PostgreSQL
    catalog (``Settings.catalog_url``) the lock is held there instead, for machines
    that share the project (see :func:`pipeline.project.catalog.database_lock`).
    """
    global _LOCK_CHECK
    if settings.catalog_url is not None:
        with database_lock(settings, wait) as check:
            _LOCK_CHECK = check
            try:
                yield
            finally:
                _LOCK_CHECK = None
        return
    settings.state.mkdir(parents=True, exist_ok=True)
    with (settings.state / "lock").open("a+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise BusyError(f"{holder} is working on {settings.state.parent}",
                            "wait for it to finish, or pass --wait") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"gazette (pid {os.getpid()})")
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)
