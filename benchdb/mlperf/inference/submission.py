"""MLPerf Inference: the submission-level rules of the checker's ``check_results_dir()``.

Pure: no Django, no file access. What a result's system description, model folder and
scenario folder must satisfy before the checker reads the result at all (see
``../shared/mlperf-inference/INFERENCE_SCORING.md`` §1 and §3), round by round:

* system: ``systems/<system>.json`` exists, ``status`` is a valid availability,
  ``system_type`` a valid suite, ``check_system_desc_id()`` passes (required fields,
  meaningful fields non-empty from v3.1, network fields in network mode, submitter and
  division as the folders say); otherwise the checker sets ``results[<system>] = None``
  and ``continue``s: no result of that system is written to the CSV (rejected);
* model: a closed/network model folder must map to one of the round's ``models``, and the
  suite must list the benchmark (``Config.get_required()`` not None, every division);
* scenario: a closed/network scenario folder must be required or optional for the model
  and suite ("ignoring scenario");
* required scenarios: a closed/network model folder lacking one sets
  ``results[<model folder>] = None`` after its results were already written to the CSV by
  ``log_result()``: the rows stay (published), only the checker's summary counts a
  ``NoResults`` entry and exits 1. Reported without invalidating.

Tables are read from ``tools/submission/submission-checker.py`` (v0.7-v2.1) and
``submission_checker.py`` (v3.0+) of mlcommons/inference at the commits of
:data:`benchdb.vocabulary.INFERENCE_ROUNDS` (``MODEL_CONFIG[<round>]["models"]``,
``required-scenarios-*``, ``optional-scenarios-*``, ``VALID_AVAILABILITIES``,
``SYSTEM_DESC_*``); v0.5 from ``v0.5/tools/submission/submission-checker.py`` and
``system_desc_id.json`` at d7c7d4c0. The models and scenario tables are in
``scenarios.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from benchdb.mlperf.inference.evidence import Finding, FolderLike, ResultLike
from benchdb.mlperf.inference.rounds import (
    MEANINGFUL_FIELDS,
    V05_FIELDS,
    V05_MODELS,
    V05_REQUIRED,
    RoundKey,
    required_system_fields,
    valid_availabilities,
    valid_system_types,
)
from benchdb.mlperf.inference.scenarios import checker_scenario, round_models, suite_scenarios
from benchdb.vocabulary import INFERENCE_BENCHMARKS

# --- system description ------------------------------------------------------------------


def is_network_system(system: Mapping[str, Any]) -> bool:
    """``is_system_over_network()``: ``is_network`` is the text ``true`` (any case)."""
    raw = system.get("is_network")
    return raw is not None and str(raw).lower() == "true"


def system_json_path(folder: FolderLike) -> str:
    """``<division>/<submitter>/systems/<system>.json``."""
    return f"{folder.division}/{folder.submitter}/systems/{folder.system}.json"


def system_findings(
    rt: RoundKey, folder: FolderLike, system: Mapping[str, Any], exists: bool
) -> list[Finding]:
    """The system gates of ``check_results_dir()`` (submission-checker.py 75018167,
    8d375aab, 318cb131; submission_checker.py fd6486a0, c7db1c3f, e20506b2), in its
    order, stopping at the first that fails as the checker does
    (``results[<system>] = None; continue``): the JSON
    exists, ``status`` is a valid availability, ``system_type`` a valid suite, then
    ``check_system_desc_id()``. Every finding invalidates. v0.5 (d7c7d4c0): a missing
    JSON is a bad submission of each result; ``check_system_desc_id()`` compares it with
    ``system_desc_id.json`` (required and unknown fields) and the folders."""
    path = system_json_path(folder)
    if not exists:
        return [Finding("system_json_missing", path, None, "no system description", True)]
    if rt < (0, 7):
        return _v05_system_findings(path, folder, system)
    status = str(system.get("status") or "").lower()
    if rt < (1, 0) and status == "research, development, or internal":
        status = "rdi"
    if status not in valid_availabilities(rt):
        msg = f"invalid status ({system.get('status')!r})"
        return [Finding("system_status", path, None, msg, True)]
    if system.get("system_type") not in valid_system_types(rt):
        msg = f"invalid system type ({system.get('system_type')!r})"
        return [Finding("system_type", path, None, msg, True)]
    return system_desc_findings(rt, path, folder, system)


def system_desc_findings(
    rt: RoundKey, path: str, folder: FolderLike, system: Mapping[str, Any]
) -> list[Finding]:
    """``check_system_desc_id()`` (75018167 .. e20506b2; field lists by round in
    ``inference_rounds.required_system_fields``): every required field present (from
    v3.1 the meaningful ones non-empty, as run without
    ``--skip-meaningful-fields-emptiness-check``),
    ``submitter`` equal to the folder ignoring case, ``division`` equal to the folder.
    The network-mode check it also makes is ``network_mode`` of ``inference_rules``; the
    power fields (``check_system_desc_id_power()``) are never enforced (``if False and``)."""
    out = []
    for k in required_system_fields(rt, is_network_system(system)):
        if k not in system:
            out.append(Finding("system_field_missing", path, None, f"field {k} is missing", True))
        elif rt >= (3, 1) and k in MEANINGFUL_FIELDS and not system[k]:
            msg = f"field {k} requires a meaningful response but is empty"
            out.append(Finding("system_field_empty", path, None, msg, True))
    if str(system.get("submitter")).lower() != folder.submitter.lower():
        msg = f"submitter {system.get('submitter')!r}, folder {folder.submitter!r}"
        out.append(Finding("system_submitter", path, None, msg, True))
    if system.get("division") != folder.division:
        msg = f"division {system.get('division')!r}, folder {folder.division!r}"
        out.append(Finding("system_division", path, None, msg, True))
    return out


def _v05_system_findings(path: str, folder: FolderLike, system: Mapping[str, Any]) -> list[Finding]:
    """v0.5 ``check_system_desc_id()`` / ``compare_json()``: a "required" field absent or
    null, or a field the template lacks, then (only if those pass) submitter and
    division equal to the folders (case-sensitive), each stopping the check."""
    out = [
        Finding("system_field_missing", path, None, f"field {k} missing", True)
        for k in V05_REQUIRED
        if system.get(k) is None
    ]
    out += [
        Finding("system_field_unknown", path, None, f"unknown field {k}", True)
        for k in system
        if k not in V05_FIELDS
    ]
    if out:
        return out
    if system.get("submitter") != folder.submitter:
        msg = f"submitter {system.get('submitter')!r}, folder {folder.submitter!r}"
        return [Finding("system_submitter", path, None, msg, True)]
    if system.get("division") != folder.division:
        msg = f"division {system.get('division')!r}, folder {folder.division!r}"
        return [Finding("system_division", path, None, msg, True)]
    return []


# --- model and scenario folders ------------------------------------------------------------


def _closed_or_network(rt: RoundKey, division: str) -> bool:
    """``is_closed`` (to v2.0) / ``is_closed_or_network`` (v2.1+, the network division)."""
    return division == "closed" or (rt >= (2, 1) and division == "network")


def model_findings(
    rt: RoundKey, folder: FolderLike, benchmark: str, system_type: str
) -> list[Finding]:
    """Model-folder gates of ``check_results_dir()`` (all invalidating): a closed/network
    folder must map to a benchmark of the round's ``models`` ("has an invalid model ...
    for closed/network division"; v0.5 d7c7d4c0: the folder name itself in
    ``VALID_MODELS``); from v0.7 (75018167 .. e20506b2) the suite must list it
    (``Config.get_required()`` is None otherwise, "has an invalid model ...,
    system_type=...", in every division)."""
    path = folder.path.rsplit("/", 1)[0]
    if rt < (0, 7):
        if folder.division == "closed" and folder.model not in V05_MODELS:
            msg = f"invalid model name {folder.model}"
            return [Finding("model_not_in_round", path, None, msg, True)]
        return []
    if _closed_or_network(rt, folder.division) and benchmark not in round_models(rt):
        msg = f"invalid model {folder.model} ({benchmark}) for the {folder.division} division"
        return [Finding("model_not_in_round", path, None, msg, True)]
    tables = suite_scenarios(rt, system_type)
    if tables is not None and benchmark not in tables[0]:
        msg = f"invalid model {benchmark} for system_type={system_type}"
        return [Finding("model_not_in_suite", path, None, msg, True)]
    return []


def scenario_findings(
    rt: RoundKey, folder: FolderLike, benchmark: str, system_type: str
) -> list[Finding]:
    """The scenario gate of ``check_results_dir()`` ("ignoring scenario (neither required
    nor optional)", 75018167 .. e20506b2): a closed/network scenario folder
    (``SCENARIO_MAPPING`` applied) outside the suite's required and optional scenarios
    for the benchmark is not read (``results[name] = None``): invalidating."""
    tables = suite_scenarios(rt, system_type)
    if tables is None or not _closed_or_network(rt, folder.division):
        return []
    allowed = tables[0].get(benchmark, frozenset()) | tables[1].get(benchmark, frozenset())
    if checker_scenario(folder.scenario) in allowed:
        return []
    msg = f"scenario {folder.scenario} is neither required nor optional ({sorted(allowed)})"
    return [Finding("scenario_not_allowed", folder.path, None, msg, True)]


def required_scenario_findings(
    rt: RoundKey, folder: FolderLike, benchmark: str, system_type: str, present: Sequence[str]
) -> list[Finding]:
    """``check_results_dir()`` after the scenario loop (75018167 .. e20506b2): the
    required scenarios of a closed/network model folder, from the scenario folders
    ``present`` beside the result (the checker counts a scenario only once its run is
    valid; here a folder present counts). Missing ones make the checker set
    ``results[<model folder>] = None`` after ``log_result()`` wrote the rows: logged, the
    results stay published, so the finding does not invalidate. v5.1 (e20506b2) also
    requires one of the optional Server/Interactive."""
    tables = suite_scenarios(rt, system_type)
    if tables is None or not _closed_or_network(rt, folder.division):
        return []
    have = {checker_scenario(s) for s in present}
    path = folder.path.rsplit("/", 1)[0]
    out = []
    missing = sorted(tables[0].get(benchmark, frozenset()) - have)
    if missing:
        msg = f"does not have all required scenarios, missing {missing}"
        out.append(Finding("required_scenarios", path, None, msg, False))
    both = {"Server", "Interactive"}
    if rt >= (5, 1) and both <= tables[1].get(benchmark, frozenset()) and not both & have:
        msg = "does not have all required scenarios, one of [Server, Interactive] is required"
        out.append(Finding("required_scenarios", path, None, msg, False))
    return out


def submission_findings(rt: RoundKey, result: ResultLike, benchmark: str) -> list[Finding]:
    """Every ``check_results_dir()`` gate above for one result, as the checker walks them:
    from v0.7 a failing system stops there; the model and scenario gates need a known
    benchmark (an unmapped folder is reported by ``inference_rules``)."""
    f = result.folder
    out = system_findings(rt, f, result.system_json, result.system_exists)
    if rt >= (0, 7) and (out or benchmark not in INFERENCE_BENCHMARKS):
        return out
    stype = str(result.system_json.get("system_type"))
    out += model_findings(rt, f, benchmark, stype)
    if out or rt < (0, 7):
        return out
    out += scenario_findings(rt, f, benchmark, stype)
    return out + required_scenario_findings(rt, f, benchmark, stype, result.model_scenarios)
