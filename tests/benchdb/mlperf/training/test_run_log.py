"""The log viewer (issue 13): a run's stored log as numbered lines with #L anchors and the
lines the rules read marked, the raw download under the file's own name, links pinned to
the commit the data came from; on ../shared/mlperf."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from benchdb.mlperf.training import records
from benchdb.models import Run

pytestmark = pytest.mark.django_db

V11_COMMIT = "ebe92f81f7a69255a3b0a907595d8be623d75ec6"  # ../shared/mlperf/README.md


def _run(path: str) -> Run:
    return Run.objects.select_related("result__round", "result__system").get(
        result__round__version="v1.1", path=path
    )


def _page(run: Run) -> str:
    return reverse("benchdb:run_log_page", args=(*run.result.natural_key(), run.file_name))


def test_the_log_page_numbers_every_line_and_marks_what_the_rules_read(
    client, ingested_shared, mlperf_data
):
    run = _run("Graphcore/results/ipu-pod16-TF1/resnet/result_1.txt")
    on_disk = (mlperf_data / "training_results_v1.1" / run.path).read_text().split("\n")
    html = client.get(_page(run)).content.decode()
    spans = re.findall(r'<span id="L(\d+)" class="ln( [a-z_]+)?"><a href="#L\d+"', html)
    assert [int(n) for n, _ in spans] == list(range(1, len(on_disk) + (on_disk[-1] != "")))
    marks = {int(n): m.strip() for n, m in spans if m}
    assert marks[run.run_start_line] == "run_start" and marks[run.run_stop_line] == "run_stop"
    evals = [i for i, line in enumerate(on_disk, 1) if '"key": "eval_accuracy"' in line]
    assert {n for n, m in marks.items() if m in ("eval", "target")} == set(evals)
    # the evaluation that reached 0.759 is the last one before run_stop
    (target,) = [n for n, m in marks.items() if m == "target"]
    assert target == max(e for e in evals if e < run.run_stop_line)
    assert json.loads(on_disk[target - 1].split(":::MLLOG ", 1)[1])["value"] >= 0.759
    blob = f"https://github.com/mlcommons/training_results_v1.1/blob/{V11_COMMIT}/{run.path}"
    assert f'href="{blob}"' in html


def test_the_result_page_opens_each_log_at_its_run_start(client, ingested_shared):
    run = _run("Graphcore/results/ipu-pod16-TF1/resnet/result_1.txt")
    html = client.get(run.result.get_absolute_url()).content.decode()
    assert f'href="{_page(run)}#L{run.run_start_line}"' in html
    assert f'download="{run.file_name}"' in html


def test_the_raw_log_downloads_under_the_files_own_name(client, ingested_shared):
    run = _run("Graphcore/results/ipu-pod16-TF1/resnet/result_1.txt")
    resp = client.get(run.get_absolute_url())
    assert resp["Content-Disposition"] == 'inline; filename="result_1.txt"'


def test_a_long_log_is_shown_a_window_at_a_time(client, ingested_shared, monkeypatch):
    monkeypatch.setattr(records, "LOG_WINDOW", 40)
    run = _run("Graphcore/results/ipu-pod16-TF1/resnet/result_1.txt")
    url = records.run_log_page_url(run, run.run_stop_line)
    assert url.endswith(f"#L{run.run_stop_line}") and "?start=" in url
    data = json.loads(client.get(url.split("#")[0] + "&format=json").content)
    lines = [r["line"] for r in data["rows"]]
    assert run.run_stop_line in lines and len(lines) <= 40 and lines[0] % 40 == 1
    assert data["schema"] == "benchdb.run_log_lines/1"
    html = client.get(url.split("#")[0]).content.decode()
    assert "previous lines" in html


def test_bad_windows_and_unknown_logs_are_refused(client, ingested_shared):
    run = _run("Graphcore/results/ipu-pod16-TF1/resnet/result_1.txt")
    assert client.get(_page(run), {"start": "0"}).status_code == 400
    assert client.get(_page(run), {"start": "x"}).status_code == 400
    missing = reverse("benchdb:run_log_page", args=(*run.result.natural_key(), "result_99.txt"))
    resp = client.get(missing)
    assert resp.status_code == 404 and b"Not found" in resp.content


@pytest.mark.parametrize(
    ("chunks", "lines"),
    [
        ([b"a\nb\r", b"\nc"], ["a", "b", "c"]),  # CRLF split between two pieces
        ([b"a\rb\r\n", b"c\n"], ["a", "b", "c"]),  # a lone CR ends a line
        ([b"caf\xc3", b"\xa9\n\xff\n"], ["caf\u00e9", "\ufffd"]),  # UTF-8 split; a bad byte
        ([b""], []),
        ([b"x\n\n"], ["x", ""]),
    ],
)
def test_lines_are_numbered_as_the_ingest_numbers_them(monkeypatch, chunks, lines):
    monkeypatch.setattr(records, "run_log_chunks", lambda run_id: iter(chunks))
    assert list(records._log_lines(0)) == lines
