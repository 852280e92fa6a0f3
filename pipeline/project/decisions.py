"""Review decisions: what reviewers said about a document's alignment, kept as source data.

Each document's decisions are one file, ``reviews/<doc>.jsonl`` beside the inbox (not
in the folders a run rebuilds), one decision per line, appended in the order made::

    {"at": "2026-11-30T21:00:00+00:00", "who": "ana", "action": "join",
     "article": "3", "language": "pt",
     "beads": [{"pivot": ["5f0c…"], "other": ["a1b2…", "c3d4…"]}]}

``id`` names the decision by what it says (:func:`decision_id`); ``action`` is what
the reviewer did; ``beads`` what the pairs should be after it
(``confirm``: the bead as it was; ``join``: the bead with the next or previous sentence
of one side added; ``split``: the beads it is cut into), each side a list of sentence
keys; ``reject`` names the bead that is wrong; ``edit`` carries a word's correction and
a little of the text around it (``{"before": "fiscai", "after": "fiscal", "left":
"imposto ", "right": " sobre"}``). Sentences are named by a hash of their text
(:func:`sentence_key`), not their number, so a decision survives a re-run that numbers
them differently, and is reported, not applied, when the text under it changed. An
edit made on the page of a pair across documents names the ``document`` whose text it
corrects, and is recorded in that document's file: a correction is of the text, in
every pair the document takes part in.

A decision is withdrawn by an ``undo`` line naming its id (``{"action": "undo", "of":
"3f2a…"}``); nothing is ever removed from the file, so it stays the whole history of
the review. :func:`in_effect` gives the decisions that stand: a decision already in
effect is not recorded twice (:func:`record` answers with the line that holds it).

:func:`resolve` reads the file into a :class:`Review`: per article and language the
beads that are fixed (the later decision on a sentence wins) and the beads rejected,
and the word edits. The aligner keeps fixed beads as anchors and never gives a rejected
one (:mod:`pipeline.align`); the repair stage applies the edits as logged repairs of the
rule ``reviewer`` (:func:`apply_edits`). The file's digest is part of what a document's
outputs depend on: a changed review redoes that document.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pipeline.config import Settings
from pipeline.errors import InputError
from pipeline.records import CleanedDocument, RepairStep

__all__ = ["ACTIONS", "UNDO", "Review", "apply_edits", "decision_id", "digest", "in_effect",
           "record", "resolve", "review_file", "sentence_key"]

#: What a reviewer can do to a unit.
ACTIONS = ("confirm", "reject", "join", "split", "edit")
#: The action that withdraws an earlier decision (``of``: its id).
UNDO = "undo"

#: The rule name of a reviewer's word edit in the repair log.
REVIEWER = "reviewer"

#: Characters of text kept on each side of an edited word to find it again.
CONTEXT = 24

Keys = tuple[str, ...]


def sentence_key(text: str) -> str:
    """A sentence's name in review decisions: a hash of its text, spaces normalized.

    >>> sentence_key("Article 1  applies.") == sentence_key("Article 1 applies.")
    True
    """
    # (a lone surrogate, which no UTF-8 text holds, is hashed as it is rather than refused)
    return hashlib.sha256(" ".join(text.split()).encode("utf-8", "surrogatepass")
                          ).hexdigest()[:16]


def review_file(settings: Settings, doc_id: str) -> Path:
    return settings.reviews / f"{doc_id}.jsonl"


def digest(settings: Settings, doc_id: str) -> str | None:
    """The digest of a document's decisions file, None if it has none."""
    try:
        return _digest_of(review_file(settings, doc_id).read_bytes())
    except FileNotFoundError:
        return None


def _digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def decision_id(decision: dict[str, Any]) -> str:
    """A decision's name: a hash of what it says (not who said it, nor when), so the
    same decision made twice has one name.

    >>> a = {"action": "reject", "article": "1", "language": "pt", "beads": []}
    >>> decision_id(a) == decision_id({**a, "who": "rui", "at": "2026-12-01"})
    True
    """
    said = {key: value for key, value in decision.items() if key not in ("at", "who", "id")}
    return sentence_key(json.dumps(said, sort_keys=True, ensure_ascii=False))


