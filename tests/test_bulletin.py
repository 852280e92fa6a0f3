"""An English text printed among other items of one file, paired by a real run: a DGT
decision's English text as one item of a bulletin of NTREX news, its Portuguese text
in another file (pipeline.align.documents' parts, pipeline.run.crossdoc)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pairing_data import decisions, paragraph_texts, write_english
from projects import gazette

from pipeline.config import Settings
from pipeline.review.page import load

pytestmark = pytest.mark.slow


def test_a_bulletins_item_pairs_as_a_part_and_only_the_part_is_aligned_and_reviewed(
        shared: Path, tmp_path: Path, prefect_api: dict[str, str]):
    """The decision is a sixth of its bulletin. The run pairs it with its Portuguese
    text, not a sibling decision's, as a part (``pairing.json``); the units' English is
    the decision's and covers most of it; the pair's review page shows the part's
    articles: each English sentence it names is one of the decision's."""
    by_name = {d.name: d for d in decisions(shared)}
    raw = tmp_path / "raw"
    raw.mkdir()
    for name in ("22019D0557", "22019D0556"):
        (raw / f"{name}-pt.txt").write_text("\n".join(paragraph_texts(by_name[name], "pt"))
                                            + "\n", encoding="utf-8")
    bulletin = write_english(by_name["22019D0557"], "bulletin", raw, shared).stem
    run = gazette("run", cwd=tmp_path, api=prefect_api)
    assert run.returncode == 0, run.stdout + run.stderr
    pair_id = f"{bulletin}+22019D0557-pt"
    pairings = sorted(p.parent.name for p in (tmp_path / "aligned").glob("*/pairing.json"))
    assert pairings == [pair_id], run.stdout
    pairing = json.loads((tmp_path / "aligned" / pair_id / "pairing.json").read_text(
        encoding="utf-8"))
    assert pairing["part"] is not None and pairing["confidence"] >= 0.5, pairing
    english = " ".join(paragraph_texts(by_name["22019D0557"], "en"))
    units = [json.loads(line) for line in (tmp_path / "aligned" / pair_id / f"{pair_id}.jsonl")
             .read_text(encoding="utf-8").splitlines()]
    paired = [unit["pivot_text"] for unit in units]
    assert all(text in english for text in paired), [t for t in paired if t not in english]
    assert sum(map(len, paired)) >= 0.8 * len(english)
    page = load(Settings.for_root(tmp_path), pair_id)
    shown = [" ".join(page.sentence("en", row.article, i).split()) for row in page.rows
             for i in row.ids.get("en", ())]
    assert shown and all(text in english for text in shown), [
        t for t in shown if t not in english]
