"""The `gazette` command line: a thin layer over the library (``pipeline``) and the
Prefect flows (``flows``). Nothing in the library imports it.

:func:`gazette_cli.main.main` is the command. A process that loaded torch,
transformers and Prefect spent 2.5 s tearing its interpreter down after a run; the
command ends with its exit code once every exit handler has run (Prefect's temporary
server stopped, logs flushed, worker processes joined), without that teardown, as
its page workers do (:func:`pipeline.workers.end_now`).
"""

import atexit
import sys

#: The command's exit code, once it has one (see :func:`end_without_teardown`).
EXIT_CODE: list[int] = []


def end_without_teardown() -> None:
    """The last exit handler (registered before any other, so run after them all): end
    the process with the command's exit code, if it has one, without the interpreter's
    teardown. A command that never loaded the library (``gazette --help``) has nothing
    to tear down, and nothing can be imported this late: it ends as any process does."""
    workers = sys.modules.get("pipeline.workers")  # not imported above: registered first
    if EXIT_CODE and workers is not None:
        workers.end_now(EXIT_CODE[0])


atexit.register(end_without_teardown)
