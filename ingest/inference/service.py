"""Ingest service for MLPerf Inference: a results repository -> judged results in PostgreSQL.

``mlperf_inference_ingest`` finds every ``<division>/<submitter>/results/<system>/<model>/
<scenario>/`` folder of a round (``ingest/inference/parsers/tree.py``, through the safe
walker: no symbolic link followed, sizes bounded), reads each in a parser process,
recomputes and validates it with the round's rules
(:func:`benchdb.mlperf.inference.rules.evaluate`), and stores the result, its findings,
its compliance tests and its files (compressed; ``mlperf_log_accuracy.json`` by hash and
size only) in one short transaction per result. Re-running it on unchanged input writes
nothing (content hash of every file read + the code that judged them); a broken file is a
recorded problem naming file and line, and never stops the round. The published table
(``summary_results.json``, v5.1+) gives each result its official ID and published value.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from django.db import connection, connections

from benchdb import logcodec, vocabulary
from benchdb.mlperf.inference import checks as inference_checks
from benchdb.mlperf.inference import compliance_v6, equal_issue, performance_v6, rules_endpoints
from benchdb.mlperf.inference import evidence as inference_evidence
from benchdb.mlperf.inference import performance as inference_performance
from benchdb.mlperf.inference import rounds as inference_rounds
from benchdb.mlperf.inference import rounds_v6 as inference_rounds_v6
from benchdb.mlperf.inference import rules as inference_rules
from benchdb.mlperf.inference import rules_v6 as inference_rules_v6
from benchdb.mlperf.inference import scenarios as inference_scenarios
from benchdb.mlperf.inference import submission as inference_submission
from benchdb.mlperf.inference import value as inference_value
from benchdb.mlperf.inference.rules import Verdict
from benchdb.models import (
    InferenceResult,
    Round,
)
from ingest import fetch, history, history_published, pipeline
from ingest.inference import store as inference_store
from ingest.inference.parsers import loadgen as loadgen_log
from ingest.inference.parsers import tree as inference_tree
from ingest.inference.parsers import types as inference_types
from ingest.inference.parsers.tree import Tree, find_results, load_result, read_omitted_manifest
from ingest.inference.parsers.types import ResultFolder, StoredFile
from ingest.inference.store import Writer
from ingest.parsers import safe_json, safe_tree
from ingest.parsers.types import ParsedSystem, ParseError, Problem
from ingest.store import (
    GIT_URL,
    IngestError,
    IngestReport,
    git_checkout,
    not_stored,
    readme_commits_in,
    reason_kind,
    repository_url,
    tree_problems_replace,
)
from ingest.training.parsers.systems import parse_systems_json

ROUND_DIR = re.compile(r"inference_results_(v\d+\.\d+)")


@dataclass(frozen=True)
class InferenceItem:
    """One result folder as a parser process hands it over (the ``on_result`` item).

    ``path`` is the folder relative to the round's root; ``unchanged`` when its content
    hash is the stored one (nothing else is filled then); ``error`` when it could not be
    read at all. ``files`` carry their bytes compressed (:func:`benchdb.logcodec.compress`).
    """

    path: str
    unchanged: bool
    files_read: int = 0
    error: str = ""
    folder: ResultFolder | None = None
    content_sha256: str = ""
    verdict: Verdict | None = None
    system: ParsedSystem | None = None
    files: tuple[StoredFile, ...] = ()
    problems: tuple[Problem, ...] = field(default=())


def mlperf_inference_ingest(
    *,
    location: str,
    round_version: str | None = None,
    commit: str = "",
    workers: int | None = None,
    on_result: Callable[[InferenceItem], None] | None = None,
    only_paths: set[str] | None = None,
    progress: bool = False,
    extra_mapping: Mapping[str, str] | None = None,
) -> IngestReport:
    """Ingest MLPerf Inference results from ``location``.

    ``location``: a round's repository (a folder named ``inference_results_v5.1``, or any
    folder holding ``closed/``/``open/``/``network/`` with ``round_version``), a folder of
    such repositories (with ``manifests/<round>.omitted.tsv`` beside them, as
    ``../shared/mlperf-inference``: files known to exist upstream but absent here), or a
    git URL (cloned into ``BENCHDB_CACHE``). ``only_paths``: read only these result
    folders (relative to the round's root). ``extra_mapping``: model folder -> benchmark,
    as the checker's ``--extra-model-benchmark-map``. ``on_result`` is called after each
    result folder is stored or found unchanged. Raises :class:`IngestError` when nothing
    can be read; problems inside the input are stored and counted, never raised.
    """
    if GIT_URL.match(location) and not os.path.isdir(location):
        location, commit = git_checkout(location)
    if not os.path.isdir(location):
        raise IngestError(f"{location}: no such folder")
    report = IngestReport()
    rounds = round_roots(location, round_version)
    # A plain folder of repositories may say in its README which commit each came from.
    readme = readme_commits_in(location) if rounds[0][0] != location else {}
    options = _Options(workers, on_result, only_paths, progress, dict(extra_mapping or {}))
    with _relaxed_commits():
        for root, version, elsewhere in rounds:
            url = repository_url(root, version, "inference", ROUND_DIR)
            commit_of = commit or fetch.git_head(root) or readme.get(url, "")
            _ingest_round(root, version, commit_of, elsewhere, report, options)
    return report


@contextmanager
def _relaxed_commits() -> Iterator[None]:
    """PostgreSQL's ``synchronous_commit`` off for this connection while the ingest runs:
    a commit then returns before its WAL reaches the disk (2 of 18 s of a whole v5.1
    round were commits). Nothing becomes inconsistent: a crash can lose only the last
    results' transactions, which the next ingest stores again (their content hashes
    were not stored)."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as c:
        c.execute("SET synchronous_commit TO OFF")
    try:
        yield
    finally:
        with connection.cursor() as c:
            c.execute("RESET synchronous_commit")


