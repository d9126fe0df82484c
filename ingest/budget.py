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

A :class:`Clock` holds one budget for a whole request whose parts run in the parent
(database reads) and in the child: :func:`run_within` gives the child what is left of
it, and every stage, the child's included, is timed (wall-clock and CPU seconds;
``time.monotonic`` is one clock for parent and child, ``time.process_time`` starts at
0 in a forked child), so a request over its budget says where the time went: work, a
child slow to start on a loaded machine, or an answer slow to come back.
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
from dataclasses import dataclass, field
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


#: The stage of a child between its fork and its work's first stage (the child's start).
STARTING = "starting the child process"
#: The stage between the child's answer sent and read by the parent.
ANSWERING = "sending the answer back"


@dataclass
class Clock:
    """One wall-clock budget of ``seconds`` from the clock's creation, spent by stages
    in order (parent's and child's alike). ``walls``/``cpus``: stage -> seconds spent
    (wall-clock, and CPU of the process that ran it), in the order first reached;
    ``current``: the stage running ("" before the first)."""

    seconds: float
    started: float = field(default_factory=time.monotonic)
    walls: dict[str, float] = field(default_factory=dict)
    cpus: dict[str, float] = field(default_factory=dict)
    current: str = ""
    _at: float = field(default=0.0, init=False, repr=False)
    _cpu_at: float = field(default=0.0, init=False, repr=False)

    def __post_init__(self) -> None:
        self._at, self._cpu_at = self.started, time.thread_time()

    def stage(self, name: str, at: float | None = None, cpu: float | None = None) -> None:
        """End the current stage at monotonic time ``at`` (default now) and start
        ``name``; ``cpu``: the CPU seconds the ended stage used (default this thread's
        since it started)."""
        now = time.monotonic() if at is None else at
        if cpu is None:
            thread_cpu = time.thread_time()
            cpu, self._cpu_at = thread_cpu - self._cpu_at, thread_cpu
        if self.current:
            self.walls[self.current] = self.walls.get(self.current, 0.0) + now - self._at
            self.cpus[self.current] = self.cpus.get(self.current, 0.0) + cpu
        self.current, self._at = name, now

    def stop(self) -> None:
        """End the current stage (its time counted; none runs after)."""
        self.stage("")

    def resume(self) -> None:
        """Count this thread's CPU from now (after a child's stages, timed by it)."""
        self._cpu_at = time.thread_time()

    def left(self) -> float:
        """Seconds of the budget left (negative when it is overspent)."""
        return self.seconds - (time.monotonic() - self.started)

    def check(self) -> None:
        """:class:`BudgetExceeded` naming the current stage when no time is left."""
        if self.left() <= 0:
            raise BudgetExceeded(self.seconds, self.current)

    def timings(self) -> dict[str, dict[str, float]]:
        """Stage -> {"wall": s, "cpu": s}, milliseconds rounded, JSON-ready."""
        return {
            k: {"wall": round(v, 3), "cpu": round(self.cpus.get(k, 0.0), 3)}
            for k, v in self.walls.items()
        }


def run_within(seconds: float | Clock, work: Callable[[Stage], T]) -> T:
    """``work(stage)`` in a forked child, given at most ``seconds`` of wall-clock time
    (a :class:`Clock`: what is left of it, the child's stages timed into it).

    ``work`` calls ``stage("name")`` as it goes. Returns what ``work`` returned, re-raises
    what it raised (both must pickle), and raises :class:`BudgetExceeded` (the child
    killed) when the time runs out, or :class:`RuntimeError` when the child dies without
    an answer (its CPU limit, memory)."""
    clock = seconds if isinstance(seconds, Clock) else Clock(seconds)
    clock.check()
    clock.stage(STARTING)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; its outcome is asserted in the parent
        os.close(read_fd)
        _child(clock.left(), work, write_fd)
    os.close(write_fd)
    try:
        result: T = _collect(read_fd, clock)
        return result
    finally:
        os.close(read_fd)
        _reap(pid)
        clock.resume()


def _child(seconds: float, work: Callable[[Stage], Any], fd: int) -> None:  # pragma: no cover
    code = 0
    try:
        cpu = math.ceil(seconds) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)

        def send(kind: str, value: Any) -> None:
            data = pickle.dumps((kind, value, time.monotonic(), time.process_time()))
            os.write(fd, struct.pack("!Q", len(data)))
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]

        try:
            result = ("ok", work(lambda name: send("stage", name)))
        except Exception as exc:  # every error goes back to the parent, which re-raises it
            result = ("raised", exc)
        send("stage", ANSWERING)
        try:
            send(*result)
        except Exception as exc:  # an unpicklable result or error: say what it was
            send("raised", RuntimeError(f"the budgeted work's answer did not pickle: {exc!r}"))
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _collect(fd: int, clock: Clock) -> Any:
    """The child's answer, its stages timed into ``clock`` as they come (each stage's
    CPU is the child's: ``process_time`` at its end minus at its start)."""
    buf = b""
    cpu_at = 0.0
    while True:
        while len(buf) >= 8 and len(buf) >= 8 + struct.unpack("!Q", buf[:8])[0]:
            size = struct.unpack("!Q", buf[:8])[0]
            kind, value, at, cpu = pickle.loads(buf[8 : 8 + size])  # noqa: S301 - our child's
            buf = buf[8 + size :]
            if kind == "stage":
                clock.stage(value, at, cpu - cpu_at)
                cpu_at = cpu
            elif kind == "ok":
                clock.stage(clock.current)  # the answer read: its time counted
                return value
            else:
                clock.stage(clock.current)
                raise value
        if clock.left() <= 0:
            raise BudgetExceeded(clock.seconds, clock.current)
        ready, _, _ = select.select([fd], [], [], clock.left())
        if not ready:
            continue
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            raise RuntimeError(f"the budgeted work ended without an answer (at: {clock.current})")
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
