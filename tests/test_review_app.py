"""`gazette review --serve` in Chromium: a reviewer goes through the flagged units by
keyboard, rejects one, joins two sentences and corrects a word; the next `gazette rerun`
respects it all and the exports say so; the server refuses what it should. (A pair
across documents reviewed with the mouse: ``test_review_pairs.py``.)"""

from __future__ import annotations

import json
import re
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from projects import SampleRun, chromium, gazette, snapshot, spawn, stop, wait_for

from pipeline.config import Settings
from pipeline.review.page import load

DOC = "002_9382d4ae2bbb4b06"
pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    shutil.which("chromium") is None, reason="Chromium (Debian chromium) missing")]


def status_of(url: str, data: bytes | None = None) -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0


def sentences(root: Path) -> list[dict]:
    return [json.loads(line) for line in (root / "aligned" / DOC / "sentences.jsonl")
            .read_text(encoding="utf-8").splitlines()]


def test_a_reviewer_s_decisions_are_kept_and_applied_by_the_next_run(
        sample_run: SampleRun, tmp_path: Path, prefect_api: dict[str, str]):
    from playwright.sync_api import sync_playwright

    root = sample_run.copy(tmp_path / "project")
    document = load(Settings.for_root(root), DOC)
    server = spawn("review", "--serve", DOC, "--who", "ana", cwd=root, env={})
    try:
        assert server.stdout is not None
        url = re.search(r"http://\S+", server.stdout.readline()).group()
        base, token = url.split("/doc/")[0], url.split("token=")[1]
        # the list of documents answers at once; a document's page embeds its sentences
        # for the similarity maps first (the model loaded on the first page asked)
        wait_for(lambda: status_of(f"{base}/?token={token}") == 200, 300, "the review server")
        # no token, a wrong one, a document the catalog does not have: refused
        assert status_of(f"{base}/doc/{DOC}") == 403
        assert status_of(f"{base}/doc/{DOC}?token=x{token}") == 403
        assert status_of(f"{base}/doc/elsewhere?token={token}") == 404
        assert status_of(f"{base}/doc/{DOC}/decisions", b'{"row": 1}') == 403

        with sync_playwright() as playwright:
            browser = chromium(playwright)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.goto(url, timeout=600_000)  # a deadline for a loaded machine
                status = page.locator("#status")

                def press(key: str, expect: str) -> None:
                    page.keyboard.press(key)
                    page.wait_for_function(
                        "t => document.getElementById('status').textContent.startsWith(t)",
                        arg=expect)

                def focused() -> int:
                    return int(page.locator("tr.focus").get_attribute("data-row"))

                # j goes through the flagged units; the first ones paired with Portuguese
                # are rejected, then joined with the next English sentence
                flagged = [i for i, row in enumerate(document.rows) if row.flagged]
                paired = [i for i in flagged if {"en", "pt"} <= set(document.rows[i].ids)]
                while True:
                    page.keyboard.press("j")
                    if focused() == paired[0]:
                        break
                    assert focused() in flagged
                press("r", "recorded: reject")
                page.keyboard.press("j")
                while focused() != paired[1]:
                    page.keyboard.press("j")
                press("b", "recorded: join")
                # a word of that unit's Portuguese text corrected: e goes to the word
                row = document.rows[paired[1]]
                start, end = document.sentences[("pt", row.article)][row.ids["pt"][0]]
                word = next(w for w in re.findall(r"\w{6,}", document.text[start:end]))
                correction = word[:-1] + ("a" if word[-1] != "a" else "e")
                page.keyboard.press("e")
                page.keyboard.type(word)
                page.keyboard.press("Tab")
                page.keyboard.type(correction)
                page.keyboard.press("Enter")
                page.wait_for_function(
                    "() => document.getElementById('status').textContent.startsWith("
                    "'recorded: edit')")
                page.evaluate("document.activeElement.blur()")  # keys go to the page again
                decided = {int(n) for n in page.locator("tr.decided").evaluate_all(
                    "rows => rows.map(r => r.dataset.row)")}
                assert {paired[0], paired[1]} <= decided
                assert page.locator("#decisions li").count() == 3
                # an action that does not fit is refused with the reason, not recorded
                page.keyboard.press("k")
                if not {"en", "pt"} <= set(document.rows[focused()].ids):
                    press("c", "refused:")
                assert status.get_attribute("data-state") in ("ok", "error")
            finally:
                browser.close()
    finally:
        stop(server)

    decisions = [json.loads(line) for line in (root / "reviews" / f"{DOC}.jsonl").read_text(
        encoding="utf-8").splitlines()]
    assert [(d["action"], d["who"]) for d in decisions][:3] == [
        ("reject", "ana"), ("join", "ana"), ("edit", "ana")]

    rerun = gazette("rerun", DOC, "--local", cwd=root, api=prefect_api)
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    beads = [(b["article"], tuple(b["pivot_ids"]), tuple(b["ids"]), b["reviewed"])
             for b in sentences(root) if b["language"] == "pt"]
    rejected, joined = document.rows[paired[0]], document.rows[paired[1]]
    assert (rejected.article, rejected.ids["en"], rejected.ids["pt"]) not in {
        b[:3] for b in beads}
    assert (rejected.article, rejected.ids["en"], (), True) in beads
    english = (*joined.ids["en"], joined.ids["en"][-1] + 1)
    assert (joined.article, english, joined.ids["pt"], True) in beads
    repairs = [json.loads(line) for line in (root / "cleaned" / DOC / "repairs.jsonl")
               .read_text(encoding="utf-8").splitlines()]
    assert [(r["before"], r["after"]) for r in repairs if r["rule"] == "reviewer"] == [
        (word, correction)]
    review = json.loads((root / "aligned" / DOC / "review.json").read_text(encoding="utf-8"))
    assert review == {"decisions": len(decisions), "stale": []}
    xliff = (root / "aligned" / DOC / f"{DOC}.en-pt.xlf").read_text(encoding="utf-8")
    reviewed = re.findall(r'<segment id="s1" state="reviewed">\s*<source[^>]*>([^<]*)', xliff)
    assert len(reviewed) == 1 and reviewed[0].startswith(
        " ".join(document.text[slice(*document.sentences[("en", joined.article)][i])]
                 for i in english)[:40])

    before = snapshot(root, [DOC])
    again = gazette("rerun", DOC, "--local", cwd=root, api=prefect_api)
    assert again.returncode == 0, again.stdout + again.stderr
    assert snapshot(root, [DOC]) == before
