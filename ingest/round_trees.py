"""A round's whole results repository recorded (``RoundTree``) and what benchdb holds
of it: the service that lists a repository's commit with git (``git ls-tree``, run by
``ingest.fetch.git`` with its transport limits), and the selector that tells, round by
round and submitter by submitter, whether benchdb stores every result folder that
commit lists (``benchdb.claims.round_counts.Holding``). Counts over a round are checked
only against a round held whole (issue 20).

Why git's listing and not the folder read: a folder on disk may be a part of the
repository (../shared/mlperf holds a few submitters of v1.0-v2.0; a snapshot may lack
large files), and nothing in a folder says it is whole. The commit's tree is the
repository as MLCommons published it.
"""

from __future__ import annotations

import os

from benchdb.claims.round_counts import Holding, Score
from benchdb.models import InferenceResult, Result, Round, RoundTree
from benchdb.models.data_version import data_version
from benchdb.vocabulary import canonical_benchmark
from ingest.fetch import check_git_ref, git
from ingest.parsers.round_tree import read_listing, read_loadgen_listing

#: Suites whose rounds have a tree: training and HPC (``Result`` rows, MLLOG result
#: folders), inference and automotive (``InferenceResult`` rows, LoadGen folders).
TREE_SUITES = {
    "training": Round.Suite.TRAINING,
    "hpc": Round.Suite.HPC,
    "inference": Round.Suite.INFERENCE,
    "automotive": Round.Suite.AUTOMOTIVE,
}
#: Suites whose result folders are LoadGen's (``<division>/<submitter>/results/...``).
LOADGEN_SUITES = frozenset({"inference", "automotive"})


class RoundTreeError(Exception):
    """The tree cannot be recorded: no such round stored, no such git directory or
    commit, or a listing with no result folder."""


def round_tree_record(
    *, suite: str, version: str, git_dir: str, ref: str = "HEAD", repository: str = ""
) -> RoundTree:
    """Record the result folders that commit ``ref`` of the repository at ``git_dir``
    (a bare repository or a ``.git`` folder) lists, as round ``version`` of ``suite``
    (``training``, ``hpc``, ``inference`` or ``automotive``; the round must be stored:
    ingest it first).
    ``repository``: its URL as shown (default ``git_dir``). Returns the row (made or
    replaced). Raises :class:`RoundTreeError` on an unknown round, a missing git
    directory, a ref git refuses or cannot resolve, or a listing with no result folder.
    """
    if suite not in TREE_SUITES:
        raise RoundTreeError(f"unknown suite {suite!r} (known: {', '.join(TREE_SUITES)})")
    rnd = Round.objects.filter(suite=TREE_SUITES[suite], version=version).first()
    if rnd is None:
        raise RoundTreeError(f"no {suite} round {version} is stored: ingest it first")
    if not os.path.isdir(git_dir):
        raise RoundTreeError(f"{git_dir}: no such git directory")
    try:
        check_git_ref("" if ref == "HEAD" else ref)
        base = ["--git-dir", git_dir]
        commit = git([*base, "rev-parse", "--verify", "--end-of-options", f"{ref}^{{commit}}"])
        commit = commit.strip()
        names = git([*base, "ls-tree", "-r", "-z", "--name-only", commit, "--"]).split("\0")
    except Exception as exc:  # RefusedError, SyncError: git's message names the problem
        raise RoundTreeError(str(exc)) from exc
    reader = read_loadgen_listing if suite in LOADGEN_SUITES else read_listing
    listing = reader(n for n in names if n)
    if not listing.result_paths:
        raise RoundTreeError(f"{git_dir} at {commit[:12]}: no result folder listed")
    tree, _ = RoundTree.objects.update_or_create(
        round=rnd,
        defaults={
            "repository": repository or git_dir,
            "commit": commit,
            "submitters": list(listing.submitters),
            "result_paths": list(listing.result_paths),
        },
    )
    return tree


#: This process's holdings at one data version: (token, holdings).
_cached: tuple[str, dict[tuple[str, str], Holding]] | None = None


