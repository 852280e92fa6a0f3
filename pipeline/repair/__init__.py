"""Stage 2, repair: fix extraction and OCR garbage, recording every change.

Repairs are named rules in :data:`RULES`, pure ``str -> str`` functions applied in
order to each page; each can be switched off in :class:`RepairConfig`, whose fields
carry the rules' names. Every change a rule makes is recorded as a
:class:`~pipeline.records.RepairStep` (rule, page, offset, before, after), and
:func:`undo` turns repaired text back into the original, which is what makes the
log trustworthy.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from functools import partial

import cydifflib

from pipeline.records import CleanedDocument, IngestedDocument, Page, RepairStep
from pipeline.repair import rules

__all__ = [
    "MAX_CHANGE_SHARE",
    "RULES",
    "RepairConfig",
    "diff_steps",
    "final_spans",
    "repair",
    "repaired_position",
    "undo",
]

#: The repair rules, in the order they run.
RULES: dict[str, Callable[[str], str]] = {
    "ftfy": rules.fix_with_ftfy,
    "convert_legacy_hindi": rules.convert_legacy_hindi,
    "normalize_nfc": rules.normalize_nfc,
    "remove_running_heads": rules.remove_running_heads,
    "remove_repeated_lines": rules.remove_repeated_lines,
    "fix_quote_junk": rules.fix_quote_junk,
    "fix_numbering_glyphs": rules.fix_numbering_glyphs,
    "latinize_homoglyphs": rules.latinize_homoglyphs,
    "collapse_fake_bold": rules.collapse_fake_bold,
    "fix_broken_devanagari": rules.fix_broken_devanagari,
    "read_broken_glyphs": rules.read_broken_glyphs,
    "reflow_hard_wraps": rules.reflow_hard_wraps,
    "move_displaced_paragraph_numbers": rules.move_displaced_paragraph_numbers,
    "fix_ocr_words": rules.fix_ocr_words,
    "fix_ocr_accents": rules.fix_ocr_accents,
}


#: Word-level rules stop (and flag the page) rather than change more than this share
#: of a page's words: that much "garbage" means the rule misreads the page.
MAX_CHANGE_SHARE = {
    "fix_quote_junk": 0.1,
    "fix_numbering_glyphs": 0.1,
    "latinize_homoglyphs": 0.1,
    # on a broken Hindi layer (the only text these two touch) most words are damaged;
    # each change they make is one the Hindi lexicon vouches for
    "fix_broken_devanagari": 0.6,
    "read_broken_glyphs": 0.6,
    "move_displaced_paragraph_numbers": 0.2,
    "fix_ocr_words": 0.1,
    # a page of Swedish read with the Portuguese model loses most of its å, ä, ö
    "fix_ocr_accents": 0.3,
}


def _changed_share(text: str, steps: list[RepairStep]) -> float:
    if not steps:  # most rules change nothing on most pages: no need to count its words
        return 0.0
    words = len(text.split())
    return sum(len(step.before.split()) for step in steps) / words if words else 0.0


@dataclass(frozen=True)
class RepairConfig:
    """Which rules run; one field per rule in :data:`RULES`, under the same name."""

    ftfy: bool = True
    convert_legacy_hindi: bool = True
    normalize_nfc: bool = True
    remove_running_heads: bool = True
    remove_repeated_lines: bool = True
    fix_quote_junk: bool = True
    fix_numbering_glyphs: bool = True
    latinize_homoglyphs: bool = True
    collapse_fake_bold: bool = True
    fix_broken_devanagari: bool = True
    read_broken_glyphs: bool = True
    reflow_hard_wraps: bool = True
    move_displaced_paragraph_numbers: bool = True
    fix_ocr_words: bool = True
    fix_ocr_accents: bool = True

    def enabled(self) -> list[str]:
        """Names of the rules switched on, in the order they run."""
        return [name for name in RULES if getattr(self, name)]


assert [f.name for f in fields(RepairConfig)] == list(RULES), "RepairConfig must mirror RULES"


#: Sweeps of all rules over a page at most: they run again while the last sweep changed
#: something (one rule's fix can show another rule its evidence: a sign rejoined makes a
#: word whose glyph the map can read), so repairing repaired text changes nothing.
MAX_SWEEPS = 3


def repair(document: IngestedDocument, config: RepairConfig | None = None,
           running: frozenset[str] = frozenset()) -> CleanedDocument:
    """Apply the enabled rules to every page and collect the steps they made.

    One rule needs to see the whole document: the lines its pages repeat at their top
    or bottom (:func:`~pipeline.repair.rules.repeated_lines`) are found once, before
    any rule runs, and given to ``remove_repeated_lines``, with the ``running`` heads
    and footers of the edition an act is cut from.
    """
    config = config or RepairConfig()
    repeated = rules.repeated_lines([page.text for page in document.pages]) | running
    table = RULES | {"remove_repeated_lines": partial(rules.remove_repeated_lines,
                                                      repeated=repeated)}
    pages: list[Page] = []
    steps: list[RepairStep] = []
    for page in document.pages:
        text = page.text
        warnings = list(page.warnings)
        last = len(RULES)  # the first sweep runs every rule
        for sweep in range(1, MAX_SWEEPS + 1):
            text, page_steps, last = _sweep(text, page.number, sweep, config, warnings,
                                            table, last)
            steps.extend(page_steps)
            if not page_steps:
                break
        pages.append(replace(page, text=text, warnings=tuple(dict.fromkeys(warnings))))
    return CleanedDocument(doc_id=document.source.doc_id, pages=tuple(pages),
                           steps=tuple(steps))


def _sweep(text: str, page: int, sweep: int, config: RepairConfig, warnings: list[str],
           table: dict[str, Callable[[str], str]], last: int
           ) -> tuple[str, list[RepairStep], int]:
    """Run the enabled rules of ``table`` once over ``text``; stopped rules add to
    ``warnings``. Returns the text, the steps and the index of the last rule that
    changed the text (-1 if none did).

    ``last`` is that index in the sweep before: while no rule has changed the text in
    this sweep, the rules after it would see the very text they saw then, where they
    changed nothing; the sweep ends there, as it would have, without running them (each
    rule is a function of the text alone). On a DOU edition's pages as documents of
    their own this halves the second sweep, which changes nothing on most pages.
    """
    steps: list[RepairStep] = []
    changed = -1
    for index, name in enumerate(config.enabled()):
        if changed < 0 and index > last:
            break
        fixed = table[name](text)
        rule_steps = [replace(step, sweep=sweep) for step in diff_steps(name, page, text, fixed)]
        limit = MAX_CHANGE_SHARE.get(name)
        share = _changed_share(text, rule_steps)
        if limit is not None and share > limit:
            warnings.append(f"{name} stopped: it would change {share:.0%} of the words "
                            f"(limit {limit:.0%})")
            continue
        steps.extend(rule_steps)
        if fixed != text:
            changed = index
        text = fixed
    return text, steps, changed


#: Words (with combining marks: Devanagari vowel signs are not "word" characters to
#: ``re``), runs of white space, single other characters.
_TOKEN = re.compile(r"[\w\u0300-\u036f\u0900-\u097f]+|\s+|[^\w\s]")


def diff_steps(rule: str, page: int, before: str, after: str) -> list[RepairStep]:
    """Describe the change from ``before`` to ``after`` as steps with offsets in ``before``.

    The texts are compared word by word (words, runs of white space and single
    punctuation marks), so a step is a whole word or phrase and long pages diff fast.
    The comparison is :class:`difflib.SequenceMatcher`'s, compiled (``cydifflib``: the
    same matches, in half the time; an edition's reflowed acts spent a tenth of their
    stages' time here).

    >>> diff_steps("ftfy", 1, "a ConvenÃ§Ã£o b", "a Convenção b")
    [RepairStep(rule='ftfy', page=1, offset=2, before='ConvenÃ§Ã£o', after='Convenção', sweep=1)]
    """
    if before == after:
        return []
    old, new = _TOKEN.findall(before), _TOKEN.findall(after)
    old_at = [0, *itertools.accumulate(map(len, old))]
    new_at = [0, *itertools.accumulate(map(len, new))]
    matcher = cydifflib.SequenceMatcher(None, old, new)
    return [
        RepairStep(rule=rule, page=page, offset=old_at[i1],
                   before=before[old_at[i1]:old_at[i2]], after=after[new_at[j1]:new_at[j2]])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _by_application(steps: Iterable[RepairStep]) -> list[list[RepairStep]]:
    """A page's steps grouped by the rule run that made them, in the order they ran."""
    runs: dict[tuple[int, str], list[RepairStep]] = {}
    for step in steps:
        runs.setdefault((step.sweep, step.rule), []).append(step)
    return list(runs.values())


