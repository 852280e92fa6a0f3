"""`gazette serve`'s lifecycle: a Prefect server if none is configured, the project's
deployments served here or handed to a work pool, and a clean stop on Ctrl-C.

The command line parses and prints; this module does the serving and tells what it does
through ``say`` (a line at a time).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING
from uuid import UUID

from flows.schedule import Schedule
from flows.server import LocalServer, announce, withdraw
from pipeline.config import Settings
from pipeline.run.plan import unchanged_run

if TYPE_CHECKING:
    from prefect.deployments.runner import RunnerDeployment

__all__ = ["CHORE_SECONDS", "POLL_SECONDS", "serve_project"]

#: How often `gazette serve` asks its server for runs to start (Prefect's default is 10 s,
#: which a triggered `gazette rerun` would wait half of on average).
POLL_SECONDS = 2.0
#: How often `gazette serve --pool` looks for flow runs a stopped worker left pending.
CHORE_SECONDS = 15.0

Say = Callable[[str], None]


def serve_project(root: Path, settings: Settings, say: Say, *, cron: str | None,
                  interval: float | None, port: int, dask: str | None,
                  pool: str | None) -> None:
    """Serve the deployments of the project in ``root`` until Ctrl-C or SIGTERM.

    Uses the Prefect server of PREFECT_API_URL if set, else starts one on ``port``. While
    it serves, ``.gazette/server.json`` tells the project's other commands where, and the
    inbox is looked at on ``schedule`` (:func:`_tick`). On the way out: the ticks
    stopped; a pool's deployments paused, or the runs served here cancelled; the note
    withdrawn; a server it started stopped. Raises :class:`GazetteError` if the server
    does not start, or ``cron`` is no cron schedule.
    """
    schedule = Schedule(cron, interval)
    # Ctrl-C (SIGINT) stops serving however the command was started: a shell script that
    # starts it in the background hands it SIGINT ignored, and Python would keep that.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    server = None
    in_pool: list[UUID] = []
    stop = threading.Event()
    try:  # Ctrl-C may come at any moment, the server's start-up included
        if not os.environ.get("PREFECT_API_URL"):
            server = LocalServer(port, settings.state / "prefect-server.log")
            say(f"gazette serve: starting a Prefect server on {server.url} "
                f"(log: {settings.state / 'prefect-server.log'}) …")
            server.start()
            os.environ["PREFECT_API_URL"] = server.api_url
        with _interrupts_deferred():  # Prefect's import would turn Ctrl-C into another error
            from prefect import serve as prefect_serve

            from flows.deployments import deployments
        made = deployments(root, schedule.describe(), dask, pool=pool is not None)
        in_pool = _register(made, pool)
        _announce(settings, schedule, pool, say)
        threading.Thread(target=_tick, args=(root, schedule, stop, say), daemon=True,
                         name="gazette-schedule").start()
        if pool is None:
            prefect_serve(*made, print_starting_message=True, query_seconds=POLL_SECONDS)
        else:
            _until_stopped(lambda: _cancel_orphans(root, say))
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        _stop_serving(root, in_pool, say)
        withdraw(settings.state)
        if server is not None:
            server.stop()
    say("gazette serve: stopped")


def _register(made: list[RunnerDeployment], pool: str | None) -> list[UUID]:
    """Hand the deployments to the workers of ``pool`` (their ids, to pause on the way
    out), or register them to be served here, before the first tick starts a run."""
    from flows.deployments import deploy_to_pool

    if pool is not None:
        return deploy_to_pool(made, pool)
    for deployment in made:
        deployment.apply()
    return []


def _announce(settings: Settings, schedule: Schedule, pool: str | None, say: Say) -> None:
    """Leave the note that tells the project's other commands where the server is, and
    say what is served, where and when."""
    api = os.environ["PREFECT_API_URL"]
    announce(settings.state, api)
    where = (f"by the workers of work pool '{pool}' (`gazette worker --pool {pool}`)"
             if pool is not None else "here")
    say(f"gazette serve: Prefect API {api} (UI {api.removesuffix('/api')}); the inbox "
        f"{settings.raw} is looked at {schedule.describe()}, and new documents "
        f"processed {where}; `gazette run`, `rerun` and `export` in this folder use "
        "this server. Ctrl-C stops.")


def _tick(root: Path, schedule: Schedule, stop: threading.Event, say: Say) -> None:
    """Look at the inbox at each tick of ``schedule`` until ``stop``, and start an
    ingestion flow run only when a document is new, changed or failed. An idle tick
    costs no process and no flow run: it is folded into the catalog's last idle run
    (:func:`pipeline.run.plan.unchanged_run`). A server that cannot be asked is asked
    again after :data:`POLL_SECONDS`."""
    from flows.deployments import start_ingestion

    due = schedule.first(datetime.now(UTC))
    while not stop.wait(max(0.0, (due - datetime.now(UTC)).total_seconds())):
        try:
            if unchanged_run(Settings.for_root(root), trigger="schedule") is None:
                started = start_ingestion(root)
                if started is not None:
                    say(f"gazette serve: new or changed documents: flow run {started} started")
        except Exception as exc:  # the server or the catalog busy: try again soon
            say(f"gazette serve: could not look at the inbox or start a run ({exc}); "
                f"trying again in {POLL_SECONDS:g} s")
            due = datetime.now(UTC) + timedelta(seconds=POLL_SECONDS)
            continue
        due = schedule.next_after(max(due, datetime.now(UTC)))


def _stop_serving(root: Path, in_pool: list[UUID], say: Say) -> None:
    """Pause the ingestion schedule of a pool's deployments (their workers stay); or,
    served here, cancel the runs this process was running (so that the next serve's
    ticks are not refused for the 5 minutes their slot would stay taken)."""
    if not os.environ.get("PREFECT_API_URL"):
        return  # stopped before a server was up
    from flows.deployments import cancel_unfinished, pause

    try:
        if in_pool:
            pause(in_pool)
        else:
            for name in cancel_unfinished(root):
                say(f"gazette serve: flow run {name} cancelled (stopped with serve)")
    except Exception as exc:  # the server may be gone already: nothing left to tidy
        say(f"gazette serve: could not tidy the server's runs ({exc})")


@contextmanager
def _interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C until the block ends, then raise it as KeyboardInterrupt.

    A Ctrl-C that lands while Prefect is imported arrives inside a pydantic serializer,
    which reports it as a ``PydanticSerializationError`` (a traceback, exit 1), or
    leaves Prefect half imported. Held by the handler, not by the main thread's signal
    mask: the process has other threads, and the signal would go to one of them.
    """
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held:
        raise KeyboardInterrupt


def _until_stopped(chore: Callable[[], None]) -> None:
    """Do ``chore`` every :data:`CHORE_SECONDS` until Ctrl-C or SIGTERM (raised here as
    KeyboardInterrupt)."""
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)
    while True:
        time.sleep(CHORE_SECONDS)
        chore()


def _cancel_orphans(root: Path, say: Say) -> None:
    """Cancel the flow runs a stopped worker left pending (see
    :func:`flows.deployments.cancel_orphans`), and say so; a server that does not answer
    now is asked again next time."""
    from flows.deployments import cancel_orphans

    try:
        for name in cancel_orphans(root):
            say(f"gazette serve: flow run {name} cancelled (left pending by a stopped worker)")
    except Exception as exc:  # the server busy or restarting: the next round asks again
        say(f"gazette serve: could not look for orphaned flow runs: {exc}")
