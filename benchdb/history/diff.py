"""What changed between two states of a published result, in words a reader can check
(``field: old -> new``), and what a result folder that left its repository became.

Pure: mappings in, frozen dataclasses out; no Django. Used by ``ingest.history`` (the
store hook of every ingest and sync) and ``ingest.history_backfill`` (a results
repository's git history, commit by commit).

Kinds of change, most telling first (:data:`KINDS`): a result withdrawn or moved to the
open division (MLCommons' review may do either: ``policies/submission_rules.adoc``,
"Results that are found to be non-compliant ... moved to open or withdrawn"), its value,
status, result ID, division, availability, submitter, system description, links, files.
"""

from __future__ import annotations

import json
import math
import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: Every kind of change, in the order a version names them.
KINDS: tuple[str, ...] = (
    "withdrawn",
    "moved-to-open",
    "renamed",
    "restored",
    "value",
    "status",
    "id",
    "rekeyed",
    "division",
    "availability",
    "submitter",
    "system",
    "links",
    "files",
)
#: Kinds that end a result's life at its path (its permalink still answers).
TOMBSTONES = frozenset({"withdrawn", "moved-to-open", "renamed"})

#: A field's kind; a field not named here is ``system`` (a systems-file field).
FIELD_KINDS: dict[str, str] = {
    # stored result rows (training and inference)
    "score_minutes": "value",
    "value": "value",
    "power": "value",
    "published_value": "value",
    "published_power": "value",
    "energy_joules": "value",
    "status": "status",
    "reason": "status",
    "accuracy_valid": "status",
    "compliance_valid": "status",
    "runs_counted": "status",
    "runs_failed": "status",
    "result_id": "id",
    "division": "division",
    "system.division": "division",
    "system.availability": "availability",
    "submitter": "submitter",
    "files": "files",
    "runs_total": "files",
    # summary_results.json rows
    "ID": "id",
    "Performance_Result": "value",
    "Power_Result": "value",
    "Category": "division",
    "Availability": "availability",
    "Submitter": "submitter",
    "Details": "links",
    "Code": "links",
    # systems JSON (raw)
    "raw.status": "availability",
    "raw.division": "division",
    "raw.submitter": "submitter",
}


@dataclass(frozen=True)
class Change:
    """One field of a result that changed: ``field``, the value before and after (as
    JSON-safe values: str, number, bool, None, lists), its ``kind`` (:data:`KINDS`)."""

    field: str
    old: Any
    new: Any
    kind: str

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "old": self.old, "new": self.new, "kind": self.kind}

    def words(self) -> str:
        """``field: old -> new`` as the History section prints it."""
        return f"{self.field}: {_short(self.old)} -> {_short(self.new)}"


def kind_of(field: str) -> str:
    """The kind of a field's change (:data:`FIELD_KINDS`; else ``system``)."""
    return FIELD_KINDS.get(field, "system")


def field_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Change]:
    """The fields whose value differs between two states of one result (keys of
    either; a missing key is None), sorted by kind then field. Floats equal within
    1e-12 relative are the same (a value read again from the same log); ``files``
    (name -> sha256) is compared as a mapping and reported as the names that differ."""
    out = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name), after.get(name)
        if _same(old, new):
            continue
        if name == "files" and isinstance(old, Mapping) and isinstance(new, Mapping):
            names = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
            old, new = [n for n in names if n in old], [n for n in names if n in new]
        out.append(Change(name, json_safe(old), json_safe(new), kind_of(name)))
    return sorted(out, key=lambda c: (KINDS.index(c.kind), c.field))


def kinds(changes: Iterable[Change]) -> list[str]:
    """The kinds of ``changes``, each once, in :data:`KINDS` order."""
    found = {c.kind for c in changes}
    return [k for k in KINDS if k in found]