def round_holdings() -> dict[tuple[str, str], Holding]:
    """(suite, round) -> what benchdb holds of each round whose tree is recorded
    (:class:`benchdb.claims.round_counts.Holding`): the tree's submitters, those with a
    listed result folder not stored (the round is not whole for them), and the stored
    results of the listed folders as (submitter folder, benchmark key, division,
    system folder, framework). Read once per data version in each process (two
    queries per recorded round; ``benchdb.models.data_version``), each time where no
    data version is kept. A new dict each call (the holdings are frozen)."""
    global _cached
    version = data_version()
    if version is not None and _cached is not None and _cached[0] == version.token:
        return dict(_cached[1])
    out = _read_holdings()
    if version is not None:
        _cached = (version.token, out)
    return dict(out)


def _read_holdings() -> dict[tuple[str, str], Holding]:
    out: dict[tuple[str, str], Holding] = {}
    for tree in RoundTree.objects.select_related("round"):
        rnd = tree.round
        loadgen = rnd.suite in LOADGEN_SUITES
        listed = set(tree.result_paths)
        rows = (_loadgen_rows if loadgen else _training_rows)(rnd, listed)
        stored = {path for path, _ in rows}
        missing = frozenset(_submitter_of(p, loadgen) for p in listed - stored)
        entries = [(s.submitter, s.benchmark, s.division, s.system, fw) for _, (s, fw) in rows]
        out[rnd.suite, rnd.version] = Holding(
            suite=rnd.suite,
            round=rnd.version,
            commit=tree.commit,
            submitters=tuple(tree.submitters),
            incomplete=missing,
            entries=tuple(sorted(entries)),
            scores=tuple(sorted((s for _, (s, _fw) in rows), key=_score_key)),
        )
    return out


def _submitter_of(path: str, loadgen: bool) -> str:
    """The submitter folder of a result path (LoadGen: the second part, after the
    division)."""
    parts = path.split("/")
    return parts[1] if loadgen and len(parts) > 1 else parts[0]


def _score_key(s: Score) -> tuple[str, ...]:
    return (s.submitter, s.benchmark, s.division, s.kind, s.system)


Row = tuple[str, tuple[Score, str]]


def _training_rows(rnd: Round, listed: set[str]) -> list[Row]:
    """(path, (score, framework)) of the stored training / HPC results of ``listed``."""
    rows = Result.objects.filter(round=rnd, source_path__in=listed).values_list(
        "source_path",
        "benchmark__key",
        "division",
        "system__folder",
        "system__framework",
        "scaling_type",
        "system__accelerator_model",
        "system__availability",
        "status",
        "score_minutes",
        "throughput_models_per_minute",
    )
    out = []
    for path, bench, div, folder, fw, scaling, acc, avail, status, minutes, rate in rows:
        weak = scaling == "weak"
        value = (rate if weak else minutes) if status == Result.Status.SCORED else None
        score = Score(
            path.split("/", 1)[0],
            canonical_benchmark(bench, rnd.version),
            div or "",
            scaling or "",
            folder,
            acc or "",
            avail or "",
            value,
            not weak,
        )
        out.append((path, (score, fw or "")))
    return out


def _loadgen_rows(rnd: Round, listed: set[str]) -> list[Row]:
    """(path, (score, framework)) of the stored inference / automotive results of
    ``listed``; a result not judged valid has no value (it wins nothing)."""
    rows = InferenceResult.objects.filter(round=rnd, source_path__in=listed).values_list(
        "source_path",
        "benchmark",
        "model_folder",
        "division",
        "scenario",
        "system__folder",
        "system__framework",
        "system__accelerator_model",
        "system__availability",
        "status",
        "value",
        "higher_is_better",
    )
    out = []
    for path, bench, model, div, scen, folder, fw, acc, avail, status, value, higher in rows:
        valid = status == InferenceResult.Status.VALID
        score = Score(
            _submitter_of(path, True),
            bench or model,
            div or "",
            scen or "",
            folder,
            acc or "",
            avail or "",
            value if valid else None,
            not higher,
        )
        out.append((path, (score, fw or "")))
    return out