@dataclass(frozen=True)
class _Options:
    workers: int | None
    on_result: Callable[[InferenceItem], None] | None
    only_paths: set[str] | None
    progress: bool
    extra_mapping: dict[str, str]


def round_roots(location: str, round_version: str | None) -> list[tuple[str, str, dict[str, int]]]:
    """(round root, version, omitted-files manifest) of each round under ``location``.
    Raises :class:`IngestError` when there is none, or a round cannot be told."""
    name = os.path.basename(os.path.abspath(location))
    is_round = any(
        safe_tree.kind(location, d) == "dir" for d in inference_tree.DIVISIONS
    ) or ROUND_DIR.fullmatch(name)
    if is_round:
        m = ROUND_DIR.fullmatch(name)
        version = round_version or (m.group(1) if m else "")
        return [(location, _known_round(location, version), {})]
    found = []
    for entry in safe_tree.list_dir(location, "").dirs:
        m = ROUND_DIR.fullmatch(entry)
        if m and (round_version is None or m.group(1) == round_version):
            version = _known_round(entry, m.group(1))
            found.append((os.path.join(location, entry), version, _manifest(location, version)))
    if not found:
        raise IngestError(
            f"{location}: no MLPerf Inference results repository found "
            "(expected closed/, open/ or network/, or inference_results_v*/)"
        )
    return found


def _known_round(where: str, version: str) -> str:
    if version not in vocabulary.INFERENCE_ROUNDS:
        raise IngestError(
            f"{where}: cannot tell the round ({version or 'no name'}); pass --round vX.Y "
            f"(one of {', '.join(vocabulary.INFERENCE_ROUNDS)})"
        )
    return version


def _manifest(location: str, version: str) -> dict[str, int]:
    """``manifests/<round>.omitted.tsv`` beside the rounds ({} if absent)."""
    rel = f"manifests/{version}.omitted.tsv"
    if safe_tree.kind(location, rel) != "file":
        return {}
    return read_omitted_manifest(safe_tree.read_file(location, rel, 64 * 1024 * 1024))


def _ingest_round(
    root: str,
    version: str,
    commit: str,
    elsewhere: dict[str, int],
    report: IngestReport,
    options: _Options,
) -> None:
    rnd, _ = Round.objects.get_or_create(
        suite=Round.Suite.INFERENCE,
        version=version,
        defaults={
            "ruleset_tag": vocabulary.INFERENCE_ROUNDS[version][:64],
            "repository": repository_url(root, version, "inference", ROUND_DIR),
        },
    )
    report.rounds.append(version)
    tree = Tree(root, elsewhere)
    folders = find_results(tree)
    tree.close()
    present = [f.path for f in folders]
    report.problems += tree_problems_replace(rnd, tuple(tree.problems))
    if options.only_paths is not None:
        folders = [f for f in folders if f.path in options.only_paths]
    known = dict(
        InferenceResult.objects.filter(round=rnd).values_list("source_path", "content_sha256")
    )
    writer = Writer(
        rnd, repository_url(root, version, "inference", ROUND_DIR), commit, _published(root)
    )
    items = _load_all(root, version, elsewhere, folders, known, options, writer)
    desc = f"MLPerf Inference {version}"
    for item, stored in pipeline.shown(items, len(folders), desc, options.progress):
        report.results_seen += 1
        if item.unchanged:
            report.unchanged += 1
        elif stored is not None:  # a reader process stored it (or recorded why not)
            _merge(report, stored)
        else:
            _store(writer, item, report)
        if options.on_result:
            options.on_result(item)
    history.sweep(
        rnd=rnd, repository=writer.repository, present=present, known=known, commit=commit
    )
    history_published.published_follow(rnd=rnd, published=writer.published, commit=commit)
    _count_statuses(rnd, [f.path for f in folders], report)