def flatten(data: Any, prefix: str = "raw") -> dict[str, Any]:
    """A JSON object as ``prefix.key`` -> value (nested objects joined by '.'; lists
    kept whole): how a systems file's fields are compared."""
    out: dict[str, Any] = {}
    if isinstance(data, Mapping):
        for k, v in data.items():
            out.update(flatten(v, f"{prefix}.{k}"))
    else:
        out[prefix] = data
    return out


def summary_rows(rows: Any) -> dict[str, dict[str, Any]]:
    """A ``summary_results.json`` (a list of row objects, MLCommons' published table,
    inference v5.1 on) by its ``Location`` (the result folder, unique per row in
    v5.1: 1,448 rows, 1,448 locations); rows without one are left out."""
    if not isinstance(rows, list):
        return {}
    return {str(r["Location"]): r for r in rows if isinstance(r, dict) and r.get("Location")}


@dataclass(frozen=True)
class Fate:
    """What a result path that left its repository became: ``kind`` (``withdrawn``,
    ``moved-to-open``, ``renamed``) and the path that took its place ("" if none)."""

    kind: str
    successor: str = ""

    def change(self, path: str) -> Change:
        return Change("path", path, self.successor or None, self.kind)


def fate(path: str, present: Iterable[str], known: Iterable[str] = ()) -> Fate:
    """What became of result folder ``path`` (relative to its round) gone from a tree
    whose result folders are ``present``; ``known``: the paths stored before, which
    cannot be a successor. Inference paths (``<division>/<submitter>/results/<system>/
    <model>/<scenario>``): the same result under ``open/`` is ``moved-to-open``; under
    another submitter folder of the same division, ``renamed``. Training paths
    (``<submitter>/results/<system>/<benchmark>``, division in the systems file):
    another submitter folder with the same tail is ``renamed``. Else ``withdrawn``."""
    parts = path.split("/")
    new = sorted(set(present) - set(known) - {path})
    if parts[0] in ("closed", "network"):
        opened = "/".join(["open", *parts[1:]])
        if opened in new:
            return Fate("moved-to-open", opened)
    tail = parts[2:] if parts[0] in ("closed", "open", "network") else parts[1:]
    head = parts[:1] if parts[0] in ("closed", "open", "network") else []
    for other in new:
        o = other.split("/")
        if o[: len(head)] == head and o[len(head) + 1 :] == tail:
            return Fate("renamed", other)
    return Fate("withdrawn")


def result_dir_of(path: str, suite: str) -> str:
    """The result folder a repository file belongs to ("" if none): training
    ``<sub>/results/<sys>/<bench>/<file>``, inference ``<div>/<sub>/results/<sys>/
    <model>/<scenario>/...`` (its ``performance/run_1/...`` included)."""
    parts = path.split("/")
    if suite == "inference":
        if len(parts) >= 7 and parts[2] == "results" and parts[0] in ("closed", "open", "network"):
            return "/".join(parts[:6])
        return ""
    if "results" in parts[:-1]:
        i = parts.index("results")
        if len(parts) >= i + 4:
            return "/".join(parts[: i + 3])
    return ""


def systems_file_of(path: str) -> bool:
    """A systems description file (``<...>/systems/<name>.json``)."""
    return posixpath.basename(posixpath.dirname(path)) == "systems" and path.endswith(".json")


def summary_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Change]:
    """Field changes of one ``summary_results.json`` row (:func:`field_changes`)."""
    return field_changes(before, after)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) and math.isnan(b):
            return True
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)
    return bool(a == b)


def json_safe(v: Any) -> Any:
    """A value JSON can hold (non-finite floats as their text; mappings and
    sequences element by element)."""
    if isinstance(v, Mapping):
        return {str(k): json_safe(x) for k, x in v.items()}
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    if isinstance(v, Sequence):
        return [json_safe(x) for x in v]
    return json.loads(json.dumps(v, default=str))


def _short(v: Any) -> str:
    text = "(none)" if v is None or v == "" else str(v)
    return text if len(text) <= 120 else text[:117] + "..."
