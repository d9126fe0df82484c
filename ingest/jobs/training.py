"""What a sync job of an MLPerf Training source does (``ingest.jobs.run`` runs it): get
the tree (a git checkout in the cache, or a plain folder read in place), find the
result folders the diff since ``Source.last_commit`` touches, read them with
:func:`ingest.training.service.mlperf_training_ingest`, and count everything on the job as
it goes (:class:`JobProgress`). See ``ingest.jobs.run`` for the job's life.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable
from typing import Any

from ingest import history
from ingest.fetch import (
    SyncError,
    cache_dir,
    check_git_location,
    check_git_ref,
    git_changed_files,
    git_checkout,
    is_http_url,
)
from ingest.jobs.progress import JobProgress, claims_reverify_all, plural
from ingest.models import IngestJob, Source
from ingest.training.parsers import tree as training_tree
from ingest.training.service import CODE_VERSION, IngestError, mlperf_training_ingest

# --- MLPerf results repositories ---------------------------------------------------------


def mlperf_sync(job: IngestJob, progress: JobProgress) -> dict[str, Any]:
    """Read what changed in ``job.source`` since its last synced commit (everything
    when there is none, or the parser changed), counting on ``job`` through
    ``progress``. Returns the source's new sync state (``last_commit``,
    ``synced_parser_version``), written only if the job succeeds. Raises
    ``SyncError`` (``RefusedError`` for a ref or location git must not be given)."""

    source = job.source
    tree, commit, base, changed, repos, plan = plan_sync(job, progress)
    job.commit_from, job.commit_to, job.incremental = base, commit, changed is not None
    job.results_total = sum(n for *_, n in plan)
    progress.flush()
    round_version = source.round_version if len(repos) == 1 and source.round_version else None
    for repo, prefix, paths, _ in plan:
        progress.prefix = prefix
        try:
            report = mlperf_training_ingest(
                location=repo,
                round_version=round_version,
                commit=commit,
                on_result=progress,
                only_paths=paths,
            )
        except IngestError as exc:
            raise SyncError(str(exc)) from exc
        progress.repository_done(report)
    job.message = _summary(job, len(plan))
    if progress.failed:
        job.message += (
            f"; {plural(progress.failed, 'result folder')} not stored (see the errors), so the "
            f"synced commit stays {base[:12] or 'unset'} and the next sync reads them again"
        )
    progress.flush()
    history.claims_follow()  # before the re-check below overwrites the verdicts
    # A failed re-check would not be retried by the next sync, which finds these
    # results stored: a source whose last job failed re-checks on its next one.
    if job.results_added or job.results_changed or source.consecutive_failures:
        pages = claims_reverify_all()
        job.message += f"; claims of {plural(pages, 'vendor page')} checked again" if pages else ""
    return {"last_commit": commit, "synced_parser_version": CODE_VERSION[:32]}


def plan_sync(
    job: IngestJob, progress: JobProgress
) -> tuple[str, str, str, list[str] | None, list[str], list[tuple[str, str, set[str] | None, int]]]:
    """(tree, its commit, the base commit, the changed files or None for a full read,
    the repositories, :func:`_mlperf_plan`) of ``job``'s source: the git fetch and diff.
    Raises ``SyncError``."""

    source = job.source
    tree, commit = mlperf_tree(source)
    base = source.last_commit if source.synced_parser_version == CODE_VERSION[:32] else ""
    changed = git_changed_files(tree, base, commit) if commit and base else None
    repos = training_tree.find_repositories(tree)
    if not repos:
        raise SyncError(
            f"{source.location}: no MLPerf results repository "
            "(expected <Submitter>/results/ or training_results_v*/)"
        )
    return tree, commit, base, changed, repos, _mlperf_plan(tree, repos, changed, progress)


def _mlperf_plan(
    tree: str, repos: list[str], changed: list[str] | None, progress: JobProgress
) -> list[tuple[str, str, set[str] | None, int]]:
    """What to read in each repository of ``tree``: (repository, its path in the tree,
    the result folders to read (None: all), how many). ``changed``: the files the
    diff names (None: a full read). A result folder removed upstream is a warning."""
    plan: list[tuple[str, str, set[str] | None, int]] = []
    for repo in repos:
        prefix = os.path.relpath(repo, tree).replace(os.sep, "/")
        prefix = "" if prefix == "." else prefix
        if changed is None:
            plan.append((repo, prefix, None, len(training_tree.discover_results(repo))))
            continue
        only, removed = changed_result_dirs(repo, prefix, changed)
        for path in removed:
            gone = "result folder removed upstream; its result stays in the database"
            progress.error(posixpath.join(prefix, path), None, gone, "warning")
        if only or removed:  # removed only: read nothing, the ingest tombstones them
            plan.append((repo, prefix, only, len(only)))
    return plan


def _summary(job: IngestJob, repos: int) -> str:
    if job.incremental and not job.results_total:
        return (
            f"up to date at {job.commit_to[:12]}"
            if job.commit_from == job.commit_to
            else f"{job.commit_from[:12]}..{job.commit_to[:12]}: no result folder changed"
        )
    how = (
        f"changes {job.commit_from[:12]}..{job.commit_to[:12]}" if job.incremental else "full read"
    )
    where = plural(repos, "repository", "repositories")
    return f"{how}: {plural(job.results_seen, 'result folder')} in {where}"


def changed_result_dirs(
    repo: str, prefix: str, changed: Iterable[str]
) -> tuple[set[str], list[str]]:
    """Which result folders of ``repo`` a list of changed files touches.

    ``changed``: paths relative to the git tree (``git diff --name-only``);
    ``prefix``: ``repo`` relative to that tree ("" for the root). A result folder
    is touched when a file directly in it changed, or its systems file (which
    every benchmark of that system reads). Returns (result folder paths relative
    to ``repo``, as ``ResultDir.path``; result folders whose run files changed
    but which no longer exist).
    """
    head = prefix + "/" if prefix else ""
    rel = {p[len(head) :] for p in changed if p.startswith(head)}
    parents = {posixpath.dirname(p) for p in rel}
    dirs = training_tree.discover_results(repo)
    touched = {
        d.path for d in dirs if d.path in parents or (d.system_file and d.system_file in rel)
    }
    known = {d.path for d in dirs}
    removed = sorted(
        {
            posixpath.dirname(p)
            for p in rel
            if training_tree.RUN_FILE.match(posixpath.basename(p))
            and "/results/" in f"/{p}"
            and posixpath.dirname(p) not in known
            and not os.path.isdir(os.path.join(repo, posixpath.dirname(p)))
        }
    )
    return touched, removed


def mlperf_tree(source: Source) -> tuple[str, str]:
    """(folder to read, its commit): a git checkout in the cache, or a plain local
    folder read in place (commit ""). Raises ``RefusedError`` (a ``SyncError``) for a
    ref or location git must not be given (stored before the rules, or around them)."""
    check_git_ref(source.ref)
    loc = check_git_location(source.location)
    if not is_http_url(loc):
        if not os.path.isdir(loc):
            raise SyncError(f"{loc}: no such folder")
        if not (os.path.exists(os.path.join(loc, ".git")) or loc.endswith(".git")):
            return loc, ""
        loc = "file://" + os.path.abspath(loc)  # file://, so that --depth applies locally
    return git_checkout(url=loc, ref=source.ref, dest=cache_dir(loc, source_id=source.pk))
