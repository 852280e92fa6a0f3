"""The run's worker processes."""

from __future__ import annotations

from pathlib import Path

from pipeline import workers

LEAVE_MARKS = """
import atexit

class Marker:
    def __del__(self, open=open, path={teardown!r}):
        with open(path, "w") as out:
            out.write("torn down")

Marker.kept = Marker()
atexit.register(lambda: open({handlers!r}, "w").write("handlers ran"))
"""


def test_a_worker_ends_after_its_exit_handlers_without_the_interpreters_teardown(
        tmp_path: Path):
    """A worker's pool shut down, its exit handlers run (a module's clean-up), but not
    the teardown that frees every object one by one (0.6 s the run waited for)."""
    handlers, teardown = tmp_path / "handlers", tmp_path / "teardown"
    try:
        workers.pool(1).submit(exec, LEAVE_MARKS.format(
            handlers=str(handlers), teardown=str(teardown))).result()
    finally:
        workers.shutdown()
    assert handlers.read_text() == "handlers ran"
    assert not teardown.exists()
