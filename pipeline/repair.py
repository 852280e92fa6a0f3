"""Stage 2, repair: fix extraction and OCR garbage, recording every change.

Repairs are named rules in :data:`RULES`, pure ``str -> str`` functions applied in
order to each page; each can be switched off in :class:`RepairConfig`, whose fields
carry the rules' names. Every change a rule makes is recorded as a
:class:`~pipeline.records.RepairStep` (rule, page, offset, before, after), and
:func:`undo` turns repaired text back into the original, which is what makes the
log trustworthy.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields

import ftfy

from pipeline.records import CleanedDocument, IngestedDocument, Page, RepairStep

__all__ = [
    "RULES",
    "RepairConfig",
    "diff_steps",
    "fix_with_ftfy",
    "normalize_nfc",
    "repair",
    "undo",
]

#: ftfy as gazettes need it: typographic quotes are kept (translators want them),
#: full-width characters are left alone, and Unicode normalization is left to
#: :func:`normalize_nfc`, so that the log tells the two apart.
_FTFY_CONFIG = ftfy.TextFixerConfig(uncurl_quotes=False, fix_character_width=False,
                                    normalization=None, explain=False)


def fix_with_ftfy(text: str) -> str:
    """Fix mojibake, HTML entities, control characters and line breaks with ftfy.

    >>> fix_with_ftfy("ConvenÃ§Ã£o destinada a evitar a dupla tributaÃ§Ã£o")
    'Convenção destinada a evitar a dupla tributação'
    >>> fix_with_ftfy("“a Convenção”")
    '“a Convenção”'

    Unsafe when a text really means the characters ftfy takes for mojibake; gazettes
    in Portuguese, English, Swedish and Hindi do not.
    """
    return ftfy.fix_text(text, _FTFY_CONFIG)


def normalize_nfc(text: str) -> str:
    """Put text in Unicode Normalization Form C, the form every later stage expects.

    >>> normalize_nfc("Conven\u0063\u0327\u0061\u0303o")  # c + cedilla, a + tilde
    'Convenção'

    In Devanagari NFC *decomposes* the nukta letters (U+095C ड़ becomes ड + ़), as
    Unicode excludes them from composition; the text reads the same.
    """
    return unicodedata.normalize("NFC", text)


#: The repair rules, in the order they run.
RULES: dict[str, Callable[[str], str]] = {
    "ftfy": fix_with_ftfy,
    "normalize_nfc": normalize_nfc,
}


@dataclass(frozen=True)
class RepairConfig:
    """Which rules run; one field per rule in :data:`RULES`, under the same name."""

    ftfy: bool = True
    normalize_nfc: bool = True

    def enabled(self) -> list[str]:
        """Names of the rules switched on, in the order they run."""
        return [name for name in RULES if getattr(self, name)]


assert [f.name for f in fields(RepairConfig)] == list(RULES), "RepairConfig must mirror RULES"


def repair(document: IngestedDocument, config: RepairConfig | None = None) -> CleanedDocument:
    """Apply the enabled rules to every page and collect the steps they made."""
    config = config or RepairConfig()
    pages: list[Page] = []
    steps: list[RepairStep] = []
    for page in document.pages:
        text = page.text
        for name in config.enabled():
            fixed = RULES[name](text)
            steps.extend(diff_steps(name, page.number, text, fixed))
            text = fixed
        pages.append(Page(number=page.number, method=page.method, reason=page.reason,
                          text=text, ocr_languages=page.ocr_languages,
                          confidence=page.confidence, warnings=page.warnings))
    return CleanedDocument(doc_id=document.source.doc_id, pages=tuple(pages),
                           steps=tuple(steps))


def diff_steps(rule: str, page: int, before: str, after: str) -> list[RepairStep]:
    """Describe the change from ``before`` to ``after`` as steps with offsets in ``before``.

    >>> diff_steps("ftfy", 1, "a ConvenÃ§Ã£o b", "a Convenção b")
    [RepairStep(rule='ftfy', page=1, offset=2, before='ConvenÃ§Ã£o', after='Convenção')]
    """
    if before == after:
        return []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    return [
        RepairStep(rule=rule, page=page, offset=i1, before=before[i1:i2], after=after[j1:j2])
        for tag, i1, i2, j1, j2 in _word_opcodes(matcher, before, after)
        if tag != "equal"
    ]


def _word_opcodes(
    matcher: difflib.SequenceMatcher[str], before: str, after: str
) -> Iterable[tuple[str, int, int, int, int]]:
    """Merge changes that are close together so a step reads as a whole word or phrase."""
    merged: list[list] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if merged and i1 - merged[-1][2] <= 1 and before[merged[-1][2]:i1].strip():
            merged[-1][2], merged[-1][4] = i2, j2
        else:
            merged.append(["replace", i1, i2, j1, j2])
    for _, i1, i2, j1, j2 in merged:
        # widen to word boundaries so "ç" in "Convenção" is logged as the word
        while i1 > 0 and j1 > 0 and before[i1 - 1].isalnum() and after[j1 - 1].isalnum():
            i1, j1 = i1 - 1, j1 - 1
        while (i2 < len(before) and j2 < len(after) and before[i2].isalnum()
               and after[j2].isalnum()):
            i2, j2 = i2 + 1, j2 + 1
        yield "replace", i1, i2, j1, j2


def undo(text: str, steps: Iterable[RepairStep]) -> str:
    """Reverse the steps of one page (all rules), giving back the text before repair.

    Steps are undone rule by rule, last rule first; within a rule each step's
    position in the repaired text is its offset shifted by the steps before it.

    >>> undo("a Convenção b", [RepairStep("ftfy", 1, 2, "ConvenÃ§Ã£o", "Convenção")])
    'a ConvenÃ§Ã£o b'
    """
    by_rule: dict[str, list[RepairStep]] = {}
    for step in steps:
        by_rule.setdefault(step.rule, []).append(step)
    for rule_steps in reversed(by_rule.values()):
        shift = 0
        positions = []
        for step in sorted(rule_steps, key=lambda s: s.offset):
            positions.append((step.offset + shift, step))
            shift += len(step.after) - len(step.before)
        for position, step in reversed(positions):
            assert text[position:position + len(step.after)] == step.after, "log does not match"
            text = text[:position] + step.before + text[position + len(step.after):]
    return text
