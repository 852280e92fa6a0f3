"""What the ``gazette`` commands share: the app, the console, the options, settings
from ``--root`` and ``--set``, clear errors, the project lock, and the Prefect server
a command talks to."""

from __future__ import annotations

import inspect
import logging
import os
import signal
import sys
import threading
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console

from pipeline.config import Settings, check_settings, prefect_environment
from pipeline.errors import BusyError, GazetteError

if TYPE_CHECKING:
    from flows.server import TemporaryServer

T = TypeVar("T")

app = typer.Typer(help="The ``gazette`` command: the main job (``gazette run``) and one "
                  "command per stage.", no_args_is_help=True, add_completion=False)
console = Console(width=max(Console().width, 120))


def error(message: str) -> None:
    """Print an error on one line, however long (a path in it stays whole for grep)."""
    console.print(f"error: {message}", style="red", soft_wrap=True)


STOP_AT = "GAZETTE_STOP_AT"


class _StopWhenLogged(logging.Handler):
    """Stops this process's whole group (SIGSTOP, as Ctrl-Z does) once a line holding
    ``text`` has been printed, so that the run can be looked at, or killed, exactly
    there (``kill -CONT`` goes on): a test that stops the run when it reads the line
    from a pipe sees it late, the run having gone on meanwhile."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def emit(self, record: logging.LogRecord) -> None:
        if self.text in self.format(record):
            os.killpg(os.getpgrp(), signal.SIGSTOP)
            # The kernel gives a process's stop to one of its threads to carry out, which
            # may wait for a core while this one goes on (and logs the next page): this
            # thread stops itself at once.
            signal.pthread_kill(threading.get_ident(), signal.SIGSTOP)


def stop_when_logged() -> None:
    """With ``$GAZETTE_STOP_AT`` set, stop the run where it logs a line holding it, as
    the console prints it (call once Prefect has set up its logging: the console's is
    the root's first handler, and this one comes after it)."""
    text = os.environ.get(STOP_AT)
    if text:
        root = logging.getLogger()
        hook = _StopWhenLogged(text)
        hook.setFormatter(next((h.formatter for h in root.handlers if h.formatter), None))
        root.addHandler(hook)


RootOption = Annotated[
    Path, typer.Option("--root", help="Project folder holding raw/, cleaned/ and aligned/.")
]
LocalOption = Annotated[bool, typer.Option(
    "--local", help="Run here even if a Prefect server is configured (PREFECT_API_URL).")]
WaitOption = Annotated[bool, typer.Option(
    "--wait", help="If another run or export holds the folder, wait instead of exiting 3.")]
DaskOption = Annotated[str | None, typer.Option(
    help="Process documents on a Dask cluster: a scheduler address (tcp://host:8786), "
         "or 'local' for a LocalCluster of 2 workers.")]
SetOption = Annotated[list[str] | None, typer.Option(
    "--set", metavar="NAME=VALUE",
    help="Override a setting of gazette.toml (TOML values: 60, true, "
         "'[\"fix_ocr_words\"]'; align.NAME for the aligner's knobs). Repeatable.")]
FileArgument = Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True,
                                              help="A PDF or text file.")]


def parse_overrides(assignments: list[str]) -> dict[str, Any]:
    """``NAME=VALUE`` options as settings, unchecked (:func:`check_settings` checks them
    where they are used); a value is read as TOML, else as text.

    >>> parse_overrides(["min_ocr_confidence=60", "align.skip=-0.03", "ocr_languages=por"])
    {'min_ocr_confidence': 60, 'align': {'skip': -0.03}, 'ocr_languages': 'por'}
    """
    overrides: dict[str, Any] = {}
    for assignment in assignments:
        name, equals, text = assignment.partition("=")
        if not equals or not name.strip():
            raise GazetteError(f"--set {assignment!r} is not NAME=VALUE",
                               "for example --set min_ocr_confidence=60")
        try:
            value = tomllib.loads(f"value = {text}")["value"]
        except tomllib.TOMLDecodeError:
            value = text
        table, _, knob = name.strip().partition(".")
        if knob:
            overrides.setdefault(table, {})[knob] = value
        else:
            overrides[table] = value
    return overrides


