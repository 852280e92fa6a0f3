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


def test_a_command_that_never_loaded_the_library_ends_quietly():
    """`gazette run --help` exits before the library is imported: the command's last
    exit handler has no pool to end, and must not import one at exit (Python refuses
    new exit handlers then, and printed a traceback after the help)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", "from gazette_cli.main import main; main()",
                           "run", "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "--root" in done.stdout
    assert done.stderr == ""
