"""The commands that serve a project: ``gazette serve`` (the deployments, on a Prefect
server) and ``gazette worker`` (a worker of its work pool). The serving itself is
:mod:`flows.serving`."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Annotated

import typer

from gazette_cli.common import (
    DaskOption,
    RootOption,
    app,
    console,
    error,
    or_exit,
    prefect_settings,
    server,
)


@app.command()
def serve(
    root: RootOption = Path(),
    cron: Annotated[str | None, typer.Option(
        help="When to look for new documents (cron syntax; default hourly, '0 * * * *').")
    ] = None,
    interval: Annotated[float | None, typer.Option(
        min=1, help="Look for new documents every this many seconds instead of --cron.")
    ] = None,
    port: Annotated[int, typer.Option(
        help="Port of the local Prefect server started when PREFECT_API_URL is unset.")
    ] = 4200,
    dask: DaskOption = None,
    pool: Annotated[str | None, typer.Option(
        help="Leave the flow runs to the workers of this Prefect work pool (created if "
             "missing; start them with `gazette worker --pool NAME`) instead of running "
             "them here.")] = None,
) -> None:
    """Serve the deployments: scheduled ingestion, re-run of one decree, export.

    At each tick of --interval or --cron (UTC) the inbox is looked at here, and an
    ingestion flow run started only if a document is new, changed or failed. Uses the
    Prefect server of PREFECT_API_URL if set; otherwise starts a local one on
    127.0.0.1 (its database under .gazette/prefect). Ctrl-C stops both (and pauses the
    deployments). While it runs, .gazette/server.json tells the project's other
    commands, and `gazette worker`, to use that server. Exits 3 if a `gazette serve` of
    the same folder is running already.
    """
    settings = prefect_settings(root, resident=False)
    from flows.server import resident_api
    from flows.serving import serve_project

    running = resident_api(settings.state)
    if running is not None:
        error(f"`gazette serve` runs for {settings.state.parent} already (pid {running.pid} "
              f"on {running.host}, Prefect API {running.api_url})")
        raise typer.Exit(3)
    or_exit(lambda: serve_project(root.resolve(), settings, console.print, cron=cron,
                                  interval=interval, port=port, dask=dask, pool=pool))


@app.command()
def worker(
    pool: Annotated[str, typer.Option(help="The work pool of `gazette serve --pool`.")],
    root: RootOption = Path(),
    limit: Annotated[int | None, typer.Option(
        min=1, help="Run at most this many flow runs at once (default: no limit).")] = None,
) -> None:
    """Run the flow runs that `gazette serve --pool POOL` hands to its work pool: a
    Prefect process worker, on this machine, until Ctrl-C.

    Start one on each machine that sees the project folder (same path) and has gazette
    installed. Uses PREFECT_API_URL if set, else the server of a live `gazette serve`
    of the folder.
    """
    prefect_settings(root)
    if not server():
        error(f"no Prefect server for {root.resolve()}: start `gazette serve --pool {pool}` "
              "there, or set PREFECT_API_URL")
        raise typer.Exit(2)
    # Poll as often as `gazette serve` does (Prefect's default 10 s would be half the time
    # of a triggered re-run); Ctrl-C stops the worker however it was started (see serve).
    from flows.serving import POLL_SECONDS

    os.environ.setdefault("PREFECT_WORKER_QUERY_SECONDS", str(POLL_SECONDS))
    prefect = shutil.which("prefect", path=str(Path(sys.executable).parent)) or "prefect"
    command = [prefect, "worker", "start", "--pool", pool, "--type", "process"]
    console.print(f"gazette worker: {' '.join(command[1:])} on {server()}")
    sys.stdout.flush()
    from flows.working import run_worker

    raise typer.Exit(run_worker(root.resolve(), command + (
        ["--limit", str(limit)] if limit else []), console.print))
