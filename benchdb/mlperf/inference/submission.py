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
``system_desc_id.json`` at d7c7d4c0. Scenario abbreviations: SS SingleStream,
MS MultiStream, S Server, O Offline, I Interactive.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
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
from benchdb.mlperf.inference.rounds_v6 import SCENARIOS as V6_SCENARIOS
from benchdb.vocabulary import INFERENCE_BENCHMARKS

_ABBREV = {"SS": "SingleStream", "MS": "MultiStream", "S": "Server", "O": "Offline"}
_ABBREV["I"] = "Interactive"


@dataclass(frozen=True)
class _Round:
    """A round's ``models`` and (required, optional) scenario specs per suite."""

    models: str
    datacenter: tuple[str, str]
    edge: tuple[str, str]
    datacenter_edge: tuple[str, str] = ("", "")


#: ``MODEL_CONFIG[<round>]`` ``models``, ``required-scenarios-{datacenter,edge,datacenter-edge}``
#: and ``optional-scenarios-*`` of the round's own checker: v0.7 75018167, v1.0 8b58587c
#: (tag v1.0.1), v1.1 8d375aab, v2.0 33894a19 (tag v2.0), v2.1 318cb131, v3.0 fd6486a0,
#: v3.1 ce189bda (tag v3.1), v4.0 e39003a9 (tag v4.0), v4.1 c7db1c3f, v5.0 dcd0c3ea (tag
#: v5.0), v5.1 e20506b2. Each round lists only what changed from the one before.
_TABLES: dict[RoundKey, _Round] = {}

