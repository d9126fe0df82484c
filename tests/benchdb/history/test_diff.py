"""benchdb.history.diff and .commits (pure): field changes in words, the fate of a
folder that left its repository, a systems file's edits spread over its results,
summary_results.json rows changed and re-keyed (on the real v5.1 table)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.conf import settings

from benchdb.history import commits, diff


def test_field_changes_name_field_old_and_new_by_kind():
    before = {
        "score_minutes": 5.67,
        "status": "scored",
        "system.availability": "available",
        "files": {"result_0.txt": "aa", "result_1.txt": "bb"},
        "reason": "",
    }
    after = {
        "score_minutes": 6.67,
        "status": "scored",
        "system.availability": "preview",
        "files": {"result_0.txt": "aa", "result_1.txt": "cc", "result_2.txt": "dd"},
        "reason": "",
    }
    changes = diff.field_changes(before, after)
    assert [c.words() for c in changes] == [
        "score_minutes: 5.67 -> 6.67",
        "system.availability: available -> preview",
        "files: ['result_1.txt'] -> ['result_1.txt', 'result_2.txt']",
    ]
    assert diff.kinds(changes) == ["value", "availability", "files"]
    assert diff.field_changes({"v": float("nan")}, {"v": float("nan")}) == []
    assert diff.field_changes({"v": 0.1 + 0.2}, {"v": 0.3}) == []


@pytest.mark.parametrize(
    ("path", "present", "known", "fate"),
    [
        (
            "closed/X/results/s/resnet50/Offline",
            {"open/X/results/s/resnet50/Offline"},
            set(),
            ("moved-to-open", "open/X/results/s/resnet50/Offline"),
        ),
        (
            "Datacrunch/results/b200/llama31_8b",
            {"Verda/results/b200/llama31_8b"},
            set(),
            ("renamed", "Verda/results/b200/llama31_8b"),
        ),
        # a folder that was there before is no successor
        ("A/results/s/bert", {"B/results/s/bert"}, {"B/results/s/bert"}, ("withdrawn", "")),
        ("closed/X/results/s/resnet50/Offline", set(), set(), ("withdrawn", "")),
    ],
)
def test_a_folder_gone_is_withdrawn_moved_to_open_or_renamed(path, present, known, fate):
    f = diff.fate(path, present, known)
    assert (f.kind, f.successor) == fate


def test_a_systems_edit_is_a_change_of_every_result_of_that_system():
    before = {
        "Lambda/results/gb300/llama31_8b",
        "Lambda/results/gb300/llama2_70b_lora",
        "Lambda/results/other/llama31_8b",
    }
    found = commits.commit_changes(
        suite="training",
        before=before,
        after=before,
        touched=[("M", "Lambda/systems/gb300.json", "Lambda/systems/gb300.json")],
        systems={
            ("Lambda/systems/gb300.json", "Lambda/systems/gb300.json"): (
                {"host_processor_model_name": "Intel Xeon 8570"},
                {"host_processor_model_name": "Neoverse-V2"},
            )
        },
    )
    assert sorted(found.changes) == [
        "Lambda/results/gb300/llama2_70b_lora",
        "Lambda/results/gb300/llama31_8b",
    ]
    (c,) = found.changes["Lambda/results/gb300/llama31_8b"]
    assert c.words() == "raw.host_processor_model_name: Intel Xeon 8570 -> Neoverse-V2"


@pytest.fixture(scope="module")
def table() -> list[dict]:
    path = Path(settings.MLPERF_INFERENCE_DATA) / "inference_results_v5.1/summary_results.json"
    return json.loads(path.read_text())


def test_summary_rows_changed_and_rekeyed_on_the_real_v51_table(table):
    """As f6a497e1 did: an ID shifted, and rows published under a wrong Location
    (Supermicro_1) re-keyed to the folder that holds the result."""
    old = copy.deepcopy(table)
    redhat = [r for r in old if r["Location"].startswith("closed/RedHat/")]
    assert len(redhat) == 4
    redhat[0]["ID"] = "5.1-0081"
    moved = redhat[1]["Location"]
    redhat[1]["Location"] = moved.replace("closed/RedHat/", "closed/RedHat_1/")
    found = commits.summary_changes(old, table)
    now = {r["Location"]: r["ID"] for r in table}[redhat[0]["Location"]]
    assert [c.words() for c in found[redhat[0]["Location"]]] == [f"ID: 5.1-0081 -> {now}"]
    (rekey,) = found[redhat[1]["Location"]]
    assert (rekey.kind, rekey.old, rekey.new) == ("rekeyed", redhat[1]["Location"], moved)
    assert len(found) == 2
