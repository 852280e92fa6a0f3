"""Project folders for the end-to-end tests: `gazette` as a process, and the outputs it
leaves, compared byte for byte.

The sample project (the ``sample_run`` fixture in conftest) is processed once per
session; a test that changes a project works on its own copy (:meth:`SampleRun.copy`).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

GAZETTE = Path(sys.executable).parent / "gazette"

#: The inbox of the sample project: a trilingual treaty text dump, a Portuguese-only
#: one, the scanned English protocol and the text-layer PDF; plus a broken "PDF".
SAMPLE_INPUTS = ("002_9382d4ae2bbb4b06.txt", "004_5572047d3d386aa9.txt",
                 "scan_protocol_brazil_japan_1978_en.pdf",
                 "textlayer_protocol_brazil_sweden_pt_en.pdf")
BROKEN = "broken.pdf"


def gazette_env() -> dict[str, str]:
    """The environment of a `gazette` process in the tests: no Prefect settings of ours,
    and a fixed TMX creation date so that runs are byte-identical."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["SOURCE_DATE_EPOCH"] = "1772409600"
    return env


def gazette(*args: str, cwd: Path, api: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[str]:
    """Run `gazette`; with ``api`` (the ``prefect_api`` fixture) against that server."""
    return subprocess.run([str(GAZETTE), *args], cwd=cwd, env={**gazette_env(), **(api or {})},
                          capture_output=True, text=True, timeout=900, check=False)


def spawn(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    """Start a long-running `gazette` command (serve, worker) as a shell script's
    background job would: with SIGINT ignored (Ctrl-C must stop it all the same)."""
    return subprocess.Popen([str(GAZETTE), *args], cwd=cwd,
                            env={**gazette_env(), "PYTHONFAULTHANDLER": "1", **env},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def wait_for(condition, timeout: float, what: str) -> None:
    """Poll ``condition`` every second until it holds; fail after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(1)


def stop(process: subprocess.Popen[str]) -> str:
    """Ctrl-C, and the output; a process that does not stop is made to print the stack
    of each of its threads (faulthandler, on SIGABRT) for the failure message."""
    process.send_signal(signal.SIGINT)
    try:
        out, _ = process.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        out, _ = process.communicate(timeout=60)
        pytest.fail(f"{' '.join(map(str, process.args))} did not stop on Ctrl-C within "
                    f"90 s:\n{out[-8000:]}")
    return out


def run_until(root: Path, marker: str, api: dict[str, str],
              at_marker: Callable[[], None] = lambda: None) -> str:
    """Start `gazette run` and SIGKILL its whole process group where it logs ``marker``;
    ``at_marker`` runs first, with the group stopped there. Returns what it printed.

    The run stops itself (``$GAZETTE_STOP_AT``) right after printing the line: stopping
    it on reading the line from the pipe would find it late, the run having gone on.
    """
    process = subprocess.Popen([str(GAZETTE), "run"], cwd=root,
                               env={**gazette_env(), **api, "GAZETTE_STOP_AT": marker},
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    assert process.stdout is not None
    printed: list[str] = []
    reader = threading.Thread(target=printed.extend, args=(process.stdout,), daemon=True)
    reader.start()
    _, status = os.waitpid(process.pid, os.WUNTRACED)
    if not os.WIFSTOPPED(status):
        reader.join(timeout=60)
        pytest.fail(f"the run ended without logging {marker!r}:\n" + "".join(printed[-20:]))
    try:
        at_marker()
    finally:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=60)
    reader.join(timeout=60)
    assert process.returncode == -signal.SIGKILL, "".join(printed[-20:])
    return "".join(printed)


def at_work(root: Path, seen: list[str] | None = None) -> dict[str, list[str]]:
    """`gazette status`'s table of the documents at work: document → its row's cells
    (and what it printed, appended to ``seen``)."""
    status = gazette("status", cwd=root)
    said = status.stdout
    if seen is not None:
        seen.append(status.stdout + status.stderr)
    table = said[said.index("at work now"):said.index("└")] if "at work now" in said else ""
    return {cells[0]: cells[1:] for line in table.splitlines() if "│" in line
            for cells in [[c.strip() for c in line.strip("│ ").split("│")]]
            if cells[0] and cells[0] != "document"}


def snapshot(root: Path, docs: Iterable[str] | None = None) -> dict[str, bytes]:
    """Every output file under ``cleaned/`` and ``aligned/`` (of ``docs`` only, if given)
    by its path relative to the project."""
    wanted = None if docs is None else set(docs)
    return {str(p.relative_to(root)): p.read_bytes()
            for folder in ("cleaned", "aligned") for p in sorted((root / folder).rglob("*"))
            if p.is_file() and (wanted is None or p.relative_to(root / folder).parts[0] in wanted)}


def inbox(root: Path, names: Iterable[str], samples: Path) -> Path:
    """``root`` with these sample files in its ``raw/`` (made if missing)."""
    (root / "raw").mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(samples / name, root / "raw" / name)
    return root


def doc_id(name: str) -> str:
    """The document id of an inbox file at the top of ``raw/``."""
    return Path(name).stem


@dataclass(frozen=True)
class SampleRun:
    """The sample project after its first `gazette run` (as from a fresh clone, with its
    own temporary Prefect server); shared, so never changed by a test."""

    root: Path
    result: subprocess.CompletedProcess[str]

    def save(self) -> SampleRun:
        """Record the run's result beside the project, for :meth:`load` in other workers."""
        record = {"args": self.result.args, "returncode": self.result.returncode,
                  "stdout": self.result.stdout, "stderr": self.result.stderr}
        self.root.with_suffix(".json").write_text(json.dumps(record), encoding="utf-8")
        return self

    @classmethod
    def load(cls, root: Path) -> SampleRun | None:
        """The sample run another worker saved at ``root``, if there is one."""
        saved = root.with_suffix(".json")
        if not saved.is_file():
            return None
        record = json.loads(saved.read_text(encoding="utf-8"))
        return cls(root, subprocess.CompletedProcess(**record))

    def copy(self, dest: Path) -> Path:
        """A copy of the whole project (inbox, outputs, catalog, reading cache) at ``dest``."""
        shutil.copytree(self.root, dest, symlinks=True, dirs_exist_ok=True)
        return dest

    def outputs(self, names: Iterable[str]) -> dict[str, bytes]:
        """The outputs of the documents of these inbox files."""
        return snapshot(self.root, map(doc_id, names))


def chromium(playwright: Any) -> Any:
    """Debian's Chromium driven by Playwright (no browser download), headless, with the
    background connections this closed network refuses switched off."""
    return playwright.chromium.launch(
        executable_path=shutil.which("chromium"),
        args=["--no-sandbox", "--disable-gpu", "--no-first-run",
              "--disable-background-networking", "--disable-component-update",
              "--disable-sync"])
