"""``manage.py history backfill <repository>``: walk a results repository's git history
since publication and record, as back-filled versions, every change it made to a
published result (:mod:`benchdb.history.commits` decides what changed).

The repository is a bare mirror or a clone (``git -C`` reads both). The commits are
those ``git log`` lists over the result files, the systems files and
``summary_results.json``, oldest first; the first is the publication, each later one is
compared with its first parent (``git diff --name-status -M``, ``git ls-tree``,
``git cat-file``; every path after ``--``, arguments as a list, never a shell string:
``ingest.fetch.git``). A version is keyed by (suite, round, result folder, commit), so
a second back-fill records nothing new. Stored results of the round are linked by path.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from benchdb.history import commits as hc
from benchdb.history.diff import kinds
from benchdb.models import InferenceResult, Result, ResultVersion
from ingest.fetch import SyncError, git

_REPO = re.compile(r"(training|inference|hpc)_results_(v\d+\.\d+)")
#: What ``git log`` follows: result folders, systems files, the published table.
PATHSPECS = ("*results/*", "*systems/*.json", hc.SUMMARY)
#: Largest JSON file read from a commit (summary_results.json of v5.1: 2.6 MB).
MAX_JSON = 64 * 1024 * 1024


@dataclass
class CommitReport:
    """One commit's findings: sha, date, subject, versions by kind, examples."""

    sha: str
    date: str
    subject: str
    kinds: Counter[str] = field(default_factory=Counter)
    added: int = 0
    examples: list[str] = field(default_factory=list)


