"""When `gazette serve` looks at the inbox: every so many seconds, or on a cron schedule.

`gazette serve` keeps the ingestion schedule itself rather than leaving it to Prefect:
a tick looks at the inbox in serve's own process (the published manifests answer
whether a document is new, changed or failed) and starts a flow run only when one is,
so a tick over an unchanged inbox costs no process and no flow run.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from cronsim import CronSim, CronSimError

from pipeline.errors import GazetteError

__all__ = ["DEFAULT_CRON", "Schedule"]

#: The ingestion schedule unless told otherwise: at the top of every hour (UTC).
DEFAULT_CRON = "0 * * * *"


@dataclass(frozen=True)
class Schedule:
    """Every ``interval`` seconds (the first tick at once) if given, else on ``cron``
    (times in UTC).

    >>> from datetime import UTC
    >>> start = datetime(2026, 12, 2, 6, 25, tzinfo=UTC)
    >>> Schedule(cron="*/20 * * * *").next_after(start).time()
    datetime.time(6, 40)
    >>> Schedule(interval=90).first(start) == start, Schedule(interval=90).describe()
    (True, 'every 90 s')
    >>> Schedule(cron="every hour")
    Traceback (most recent call last):
    ...
    pipeline.errors.GazetteError: --cron 'every hour' is not a cron schedule: ...
    """

    cron: str | None = None
    interval: float | None = None

    def __post_init__(self) -> None:
        if not self.interval:
            try:
                CronSim(self.cron or DEFAULT_CRON, datetime.now().astimezone())
            except CronSimError as exc:
                raise GazetteError(f"--cron {self.cron!r} is not a cron schedule: {exc}",
                                   "five fields: minute hour day month weekday, e.g. "
                                   f"'{DEFAULT_CRON}'") from exc

    def first(self, start: datetime) -> datetime:
        """The first tick of a schedule started at ``start``."""
        return start if self.interval else self.next_after(start)

    def next_after(self, moment: datetime) -> datetime:
        """The tick after ``moment`` (an aware datetime)."""
        if self.interval:
            return moment + timedelta(seconds=self.interval)
        return next(CronSim(self.cron or DEFAULT_CRON, moment))

    def describe(self) -> str:
        """The schedule in words, e.g. ``every 90 s`` or ``on cron '0 * * * *' (UTC)``."""
        return (f"every {self.interval:g} s" if self.interval
                else f"on cron '{self.cron or DEFAULT_CRON}' (UTC)")
