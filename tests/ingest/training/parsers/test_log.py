"""The MLPerf Training log parser (``ingest.training.parsers.log``), on the real logs in
../shared/mlperf and on small logs written here for the edge cases."""

from __future__ import annotations

import json
import math
import pickle
from pathlib import Path

import pytest

from benchdb import logcodec
from ingest.training.parsers import log as mlperf

V10, V11, V20 = "training_results_v1.0", "training_results_v1.1", "training_results_v2.0"


def _parse(root: Path, rel: str):
    return mlperf.parse_log((root / rel).read_bytes(), rel)


def test_a_rank_prefix_before_the_token_is_dropped(mlperf_data):
    rel = f"{V10}/NVIDIA/results/dgxa100_ngc21.05_pytorch/bert/result_0.txt"
    text = (mlperf_data / rel).read_text(encoding="latin-1")
    assert "0: :::MLLOG" in text
    run = _parse(mlperf_data, rel)
    assert run.parse_errors == ()
    assert run.run_start_ms is not None and run.run_stop_ms is not None
    assert run.key_counts["run_start"] == text.count('"key": "run_start"')


def test_a_bracket_before_the_token_is_dropped_and_crlf_lines_are_counted(mlperf_data):
    rel = f"{V11}/Dell/results/DSS8440x8A100-PCIE-40GB/resnet/result_4.txt"
    raw = (mlperf_data / rel).read_bytes()
    assert b"\r\n" in raw
    line74 = raw.split(b"\n")[73]
    assert line74.startswith(b"[:::MLLOG") and b"weights_initialization" in line74
    run = _parse(mlperf_data, rel)
    assert run.parse_errors == ()
    assert run.key_counts["weights_initialization"] == raw.count(b'"key": "weights_initialization"')
    # line numbers are the file's own: the run_stop line holds run_stop
    assert b'"run_stop"' in raw.split(b"\n")[run.run_stop_line - 1]


def test_named_prefixes_before_the_token_are_dropped(mlperf_data):
    rel = f"{V20}/Baidu/results/XMan4.0_1_node_8_A100_PaddlePaddle/bert/result_4.txt"
    lines = (mlperf_data / rel).read_bytes().split(b"\n")
    assert lines[17].startswith(b"pooled_output: :::MLLOG")
    assert lines[18].startswith(b"sequence_output:  :::MLLOG")
    run = _parse(mlperf_data, rel)
    assert run.parse_errors == ()
    assert (
        run.hyperparameters["opt_epsilon"]
        == json.loads(lines[17].split(b":::MLLOG ", 1)[1])["value"]
    )


def test_bytes_that_are_not_utf8_are_read_as_latin1(mlperf_data):
    folder = mlperf_data / V11 / "Azure/results/nd96amsr_a100_v4_ngc21.09_pytorch/maskrcnn"
    raw = (folder / "result_0.txt").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    run = mlperf.parse_log(raw, "result_0.txt")
    assert run.parse_errors == ()
    assert isinstance(run.evals[-1].value, dict) and "BBOX" in run.evals[-1].value
    assert logcodec.decompress(run.compressed_log) == raw


def test_an_aborted_run_keeps_its_status_and_line(mlperf_data):
    rel = f"{V11}/Graphcore/results/ipu-pod16-TF1/resnet/result_0.txt"
    raw = (mlperf_data / rel).read_bytes()
    run = _parse(mlperf_data, rel)
    assert run.run_stop_status == "aborted"
    assert b'"key": "run_stop"' in raw.split(b"\n")[run.run_stop_line - 1]


def _mllog(key, value, t, **meta):
    return ":::MLLOG " + json.dumps({"key": key, "value": value, "time_ms": t, "metadata": meta})


def test_a_broken_mllog_line_is_reported_with_its_line():
    data = "\n".join(
        [
            "junk",
            _mllog("run_start", None, 0),
            ':::MLLOG {"key": "eval_accuracy", "value": 0.8',
            _mllog("run_stop", None, 60000, status="success"),
        ]
    ).encode()
    run = mlperf.parse_log(data, "r/result_0.txt")
    [err] = run.parse_errors
    assert err.line == 3 and err.path == "r/result_0.txt"


def test_a_log_cut_off_before_run_stop_has_no_run_stop():
    data = "\n".join([_mllog("run_start", None, 0), _mllog("eval_accuracy", 0.5, 10, epoch_num=1)])
    run = mlperf.parse_log(data.encode(), "result_0.txt")
    assert run.run_start_line == 1 and run.run_stop_ms is None


