"""The pure parsers of MLPerf Storage files (``ingest.storage.parsers.files``) on the
real subset: fields as the files hold them (read here with ``json``/text alone), and
bad input as a ParseError naming the file and line."""

from __future__ import annotations

import json

import pytest

from ingest.parsers.types import ParseError
from ingest.storage.parsers import files
from tests.storage_data import DDN, FOLDERS, HAMMERSPACE, ROOT, report, summaries

SYSTEMS = ROOT / "Closed" / "Micron" / "systems"


@pytest.mark.parametrize("folder", FOLDERS)
def test_summary_fields_are_the_files(folder: str) -> None:
    for rel, raw in summaries(folder).items():
        data = (ROOT / folder / rel).read_bytes()
        s = files.parse_summary(data, rel)
        m = raw["metric"]
        assert s.num_accelerators == raw["num_accelerators"]
        assert s.au_percentages == tuple(m["train_au_percentage"])
        assert s.epoch_samples_per_second == tuple(m["train_throughput_samples_per_second"])
        assert s.mean_samples_per_second == m["train_throughput_mean_samples_per_second"]
        assert s.io_mean_mb_per_second == m["train_io_mean_MB_per_second"]
        assert s.au_meet_expectation == m["train_au_meet_expectation"]
        lines = data.decode().splitlines()
        for key, n in s.lines:
            assert f'"{key}"' in lines[n - 1]


def test_the_report_keeps_its_run_order_and_figures() -> None:
    rep = files.parse_report((ROOT / DDN / "mlperf_storage_report.json").read_bytes(), "r.json")
    raw = report(DDN)
    assert [r[0] for r in rep.runs] == list(raw["runs"])
    assert (
        dict(rep.overall)["train_throughput_mean_MB_per_second"]
        == (raw["overall"]["train_throughput_mean_MB_per_second"])
    )
    assert (rep.model, rep.accelerator, rep.accelerators) == ("unet3d", "a100", 72)


def test_overrides_and_config_of_a_run() -> None:
    configs = ROOT / HAMMERSPACE / "run1" / "configs"
    model, acc, line = files.parse_overrides((configs / "overrides.yaml").read_bytes(), "o.yaml")
    assert (model, acc, line) == ("unet3d", "a100", 1)
    cfg = files.parse_config((configs / "config.yaml").read_bytes(), "c.yaml")
    assert (cfg.au, cfg.record_length) == (0.9, 146600628)


def test_a_published_system_description_that_is_not_json_names_its_line() -> None:
    """Micron's published ``Micron_6500_Gen4_High_Capacity_NVMe.json`` has a trailing
    comma on line 17: the decoder stops at line 19's closing brace."""
    path = "Closed/Micron/systems/Micron_6500_Gen4_High_Capacity_NVMe.json"
    data = (ROOT / path).read_bytes()
    with pytest.raises(ParseError) as exc:
        files.parse_system(data, path)
    assert (exc.value.path, exc.value.line) == (path, 19)
    with pytest.raises(json.JSONDecodeError):
        json.loads(data)


def test_a_truncated_summary_names_file_and_line() -> None:
    data = (ROOT / HAMMERSPACE / "run1" / "summary.json").read_bytes()
    cut = b"\n".join(data.splitlines()[:12])
    with pytest.raises(ParseError) as exc:
        files.parse_summary(cut, "run1/summary.json")
    assert exc.value.path == "run1/summary.json"
    assert exc.value.line is not None and exc.value.line >= 12
    assert str(exc.value).startswith(f"run1/summary.json:{exc.value.line}: not JSON")


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ((b'"num_accelerators": 7', b'"num_accelerators": "seven"'), "num_accelerators"),
        ((b'"train_au_mean_percentage"', b'"au_mean"'), "train_au_mean_percentage"),
        (
            (
                b'"train_io_mean_MB_per_second": 10472',
                b'"train_io_mean_MB_per_second": NaN, "x": 1',
            ),
            "train_io_mean_MB_per_second",
        ),
    ],
)
def test_a_bad_value_names_its_field(edit: tuple[bytes, bytes], field: str) -> None:
    data = (ROOT / HAMMERSPACE / "run1" / "summary.json").read_bytes()
    assert edit[0] in data
    with pytest.raises(ParseError) as exc:
        files.parse_summary(data.replace(edit[0], edit[1], 1), "s.json")
    assert field in exc.value.field


def test_overrides_without_a_workload_line() -> None:
    with pytest.raises(ParseError, match="no workload= line"):
        files.parse_overrides(b"- ++workload.workflow.train=True\n", "o.yaml")
    with pytest.raises(ParseError) as exc:
        files.parse_config(b"workload:\n  metric: [\n", "c.yaml")
    assert exc.value.line is not None
