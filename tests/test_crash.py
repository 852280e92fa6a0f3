"""Crash safety and concurrency: a killed run resumes to the same bytes; two runs
on one folder do not corrupt it."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import SAMPLES
from projects import (
    GAZETTE,
    SampleRun,
    at_work,
    doc_id,
    gazette,
    gazette_env,
    inbox,
    run_until,
    snapshot,
)

pytestmark = pytest.mark.slow

INPUTS = ("scan_protocol_brazil_japan_1978_en.pdf", "textlayer_protocol_brazil_sweden_pt_en.pdf")


@pytest.fixture(scope="module")
def reference(sample_run: SampleRun) -> dict[str, bytes]:
    """The outputs of an uninterrupted run (the sample project's, of these inputs)."""
    return sample_run.outputs(INPUTS)


@pytest.mark.parametrize("marker", [
    "page 2: ocr (",                   # during OCR of the scanned protocol
    "Task run 'align-",                # between stages: as export starts
])
def test_killed_run_resumes_to_the_same_outputs(marker: str, reference: dict[str, bytes],
                                                tmp_path: Path, prefect_api: dict[str, str]):
    root = inbox(tmp_path, INPUTS, SAMPLES)
    scan = doc_id(INPUTS[0])
    shown: dict[str, list[str]] = {}
    said: list[str] = []
    run_until(root, marker, prefect_api, at_marker=lambda: shown.update(at_work(root, said)))
    if marker.startswith("page 2"):  # `gazette status` showed the scan's reading under way
        assert scan in shown, said
        _, stage, pages, _, process = shown[scan]
        # the run stopped itself where it logged page 2's decision, page 1's before it
        assert (stage, pages) == ("ingest", "2 of 3"), shown
        assert re.fullmatch(r"pid \d+", process)
    left = at_work(root)  # the killed run's documents, said to be interrupted
    assert left and all(row[-1].startswith("gone: pid") for row in left.values()), left
    # --wait: whatever of the killed group still holds the lock is gone before it starts
    resumed = gazette("run", "--wait", cwd=root, api=prefect_api)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert snapshot(root) == reference
    leftovers = [p.name for folder in ("cleaned", "aligned") for p in (root / folder).iterdir()
                 if p.name.startswith(".")]
    assert leftovers == []


def test_two_runs_on_one_folder(tmp_path: Path, prefect_api: dict[str, str]):
    root = inbox(tmp_path, ["004_5572047d3d386aa9.txt"], SAMPLES)  # short: the lock is tested
    first = subprocess.Popen([str(GAZETTE), "run"], cwd=root, env={**gazette_env(), **prefect_api},
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
    lock = root / ".gazette" / "lock"
    deadline = time.monotonic() + 120
    while not (lock.exists() and lock.read_text()) and time.monotonic() < deadline:
        time.sleep(0.2)
    # the first run stopped where it holds the lock, so that it cannot finish meanwhile
    os.killpg(first.pid, signal.SIGSTOP)
    try:
        second = gazette("run", cwd=root, api=prefect_api)
    finally:
        os.killpg(first.pid, signal.SIGCONT)
    assert second.returncode == 3
    assert f"gazette (pid {first.pid}) is working on" in " ".join(second.stdout.split())
    waiting = gazette("run", "--wait", cwd=root, api=prefect_api)  # until the first is done
    out, _ = first.communicate(timeout=600)
    assert first.returncode == 0, out
    assert "1 processed" in out
    assert waiting.returncode == 0 and "0 processed, 1 unchanged" in waiting.stdout
