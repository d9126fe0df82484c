"""Judge one MLPerf Mobile result (a task on a system), pure: the lines read, the app's
throughput recomputed from LoadGen's log (:mod:`benchdb.mlperf.mobile.rules`), and
whether the result stands.

A result is ``valid`` when its task is one of the round's (``tasks.pbtxt``), its
performance run's detail log gives a positive 90th percentile latency and
``result_validity`` ``VALID`` (what the app's ``LoadgenInfo.isResultValid`` reads), and
an accuracy was reported (the app runs accuracy mode for every submitted task). When the
app's sample count is not published (no ``result.json``), an Offline throughput is
LoadGen's ``result_samples_per_second``, said so in ``basis``.
"""

from __future__ import annotations

from benchdb.mlperf.mobile import rules
from benchdb.mlperf.mobile.rules import Inputs, Judgement, Read


def judge(x: Inputs) -> Judgement:
    """The judgement of one result (``rules.Inputs`` -> ``rules.Judgement``). Never
    raises: a missing or wrong figure is a reason the result is not valid."""
    j = Judgement()
    tasks = rules.TASKS.get(x.version, {})
    task = tasks.get(x.benchmark_id)
    if task is None:
        j.fail(
            "task of the round", "", None, f"task {x.benchmark_id!r} is not one of {x.version}'s"
        )
    j.scenario = str(x.scenario.value) if x.scenario else (task.scenario if task else "")
    if x.scenario is not None:
        j.read("read: scenario", x.scenario, f"effective_scenario = {x.scenario.value}")
        if task is not None and x.scenario.value != task.scenario:
            j.fail(
                "scenario of the task",
                x.scenario.path,
                x.scenario.line,
                f"scenario {x.scenario.value} is not the task's {task.scenario}",
            )
    _validity(j, x)
    if task is not None:
        _settings(j, task, x)
    _throughput(j, x)
    _accuracy(j, x)
    return j


def _validity(j: Judgement, x: Inputs) -> None:
    v = x.validity
    if v is None:
        j.fail("LoadGen validity", "", None, "no performance run log (mlperf_log_detail.txt)")
        return
    j.read("read: result_validity", v, f"result_validity = {v.value}")
    if v.value != "VALID":
        j.fail("LoadGen validity", v.path, v.line, f"LoadGen result is {v.value}")


def _settings(j: Judgement, task: rules.Task, x: Inputs) -> None:
    """The run's LoadGen settings against those the app requests for the task
    (:func:`rules.loadgen_settings`). A difference is shown, not held against the
    result: LoadGen's validity already says whether the run was long enough, and the
    round published such runs (SDX_Elite, run with the command line's
    ``--min_query_count 1000``)."""
    if not x.settings:
        return
    off = []
    for key, expected in rules.loadgen_settings(task).items():
        got = x.settings.get(key)
        if got is not None and got.value != expected:
            off.append(f"{key} {got.value} (the app: {expected})")
    first = next(iter(x.settings.values()))
    message = "; ".join(off) if off else "as the app requests (tasks.pbtxt)"
    j.findings.append(rules.Finding("run settings (tasks.pbtxt)", first.path, first.line, message))
    j.settings_differ = bool(off)


def _throughput(j: Judgement, x: Inputs) -> None:
    lat = x.latency90_ns
    if lat is None:
        if x.validity is not None:
            j.fail("90th percentile latency", x.validity.path, None, "no 90th percentile latency")
        return
    j.read(
        "read: 90th percentile latency", lat, f"result_90.00_percentile_latency_ns = {lat.value}"
    )
    if not isinstance(lat.value, int) or isinstance(lat.value, bool) or lat.value <= 0:
        j.fail("90th percentile latency", lat.path, lat.line, f"latency {lat.value!r} ns")
        return
    j.latency90_s = rules.latency_seconds(lat.value)
    samples = _samples(j, x)
    if j.scenario == "Offline" and samples is None:
        sps = x.samples_per_second
        if sps is None or not isinstance(sps.value, (int, float)):
            j.fail("throughput", lat.path, None, "Offline run without a sample count")
            return
        j.read("read: LoadGen samples/s", sps, f"result_samples_per_second = {sps.value}")
        j.throughput, j.basis = float(sps.value), "LoadGen result_samples_per_second"
        return
    try:
        j.throughput = rules.throughput(j.scenario, lat.value, samples)
    except ValueError as exc:
        j.fail("throughput", lat.path, lat.line, str(exc))
        return
    j.basis = "1 / latency90" if j.scenario == "SingleStream" else "samples / latency90"
    j.findings.append(
        rules.Finding(
            "recomputed: throughput (task_runner.dart _calculateThroughput)",
            lat.path,
            lat.line,
            f"{j.basis} = {j.throughput!r}",
        )
    )
    _compare(j, x.published)
    _compare_latency(j, x.published_latency)


def _samples(j: Judgement, x: Inputs) -> int | None:
    s = x.app_samples
    if s is None or j.scenario != "Offline":
        return None
    j.read("read: app sample count", s, f"measured_samples = {s.value}")
    return s.value if isinstance(s.value, int) and not isinstance(s.value, bool) else None


def _compare(j: Judgement, published: Read | None) -> None:
    """The app's exported throughput against the recomputed one (relative 1e-9: the
    app prints a double; both come from the same integers)."""
    if published is None or j.throughput is None:
        return
    p = published.value
    if not isinstance(p, (int, float)):
        return
    if float(p) == j.throughput:
        word = "equals"
    elif abs(float(p) - j.throughput) <= 1e-9 * abs(j.throughput):
        word = "equals, to the digits published,"
    else:
        word = "differs from"
    j.findings.append(
        rules.Finding(
            "published: throughput",
            published.path,
            published.line,
            f"throughput.value = {p!r} {word} the recomputed {j.throughput!r}",
        )
    )


def _compare_latency(j: Judgement, published: Read | None) -> None:
    """The app's exported 90th percentile latency against the log's (v4.1 SD8SG3
    image_segmentation_v2: 1.063229 ms exported, 1.119375 ms logged, while the exported
    throughput is the logged run's)."""
    if published is None or j.latency90_s is None:
        return
    p = published.value
    if not isinstance(p, (int, float)) or isinstance(p, bool):
        return
    same = round(float(p) * 1e9) == round(j.latency90_s * 1e9)
    word = "equals" if same else "differs from"
    j.findings.append(
        rules.Finding(
            "published: latency90",
            published.path,
            published.line,
            f"loadgen.latency90 = {p!r} s {word} the log's {j.latency90_s!r} s",
        )
    )


def _accuracy(j: Judgement, x: Inputs) -> None:
    a = x.accuracy
    if a is None:
        j.fail("accuracy run", "", None, "no accuracy reported")
        return
    j.read("read: accuracy (app, not recomputed)", a, f"accuracy = {a.text}")
    j.accuracy_text = a.text
    if isinstance(a.value, (int, float)) and not isinstance(a.value, bool):
        j.accuracy = float(a.value)
