"""Reader process pools of the ingests (training, HPC, inference): readers that die with
their parent, and a dead reader that costs its folders one retry, never the ingest.

Standard library only: :class:`concurrent.futures.ProcessPoolExecutor` (fork) runs the
readers; on Linux each reader asks the kernel to kill it when its parent dies
(``prctl(PR_SET_PDEATHSIG, SIGKILL)`` through :mod:`ctypes`), and checks once that the
parent it was forked from is still there (the parent may die before the ``prctl``).
When a reader dies (killed, out of memory), the pool breaks and every folder in flight
gets :class:`~concurrent.futures.process.BrokenProcessPool`: :func:`pool_map` starts a
new pool and reads each such folder once more; a folder that breaks the pool twice is
handed back with the exception, for the caller to record as that folder's problem.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

#: ``PR_SET_PDEATHSIG`` of ``<linux/prctl.h>``.
PR_SET_PDEATHSIG = 1
#: Times a folder is read again after the pool broke under it.
RETRIES = 1


def die_with_parent(parent_pid: int) -> None:
    """In a reader: SIGKILL when the parent dies (Linux ``prctl``; elsewhere nothing),
    and exit now if the parent ``parent_pid`` is already gone."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl
            pass
    if os.getppid() != parent_pid:
        os._exit(1)


def _reader_start(parent_pid: int, init: Callable[..., None] | None, args: tuple[Any, ...]) -> None:
    die_with_parent(parent_pid)
    if init is not None:
        init(*args)


def pool_map(
    fn: Callable[..., Any],
    items: Sequence[T],
    args_of: Callable[[T], tuple[Any, ...]],
    workers: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> Iterator[tuple[T, Future[Any] | BaseException]]:
    """``fn(*args_of(item))`` for each item in ``workers`` forked reader processes, at
    most ``2 x workers`` in flight (memory stays flat); yields (item, its done future)
    as each completes, or (item, the BrokenProcessPool) for an item whose reader died
    :data:`RETRIES` + 1 times. ``initializer(*initargs)`` runs in each reader after
    :func:`die_with_parent`."""
    ctx = multiprocessing.get_context("fork")
    queue = deque(range(len(items)))
    broke = [0] * len(items)
    while queue:
        init = (os.getpid(), initializer, initargs)
        pool = ProcessPoolExecutor(workers, ctx, _reader_start, init)
        with pool:
            pending: dict[Future[Any], int] = {}
            broken = False
            while queue or pending:
                while queue and not broken and len(pending) < 2 * workers:
                    i = queue.popleft()
                    try:
                        pending[pool.submit(fn, *args_of(items[i]))] = i
                    except BrokenProcessPool:
                        queue.appendleft(i)
                        broken = True
                if not pending:
                    break
                for fut in wait(pending, return_when=FIRST_COMPLETED).done:
                    i = pending.pop(fut)
                    exc = fut.exception()
                    if not isinstance(exc, BrokenProcessPool):
                        yield items[i], fut
                        continue
                    broken = True
                    broke[i] += 1
                    if broke[i] > RETRIES:
                        yield items[i], exc
                    else:
                        queue.append(i)
