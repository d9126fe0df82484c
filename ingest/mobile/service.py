"""MLPerf Mobile's ingest: a round's results tree -> judged results in Inference's
tables (round suite ``mobile``), through the one pipeline (``ingest.pipeline``).

The round is read and judged by :func:`ingest.mobile.parsers.tree.read_round` (LoadGen
detail and summary logs of each task's performance and accuracy runs, the app's
``result.json``, the systems files; the rules of ``benchdb.mlperf.mobile``). The rounds
are small (v4.0: 39 results), so a round is one unit. Each result is then stored in its
own transaction (``ingest.mobile.store``), skipped when its content hash is the stored
one.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Callable
from functools import partial

from benchdb.mlperf.mobile import checks as mobile_checks
from benchdb.mlperf.mobile import rules as mobile_rules
from benchdb.models import InferenceResult, Round
from ingest import fetch, pipeline, store
from ingest.mobile.parsers import app as mobile_app
from ingest.mobile.parsers import tree as mobile_tree
from ingest.mobile.parsers.tree import MobileRecord, read_round
from ingest.mobile.store import Writer
from ingest.store import (
    GIT_URL,
    IngestError,
    IngestReport,
    git_checkout,
    reason_kind,
    repository_url,
    tree_problems_replace,
)

ROUND_DIR = re.compile(r"mobile_results_(v\d+\.\d+)")


def mlperf_mobile_ingest(
    *,
    location: str,
    round_version: str | None = None,
    commit: str = "",
    workers: int | None = None,
    progress: bool = False,
    on_result: Callable[[MobileRecord], None] | None = None,
) -> IngestReport:
    """Ingest an MLPerf Mobile round from ``location``: its repository
    (``mobile_results_v4.0``, or any folder holding ``closed/``/``open/`` with
    ``round_version``), a folder holding such repositories, or a git URL. ``workers`` is
    accepted for the common command line (a round is read as one unit). Raises
    :class:`IngestError` when nothing can be read; problems in the input are stored and
    counted, never raised."""
    if GIT_URL.match(location) and not os.path.isdir(location):
        location, commit = git_checkout(location)
    if not os.path.isdir(location):
        raise IngestError(f"{location}: no such folder")
    report = IngestReport()
    for root, version in round_roots(location, round_version):
        commit_of = commit or fetch.git_head(root)
        _ingest_round(root, version, commit_of, report, progress, on_result)
    return report


def round_roots(location: str, round_version: str | None) -> list[tuple[str, str]]:
    """(round root, version) of each Mobile round under ``location``. Raises
    :class:`IngestError` when there is none or its round has no rules here."""
    return store.round_roots(
        location,
        round_version,
        round_dir=ROUND_DIR,
        divisions=mobile_rules.DIVISIONS,
        rounds=mobile_rules.ROUNDS,
        label="MLPerf Mobile",
    )


def _ingest_round(
    root: str,
    version: str,
    commit: str,
    report: IngestReport,
    progress: bool,
    on_result: Callable[[MobileRecord], None] | None,
) -> None:
    url = repository_url(root, version, "mobile", ROUND_DIR)
    rnd, _ = Round.objects.update_or_create(
        suite="mobile",
        version=version,
        defaults={
            "ruleset_tag": mobile_rules.ROUNDS[version][:64],
            "repository": url,
            "published": mobile_rules.PUBLISHED.get(version),
        },
    )
    report.rounds.append(version)
    read = read_round(root, version)
    report.problems += tree_problems_replace(rnd, read.problems)
    known = dict(
        InferenceResult.objects.filter(round=rnd).values_list("source_path", "content_sha256")
    )
    writer = Writer(rnd, url, commit)
    desc = f"MLPerf Mobile {version}"
    for rec in pipeline.shown(read.records, len(read.records), desc, progress):
        report.results_seen += 1
        sha = content_sha256(rec)
        if known.get(rec.path) == sha:
            report.unchanged += 1
        else:
            pipeline.store_each(partial(writer.store, rec, sha, report), rnd, rec.path, report)
        if on_result:
            on_result(rec)
    rows = InferenceResult.objects.filter(round=rnd, source_path__in=[r.path for r in read.records])
    for status, reason in rows.values_list("status", "reason"):
        if status == InferenceResult.Status.VALID:
            report.scored += 1
        else:
            report.unscored += 1
            report.reasons[f"{status}: {reason_kind(reason)}" if reason else status] += 1


def content_sha256(rec: MobileRecord) -> str:
    """sha256 over the code version and every file read: a changed file or rule
    re-stores the result."""
    h = hashlib.sha256(CODE_VERSION.encode())
    for f in sorted(rec.files, key=lambda f: f.path):
        h.update(f"{f.path}\0{f.sha256}\n".encode())
    return h.hexdigest()


def _code_version() -> str:
    modules = (
        mobile_rules,
        mobile_checks,
        mobile_app,
        mobile_tree,
        sys.modules[__name__],
        sys.modules["ingest.mobile.store"],
        sys.modules["ingest.inference.store"],
        sys.modules["ingest.inference.suite_store"],  # the writer it shares
    )
    return pipeline.code_version(modules)


CODE_VERSION = _code_version()