def test_a_file_that_is_not_a_log_is_reported():
    run = mlperf.parse_log(b"\x89PNG\r\n\x1a\n not a log", "result_9.txt")
    assert run.log_format == "none" and run.parse_errors


def test_v0_6_mll_lines_are_read_in_seconds():
    data = (
        b':::MLL 1560400000.000 run_start: {"value": null, "metadata": {"lineno": 1}}\n'
        b':::MLL 1560402531.000 eval_accuracy: {"value": 0.76, "metadata": {"epoch_num": 3}}\n'
        b':::MLL 1560402532.500 run_stop: {"value": null, "metadata": {"status": "success"}}\n'
    )
    run = mlperf.parse_log(data, "result_0.txt")
    assert run.log_format == "mll-0.6"
    assert run.run_stop_ms - run.run_start_ms == pytest.approx(2532.5 * 1000)
    assert run.run_stop_status == "success" and run.evals[0].at == 3


def test_v0_5_lines_are_read_in_seconds():
    data = (
        b":::MLPv0.5.0 resnet 1541000000.000 (train.py:1) run_start\n"
        b":::MLPv0.5.0 resnet 1541000600.000 (train.py:9) "
        b'eval_accuracy: {"epoch": 4, "value": 0.75}\n'
        b':::MLPv0.5.0 resnet 1541000660.000 (train.py:9) run_stop: {"success": false}\n'
    )
    run = mlperf.parse_log(data, "result_0.txt")
    assert run.log_format == "mlperf-0.5"
    assert run.run_stop_ms - run.run_start_ms == pytest.approx(660_000)
    assert run.run_stop_status == "aborted" and run.evals[0].value == 0.75


def test_v0_6_python_dict_bodies_are_read():
    """Intel's v0.6 minigo logs print Python dicts, not JSON."""
    data = (
        b':::MLL 1560873710.141 run_start: {"value": null, "metadata": {\'lineno\': 615}}\n'
        b":::MLL 1560875622.040 run_stop: {\"value\": null, \"metadata\": {'status': 'success'}}\n"
    )
    run = mlperf.parse_log(data, "result_0.txt")
    assert run.parse_errors == () and run.run_stop_status == "success"
    assert run.run_stop_ms - run.run_start_ms == pytest.approx(1911.899 * 1000)


def test_v0_5_lines_may_have_a_space_before_the_colon():
    data = b':::MLPv0.5.0 resnet 1541000000.000 (r.py:1) opt_learning_rate : {"lr": 0.1}\n'
    run = mlperf.parse_log(data, "result_0.txt")
    assert run.parse_errors == () and run.key_counts == {"opt_learning_rate": 1}


def test_problems_per_file_are_capped_and_counted():
    data = b"\n".join([b":::MLLOG {broken"] * 500)
    run = mlperf.parse_log(data, "result_0.txt")
    assert run.parse_error_count == 500
    assert len(run.parse_errors) == mlperf.MAX_PROBLEMS_PER_FILE + 1
    assert "480 more" in run.parse_errors[-1].message


@pytest.mark.parametrize(
    "line",
    [
        b':::MLLOG {"key": "run_start", "value": null, "time_ms": 1, "metadata": "oops"}',
        b':::MLLOG {"key": ["run_start"], "value": null, "time_ms": 1, "metadata": {}}',
        b':::MLLOG {"key": "x", "value": null, "time_ms": "1.2.3", "metadata": {}}',
        b':::MLLOG {"key": "x", "value": null, "time_ms": NaN, "metadata": {}}',
        b":::MLLOG [1, 2]",
    ],
)
def test_odd_mllog_lines_are_problems_not_crashes(line):
    run = mlperf.parse_log(line + b"\n", "result_0.txt")
    assert run.parse_error_count == 1 and run.parse_errors[0].line == 1


def test_nan_values_are_kept_as_none():
    data = (
        b':::MLLOG {"key": "eval_accuracy", "value": NaN, "time_ms": 5, '
        b'"metadata": {"epoch_num": NaN}}\n'
    )
    run = mlperf.parse_log(data, "result_0.txt")
    assert run.parse_errors == () and run.evals[0].value is None and run.evals[0].at is None


def test_v0_6_times_that_are_not_numbers_do_not_crash():
    run = mlperf.parse_log(b':::MLL 1.2.3 run_start: {"value": null}\n', "result_0.txt")
    assert run.run_start_ms != run.run_start_ms  # NaN: the run has no usable time


# --- bounds (issue 9): depth, sizes, values PostgreSQL cannot store -----------------


