"""Review decisions as source data: recorded, resolved (the later one wins), applied by
the aligner (fixed pairs kept, rejected ones never given) and by the repair stage (word
edits as logged repairs), reported when the text under them changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SAMPLES

from pipeline.align import align_sentences, pair_articles
from pipeline.config import DEFAULT_MODEL_DIR, Settings
from pipeline.embedding.encoder import Encoder
from pipeline.errors import InputError
from pipeline.project.decisions import (
    apply_edits,
    digest,
    edit_context,
    in_effect,
    record,
    resolve,
    review_file,
    sentence_key,
)
from pipeline.project.store import DocumentOutput, is_up_to_date, write_atomic
from pipeline.read.ingest import source_for
from pipeline.records import CleanedDocument, Page, SentencePair
from pipeline.repair import undo
from pipeline.run.plan import documents_key, pairing_done, unchanged_run
from pipeline.run.stages import read_structure


def bead(article: str, language: str, pivot: list[str], other: list[str]) -> dict:
    return {"article": article, "language": language,
            "beads": [{"pivot": [sentence_key(s) for s in pivot],
                       "other": [sentence_key(s) for s in other]}]}


def test_decisions_are_checked_appended_and_the_later_one_wins(tmp_path: Path):
    settings = Settings.for_root(tmp_path)
    with pytest.raises(InputError, match="unknown review action"):
        record(settings, "d", {"action": "approve"}, "ana")
    with pytest.raises(InputError, match="needs the article"):
        record(settings, "d", {"action": "confirm", "article": "1"}, "ana")
    assert digest(settings, "d") is None
    record(settings, "d", {"action": "confirm", **bead("1", "pt", ["A."], ["Um."])}, "ana")
    record(settings, "d", {"action": "join", **bead("1", "pt", ["A."], ["Um.", "Dois."])}, "rui")
    record(settings, "d", {"action": "reject", **bead("2", "pt", ["B."], ["Três."])}, "ana")
    lines = [json.loads(line) for line in review_file(settings, "d").read_text().splitlines()]
    assert [(line["who"], line["action"]) for line in lines] == [
        ("ana", "confirm"), ("rui", "join"), ("ana", "reject")]
    review = resolve(settings, "d")
    keys = [sentence_key(s) for s in ("A.", "Um.", "Dois.")]
    assert review.fixed[("1", "pt")] == [((keys[0],), (keys[1], keys[2]))]  # join replaced it
    assert len(review.rejected[("2", "pt")]) == 1 and review.decisions == 3
    assert digest(settings, "d") is not None


def test_a_decision_is_recorded_once_and_an_undo_withdraws_it_keeping_the_history(
        tmp_path: Path):
    settings = Settings.for_root(tmp_path)
    reject = {"action": "reject", **bead("1", "pt", ["A."], ["Um."])}
    join = {"action": "join", **bead("1", "pt", ["A."], ["Um.", "Dois."])}
    first = record(settings, "d", reject, "ana")
    again = record(settings, "d", reject, "rui")  # pressed twice, or by another reviewer
    assert again == {**first, "duplicate": True}
    joined = record(settings, "d", join, "ana")
    assert [line["id"] for line in in_effect(settings, "d")] == [first["id"], joined["id"]]
    assert len(resolve(settings, "d").rejected[("1", "pt")]) == 1

    record(settings, "d", {"action": "undo", "of": first["id"]}, "ana")
    assert [line["id"] for line in in_effect(settings, "d")] == [joined["id"]]
    review = resolve(settings, "d")
    assert review.rejected[("1", "pt")] == set() and review.decisions == 1
    with pytest.raises(InputError, match=r"no decision .* in effect to undo"):
        record(settings, "d", {"action": "undo", "of": first["id"]}, "ana")
    with pytest.raises(InputError, match="names the id"):
        record(settings, "d", {"action": "undo"}, "ana")
    # made again after its undo, it stands again; the file holds every line
    record(settings, "d", reject, "ana")
    assert len(resolve(settings, "d").rejected[("1", "pt")]) == 1
    assert [json.loads(line)["action"] for line in review_file(settings, "d").read_text()
            .splitlines()] == ["reject", "join", "undo", "reject"]


def test_a_word_edit_is_a_logged_undoable_repair_or_reported_when_gone(tmp_path: Path):
    settings = Settings.for_root(tmp_path)
    text = "O imposto fiscai sobre a renda."
    start = text.index("fiscai")
    record(settings, "d", {"action": "edit", "edit": {
        "before": "fiscai", "after": "fiscal", **edit_context(text, start, start + 6)}}, "ana")
    review = resolve(settings, "d")
    cleaned = apply_edits(CleanedDocument("d", (Page(1, "ocr", "t", text),)), review)
    assert cleaned.pages[0].text == "O imposto fiscal sobre a renda."
    assert [(s.rule, s.before, s.after) for s in cleaned.steps] == [
        ("reviewer", "fiscai", "fiscal")]
    assert undo(cleaned.pages[0].text, cleaned.steps) == text and not review.stale
    other = apply_edits(CleanedDocument("d", (Page(1, "ocr", "t", "Outro texto."),)), review)
    assert other.steps == () and review.stale == [
        "edit 'fiscai' → 'fiscal': the word is no longer in the text with the same words "
        "around it"]


@pytest.mark.slow
def test_the_aligner_keeps_fixed_pairs_and_never_gives_rejected_ones(tmp_path: Path):
    """Seed 002 (a treaty in Portuguese, English and Swedish) aligned with the real
    model (articles 2 and 3), then again with a reviewer's decisions on article 2."""
    settings = Settings.for_root(tmp_path)
    _, _, articles = read_structure(SAMPLES / "002_9382d4ae2bbb4b06.txt", settings)
    pairs = {"pt": [p for p in pair_articles(articles, "en")["pt"] if p.key in ("2", "3")]}
    encode = Encoder(DEFAULT_MODEL_DIR, cache=tmp_path / "vectors.sqlite").encode
    before = align_sentences(pairs, encode)["pt"]
    matched = [p for p in before if p.article == "2" and p.matched]
    wrong, right = matched[0], matched[1]

    # reject the first pair; join the second with the Portuguese sentence after it
    next_pt = next(p for p in before if p.article == "2" and p.ids
                   and p.ids[0] == right.ids[-1] + 1)
    record(settings, "d", {"action": "reject", **bead(
        "2", "pt", [wrong.pivot_text], [wrong.text])}, "ana")
    record(settings, "d", {"action": "join", **bead(
        "2", "pt", [right.pivot_text], [right.text, next_pt.text])}, "ana")
    review = resolve(settings, "d")
    after = align_sentences(pairs, encode, review=review)["pt"]

    def beads(found: list[SentencePair]) -> set[tuple]:
        return {(p.article, p.pivot_ids, p.ids) for p in found}

    assert ("2", wrong.pivot_ids, wrong.ids) not in beads(after)
    assert {(p.pivot_ids, p.ids, p.reviewed) for p in after if p.article == "2"} >= {
        (wrong.pivot_ids, (), True), ((), wrong.ids, True),
        (right.pivot_ids, right.ids + next_pt.ids, True)}
    joined = next(p for p in after if p.pivot_ids == right.pivot_ids and p.article == "2")
    assert joined.confidence == 1.0 and not joined.flagged
    # other articles are aligned as before; nothing went stale
    assert beads([p for p in after if p.article != "2"]) == beads(
        [p for p in before if p.article != "2"])
    assert review.stale == []


