"""MLPerf Tiny's ingest: a round's results tree -> judged results in Inference's tables
(round suite ``tiny``), through the one pipeline (``ingest.pipeline``).

The round is read and judged once by :func:`ingest.tiny.parsers.tree.read_round` (the
runner's ``results.txt`` / ``log.txt``, systems files; the round's checker rules
``benchdb.mlperf.tiny``); result IDs are numbered over the whole round as
``generate_final_report.py`` does, so the round is one unit (v1.2: 622 files, 69 MB with
the energy traces, of which the runner summaries and logs are read). Each result is then
stored in its own transaction (``ingest.tiny.store``), skipped when its content hash is
the stored one. v1.2's published ``summary.csv`` (when the tree has it) gives each
result its published throughput, accuracy and energy, kept beside benchdb's.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import Callable
from functools import partial

from benchdb.mlperf.tiny import checks as tiny_checks
from benchdb.mlperf.tiny import rules as tiny_rules
from benchdb.models import InferenceResult, Round
from ingest import fetch, pipeline, store
from ingest.parsers import safe_tree
from ingest.parsers.types import ParseError, Problem
from ingest.store import (
    GIT_URL,
    IngestError,
    IngestReport,
    git_checkout,
    reason_kind,
    repository_url,
    tree_problems_replace,
)
from ingest.tiny.parsers import runner as tiny_runner
from ingest.tiny.parsers import tree as tiny_tree
from ingest.tiny.parsers.tree import TinyRecord, read_round
from ingest.tiny.store import Writer

ROUND_DIR = re.compile(r"tiny_results_(v\d+\.\d+)")
SUMMARY = "summary.csv"


def mlperf_tiny_ingest(
    *,
    location: str,
    round_version: str | None = None,
    commit: str = "",
    workers: int | None = None,
    progress: bool = False,
    on_result: Callable[[TinyRecord], None] | None = None,
) -> IngestReport:
    """Ingest an MLPerf Tiny round from ``location``: its repository
    (``tiny_results_v1.2``, or any folder holding ``closed/``/``open/`` with
    ``round_version``), a folder holding such repositories, or a git URL. ``workers`` is
    accepted for the common command line (the round is read as one unit). Raises
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
    """(round root, version) of each Tiny round under ``location``. Raises
    :class:`IngestError` when there is none or its round has no rules here."""
    return store.round_roots(
        location,
        round_version,
        round_dir=ROUND_DIR,
        divisions=tiny_rules.VALID_DIVISIONS,
        rounds=tiny_rules.ROUNDS,
        label="MLPerf Tiny",
    )


def published_rows(root: str) -> tuple[dict[str, dict[str, str]], list[Problem]]:
    """The round's ``summary.csv`` rows by result folder (``<division>/<submitter>/
    results/<system>/<model>``); ``{}`` when the tree has none; a broken file is a
    problem."""
    if safe_tree.kind(root, SUMMARY) != "file":
        return {}, []
    try:
        rows = tiny_runner.parse_summary(
            safe_tree.read_file(root, SUMMARY, safe_tree.TEXT_BYTES), SUMMARY
        )
    except (ParseError, OSError) as exc:
        line = exc.line if isinstance(exc, ParseError) else None
        return {}, [Problem(SUMMARY, line, str(getattr(exc, "reason", exc)))]
    return {f"{d}/{o}/results/{s}/{m}": row for (d, o, s, m), row in rows.items()}, []


def result_ids(
    version: str, records: tuple[TinyRecord, ...], published: dict[str, dict[str, str]]
) -> dict[str, tuple[str, str]]:
    """Result folder -> (result ID, Unique ID), numbered as ``generate_final_report.py``
    numbers its input (:func:`benchdb.mlperf.tiny.rules.result_ids`): the published
    ``summary.csv`` when the tree has it (the report's own input: the IDs hold for any
    part of the round read), else the results the checker lists (valid ones)."""
    rows: dict[str, dict[str, str]] = {}
    for path, p in published.items():
        rows[path] = {
            "Category": p["Division"],
            "Availability": p.get("Availability", ""),
            "Submitter": p["Organization"],
            "BoardName": p.get("BoardName", ""),
            "UsedModel": p["Model"],
        }
    for r in records if not published else ():
        if not r.judgement.valid:
            continue
        d = r.system_description
        board = d.board_name if d is not None and "Board Name" in d.raw else "None"
        rows[r.path] = {
            "Category": r.division,
            "Availability": d.status if d is not None else "",
            "Submitter": r.submitter,
            "BoardName": board,
            "UsedModel": r.model_folder,
        }
    ids = tiny_rules.result_ids(version, rows.values())
    out = {}
    for path, row in rows.items():
        keys = (row["Category"], row["Submitter"], row["BoardName"], row["UsedModel"])
        unique = tiny_rules.unique_id(*keys)
        out[path] = (ids[unique], unique)
    return out


def _ingest_round(
    root: str,
    version: str,
    commit: str,
    report: IngestReport,
    progress: bool,
    on_result: Callable[[TinyRecord], None] | None,
) -> None:
    url = repository_url(root, version, "tiny", ROUND_DIR)
    rnd, _ = Round.objects.update_or_create(
        suite="tiny",
        version=version,
        defaults={
            "ruleset_tag": tiny_rules.CHECKER[version][:64],
            "repository": url,
            "published": tiny_rules.PUBLISHED.get(version),
        },
    )
    report.rounds.append(version)
    read = read_round(root, version)
    published, summary_problems = published_rows(root)
    report.problems += tree_problems_replace(rnd, read.problems + tuple(summary_problems))
    known = dict(
        InferenceResult.objects.filter(round=rnd).values_list("source_path", "content_sha256")
    )
    ids = result_ids(version, read.records, published)
    writer = Writer(rnd, url, commit, ids, published)
    desc = f"MLPerf Tiny {version}"
    for rec in pipeline.shown(read.records, len(read.records), desc, progress):
        report.results_seen += 1
        sha = content_sha256(rec, ids.get(rec.path, ("", ""))[0], published.get(rec.path, {}))
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


def content_sha256(rec: TinyRecord, result_id: str, published: dict[str, str]) -> str:
    """sha256 over the code version, the result ID, its published row and every file
    read: a changed file, ID, published figure or rule re-stores the result."""
    h = hashlib.sha256(CODE_VERSION.encode())
    h.update(result_id.encode())
    h.update(repr(sorted(published.items())).encode())
    for f in sorted(rec.files, key=lambda f: f.path):
        h.update(f"{f.path}\0{f.sha256}\n".encode())
    if rec.system_description is not None:
        h.update(repr(sorted(rec.system_description.raw.items(), key=str)).encode())
    return h.hexdigest()


def _code_version() -> str:
    modules = (
        tiny_rules,
        tiny_checks,
        tiny_runner,
        tiny_tree,
        sys.modules[__name__],
        sys.modules["ingest.tiny.store"],
        sys.modules["ingest.inference.store"],
        sys.modules["ingest.inference.suite_store"],  # the writer it shares
    )
    return pipeline.code_version(modules)


CODE_VERSION = _code_version()
