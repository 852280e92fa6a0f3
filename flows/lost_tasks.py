"""Task runs a lost Dask worker left running, ended Crashed when their flow run ends.

A document sent to a Dask cluster runs as a task on one of its workers, and its stages
as task runs nested in it. When that worker dies (killed, out of memory, its machine
gone), Dask runs the document again on another worker: the document's own task run
goes on there under the same id, but the nested task runs of the lost attempt (the
``read-pages`` that was reading, say) never hear of it, and Prefect shows them
``Running`` for ever. Nobody else can end them: their process is gone.

So at the end of a flow run on Dask, once Prefect has recorded every document's task
run as finished (task states reach the server as events, a little after the fact),
the flow's task runs still ``Running`` or ``Pending`` can only be such leftovers, and
are set ``Crashed`` with the reason.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from uuid import UUID

from prefect import get_client, get_run_logger
from prefect.client.orchestration import SyncPrefectClient
from prefect.client.schemas.filters import (
    FlowRunFilter,
    FlowRunFilterId,
    TaskRunFilter,
    TaskRunFilterId,
    TaskRunFilterState,
    TaskRunFilterStateType,
)
from prefect.client.schemas.objects import StateType, TaskRun
from prefect.states import Crashed

__all__ = ["LOST", "WAIT_SECONDS", "end_lost_task_runs"]

#: The message of a task run ended so.
LOST = ("its worker was lost before it finished (the document was processed again on "
        "another worker)")

#: How long to wait for Prefect to record the documents' task runs as finished.
WAIT_SECONDS = 60.0

_UNFINISHED = [StateType.RUNNING, StateType.PENDING]


def end_lost_task_runs(flow_run_id: UUID, finished: Iterable[UUID]) -> list[str]:
    """Set Crashed the task runs of ``flow_run_id`` still unfinished once the task runs
    ``finished`` (the documents', whose results the flow has) read as finished in
    Prefect; returns their names. If Prefect has not caught up within
    :data:`WAIT_SECONDS`, nothing is changed (a task run may be finished there yet)."""
    known = list(finished)
    if not known:  # no document ran: no attempt of one can have been lost
        return []
    with get_client(sync_client=True) as client:
        if not _recorded(client, flow_run_id, known):
            get_run_logger().warning(
                "Prefect has not recorded the end of every document's task run after "
                "%.0f s: unfinished task runs left as they are", WAIT_SECONDS)
            return []
        lost = _unfinished(client, flow_run_id, known=None)
        for task_run in lost:
            client.set_task_run_state(task_run.id, Crashed(message=LOST), force=True)
            get_run_logger().warning("task run %s ended Crashed: %s", task_run.name, LOST)
    return [task_run.name for task_run in lost]


def _recorded(client: SyncPrefectClient, flow_run_id: UUID, known: list[UUID]) -> bool:
    """Wait until none of the task runs ``known`` reads unfinished in Prefect."""
    deadline = time.monotonic() + WAIT_SECONDS
    while _unfinished(client, flow_run_id, known):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return True


def _unfinished(client: SyncPrefectClient, flow_run_id: UUID, known: list[UUID] | None
                ) -> list[TaskRun]:
    """The task runs of the flow run (of ``known`` only, if given) running or pending."""
    return client.read_task_runs(
        flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id])),
        task_run_filter=TaskRunFilter(
            state=TaskRunFilterState(type=TaskRunFilterStateType(any_=_UNFINISHED)),
            id=None if known is None else TaskRunFilterId(any_=known)))