def test_a_changed_review_makes_a_document_out_of_date(tmp_path: Path):
    settings = Settings.for_root(tmp_path)
    source = source_for(SAMPLES / "001_92f44dad33fafe9c.txt")
    out = DocumentOutput(settings, source.doc_id)
    out.start()
    out.write("aligned", "units.jsonl", "")
    out.publish({"sha256": source.sha256, "build": settings.output_key(), "review": None})
    assert is_up_to_date(settings, source)
    record(settings, source.doc_id, {"action": "confirm", **bead("1", "pt", ["A."], ["B."])},
           "ana")
    assert not is_up_to_date(settings, source)  # the review is an input of the document


def _published(settings: Settings, doc: str, text: str) -> None:
    """A document in the inbox, processed and published as a run does."""
    write_atomic(settings.raw / f"{doc}.txt", text)
    out = DocumentOutput(settings, doc)
    out.start()
    out.write("aligned", "units.jsonl", "")
    out.publish({"sha256": source_for(settings.raw / f"{doc}.txt").sha256,
                 "build": settings.output_key(), "review": None,
                 "summary": {"doc_id": doc, "relpath": f"{doc}.txt", "status": "done"}})


def test_documents_published_after_pairing_ended_leave_pairing_to_do(tmp_path: Path):
    """A run killed after its documents were published, before pairing ended: the next
    run has pairing to do, though every document is up to date."""
    settings = Settings.for_root(tmp_path)
    assert unchanged_run(settings) is not None  # an empty inbox: nothing to pair
    _published(settings, "en", "One.")
    pairing_done(settings, documents_key(settings, {"en"}))
    assert unchanged_run(settings) is not None
    _published(settings, "pt", "Um.")  # then killed
    assert unchanged_run(settings) is None


def test_a_pair_s_new_review_decision_is_work_for_a_run_with_nothing_else_new(tmp_path: Path):
    settings = Settings.for_root(tmp_path)
    for doc, text in (("en", "One."), ("pt", "Um.")):
        _published(settings, doc, text)
    pair = DocumentOutput(settings, "en+pt")
    pair.start()
    pair.write("aligned", "pairing.json", json.dumps({"english": "en", "other": "pt"}))
    pair.publish({"review": None})
    assert unchanged_run(settings) is None  # the documents were never paired
    pairing_done(settings, documents_key(settings, {"en", "pt"}))
    assert unchanged_run(settings) is not None  # nothing to do
    record(settings, "en+pt", {"action": "reject", **bead("1", "pt", ["One."], ["Um."])},
           "ana")
    assert unchanged_run(settings) is None  # the pair is to be aligned again