_TABLES[(0, 7)] = _Round(
    models=(
        "ssd-small ssd-large resnet rnnt bert-99 bert-99.9 dlrm-99 dlrm-99.9 3d-unet-99 "
        "3d-unet-99.9"
    ),
    datacenter=(
        (
            "resnet:O ssd-large:O rnnt:O bert-99:O bert-99.9:O dlrm-99:O dlrm-99.9:O 3d-unet-99:O "
            "3d-unet-99.9:O"
        ),
        "resnet:S ssd-large:S rnnt:S bert-99:S bert-99.9:S dlrm-99:S dlrm-99.9:S",
    ),
    edge=(
        (
            "resnet:SS,O ssd-small:SS,O ssd-large:SS,O rnnt:SS,O bert-99:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O"
        ),
        "resnet:MS ssd-small:MS ssd-large:MS",
    ),
)
_TABLES[(1, 0)] = replace(
    _TABLES[(0, 7)],
    datacenter_edge=(
        (
            "resnet:SS,O ssd-small:SS,O ssd-large:SS,O rnnt:SS,O bert-99:SS,O bert-99.9:O "
            "dlrm-99:O dlrm-99.9:O 3d-unet-99:SS,O 3d-unet-99.9:SS,O"
        ),
        (
            "resnet:MS,S ssd-small:MS ssd-large:MS,S rnnt:S bert-99:S bert-99.9:S dlrm-99:S "
            "dlrm-99.9:S"
        ),
    ),
)
_TABLES[(1, 1)] = replace(
    _TABLES[(1, 0)],
    edge=(
        (
            "resnet:SS,O ssd-small:SS,O ssd-large:SS,O rnnt:SS,O bert-99:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,O ssd-small:SS,O ssd-large:SS,O rnnt:SS,O bert-99:SS,O bert-99.9:O "
            "dlrm-99:O dlrm-99.9:O 3d-unet-99:SS,O 3d-unet-99.9:SS,O"
        ),
        "resnet:S ssd-large:S rnnt:S bert-99:S bert-99.9:S dlrm-99:S dlrm-99.9:S",
    ),
)
_TABLES[(2, 0)] = replace(
    _TABLES[(1, 1)],
    datacenter=(
        (
            "resnet:S,O ssd-large:S,O rnnt:S,O bert-99:S,O bert-99.9:S,O dlrm-99:S,O "
            "dlrm-99.9:S,O 3d-unet-99:O 3d-unet-99.9:O"
        ),
        "",
    ),
    edge=(
        (
            "resnet:SS,MS,O ssd-small:SS,MS,O ssd-large:SS,MS,O rnnt:SS,O bert-99:SS,O "
            "3d-unet-99:SS,O 3d-unet-99.9:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O ssd-small:SS,MS,O ssd-large:SS,MS,S,O rnnt:SS,S,O bert-99:SS,S,O "
            "bert-99.9:S,O dlrm-99:S,O dlrm-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O"
        ),
        "",
    ),
)
_TABLES[(2, 1)] = replace(
    _TABLES[(2, 0)],
    models="resnet retinanet rnnt bert-99 bert-99.9 dlrm-99 dlrm-99.9 3d-unet-99 3d-unet-99.9",
    datacenter=(
        (
            "resnet:S,O retinanet:S,O rnnt:S,O bert-99:S,O bert-99.9:S,O dlrm-99:S,O "
            "dlrm-99.9:S,O 3d-unet-99:O 3d-unet-99.9:O"
        ),
        "",
    ),
    edge=(
        (
            "resnet:SS,MS,O retinanet:SS,MS,O rnnt:SS,O bert-99:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O retinanet:SS,MS,S,O rnnt:SS,S,O bert-99:SS,S,O bert-99.9:S,O "
            "dlrm-99:S,O dlrm-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O"
        ),
        "",
    ),
)
_TABLES[(3, 0)] = _TABLES[(2, 1)]
_TABLES[(3, 1)] = replace(
    _TABLES[(3, 0)],
    models=(
        "resnet retinanet rnnt bert-99 bert-99.9 dlrm-v2-99 dlrm-v2-99.9 3d-unet-99 3d-unet-99.9 "
        "gptj-99 gptj-99.9 gpt3-99 gpt3-99.9"
    ),
    datacenter=(
        (
            "resnet:S,O retinanet:S,O rnnt:S,O bert-99:S,O bert-99.9:S,O dlrm-v2-99:S,O "
            "dlrm-v2-99.9:S,O 3d-unet-99:O 3d-unet-99.9:O gptj-99:S,O gptj-99.9:S,O gpt3-99:S,O "
            "gpt3-99.9:S,O"
        ),
        "",
    ),
    edge=(
        (
            "resnet:SS,MS,O retinanet:SS,MS,O rnnt:SS,O bert-99:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O gptj-99:SS,O gptj-99.9:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O retinanet:SS,MS,S,O rnnt:SS,S,O bert-99:SS,S,O bert-99.9:S,O "
            "dlrm-v2-99:S,O dlrm-v2-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O gptj-99:SS,S,O "
            "gptj-99.9:SS,S,O gpt3-99:S,O gpt3-99.9:S,O"
        ),
        "",
    ),
)
_TABLES[(4, 0)] = replace(
    _TABLES[(3, 1)],
    models=(
        "resnet retinanet rnnt bert-99 bert-99.9 dlrm-v2-99 dlrm-v2-99.9 3d-unet-99 3d-unet-99.9 "
        "gptj-99 gptj-99.9 llama2-70b-99 llama2-70b-99.9 stable-diffusion-xl"
    ),
    datacenter=(
        (
            "resnet:S,O retinanet:S,O rnnt:S,O bert-99:S,O bert-99.9:S,O dlrm-v2-99:S,O "
            "dlrm-v2-99.9:S,O 3d-unet-99:O 3d-unet-99.9:O gptj-99:S,O gptj-99.9:S,O "
            "llama2-70b-99:S,O llama2-70b-99.9:S,O stable-diffusion-xl:S,O"
        ),
        "",
    ),
    edge=(
        (
            "resnet:SS,MS,O retinanet:SS,MS,O rnnt:SS,O bert-99:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O gptj-99:SS,O gptj-99.9:SS,O stable-diffusion-xl:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O retinanet:SS,MS,S,O rnnt:SS,S,O bert-99:SS,S,O bert-99.9:S,O "
            "dlrm-v2-99:S,O dlrm-v2-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O gptj-99:SS,S,O "
            "gptj-99.9:SS,S,O llama2-70b-99:S,O llama2-70b-99.9:S,O stable-diffusion-xl:SS,S,O"
        ),
        "",
    ),
)
_TABLES[(4, 1)] = replace(
    _TABLES[(4, 0)],
    models=(
        "resnet retinanet bert-99 bert-99.9 dlrm-v2-99 dlrm-v2-99.9 3d-unet-99 3d-unet-99.9 "
        "gptj-99 gptj-99.9 llama2-70b-99 llama2-70b-99.9 stable-diffusion-xl mixtral-8x7b"
    ),
    datacenter=(
        (
            "resnet:S,O retinanet:S,O bert-99:S,O bert-99.9:S,O dlrm-v2-99:S,O dlrm-v2-99.9:S,O "
            "3d-unet-99:O 3d-unet-99.9:O gptj-99:S,O gptj-99.9:S,O llama2-70b-99:S,O "
            "llama2-70b-99.9:S,O stable-diffusion-xl:S,O mixtral-8x7b:S,O"
        ),
        "",
    ),
    edge=(
        (
            "resnet:SS,MS,O retinanet:SS,MS,O bert-99:SS,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O "
            "gptj-99:SS,O gptj-99.9:SS,O stable-diffusion-xl:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O retinanet:SS,MS,S,O bert-99:SS,S,O bert-99.9:S,O dlrm-v2-99:S,O "
            "dlrm-v2-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O gptj-99:SS,S,O gptj-99.9:SS,S,O "
            "llama2-70b-99:S,O llama2-70b-99.9:S,O stable-diffusion-xl:SS,S,O mixtral-8x7b:SS,S,O"
        ),
        "",
    ),
)
_TABLES[(5, 0)] = replace(
    _TABLES[(4, 1)],
    models=(
        "resnet retinanet bert-99 bert-99.9 dlrm-v2-99 dlrm-v2-99.9 3d-unet-99 3d-unet-99.9 "
        "gptj-99 gptj-99.9 llama2-70b-99 llama2-70b-99.9 stable-diffusion-xl mixtral-8x7b "
        "llama3.1-405b rgat"
    ),
    datacenter=(
        (
            "resnet:S,O retinanet:S,O dlrm-v2-99:S,O dlrm-v2-99.9:S,O 3d-unet-99:O 3d-unet-99.9:O "
            "gptj-99:S,O gptj-99.9:S,O llama2-70b-99:S,O llama2-70b-99.9:S,O "
            "stable-diffusion-xl:S,O mixtral-8x7b:S,O llama3.1-405b:S,O rgat:O"
        ),
        "",
    ),
    edge=(
        (
            "resnet:SS,MS,O retinanet:SS,MS,O bert-99:SS,O bert-99.9:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O gptj-99:SS,O gptj-99.9:SS,O stable-diffusion-xl:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O retinanet:SS,MS,S,O bert-99:SS,O bert-99.9:SS,O dlrm-v2-99:S,O "
            "dlrm-v2-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O gptj-99:SS,S,O gptj-99.9:SS,S,O "
            "llama2-70b-99:S,O llama2-70b-99.9:S,O stable-diffusion-xl:SS,S,O mixtral-8x7b:S,O "
            "llama3.1-405b:S,O rgat:O"
        ),
        "",
    ),
)
_TABLES[(5, 1)] = replace(
    _TABLES[(5, 0)],
    models=(
        "resnet retinanet bert-99 bert-99.9 dlrm-v2-99 dlrm-v2-99.9 3d-unet-99 3d-unet-99.9 "
        "llama3.1-8b llama3.1-8b-edge llama2-70b-99 llama2-70b-99.9 stable-diffusion-xl "
        "mixtral-8x7b llama3.1-405b rgat pointpainting deepseek-r1 whisper"
    ),
    datacenter=(
        (
            "retinanet:S,O dlrm-v2-99:S,O dlrm-v2-99.9:S,O 3d-unet-99:O 3d-unet-99.9:O "
            "llama3.1-8b:O llama2-70b-99:O llama2-70b-99.9:O stable-diffusion-xl:S,O "
            "mixtral-8x7b:S,O llama3.1-405b:O rgat:O deepseek-r1:S,O whisper:O"
        ),
        "llama2-70b-99:S,I llama2-70b-99.9:S,I llama3.1-405b:S,I llama3.1-8b:S,I",
    ),
    edge=(
        (
            "resnet:SS,MS,O retinanet:SS,MS,O bert-99:SS,O bert-99.9:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O llama3.1-8b-edge:SS,O stable-diffusion-xl:SS,O pointpainting:SS "
            "whisper:O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O retinanet:SS,MS,S,O bert-99:SS,O bert-99.9:SS,O dlrm-v2-99:S,O "
            "dlrm-v2-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O llama3.1-8b:O "
            "llama3.1-8b-edge:SS,O llama2-70b-99:O llama2-70b-99.9:O stable-diffusion-xl:SS,S,O "
            "mixtral-8x7b:S,O llama3.1-405b:O rgat:O pointpainting:SS deepseek-r1:SS,S,O "
            "whisper:O"
        ),
        "llama2-70b-99:S,I llama2-70b-99.9:S,I llama3.1-405b:S,I llama3.1-8b:S,I",
    ),
)

