"""``python -m tests.ingest.slowworker SECONDS <celery arguments>``: the ``celery``
command, with every MLPerf sync sleeping SECONDS after each result folder it reads,
so that test_worker.py can kill a worker mid-job every time. The slowdown lives in
this test process only; the code it wraps has no test hook."""

from __future__ import annotations

import os
import sys
import time
from typing import Any


def slow_down(seconds: float) -> None:
    """Make ``JobProgress`` (called once per result folder) sleep ``seconds`` after
    each call. A prefork pool forks from this process, so its children keep it."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")
    django.setup()
    from ingest.jobs.progress import JobProgress

    counted = JobProgress.__call__

    def call(self: JobProgress, item: Any) -> None:
        counted(self, item)
        time.sleep(seconds)

    JobProgress.__call__ = call  # type: ignore[method-assign]


def main() -> None:
    slow_down(float(sys.argv[1]))
    from celery.__main__ import main as celery

    sys.argv = ["celery", *sys.argv[2:]]
    celery()


if __name__ == "__main__":
    main()
