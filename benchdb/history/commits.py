"""What one commit of a results repository changed in its published results: the
result folders it removed (withdrawn, moved to open, renamed), changed (files), the
systems files it edited (every field, for each result of that system) and the rows of
``summary_results.json`` it changed or re-keyed. ``ingest.history_backfill`` feeds it
what git says (file lists, ``--name-status`` entries, the JSON on both sides).

Pure: no Django, no git.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from benchdb.history.diff import (
    Change,
    fate,
    field_changes,
    flatten,
    result_dir_of,
    summary_rows,
    systems_file_of,
)

SUMMARY = "summary_results.json"


@dataclass
class CommitChanges:
    """Result folder (path in the round) -> its changes in one commit; ``added``: the
    result folders the commit added (late results, or a rename's new side)."""

    changes: dict[str, list[Change]] = field(default_factory=lambda: defaultdict(list))
    added: list[str] = field(default_factory=list)


def result_dirs(files: Iterable[str], suite: str) -> set[str]:
    """The result folders among a commit's files (:func:`diff.result_dir_of`)."""
    return {d for d in (result_dir_of(p, suite) for p in files) if d}


def system_results(system_file: str, dirs: Iterable[str], suite: str) -> list[str]:
    """The result folders a systems file describes: ``<sub>/systems/<sys>.json`` ->
    ``<sub>/results/<sys>/<benchmark>`` (training), ``<div>/<sub>/systems/<sys>.json`` ->
    ``<div>/<sub>/results/<sys>/<model>/<scenario>`` (inference)."""
    base = posixpath.dirname(posixpath.dirname(system_file))
    system = posixpath.basename(system_file)[: -len(".json")]
    head = f"{base}/results/{system}/" if base else f"results/{system}/"
    return sorted(d for d in dirs if d.startswith(head))


def commit_changes(
    *,
    suite: str,
    before: set[str],
    after: set[str],
    touched: Iterable[tuple[str, str, str]],
    systems: Mapping[tuple[str, str], tuple[Any, Any]],
    summary: tuple[Any, Any] | None = None,
) -> CommitChanges:
    """The changes of one commit. ``before``/``after``: the result folders at its
    parent and at it (:func:`result_dirs`); ``touched``: ``git diff --name-status``
    entries (status letter, old path, new path: the same but for renames);
    ``systems``: (old path, new path) of each systems file it modified or renamed ->
    (old JSON, new JSON); ``summary``: ``summary_results.json`` before and after when
    it changed."""
    out = CommitChanges()
    for path in sorted(before - after):
        out.changes[path].append(fate(path, after, before).change(path))
    out.added = sorted(after - before)
    files: dict[str, list[str]] = defaultdict(list)
    for _status, old, new in touched:
        for p in {old, new}:
            d = result_dir_of(p, suite)
            if d and d in before and d in after:
                files[d].append(p[len(d) + 1 :])
    for d, names in sorted(files.items()):
        out.changes[d].append(Change("files", None, sorted(set(names)), "files"))
    for (old, new), (old_json, new_json) in sorted(systems.items()):
        changes = field_changes(flatten(old_json), flatten(new_json))
        if old != new:
            changes.insert(0, Change("systems file", old, new, "renamed"))
        for d in system_results(new, after, suite):
            out.changes[d].extend(changes)
    if summary is not None:
        for path, changes in summary_changes(*summary).items():
            out.changes[path].extend(changes)
    return out


def summary_changes(old: Any, new: Any) -> dict[str, list[Change]]:
    """Row by row (by ``Location``): each field that changed; a row whose Location is
    gone and a row with a new one, paired by system name, model, scenario and suite,
    are ``rekeyed`` (the published table names another folder for the same result)."""
    a, b = summary_rows(old), summary_rows(new)
    out: dict[str, list[Change]] = {}
    for loc in sorted(set(a) & set(b)):
        changes = field_changes(a[loc], b[loc])
        if changes:
            out[loc] = changes
    fresh = {_pair_key(b[loc]): loc for loc in sorted(set(b) - set(a))}
    for loc in sorted(set(a) - set(b)):
        successor = fresh.get(_pair_key(a[loc]))
        changes = [Change("summary_results.json Location", loc, successor, "rekeyed")]
        if successor:
            changes += [c for c in field_changes(a[loc], b[successor]) if c.field != "Location"]
        out[loc] = changes
    return out


def _pair_key(row: Mapping[str, Any]) -> tuple[str, ...]:
    system = str(row.get("System", "")).split(" (")[0].strip()
    return (system, str(row.get("Model")), str(row.get("Scenario")), str(row.get("Suite")))


def systems_pairs(touched: Iterable[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """(old path, new path) of each systems file a commit modified or renamed: git's
    renames, and a deleted and an added file of the same name (a submitter folder
    renamed while the file was edited past git's 50% similarity)."""
    out = [(o, n) for st, o, n in touched if systems_file_of(n) and st[0] in "MR"]
    deleted = {
        posixpath.basename(o): o for st, o, _ in touched if st[0] == "D" and systems_file_of(o)
    }
    for st, _, new in touched:
        name = posixpath.basename(new)
        if st[0] == "A" and systems_file_of(new) and name in deleted:
            out.append((deleted.pop(name), new))
    return out
