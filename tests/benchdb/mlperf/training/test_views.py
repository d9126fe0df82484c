"""Pages on the real data (../shared/mlperf): what each shows, that its CSV and JSON
carry the same rows, how many queries it costs, and that hostile systems JSON is
shown escaped and whole. Expected figures come from official_scores.csv."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils.html import escape

from benchdb.mlperf.training import selectors
from benchdb.models import Result, Run, System
from benchdb.tables import schemas
from ingest.training.service import mlperf_training_ingest
from tests.training_logs import compliant_resnet_lines

pytestmark = pytest.mark.django_db

V11_COMMIT = "ebe92f81f7a69255a3b0a907595d8be623d75ec6"  # ../shared/mlperf/README.md


# --- helpers -----------------------------------------------------------------------


def _official(official_scores, rnd: str, system: str, benchmark: str) -> float:
    (row,) = [
        r
        for r in official_scores
        if (r["round"], r["system"], r["benchmark"]) == (rnd, system, benchmark)
    ]
    return float(row["score_minutes"])


def _result(rnd: str, system: str, benchmark: str) -> Result:
    return Result.objects.get(round__version=rnd, system__folder=system, benchmark_folder=benchmark)


def _json(client, url: str, **params) -> dict:
    resp = client.get(url, {**params, "format": "json"})
    assert resp.status_code == 200, resp.content[:500]
    assert resp["Content-Type"] == "application/json"
    return json.loads(resp.content)


def _csv(client, url: str, **params) -> list[dict[str, str]]:
    resp = client.get(url, {**params, "format": "csv"})
    assert resp.status_code == 200
    assert resp["Content-Type"].startswith("text/csv")
    assert resp["Content-Disposition"].startswith('attachment; filename="benchdb-')
    return list(csv.DictReader(io.StringIO(resp.content.decode())))


def _table_rows(html: str, table_id: str) -> list[str]:
    body = html.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    return re.findall(r"<tr[ >].*?</tr>", body.split("<tbody>", 1)[1], re.S)


def _agree(client, url: str, schema: str, **params) -> list[dict]:
    """JSON and CSV of a page: same schema, columns, rows (CSV cells as text)."""
    doc = _json(client, url, **params)
    rows = _csv(client, url, **params)
    assert doc["schema"] == schema
    assert doc["columns"] == list(schemas.columns(schema))
    assert len(rows) == len(doc["rows"])
    if rows:
        assert list(rows[0]) == doc["columns"]
    for c, j in zip(rows, doc["rows"], strict=True):
        for col in doc["columns"]:
            v = j[col]
            expected = "" if v is None else str(v)
            if isinstance(v, float):
                assert float(c[col]) == v
            else:
                assert c[col] == expected, (col, c[col], v)
    return doc["rows"]


def test_table_rows_read_as_values_equal_the_rows_built_from_models(ingested_shared):
    qs = selectors.result_list()
    rows = selectors.result_table_rows(qs)
    assert len(rows) == 46
    assert rows == [selectors.result_table_row(r) for r in qs]
    assert [list(r) for r in rows[:1]] == [list(schemas.columns("benchdb.result_table/1"))]


# --- home and search ---------------------------------------------------------------


def test_training_rounds_list_each_round_with_its_counts(
    client, ingested_shared, official_scores, django_assert_num_queries
):
    # rounds; counts per round; results per round and benchmark
    with django_assert_num_queries(3):
        resp = client.get("/training/")
    html = resp.content.decode()
    rows = _agree(client, "/training/", "benchdb.rounds/1")
    assert [r["round"] for r in rows] == ["v1.0", "v1.1", "v2.0"]
    for r in rows:
        expected = [o for o in official_scores if o["round"] == r["round"]]
        assert r["results"] == r["scored"] == len(expected)
        assert r["submitters"] == len({o["submitter"] for o in expected})
        assert set(r["benchmark_keys"].split()) >= {
            o["benchmark"] for o in expected if o["benchmark"] != "maskrcnn"
        }
    assert reverse("benchdb:leaderboard", args=["v1.1", "resnet"]) in html
    assert 'name="framework"' in html and 'name="accelerator"' in html


@pytest.mark.parametrize(
    ("params", "check"),
    [
        ({"submitter": "graph"}, lambda r: r["submitter"] == "Graphcore"),
        ({"framework": "paddle"}, lambda r: "paddle" in r["framework"].lower()),
        ({"accelerator": "bow"}, lambda r: r["accelerator_model"] == "Graphcore Bow IPU"),
        (
            {"system": "pod16", "round": "v2.0"},
            lambda r: "pod16" in (r["system"] + r["system_name"]).lower() and r["round"] == "v2.0",
        ),
    ],
)
def test_search_finds_by_submitter_system_accelerator_and_framework(
    client, ingested_shared, params, check, django_assert_num_queries
):
    # count; one page of results; rounds, benchmarks, submitters, accelerators for the form
    with django_assert_num_queries(6):
        resp = client.get("/results/", params)
    rows = _agree(client, "/results/", "benchdb.result_table/1", **params)
    assert rows and all(check(r) for r in rows)
    assert len(_table_rows(resp.content.decode(), "results")) == len(rows)
    everything = _json(client, "/results/")["rows"]
    assert len([r for r in everything if check(r)]) == len(rows)


# --- leaderboard -------------------------------------------------------------------


def test_v11_resnet_leaderboard_shows_ipu_pod16_and_dgx_a100(
    client, ingested_shared, official_scores, django_assert_num_queries
):
    url = reverse("benchdb:leaderboard", args=["v1.1", "resnet"])
    # round; benchmark; filter choices; results with their joins
    with django_assert_num_queries(4):
        resp = client.get(url)
    html = resp.content.decode()
    pod16 = _official(official_scores, "v1.1", "ipu-pod16-TF1", "resnet")
    dgx = _official(official_scores, "v1.1", "dgxa100_ngc21.09_mxnet", "resnet")
    assert f"{pod16:.2f}" == "28.33" and f"{dgx:.2f}" == "29.15"
    rows = {r["system"]: r for r in _agree(client, url, "benchdb.result_table/1")}
    assert rows["ipu-pod16-TF1"]["score_minutes"] == pytest.approx(pod16, rel=1e-4)
    assert rows["dgxa100_ngc21.09_mxnet"]["score_minutes"] == pytest.approx(dgx, rel=1e-4)
    assert rows["dgxa100_ngc21.09_mxnet"]["framework"].lower().startswith("mxnet")
    for system, score in (("ipu-pod16-TF1", "28.33"), ("dgxa100_ngc21.09_mxnet", "29.15")):
        (tr,) = [t for t in _table_rows(html, "results") if f'data-id="{rows[system]["id"]}"' in t]
        assert f">{score}</span></td>" in tr  # 2 decimals; 4 on hover, every digit in CSV/JSON
        assert f'title="{rows[system]["score_minutes"]:.4f} min"' in tr
    expected = {
        o["system"] for o in official_scores if o["round"] == "v1.1" and o["benchmark"] == "resnet"
    }
    assert set(rows) == expected


def test_leaderboard_filters_are_in_the_url_and_narrow_the_table(client, ingested_shared):
    url = reverse("benchdb:leaderboard", args=["v1.1", "resnet"])
    everything = _json(client, url)["rows"]
    for params, keep in (
        ({"submitter": "Graphcore"}, lambda r: r["submitter"] == "Graphcore"),
        (
            {"accelerator": "Graphcore IPU GC200"},
            lambda r: r["accelerator_model"] == "Graphcore IPU GC200",
        ),
        (
            {"division": "closed", "availability": "available"},
            lambda r: r["division"] == "closed" and r["availability"] == "available",
        ),
    ):
        rows = _json(client, url, **params)["rows"]
        assert [r["id"] for r in rows] == [r["id"] for r in everything if keep(r)]
        html = client.get(url, params).content.decode()
        assert len(_table_rows(html, "results")) == len(rows)
        for value in params.values():
            assert f'<option value="{value}" selected>' in html


def test_leaderboard_chart_has_one_point_per_scored_result_and_equal_accelerator_minute_lines(
    client, ingested_shared
):
    url = reverse("benchdb:leaderboard", args=["v1.1", "resnet"])
    html = client.get(url).content.decode()
    fig = json.loads(
        re.search(
            r'<script id="leaderboard-chart-data" type="application/json">(.*?)</script>',
            html,
            re.S,
        ).group(1)
    )
    rows = _json(client, url)["rows"]
    points = [
        (x, y, c[0])
        for t in fig["data"]
        if t["mode"] == "markers"
        for x, y, c in zip(t["x"], t["y"], t["customdata"], strict=True)
    ]
    assert sorted(p[2] for p in points) == sorted(r["url"] for r in rows)
    by_url = {r["url"]: r for r in rows}
    for x, y, u in points:
        # x: the count, or moved aside by the dodge (0.05 decades a step, at most one)
        assert y == by_url[u]["score_minutes"]
        assert abs(math.log10(x / by_url[u]["accelerators"])) <= 0.05 + 1e-9
    # Baidu's 28.60 and 28.61 min and NVIDIA's 29.15 min at 8 accelerators
    # (official_scores.csv) sit within 0.01 decades: three x positions, a dodge step apart
    close = sorted(x for x, y, _ in points if 28 < y < 30 and x < 9)
    assert len(close) == 3 and close[1] == 8
    assert close[0] == pytest.approx(8 / 10**0.05)
    assert close[2] == pytest.approx(8 * 10**0.05)
    iso = [t for t in fig["data"] if t["mode"] == "lines"]
    assert iso and all(
        len({round(x * y, 9) for x, y in zip(t["x"], t["y"], strict=True)}) == 1 for t in iso
    )
    assert fig["layout"]["xaxis"]["type"] == fig["layout"]["yaxis"]["type"] == "log"


def test_unknown_leaderboard_is_404(client, ingested_shared):
    assert client.get(reverse("benchdb:leaderboard", args=["v9.9", "resnet"])).status_code == 404
    assert client.get(reverse("benchdb:leaderboard", args=["v1.1", "nosuch"])).status_code == 404


# --- result, run log, system -------------------------------------------------------


def _lines_of(path: Path, key: str) -> list[int]:
    return [
        i
        for i, line in enumerate(path.read_bytes().split(b"\n"), 1)
        if f'"key": "{key}"'.encode() in line
    ]


def test_result_page_works_the_olympic_mean_and_gives_provenance(
    client, ingested_shared, official_scores, mlperf_data, django_assert_num_queries
):
    result = _result("v1.1", "ipu-pod16-TF1", "resnet")
    # result with round, system, submitter, benchmark; its runs (no hyperparameters); its
    # ingest problems; the first counted run's hyperparameters, cut by the database; the
    # result IDs vendor pages cite for its system row; its versions (History)
    url = result.get_absolute_url()
    with django_assert_num_queries(6):
        resp = client.get(url)
    html = resp.content.decode()
    runs = _agree(client, result.get_absolute_url(), "benchdb.runs/1")
    assert len(runs) == 5
    counted = [r["time_to_train_minutes"] for r in runs if r["role"] == "counted"]
    official = _official(official_scores, "v1.1", "ipu-pod16-TF1", "resnet")
    assert len(counted) == 3 and sum(counted) / 3 == pytest.approx(official, rel=1e-4)
    olympic = html.split('id="olympic"', 1)[1].split("</ol>", 1)[0]
    assert f">{official:.2f}</span>" in olympic and "result_0.txt" in olympic  # result_0 failed
    assert {r["role"] for r in runs} == {"counted", "dropped_fastest", "failed"}
    repo = mlperf_data / "training_results_v1.1"
    for r in runs:
        log = repo / r["path"]
        assert [r["run_start_line"]] == _lines_of(log, "run_start")
        assert [r["run_stop_line"]] == _lines_of(log, "run_stop")
        assert r["log_url"] in html
        lines = f"#L{r['run_start_line']}-L{r['run_stop_line']}"
        # pinned to the commit ../shared/mlperf/README.md gives for v1.1
        blob = f"https://github.com/mlcommons/training_results_v1.1/blob/{V11_COMMIT}/"
        assert r["source"] == f"{blob}{r['path']}{lines}"
    provenance = html.split('id="provenance"', 1)[1].split("</dl>", 1)[0]
    assert "https://github.com/mlcommons/training_results_v1.1" in provenance
    assert "Graphcore/results/ipu-pod16-TF1/resnet" in provenance
    fig = json.loads(
        re.search(
            r'<script id="eval-chart-data" type="application/json">(.*?)</script>', html, re.S
        ).group(1)
    )
    assert len(fig["data"]) == 5 and fig["layout"]["shapes"][0]["y0"] == 0.759


def test_the_stored_log_is_served_byte_for_byte_as_plain_text(
    client, ingested_shared, mlperf_data, django_assert_num_queries
):
    run = Run.objects.get(
        result__round__version="v1.1",
        path="Azure/results/nd96amsr_a100_v4_ngc21.09_pytorch/maskrcnn/result_0.txt",
    )
    # the run; then, while the response streams, the compressed log in one piece
    url = run.get_absolute_url()
    with django_assert_num_queries(2):
        resp = client.get(url)
        body = b"".join(resp.streaming_content)
    assert resp.status_code == 200 and resp.streaming
    assert resp["Content-Type"].startswith("text/plain")
    assert resp["X-Content-Type-Options"] == "nosniff"
    assert resp["Content-Security-Policy"] == "sandbox; default-src 'none'"
    assert body == (mlperf_data / "training_results_v1.1" / run.path).read_bytes()
    missing = reverse("benchdb:run_log", args=(*run.result.natural_key(), "result_99.txt"))
    assert client.get(missing).status_code == 404
    assert client.get(reverse("benchdb:run_log_by_id", args=[10**9])).status_code == 404


def test_system_page_shows_normalized_fields_raw_json_and_all_its_results(
    client, ingested_shared, mlperf_data, django_assert_num_queries
):
    system = System.objects.get(round__version="v1.1", folder="ipu-pod16-TF1")
    # system with round and submitter; its results with their joins; its history
    url = system.get_absolute_url()
    with django_assert_num_queries(3):
        resp = client.get(url)
    html = resp.content.decode()
    raw = json.loads(
        (mlperf_data / "training_results_v1.1" / "Graphcore/systems/ipu-pod16-TF1.json").read_text()
    )
    shown = html.split('id="raw-json">', 1)[1].split("</pre>", 1)[0]
    assert (
        json.loads(shown.replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&")) == raw
    )
    fields = html.split('id="system-fields"', 1)[1].split("</table>", 1)[0]
    for value in ("IPU-POD16", "Graphcore IPU GC200", "TensorFlow 1.15 Poplar SDK 2.3.0", "16"):
        assert value in fields
    rows = _agree(client, system.get_absolute_url(), "benchdb.result_table/1")
    assert [r["benchmark"] for r in rows] == ["resnet"]


# --- compare -----------------------------------------------------------------------


def test_comparing_ipu_pod16_with_dgx_a100_gives_1_029_and_flags_the_accelerator_count(
    client, ingested_shared, official_scores, django_assert_num_queries
):
    pod16 = _result("v1.1", "ipu-pod16-TF1", "resnet")
    dgx = _result("v1.1", "dgxa100_ngc21.09_mxnet", "resnet")
    ratio = _official(official_scores, "v1.1", "dgxa100_ngc21.09_mxnet", "resnet") / _official(
        official_scores, "v1.1", "ipu-pod16-TF1", "resnet"
    )
    assert f"{ratio:.3f}" == "1.029"
    # the first result picked is the baseline unless another is chosen
    first = _json(client, "/compare/", ids=f"{pod16.pk},{dgx.pk}")["rows"]
    assert first[0]["baseline"] and first[1]["speedup"] == pytest.approx(1 / ratio, rel=1e-4)
    for ids in (f"{pod16.pk},{dgx.pk}", f"{dgx.pk},{pod16.pk}"):
        # the results with their joins
        with django_assert_num_queries(1):
            html = client.get("/compare/", {"ids": ids, "base": dgx.pk}).content.decode()
        rows = {
            r["id"]: r
            for r in _agree(client, "/compare/", "benchdb.compare/1", ids=ids, base=dgx.pk)
        }
        assert rows[dgx.pk]["baseline"] and not rows[pod16.pk]["baseline"]
        assert rows[pod16.pk]["speedup"] == pytest.approx(ratio, rel=1e-4)
        assert rows[pod16.pk]["speedup_per_accelerator"] == pytest.approx(ratio * 8 / 16, rel=1e-4)
        assert rows[pod16.pk]["flags"] == "different accelerator count (16 vs 8)"
        speedup_row = html.split("Speedup vs baseline", 1)[1].split("</tr>", 1)[0]
        assert "1.029" in speedup_row and "different accelerator count (16 vs 8)" in speedup_row
        assert "not an MLPerf metric" in html


def test_compare_flags_round_division_and_availability(client, ingested_shared):
    closed = _result("v1.0", "ipu-pod16-POPART-closed", "bert")
    open_ = _result("v1.1", "ipu-pod16-POPART-open", "bert")
    research = _result("v1.1", "tpu-v4-2048-JAX", "bert")
    rows = {
        r["id"]: r
        for r in _json(
            client, "/compare/", ids=f"{closed.pk},{open_.pk},{research.pk}", base=closed.pk
        )["rows"]
    }
    assert rows[closed.pk]["baseline"]
    flags = rows[open_.pk]["flags"]
    assert (
        "different round (v1.1 vs v1.0)" in flags and "different division (open vs closed)" in flags
    )
    assert "different accelerator count" not in flags
    assert "different availability category (research vs available)" in rows[research.pk]["flags"]
    other = _result("v1.1", "ipu-pod16-TF1", "resnet")
    mixed = {r["id"]: r for r in _json(client, "/compare/", ids=f"{closed.pk},{other.pk}")["rows"]}
    assert mixed[other.pk]["speedup"] is None and "not comparable" in mixed[other.pk]["flags"]


def test_ticked_checkboxes_redirect_to_one_shareable_ids_parameter(client, ingested_shared):
    a, b = _result("v1.1", "ipu-pod16-TF1", "resnet"), _result("v1.1", "ipu-pod64-TF1", "resnet")
    resp = client.get(f"/compare/?ids={a.pk}&ids={b.pk}")
    assert resp.status_code == 302 and resp["Location"] == f"/compare/?ids={a.pk}%2C{b.pk}"
    assert client.get("/compare/", {"ids": "1,x"}).status_code == 400


# --- divisions, software, scaling ----------------------------------------------------


def test_divisions_pair_closed_and_open_results_of_the_same_system(
    client, ingested_shared, official_scores, django_assert_num_queries
):
    # results; their counted runs; the first one's hyperparameters; rounds, benchmarks,
    # submitters, accelerators for the form
    with django_assert_num_queries(7):
        client.get("/divisions/")
    rows = _agree(client, "/divisions/", "benchdb.divisions/1", round="v1.1", submitter="Graphcore")
    pairs = {(r["closed_system"], r["open_system"]): r for r in rows}
    for size in ("16", "64", "128"):
        row = pairs[(f"ipu-pod{size}-POPART-closed", f"ipu-pod{size}-POPART-open")]
        c = _official(official_scores, "v1.1", f"ipu-pod{size}-POPART-closed", "bert")
        o = _official(official_scores, "v1.1", f"ipu-pod{size}-POPART-open", "bert")
        assert row["open_speedup"] == pytest.approx(c / o, rel=1e-4)
    assert len(rows) == 3


def test_software_view_puts_popart_against_paddlepaddle_on_bow_pod16_and_shows_progress(
    client, ingested_shared, official_scores, django_assert_num_queries
):
    params = {
        "benchmark": "bert",
        "accelerator": ["Graphcore IPU GC200", "Graphcore Bow IPU"],
        "submitter": "Graphcore",
    }
    # results with their joins; rounds, benchmarks, submitters, accelerators for the form
    with django_assert_num_queries(5):
        html = client.get("/software/", params).content.decode()
    rows = _agree(client, "/software/", "benchdb.software/1", **params)
    by = {(r["round"], r["system"]): r for r in rows}
    popart = by[("v2.0", "ipu-pod16-POPART-closed")]
    paddle = by[("v2.0", "ipu-pod16-PaddlePaddle-closed")]
    assert (popart["framework_family"], paddle["framework_family"]) == ("PopART", "PaddlePaddle")
    assert popart["accelerators"] == paddle["accelerators"] == 16
    p, q = (
        _official(official_scores, "v2.0", s, "bert")
        for s in ("ipu-pod16-POPART-closed", "ipu-pod16-PaddlePaddle-closed")
    )
    assert paddle["relative_to_fastest"] == pytest.approx(max(p, q) / min(p, q), rel=1e-4)
    # A line never joins hardware generations: GC200 in v1.0 and v1.1, Bow IPU in v2.0
    gc200 = [r for r in rows if r["line"] == "Graphcore Graphcore IPU GC200 16× PopART"]
    assert [r["round"] for r in gc200] == ["v1.0", "v1.1"]
    assert [r["sdk"] for r in gc200] == ["Poplar SDK 2.1.0", "Poplar SDK 2.3.0"]
    assert popart["line"] == "Graphcore Graphcore Bow IPU 16× PopART"
    assert popart["progress"] == 1.0  # its line's first round: no progress over GC200 claimed
    v10 = _official(official_scores, "v1.0", "ipu-pod16-POPART-closed", "bert")
    v11 = _official(official_scores, "v1.1", "ipu-pod16-POPART-closed", "bert")
    # v1.0 is printed to 0.01 min in official_scores.csv
    assert gc200[1]["progress"] == pytest.approx(v10 / v11, rel=1e-3)
    fig = json.loads(
        re.search(
            r'<script id="software-chart-data" type="application/json">(.*?)</script>', html, re.S
        ).group(1)
    )
    assert fig["layout"]["xaxis"]["ticktext"] == ["v1.0", "v1.1", "v2.0"]
    assert {t["name"] for t in fig["data"]} == {r["line"] for r in rows}
    assert len(_table_rows(html, "software")) == len(rows)


def test_graphcore_v11_resnet_scaling_efficiency(
    client, ingested_shared, official_scores, django_assert_num_queries
):
    params = {
        "submitter": "Graphcore",
        "accelerator": "Graphcore IPU GC200",
        "benchmark": "resnet",
        "round": "v1.1",
    }
    # results with their joins; rounds, benchmarks, submitters, accelerators for the form
    with django_assert_num_queries(5):
        html = client.get("/scaling/", params).content.decode()
    rows = _agree(client, "/scaling/", "benchdb.scaling/1", **params)
    t16 = _official(official_scores, "v1.1", "ipu-pod16-TF1", "resnet")
    assert [r["accelerators"] for r in rows] == [16, 64, 128, 256]
    for r in rows:
        n = r["accelerators"]
        t = _official(official_scores, "v1.1", f"ipu-pod{n}-TF1", "resnet")
        assert r["efficiency"] == pytest.approx((t16 * 16) / (t * n), rel=1e-4)
        assert r["ideal_minutes"] == pytest.approx(t16 * 16 / n, rel=1e-4)
        (tr,) = [t for t in _table_rows(html, "scaling") if f'data-id="{r["id"]}"' in t]
        assert f"{(t16 * 16) / (t * n):.3f}" in tr
    assert '"scaling-time-chart-data"' in html and '"scaling-efficiency-chart-data"' in html


def test_pickers_offer_the_combinations_that_have_data(client, ingested_shared):
    scaling = client.get("/scaling/").content.decode()
    query = "?submitter=Graphcore&amp;accelerator=Graphcore%20IPU%20GC200&amp;benchmark=resnet"
    assert f"{query}&amp;round=v1.1" in scaling
    software = client.get("/software/").content.decode()
    assert "accelerator=Graphcore%20IPU%20GC200" in software
    assert client.get("/scaling/", {"format": "csv"}).status_code == 400


def _notice(html: str) -> str:
    (text,) = re.findall(r'<p class="notice" id="default-view">(.*?)</p>', html, re.S)
    return re.sub(r"<[^>]+>", "", text)


def test_software_and_scaling_open_on_a_default_view_and_say_what_to_choose(
    client, ingested_shared
):
    # /software/: the choice with the most rounds. NVIDIA A100-SXM4-80GB (400W) has
    # ResNet-50 results in v1.0, v1.1 and v2.0 (training_results_v*/*/systems/*.json).
    html = client.get("/software/").content.decode()
    assert _notice(html).startswith("Showing resnet on NVIDIA A100-SXM4-80GB (400W)")
    assert "Choose benchmark and accelerator above" in _notice(html)
    assert 'id="software-chart"' in html and len(_table_rows(html, "software")) > 0
    assert 'id="choices"' in html
    # /scaling/: the most sizes: Graphcore GC200 ResNet-50 v1.1 (POD16, 64, 128, 256),
    # first in round order of the choices with four sizes.
    html = client.get("/scaling/").content.decode()
    assert _notice(html).startswith("Showing Graphcore on Graphcore IPU GC200, resnet, round v1.1")
    assert "Choose submitter, accelerator, benchmark above" in _notice(html)
    assert len(_table_rows(html, "scaling")) == 4
    # A submitter chosen: the index lists only that submitter's choices, the page says
    # that accelerator and benchmark are still to choose. Baidu's only choice with two
    # sizes: Bow IPU BERT v2.0 (IPU_POD16_PaddlePaddle, IPU_POD64_PaddlePaddle).
    html = client.get("/scaling/", {"submitter": "Baidu"}).content.decode()
    assert "Choose accelerator, benchmark above" in _notice(html)
    choices = _table_rows(html, "choices")
    assert len(choices) == 1 and "Graphcore Bow IPU" in choices[0] and "Baidu" in choices[0]
    assert [r.count("<td") for r in _table_rows(html, "scaling")] == [11, 11]
    # Nothing matches: say so, draw nothing.
    html = client.get("/scaling/", {"submitter": "Dell"}).content.decode()
    assert _notice(html).startswith("No submitter has results at several system sizes")
    assert 'id="scaling-time-chart"' not in html


# --- API documentation --------------------------------------------------------------


def test_api_page_documents_every_schema(client):
    html = client.get("/api/").content.decode()
    doc = json.loads(client.get("/api/", {"format": "json"}).content)["schemas"]
    assert set(doc) == set(schemas.SCHEMAS)
    for name, cols in schemas.SCHEMAS.items():
        assert f'id="{name}"' in html
        assert [c["name"] for c in doc[name]] == [c.name for c in cols]
        assert all(c.description and c.type for c in cols)


# --- hostile systems JSON -------------------------------------------------------------

HOSTILE_NAME = '<script>alert("name")</script>Pod & <b>16</b>'
HOSTILE_SUBMITTER = "Evil <i>Corp</i>"
HOSTILE_ACCEL = "<img src=x onerror=alert(1)> IPU"
HOSTILE_FRAMEWORK = ('<script>alert("fw")</script> PopART & "TF" ' + "Ω<>&'" * 2000)[:10_000]


def _mllog(key: str, value, t: float, **meta) -> str:
    rec = {
        "namespace": "",
        "time_ms": t,
        "event_type": "POINT_IN_TIME",
        "key": key,
        "value": value,
        "metadata": meta,
    }
    return ":::MLLOG " + json.dumps(rec)


def _write_hostile_repo(root: Path) -> None:
    sub = root / "Evil"
    (sub / "systems").mkdir(parents=True)
    (sub / "systems" / "x.json").write_text(
        json.dumps(
            {
                "submitter": HOSTILE_SUBMITTER,
                "division": "closed",
                "status": "available",
                "system_name": HOSTILE_NAME,
                "number_of_nodes": "1",
                "accelerators_per_node": "16",
                "accelerator_model_name": HOSTILE_ACCEL,
                "framework": HOSTILE_FRAMEWORK,
                "host_processor_model_name": "<u>cpu</u>",
                "host_processors_per_node": "2",
            }
        )
    )
    runs = sub / "results" / "x" / "resnet"
    runs.mkdir(parents=True)
    for i, minutes in enumerate((10.0, 11.0, 12.0, 13.0, 14.0)):
        t0 = 1_600_000_000_000.0
        lines = [
            _mllog("submission_benchmark", "resnet", t0),
            _mllog("submission_division", "closed", t0),
            _mllog("global_batch_size", 3200, t0),
            _mllog("init_start", None, t0),
            _mllog("init_stop", None, t0 + 1000),
            _mllog("run_start", None, t0 + 1000),
            _mllog("eval_accuracy", 0.5, t0 + 2000, epoch_num=1),
            _mllog("eval_accuracy", 0.76, t0 + 3000, epoch_num=2),
            _mllog("run_stop", None, t0 + 1000 + minutes * 60_000, status="success"),
            *compliant_resnet_lines(_mllog, t0 + 2000),
        ]
        (runs / f"result_{i}.txt").write_text("\n".join(lines) + "\n")


def test_hostile_systems_json_is_shown_escaped_and_whole_on_every_page(
    client, ingested_shared, tmp_path
):
    _write_hostile_repo(tmp_path / "evil_repo")
    mlperf_training_ingest(location=str(tmp_path / "evil_repo"), round_version="v1.1")
    result = Result.objects.get(system__submitter_folder="Evil")
    assert (
        result.score_minutes == pytest.approx(12.0) and result.system.framework == HOSTILE_FRAMEWORK
    )
    other = _result("v1.1", "ipu-pod16-TF1", "resnet")
    everything = [HOSTILE_NAME, HOSTILE_FRAMEWORK, HOSTILE_ACCEL, HOSTILE_SUBMITTER]
    pages = [
        ("/", {}, []),
        ("/results/", {}, everything),
        ("/results/", {"system": "script"}, everything),
        (reverse("benchdb:leaderboard", args=["v1.1", "resnet"]), {}, everything),
        (result.get_absolute_url(), {}, everything),
        (result.system.get_absolute_url(), {}, [*everything, "<u>cpu</u>"]),
        ("/compare/", {"ids": f"{result.pk},{other.pk}"}, everything),
        ("/divisions/", {}, [HOSTILE_SUBMITTER]),
        ("/software/", {}, [HOSTILE_ACCEL, HOSTILE_SUBMITTER]),
        (
            "/software/",
            {"benchmark": "resnet", "accelerator": HOSTILE_ACCEL, "division": "any"},
            everything,
        ),
        ("/scaling/", {}, [HOSTILE_ACCEL, HOSTILE_SUBMITTER]),
        (
            "/scaling/",
            {"submitter": HOSTILE_SUBMITTER, "accelerator": HOSTILE_ACCEL, "benchmark": "resnet"},
            [HOSTILE_NAME],
        ),
    ]
    for url, params, shown in pages:
        resp = client.get(url, params)
        assert resp.status_code == 200, url
        html = resp.content.decode()
        for raw in ("<script>alert", "<b>16</b>", "<i>Corp</i>", "<img src=x", "<u>cpu</u>"):
            assert raw not in html, (url, raw)
        for text in shown:
            assert escape(text) in html, (url, params, text[:40])
        if HOSTILE_NAME not in shown or url == "/":
            continue
        doc = json.loads(client.get(url, {**params, "format": "json"}).content)
        if "system_name" not in doc["columns"]:  # the result page's table is its runs
            continue
        rows = [r for r in doc["rows"] if r.get("id") == result.pk]
        assert len(rows) == 1 and rows[0]["system_name"] == HOSTILE_NAME, url
        assert rows[0].get("framework", HOSTILE_FRAMEWORK) == HOSTILE_FRAMEWORK
    data = client.get(result.system.get_absolute_url(), {"format": "csv"}).content.decode()
    (row,) = csv.DictReader(io.StringIO(data))
    assert row["framework"] == HOSTILE_FRAMEWORK and row["system_name"] == HOSTILE_NAME
