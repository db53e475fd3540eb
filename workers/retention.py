"""Retention: expired key sessions and delivery rows are deleted, not kept (R19, R41).

A sweep runs when the backend starts and then every ``Settings.sweep_interval`` (30 s) while it
runs, so nothing outlives its expiry by more than a minute and the tables hold only
what the last 15 minutes of use made. Each sweep is two plain ``DELETE … WHERE
expires_at <= now`` statements: idempotent, so several instances sharing one
database may sweep at the same moment (R42).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, delete
from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool

from workers.database import Database
from workers.schema import agent_delivery_credentials, key_sessions

logger = logging.getLogger(__name__)

# Delivery rows first: a row outliving its key session is already gone by then
# (ON DELETE CASCADE), and one expiring on its own goes here.
_EXPIRED_DELIVERIES = delete(agent_delivery_credentials).where(
    agent_delivery_credentials.c.expires_at <= bindparam("now")
)
_EXPIRED_KEY_SESSIONS = delete(key_sessions).where(key_sessions.c.expires_at <= bindparam("now"))


@dataclass(frozen=True)
class Swept:
    """How many rows one sweep deleted."""

    key_sessions: int
    deliveries: int


def sweep_expired(database: Database, now: datetime) -> Swept:
    """Delete every key session and delivery row whose expiry is at or before ``now``."""
    with database.writing() as connection:
        deliveries = connection.execute(_EXPIRED_DELIVERIES, {"now": now}).rowcount
    # A transaction of its own: a sweep never holds both tables' locks at once.
    with database.writing() as connection:
        sessions = connection.execute(_EXPIRED_KEY_SESSIONS, {"now": now}).rowcount
    return Swept(key_sessions=sessions, deliveries=deliveries)


class Sweeper:
    """Runs :func:`sweep_expired` every ``interval`` on the server's event loop.

    ``sweeps`` counts the finished sweeps; :meth:`wait_for_sweeps` lets a caller on
    another thread wait for the next one instead of guessing a delay.
    """

    def __init__(
        self, database: Database, clock: Callable[[], datetime], interval: timedelta
    ) -> None:
        self._database = database
        self._clock = clock
        self._interval = interval
        self._done = threading.Condition()
        self.sweeps = 0

    def sweep(self) -> Swept | None:
        """One sweep now; a database error is logged and the next sweep tries again."""
        try:
            swept: Swept | None = sweep_expired(self._database, self._clock())
        except SQLAlchemyError as error:
            # Another instance's sweep or a turn may hold the rows; they go next time.
            logger.warning("Removing expired rows failed; the next sweep retries: %s", error)
            swept = None
        with self._done:
            self.sweeps += 1
            self._done.notify_all()
        return swept

    async def run(self) -> None:
        """Sweep every interval until cancelled (the app's lifespan owns this task)."""
        while True:
            await asyncio.sleep(self._interval.total_seconds())
            # In a worker thread: the sweep blocks on the database, the loop must not.
            await run_in_threadpool(self.sweep)

    def wait_for_sweeps(self, count: int, timeout: float) -> bool:
        """Block until ``count`` sweeps have finished in all; False after ``timeout`` s."""
        with self._done:
            return self._done.wait_for(lambda: self.sweeps >= count, timeout)
