"""A time budget for pure work on untrusted input (issue 21): the work runs in a forked
child process that is killed when its wall-clock budget is spent, so no input, however
it makes a parser slow (a quadratic path, a regular expression that backtracks, a
library's C code), holds a web worker or a Celery worker for longer than the budget.

``os.fork`` rather than :mod:`multiprocessing`: a Celery prefork worker is a daemonic
process, and :mod:`multiprocessing` refuses to start children from one. The child gets
a CPU-time limit too (``resource.RLIMIT_CPU``, the kernel's backstop should the parent
die first), reports the stage it reached, and sends its result back pickled. It must
do only pure work: it shares the parent's open database connection and never uses it
(it leaves by ``os._exit``, which runs no clean-up that could close it). Unix only.
"""

from __future__ import annotations

import math
import os
import pickle
import resource
import select
import signal
import struct
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: A progress callback: the child's work calls it with the name of each stage it starts.
Stage = Callable[[str], None]


class BudgetExceeded(Exception):
    """The work did not finish within ``seconds``; ``stage`` is the last stage it
    reported ("" when none), so the caller can say what was cut."""

    def __init__(self, seconds: float, stage: str) -> None:
        super().__init__(f"over its budget of {seconds:g} s (at: {stage or 'start'})")
        self.seconds = seconds
        self.stage = stage


def run_within(seconds: float, work: Callable[[Stage], T]) -> T:
    """``work(stage)`` in a forked child, given at most ``seconds`` of wall-clock time.

    ``work`` calls ``stage("name")`` as it goes. Returns what ``work`` returned, re-raises
    what it raised (both must pickle), and raises :class:`BudgetExceeded` (the child
    killed) when the time runs out, or :class:`RuntimeError` when the child dies without
    an answer (its CPU limit, memory)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; its outcome is asserted in the parent
        os.close(read_fd)
        _child(seconds, work, write_fd)
    os.close(write_fd)
    try:
        result: T = _collect(pid, read_fd, seconds)
        return result
    finally:
        os.close(read_fd)
        _reap(pid)


def _child(seconds: float, work: Callable[[Stage], Any], fd: int) -> None:  # pragma: no cover
    code = 0
    try:
        cpu = math.ceil(seconds) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)

        def send(kind: str, value: Any) -> None:
            data = pickle.dumps((kind, value))
            os.write(fd, struct.pack("!Q", len(data)))
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]

        try:
            result = ("ok", work(lambda name: send("stage", name)))
        except Exception as exc:  # every error goes back to the parent, which re-raises it
            result = ("raised", exc)
        try:
            send(*result)
        except Exception as exc:  # an unpicklable result or error: say what it was
            send("raised", RuntimeError(f"the budgeted work's answer did not pickle: {exc!r}"))
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _collect(pid: int, fd: int, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    buf = b""
    stage = ""
    while True:
        while len(buf) >= 8 and len(buf) >= 8 + struct.unpack("!Q", buf[:8])[0]:
            size = struct.unpack("!Q", buf[:8])[0]
            kind, value = pickle.loads(buf[8 : 8 + size])  # noqa: S301 - our own child's
            buf = buf[8 + size :]
            if kind == "stage":
                stage = value
            elif kind == "ok":
                return value
            else:
                raise value
        left = deadline - time.monotonic()
        if left <= 0:
            raise BudgetExceeded(seconds, stage)
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            continue
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            raise RuntimeError(f"the budgeted work ended without an answer (at: {stage})")
        buf += chunk


def _reap(pid: int) -> None:
    """Wait for the child, killing it first if it still runs. A child already reaped
    elsewhere (a SIGCHLD handler) is not signalled: its pid may be someone else's now."""
    try:
        if os.waitpid(pid, os.WNOHANG) != (0, 0):
            return
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        return
