"""Read an MLPerf Automotive results tree: result folders and the published table. Pure.

The round's tree has MLPerf Inference's layout (``<division>/<submitter>/results/
<system>/<model>/<scenario>/{accuracy,performance/run_1}``, ``systems/<system>.json``,
``measurements/<system>/<model>/<scenario>/``, ``compliance/...``) and LoadGen's logs, so
the folders are found and read by ``ingest/inference/parsers/tree.py`` (the safe tree
walker: no link followed, sizes bounded; LoadGen logs through
``ingest/inference/parsers/loadgen.py``). This module adds what the Automotive checker also
reads (the file lists of ``accuracy/`` and ``performance/run_1/``, the measurement
folder and its ``<system>*.json``) and parses ``summary_results.json``, the published
table (``generate_final_report.py`` output: one row per result and scenario).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from benchdb.mlperf.inference.evidence import finite_number
from ingest.inference.parsers.tree import MAX_SMALL_BYTES, Tree, load_result
from ingest.inference.parsers.types import LoadedInferenceResult, ResultFolder
from ingest.parsers import safe_json
from ingest.parsers.types import ParseError

#: Largest ``summary_results.json`` read (benchdb's bound: v0.5's is 12.8 kB).
MAX_TABLE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class Measurement:
    """``measurements/<system>/<model>/<scenario>/`` as ``check_measurement_dir()`` reads
    it: ``files`` its file names (sorted), ``empty`` those of 0 bytes among ``user.conf``
    and ``README.md``, ``system_file`` the first ``<system>*.json`` in name order ("" if
    none) and ``fields`` that file's JSON object ({} if absent or not an object)."""

    path: str
    exists: bool
    files: tuple[str, ...] = ()
    empty: tuple[str, ...] = ()
    system_file: str = ""
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class AutomotiveFolder:
    """One result folder read: the MLPerf Inference reader's ``result`` (logs, accuracy,
    system JSON, files and problems, the measurement files included), its
    ``measurement`` folder, the file names of ``accuracy/`` and of ``performance/run_1/``
    (None when that folder is absent), and the bytes of ``systems/<system>.json`` (b"" if
    absent; the result keeps them only when the tree keeps bytes)."""

    result: LoadedInferenceResult
    measurement: Measurement
    accuracy_files: tuple[str, ...]
    run_files: tuple[str, ...] | None
    system_bytes: bytes = b""


def _files(tree: Tree, rel: str) -> tuple[str, ...]:
    """The file names (not folders) in ``rel``, sorted; () if it is absent."""
    return tuple(n for n in tree.listdir(rel) if not tree.is_dir(f"{rel}/{n}"))


def _measurement(tree: Tree, folder: ResultFolder, result: LoadedInferenceResult) -> Measurement:
    sub = f"{folder.division}/{folder.submitter}"
    path = f"{sub}/measurements/{folder.system}/{folder.model}/{folder.scenario}"
    if not tree.is_dir(path):
        return Measurement(path, False)
    files = _files(tree, path)
    empty = []
    conf = next((c for c in result.measurement_confs if c.path == f"{path}/user.conf"), None)
    if conf is not None and not conf.lines:
        empty.append("user.conf")
    if "README.md" in files and tree.read(f"{path}/README.md", MAX_SMALL_BYTES, "conf") == b"":
        empty.append("README.md")
    system_file = next(
        (n for n in files if n.startswith(folder.system) and n.endswith(".json")), ""
    )
    fields = tree.json(f"{path}/{system_file}") if system_file else {}
    return Measurement(path, True, files, tuple(empty), system_file, fields)


def read_folder(tree: Tree, folder: ResultFolder) -> AutomotiveFolder:
    """Read one result folder and what the Automotive checker reads beside it.

    Never raises on bad input: a log line that does not parse is a ``Problem`` (file
    and line) of ``result.problems``, an absent file is absent. Every file read is in
    ``result.files`` (bytes kept when the tree keeps them), for the store.
    """
    result = load_result(tree, folder)
    start_problems, start_files = len(tree.problems), len(tree.files)
    measurement = _measurement(tree, folder, result)
    run = f"{folder.path}/performance/run_1"
    accuracy_files = _files(tree, f"{folder.path}/accuracy")
    run_files = _files(tree, run) if tree.is_dir(run) else None
    system = f"{folder.division}/{folder.submitter}/systems/{folder.system}.json"
    system_bytes = result.system_file or tree.read(system, MAX_SMALL_BYTES) or b""
    result = replace(
        result,
        files=result.files + tuple(tree.files[start_files:]),
        problems=result.problems + tuple(tree.problems[start_problems:]),
    )
    del tree.problems[start_problems:]
    del tree.files[start_files:]
    return AutomotiveFolder(result, measurement, accuracy_files, run_files, system_bytes)


# --- summary_results.json ---------------------------------------------------------------


@dataclass(frozen=True)
class PublishedRow:
    """One row of ``summary_results.json``: ``result_id`` (``ID``, ``"0.5-0001"``),
    ``location`` (the result folder), ``division`` (``Category``), ``model`` (the MLPerf
    model), ``used_model`` (the folder), ``value`` (``Performance_Result``, in ``unit``,
    ``Performance_Units``), ``accuracy`` (``"mAP_3D: 0.267..."``), ``unique_id`` (``Unique
    ID (e.g. for Audit)``); ``row`` its 1-based position in the file; ``raw`` the row."""

    result_id: str
    location: str
    division: str
    submitter: str
    platform: str
    model: str
    used_model: str
    scenario: str
    value: float | None
    unit: str
    accuracy: str
    availability: str
    unique_id: str
    row: int
    raw: dict[str, Any]


def parse_summary_results(
    data: bytes, path: str = "summary_results.json"
) -> tuple[PublishedRow, ...]:
    """Parse the published table. Raises :class:`ParseError` (naming ``path``) when it is
    not a JSON list, or a row is not an object with text ``ID`` and ``Location``
    (naming the row: ``row 3``); a ``Performance_Result`` that is not a finite number
    is kept as None."""
    try:
        rows = safe_json.loads(data.decode("utf-8", errors="replace"))
    except ValueError as exc:
        raise ParseError(f"not JSON: {exc}", path=path) from exc
    if not isinstance(rows, list):
        raise ParseError("not a JSON list of results", path=path)
    out = []
    for no, r in enumerate(rows, 1):
        if not isinstance(r, dict) or not all(
            isinstance(r.get(k), str) for k in ("ID", "Location")
        ):
            raise ParseError(f"row {no}: not an object with text ID and Location", path=path)
        text = {k: str(v) if v is not None else "" for k, v in r.items()}
        out.append(
            PublishedRow(
                result_id=r["ID"],
                location=r["Location"].strip("/"),
                division=text.get("Category", ""),
                submitter=text.get("Submitter", ""),
                platform=text.get("Platform", ""),
                model=text.get("Model", ""),
                used_model=text.get("UsedModel", ""),
                scenario=text.get("Scenario", ""),
                value=finite_number(r.get("Performance_Result")),
                unit=text.get("Performance_Units", ""),
                accuracy=text.get("Accuracy", ""),
                availability=text.get("Availability", ""),
                unique_id=text.get("Unique ID (e.g. for Audit)", ""),
                row=no,
                raw=r,
            )
        )
    return tuple(out)
