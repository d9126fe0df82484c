"""The submission-level gates of the checker's ``check_results_dir()`` (system description,
model, scenario and required-scenario rules), on real results of
../shared/mlperf-inference copied to a temporary tree and then changed as a submitter
might have got them wrong."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from benchdb.mlperf.inference.rules import INVALID, VALID, Verdict, evaluate
from benchdb.mlperf.inference.scenarios import suite_scenarios
from ingest.inference.parsers.tree import Tree, find_results, load_result, read_omitted_manifest
from tests.inference_data import INFERENCE_DATA as DATA

GATES = {
    "system_json_missing",
    "system_status",
    "system_type",
    "system_field_missing",
    "system_field_empty",
    "system_field_unknown",
    "system_submitter",
    "system_division",
    "model_not_in_round",
    "model_not_in_suite",
    "scenario_not_allowed",
    "required_scenarios",
}


def _mapping(version: str) -> dict[str, str]:
    """Model folder -> benchmark as the official table of a round counts them."""
    with (DATA / "official_results.csv").open(newline="") as f:
        return {r["model"]: r["mlperf_model"] for r in csv.DictReader(f) if r["round"] == version}


class Copy:
    """One model folder of one system of a round, copied with its compliance folder and
    system description into ``root`` (paths as in the repository)."""

    def __init__(self, root: Path, version: str, system_path: str, model: str) -> None:
        self.root, self.version, self.model = root, version, model
        division, submitter, _, system = system_path.split("/")
        self.base = f"{division}/{submitter}"
        self.system = system
        src = DATA / f"inference_results_{version}"
        for part in ("results", "compliance"):
            rel = f"{self.base}/{part}/{system}/{model}"
            if (src / rel).is_dir():
                shutil.copytree(src / rel, root / rel)
        (root / self.system_json).parent.mkdir(parents=True)
        shutil.copy(src / self.system_json, root / self.system_json)

    @property
    def system_json(self) -> str:
        return f"{self.base}/systems/{self.system}.json"

    @property
    def model_path(self) -> str:
        return f"{self.base}/results/{self.system}/{self.model}"

    def edit_system(self, fields: dict[str, Any] | None = None, drop: tuple[str, ...] = ()) -> None:
        """Rewrite the system JSON without ``drop`` and with ``fields`` set."""
        path = self.root / self.system_json
        data = json.loads(path.read_text())
        data = {k: v for k, v in data.items() if k not in drop} | (fields or {})
        path.write_text(json.dumps(data, indent=2))

    def move_scenario(self, old: str, new: str | None) -> None:
        """Rename (or with ``new=None`` delete) a scenario folder and its compliance."""
        for part in ("results", "compliance"):
            folder = self.root / f"{self.base}/{part}/{self.system}/{self.model}"
            if (folder / old).is_dir():
                if new is None:
                    shutil.rmtree(folder / old)
                else:
                    (folder / old).rename(folder / new)

    def judge(self) -> dict[str, Verdict]:
        """Scenario folder -> verdict, every result of the copy read as the round."""
        manifest = DATA / f"manifests/{self.version}.omitted.tsv"
        tree = Tree(self.root, read_omitted_manifest(manifest.read_bytes()))
        extra = _mapping(self.version)
        return {
            f.scenario: evaluate(load_result(tree, f), self.version, extra)
            for f in find_results(tree)
        }


def gates(verdict: Verdict) -> list[tuple[str, bool]]:
    """The gate findings of a verdict as (rule, invalidates)."""
    return [(f.rule, f.invalidates) for f in verdict.findings if f.rule in GATES]


LENOVO_EDGE = ("v5.1", "closed/Lenovo/systems/SE100_RTX2000E_Ada_16GBx1_TRT", "resnet50")
INTEL_DC = ("v5.1", "closed/Intel/systems/1-node-2S-GNR_128C", "llama3_1-8b")
LENOVO_OPEN = ("v5.1", "open/Lenovo/systems/se100_ultra7_255h", "resnet50")
AMD_LLM = ("v5.1", "closed/AMD/systems/8xMI300X_2xEPYC_9575F", "llama2-70b-99")
UNTETHER_DC = ("v4.1", "closed/UntetherAI/systems/r760_u6_slim", "resnet50")
NVIDIA_H100 = ("v3.0", "closed/NVIDIA/systems/DGX-H100_H100-SXM-80GBx8_TRT", "bert-99")
NVIDIA_NET = ("v3.0", "network/NVIDIA/systems/SUT_DGX_A100-SXM-80GBx8_CX6x8_TRT", "bert-99")
QUALCOMM_DC = ("v1.1", "closed/Qualcomm/systems/r282_z93_q8-qaic-v1.5.6-aic100", "resnet50")
INTEL_V07 = ("v0.7", "closed/Intel/systems/1-node-2s-clx-ov-int8", "resnet")
GOOGLE_V05 = ("v0.5", "closed/Google/systems/tpu-v3.8x1", "resnet")


def make(tmp_path: Path, case: tuple[str, str, str]) -> Copy:
    """A copy whose every result is valid and passes every gate, as published."""
    copy = Copy(tmp_path, *case)
    verdicts = copy.judge()
    assert verdicts
    for scenario, verdict in verdicts.items():
        assert verdict.status == VALID, (scenario, verdict.reasons)
        assert gates(verdict) == [], scenario
    return copy


# --- what the parser records ----------------------------------------------------------


def test_the_parser_records_the_system_file_and_the_scenarios_beside(tmp_path: Path) -> None:
    copy = make(tmp_path, LENOVO_EDGE)
    tree = Tree(tmp_path, keep=True)
    results = [load_result(tree, f) for f in find_results(tree)]
    assert {r.model_scenarios for r in results} == {("MultiStream", "Offline", "SingleStream")}
    assert all(r.system_exists and r.system_file for r in results)
    (tmp_path / copy.system_json).unlink()
    result = load_result(tree, find_results(tree)[0])
    assert (result.system_exists, result.system_file, result.system_json) == (False, b"", {})


# --- system description -----------------------------------------------------------------


def test_a_system_without_its_json_has_every_result_rejected(tmp_path: Path) -> None:
    """``no system_desc for ...``: nothing of the system is read further (no model or
    scenario gate is reported)."""
    copy = make(tmp_path, LENOVO_EDGE)
    (tmp_path / copy.system_json).unlink()
    for verdict in copy.judge().values():
        assert verdict.status == INVALID
        assert gates(verdict) == [("system_json_missing", True)]
        (f,) = [f for f in verdict.findings if f.rule == "system_json_missing"]
        assert f.path == copy.system_json


@pytest.mark.parametrize(
    ("case", "status", "valid"),
    [
        (LENOVO_EDGE, "Available", True),  # compared lower-cased
        (LENOVO_EDGE, "unavailable", False),
        (LENOVO_EDGE, "on-premise", False),
        (INTEL_V07, "on-premise", True),  # v0.7 VALID_STATUS
        (INTEL_V07, "Research, Development, or Internal", True),  # v0.7 reads it as rdi
        (QUALCOMM_DC, "Research, Development, or Internal", False),
    ],
)
def test_the_status_must_be_an_availability_of_the_round(
    tmp_path: Path, case: tuple[str, str, str], status: str, valid: bool
) -> None:
    copy = make(tmp_path, case)
    copy.edit_system({"status": status})
    for verdict in copy.judge().values():
        assert gates(verdict) == ([] if valid else [("system_status", True)])


def test_datacenter_edge_is_a_suite_from_v1_0(tmp_path: Path) -> None:
    """v0.7 rejects ``datacenter,edge``; in v1.1 it selects the datacenter-edge table,
    where resnet also requires SingleStream: the Qualcomm model folder lacks it, which the
    checker logs for the model folder while its results stay published."""
    v07 = make(tmp_path / "v07", INTEL_V07)
    v07.edit_system({"system_type": "datacenter,edge"})
    assert {s: gates(v) for s, v in v07.judge().items()} == {
        "Offline": [("system_type", True)],
        "Server": [("system_type", True)],
    }
    v11 = make(tmp_path / "v11", QUALCOMM_DC)
    v11.edit_system({"system_type": "edge,datacenter"})
    for verdict in v11.judge().values():
        assert verdict.status == VALID
        assert gates(verdict) == [("required_scenarios", False)]
        (f,) = [f for f in verdict.findings if f.rule == "required_scenarios"]
        assert (f.path, "['SingleStream']" in f.message) == (v11.model_path, True)


def test_an_unknown_system_type_is_rejected(tmp_path: Path) -> None:
    copy = make(tmp_path, LENOVO_EDGE)
    copy.edit_system({"system_type": "Edge"})
    assert {s: gates(v) for s, v in copy.judge().items()} == {
        s: [("system_type", True)] for s in ("MultiStream", "Offline", "SingleStream")
    }


@pytest.mark.parametrize(
    ("case", "field", "valid"),
    [
        (INTEL_V07, "host_storage_type", False),  # required since v0.7
        (INTEL_V07, "cooling", True),  # optional in v0.7
        (QUALCOMM_DC, "cooling", False),  # SINCE_V1
        (NVIDIA_H100, "system_type_detail", True),  # SINCE_V3_1
        (UNTETHER_DC, "system_type_detail", False),
        (GOOGLE_V05, "hw_notes", True),  # optional in the v0.5 template
        (GOOGLE_V05, "framework", False),
    ],
)
def test_required_system_fields_follow_the_round(
    tmp_path: Path, case: tuple[str, str, str], field: str, valid: bool
) -> None:
    copy = make(tmp_path, case)
    copy.edit_system(drop=(field,))
    for verdict in copy.judge().values():
        if valid:
            assert gates(verdict) == []
        else:
            assert verdict.status == INVALID
            (f,) = [f for f in verdict.findings if f.rule == "system_field_missing"]
            assert (f.path, field in f.message) == (copy.system_json, True)


@pytest.mark.parametrize(("case", "valid"), [(NVIDIA_H100, True), (UNTETHER_DC, False)])
def test_meaningful_fields_must_not_be_empty_from_v3_1(
    tmp_path: Path, case: tuple[str, str, str], valid: bool
) -> None:
    copy = make(tmp_path, case)
    copy.edit_system({"cooling": ""})
    for verdict in copy.judge().values():
        assert gates(verdict) == ([] if valid else [("system_field_empty", True)])


def test_v0_5_rejects_fields_its_template_lacks(tmp_path: Path) -> None:
    copy = make(tmp_path, GOOGLE_V05)
    copy.edit_system({"system_type": "datacenter"})
    for verdict in copy.judge().values():
        assert gates(verdict) == [("system_field_unknown", True)]


def test_v0_5_compares_the_division_though_its_template_misspells_it(tmp_path: Path) -> None:
    """``"division": "reqired"`` in ``system_desc_id.json``: not a required field, but
    ``check_system_desc_id()`` then reads ``j["division"]`` to compare it with the folder."""
    copy = make(tmp_path, GOOGLE_V05)
    copy.edit_system(drop=("division",))
    for verdict in copy.judge().values():
        assert gates(verdict) == [("system_division", True)]


@pytest.mark.parametrize(
    ("fields", "rule"),
    [
        ({"submitter": "LENOVO"}, None),  # compared ignoring case
        ({"submitter": "Lenovo Group"}, "system_submitter"),
        ({"division": "open"}, "system_division"),
    ],
)
def test_submitter_and_division_must_match_the_folders(
    tmp_path: Path, fields: dict[str, str], rule: str | None
) -> None:
    copy = make(tmp_path, LENOVO_EDGE)
    copy.edit_system(fields)
    for verdict in copy.judge().values():
        assert gates(verdict) == ([] if rule is None else [(rule, True)])


def test_a_network_system_needs_the_network_fields(tmp_path: Path) -> None:
    copy = make(tmp_path, NVIDIA_NET)
    copy.edit_system(drop=("nic_sut",))
    for verdict in copy.judge().values():
        assert verdict.status == INVALID
        assert gates(verdict) == [("system_field_missing", True)]


# --- model and scenario folders -------------------------------------------------------------


def test_a_model_the_suite_lacks_is_rejected(tmp_path: Path) -> None:
    """llama3.1-8b is a datacenter benchmark in v5.1 (edge has llama3.1-8b-edge)."""
    copy = make(tmp_path, INTEL_DC)
    copy.edit_system({"system_type": "edge"})
    for verdict in copy.judge().values():
        assert gates(verdict) == [("model_not_in_suite", True)]


def test_the_suite_gate_holds_in_the_open_division_too(tmp_path: Path) -> None:
    """``Config.get_required()`` is None for resnet on a v5.1 datacenter system (the
    datacenter table dropped resnet), and the checker drops the model folder whatever
    the division."""
    tables = suite_scenarios((5, 1), "datacenter")
    assert tables is not None and "resnet" not in tables[0]
    copy = make(tmp_path, LENOVO_OPEN)
    copy.edit_system({"system_type": "datacenter"})
    for verdict in copy.judge().values():
        assert (verdict.status, gates(verdict)) == (INVALID, [("model_not_in_suite", True)])


def test_a_closed_model_folder_of_a_retired_benchmark_is_rejected(tmp_path: Path) -> None:
    """gptj-99 is not among the v5.1 ``models``."""
    copy = make(tmp_path, LENOVO_EDGE)
    for part in ("results", "compliance"):
        folder = tmp_path / f"{copy.base}/{part}/{copy.system}"
        (folder / "resnet50").rename(folder / "gptj-99")
    for verdict in copy.judge().values():
        assert verdict.benchmark == "gptj-99"
        assert ("model_not_in_round", True) in gates(verdict)


def test_a_v0_5_closed_model_folder_must_be_named_as_the_benchmark(tmp_path: Path) -> None:
    copy = make(tmp_path, GOOGLE_V05)
    folder = tmp_path / f"{copy.base}/results/{copy.system}"
    (folder / "resnet").rename(folder / "resnet50")
    for verdict in copy.judge().values():
        assert verdict.benchmark == "resnet"
        assert gates(verdict) == [("model_not_in_round", True)]


def test_a_mobilenet_folder_counts_as_resnet_from_v0_7(tmp_path: Path) -> None:
    """mobilenet was a v0.5 benchmark; the v0.7 checker maps the folder to resnet
    (``model_mapping``), so it passes the closed-division model gate."""
    copy = make(tmp_path, INTEL_V07)
    for part in ("results", "compliance"):
        folder = tmp_path / f"{copy.base}/{part}/{copy.system}"
        (folder / "resnet").rename(folder / "mobilenet")
    for verdict in copy.judge().values():
        assert (verdict.benchmark, verdict.status, gates(verdict)) == ("resnet", VALID, [])


def test_a_scenario_neither_required_nor_optional_is_ignored(tmp_path: Path) -> None:
    """An edge system's resnet has no Server scenario: that folder is rejected, and the
    model folder now lacks its MultiStream (logged on the others, not rejected)."""
    copy = make(tmp_path, LENOVO_EDGE)
    copy.move_scenario("MultiStream", "Server")
    verdicts = copy.judge()
    assert verdicts["Server"].status == INVALID
    assert ("scenario_not_allowed", True) in gates(verdicts["Server"])
    for scenario in ("Offline", "SingleStream"):
        assert verdicts[scenario].status == VALID
        assert gates(verdicts[scenario]) == [("required_scenarios", False)]


def test_open_scenarios_are_not_gated(tmp_path: Path) -> None:
    copy = make(tmp_path, LENOVO_OPEN)
    copy.move_scenario("MultiStream", "Server")
    copy.move_scenario("SingleStream", None)
    for verdict in copy.judge().values():
        assert gates(verdict) == []


# --- required scenarios -----------------------------------------------------------------------


def test_a_missing_required_scenario_is_logged_not_rejected(tmp_path: Path) -> None:
    """``does not have all required scenarios``: ``results[<model folder>] = None`` after
    ``log_result()`` wrote the rows, so the results stay, with the finding."""
    copy = make(tmp_path, UNTETHER_DC)
    copy.move_scenario("server", None)
    (verdict,) = copy.judge().values()
    assert verdict.status == VALID
    (f,) = [f for f in verdict.findings if f.rule == "required_scenarios"]
    assert (f.path, f.invalidates) == (copy.model_path, False)
    assert "missing ['Server']" in f.message


def test_v5_1_llms_need_server_or_interactive(tmp_path: Path) -> None:
    copy = make(tmp_path, AMD_LLM)
    copy.move_scenario("Server", None)
    assert all(gates(v) == [] for v in copy.judge().values())
    copy.move_scenario("Interactive", None)
    (verdict,) = copy.judge().values()
    assert verdict.status == VALID
    (f,) = [f for f in verdict.findings if f.rule == "required_scenarios"]
    assert (f.path, f.invalidates) == (copy.model_path, False)
    assert "one of [Server, Interactive] is required" in f.message