def _store(writer: Writer, item: InferenceItem, report: IngestReport) -> None:
    """Store one item, or record why it could not be (the result's transaction rolled
    back: nothing of it is stored, the next ingest reads it again)."""
    if item.error:
        not_stored(writer.round, item.path, item.error, report)
        return
    pipeline.store_each(partial(writer.store, item, report), writer.round, item.path, report)


def _merge(report: IngestReport, part: IngestReport) -> None:
    for name in ("added", "changed", "failed", "runs_stored", "problems"):
        setattr(report, name, getattr(report, name) + getattr(part, name))
    report.failed_paths += part.failed_paths


def _count_statuses(rnd: Round, paths: list[str], report: IngestReport) -> None:
    """``scored`` = valid results, ``unscored`` = the others, ``reasons`` counted."""
    rows = InferenceResult.objects.filter(round=rnd, source_path__in=paths)
    for status, reason in rows.values_list("status", "reason"):
        if status == InferenceResult.Status.VALID:
            report.scored += 1
        else:
            report.unscored += 1
            report.reasons[f"{status}: {reason_kind(reason)}" if reason else status] += 1


# --- reading (in parser processes) -----------------------------------------------------


def _load_all(
    root: str,
    version: str,
    elsewhere: dict[str, int],
    folders: list[ResultFolder],
    known: dict[str, str],
    options: _Options,
    writer: Writer,
) -> Iterator[tuple[InferenceItem, IngestReport | None]]:
    """Read, judge and store result folders: in parallel processes where the caller may
    fork, each reading, judging and storing its folders over its own database connection
    (a whole v5.1 round stored from one process spent most of its time there); in this
    process in Celery's daemon pool processes, with ``workers=1`` or few folders. Yields
    (the item, with its bytes dropped once stored; the counts of storing it, or None when
    this process must store it). By default one process per CPU and one more."""
    n = options.workers if options.workers is not None else (os.cpu_count() or 1) + 1
    args = (root, version, elsewhere, options.extra_mapping)
    sequential = n <= 1 or multiprocessing.current_process().daemon or len(folders) < 4
    # Readers store over their own connections, unless this process is inside a
    # transaction (a test's): other connections would not see what it wrote.
    init: tuple[Any, ...] = ()
    # (SQLite, the quick start's, takes one writer at a time: there this process stores.)
    if not sequential and connection.vendor == "postgresql" and not connection.in_atomic_block:
        init = (writer.round.pk, writer.repository, writer.commit, writer.published)
        connections.close_all()  # no connection is shared with the processes forked below
    # At most 2n folders read ahead (memory stays flat); a reader that dies costs its
    # folders a retry, then a problem (ingest.pool).
    read = lambda f: (*args, f, known.get(f.path))  # noqa: E731
    close = connections.close_all if init else None  # again before a pool replaces a broken one
    reader = (_reader_init, init, close)
    for _f, outcome in pipeline.read_all(_read_and_store, folders, read, _unread_pair, n, reader):
        yield outcome


#: The writer of a reader process (:func:`_reader_init`).
_READER_WRITER: Writer | None = None


def _reader_init(*args: Any) -> None:
    """A reader process's own writer (``round_pk, repository, commit, published``; none
    without them) over its own connection, commits relaxed as in :func:`_relaxed_commits`."""
    global _READER_WRITER
    if not args:
        return
    round_pk, repository, commit, published = args
    _READER_WRITER = Writer(Round.objects.get(pk=round_pk), repository, commit, published)
    if connection.vendor == "postgresql":
        with connection.cursor() as c:
            c.execute("SET synchronous_commit TO OFF")


def _read_and_store(
    root: str,
    version: str,
    elsewhere: dict[str, int],
    extra: dict[str, str],
    folder: ResultFolder,
    known_sha256: str | None,
) -> tuple[InferenceItem, IngestReport | None]:
    """:func:`_load_one` then, in a reader process with a writer, store it there (else
    the parent stores what this returns)."""
    item = _load_one(root, version, elsewhere, extra, folder, known_sha256)
    if item.unchanged or _READER_WRITER is None:
        return item, None
    part = IngestReport()
    _store(_READER_WRITER, item, part)
    return replace(item, files=(), verdict=None, system=None), part


