"""MLPerf Inference pages (issue 11) on ../shared/mlperf-inference: the rounds, a round's
table, a leaderboard per model and scenario (with its power tab), a result page tracing
its value to detail-log lines and listing every rule, and a stored file by line.
Expected values come from official_results.csv."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from tests.inference_data import INFERENCE_DATA as DATA

pytestmark = pytest.mark.django_db

AMD = "/inference/v5.1/results/closed/AMD/8xMI300X_2xEPYC_9575F/llama2-70b-99/Server/"


def _official() -> list[dict[str, str]]:
    with (DATA / "official_results.csv").open(newline="") as f:
        return list(csv.DictReader(f))


def _json(client, url: str, **params) -> dict:
    resp = client.get(url, {**params, "format": "json"})
    assert resp.status_code == 200, resp.content[:300]
    return json.loads(resp.content)


def test_the_rounds_page_counts_every_round(client, ingested_inference):
    rows = {r["round"]: r for r in _json(client, "/inference/")["rows"]}
    official = _official()
    for version in ("v0.5", "v0.7", "v1.1", "v2.1", "v3.0", "v4.1", "v5.1"):
        assert rows[version]["results"] == sum(r["round"] == version for r in official)
    assert rows["v5.1"]["power"] == 6


def test_the_v51_round_table_has_a_column_per_model_and_scenario(
    client, ingested_inference, django_assert_num_queries
):
    with django_assert_num_queries(3):  # the filtered results; the filter choices (distinct);
        # changes since publication (the marks)
        html = client.get("/inference/v5.1/", {"division": "closed"}).content.decode()
    division_menu = html.split('name="division"', 1)[1].split("</select>", 1)[0]
    assert ">open<" in division_menu  # the choices are the round's, not the filtered rows'
    head = html.split('id="inference-round"', 1)[1].split("</thead>", 1)[0]
    assert "llama2-70b-99 Server" in head and "deepseek-r1 Offline" in head
    body = html.split("<tbody>", 2)[-1]
    assert "24,593.8" in body and "8xMI300X_2xEPYC_9575F" in body  # AMD llama2-70b-99 Server
    rows = _json(client, "/inference/v5.1/", division="closed")["rows"]
    assert {r["division"] for r in rows} == {"closed"}
    text = client.get("/inference/v5.1/", {"division": "closed", "format": "csv"}).content
    assert len(list(csv.DictReader(io.StringIO(text.decode())))) == len(rows)


def test_the_llama2_70b_server_leaderboard_is_best_first(client, ingested_inference):
    rows = _json(client, "/inference/v5.1/llama2-70b-99/Server/")["rows"]
    official = {
        r["location"]: float(r["value"])
        for r in _official()
        if r["round"] == "v5.1"
        and r["mlperf_model"] == "llama2-70b-99"
        and r["scenario"] == "Server"
    }
    assert {r["location"] for r in rows} == set(official)
    values = [r["value"] for r in rows]
    assert values == sorted(values, reverse=True)  # tokens/s: higher is better
    for r in rows:
        assert r["value"] == pytest.approx(official[r["location"]], rel=1e-4)
    html = client.get("/inference/v5.1/llama2-70b-99/Server/").content.decode()
    assert 'id="inference-chart"' in html and "derived figures, not MLPerf metrics" in html
    fig = json.loads(re.search(r'id="inference-chart-data"[^>]*>(.*?)</script>', html, re.S)[1])
    assert fig["layout"]["xaxis"]["type"] == "log" and fig["layout"]["yaxis"]["tickvals"]


def test_the_power_tab_shows_efficiency(client, ingested_inference):
    html = client.get("/inference/v5.1/llama3.1-8b/Offline/", {"power": "on"}).content.decode()
    table = html.split('id="inference-results"', 1)[1].split("</table>", 1)[0]
    (row,) = re.findall(r"<tr data-id.*?</tr>", table, re.S)
    official = next(
        r
        for r in _official()
        if r["location"] == "closed/Lenovo/results/SR780a_V3_B200SXMx8_TRT/llama3.1-8b/Offline"
    )
    per_watt = float(official["value"]) / float(official["power_value"])
    assert f">{per_watt:,.6g}</span> Tokens/s per W" in row and "Watts" in row


def test_a_result_page_traces_its_value_to_the_detail_log(client, ingested_inference):
    html = client.get(AMD).content.decode()
    assert re.search(r'id="value"><span title="24,593\.8">24,593\.8</span> Tokens/s', html)
    evidence = html.split('id="evidence"', 1)[1].split("</table>", 1)[0]
    log = (
        DATA
        / "inference_results_v5.1"
        / AMD.split("/results/", 1)[1].replace("closed/AMD/", "closed/AMD/results/", 1)
        / "performance/run_1/mlperf_log_detail.txt"
    )
    lines = log.read_text().split("\n")
    for key in ("result_completed_tokens_per_second", "result_validity"):
        (n,) = [i for i, ln in enumerate(lines, 1) if f'"key": "{key}"' in ln][:1]
        assert f"mlperf_log_detail.txt:{n}" in evidence, key
    assert "No rule failed" in html.split('id="findings"', 1)[1]
    assert "TEST06" in html.split('id="compliance"', 1)[1].split("</table>", 1)[0]


def test_a_stored_file_is_shown_by_line_with_the_evidence_marked(client, ingested_inference):
    folder = "closed/AMD/results/8xMI300X_2xEPYC_9575F/llama2-70b-99/Server"
    path = f"{folder}/performance/run_1/mlperf_log_detail.txt"
    url = AMD + "files/"
    html = client.get(url, {"path": path}).content.decode()
    marked = re.findall(r'<span id="L(\d+)" class="ln evidence">', html)
    assert marked and all(int(n) > 0 for n in marked)
    raw = client.get(url, {"path": path, "format": "raw"})
    assert raw.content == (DATA / "inference_results_v5.1" / path).read_bytes()
    assert raw["Content-Disposition"] == 'inline; filename="mlperf_log_detail.txt"'
    assert client.get(url, {"path": "../../etc/passwd"}).status_code == 404


def _id(location: str) -> int:
    from benchdb.models import InferenceResult

    return InferenceResult.objects.get(round__version="v5.1", source_path=location).pk


def test_compare_in_one_scenario_flags_the_differences(client, ingested_inference):
    amd = _id("closed/AMD/results/8xMI300X_2xEPYC_9575F/llama2-70b-99/Server")
    nv = _id("closed/NVIDIA/results/GB200-NVL72_GB200-186GB_aarch64x4_TRT/llama2-70b-99/Server")
    rows = _json(client, "/inference/compare/", ids=f"{amd},{nv}")["rows"]
    assert rows[0]["baseline"] and rows[1]["ratio"] == pytest.approx(49359.6 / 24593.8, 1e-4)
    assert "different accelerator count (4 vs 8)" in rows[1]["flags"]
    html = client.get("/inference/compare/", {"ids": f"{amd},{nv}"}).content.decode()
    assert 'id="refused"' not in html and "2.007" in html


def test_compare_across_scenarios_or_models_is_refused(client, ingested_inference):
    server = _id("closed/AMD/results/8xMI300X_2xEPYC_9575F/llama2-70b-99/Server")
    offline = _id("closed/AMD/results/8xMI300X_2xEPYC_9575F/llama2-70b-99/Offline")
    mixtral = _id("closed/AMD/results/8xMI300X_2xEPYC_9575F/mixtral-8x7b/Server")
    for ids, why in (
        (f"{server},{offline}", "different scenarios"),
        (f"{server},{mixtral}", "different models"),
    ):
        html = client.get("/inference/compare/", {"ids": ids}).content.decode()
        assert why in html.split('id="refused"', 1)[1].split("</p>", 1)[0]
        rows = _json(client, "/inference/compare/", ids=ids)["rows"]
        assert [r["ratio"] for r in rows] == [None, None]


@pytest.mark.parametrize(
    "args",
    [
        ("v5.1", "closed/AMD", "8xMI300X_2xEPYC_9575F", "x/y/llama2-70b-99/Server"),
        ("v0.5", "open/Some Org", "sys?#%", "a/b/mobilenet v1/single stream"),
    ],
)
def test_the_fast_permalink_is_what_reverse_gives(args):
    from django.urls import reverse

    from benchdb.mlperf.inference.selectors import inference_result_url

    version, sub, system, path = args
    division, submitter = sub.split("/")
    model, scenario = path.rsplit("/", 2)[-2:]
    want = reverse(
        "benchdb:inference_result", args=(version, division, submitter, system, model, scenario)
    )
    assert inference_result_url(version, sub, system, path) == want


def test_history_draws_one_line_per_accelerator_model_and_count(client, ingested_inference):
    """ResNet-50 Offline over the rounds here: a series never mixes accelerator models
    or counts, and its progress is a ratio of its own rounds' values."""
    rows = _json(client, "/inference/history/", model="resnet", scenario="Offline")["rows"]
    assert len({r["round"] for r in rows}) >= 5
    by_series: dict[tuple, list] = {}
    for r in rows:
        by_series.setdefault((r["accelerator"], r["accelerators"]), []).append(r)
    xavier = by_series[("NVIDIA AGX Xavier", 1)]
    assert [r["round"] for r in xavier] == ["v0.7", "v1.1"]
    html = client.get("/inference/history/", {"model": "resnet", "scenario": "Offline"})
    fig = json.loads(
        re.search(r'id="history-chart-data"[^>]*>(.*?)</script>', html.content.decode(), re.S)[1]
    )
    names = [t["name"] for t in fig["data"]]
    assert len(names) == len(set(names)) and "1 × NVIDIA AGX Xavier" in names


def test_a_result_page_gives_each_accuracy_metric_with_its_target(client, ingested_inference):
    """llama2-70b-99 in v5.1: ROUGE1/2/L at 99 % of the reference and tokens per sample
    between 90 % and 110 % of the reference (the checker's MODEL_CONFIG)."""
    html = client.get(AMD).content.decode()
    table = html.split('id="accuracy"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><td><code>([^<]+)</code></td>(.*?)</tr>", table, re.S)
    assert [m for m, _ in rows] == ["ROUGE1", "ROUGE2", "ROUGEL", "TOKENS_PER_SAMPLE"]
    rouge1 = rows[0][1]
    assert "44.4406" in rouge1 and "43.9869" in rouge1  # accuracy.txt; 99 % of 44.4312
