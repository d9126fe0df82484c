"""Reader process pools of the ingests (training, HPC, inference): readers that die with
their parent, and a dead reader that costs its folders one retry, never the ingest.

Standard library only: :class:`concurrent.futures.ProcessPoolExecutor` (fork) runs the
readers; on Linux each reader asks the kernel to kill it when its parent dies
(``prctl(PR_SET_PDEATHSIG, SIGKILL)`` through :mod:`ctypes`), and checks once that the
parent it was forked from is still there (the parent may die before the ``prctl``).
When a reader dies (killed, out of memory), the pool breaks and every folder in flight
gets :class:`~concurrent.futures.process.BrokenProcessPool`: :func:`pool_map` reads each
such folder once more, alone in a new pool; a folder that kills its reader alone too is
handed back with the exception, for the caller to record as that folder's problem.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

#: ``PR_SET_PDEATHSIG`` of ``<linux/prctl.h>``.
PR_SET_PDEATHSIG = 1


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
    before_fork: Callable[[], None] | None = None,
) -> Iterator[tuple[T, Future[Any] | BaseException]]:
    """``fn(*args_of(item))`` for each item in ``workers`` forked reader processes, at
    most ``2 x workers`` in flight (memory stays flat); yields (item, its done future)
    as each completes. ``initializer(*initargs)`` runs in each reader after
    :func:`die_with_parent`; ``before_fork()`` in this process before each pool is
    started (to close database connections the readers must not share).

    When a reader dies, every item in flight gets BrokenProcessPool: those are read
    again afterwards, one at a time (each in a pool of its own once it breaks one),
    so that only an item that kills its reader alone is yielded with the
    BrokenProcessPool instead of a future."""
    start = (os.getpid(), initializer, initargs, before_fork)
    retry: list[int] = []
    for i, done in _rounds(fn, items, range(len(items)), args_of, (workers, 2 * workers), start):
        if isinstance(done, BrokenProcessPool):
            retry.append(i)
        else:
            yield items[i], done
    for i, done in _rounds(fn, items, retry, args_of, (1, 1), start):
        yield items[i], done


def _rounds(
    fn: Callable[..., Any],
    items: Sequence[T],
    order: Iterable[int],
    args_of: Callable[[T], tuple[Any, ...]],
    size: tuple[int, int],
    start: tuple[Any, ...],
) -> Iterator[tuple[int, Future[Any] | BrokenProcessPool]]:
    """(index, done future or BrokenProcessPool) for each index of ``order``, in
    pools of ``size[0]`` readers with at most ``size[1]`` items in flight; a new pool
    after each that breaks (its items in flight come back as BrokenProcessPool, not
    retried). ``start``: (parent pid, initializer, its args, before_fork)."""
    workers, in_flight = size
    ctx = multiprocessing.get_context("fork")
    queue = deque(order)
    while queue:
        parent_pid, init, init_args, before_fork = start
        if before_fork is not None:
            before_fork()
        pool = ProcessPoolExecutor(workers, ctx, _reader_start, (parent_pid, init, init_args))
        with pool:
            pending: dict[Future[Any], int] = {}
            broken = False
            while queue or pending:
                while queue and not broken and len(pending) < in_flight:
                    i = queue.popleft()
                    try:
                        pending[pool.submit(fn, *args_of(items[i]))] = i
                    except BrokenProcessPool:
                        queue.appendleft(i)
                        broken = True
                if not pending:
                    break
                for fut in wait(pending, return_when=FIRST_COMPLETED).done:
                    exc = fut.exception()
                    broken = broken or isinstance(exc, BrokenProcessPool)
                    yield pending.pop(fut), exc if isinstance(exc, BrokenProcessPool) else fut
