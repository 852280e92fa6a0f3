"""The review app refuses what its page would not send (hostile requests): each gets a
4xx with a reason and leaves ``reviews/`` untouched. In process, no browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pipeline.config import Settings
from pipeline.review.app import MAX_BODY, MAX_WORD, review_app

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