@dataclass
class BackfillReport:
    suite: str
    round_version: str
    commits: list[CommitReport] = field(default_factory=list)
    recorded: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON-ready values (kinds as plain dicts)."""
        return {
            "suite": self.suite,
            "round": self.round_version,
            "recorded": self.recorded,
            "commits": [
                {
                    "sha": c.sha,
                    "date": c.date,
                    "subject": c.subject,
                    "kinds": dict(sorted(c.kinds.items())),
                    "added": c.added,
                    "examples": c.examples,
                }
                for c in self.commits
            ],
        }


def repository_round(location: str) -> tuple[str, str]:
    """(suite, round version) of a results repository, from its path
    (``.../training_results_v5.1/...``) or its ``origin`` URL. Raises ``SyncError``."""
    m = _REPO.search(os.path.abspath(location))
    if m is None:
        url = _git_or_empty(["-C", location, "config", "--get", "remote.origin.url"])
        m = _REPO.search(url)
    if m is None:
        raise SyncError(f"{location}: cannot tell the suite and round; pass --suite and --round")
    return m.group(1), m.group(2)


def history_backfill(
    *, location: str, suite: str = "", round_version: str = "", dry_run: bool = False
) -> BackfillReport:
    """Walk ``location``'s commits and record (unless ``dry_run``) a back-filled
    version per result folder and commit that changed it. Raises ``SyncError`` for a
    location git cannot read."""
    if not (suite and round_version):
        suite, round_version = repository_round(location)
    git(["-C", location, "rev-parse", "--git-dir"])
    log = git(["-C", location, "log", "--reverse", "--format=%H%x09%cI%x09%s", "--", *PATHSPECS])
    rows = [line.split("\t", 2) for line in log.splitlines() if line.strip()]
    report = BackfillReport(suite, round_version)
    if not rows:
        return report
    trees: dict[str, list[str]] = {}
    for sha, date, subject in rows[1:]:
        parent = _git_or_empty(["-C", location, "rev-parse", "--verify", "-q", f"{sha}^1"]).strip()
        if not parent:
            continue
        before = trees.pop(parent, None) or _tree_files(location, parent)
        trees = {sha: _tree_files(location, sha)}
        found = _commit(location, suite, parent, sha, before, trees[sha])
        cr = CommitReport(sha, date, subject.strip(), added=len(found.added))
        for path, changes in sorted(found.changes.items()):
            cr.kinds.update(kinds(changes))
            if len(cr.examples) < 3:
                cr.examples.append(f"{path}: " + "; ".join(c.words() for c in changes[:3]))
        if found.changes or found.added:
            report.commits.append(cr)
        if not dry_run:
            report.recorded += _record(suite, round_version, sha, parent, date, found)
    return report


def _commit(
    location: str, suite: str, parent: str, sha: str, before: list[str], after: list[str]
) -> hc.CommitChanges:
    out = git(["-C", location, "diff", "--name-status", "-z", "-M", parent, sha, "--", *PATHSPECS])
    touched = _name_status(out)
    systems = {}
    summary = None
    for old, new in hc.systems_pairs(touched):
        systems[(old, new)] = (_json(location, parent, old), _json(location, sha, new))
    for status, old, new in touched:
        if new == hc.SUMMARY and status[0] == "M":
            summary = (_json(location, parent, old), _json(location, sha, new))
    return hc.commit_changes(
        suite=suite,
        before=hc.result_dirs(before, suite),
        after=hc.result_dirs(after, suite),
        touched=touched,
        systems=systems,
        summary=summary,
    )


def _name_status(out: str) -> list[tuple[str, str, str]]:
    """``git diff --name-status -z`` -> (status, old path, new path)."""
    parts = out.split("\0")
    entries = []
    i = 0
    while i < len(parts) and parts[i]:
        status = parts[i]
        if status[0] in "RC":
            entries.append((status, parts[i + 1], parts[i + 2]))
            i += 3
        else:
            entries.append((status, parts[i + 1], parts[i + 1]))
            i += 2
    return entries


def _tree_files(location: str, sha: str) -> list[str]:
    out = git(["-C", location, "ls-tree", "-r", "-z", "--name-only", sha, "--"])
    return [p for p in out.split("\0") if p]


def _json(location: str, sha: str, path: str) -> Any:
    size = _git_or_empty(["-C", location, "cat-file", "-s", f"{sha}:{path}"]).strip()
    if not size.isdigit() or int(size) > MAX_JSON:
        return None
    try:
        return json.loads(git(["-C", location, "cat-file", "blob", f"{sha}:{path}"]))
    except (ValueError, SyncError):
        return None


def _git_or_empty(args: list[str]) -> str:
    try:
        return git(args)
    except SyncError:
        return ""


def _record(
    suite: str, round_version: str, sha: str, parent: str, date: str, found: hc.CommitChanges
) -> int:
    """Store the commit's versions (skipping those a previous back-fill stored)."""
    if not found.changes:
        return 0
    paths = list(found.changes)
    model: Any = InferenceResult if suite == "inference" else Result
    stored = dict(
        model.objects.filter(
            round__suite=suite, round__version=round_version, source_path__in=paths
        ).values_list("source_path", "pk")
    )
    committed = datetime.fromisoformat(date)
    now = timezone.now()
    rows = []
    for path, changes in found.changes.items():
        link = {"result_id" if suite != "inference" else "inference_result_id": stored.get(path)}
        rows.append(
            ResultVersion(
                suite=suite,
                round_version=round_version,
                path=path[:500],
                submitter=_submitter(path, suite),
                kinds="," + ",".join(kinds(changes)) + ",",
                changes=[c.as_dict() for c in changes],
                commit=sha,
                commit_before=parent,
                committed=committed,
                seen=now,
                origin=ResultVersion.Origin.BACKFILL,
                claims_checked=True,
                **link,
            )
        )
    mine = ResultVersion.objects.filter(
        origin=ResultVersion.Origin.BACKFILL, suite=suite, round_version=round_version, commit=sha
    )
    n = mine.count()
    ResultVersion.objects.bulk_create(rows, ignore_conflicts=True)
    return mine.count() - n


def _submitter(path: str, suite: str) -> str:
    parts = path.split("/")
    return "/".join(parts[:2]) if suite == "inference" else parts[0]