def undo(text: str, steps: Iterable[RepairStep]) -> str:
    """Reverse the steps of one page (all rules), giving back the text before repair.

    Steps are undone rule run by rule run, last first; within a run each step's
    position in the repaired text is its offset shifted by the steps before it.

    >>> undo("a Convenção b", [RepairStep("ftfy", 1, 2, "ConvenÃ§Ã£o", "Convenção")])
    'a ConvenÃ§Ã£o b'
    """
    for rule_steps in reversed(_by_application(steps)):
        shift = 0
        positions = []
        for step in sorted(rule_steps, key=lambda s: s.offset):
            positions.append((step.offset + shift, step))
            shift += len(step.after) - len(step.before)
        for position, step in reversed(positions):
            assert text[position:position + len(step.after)] == step.after, "log does not match"
            text = text[:position] + step.before + text[position + len(step.after):]
    return text


def repaired_position(position: int, steps: Iterable[RepairStep]) -> int:
    """Where character ``position`` of a page's original text ended up after repair.

    A position inside a changed span maps to the start of its replacement.

    >>> steps = [RepairStep("fix_ocr_words", 1, 3, "fiscai", "fiscal"),
    ...          RepairStep("reflow_hard_wraps", 1, 2, "\\n", " \\n\\n")]
    >>> [repaired_position(p, steps) for p in (0, 2, 3, 9)]
    [0, 2, 5, 11]
    """
    for rule_steps in _by_application(steps):
        shift = 0
        for step in sorted(rule_steps, key=lambda s: s.offset):
            if position < step.offset:
                break
            if position < step.offset + len(step.before):
                position = step.offset
                break
            shift += len(step.after) - len(step.before)
        position += shift
    return position


def final_spans(steps: Iterable[RepairStep]) -> list[tuple[RepairStep, int, int]]:
    """Where each step's replacement text lies in the fully repaired page: (step, start, end).

    Steps are of one page. A later rule that rewrote part of a replacement moves its
    span to the start of its own replacement.

    >>> steps = [RepairStep("fix_quote_junk", 1, 8, "ẠỊi", ':"'),
    ...          RepairStep("fix_ocr_words", 1, 0, "fiscai", "fiscal")]
    >>> [(s.after, start, end) for s, start, end in final_spans(steps)]
    [(':"', 8, 10), ('fiscal', 0, 6)]
    """
    rules_in_order = _by_application(steps)
    spans = []
    for number, rule_steps in enumerate(rules_in_order):
        later = [step for steps_of_rule in rules_in_order[number + 1:] for step in steps_of_rule]
        shift = 0
        for step in sorted(rule_steps, key=lambda s: s.offset):
            start = step.offset + shift
            shift += len(step.after) - len(step.before)
            spans.append((step, repaired_position(start, later),
                          repaired_position(start + len(step.after), later)))
    return spans
