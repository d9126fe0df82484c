"""MLPerf Automotive round tables: model and scenario names, direction, and the result
IDs as ``generate_final_report.py`` numbers them (checked on the whole published table)."""

from __future__ import annotations

import pytest

from benchdb.mlperf.automotive.rules import (
    V0_5,
    IdKey,
    mlperf_model,
    result_ids,
    round_for,
    scenario_of,
)
from tests.automotive_data import published


def _keys() -> list[tuple[IdKey, dict[str, object]]]:
    return [
        (
            IdKey(
                str(r["Category"]),
                str(r["Availability"]),
                str(r["Submitter"]),
                str(r["Suite"]),
                str(r["Platform"]),
                str(r["UsedModel"]),
            ),
            r,
        )
        for r in published().values()
    ]


def test_every_published_id_is_numbered_back() -> None:
    """The 9 rows of summary_results.json (8 IDs: NVIDIA's two scenarios share one)."""
    keys = _keys()
    ids = result_ids(V0_5, (k for k, _ in keys))
    for key, row in keys:
        assert key.unique_id == row["Unique ID (e.g. for Audit)"]
        assert ids[key.unique_id] == row["ID"]
    assert len(ids) == 8


def test_closed_ids_come_before_open_ones_whatever_the_names() -> None:
    keys = [
        IdKey("open", "development", "Aaa", "adas", "sys", "ssd"),
        IdKey("closed", "development", "Zzz", "adas", "sys", "ssd"),
        IdKey("closed", "development", "Zzz", "adas", "sys", "bevformer"),
    ]
    assert result_ids(V0_5, keys) == {
        "adas/closed/Zzz/sys": "0.5-0001",
        "adas/open/Aaa/sys/ssd": "0.5-0002",
    }


@pytest.mark.parametrize(
    ("folder", "extra", "model"),
    [
        ("bevformer", None, "bevformer"),
        ("SSD", None, "ssd"),
        ("DEEPLABV3PLUS", None, "deeplabv3plus"),
        ("my-ssd", {"my-ssd": "ssd"}, "ssd"),
        ("yolo", None, "yolo"),
    ],
)
def test_model_folders_map_as_the_checker_maps_them(
    folder: str, extra: dict[str, str] | None, model: str
) -> None:
    assert mlperf_model(V0_5, folder, extra) == model


@pytest.mark.parametrize(
    ("folder", "scenario"),
    [
        ("singlestream", "SingleStream"),
        ("server", "ConstantStream"),
        ("constantstream", "ConstantStream"),
        ("ConstantStream", "ConstantStream"),
        ("Other", "Other"),
    ],
)
def test_scenario_folders_map_as_the_checker_maps_them(folder: str, scenario: str) -> None:
    assert scenario_of(folder) == scenario


def test_both_scenarios_are_latencies_lower_is_better() -> None:
    rnd = round_for("v0.5")
    assert [rnd.direction(s) for s in ("SingleStream", "ConstantStream", "Offline")] == [
        "lower",
        "lower",
        "higher",
    ]
    with pytest.raises(KeyError):
        round_for("v1.0")
