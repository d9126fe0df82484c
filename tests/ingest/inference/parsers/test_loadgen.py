"""LoadGen log parsers: real logs of ../shared/mlperf-inference and small broken ones."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.inference.parsers.loadgen import (
    parse_detail_log,
    parse_spl,
    parse_summary,
    parse_text_file,
)
from tests.inference_data import INFERENCE_DATA as DATA

AMD = "inference_results_v5.1/closed/AMD/results/8xMI300X_2xEPYC_9575F/llama2-70b-99/Server"
XAVIER = "inference_results_v0.5/closed/NVIDIA/results/Xavier/resnet/SingleStream"


def read(rel: str) -> bytes:
    return (DATA / rel).read_bytes()


def mllog(key: str, value: str, *, error: bool = False) -> str:
    meta = f'{{"is_error": {"true" if error else "false"}, "is_warning": false}}'
    return f':::MLLOG {{"key": "{key}", "value": {value}, "time_ms": 1.0, "metadata": {meta}}}'


def test_it_reads_a_v51_detail_log() -> None:
    log = parse_detail_log(read(f"{AMD}/performance/run_1/mlperf_log_detail.txt"), "d.txt")
    assert log.log_format == "mllog"
    assert log.values["result_completed_tokens_per_second"] == 24593.8
    assert log.values["result_validity"] == "VALID"
    assert log.values["effective_sample_concatenate_permutation"] is True
    assert log.lines["result_validity"] == 81
    assert "loaded_qsl_set" not in log.values  # skipped: no rule reads it
    assert log.errors == ()
    assert log.problems == ()
    assert log.line_count == 122


def test_the_first_message_of_a_key_wins_and_errors_are_kept() -> None:
    text = "\n".join(
        [
            mllog("result_validity", '"VALID"'),
            "a line that is not MLLOG",
            mllog("result_validity", '"INVALID"'),
            mllog("error_runtime", '"CAS failed"', error=True),
        ]
    )
    log = parse_detail_log(text.encode(), "d.txt")
    assert log.values["result_validity"] == "VALID"
    assert log.lines["result_validity"] == 1
    assert log.errors == ((4, "CAS failed"),)


def test_a_log_cut_short_is_a_problem_on_its_last_line() -> None:
    data = read(f"{AMD}/performance/run_1/mlperf_log_detail.txt")
    lines = data.splitlines(keepends=True)
    log = parse_detail_log(b"".join(lines[:69]) + lines[69][:30], "d.txt")
    assert [(p.path, p.line) for p in log.problems] == [("d.txt", 70)]
    log = parse_detail_log(b"".join(lines[:68]) + lines[68][:300], "d.txt")  # loaded_qsl_set
    assert [(p.path, p.line) for p in log.problems] == [("d.txt", 69)]


def test_a_v05_detail_log_is_text_scanned_for_errors() -> None:
    log = parse_detail_log(read(f"{XAVIER}/performance/run_1/mlperf_log_detail.txt"), "d.txt")
    assert log.log_format == "text"
    assert log.values == {}
    data = b'"pid": 1, "tid": 1, "ts": 5ns : ERROR : something broke\n'
    assert parse_detail_log(data, "d.txt").errors == (
        (1, '"pid": 1, "tid": 1, "ts": 5ns : ERROR : something broke'),
    )


def test_it_reads_a_v05_summary() -> None:
    s = parse_summary(read(f"{XAVIER}/performance/run_1/mlperf_log_summary.txt"), "s.txt")
    assert s.result_valid is True
    assert s.values["Scenario"] == "Single Stream"
    assert s.values["90th percentile latency (ns)"] == "2037735"
    assert s.lines["90th percentile latency (ns)"] == 7


def test_a_summary_without_a_verdict_is_a_problem() -> None:
    s = parse_summary(b"Scenario : Offline\nSamples per second : 12.5\n", "s.txt")
    assert s.result_valid is None
    assert [p.message for p in s.problems] == ["no 'Result is : VALID|INVALID' line"]
    assert s.values["Samples per second"] == "12.5"


def test_it_reads_spl_samples_and_reports_bad_lines() -> None:
    data = (
        b"Time,08-07-2021 11:05:37.803,Watts,6.75,Volts,248.53,Amps,0.07,PF,0.34,Mark,x\n"
        b"Time,08-07-2021 11:05:38.803,Watts,oops\n"
    )
    spl = parse_spl(data, "spl.txt")
    assert [(s.line, s.time, s.watts) for s in spl.samples] == [
        (1, "08-07-2021 11:05:37.803", 6.75)
    ]
    assert [(p.path, p.line) for p in spl.problems] == [("spl.txt", 2)]


def test_text_files_drop_crlf() -> None:
    assert parse_text_file(b"a\r\nhash=1\r\n", "a.txt").lines == ("a", "hash=1")


@pytest.mark.fuzz
@settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "200")))
@given(st.binary(max_size=2000))
def test_the_parsers_never_raise(data: bytes) -> None:
    parse_detail_log(b":::MLLOG " + data, "d.txt")
    parse_detail_log(data, "d.txt")
    parse_summary(data, "s.txt")
    parse_spl(data, "spl.txt")
