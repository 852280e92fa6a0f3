"""An edition's acts through their stages on the run's workers (pipeline.run.document):
real DOU pages, real worker processes."""

from __future__ import annotations

import json
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pdfplumber
import pytest

from pipeline import workers
from pipeline.config import Settings
from pipeline.editions.cut import ActDocument, cut_edition
from pipeline.errors import LockLostError
from pipeline.project.catalog import Catalog
from pipeline.read.ingest import ingest, source_for
from pipeline.read.pagedecision import text_in_reading_order
from pipeline.run import document
from pipeline.split.languages import MINOR_SHARE


def edition_acts(root: Path, shared: Path, numbers: tuple[int, ...] = (1, 2)
                 ) -> tuple[Settings, list[ActDocument]]:
    """A project at ``root`` whose inbox holds DOU pages (``numbers``, from 1; the
    first has the masthead) of 1 October 2014 as a text dump, and the acts they are
    cut into."""
    with pdfplumber.open(shared / "corpora/brazil-pdfs/DOUS1a.pdf") as pdf:
        pages = [text_in_reading_order(pdf.pages[n - 1]).text for n in numbers]
    (root / "raw").mkdir(parents=True)
    (root / "raw" / "dou.txt").write_text("\f".join(pages), encoding="utf-8")
    settings = Settings.for_root(root)
    return settings, list(cut_edition(ingest(source_for(root / "raw" / "dou.txt"),
                                             settings)).acts)


def outputs(settings: Settings) -> dict[str, bytes]:
    """Every published file of a project, by its path under the project."""
    root = settings.cleaned.parent
    return {str(path.relative_to(root)): path.read_bytes()
            for folder in (settings.cleaned, settings.aligned)
            for path in sorted(folder.rglob("*")) if path.is_file()}


def test_acts_on_the_workers_give_what_they_give_here(tmp_path: Path, shared: Path):
    """The same acts processed on the run's worker processes and in this process
    publish the same bytes, and the catalog records each one done, with its stages."""
    here, acts = edition_acts(tmp_path / "here", shared)
    there, same_acts = edition_acts(tmp_path / "there", shared)
    assert len(acts) >= 5
    run_here, run_there = Catalog(here).start_run("test"), Catalog(there).start_run("test")
    try:
        done_here = [document.process_act(act, here, run_here).summary for act in acts]
        done_there = [outcome.summary for outcome in document.process_acts_on_workers(
            same_acts, there, run_there)]
    finally:
        workers.shutdown()
    assert done_here == done_there and {s.status for s in done_here} == {"done"}
    assert outputs(here) == outputs(there) and len(outputs(here)) >= 10 * len(acts)
    rows = Catalog(there).documents()
    assert {row.status for row in rows} == {"done"} and len(rows) == len(acts)
    assert all(set(row.stages) == {"repair", "split", "structure", "align", "export"}
               for row in rows)


@pytest.mark.parametrize("when", ["working", "handed out"])
def test_an_act_whose_worker_dies_fails_with_the_reason(when: str, tmp_path: Path,
                                                         shared: Path,
                                                         monkeypatch: pytest.MonkeyPatch):
    """A worker that dies under acts (killed, out of memory), or a pool stopped for one
    that died as acts are handed out, fails the acts the pool had with the reason,
    recorded in the catalog, and stops the pool so the next acts start a new one."""
    settings, acts = edition_acts(tmp_path, shared)

    class DyingPool:
        def submit(self, *args: object) -> Future[object]:
            if when == "handed out":
                raise RuntimeError("cannot schedule new futures after shutdown")
            dead: Future[object] = Future()
            dead.set_exception(BrokenProcessPool("A child process terminated abruptly"))
            return dead

    stopped = []
    monkeypatch.setattr(workers, "pool", lambda count: DyingPool())
    monkeypatch.setattr(workers, "shutdown", lambda: stopped.append(True))
    run_id = Catalog(settings).start_run("test")
    outcomes = document.process_acts_on_workers(acts[:2], settings, run_id)
    assert [o.summary.status for o in outcomes] == ["failed", "failed"]
    assert all("the process working on it died" in str(o.summary.error) for o in outcomes)
    assert stopped == [True, True]
    row = Catalog(settings).document(acts[0].doc_id)
    assert row is not None and row["status"] == "failed"


def test_a_worker_whose_run_has_ended_writes_nothing(tmp_path: Path, shared: Path,
                                                     monkeypatch: pytest.MonkeyPatch):
    """A worker left running by a killed run (adopted by another process) takes no act
    up: a new run will, and the two would write the same folders."""
    settings, acts = edition_acts(tmp_path, shared)
    monkeypatch.setattr(workers, "_PARENT", -1)  # not this process's parent
    with pytest.raises(LockLostError, match="has ended"):
        document.process_act(acts[0], settings, Catalog(settings).start_run("test"))
    assert not settings.cleaned.exists() or not any(settings.cleaned.iterdir())


def test_a_language_of_a_few_lines_is_not_aligned():
    """Brand names in a table taken for English make 3 % of a Portuguese act's letters:
    they are not aligned with the whole act (each pair would be noise); a language of
    a real share of the text is."""
    from pipeline.records import Block
    from pipeline.run.stages import languages_to_align
    from pipeline.split.languages import sections_of

    portuguese = "O Ministro de Estado resolve aprovar o regulamento anexo. " * 8
    blocks = [Block(1, 0, len(portuguese), portuguese, "pt", "langdetect"),
              Block(1, len(portuguese) + 1, len(portuguese) + 16, "MR. ROBUST NESTEA",
                    "en", "langdetect")]
    articles = {"pt": [], "en": []}
    assert list(languages_to_align(articles, sections_of(blocks, max_island_letters=0))) == [
        "pt"]
    half = [blocks[0], Block(2, 0, len(portuguese), "The Minister approves the rules. " * 14,
                             "en", "langdetect")]
    assert list(languages_to_align(articles, sections_of(half, max_island_letters=0))) == [
        "pt", "en"]


def test_an_act_whose_english_is_a_price_table_is_not_aligned(tmp_path: Path, shared: Path):
    """The DOU's PORTARIA Nº 429 (pages 15–20) prices drinks by brand: langdetect takes
    the brand names for English, 23 % of the act's letters, but none of it is prose,
    so the act publishes no pairs; the Portuguese text is kept."""
    settings, acts = edition_acts(tmp_path, shared, (1, 15, 16, 17, 18, 19, 20))
    (act,) = [act for act in acts if act.doc_id.endswith("--portaria-429")]
    summary = document.process_act(act, settings, Catalog(settings).start_run("test")).summary
    assert summary.status == "done" and summary.languages == ("pt", "en")
    manifest = json.loads((settings.cleaned / act.doc_id / "manifest.json").read_text())
    assert manifest["language_shares"]["en"] > MINOR_SHARE
    assert summary.pairs == {} and not list((settings.aligned / act.doc_id).glob("*.tmx"))
