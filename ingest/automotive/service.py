"""MLPerf Automotive's ingest: a round's results tree -> judged results in Inference's
tables (round suite ``automotive``), through the one pipeline (``ingest.pipeline``).

The round is read and judged once by ``ingest.automotive.records.read_round`` (the safe
tree walk and LoadGen parsers of ``ingest/inference/parsers``, the round's checker rules
``benchdb.mlperf.automotive``, result IDs from ``summary_results.json`` or numbered as
``generate_final_report.py`` does: IDs need the whole round, so the round is read as one
unit; v0.5 is 4.3 MB); each result is then stored in its own transaction
(``ingest.automotive.store``), skipped when its content hash is the stored one.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Callable, Mapping
from functools import partial

from benchdb import vocabulary
from benchdb.mlperf.automotive import checks as automotive_checks
from benchdb.mlperf.automotive import performance as automotive_performance
from benchdb.mlperf.automotive import rules as automotive_rules
from benchdb.models import InferenceResult, Round
from ingest import fetch, pipeline, store
from ingest.automotive import records as automotive_records
from ingest.automotive.parsers import tree as automotive_tree
from ingest.automotive.records import AutomotiveRecord, read_round
from ingest.automotive.store import Writer
from ingest.inference.parsers import loadgen as loadgen_log
from ingest.inference.parsers import tree as inference_tree
from ingest.store import (
    GIT_URL,
    IngestError,
    IngestReport,
    git_checkout,
    reason_kind,
    repository_url,
    tree_problems_replace,
)

ROUND_DIR = re.compile(r"automotive_results_(v\d+\.\d+)")


def mlperf_automotive_ingest(
    *,
    location: str,
    round_version: str | None = None,
    commit: str = "",
    workers: int | None = None,
    progress: bool = False,
    on_result: Callable[[AutomotiveRecord], None] | None = None,
    extra_mapping: Mapping[str, str] | None = None,
) -> IngestReport:
    """Ingest an MLPerf Automotive round from ``location``: its repository
    (``automotive_results_v0.5``, or any folder holding ``closed/``/``open/`` with
    ``round_version``), a folder holding such repositories, or a git URL.
    ``extra_mapping``: model folder -> model (the checker's
    ``--extra-model-benchmark-map``). ``workers`` is accepted for the common command
    line (the round is read as one unit). Raises :class:`IngestError` when nothing can
    be read; problems in the input are stored and counted, never raised."""
    if GIT_URL.match(location) and not os.path.isdir(location):
        location, commit = git_checkout(location)
    if not os.path.isdir(location):
        raise IngestError(f"{location}: no such folder")
    report = IngestReport()
    for root, version in round_roots(location, round_version):
        commit_of = commit or fetch.git_head(root)
        _ingest_round(root, version, commit_of, report, progress, on_result, extra_mapping)
    return report


def round_roots(location: str, round_version: str | None) -> list[tuple[str, str]]:
    """(round root, version) of each Automotive round under ``location``. Raises
    :class:`IngestError` when there is none or its round has no rules here."""
    return store.round_roots(
        location,
        round_version,
        round_dir=ROUND_DIR,
        divisions=inference_tree.DIVISIONS,
        rounds=automotive_rules.ROUNDS,
        label="MLPerf Automotive",
    )


def _ingest_round(
    root: str,
    version: str,
    commit: str,
    report: IngestReport,
    progress: bool,
    on_result: Callable[[AutomotiveRecord], None] | None,
    extra_mapping: Mapping[str, str] | None,
) -> None:
    url = repository_url(root, version, "automotive", ROUND_DIR)
    rnd, _ = Round.objects.update_or_create(
        suite="automotive",
        version=version,
        defaults={"ruleset_tag": automotive_rules.CHECKER_COMMIT[:64], "repository": url},
    )
    report.rounds.append(version)
    read = read_round(root, version, keep=True, extra_mapping=extra_mapping)
    report.problems += tree_problems_replace(rnd, read.problems)
    known = dict(
        InferenceResult.objects.filter(round=rnd).values_list("source_path", "content_sha256")
    )
    writer = Writer(rnd, url, commit)
    desc = f"MLPerf Automotive {version}"
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


def content_sha256(rec: AutomotiveRecord) -> str:
    """sha256 over the code version, the record's result ID and every file read (path
    and sha256): a changed file, ID or rule re-stores the result."""
    h = hashlib.sha256(CODE_VERSION.encode())
    h.update(rec.result_id.encode())
    for f in sorted(rec.files, key=lambda f: f.path):
        h.update(f"{f.path}\0{f.sha256}\n".encode())
    return h.hexdigest()


def _code_version() -> str:
    modules = (
        automotive_rules,
        automotive_checks,
        automotive_performance,
        automotive_records,
        automotive_tree,
        inference_tree,
        loadgen_log,
        vocabulary,
        sys.modules[__name__],
        sys.modules["ingest.automotive.store"],
        sys.modules["ingest.inference.store"],
        sys.modules["ingest.inference.suite_store"],  # the writer it shares
    )
    return pipeline.code_version(modules)


CODE_VERSION = _code_version()
