"""MLPerf Tiny's rules (``benchdb.mlperf.tiny.rules``) against v1.2's published tables
(``summary.csv``, ``final_report_v1.2.xlsx``; tests/tiny_data.py reads them with csv and
zipfile alone) and against the lines the v1.3 runner printed (no round table is
published in the v1.3 repository). Pure: no database."""

from __future__ import annotations

import pytest

from benchdb.mlperf.tiny import rules
from tests.tiny_data import FOLDERS_V12, ST13, V12, V13, report_cells, summary


def _lines(root, rel: str) -> list[str]:  # type: ignore[no-untyped-def]
    return (root / rel).read_text().splitlines()


@pytest.mark.parametrize("folder", FOLDERS_V12)
def test_the_checker_reads_what_summary_csv_publishes(folder: str) -> None:
    """Result (``str(float(...))`` of the median throughput line), Accuracy (as matched)
    and Power of each v1.2 result of the subset equal its summary.csv row."""
    row = summary()[folder]
    model = folder.rsplit("/", 1)[-1]
    perf = rules.performance_read("v1.2", _lines(V12, f"{folder}/performance/results.txt"))
    acc = rules.accuracy_read("v1.2", model, _lines(V12, f"{folder}/accuracy/results.txt"))
    assert perf is not None and acc is not None
    assert str(perf.value) == row["Result"]
    assert acc.text == row["Accuracy"]
    assert rules.accuracy_valid(model, acc.value)
    if (V12 / folder / "energy").is_dir():
        energy = rules.energy_read("v1.2", _lines(V12, f"{folder}/energy/results.txt"), model)
        assert energy is not None and str(energy.value) == row["Power"]
    else:
        assert row["HasPower"] == "False"


def test_result_ids_number_the_published_table_as_the_report_does() -> None:
    """generate_final_report.py's numbering over all 73 rows of summary.csv gives every
    ID of the workbook (column A) to its Unique ID (column B)."""
    rows = [
        {
            "Category": r["Division"],
            "Availability": r["Availability"],
            "Submitter": r["Organization"],
            "BoardName": r["BoardName"],
            "UsedModel": r["Model"],
        }
        for r in summary().values()
    ]
    ids = rules.result_ids("v1.2", rows)
    cells = report_cells()
    published = {
        cells[f"B{ref[1:]}"]: v
        for ref, v in cells.items()
        if ref[0] == "A" and ref[1:].isdigit() and int(ref[1:]) > 3
    }
    assert len(published) == 16
    assert ids == published


def test_latency_is_1000_over_the_published_throughput_in_every_workbook_cell() -> None:
    """Each latency cell of the workbook (columns T-W, one per model; rows by SystemDesc,
    column F) is ``1000 / Result`` of summary.csv, as xlsxwriter writes it (%.16G)."""
    cells = report_cells()
    models = {col: cells[f"{col}2"] for col in "TUVW"}
    rows = {cells[f"F{n}"]: n for n in range(4, 40) if f"F{n}" in cells}
    checked = 0
    for r in summary().values():
        n = rows[r["SystemDesc"]]
        col = next(c for c, m in models.items() if m == r["Model"])
        assert f"{rules.latency_ms(float(r['Result'])):.16G}" == cells[f"{col}{n}"]
        checked += 1
    assert checked == 73


def test_the_median_of_the_five_windows_is_the_printed_median() -> None:
    """v1.2 STMicroelectronics kws: windows 34.411, 34.416, 34.419, 34.411, 34.425
    (performance/results.txt lines 4-24) -> 34.416 (line 27, summary.csv's Result)."""
    assert rules.median([34.411, 34.416, 34.419, 34.411, 34.425]) == 34.416
    assert rules.median([1.0, 2.0, 3.0, 10.0]) == 2.5  # numpy.median of an even count


def test_v13_lines_are_read_with_v13_patterns_only() -> None:
    """v1.3's runner prints "Top 1% = 90.2" and "Median throughput is     34.489": the
    v1.3 checker reads them, v1.2's patterns do not."""
    acc = _lines(V13, f"{ST13}/kws/accuracy/results.txt")
    perf = _lines(V13, f"{ST13}/kws/performance/results.txt")
    top1 = rules.accuracy_read("v1.3", "kws", acc)
    assert top1 is not None and (top1.text, top1.line) == ("90.2", 1)
    assert rules.accuracy_read("v1.2", "kws", acc) is None
    read = rules.performance_read("v1.3", perf)
    assert read is not None and (read.value, read.line) == (34.489, 27)
    assert rules.performance_read("v1.2", perf) is None


def test_v13_energy_is_the_printed_median_of_five_trials() -> None:
    """kws energy/results.txt: trials 664.472, 664.317, 664.216, 664.424, 664.501 uJ/inf.
    (lines 7-31, printed with 3 decimals) and "Median energy cost is 664.4239" (line 33,
    the runner's median of the unrounded trials)."""
    read = rules.energy_read("v1.3", _lines(V13, f"{ST13}/kws/energy/results.txt"), "kws")
    assert read is not None and (read.text, read.line) == ("664.4239", 33)
    assert abs(rules.median([664.472, 664.317, 664.216, 664.424, 664.501]) - read.value) < 0.0005


def test_streaming_wakeword_reads_the_energy_folder() -> None:
    """sww energy/results.txt: "Accuracy: 44 True positives, 6 False negatives, 4 False
    positives", duty cycle 0.36346, estimated throughput 85.789, power 11.4741 mW."""
    lines = _lines(V13, f"{ST13}/sww/energy/results.txt")
    s = rules.sww_read(lines)
    assert (s.tp, s.fn, s.fp) == (44, 6, 4)
    assert s.throughput is not None and s.throughput.value == 85.789
    assert s.duty_cycle is not None and s.duty_cycle.value == 0.36346
    assert s.f1 == 2 * 44 / (2 * 44 + 4 + 6) and s.valid
    assert rules.sww_accuracy_valid(s, closed=True)
    power = rules.energy_read("v1.3", lines, "sww")
    assert power is not None and power.value == 11.4741


@pytest.mark.parametrize(
    ("model", "value", "valid"),
    [
        ("ad", 0.849, False),
        ("ad", 0.85, True),
        ("ic", 84.9, False),
        ("kws", 90.0, True),
        ("vww", 79.9, False),
        ("vww", 80.0, True),
        ("kws", None, False),
    ],
)
def test_accuracy_targets_are_the_checkers(model: str, value: float | None, valid: bool) -> None:
    """MODEL_CONFIG accuracy-target: ad AUC 0.85, ic 85, kws 90, vww 80 (Top-1 %)."""
    assert rules.accuracy_valid(model, value) is valid


def test_the_last_matching_line_wins_as_in_the_checkers_loop() -> None:
    lines = ["x Median throughput is 1.5 inf./sec.", "x Median throughput is 2.5 inf./sec."]
    read = rules.performance_read("v1.2", lines)
    assert read is not None and (read.value, read.line) == (2.5, 2)
