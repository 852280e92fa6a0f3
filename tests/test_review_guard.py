"""The review app refuses what its page would not send (hostile requests): each gets a
4xx with a reason and leaves ``reviews/`` untouched. In process, no browser."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pipeline.config import Settings
from pipeline.errors import InputError
from pipeline.project.decisions import sentence_key
from pipeline.review.app import MAX_BODY, MAX_WORD, decision_for, review_app
from pipeline.review.page import Document, Part, Row

TOKEN = "s3cret-token"
DECISION = {"row": 0, "language": "pt", "action": "confirm"}


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(review_app(Settings.for_root(tmp_path), TOKEN, "ana"),
                      base_url="http://127.0.0.1:8765")


def post(client: TestClient, body: bytes, **headers: str) -> tuple[int, str]:
    answer = client.post(f"/doc/nowhere/decisions?token={TOKEN}", content=body,
                         headers={"content-type": "application/json", **headers})
    return answer.status_code, answer.json()["error"]


@pytest.mark.parametrize("path", ["/", "/doc/x", "/no/such/path", "/doc/x/decisions"])
def test_every_path_is_403_without_the_token(client: TestClient, path: str):
    assert client.get(path).status_code == 403
    assert client.get(f"{path}?token=wrong").status_code == 403


def test_hostile_decisions_are_refused_with_a_reason(client: TestClient, tmp_path: Path):
    body = json.dumps(DECISION).encode()
    cases = [
        (post(client, body, origin="https://evil.example"), 403, "review page only"),
        (client.post(f"/doc/nowhere/decisions?token={TOKEN}", data={"row": "0"}), 415,
         "application/json"),
        (post(client, body, **{"content-type": "text/plain"}), 415, "application/json"),
        (post(client, b" " * (MAX_BODY + 1)), 413, f"at most {MAX_BODY} bytes"),
        (post(client, b"[" * 10_000), 400, "not a JSON object"),  # 10,000 deep
        (post(client, json.dumps({**DECISION, "row": True}).encode()), 400, "'row' must be"),
        (post(client, json.dumps({**DECISION, "row": "3"}).encode()), 400, "'row' must be"),
        (post(client, json.dumps({**DECISION, "action": "edit", "word": "a",
                                  "correction": "x" * (MAX_WORD + 1)}).encode()),
         400, "longer than"),
        (post(client, json.dumps({**DECISION, "evil": 1}).encode()), 400, "unknown field"),
        (post(client, json.dumps({"row": 0}).encode()), 400, "missing"),
    ]
    for answer, status, reason in cases:
        code, error = answer if isinstance(answer, tuple) else (
            answer.status_code, answer.json()["error"])
        assert (code, reason in error) == (status, True), (code, error)
    # a well-formed decision about a document the catalog lacks: 404, nothing recorded
    assert post(client, body)[0] == 404
    assert not (tmp_path / "reviews").exists()


#: A page of one article: two English sentences, two Portuguese, a row of each pair,
#: and a row with an English sentence alone.
TEXT = "One came. Two came. Um veio. Dois vieram."
PAGE = Document(doc_id="d", source="d.txt", text=TEXT, pivot="en", languages=("en", "pt"),
                headings={}, sentences={("en", "1"): [(0, 9), (10, 19)],
                                        ("pt", "1"): [(20, 28), (29, 41)]},
                rows=[Row("1", {"en": (0,), "pt": (0,)}, {"pt": 0.9}, False),
                      Row("1", {"en": (1,), "pt": (1,)}, {"pt": 0.9}, False),
                      Row("1", {"en": (1,)}, {}, True)],
                marks=[], problems=[])


@pytest.mark.parametrize(("request_", "reason"), [
    ({"row": 3, "language": "pt", "action": "confirm"}, "no row 3 on this page"),
    ({"row": 0, "language": "sv", "action": "confirm"}, "no 'sv' text on this page"),
    ({"row": 2, "language": "pt", "action": "confirm"}, "row 2 pairs no en sentence with pt"),
    ({"row": 0, "language": "pt", "action": "join", "side": "middle", "direction": "next"},
     "a join needs a side"),
    ({"row": 1, "language": "pt", "action": "join", "side": "pivot", "direction": "next"},
     "no next sentence to join on that side"),
    ({"row": 0, "language": "pt", "action": "join", "side": "other",
      "direction": "previous"}, "no previous sentence to join on that side"),
    ({"row": 0, "language": "pt", "action": "split"}, "a split needs two sentences or more"),
    ({"row": 0, "language": "pt", "action": "fuse"}, "unknown action 'fuse'"),
    ({"row": 0, "language": "pt", "action": "merge"}, "a merge needs a direction"),
    ({"row": 0, "language": "pt", "action": "merge", "direction": "previous"},
     "no previous row in the same article"),
    ({"row": 2, "language": "pt", "action": "merge", "direction": "next"},
     "no next row in the same article"),
])
def test_an_action_that_does_not_fit_its_row_is_refused_with_why(request_, reason):
    with pytest.raises(InputError, match=reason):
        decision_for(PAGE, request_)


def test_an_action_that_fits_stands_for_beads_of_the_row_s_sentences():
    joined = decision_for(PAGE, {"row": 0, "language": "pt", "action": "join",
                                 "side": "pivot", "direction": "next"})
    assert joined == {"action": "join", "article": "1", "language": "pt",
                      "beads": [{"pivot": [sentence_key("One came."), sentence_key("Two came.")],
                                 "other": [sentence_key("Um veio.")]}]}


#: A page whose second row is an English sentence left alone and whose third a
#: Portuguese one: an orphan is paired from its own row with the row above or below.
ORPHANS = Document(
    doc_id="d", source="d.txt", text=TEXT, pivot="en", languages=("en", "pt"), headings={},
    sentences=PAGE.sentences, marks=[], problems=[],
    rows=[Row("1", {"en": (0,), "pt": (0,)}, {"pt": 0.9}, False),
          Row("1", {"en": (1,)}, {}, True), Row("1", {"pt": (1,)}, {}, True)])


def keys(*sentences: str) -> list[str]:
    return [sentence_key(s) for s in sentences]


def test_an_orphan_sentence_is_paired_from_its_own_row():
    with pytest.raises(InputError, match="pair it with the row above or below"):
        decision_for(ORPHANS, {"row": 1, "language": "pt", "action": "confirm"})
    above = decision_for(ORPHANS, {"row": 1, "language": "pt", "action": "merge",
                                   "direction": "previous"})
    assert above["action"] == "join" and above["beads"] == [
        {"pivot": keys("One came.", "Two came."), "other": keys("Um veio.")}]
    below = decision_for(ORPHANS, {"row": 1, "language": "pt", "action": "merge",
                                   "direction": "next"})
    assert below["beads"] == [{"pivot": keys("Two came."), "other": keys("Dois vieram.")}]
    # an English sentence between them (in a row of another language): no one unit
    gap = replace(ORPHANS, rows=[Row("1", {"en": (0,), "pt": (0,)}, {"pt": 0.9}, False),
                                 Row("1", {"en": (2,), "pt": (1,)}, {"pt": 0.9}, False)])
    with pytest.raises(InputError, match="not next to each other"):
        decision_for(gap, {"row": 0, "language": "pt", "action": "merge", "direction": "next"})


#: A pair across documents: the English document's text, then the Portuguese one's.
PAIR_TEXT = "One fiscai. Um fiscai."
PAIR = Document(doc_id="en+pt", source="en.txt + pt.txt", text=PAIR_TEXT, pivot="en",
                languages=("en", "pt"), headings={},
                sentences={("en", "1"): [(0, 11)], ("pt", "1"): [(12, 22)]},
                rows=[Row("1", {"en": (0,), "pt": (0,)}, {"pt": 0.9}, False)], marks=[],
                problems=[], parts=(Part("en", 0, 11), Part("pt", 12, 22)))


def test_a_word_corrected_on_a_pair_s_page_is_a_correction_of_its_own_document():
    edit = decision_for(PAIR, {"row": 0, "language": "pt", "action": "edit",
                               "word": "fiscai", "correction": "fiscal"})
    # the text around it is the Portuguese document's alone
    assert edit["document"] == "pt" and edit["edit"] == {
        "before": "fiscai", "after": "fiscal", "left": "Um ", "right": "."}
    english = decision_for(PAIR, {"row": 0, "language": "en", "action": "edit",
                                  "word": "fiscai", "correction": "fiscal"})
    assert english["document"] == "en" and english["edit"]["left"] == "One "
