"""A pair across documents reviewed in Chromium with the mouse only: an English text and
its Portuguese translation in another file are paired by a real run; the reviewer
rejects a unit, joins a sentence, pairs a sentence left alone from its own row,
corrects a word, then undoes the rejection. The next `gazette run` applies exactly the
decisions that stand, the exports mark them, and the page shows them after a reload.
Then a hostile page and hostile requests, sent by the browser, are refused and leave
``reviews/`` untouched."""

from __future__ import annotations

import http.server
import json
import re
import shutil
import threading
from pathlib import Path

import pytest
from conftest import SAMPLES
from projects import chromium, gazette, snapshot, spawn, stop, wait_for
from test_review_app import status_of

from pipeline.config import Settings
from pipeline.review.page import load

PAIR = "en+pt"
pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    shutil.which("chromium") is None, reason="Chromium (Debian chromium) missing")]


def beads(root: Path) -> set[tuple]:
    return {(b["article"], tuple(b["pivot_ids"]), tuple(b["ids"]), b["reviewed"])
            for b in map(json.loads, (root / "aligned" / PAIR / "sentences.jsonl").read_text(
                encoding="utf-8").splitlines())}


def lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def paired(tmp_path: Path, prefect_api: dict[str, str]) -> Path:
    """A project whose inbox holds the Brazil–Sweden protocol's English text and, in
    another file, its Portuguese text (seed 002 cut in two), after its first run."""
    text = (SAMPLES / "002_9382d4ae2bbb4b06.txt").read_text(encoding="utf-8")
    english = text.index("PROTOCOL AMENDING THE CONVENTION")
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / "en.txt").write_text(text[english:text.index("PROTOKOLL")],
                                             encoding="utf-8")
    (tmp_path / "raw" / "pt.txt").write_text(text[:english], encoding="utf-8")
    run = gazette("run", cwd=tmp_path, api=prefect_api)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / "aligned" / PAIR / "sentences.jsonl").is_file(), run.stdout
    return tmp_path


def choose(document) -> tuple[int, int, int, int, int]:
    """Rows to act on: a unit to reject, a unit whose English next sentence is to be
    joined (the next row holds that sentence), a sentence left alone, the unit next
    to it in its article that it is to be paired with, and a unit of running text (not
    a heading: a heading's word corrected into another would make it no heading) with
    a word to correct."""
    rows = document.rows
    both = [n for n, row in enumerate(rows) if {"en", "pt"} <= set(row.ids)]
    alone, mate = next((n, m) for n, row in enumerate(rows) if row.note
                       for m in (n + 1, n - 1) if m in both and rows[m].article == row.article)
    join = next(n for n in both if n + 1 in both and rows[n + 1].article == rows[n].article
                and min(abs(n - alone), abs(n - mate)) > 2)
    reject = next(n for n in both if abs(n - join) > 2 and min(abs(n - alone), abs(n - mate)) > 2)
    edit = next(n for n in both if n not in (join, join + 1, alone, mate) and re.search(
        r"\b[a-zçãéó]{7,}\b", document.sentence("pt", rows[n].article, rows[n].ids["pt"][0])))
    return reject, join, alone, mate, edit


