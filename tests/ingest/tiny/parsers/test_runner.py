"""The MLPerf Tiny runner parsers (``ingest.tiny.parsers.runner``) on the real files of
tests/data/tiny-v1.2 and tiny-v1.3 (README: origin); small synthetic files for broken
lines. Pure: no database."""

from __future__ import annotations

import pytest

from ingest.parsers.types import ParseError
from ingest.tiny.parsers.runner import parse_results, parse_summary, parse_system
from tests.tiny_data import QC13, ST12, ST13, V12, V13


def _parse(root, rel: str):  # type: ignore[no-untyped-def]
    return parse_results((root / rel).read_bytes(), rel)


def test_it_reads_the_five_windows_and_the_median_of_an_energyrunner_file() -> None:
    r = _parse(V12, f"{ST12}/kws/performance/results.txt")
    assert [(w.value, w.line) for w in r.windows] == [
        (34.411, 4),
        (34.416, 9),
        (34.419, 14),
        (34.411, 19),
        (34.425, 24),
    ]
    assert [(m.value, m.line) for m in r.median_throughput] == [(34.416, 27)]
    assert "Median throughput is 34.416 inf./sec." in r.median_throughput[0].text


def test_it_reads_v12_energy_windows_and_power_in_milliwatts() -> None:
    r = _parse(V12, f"{ST12}/kws/energy/results.txt")
    assert [e.value for e in r.energies] == [656.163, 656.131, 656.062, 656.293, 656.297]
    assert r.median_energy[0].value == 656.163
    assert r.powers[0].value == pytest.approx(22.714442)  # "22714.442 uW"


def test_a_v13_results_file_with_only_the_median_has_its_windows_in_log_txt() -> None:
    r = _parse(V13, f"{QC13}/performance/results.txt")
    assert r.windows == () and r.median_throughput[0].value == 14624.973
    log = _parse(V13, f"{QC13}/performance/log.txt")
    assert [w.line for w in log.windows] == [20, 29, 38, 47, 56]
    assert log.windows[0].value == 14629.321


def test_it_reads_v13_accuracy_and_streaming_wakeword_lines() -> None:
    acc = _parse(V13, f"{ST13}/kws/accuracy/results.txt")
    assert (acc.top1[0].value, acc.auc[0].value) == (90.2, 0.995)
    sww = _parse(V13, f"{ST13}/sww/energy/results.txt")
    assert sww.detections[0][:3] == (44, 6, 4)
    assert sww.estimated_throughput[0].value == 85.789 and sww.duty_cycle[0].value == 0.36346


def test_a_figure_line_without_a_number_names_the_file_and_line() -> None:
    data = (
        b"00179.626 ulp-mlperf: ok\n00179.628 ulp-mlperf: Median throughput is 3x.416 inf./sec.\n"
    )
    with pytest.raises(ParseError) as e:
        parse_results(data, "closed/X/results/s/kws/performance/results.txt")
    assert str(e.value).startswith("closed/X/results/s/kws/performance/results.txt:2: ")
    assert "'3x.416' is not a number" in str(e.value)


def test_bytes_that_are_not_utf8_are_a_parse_error() -> None:
    with pytest.raises(ParseError, match="not UTF-8"):
        parse_results(b"\xff\xfe", "a/results.txt")


def test_a_system_description_gives_status_and_board() -> None:
    rel = "closed/STMicroelectronics/systems/NUCLEO_U575ZI_Q.json"
    d = parse_system((V12 / rel).read_bytes(), rel)
    assert (d.status, d.board_name) == ("available", "NUCLEO-U575ZI-Q")
    with pytest.raises(ParseError) as e:
        parse_system(b'{\n "Status": "Available",\n "Board Name" "x"\n}', "sys.json")
    assert e.value.line == 3 and e.value.path == "sys.json"


def test_summary_rows_are_keyed_by_result_folder_and_a_repeat_is_an_error() -> None:
    rows = parse_summary((V12 / "summary.csv").read_bytes(), "summary.csv")
    assert len(rows) == 73
    assert rows[("closed", "STMicroelectronics", "NUCLEO_U575ZI_Q", "kws")]["Result"] == "34.416"
    head = b"Organization,Division,SystemDesc,Model\n"
    with pytest.raises(ParseError) as e:
        parse_summary(head + b"a,closed,s,kws\na,closed,s,kws\n", "summary.csv")
    assert e.value.line == 3
