"""Every round under one folder, loaded through the sources and their jobs
(``manage.py ingest-all``).

A folder such as ``/work/rounds`` holds whole rounds named as MLCommons names their
repositories (``training_results_v5.1``, ``inference_results_v4.1``,
``hpc_results_v2.0``; git clones or plain trees). Each training and inference round
becomes a :class:`ingest.models.Source` (``training-v5-1``: the suite and version;
made once, found again by name on the next run) and is synced as a job
(``ingest.jobs.run.source_sync_request``): with a broker and ``INGEST_FANOUT=1`` each job is
cut into one Celery task per submitter folder (``ingest.jobs.parts``), run by whichever
worker is free on any machine sharing the database and broker. HPC rounds have no
source kind: they are ingested in the calling process (``ingest.training.service.
mlperf_hpc_ingest``), one transaction per result, unchanged results skipped.

Resumable: each result is one transaction and an unchanged result is not written again,
so after a ``kill -9`` of this command or of any worker the same command again finds its
sources, takes over their jobs still queued or running (a job whose worker died is
marked ``interrupted`` by ``source_sync_request`` and a new one reads what is left:
the unchanged results it meets cost a hash each).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from benchdb import suites
from ingest.jobs import run as sync
from ingest.models import IngestJob, Source

#: A round's folder as MLCommons names the repository: ``<suite>_results_v<x.y>`` for
#: every suite of the registry (``benchdb.suites``: training, inference, hpc,
#: automotive, tiny, storage, mobile).
ROUND_FOLDER = re.compile(
    rf"^({'|'.join(re.escape(s.name) for s in suites.SUITES)})_results_v(\d+\.\d+)$"
)
#: The source kind of each suite that has one (HPC has none: see the module docstring).
KINDS = {"training": Source.Kind.MLPERF_TRAINING, "inference": Source.Kind.MLPERF_INFERENCE}
#: Job counts summed in :func:`jobs_progress`.
COUNTS = ("files_seen", "results_added", "results_changed", "results_unchanged", "errors")


@dataclass(frozen=True)
class RoundFolder:
    """One round's folder: ``suite`` (training, inference, hpc), ``version``
    (``"v5.1"``) and ``path``."""

    suite: str
    version: str
    path: Path

    @property
    def source_name(self) -> str:
        """``training-v5-1``: the name of its source."""
        return f"{self.suite}-{self.version.replace('.', '-')}"


def round_folders(root: Path) -> list[RoundFolder]:
    """The round folders directly in ``root`` (named as :data:`ROUND_FOLDER`), by suite
    then version. Raises ``NotADirectoryError`` when ``root`` is not a folder."""
    if not root.is_dir():
        raise NotADirectoryError(f"{root}: not a folder")
    out = []
    for child in root.iterdir():
        m = ROUND_FOLDER.match(child.name)
        if m and child.is_dir():  # a link to a round folder (the operator's) is followed
            out.append(RoundFolder(m.group(1), "v" + m.group(2), child.resolve()))
    return sorted(out, key=lambda f: (f.suite, tuple(int(x) for x in f.version[1:].split("."))))


def sources_ensure(folders: list[RoundFolder]) -> list[Source]:
    """The source of each training and inference folder, made when missing. Raises
    ``ValueError`` when a source of that name exists for another location or kind
    (``ValidationError`` as ``ingest.jobs.run.source_add``)."""
    sources = []
    for f in folders:
        if f.suite not in KINDS:
            continue
        found = Source.objects.filter(name=f.source_name).first()
        if found is None:
            found = sync.source_add(
                name=f.source_name,
                kind=KINDS[f.suite],
                location=str(f.path),
                round_version=f.version,
            )
        elif (found.location, found.kind) != (str(f.path), KINDS[f.suite]):
            raise ValueError(
                f"source {found.name} exists for {found.kind} {found.location}, not {f.path}"
            )
        sources.append(found)
    return sources


def sources_sync(sources: list[Source], *, full: bool = False) -> list[IngestJob]:
    """A job per source: its queued or running job if it has one, else a new one
    (``ingest.jobs.run.source_sync_request``; ``full``: read every folder again)."""
    jobs = []
    for s in sources:
        job = sync.source_sync_request(source_id=s.pk, trigger=IngestJob.Trigger.COMMAND, full=full)
        assert job is not None  # only scheduled requests are refused
        jobs.append(job)
    return jobs


@dataclass(frozen=True)
class Progress:
    """Jobs by state, and their counts summed (:data:`COUNTS`)."""

    states: dict[str, int]
    counts: dict[str, int]

    @property
    def active(self) -> int:
        return sum(n for state, n in self.states.items() if state in IngestJob.ACTIVE)

    def line(self) -> str:
        """``jobs: 3 running, 9 succeeded; results: 1,200 added, ...``."""
        states = ", ".join(f"{n} {state}" for state, n in sorted(self.states.items()))
        c = self.counts
        return (
            f"jobs: {states}; results: {c['results_added']:,} added,"
            f" {c['results_changed']:,} changed, {c['results_unchanged']:,} unchanged;"
            f" {c['files_seen']:,} files seen; {c['errors']:,} errors"
        )


def jobs_progress(job_ids: list[int]) -> Progress:
    """Where the jobs ``job_ids`` stand (one query)."""
    rows = list(IngestJob.objects.filter(pk__in=job_ids).values("state", *COUNTS))
    counts = {k: sum(int(r[k] or 0) for r in rows) for k in COUNTS}
    return Progress(dict(Counter(str(r["state"]) for r in rows)), counts)