def project_settings(root: Path, set_: list[str] | None) -> Settings:
    """The settings of the project in ``root`` (its gazette.toml) with ``--set`` applied;
    a bad file or value exits with a clear message."""
    return _checked_settings(root, or_exit(lambda: parse_overrides(set_ or [])))


def _checked_settings(root: Path, overrides: dict[str, Any]) -> Settings:
    """``root``'s settings with ``overrides`` (from ``--set``) checked and applied."""
    return or_exit(lambda: Settings.for_root(root, **check_settings(overrides, "--set")))


def prefect_settings(root: Path, overrides: dict[str, Any] | None = None,
                      resident: bool = True) -> Settings:
    """The project's settings, with Prefect's environment set (before Prefect is imported).

    With ``resident``, a live `gazette serve` of the project becomes the Prefect API
    (unless PREFECT_API_URL is set already), so no temporary server is started.
    """
    settings = _checked_settings(root, overrides or {})
    settings.state.mkdir(parents=True, exist_ok=True)
    os.environ.update(prefect_environment(settings))
    logging.getLogger("pipeline").setLevel(logging.INFO)
    if resident and not server():
        from flows.server import resident_api

        note = resident_api(settings.state)
        if note is not None:
            os.environ["PREFECT_API_URL"] = note.api_url
            console.print(f"Prefect: the server of `gazette serve` (pid {note.pid}) at "
                          f"{note.api_url}")
    if not server():  # a temporary server: a new project's starts from set-up's database
        from flows.server import seed_database

        seed_database(Path(os.environ["PREFECT_HOME"]))
    return settings


@contextmanager
def locked(settings: Settings, wait: bool) -> Iterator[None]:
    """The project lock; if another process holds it, a clear message and exit code 3."""
    from pipeline.project.store import project_lock

    try:
        with project_lock(settings, wait):
            yield
    except BusyError as exc:
        error(str(exc))
        raise typer.Exit(3) from exc


def or_exit(action: Callable[[], T]) -> T:
    """Run ``action``; a :class:`GazetteError` becomes a clear message and exit code 1."""
    try:
        return action()
    except GazetteError as exc:
        error(str(exc))
        raise typer.Exit(1) from exc


@contextmanager
def temporary_server() -> Iterator[TemporaryServer | None]:
    """Prefect's API for a command that runs a flow here, where none is configured
    (PREFECT_API_URL): a temporary server launched now, before Prefect is imported (it
    starts while the command imports the flows), its address set for Prefect, stopped
    at the end; None where a server is configured. At the end, the logs and events
    Prefect holds are sent while the server still listens."""
    from flows.server import TemporaryServer, flush_to_api

    temporary = None
    if not server():
        temporary = TemporaryServer(Path(os.environ["PREFECT_HOME"]) / "server.log")
        os.environ["PREFECT_API_URL"] = temporary.launch().api_url
    try:
        yield temporary
    finally:
        if "prefect" in sys.modules:  # the command got as far as Prefect
            flush_to_api()
        if temporary is not None:
            temporary.stop()
            del os.environ["PREFECT_API_URL"]


def server() -> str | None:
    """The configured Prefect API (PREFECT_API_URL), if any."""
    return os.environ.get("PREFECT_API_URL") or None


def trigger(root: Path, deployment: str, parameters: dict[str, object]) -> Any:
    """Run a served deployment, wait for it, say how it ended, and return what its flow
    returned (exit 1 if it did not complete)."""
    from prefect.deployments import run_deployment
    from prefect.exceptions import ObjectNotFound

    from flows.deployments import deployment_names

    name = deployment_names(root)[deployment]
    console.print(f"triggering deployment {name} on {server()} …")
    try:
        flow_run = run_deployment(name, parameters=parameters, poll_interval=1)
        assert not inspect.isawaitable(flow_run)  # called from sync code
    except ObjectNotFound as exc:
        error(f"no deployment {name} on {server()}; start `gazette serve`")
        raise typer.Exit(2) from exc
    state = flow_run.state
    console.print(f"flow run {flow_run.name}: {state.name if state else 'unknown'}")
    if state is None or not state.is_completed():
        raise typer.Exit(1)
    return state.result()
