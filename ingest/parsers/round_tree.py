"""A results repository's listing at one commit (``git ls-tree -r --name-only``) read as
the round it holds: every result folder and the submitters. Pure: no Django; the
standard library's ``re`` reads the paths.

A result folder is one the MLPerf Training and HPC summarizers score:
``<Submitter>/results/<system>/<benchmark>/`` (HPC v1.0 on:
``<Submitter>/results/<system>/<strong|weak>/<benchmark>/``) holding ``result_*.txt`` directly
(``result_summarizer._compute_strong_score_standalone`` globs ``result_*.txt``; the
same rule as ``ingest.training.parsers.tree.RUN_FILE``). v0.5's nested layout
(``v0.5.0/<org>/<submission>/results/...``) is not read here.
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
