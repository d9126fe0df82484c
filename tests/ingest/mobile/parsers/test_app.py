"""The MLPerf Mobile app's files (``ingest/mobile/parsers/app.py``) on the real subsets:
every task of a ``result.json`` with the line of its ``benchmark_id`` and the figures as
exported; the command line's ``*_results.txt`` by task; a broken file raises naming its
line (v5.0's ``SD8Elite.json`` as published)."""

from __future__ import annotations

import pytest

from ingest.mobile.parsers.app import parse_result_json, parse_results_txt, parse_system
from ingest.parsers.types import ParseError
from tests.mobile_data import EXYNOS, QC, SD8G3, SDX, V40, V50, app_results, text_results


@pytest.mark.parametrize("system", [SD8G3, EXYNOS])
def test_every_task_of_an_app_export_is_read_as_exported(system: str) -> None:
    path = V40 / system / "result.json"
    entries = parse_result_json(path.read_bytes(), f"{system}/result.json")
    published = app_results(V40, system)
    assert [e.benchmark_id for e in entries] == list(published)
    lines = path.read_text().splitlines()
    for e in entries:
        p = published[e.benchmark_id]
        assert f'"benchmark_id": "{e.benchmark_id}"' in lines[e.line - 1]
        assert e.throughput == p["performance_run"]["throughput"]["value"]
        assert e.measured_samples == p["performance_run"]["measured_samples"]
        assert e.latency90_s == p["performance_run"]["loadgen"]["latency90"]
        assert e.accuracy_text == p["accuracy_run"]["accuracy"]["formatted"]
        assert e.scenario == p["loadgen_scenario"] and e.path == f"{system}/result.json"


def test_the_command_lines_text_is_read_by_task_with_its_lines() -> None:
    path = V40 / SDX / "performance_results.txt"
    entries = parse_results_txt(path.read_bytes(), "p.txt")
    expected = text_results(path)
    assert [e.benchmark_id for e in entries] == list(expected)
    lines = path.read_text().splitlines()
    for e in entries:
        for key, (value, line) in e.values.items():
            assert value == expected[e.benchmark_id][key]
            assert key in lines[line - 1] and value in lines[line - 1]
    acc = parse_results_txt((V40 / SDX / "accuracy_results.txt").read_bytes(), "a.txt")
    assert acc[0].values["Accuracy"][0] == "82.10%"


def test_a_system_file_with_a_trailing_comma_is_a_parse_error_naming_its_line() -> None:
    rel = f"{QC}/systems/SD8Elite.json"
    with pytest.raises(ParseError) as err:
        parse_system((V50 / rel).read_bytes(), rel)
    assert err.value.path == rel and err.value.line == 9


def test_a_readable_system_file_gives_the_phone_and_processor() -> None:
    info = parse_system((V40 / QC / "systems/SD8G3.json").read_bytes(), "s.json")
    assert info.device == "Vivo IQOO 12"
    assert info.processor == "Qualcomm Snapdragon 8 Gen 3 Mobile Platform"


@pytest.mark.parametrize(
    ("data", "line", "reason"),
    [
        (b'{"results": [\n{"benchmark_id": "x",}\n]}', 2, "not JSON"),
        (b'{"meta": {}}', 1, "no 'results' list"),
        (b'{"results": [{"performance_run": null}]}', None, "no benchmark_id"),
    ],
)
def test_a_broken_app_export_raises_naming_the_line(
    data: bytes, line: int | None, reason: str
) -> None:
    with pytest.raises(ParseError, match=reason) as err:
        parse_result_json(data, "r.json")
    assert err.value.line == line and err.value.path == "r.json"


def test_a_value_before_any_task_header_is_refused_with_its_line() -> None:
    with pytest.raises(ParseError) as err:
        parse_results_txt(b"\nResult is : VALID\n", "p.txt")
    assert err.value.line == 2
