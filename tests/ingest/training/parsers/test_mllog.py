"""``training_mllog.loads_line``, the JSON reader of MLLOG run and power log lines: its
orjson fast path gives what ``json.loads`` (as ``mlp_parser`` reads a line: latin-1,
NaN and Infinity as floats) gives, value for value and type for type."""

from __future__ import annotations

import json
import time

import pytest

from ingest.training.parsers import mllog as training_mllog
from ingest.training.parsers.mllog import MLLOG, lines_with, loads_line


def _json(raw: bytes) -> object:
    return json.loads(raw.decode("latin-1"), parse_constant=float)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"key": "seed", "value": 1234567890123456789, "time_ms": 1715341078316.5}',
        b'{"key": "seed", "value": 18446744073709551616, "time_ms": 1}',  # 2**64: 20 digits
        b'{"key": "x", "value": [12345678901234567890123, -99999999999999999999], "t": 0}',
        b'{"key": "x", "value": 0.12345678901234567890123, "time_ms": 1e400}',
        b'{"key": "x", "value": NaN, "metadata": {"a": -Infinity}}',
        b'{"key": "caf\xe9", "value": "\\ud800", "metadata": {}}',
    ],
)
def test_a_line_reads_as_json_reads_it(raw: bytes) -> None:
    assert repr(loads_line(raw)) == repr(_json(raw))


def test_the_lines_of_real_logs_read_as_json_reads_them(mlperf_data) -> None:
    logs = sorted(mlperf_data.glob("training_results_v*/*/results/*/*/result_*.txt"))[::40]
    seen = 0
    for log in logs:
        for _, raw in lines_with(log.read_bytes(), MLLOG):
            try:
                expected = _json(raw)
            except ValueError:
                with pytest.raises(ValueError):
                    loads_line(raw)
                continue
            assert repr(loads_line(raw)) == repr(expected), f"{log}: {raw!r}"
            seen += 1
    assert len(logs) >= 10 and seen > 5_000


def test_too_deep_a_line_is_refused_before_decoding() -> None:
    with pytest.raises(training_mllog.safe_json.TooDeep):
        loads_line(b"[" * 40 + b"]" * 40)


def test_lines_are_found_in_linear_time_in_a_log_without_carriage_returns() -> None:
    """A lone ``\\r`` ends a line too; searching for the next one afresh on every line
    scanned the rest of a log without any to its end, each line: 100,000 lines of an
    8 MB log took seconds. Each byte is now looked at a bounded number of times."""
    line = b':::MLLOG {"key": "eval_accuracy", "value": 0.5, "time_ms": 1, "metadata": {}}\n'

    def best_of_three(lines: int) -> float:
        data = line * lines
        took = []
        for _ in range(3):
            start = time.perf_counter()
            found = list(lines_with(data, MLLOG))
            took.append(time.perf_counter() - start)
        assert len(found) == lines and found[-1][0] == lines
        return min(took)

    # ten times the lines: about ten times the time when linear, a hundred when not (a
    # ratio, not a wall-clock bound: a loaded CI machine once took 1.07 s for 0.2 s here)
    small, large = best_of_three(20_000), best_of_three(200_000)
    assert large < 30 * small + 0.05, (small, large)
    assert large < 10.0
    assert list(lines_with(b":::MLLOG a\r:::MLLOG b\r\n:::MLLOG c", MLLOG)) == [
        (1, b"a"),
        (1, b"b"),
        (2, b"c"),
    ]
