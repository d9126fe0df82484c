"""A results repository's listing at one commit (``git ls-tree -r --name-only``) read as
the round it holds: every result folder and the submitters. Pure: no Django; the
standard library's ``re`` reads the paths.

A result folder is one the MLPerf Training and HPC summarizers score:
``<Submitter>/results/<system>/<benchmark>/`` (HPC v1.0 on:
``<Submitter>/results/<system>/<strong|weak>/<benchmark>/``) holding ``result_*.txt`` directly
(``result_summarizer._compute_strong_score_standalone`` globs ``result_*.txt``; the
same rule as ``ingest.training.parsers.tree.RUN_FILE``). v0.5's nested layout
(``v0.5.0/<org>/<submission>/results/...``) is not read here.

A result folder of MLPerf Inference (and Automotive, a LoadGen suite) is
``<division>/<submitter>/results/<system>/<model>/<scenario>/`` with ``division`` one of
``closed``, ``open``, ``network`` (``VALID_DIVISIONS`` of
``tools/submission/submission_checker.py``; the same walk as
``ingest.inference.parsers.tree.find_results``): git lists files only, so a folder is
listed when a file lies anywhere below it, as the checker's ``list_dir`` walk finds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_RUN = re.compile(
    r"^(?P<folder>(?P<sub>[^/]+)/results/[^/]+/(?:(?:strong|weak)/)?[^/]+)/result_[^/]*\.txt\Z"
)


@dataclass(frozen=True)
class TreeListing:
    """``result_paths``: every result folder (sorted, as ``Result.source_path``);
    ``submitters``: the submitter folders holding one (sorted)."""

    result_paths: tuple[str, ...]
    submitters: tuple[str, ...]


#: ``VALID_DIVISIONS`` of the inference submission checker (and ``find_results``).
LOADGEN_DIVISIONS = ("closed", "open", "network")


def read_loadgen_listing(paths: Iterable[str]) -> TreeListing:
    """The result folders (``<division>/<submitter>/results/<system>/<model>/<scenario>``,
    as ``InferenceResult.source_path``) and the submitter folders (a name once, whatever
    its divisions) of an MLPerf Inference or Automotive repository's file paths
    (relative to its root, ``/``-separated, as ``git ls-tree -r --name-only`` prints
    them). Hidden folders count, as in ``find_results``; a symbolic link is listed as a
    file, so a linked folder has nothing below it and is not a result folder (the
    ingest does not follow links either)."""
    folders: set[str] = set()
    subs: set[str] = set()
    for p in paths:
        parts = p.split("/")
        if len(parts) < 7 or parts[0] not in LOADGEN_DIVISIONS or parts[2] != "results":
            continue
        if not all(parts[:6]):
            continue
        folders.add("/".join(parts[:6]))
        subs.add(parts[1])
    return TreeListing(tuple(sorted(folders)), tuple(sorted(subs)))


def read_listing(paths: Iterable[str]) -> TreeListing:
    """The result folders and submitters of a repository's file paths (relative to its
    root, ``/``-separated, as ``git ls-tree -r --name-only`` prints them)."""
    folders: set[str] = set()
    subs: set[str] = set()
    for p in paths:
        m = _RUN.match(p)
        if m and not m.group("sub").startswith("."):
            folders.add(m.group("folder"))
            subs.add(m.group("sub"))
    return TreeListing(tuple(sorted(folders)), tuple(sorted(subs)))