def test_a_pair_across_documents_is_reviewed_with_the_mouse_and_applied_by_the_next_run(
        paired: Path, prefect_api: dict[str, str], tmp_path: Path):
    from playwright.sync_api import sync_playwright

    root = paired
    document = load(Settings.for_root(root), PAIR)
    reject, join, alone, mate, edit = choose(document)
    direction = "next" if mate > alone else "previous"
    server = spawn("review", "--serve", "--who", "ana", cwd=root, env={})
    try:
        assert server.stdout is not None
        url = re.search(r"http://\S+", server.stdout.readline()).group()
        wait_for(lambda: status_of(url) == 200, 300, "the review server")
        with sync_playwright() as playwright:
            browser = chromium(playwright)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(url)
                page.click(f"#pairs a:text-is('{PAIR}')")  # the pair is listed; open it
                page.wait_for_selector("#actions", timeout=600_000)
                status = page.locator("#status")

                def click(*selectors: str, expect: str = "recorded") -> str:
                    for selector in selectors:
                        page.click(selector)
                    page.wait_for_function(
                        "t => document.getElementById('status').textContent.startsWith(t)",
                        arg=expect)
                    text = status.inner_text()
                    page.evaluate("document.getElementById('status').textContent = ''")
                    return text

                def row(n: int) -> str:
                    return f"tr.unit[data-row='{n}'] td >> nth=0"

                # a button with no row selected says what to do
                assert click("#buttons [data-action=confirm]", expect="select a row first")
                click(row(reject), "#buttons [data-action=reject]")
                click(row(join), "#buttons [data-action=join][data-side=pivot]"
                                 "[data-direction=next]")
                merge = f"#buttons [data-action=merge][data-direction={direction}]"
                click(row(alone), merge)
                # the same decision again is not recorded twice
                assert click(merge, expect="already recorded")
                # a word of a unit's Portuguese corrected
                unit = document.rows[edit]
                pt = document.sentence("pt", unit.article, unit.ids["pt"][0])
                word = re.findall(r"\b[a-zçãéó]{7,}\b", pt)[0]
                correction = word[:-1] + ("a" if word[-1] != "a" else "e")
                page.click(row(edit))
                page.fill("#word", word)
                page.fill("#correction", correction)
                page.select_option("#edit-side", "other")
                click("#correct")
                assert page.locator("#decisions li").count() == 4
                # undo the rejection from the list of decisions
                page.click("#decisions li:first-child button.undo")
                page.wait_for_function(
                    "() => document.getElementById('status').textContent.startsWith('undone')")
                assert page.locator("#decisions li").count() == 3
                page.reload()  # the decisions in effect, and their rows, after a reload
                page.wait_for_selector("#actions", timeout=600_000)
                assert page.locator("#decisions li").count() == 3
                decided = {int(n) for n in page.locator("tr.decided").evaluate_all(
                    "rows => rows.map(r => r.dataset.row)")}
                assert {join, alone, edit} <= decided and reject not in decided
                assert "in the review of pt" in page.locator("#decisions").inner_text()
                page.screenshot(path=str(tmp_path / "pair-review.png"))
            finally:
                browser.close()
    finally:
        stop(server)

    made = lines(root / "reviews" / f"{PAIR}.jsonl")
    assert [(d["action"], d["who"]) for d in made] == [
        ("reject", "ana"), ("join", "ana"), ("join", "ana"), ("undo", "ana")]
    assert made[3]["of"] == made[0]["id"]
    assert [d["action"] for d in lines(root / "reviews" / "pt.jsonl")] == ["edit"]

    before = beads(root)
    run = gazette("run", cwd=root, api=prefect_api)
    assert run.returncode == 0, run.stdout + run.stderr
    after = beads(root)
    rows = document.rows
    joined = rows[join]
    english = (*joined.ids["en"], joined.ids["en"][-1] + 1)
    assert (joined.article, english, joined.ids["pt"], True) in after
    mates = [rows[alone], rows[mate]]
    merged = tuple(sorted({i for r in mates for i in r.ids.get("pt", ())}))
    merged_en = tuple(sorted({i for r in mates for i in r.ids.get("en", ())}))
    assert (rows[alone].article, merged_en, merged, True) in after
    # the rejection was undone: its pair is given as before, by the aligner
    rejected = rows[reject]
    assert (rejected.article, rejected.ids["en"], rejected.ids["pt"], False) in after
    assert (rejected.article, rejected.ids["en"], rejected.ids["pt"], False) in before
    outcome = json.loads((root / "aligned" / PAIR / "review.json").read_text(encoding="utf-8"))
    assert outcome == {"decisions": 2, "stale": []}
    repairs = lines(root / "cleaned" / "pt" / "repairs.jsonl")
    assert [(r["before"], r["after"]) for r in repairs if r["rule"] == "reviewer"] == [
        (word, correction)]
    xliff = (root / "aligned" / PAIR / f"{PAIR}.en-pt.xlf").read_text(encoding="utf-8")
    assert xliff.count('state="reviewed"') == 2
    exported = gazette("export", "--reviewed-only", "--format", "jsonl", "--local", cwd=root)
    assert exported.returncode == 0, exported.stdout + exported.stderr
    units = lines(root / "aligned" / "_corpus" / "corpus.jsonl")
    assert {u["doc"] for u in units} == {PAIR} and len(units) == 2
    pair_units = lines(root / "aligned" / PAIR / f"{PAIR}.jsonl")  # the pair has the word
    assert correction in " ".join(t["text"] for u in pair_units for t in u["translations"])

    # up to date now: nothing to do, and a re-run of the pair gives the same outputs
    again = gazette("run", cwd=root, api=prefect_api)
    assert "no flow run" in again.stdout, again.stdout
    kept = snapshot(root, [PAIR])
    rerun = gazette("rerun", PAIR, "--local", cwd=root, api=prefect_api)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert snapshot(root, [PAIR]) == kept
    status = " ".join(gazette("status", cwd=root).stdout.split())
    assert re.search(rf"│ {re.escape(PAIR)} │ done │", status) and "file gone" not in status


