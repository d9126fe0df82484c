"""What a sync job of an MLPerf Inference source does (``ingest.jobs.run`` runs it): get the
tree as for training (``ingest.jobs.training.mlperf_tree``: a git checkout in the cache, or a
plain folder read in place), find the result folders the diff since
``Source.last_commit`` touches, read them with
:func:`ingest.inference.service.mlperf_inference_ingest`, and count on the job as it goes.
"""

from __future__ import annotations

import posixpath
from typing import Any

from ingest import history
from ingest.fetch import SyncError, git_changed_files
from ingest.inference.parsers.tree import Tree, find_results
from ingest.inference.service import CODE_VERSION, mlperf_inference_ingest, round_roots
from ingest.jobs.progress import JobProgress, plural
from ingest.jobs.training import mlperf_tree
from ingest.models import IngestJob
from ingest.store import IngestError


def inference_plan(
    job: IngestJob,
) -> tuple[str, str, list[str] | None, list[tuple[str, str, str, list[str]]]]:
    """(commit, base commit, changed files or None, [(round root, version, prefix, result
    folders to read)]) of ``job``'s source; only the rounds with something to read.
    Raises ``SyncError``."""
    source = job.source
    tree, commit = mlperf_tree(source)
    base = source.last_commit if source.synced_parser_version == CODE_VERSION[:32] else ""
    changed = git_changed_files(tree, base, commit) if commit and base else None
    try:
        rounds = round_roots(tree, source.round_version or None)
    except IngestError as exc:
        raise SyncError(str(exc)) from exc
    plan = []
    for root, version, _ in rounds:
        prefix = posixpath.relpath(root, tree) if root != tree else ""
        prefix = "" if prefix == "." else prefix
        finder = Tree(root)
        folders = [f.path for f in find_results(finder)]
        finder.close()
        gone = False
        if changed is not None:
            folders = touched(folders, prefix, changed)
            gone = any(p.startswith(prefix + "/" if prefix else "") for p in changed)
        if folders or gone:  # the ingest's sweep tombstones the folders removed
            plan.append((root, version, prefix, folders))
    return commit, base, changed, plan


def touched(folders: list[str], prefix: str, changed: list[str]) -> list[str]:
    """The result folders a diff touches: a file under the folder, under its
    ``compliance/``/``measurements/`` twin, or its system's ``systems/<system>.json``
    (paths relative to the round's root; ``prefix`` the round's folder in the tree)."""
    head = prefix + "/" if prefix else ""
    rel = [p[len(head) :] for p in changed if p.startswith(head)]
    out = []
    for folder in folders:
        division, submitter, _, system, model, scenario = folder.split("/")[:6]
        base = f"{division}/{submitter}"
        twins = (
            folder + "/",
            f"{base}/compliance/{system}/{model}/{scenario}/",
            f"{base}/measurements/{system}/{model}/{scenario}/",
        )
        system_file = f"{base}/systems/{system}.json"
        if any(p.startswith(twins) or p == system_file for p in rel):
            out.append(folder)
    return out


def inference_sync(job: IngestJob, progress: JobProgress) -> dict[str, Any]:
    """Read what changed in ``job.source`` since its last synced commit (everything when
    there is none, or the code changed). Returns the source's new sync state, written
    only if the job succeeds. Raises ``SyncError``."""
    commit, base, changed, plan = inference_plan(job)
    job.commit_from, job.commit_to, job.incremental = base, commit, changed is not None
    job.results_total = sum(len(folders) for *_, folders in plan)
    progress.suite = "inference"
    progress.flush()
    for root, version, prefix, folders in plan:
        progress.prefix = prefix
        try:
            report = mlperf_inference_ingest(
                location=root,
                round_version=version,
                commit=commit,
                on_result=progress,
                only_paths=set(folders),
            )
        except IngestError as exc:
            raise SyncError(str(exc)) from exc
        progress.repository_done(report)
    history.claims_follow()
    how = f"changes {base[:12]}..{commit[:12]}" if changed is not None else "full read"
    job.message = (
        f"{how}: {plural(job.results_seen, 'result folder')} in {plural(len(plan), 'round')}"
    )
    return {"last_commit": commit, "synced_parser_version": CODE_VERSION[:32]}
