"""A local Prefect server for `gazette serve`, started when none is configured.

Schedules need a real server: with Prefect's ephemeral one, ``serve()`` logs "Cannot
schedule flows on an ephemeral server" and nothing fires. The server keeps its SQLite
database under ``PREFECT_HOME`` (``.gazette/prefect``).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from pipeline.errors import GazetteError

__all__ = ["LocalServer", "free_port"]


def free_port() -> int:
    """A TCP port on the loopback interface that nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LocalServer:
    """``prefect server start`` on 127.0.0.1, as a child process."""

    def __init__(self, port: int, log: Path) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.api_url = f"{self.url}/api"
        self._log = log
        self._process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120.0) -> LocalServer:
        """Start the server and wait until ``/api/health`` answers."""
        prefect = shutil.which("prefect", path=str(Path(sys.executable).parent)) or "prefect"
        self._log.parent.mkdir(parents=True, exist_ok=True)
        with self._log.open("ab") as log:
            self._process = subprocess.Popen(
                [prefect, "server", "start", "--host", "127.0.0.1", "--port", str(self.port)],
                stdout=log, stderr=subprocess.STDOUT, env=os.environ.copy(),
                start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise GazetteError(f"the Prefect server exited at start-up (see {self._log})")
            try:
                with urllib.request.urlopen(f"{self.api_url}/health", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                time.sleep(0.5)
        self.stop()
        raise GazetteError(f"the Prefect server did not answer within {timeout:.0f} s "
                           f"(see {self._log})")

    def stop(self) -> None:
        """Stop the server and its workers (SIGTERM to its process group, then SIGKILL)."""
        if self._process is None or self._process.poll() is not None:
            return
        os.killpg(self._process.pid, signal.SIGTERM)
        try:
            self._process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait()
