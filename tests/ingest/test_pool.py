"""Issue 21 item 6: the ingests' reader pools (``ingest.pool``): a reader killed in the
middle of an ingest costs its folders one retry (then a problem), never an uncaught
BrokenProcessPool; readers die with their parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ingest import pool


def _square_or_die(x: int, marker: str) -> int:
    """x * x; the reader dies (SIGKILL) on x == 3 while ``marker`` exists (removed the
    first time when ``once``)."""
    if x == 3 and os.path.exists(marker):
        if marker.endswith("once"):
            os.unlink(marker)
        os.kill(os.getpid(), signal.SIGKILL)
    return x * x


@pytest.mark.parametrize("once", [True, False])
def test_a_killed_reader_costs_a_retry_then_a_problem(tmp_path: Path, once: bool) -> None:
    marker = tmp_path / ("die-once" if once else "die-always")
    marker.touch()
    out = {}
    for x, done in pool.pool_map(_square_or_die, list(range(10)), lambda x: (x, str(marker)), 2):
        out[x] = done if isinstance(done, BaseException) else done.result()
    assert sorted(out) == list(range(10))
    assert all(out[x] == x * x for x in range(10) if x != 3)
    if once:
        assert out[3] == 9  # read again in a new pool
    else:
        assert isinstance(out[3], pool.BrokenProcessPool)


def test_readers_die_with_their_parent(tmp_path: Path) -> None:
    """A parent holding 2 readers busy is SIGKILLed: both readers are gone within 5 s
    (they would sleep 60 s)."""
    pids = tmp_path / "pids"
    script = textwrap.dedent(
        f"""
        import os, time
        from ingest import pool

        def busy(x):
            with open({str(pids)!r}, "a") as f:
                f.write(f"{{os.getpid()}}\\n")
            time.sleep(60)

        for _ in pool.pool_map(busy, [1, 2], lambda x: (x,), 2):
            pass
        """
    )
    root = Path(__file__).resolve().parents[2]
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=root)  # noqa: S603
    try:
        for _ in range(100):
            if pids.exists() and len(pids.read_text().split()) == 2:
                break
            time.sleep(0.1)
        readers = [int(p) for p in pids.read_text().split()]
        assert len(readers) == 2
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 5
    alive = readers
    while alive and time.monotonic() < deadline:
        alive = [p for p in alive if _alive(p)]
        time.sleep(0.1)
    assert alive == []


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"