def _load_one(
    root: str,
    version: str,
    elsewhere: dict[str, int],
    extra: dict[str, str],
    folder: ResultFolder,
    known_sha256: str | None,
) -> InferenceItem:
    """Read, hash and judge one result folder; any error is the item's ``error``."""
    tree = Tree(root, elsewhere, keep=True)
    try:
        loaded = load_result(tree, folder)
        files = loaded.files
        # The sibling scenario folders, the systems file's presence and the files known
        # only from the omitted-files manifest are judged too.
        listing = (*loaded.model_scenarios, str(loaded.system_exists), *loaded.elsewhere)
        sha = _content_sha256(files, listing)
        if sha == known_sha256:
            return InferenceItem(folder.path, True, len(files))
        verdict = inference_rules.evaluate(loaded, version, extra)
        system, problems = _system(folder, loaded.system_file)
        return InferenceItem(
            path=folder.path,
            unchanged=False,
            files_read=len(files),
            folder=folder,
            content_sha256=sha,
            verdict=verdict,
            system=system,
            files=tuple(_compressed(f) for f in files),
            problems=(*loaded.problems, *problems),
        )
    except Exception as exc:  # noqa: BLE001 - one folder must not stop the round
        return _unread(folder, exc)
    finally:
        tree.close()


def _unread_pair(folder: ResultFolder, exc: BaseException) -> tuple[InferenceItem, None]:
    """A folder whose reader failed or whose outcome could not come back (it failed to
    pickle, the process died): that folder's error, not the round's; stored nowhere, the
    next ingest reads it again."""
    return _unread(folder, exc), None


def _unread(folder: ResultFolder, exc: BaseException) -> InferenceItem:
    why = f"result folder not read: {type(exc).__name__}: {exc}"
    return InferenceItem(folder.path, False, error=why)


def _content_sha256(files: tuple[StoredFile, ...], listing: tuple[str, ...] = ()) -> str:
    """sha256 over the code version, every file read (path and sha256) and ``listing``
    (what else the rules read of the tree)."""
    h = hashlib.sha256(CODE_VERSION.encode())
    h.update("\0".join(listing).encode())
    for f in sorted(files, key=lambda f: f.path):
        h.update(f"{f.path}\0{f.sha256}\n".encode())
    return h.hexdigest()


def _compressed(f: StoredFile) -> StoredFile:
    if f.kind == "accuracy_log":
        return f
    return StoredFile(f.path, f.kind, f.size, f.sha256, logcodec.compress(f.data))


def _system(folder: ResultFolder, data: bytes) -> tuple[ParsedSystem | None, list[Problem]]:
    """The system description, or None with a problem when it is absent or unreadable."""
    path = f"{folder.division}/{folder.submitter}/systems/{folder.system}.json"
    if not data:
        return None, [Problem(path, None, "system description missing")]
    try:
        system = parse_systems_json(data, path)
    except ParseError as exc:
        return None, [Problem(exc.path or path, exc.line, exc.reason)]
    return system, list(system.problems)


def _published(root: str) -> dict[str, dict[str, Any]]:
    """The round's published table (``summary_results.json``, v5.1+) by ``Location``."""
    rel = "summary_results.json"
    if safe_tree.kind(root, rel) != "file":
        return {}
    try:
        rows = safe_json.loads(safe_tree.read_file(root, rel, 64 * 1024 * 1024))
    except (ParseError, OSError, ValueError):
        return {}
    if not isinstance(rows, list):
        return {}
    return {str(r.get("Location")): r for r in rows if isinstance(r, dict)}


def _code_version() -> str:
    """sha256 of the code that turns files into rows: part of every result's content
    hash, so a change to any of them re-judges every result on the next ingest (the v6.x
    rule modules too: ``evaluate`` calls them)."""
    modules = (
        inference_tree,
        inference_types,
        loadgen_log,
        safe_json,
        safe_tree,
        inference_rules,
        inference_performance,
        inference_value,
        inference_checks,
        inference_rounds,
        inference_evidence,
        inference_submission,
        inference_scenarios,
        equal_issue,
        inference_rules_v6,
        performance_v6,
        compliance_v6,
        rules_endpoints,
        inference_rounds_v6,
        vocabulary,
        inference_store,
        sys.modules[__name__],
    )
    return pipeline.code_version(modules)


CODE_VERSION = _code_version()
