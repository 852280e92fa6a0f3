"""`gazette worker`'s lifecycle: a Prefect process worker for the project's work pool,
and on its stop, the flow runs it left half-started cancelled.

A Prefect worker stopped (Ctrl-C, SIGTERM) while it starts a flow run leaves that run
pending for good, and the ingestion's one-run slot taken until Prefect's lease runs out
(5 minutes): every scheduled tick meanwhile is refused. So the worker runs as a child
process here; when it has stopped, the project's runs still pending with no process
started are cancelled (:func:`flows.deployments.cancel_unstarted`), and ingestion goes
on at the next tick.
"""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

from flows.deployments import cancel_unstarted

__all__ = ["run_worker"]


def run_worker(root: Path, command: list[str], say: Callable[[str], None]) -> int:
    """Run the worker ``command`` until it ends, then cancel the runs of ``root`` it left
    pending; returns its exit code. Ctrl-C and SIGTERM are passed on to it, once (it
    has a session of its own, so a terminal's Ctrl-C reaches it through here only),
    however this process was started (a shell's background job ignores Ctrl-C)."""
    started: list[subprocess.Popen[bytes]] = []

    def pass_on(signum: int, frame: object) -> None:
        for worker in started:
            worker.send_signal(signum)

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, pass_on)  # before it starts: it takes them as they are then
    started.append(subprocess.Popen(command, start_new_session=True))
    code = started[0].wait()
    try:
        for name in cancel_unstarted(root):
            say(f"gazette worker: flow run {name} cancelled (left pending as the worker "
                "stopped)")
    except Exception as exc:  # the server may be gone first: serve's chores tidy then
        say(f"gazette worker: could not look for runs left pending: {exc}")
    return code