def record(settings: Settings, doc_id: str, decision: dict[str, Any], who: str) -> dict[str, Any]:
    """Check a decision and append it, stamped with its id, ``who`` and the time, to the
    document's file; returns the line written. A decision already in effect is not
    written again: the line that holds it is returned, with ``"duplicate": true``. An
    ``undo`` must name a decision in effect. :class:`InputError` if it is not a decision."""
    _check(decision)
    standing = {line["id"]: line for line in in_effect(settings, doc_id)}
    if decision["action"] == UNDO:
        if decision.get("of") not in standing:
            raise InputError(f"no decision {decision.get('of')!r} in effect to undo",
                             "name a decision the review file holds and no undo withdrew")
    else:
        found = standing.get(decision_id(decision))
        if found is not None:
            return {**found, "duplicate": True}
    line = {"at": datetime.now(UTC).isoformat(timespec="seconds"), "who": who,
            "id": decision_id(decision), **decision}
    path = review_file(settings, doc_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = (json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)  # one write of one line: appends never interleave
        os.fsync(fd)
    finally:
        os.close(fd)
    return line


def _check(decision: dict[str, Any]) -> None:
    """Raise :class:`InputError` unless ``decision`` has the shape its action needs."""
    action = decision.get("action")
    if action == UNDO:
        if not isinstance(decision.get("of"), str):
            raise InputError("an undo names the id of the decision it withdraws")
        return
    if action not in ACTIONS:
        raise InputError(f"unknown review action {action!r}",
                         f"one of {', '.join((*ACTIONS, UNDO))}")
    if action == "edit":
        edit = decision.get("edit") or {}
        if not all(isinstance(edit.get(k), str) for k in ("before", "after", "left", "right")) \
                or not edit["before"].strip() or edit["before"] == edit["after"]:
            raise InputError("an edit needs the word before and after, and the text around it")
    else:
        beads = decision.get("beads") or []
        if not beads or not all(_bead_ok(b) for b in beads) or not isinstance(
                decision.get("article"), str) or not isinstance(decision.get("language"), str):
            raise InputError(f"a {action} needs the article, language and beads it is about")


def _lines_of(data: bytes, name: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The decisions of a review file's bytes that stand, in the order made (each with
    its id), and the lines that are not decisions, with why."""
    standing: list[dict[str, Any]] = []
    bad = []
    for number, line in enumerate(data.decode("utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            decision = json.loads(line)
        except json.JSONDecodeError:
            bad.append(f"{name} line {number}: not JSON")
            continue
        if decision.get("action") == UNDO:
            withdrawn = [n for n, d in enumerate(standing) if d["id"] == decision.get("of")]
            if withdrawn:
                del standing[withdrawn[-1]]
            continue
        standing.append({**decision, "id": decision.get("id") or decision_id(decision)})
    return standing, bad


def in_effect(settings: Settings, doc_id: str) -> list[dict[str, Any]]:
    """The document's decisions that stand (none withdrawn), in the order made."""
    path = review_file(settings, doc_id)
    try:
        return _lines_of(path.read_bytes(), path.name)[0]
    except FileNotFoundError:
        return []


def _bead_ok(bead: Any) -> bool:
    return (isinstance(bead, dict) and all(isinstance(bead.get(side), list)
                                           and all(isinstance(k, str) for k in bead[side])
                                           for side in ("pivot", "other"))
            and bool(bead["pivot"]) and bool(bead["other"]))


@dataclass(frozen=True)
class Edit:
    """A reviewer's correction of one word, with the text around it."""

    before: str
    after: str
    left: str
    right: str


@dataclass
class Review:
    """A document's decisions, resolved: the later decision on a sentence wins."""

    #: (article, language) → beads that are fixed, as (pivot keys, other keys).
    fixed: dict[tuple[str, str], list[tuple[Keys, Keys]]] = field(default_factory=dict)
    #: (article, language) → beads that are wrong.
    rejected: dict[tuple[str, str], set[tuple[Keys, Keys]]] = field(default_factory=dict)
    edits: list[Edit] = field(default_factory=list)
    #: Decisions that no longer apply, with why (filled as they are applied).
    stale: list[str] = field(default_factory=list)
    decisions: int = 0
    #: The digest of the decisions file these were read from (:func:`digest`), None
    #: without one: what the document's manifest records as its review.
    digest: str | None = None

    def __bool__(self) -> bool:
        return self.decisions > 0


def resolve(settings: Settings, doc_id: str) -> Review:
    """The document's decisions file read and resolved (an empty review without one):
    the decisions in effect (:func:`in_effect`), the later one on a sentence winning."""
    path = review_file(settings, doc_id)
    try:
        data = path.read_bytes()  # read once: the digest is of the decisions applied
    except FileNotFoundError:
        return Review()
    review = Review(digest=_digest_of(data))
    standing, review.stale = _lines_of(data, path.name)
    for decision in standing:
        review.decisions += 1
        if decision.get("action") == "edit":
            review.edits.append(Edit(**{k: decision["edit"][k]
                                        for k in ("before", "after", "left", "right")}))
            continue
        where = (decision["article"], decision["language"])
        beads = [(tuple(b["pivot"]), tuple(b["other"])) for b in decision["beads"]]
        fixed = review.fixed.setdefault(where, [])
        rejected = review.rejected.setdefault(where, set())
        for bead in beads:
            if decision["action"] == "reject":
                rejected.add(bead)
                fixed[:] = [f for f in fixed if f != bead]
            else:
                touched = set(bead[0]) | set(bead[1])
                fixed[:] = [f for f in fixed if not touched & (set(f[0]) | set(f[1]))]
                fixed.append(bead)
                rejected.discard(bead)
    return review


def apply_edits(cleaned: CleanedDocument, review: Review) -> CleanedDocument:
    """The document with the reviewers' word edits made, each a repair step of the rule
    ``reviewer`` after the rules' own; an edit whose word and context are no longer in
    the text is recorded in ``review.stale``."""
    if not review.edits:
        return cleaned
    pages = list(cleaned.pages)
    steps = list(cleaned.steps)
    sweep = max((s.sweep for s in steps), default=0) + 1
    for edit in review.edits:
        pattern = re.escape(edit.left) + "(" + re.escape(edit.before) + ")" + re.escape(
            edit.right)
        for n, page in enumerate(pages):
            found = re.search(pattern, page.text)
            if found:
                start, end = found.span(1)
                pages[n] = replace(page, text=page.text[:start] + edit.after + page.text[end:])
                steps.append(RepairStep(REVIEWER, page.number, start, edit.before, edit.after,
                                        sweep))
                break
        else:
            review.stale.append(f"edit {edit.before!r} → {edit.after!r}: the word is no "
                                "longer in the text with the same words around it")
    return replace(cleaned, pages=tuple(pages), steps=tuple(steps))


def edit_context(text: str, start: int, end: int) -> dict[str, str]:
    """The text around characters ``start:end`` of ``text`` that finds them again."""
    return {"left": text[max(start - CONTEXT, 0):start], "right": text[end:end + CONTEXT]}


def anchors(review: Review, article: str, language: str, src: list[str], tgt: list[str]
            ) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...]]],
                       set[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """The fixed beads of one article pair as sentence numbers, in order and not
    crossing, and the rejected ones; those that no longer match the text go to
    ``review.stale``."""
    where = (article, language)
    src_keys, tgt_keys = _keys(src, review), _keys(tgt, review)
    placed: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    for bead in review.fixed.get(where, []):
        ids = _find(bead, src_keys, tgt_keys)
        if ids is None:
            review.stale.append(f"{language} article {article}: a fixed pair whose sentences "
                                "are no longer in the text")
        elif any(_cross(ids, other) for other in placed):
            review.stale.append(f"{language} article {article}: a fixed pair that crosses "
                                "another")
        else:
            placed.append(ids)
    rejected = set()
    for bead in review.rejected.get(where, set()):
        ids = _find(bead, src_keys, tgt_keys)
        if ids is None:
            review.stale.append(f"{language} article {article}: a rejected pair whose "
                                "sentences are no longer in the text")
        else:
            rejected.add(ids)
    return sorted(placed), rejected


def _keys(sentences: list[str], review: Review) -> list[set[str]]:
    """Each sentence's keys: of its text, and of its text before a reviewer's edit (a
    decision made on the text as it was still names it)."""
    keys = []
    for sentence in sentences:
        found = {sentence_key(sentence)}
        for edit in review.edits:
            if edit.after in sentence:
                found.add(sentence_key(sentence.replace(edit.after, edit.before, 1)))
        keys.append(found)
    return keys


def _find(bead: tuple[Keys, Keys], src: list[set[str]], tgt: list[set[str]]
          ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    i, j = _run(bead[0], src), _run(bead[1], tgt)
    if i is None or j is None:
        return None
    return tuple(range(i, i + len(bead[0]))), tuple(range(j, j + len(bead[1])))


def _run(keys: Keys, sentences: list[set[str]]) -> int | None:
    """Where ``keys`` name consecutive sentences, the first of them."""
    for start in range(len(sentences) - len(keys) + 1):
        if all(key in sentences[start + k] for k, key in enumerate(keys)):
            return start
    return None


def _cross(a: tuple[tuple[int, ...], tuple[int, ...]],
           b: tuple[tuple[int, ...], tuple[int, ...]]) -> bool:
    """Two beads cannot both hold: they share a sentence or go in opposite orders."""
    before = a[0][-1] < b[0][0] and a[1][-1] < b[1][0]
    after = b[0][-1] < a[0][0] and b[1][-1] < a[1][0]
    return not (before or after)
