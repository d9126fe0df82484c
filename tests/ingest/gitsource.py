"""Test helpers for source syncs: a local git repository built from ../shared/mlperf
commit by commit, a sync run in this process, the git payload of issue 9 and where
it would leave its mark, and the database content compared row for row on natural
keys (never on ids)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Model

from benchdb.models import Benchmark, IngestProblem, Result, Round, Run, RunLog, Submitter, System
from ingest.jobs import run as sync
from ingest.models import IngestJob, Source

GIT_ENV = {
    "GIT_AUTHOR_NAME": "benchdb tests",
    "GIT_AUTHOR_EMAIL": "tests@benchdb.invalid",
    "GIT_COMMITTER_NAME": "benchdb tests",
    "GIT_COMMITTER_EMAIL": "tests@benchdb.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}

#: The ref of issue 9, item 1: before the fix, ``git fetch origin <ref>`` read it as
#: an option and ran ``touch PWNED`` in the checkout.
PAYLOAD = "--upload-pack=touch PWNED;git-upload-pack"
#: A location git would run as a command through its ``ext`` transport.
EXT_PAYLOAD = "ext::sh -c touch% PWNED"


def pwned(*roots: Path) -> list[Path]:
    """Every file named PWNED under ``roots`` and in the working directory: what the
    payloads leave when they run."""
    found = [p for root in roots for p in Path(root).rglob("PWNED")]
    return found + [
        p for p in (Path.cwd() / "PWNED", Path(settings.BASE_DIR) / "PWNED") if p.exists()
    ]


def run_sync(source: Source, trigger: str = IngestJob.Trigger.COMMAND, **kw: Any) -> IngestJob:
    """What the task does, in this process (the test transaction never commits, so
    the on_commit queueing does not fire here)."""
    job = sync.source_sync_request(source_id=source.pk, trigger=trigger, **kw)
    assert job is not None
    ran = sync.ingest_job_run(job_id=job.pk, worker="test")
    assert ran is not None
    return ran


class GitRepo:
    """A git repository (branch ``main``) at ``path``, filled from MLPERF_DATA."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        out = subprocess.run(
            ["git", "-C", str(self.path), *args],
            capture_output=True,
            text=True,
            env={**os.environ, **GIT_ENV},
            check=True,
        )
        return out.stdout.strip()

    def add_round(self, version: str, dest: str | None = None) -> Path:
        """Copy ``training_results_<version>`` of MLPERF_DATA to ``dest`` (default: a
        folder of that name; "" copies its content to the repository root)."""
        src = Path(settings.MLPERF_DATA) / f"training_results_{version}"
        target = self.path / (f"training_results_{version}" if dest is None else dest)
        shutil.copytree(src, target, dirs_exist_ok=True)
        return target

    def commit(self, message: str) -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD")

    def shift_run_stop(self, rel: str, ms: int) -> int:
        """Move the ``run_stop`` event of log ``rel`` by ``ms`` milliseconds; returns
        its 1-based line."""
        path = self.path / rel
        lines = path.read_bytes().split(b"\n")
        for i, line in enumerate(lines):
            if b'"key": "run_stop"' in line:
                m = re.search(rb'"time_ms": (\d+)', line)
                assert m, line
                shifted = b'"time_ms": %d' % (int(m.group(1)) + ms)
                lines[i] = line.replace(m.group(0), shifted)
                path.write_bytes(b"\n".join(lines))
                return i + 1
        raise AssertionError(f"{rel}: no run_stop")


def result_folders(repo: Path) -> dict[str, int]:
    """Result folders of a results repository, found by walking it: path relative to
    the repository -> files a sync reads there (``result_*.txt`` + systems file)."""
    out = {}
    for folder in sorted(p for p in repo.glob("*/results/*/*") if p.is_dir()):
        runs = [
            p for p in folder.iterdir() if re.fullmatch(r"result_.*\.txt", p.name) and p.is_file()
        ]
        submitter, _, system, _ = folder.relative_to(repo).parts
        has_system = (repo / submitter / "systems" / f"{system}.json").is_file()
        out[str(folder.relative_to(repo))] = len(runs) + has_system
    return out


def wipe_results() -> None:
    """Delete every result row (rounds, systems, results, runs, problems)."""
    IngestProblem.objects.all().delete()
    Round.objects.all().delete()
    Submitter.objects.all().delete()
    Benchmark.objects.all().delete()


def db_content() -> dict[str, dict[Any, dict[str, Any]]]:
    """Every result row, by natural key, with foreign keys replaced by natural keys
    and binary fields by their sha256: two ingests of the same input compare equal."""
    rounds = {r.pk: (r.suite, r.version) for r in Round.objects.all()}
    subs = {s.pk: s.name for s in Submitter.objects.all()}
    benches = {b.pk: b.key for b in Benchmark.objects.all()}
    systems = {
        s.pk: (rounds[s.round_id], s.submitter_folder, s.folder) for s in System.objects.all()
    }
    results = {r.pk: (systems[r.system_id], r.benchmark_folder) for r in Result.objects.all()}
    runs = {r.pk: (results[r.result_id], r.file_name) for r in Run.objects.all()}
    return {
        "round": _rows(Round, {}, lambda v: (v["suite"], v["version"])),
        "submitter": _rows(Submitter, {}, lambda v: v["name"]),
        "benchmark": _rows(Benchmark, {}, lambda v: v["key"]),
        "system": _rows(
            System,
            {"round_id": rounds, "submitter_id": subs},
            lambda v: (v["round_id"], v["submitter_folder"], v["folder"]),
        ),
        "result": _rows(
            Result,
            {"round_id": rounds, "system_id": systems, "benchmark_id": benches},
            lambda v: (v["system_id"], v["benchmark_folder"]),
        ),
        "run": _rows(Run, {"result_id": results}, lambda v: (v["result_id"], v["file_name"])),
        "runlog": _rows(RunLog, {"run_id": runs}, lambda v: v["run_id"]),
        "problem": _rows(
            IngestProblem,
            {"round_id": rounds, "result_id": results},
            lambda v: (v["round_id"], v["path"], v["line"], v["message"]),
        ),
    }


def _rows(
    model: type[Model], fks: dict[str, dict[int, Any]], key: Any
) -> dict[Any, dict[str, Any]]:
    out = {}
    for v in model.objects.values():  # type: ignore[attr-defined]
        v.pop("id", None)
        v.pop("created", None)
        for name, mapping in fks.items():
            v[name] = None if v[name] is None else mapping[v[name]]
        for name, value in v.items():
            if isinstance(value, (bytes, memoryview)):
                v[name] = hashlib.sha256(bytes(value)).hexdigest()
            elif isinstance(value, (dict, list)):
                v[name] = json.dumps(value, sort_keys=True)
        k = key(v)
        assert k not in out, f"{model.__name__}: two rows for {k}"
        out[k] = v
    return out