class _HostilePage(http.server.BaseHTTPRequestHandler):
    """Another site's page: a form that posts a decision to the review app."""

    target = ""

    def do_GET(self) -> None:
        body = (f'<form id="f" method="POST" action="{self.target}" enctype="text/plain">'
                '<input name=\'{"row": 0, "language": "pt", "action": "reject", "x": "\' '
                'value=\'"}\'></form><script>document.getElementById("f").submit()'
                "</script>").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def test_hostile_requests_from_a_browser_are_refused_and_record_nothing(
        paired: Path, tmp_path: Path):
    from playwright.sync_api import sync_playwright

    root = paired
    server = spawn("review", "--serve", PAIR, "--who", "eve", cwd=root, env={})
    hostile = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _HostilePage)
    threading.Thread(target=hostile.serve_forever, daemon=True).start()
    try:
        assert server.stdout is not None
        url = re.search(r"http://\S+", server.stdout.readline()).group()
        base, token = url.split("/doc/")[0], url.split("token=")[1]
        api = f"{base}/doc/{PAIR}/decisions?token={token}"
        wait_for(lambda: status_of(f"{base}/?token={token}") == 200, 300, "the review server")
        _HostilePage.target = api
        with sync_playwright() as playwright:
            browser = chromium(playwright)
            try:
                page = browser.new_page()
                answers = []
                page.on("response", lambda r: answers.append(r.status) if "/decisions" in r.url
                        else None)
                page.goto(f"http://127.0.0.1:{hostile.server_address[1]}/")
                page.wait_for_load_state("networkidle")
                assert answers == [403], answers  # the form posted, from another origin

                page.goto(f"{base}/?token={token}")  # the app's own origin, hostile bodies
                cases = {
                    "oversize": ("application/json", '"' + "x" * 100_000 + '"', 413),
                    "deep": ("application/json", "[" * 10_000, 400),  # under the size limit
                    "row true": ("application/json",
                                 '{"row": true, "language": "pt", "action": "reject"}', 400),
                    "long word": ("application/json", json.dumps(
                        {"row": 0, "language": "pt", "action": "edit", "word": "a",
                         "correction": "x" * 5000}), 400),
                    "plain text": ("text/plain", '{"row": 0, "language": "pt", '
                                   '"action": "reject"}', 415),
                    "undo of nothing": ("application/json",
                                        '{"action": "undo", "of": "0123456789abcdef"}', 400),
                }
                for name, (kind, body, expected) in cases.items():
                    got = page.evaluate(
                        """([api, kind, body]) => fetch(api, {method: 'POST',
                            headers: {'Content-Type': kind}, body: body})
                            .then(r => r.json().then(d => [r.status, d.error]))""",
                        [api, kind, body])
                    assert got[0] == expected and got[1], (name, got)
                no_token = page.evaluate(
                    "api => fetch(api, {method: 'POST', headers: {'Content-Type': "
                    "'application/json'}, body: '{}'}).then(r => r.status)",
                    api.split("?")[0])
                assert no_token == 403
            finally:
                browser.close()
    finally:
        hostile.shutdown()
        stop(server)
    assert not (root / "reviews").exists()
