"""Servers the deployment tests start themselves, and stop: PostgreSQL (Debian's
binaries, a cluster of its own in a temporary folder) and a Dask scheduler with worker
processes, each worker in a working directory of its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from flows.server import free_port


def postgres_binaries() -> Path | None:
    """The folder of Debian's PostgreSQL server programs (``initdb``, ``pg_ctl``)."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    return found[-1].parent if found else None


class Postgres:
    """A PostgreSQL cluster of its own on a free loopback port, trust authentication for
    its one user ``gazette``. PostgreSQL refuses to run as root: as root, its programs
    run as the ``postgres`` system user (Debian's package makes it)."""

    def __init__(self) -> None:
        binaries = postgres_binaries()
        assert binaries is not None, "PostgreSQL is not installed (make setup installs it)"
        self.bin = binaries
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="gazette-pg-"))
        self.data = self.folder / "data"
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self._as:
            shutil.chown(self.folder, "postgres", "postgres")

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self._as, str(self.bin / program), *args], check=True,
                       capture_output=True, text=True, timeout=120)

    def start(self) -> Postgres:
        self._run("initdb", "-D", str(self.data), "-U", "gazette", "--auth=trust",
                  "--encoding=UTF8", "--locale=C")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w",
                  "-t", "120", "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1", "start")
        return self

    def url(self, database: str, driver: str = "psycopg") -> str:
        return f"postgresql+{driver}://gazette@127.0.0.1:{self.port}/{database}"

    def restart(self) -> None:
        """Stop the server (ending every connection) and start it again."""
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-m", "fast",
                  "-w", "-t", "120", "restart")

    def create_database(self, name: str) -> None:
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "gazette", name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


class DaskCluster:
    """``dask scheduler`` and single-threaded ``dask worker`` processes, each worker in
    a fresh working directory, as on separate machines that share the project."""

    def __init__(self, workers: int, env: dict[str, str], folder: Path) -> None:
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self._workers = workers
        self._env = env
        self._folder = folder
        self._processes: list[subprocess.Popen[bytes]] = []

    def _spawn(self, args: list[str], name: str) -> None:
        cwd = self._folder / name
        cwd.mkdir(parents=True)
        with (cwd / "log").open("wb") as log:
            self._processes.append(subprocess.Popen(
                [str(Path(sys.executable).parent / "dask"), *args], cwd=cwd, env=self._env,
                stdout=log, stderr=subprocess.STDOUT))

    def start(self, timeout: float = 120) -> DaskCluster:
        from distributed import Client

        port = self.address.rsplit(":", 1)[1]
        self._spawn(["scheduler", "--host", "127.0.0.1", "--port", port,
                     "--dashboard-address", ":0", "--no-show"], "scheduler")
        for n in range(self._workers):
            self._spawn(["worker", self.address, "--nthreads", "1", "--nworkers", "1",
                         "--dashboard-address", ":0", "--local-directory", "."],
                        f"worker-{n}")
        with Client(self.address, timeout=timeout) as client:  # waits for the scheduler
            client.wait_for_workers(self._workers, timeout=timeout)
        return self

    def stop(self) -> None:
        for process in reversed(self._processes):
            process.terminate()
        deadline = time.monotonic() + 30
        for process in self._processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