def test_a_line_nested_950_deep_does_not_parse_and_the_run_pickles():
    """A RecursionError while pickling (parser processes) was possible at 950 levels."""
    deep = "[" * 950 + "]" * 950
    data = "\n".join(
        [
            _mllog("run_start", None, 0),
            ':::MLLOG {"key": "eval_accuracy", "value": '
            + deep
            + ', "time_ms": 5, "metadata": {}}',
            _mllog("run_stop", None, 60000, status="success"),
        ]
    ).encode()
    run = mlperf.parse_log(data, "result_0.txt")
    [err] = run.parse_errors
    assert err.line == 2 and "nested deeper than 32 levels" in err.message
    assert pickle.loads(pickle.dumps(run)) == run  # noqa: S301 - our own bytes


@pytest.mark.parametrize(
    "line",
    [
        b":::MLL 1560400000.000 run_start: " + b"[" * 5000 + b"]" * 5000,
        b":::MLL 1560400000.000 run_start: " + b"(" * 5000 + b")" * 5000,
        b":::MLPv0.5.0 resnet 1541000000.000 (r.py:1) run_start: " + b"{" * 5000,
    ],
)
def test_deep_v0_5_and_v0_6_lines_are_problems(line):
    run = mlperf.parse_log(line + b"\n", "result_0.txt")
    assert run.parse_error_count == 1 and "nested deeper" in run.parse_errors[0].message


def test_values_postgresql_cannot_store_are_changed_and_reported_with_their_lines():
    data = "\n".join(
        [
            _mllog("run_start", None, 0),
            ':::MLLOG {"key": "opt_name", "value": "lamb\\u0000", "time_ms": 1, "metadata": {}}',
            ':::MLLOG {"key": "seed", "value": ' + "9" * 401 + ', "time_ms": 1, "metadata": {}}',
            ':::MLLOG {"key": "eval_accuracy", "value": 1e400, "time_ms": 5, '
            '"metadata": {"epoch_num": 1}}',
            _mllog("eval_accuracy", 0.77, 6, epoch_num=2),
            _mllog("run_stop", None, 60000, status="success"),
        ]
    ).encode()
    run = mlperf.parse_log(data, "result_0.txt")
    assert run.parse_errors == ()
    assert run.hyperparameters == {"opt_name": "lamb\ufffd", "seed": None}
    assert [e.value for e in run.evals] == [None, 0.77]
    warnings = {(w.line, w.message) for w in run.warnings}
    assert (2, "opt_name: NUL character replaced by U+FFFD") in warnings
    assert (3, "seed: integer of 1333 bits out of range, kept as null") in warnings
    assert (4, "eval_accuracy: inf is not a finite number, kept as null") in warnings
    assert all(w.severity == "warning" for w in run.warnings)


def test_an_unknown_key_keeps_a_few_kilobytes_of_its_value():
    big = "x" * 5_000_000
    data = "\n".join(
        [
            _mllog("some_new_knob", big, 1),
            _mllog("some_list", ["y" * 200] * 60, 1),
            _mllog("k" * 300, 1, 1),
        ]
    ).encode()
    run = mlperf.parse_log(data, "result_0.txt")
    assert run.hyperparameters == {"some_new_knob": "x" * 4096}
    messages = [w.message for w in run.warnings]
    assert "some_new_knob: value of 5,000,000 characters cut to 4,096" in messages
    assert "some_list: list over 4,096 characters not kept" in messages
    assert "key of 300 characters (over 200) not kept" in messages


def test_a_time_that_is_not_finite_does_not_parse():
    run = mlperf.parse_log(
        b':::MLLOG {"key": "run_start", "value": null, "time_ms": 1e400, "metadata": {}}\n',
        "result_0.txt",
    )
    assert run.run_start_ms is None and "not a finite number" in run.parse_errors[0].message
    run = mlperf.parse_log(b":::MLL " + b"9" * 400 + b" run_start\n", "result_0.txt")
    assert math.isnan(run.run_start_ms)


def test_run_stop_logged_twice_at_different_times_is_named():
    data = "\n".join(
        [
            _mllog("run_start", None, 0),
            _mllog("run_stop", None, 60000, status="success"),
            _mllog("run_stop", None, 30000, status="success"),
        ]
    ).encode()
    run = mlperf.parse_log(data, "result_0.txt")
    assert run.repeated_times == ("run_stop",) and run.repeated_differ == ()
    assert run.run_stop_ms == 60000  # the first one, as _query_run_start_stop reads it
