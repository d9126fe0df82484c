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

from benchdb.claims.round_counts import Holding
from benchdb.models import Result, Round, RoundTree
from benchdb.models.data_version import data_version
from benchdb.vocabulary import canonical_benchmark
from ingest.fetch import check_git_ref, git
from ingest.parsers.round_tree import read_listing

#: Suites whose rounds have a tree (their results are ``Result`` rows).
TREE_SUITES = {"training": Round.Suite.TRAINING, "hpc": Round.Suite.HPC}


class RoundTreeError(Exception):
    """The tree cannot be recorded: no such round stored, no such git directory or
    commit, or a listing with no result folder."""


def round_tree_record(
    *, suite: str, version: str, git_dir: str, ref: str = "HEAD", repository: str = ""
) -> RoundTree:
    """Record the result folders that commit ``ref`` of the repository at ``git_dir``
    (a bare repository or a ``.git`` folder) lists, as round ``version`` of ``suite``
    (``training`` or ``hpc``; the round must be stored: ingest it first).
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
    listing = read_listing(n for n in names if n)
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
        listed = set(tree.result_paths)
        rows = Result.objects.filter(round=rnd, source_path__in=listed).values_list(
            "source_path",
            "benchmark__key",
            "division",
            "system__folder",
            "system__framework",
        )
        stored: set[str] = set()
        entries = []
        for path, bench, division, folder, framework in rows:
            stored.add(path)
            sub = path.split("/", 1)[0]
            key = canonical_benchmark(bench, rnd.version)
            entries.append((sub, key, division or "", folder, framework or ""))
        missing = frozenset(p.split("/", 1)[0] for p in listed - stored)
        suite = "hpc" if rnd.suite == Round.Suite.HPC else "training"
        out[suite, rnd.version] = Holding(
            suite=suite,
            round=rnd.version,
            commit=tree.commit,
            submitters=tuple(tree.submitters),
            incomplete=missing,
            entries=tuple(sorted(entries)),
        )
    return out
