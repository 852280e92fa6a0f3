"""The run report: a Markdown summary of one run, kept as a Prefect artifact.

One table row per document (status, pages by reading method, languages, repairs by
rule, units aligned per language with the low-confidence ones, and for a failure
its reason), then the totals and the settings that are not the defaults.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pipeline.records import DocumentSummary

__all__ = ["run_report"]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def run_report(summaries: list[DocumentSummary], settings: dict[str, Any] | None = None
               ) -> str:
    """The Markdown report of a run, with the settings it ran with that are not the
    defaults (``gazette.toml`` and the run's overrides).

    >>> done = DocumentSummary("d", "d.txt", "done", pages=1, methods={"ocr": 1},
    ...                        languages=("en", "pt"), repairs=2, rules={"ftfy": 2},
    ...                        pairs={"pt": 10}, flagged={"pt": 1})
    >>> failed = DocumentSummary("x", "x.pdf", "failed", error="empty file (0 bytes)")
    >>> print(run_report([done, failed]).splitlines()[2])
    | d | done | ocr 1 | en pt | ftfy 2 | en-pt 10 (1 low) |  |
    """
    lines = ["| document | status | pages | languages | repairs | aligned | failure |",
             "|---|---|---|---|---|---|---|"]
    for s in summaries:
        lines.append("| " + " | ".join(_cell(value) for value in (
            s.doc_id, s.status,
            ", ".join(f"{method} {n}" for method, n in s.methods.items()),
            " ".join(s.languages) + (f" ({s.acts} acts)" if s.acts else ""),
            ", ".join(f"{rule} {n}" for rule, n in s.rules.items()),
            ", ".join(f"en-{lang} {n}" + (f" ({s.flagged[lang]} low)" if s.flagged.get(lang)
                                          else "") for lang, n in s.pairs.items()),
            s.error or "")) + " |")
    status = Counter(s.status for s in summaries)
    methods: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    for s in summaries:
        methods.update(s.methods)
        rules.update(s.rules)
    lines += [
        "",
        f"**{status['done']} processed, {status['skipped']} unchanged, "
        f"{status['failed']} failed.** Pages by method: "
        + (", ".join(f"{m} {n}" for m, n in sorted(methods.items())) or "none")
        + ". Repairs by rule: "
        + (", ".join(f"{r} {n}" for r, n in rules.most_common()) or "none")
        + ". Units aligned: " + str(sum(sum(s.pairs.values()) for s in summaries))
        + ", low confidence: " + str(sum(sum(s.flagged.values()) for s in summaries)) + ".",
        "",
        "Settings other than the defaults: " + (", ".join(
            f"`{name} = {value!r}`" for name, value in (settings or {}).items()) or "none")
        + ".",
    ]
    return "\n".join(lines) + "\n"