#: v6.0 (6d0cf9dc) and v6.1 (2af078ba): ``inference_rounds_v6.SCENARIOS``.
for _rt, (_models, _dc, _edge, _both) in V6_SCENARIOS.items():
    _TABLES[_rt] = _Round(_models, _dc, _edge, _both)


@cache
def _parse(spec: str) -> Mapping[str, frozenset[str]]:
    """``"resnet:SS,MS,O bert-99:SS,O"`` -> {benchmark: scenarios}."""
    out: dict[str, frozenset[str]] = {}
    for item in spec.split():
        model, scenarios = item.split(":")
        out[model] = frozenset(_ABBREV[s] for s in scenarios.split(","))
    return out


def round_models(rt: RoundKey) -> frozenset[str]:
    """``MODEL_CONFIG[<round>]["models"]`` (v0.5: ``VALID_MODELS``); empty if unknown."""
    if rt < (0, 7):
        return V05_MODELS
    table = _TABLES.get(rt)
    return frozenset(table.models.split()) if table else frozenset()


def suite_scenarios(
    rt: RoundKey, system_type: str
) -> tuple[Mapping[str, frozenset[str]], Mapping[str, frozenset[str]]] | None:
    """(required, optional) scenarios per benchmark that ``Config.set_type(system_type)``
    selects (``datacenter``, ``edge``, and from v1.0 ``datacenter,edge`` /
    ``edge,datacenter``); None for a round without tables (v0.5) or an unknown suite."""
    table = _TABLES.get(rt)
    if table is None or system_type not in valid_system_types(rt):
        return None
    pair = {"datacenter": table.datacenter, "edge": table.edge}.get(
        system_type, table.datacenter_edge
    )
    return _parse(pair[0]), _parse(pair[1])


def checker_scenario(folder: str) -> str:
    """``SCENARIO_MAPPING.get(scenario, scenario)``: only the all-lower-case spellings
    map (``singlestream``, ``multistream``, ``server``, ``offline``, ``interactive``)."""
    return _SCENARIO_MAPPING.get(folder, folder)


_SCENARIO_MAPPING = {s.lower(): s for s in _ABBREV.values()}

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
