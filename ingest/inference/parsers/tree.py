"""Find and read the results of an MLPerf Inference results tree (every round's layout).

A round's tree is ``<division>/<submitter>/results/<system>/<model>/<scenario>/`` with
``accuracy/``, ``performance/run_N/`` (``run_1``..``run_5`` for v0.5/v0.7 Server),
``performance/{power,ranging}/`` (v1.0+), ``<division>/<submitter>/compliance/<system>/
<model>/<scenario>/TEST0x/`` (v0.7+; v0.5 ``audit/``) and ``systems/<system>.json``; see
``../shared/mlperf-inference/README.md``. The checker walks the same folders in
``check_results_dir()`` of ``tools/submission/submission_checker.py``.

Safety: every file and folder is reached through ``ingest/parsers/safe_tree.py``: no
symbolic link below the root is followed (each one met is a problem), files are read up
to a size bound, and ``mlperf_log_accuracy.json`` (hundreds of MB in some rounds) is only
hashed, streaming.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from ingest.inference.parsers.endpoints import parse_endpoints
from ingest.inference.parsers.loadgen import (
    parse_detail_log,
    parse_spl,
    parse_summary,
    parse_text_file,
)
from ingest.inference.parsers.types import (
    ComplianceTest,
    FileDigest,
    LoadedInferenceResult,
    LoadgenLog,
    PerformanceRun,
    ResultFolder,
    StoredFile,
    TextFile,
)
from ingest.parsers import safe_json
from ingest.parsers.safe_tree import DirCache, kind, list_dir, open_regular, read_file
from ingest.parsers.types import ParseError, Problem

DIVISIONS = ("closed", "open", "network")
MAX_LOG_BYTES = 256 * 1024 * 1024  # bigger detail/summary/spl files are refused
MAX_SMALL_BYTES = 4 * 1024 * 1024  # accuracy.txt, verify_*.txt, JSON descriptions
DETAIL = "mlperf_log_detail.txt"
#: ``REQUIRED_TEST01_ACC_FILES`` of the checkers from v0.7 (``check_compliance_acc_dir()``).
TEST01_FILES = (
    "mlperf_log_accuracy.json",
    "accuracy.txt",
    "baseline_accuracy.txt",
    "compliance_accuracy.txt",
)
#: ``REQUIRED_POWER_FILES`` of the checkers from v1.0 (``check_power_dir()``).
POWER_FILES = ("client.json", "client.log", "ptd_logs.txt", "server.json", "server.log")
SUMMARY = "mlperf_log_summary.txt"


class Tree:
    """Read access to one results tree under ``root``, collecting problems.

    ``elsewhere`` maps relative paths of files known to exist in the source but absent
    here (e.g. ``manifests/*.omitted.tsv``) to their size; they count as present for
    checks of existence only. Every file read is recorded in ``files`` (size and
    SHA-256; with its bytes too when ``keep``), as the store needs.
    """

    def __init__(
        self, root: str | Path, elsewhere: Mapping[str, int] | None = None, *, keep: bool = False
    ) -> None:
        self.root = str(root)
        self.elsewhere = dict(elsewhere or {})
        self.keep = keep
        self.problems: list[Problem] = []
        self.files: list[StoredFile] = []
        self.dirs = DirCache(self.root)

    def close(self) -> None:
        """Close the folder descriptors kept while reading (:class:`DirCache`)."""
        self.dirs.close()

    def _record(self, rel: str, kind: str, data: bytes) -> None:
        digest = hashlib.sha256(data).hexdigest()
        self.files.append(StoredFile(rel, kind, len(data), digest, data if self.keep else b""))

    def _problem(self, rel: str, exc: Exception) -> None:
        if isinstance(exc, ParseError):
            self.problems.append(Problem(exc.path or rel, None, exc.reason))
        else:
            self.problems.append(Problem(rel, None, f"not readable: {exc}"))

    def exists(self, rel: str) -> bool:
        """True if ``rel`` is here, as a file or folder (a link does not count;
        ``elsewhere`` does not count)."""
        return kind(self.root, rel, dirs=self.dirs) in ("file", "dir")

    def is_dir(self, rel: str) -> bool:
        return kind(self.root, rel, dirs=self.dirs) == "dir"

    def listdir(self, rel: str) -> list[str]:
        """Folders and files in a folder, sorted; [] if absent. Symbolic links are
        problems (never followed)."""
        if not self.is_dir(rel):
            return []
        try:
            listing = list_dir(self.root, rel, dirs=self.dirs)
        except (OSError, ParseError) as exc:
            self._problem(rel, exc)
            return []
        for link in listing.links:
            path = f"{rel}/{link}" if rel else link
            self.problems.append(Problem(path, None, "symbolic link, not followed"))
        return sorted(listing.dirs + listing.files)

    def read(self, rel: str, limit: int = MAX_LOG_BYTES, file_kind: str = "") -> bytes | None:
        """The bytes of a file, or None: absent (silently), or a link, not a regular
        file, over ``limit`` bytes or unreadable (each a problem). A ``file_kind``
        records the file in ``files``."""
        k = kind(self.root, rel, dirs=self.dirs)
        if k is None or k == "dir":
            return None
        try:
            data = read_file(self.root, rel, limit, dirs=self.dirs)
        except (OSError, ParseError) as exc:
            self._problem(rel, exc)
            return None
        if file_kind:
            self._record(rel, file_kind, data)
        return data

    def digest(self, rel: str) -> FileDigest | None:
        """Size and SHA-256 of a file read in 1 MiB blocks (never whole in memory);
        None if it is not a regular file here (a link is never followed)."""
        if kind(self.root, rel, dirs=self.dirs) != "file":
            return None
        h = hashlib.sha256()
        size = 0
        try:
            fd = open_regular(self.root, rel, dirs=self.dirs)
        except (OSError, ParseError) as exc:
            self._problem(rel, exc)
            return None
        with os.fdopen(fd, "rb") as f:
            while block := f.read(1 << 20):
                h.update(block)
                size += len(block)
        self.files.append(StoredFile(rel, "accuracy_log", size, h.hexdigest()))
        return FileDigest(rel, size, h.hexdigest())

    def json(self, rel: str) -> dict[str, Any]:
        """A small JSON object file, {} if absent; not an object / not JSON is a problem."""
        data = self.read(rel, MAX_SMALL_BYTES, "json")
        if data is None:
            return {}
        try:
            obj = safe_json.loads(data.decode("utf-8", errors="replace"))
        except ValueError as e:
            self.problems.append(Problem(rel, getattr(e, "lineno", None), f"not JSON: {e}"))
            return {}
        if not isinstance(obj, dict):
            self.problems.append(Problem(rel, 1, "not a JSON object"))
            return {}
        return obj

    def text(self, rel: str, file_kind: str) -> TextFile | None:
        """A small text file kept line by line (recorded as ``file_kind``), or None."""
        data = self.read(rel, MAX_SMALL_BYTES, file_kind)
        return None if data is None else parse_text_file(data, rel)

    def detail(
        self, rel: str, *, errors_only: bool = False, file_kind: str = "detail"
    ) -> LoadgenLog | None:
        """A LoadGen detail log (``parse_detail_log``), or None if absent or unreadable."""
        data = self.read(rel, MAX_LOG_BYTES, file_kind)
        if data is None:
            return None
        log = parse_detail_log(data, rel, errors_only=errors_only)
        self.problems.extend(log.problems)
        return log


def find_results(tree: Tree) -> list[ResultFolder]:
    """Every ``<division>/<submitter>/results/<system>/<model>/<scenario>/`` folder, sorted.

    Only folders count (files at any level are skipped); divisions other than
    ``closed``/``open``/``network`` are ignored, as by the checker (``VALID_DIVISIONS``).
    """
    found: list[ResultFolder] = []
    for division in DIVISIONS:
        for submitter in tree.listdir(division):
            base = f"{division}/{submitter}/results"
            for system in tree.listdir(base):
                for model in tree.listdir(f"{base}/{system}"):
                    for scenario in tree.listdir(f"{base}/{system}/{model}"):
                        path = f"{base}/{system}/{model}/{scenario}"
                        if tree.is_dir(path):
                            found.append(
                                ResultFolder(division, submitter, system, model, scenario, path)
                            )
    return found


def load_run(tree: Tree, path: str) -> PerformanceRun:
    """Read one performance run folder (detail, summary, and ``spl.txt`` if present)."""
    missing = tuple(f"{path}/{n}" for n in (DETAIL, SUMMARY) if not tree.exists(f"{path}/{n}"))
    summary_bytes = tree.read(f"{path}/{SUMMARY}", MAX_LOG_BYTES, "summary")
    spl_bytes = tree.read(f"{path}/spl.txt", MAX_LOG_BYTES, "power")
    spl = None if spl_bytes is None else parse_spl(spl_bytes, f"{path}/spl.txt")
    if spl is not None:
        tree.problems.extend(spl.problems)
    return PerformanceRun(
        path=path,
        detail=tree.detail(f"{path}/{DETAIL}"),
        summary=None
        if summary_bytes is None
        else parse_summary(summary_bytes, f"{path}/{SUMMARY}"),
        spl=spl,
        missing=missing,
    )


def _runs(tree: Tree, perf: str) -> tuple[PerformanceRun, ...]:
    names = [n for n in tree.listdir(perf) if n.startswith("run_") and n[4:].isdigit()]
    return tuple(load_run(tree, f"{perf}/{n}") for n in sorted(names, key=lambda n: int(n[4:])))


def load_compliance(tree: Tree, path: str) -> tuple[ComplianceTest, ...]:
    """Every ``TEST0x`` folder under ``path`` (names upper-cased: v0.5 ``test_1`` stays)."""
    tests = []
    for name in tree.listdir(path):
        t = f"{path}/{name}"
        if not tree.is_dir(t) or not name.upper().startswith("TEST"):
            continue
        run = f"{t}/performance/run_1"
        tests.append(
            ComplianceTest(
                name=name,
                path=t,
                verify_performance=tree.text(f"{t}/verify_performance.txt", "compliance"),
                verify_accuracy=tree.text(f"{t}/verify_accuracy.txt", "compliance"),
                performance=load_run(tree, run) if tree.is_dir(run) else None,
                baseline_accuracy=tree.text(f"{t}/accuracy/baseline_accuracy.txt", "compliance"),
                compliance_accuracy=tree.text(
                    f"{t}/accuracy/compliance_accuracy.txt", "compliance"
                ),
                accuracy_files=tuple(tree.listdir(f"{t}/accuracy")),
                verify_output_len=tree.text(f"{t}/verify_output_len.txt", "compliance"),
                run_files=tuple(n for n in tree.listdir(run) if not tree.is_dir(f"{run}/{n}")),
            )
        )
    return tuple(tests)


#: Largest ``timezone`` offset of a power client/server JSON, seconds (benchdb's bound:
#: real offsets run from UTC-12 to UTC+14).
MAX_TIMEZONE_S = 86_400


def _timezone(tree: Tree, rel: str) -> int | None:
    """The ``timezone`` seconds of ``client.json``/``server.json``; None when absent or
    not a number; NaN, infinities and offsets over a day are problems (and None: the
    power is computed without a shift, as for a file without one)."""
    tz = tree.json(rel).get("timezone")
    if isinstance(tz, bool) or not isinstance(tz, int | float):
        return None
    if not abs(tz) <= MAX_TIMEZONE_S:  # NaN too; no float() of a 400-digit int
        why = f"timezone {tz!r} is not a number of seconds within a day (benchdb sanity bound)"
        tree.problems.append(Problem(rel, None, why + ": not used"))
        return None
    return int(tz)


def _scenario_folders(tree: Tree, model_path: str) -> tuple[str, ...]:
    """The folder names in a model folder (sorted); links met there are already problems
    of ``find_results``, so none is recorded again."""
    start = len(tree.problems)
    names = tuple(n for n in tree.listdir(model_path) if tree.is_dir(f"{model_path}/{n}"))
    del tree.problems[start:]
    return names


def load_result(tree: Tree, folder: ResultFolder) -> LoadedInferenceResult:
    """Read one result folder and the files of its system and compliance tests.

    Never raises on bad input: unreadable files are ``problems`` of the result (the tree's
    problems found while reading it are moved there), absent ones are in ``missing``.
    """
    start, first_file = len(tree.problems), len(tree.files)
    p = folder.path
    acc = f"{p}/accuracy"
    sub = f"{folder.division}/{folder.submitter}"
    comp = _compliance_dir(tree, folder)
    compliance = load_compliance(tree, comp) if tree.is_dir(comp) else None
    power = f"{p}/performance/power"
    wanted = (f"{acc}/accuracy.txt", f"{acc}/mlperf_log_accuracy.json", f"{acc}/{DETAIL}")
    mapping = tree.json(f"{sub}/model_mapping.json")
    meas = f"{sub}/measurements/{folder.system}/{folder.model}/{folder.scenario}"
    confs = (tree.text(f"{meas}/mlperf.conf", "conf"), tree.text(f"{meas}/user.conf", "conf"))
    runs = _runs(tree, f"{p}/performance")
    endpoints = _endpoints(tree, p) if not any(r.detail or r.summary for r in runs) else {}
    result = LoadedInferenceResult(
        folder=folder,
        runs=runs,
        accuracy=tree.text(f"{acc}/accuracy.txt", "accuracy"),
        accuracy_log=tree.digest(f"{acc}/mlperf_log_accuracy.json"),
        accuracy_detail=tree.detail(f"{acc}/{DETAIL}", errors_only=True, file_kind="accuracy"),
        accuracy_images=tuple(tree.listdir(f"{acc}/images")),
        power_dir=tree.is_dir(power),
        power_timezones=(
            _timezone(tree, f"{power}/client.json"),
            _timezone(tree, f"{power}/server.json"),
        ),
        compliance=compliance,
        system_json=tree.json(f"{sub}/systems/{folder.system}.json"),
        model_mapping={str(k): str(v) for k, v in mapping.items()},
        missing=tuple(w for w in wanted if not tree.exists(w)),
        measurement_confs=tuple(c for c in confs if c is not None),
        problems=tuple(tree.problems[start:]),
    )
    result = replace(result, **endpoints)
    power_files = tuple(tree.listdir(power)) if result.power_dir else ()
    absent = _absent(result, power, power_files)
    v6 = _v6_parts(tree, folder)  # read before the files are taken: they are evidence
    files = tuple(tree.files[first_file:])
    system_file = next(
        (f.data for f in files if f.path == f"{sub}/systems/{folder.system}.json"), b""
    )
    result = replace(
        result,
        elsewhere=tuple(a for a in absent if a in tree.elsewhere),
        files=files,
        system_file=system_file,
        system_exists=tree.exists(f"{sub}/systems/{folder.system}.json"),
        model_scenarios=_scenario_folders(tree, p.rsplit("/", 1)[0]),
        power_files=power_files,
        **v6,
    )
    del tree.problems[start:]
    del tree.files[first_file:]
    return result


def _compliance_dir(tree: Tree, folder: ResultFolder) -> str:
    """``compliance/<system>/<model>/<scenario>`` (v0.5: ``audit/``); from v6.0 the
    TEST0x folders sit in the scenario folder itself (``COMPLIANCE_PATH``)."""
    sub, p = f"{folder.division}/{folder.submitter}", folder.path
    for top in ("compliance", "audit"):
        comp = f"{sub}/{top}/{folder.system}/{folder.model}/{folder.scenario}"
        if tree.is_dir(comp):
            return comp
    return p if any(n.upper().startswith("TEST") for n in tree.listdir(p)) else comp


def _v6_parts(tree: Tree, folder: ResultFolder) -> dict[str, Any]:
    """What the v6.x checker also reads (``MeasurementsCheck``, ``check_extra_files``):
    ``measurements.json`` of the scenario folder, its non-empty ``user.conf`` /
    ``README.md``, whether the submitter's ``src/`` exists, ``accuracy/videos``; only
    in the v6.x layout (a ``measurements.json`` or ``user.conf`` in the scenario folder)."""
    p = folder.path
    meas = f"{p}/measurements.json"
    layout = (meas, f"{p}/user.conf", f"{p}/performance/result_summary.json")
    if not any(tree.exists(x) for x in layout):
        return {}  # an older layout (measurements/<system>/...): nothing more is read
    present = [
        n for n in ("user.conf", "README.md") if tree.read(f"{p}/{n}", MAX_SMALL_BYTES, "conf")
    ]
    return {
        "measurements_json": tree.json(meas) if tree.exists(meas) else None,
        "folder_files": tuple(present),
        "src_exists": tree.is_dir(f"{folder.division}/{folder.submitter}/src"),
        "accuracy_videos": tuple(tree.listdir(f"{p}/accuracy/videos")),
    }


def _endpoints(tree: Tree, p: str) -> dict[str, Any]:
    """A v6.1 endpoints folder (no LoadGen log; ``performance/result_summary.json``): its
    performance and accuracy logs as LoadGen keys (``endpoints_log``) and its audits."""
    summary = tree.read(f"{p}/performance/result_summary.json", MAX_SMALL_BYTES, "detail")
    if summary is None:
        return {}
    paths = (
        f"{p}/performance/result_summary.json",
        f"{p}/accuracy/accuracy_results.json",
        f"{p}/config.yaml",
    )
    config = tree.read(paths[2], MAX_SMALL_BYTES, "conf")
    results = tree.read(paths[1], MAX_SMALL_BYTES, "accuracy")
    perf = parse_endpoints(summary, None, config, paths)
    acc = parse_endpoints(None, results, config, paths) if results is not None else None
    tree.problems.extend(perf.problems)
    audits = []
    for name in tree.listdir(f"{p}/audit"):
        if name.startswith("audit_") and name.endswith(".json"):
            data = tree.json(f"{p}/audit/{name}")
            audits.append((name, str(data.get("test", "")), data.get("passed") is True))
    return {
        "runs": (PerformanceRun(f"{p}/performance", perf, None),),
        "accuracy_detail": acc,
        "endpoint_audits": tuple(audits),
    }


def _absent(
    result: LoadedInferenceResult, power: str, power_files: tuple[str, ...]
) -> tuple[str, ...]:
    """Files the rules need that are not here (to be looked up in ``Tree.elsewhere``)."""
    absent = result.missing + tuple(m for r in result.runs for m in r.missing)
    f = result.folder
    absent += tuple(f"{f.path}/{n}" for n in ("measurements.json", "README.md"))
    absent += (f"{f.division}/{f.submitter}/src",)  # the v6.x MeasurementsCheck
    if result.power_dir:
        absent += tuple(f"{r.path}/spl.txt" for r in result.runs if r.spl is None)
        absent += tuple(f"{power}/{n}" for n in POWER_FILES if n not in power_files)
    for t in result.compliance or ():  # TEST01's accuracy files (check_compliance_acc_dir)
        if t.name.upper() == "TEST01":
            absent += tuple(
                f"{t.path}/accuracy/{n}" for n in TEST01_FILES if n not in t.accuracy_files
            )
    return absent


def read_omitted_manifest(data: bytes) -> dict[str, int]:
    """``manifests/<round>.omitted.tsv`` (path, bytes, blob, reason) -> {path: bytes}.

    Sizes of ``-1`` (blob absent from the snapshot) are kept as -1.
    """
    out: dict[str, int] = {}
    for line in data.decode("utf-8", errors="replace").splitlines()[1:]:
        cols = line.split("\t")
        if len(cols) >= 2 and cols[1].lstrip("-").isdigit():
            out[cols[0]] = int(cols[1])
    return out
