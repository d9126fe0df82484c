"""CPU of the MLPerf Training readers alone (no database), and the bytes they hash.

Usage (from the root of the tree to measure, any tree of the suite layout, ff35a19 on; to
compare trees, run this file from each in turn, e.g. a ``git archive`` of another commit)::

    python /path/to/bench/training_reader_cpu.py ROUND_DIR [--round v4.0] [--stride 5]
        [--count-hashing]

Every ``--stride``-th result folder of ``ROUND_DIR`` (a whole ``training_results_v*``
repository) is read, hashed, parsed, judged by the round's compliance rules and given its
run energies in this process, as one reader process of ``manage.py ingest`` does
(``ingest.training.service._load_one``, what the reader pool runs). Printed, one line:
folders, runs, an md5 over every run's sha256 (equal lines: equal runs), the CPU seconds
of the loop (``time.process_time``: no start-up) and the 1-minute load average. With
``--count-hashing`` the sha256 objects the readers' parsers create and the bytes they feed
them are counted instead (this slows the loop: its CPU is then not comparable).

The whole ingest (readers, writer and PostgreSQL) is timed by ``ingest_speed.py``; this
isolates the readers, whose CPU moves less from run to run on a loaded machine.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path.cwd()))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")


class _Counted:
    """A stand-in for ``hashlib`` in the parser modules: counts sha256 objects and bytes."""

    objects = 0
    size = 0

    class sha256:  # noqa: N801 - hashlib's name
        def __init__(self, data: bytes = b"") -> None:
            _Counted.objects += 1
            _Counted.size += len(data)
            self._h = hashlib.sha256(data)

        def update(self, data: bytes) -> None:
            _Counted.size += len(data)
            self._h.update(data)

        def digest(self) -> bytes:
            return self._h.digest()

        def hexdigest(self) -> str:
            return self._h.hexdigest()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("round_dir")
    p.add_argument("--round", default="v4.0")
    p.add_argument("--stride", type=int, default=1)
    p.add_argument("--count-hashing", action="store_true")
    args = p.parse_args()
    import django

    django.setup()
    from ingest.training import service
    from ingest.training.parsers import log, tree

    try:
        from ingest.training.parsers import folder
    except ImportError:  # a tree before the split: the folder reader is in log.py
        folder = log
    if args.count_hashing:
        folder.hashlib = log.hashlib = _Counted  # type: ignore[assignment]
    dirs = list(tree.discover_tree(args.round_dir, args.round, "training").dirs)[:: args.stride]
    start = time.process_time()
    items: list[Any] = [service._load_one(d, None, args.round) for d in dirs]
    cpu = time.process_time() - start
    runs = [r.sha256 for i in items for r in i.runs]
    md5 = hashlib.md5("".join(runs).encode()).hexdigest()[:12]  # noqa: S324 - a fingerprint
    line = f"folders {len(items)}, runs {len(runs)}, run sha256 md5 {md5}, "
    if args.count_hashing:
        line += f"sha256 objects {_Counted.objects}, bytes hashed {_Counted.size / 1e6:.1f} MB"
    else:
        line += f"CPU {cpu:.2f} s, load {os.getloadavg()[0]:.2f}"
    print(line)


if __name__ == "__main__":
    main()
