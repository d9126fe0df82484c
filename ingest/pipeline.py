"""The one ingest pipeline every suite's service runs (training, HPC, inference; a new
suite's too): the suite finds its result folders with the safe tree walk
(``ingest.parsers.safe_tree``), then

1. :func:`read_all`: each folder is read, hashed and judged once, by the suite's
   ``load_one``, in forked reader processes (:func:`ingest.pool.pool_map`: readers die
   with their parent, a dead reader costs its folders a retry) or in this process
   (Celery's daemon pool processes cannot fork; ``workers=1``; under four folders);
   a folder that cannot be read is that folder's error, never the round's;
2. :func:`store_each`: each judged result is stored by the suite's writer in one
   transaction; one that cannot be (a database error, a value the column refuses) is
   rolled back alone and recorded as a problem (``ingest.store.not_stored``);
3. :func:`shown`: a progress bar (tqdm) on a terminal;
4. :func:`code_version`: the hash of the code that turns files into rows, part of
   every result's content hash (a change re-judges every result on the next ingest,
   and only then).

Standard library, tqdm and Django's ``DatabaseError``; no model is read or written here.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import ModuleType
from typing import Any, TypeVar

from django.db import DatabaseError

from ingest.pool import pool_map
from ingest.store import IngestReport, not_stored

T = TypeVar("T")
R = TypeVar("R")

#: What a result's store may raise that rolls back that result alone.
STORE_ERRORS = (DatabaseError, ValueError, TypeError, OverflowError, RecursionError)


def read_all(
    load_one: Callable[..., R],
    items: Sequence[T],
    args_of: Callable[[T], tuple[Any, ...]],
    unread: Callable[[T, BaseException], R],
    workers: int,
    reader: tuple[Callable[..., None] | None, tuple[Any, ...], Callable[[], None] | None] = (
        None,
        (),
        None,
    ),
) -> Iterator[tuple[T, R]]:
    """``(item, load_one(*args_of(item)))`` for each item, as each is done.

    ``workers`` reader processes (forked; at most 2 x ``workers`` items in flight), or
    this process when ``workers <= 1``, in a daemon process, or for under four items.
    An item whose reader raised, or whose outcome could not come back (it failed to
    pickle, its reader died twice), gets ``unread(item, exception)``. ``reader``:
    (initializer, its args, before each fork) of the reader processes
    (:func:`ingest.pool.pool_map`)."""
    if workers <= 1 or multiprocessing.current_process().daemon or len(items) < 4:
        for item in items:
            try:
                yield item, load_one(*args_of(item))
            except Exception as exc:  # noqa: BLE001 - one folder must not stop the round
                yield item, unread(item, exc)
        return
    init, init_args, before_fork = reader
    for item, done in pool_map(load_one, items, args_of, workers, init, init_args, before_fork):
        if isinstance(done, BaseException):
            yield item, unread(item, done)
            continue
        try:
            yield item, done.result()
        except Exception as exc:  # noqa: BLE001
            yield item, unread(item, exc)


def store_each(store: Callable[[], None], rnd: Any, path: str, report: IngestReport) -> None:
    """Run ``store()`` (one result, in its own transaction); on :data:`STORE_ERRORS` the
    transaction was rolled back: nothing of the result is stored, the reason is recorded
    for ``path`` (``not_stored``: a problem row and ``report.failed``) and the next
    ingest reads it again."""
    try:
        store()
    except STORE_ERRORS as exc:
        not_stored(rnd, path, f"{type(exc).__name__}: {exc}", report)


def shown(items: Iterable[T], total: int, desc: str, progress: bool) -> Iterable[T]:
    """``items`` with a progress bar on stderr when ``progress`` and stderr is a
    terminal (tqdm); else ``items`` as they are."""
    if not progress:
        return items
    from tqdm import tqdm

    return tqdm(items, total=total, desc=desc, unit="result", disable=not sys.stderr.isatty())


def code_version(modules: Iterable[ModuleType], folders: Iterable[str] = ()) -> str:
    """sha256 over the source of ``modules`` (in order) and every file under ``folders``
    (vendored rule files: names and bytes, sorted walk). Raises OSError when a file
    cannot be read."""
    h = hashlib.sha256()
    for module in modules:
        with open(module.__file__ or "", "rb") as f:
            h.update(f.read())
    for top in folders:
        for folder, subdirs, files in sorted(os.walk(top)):
            subdirs.sort()
            for name in sorted(files):
                with open(os.path.join(folder, name), "rb") as f:
                    h.update(name.encode() + f.read())
    return h.hexdigest()
