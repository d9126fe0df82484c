"""What claim verification reads and returns, and the rules it applies to one value:
the stored result (:class:`ResultFacts`), the claim (:class:`ClaimFacts`), links and
verdicts (:class:`Link`, :class:`Verification`), run-to-run tolerance, which results a
system mention names, and how a claimed value is compared. Pure: no Django.
:mod:`benchdb.claims.verdicts` decides the verdicts from them.

Times are minutes unless a unit says otherwise (``s``, ``h``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import date, timedelta
from typing import Any

from benchdb import suites as registry
from benchdb.claims.subjects import family_matches, family_of, memory_fits
from benchdb.vocabulary import ROUND_PUBLISHED

#: Benchmarks MLCommons counts as imaging ("Vision" in its benchmark table).
IMAGE_BENCHMARKS = frozenset({"resnet", "ssd", "retinanet", "maskrcnn", "unet3d"})


@dataclass(frozen=True)
class Suite:
    """How claims about one MLPerf suite are checked: a row of :data:`SUITES`, data
    only. ``other_kinds`` and ``other_metrics``: claim kinds and metrics
    (``ClaimFacts.kind``, ``.metric``) that are not this suite's (``not-mlperf``);
    ``metric_label``: how the reason names the suite's own metric.
    ``checks``: which family of checks its claims get (``time-to-train``:
    :mod:`benchdb.claims.verdicts`; ``throughput``: :mod:`benchdb.claims.verdicts_values`).
    ``tolerance``: ``run-to-run`` (``run_to_run[benchmark]``, else ``default``) or
    ``printed-digits`` (:func:`printed_tolerance` of the claimed figure, at least
    ``default``); ``source`` cites it. ``unverified_not_mlperf``: whether a claim the
    page itself calls unverified (not the submitted numbers) is ``not-mlperf``; else it
    is checked like any other and flagged ``unverified-result``."""

    name: str
    title: str
    other_kinds: frozenset[str]
    other_metrics: frozenset[str]
    metric_label: str
    checks: str
    tolerance: str
    default: float
    run_to_run: Mapping[str, float] = field(default_factory=dict)
    source: str = ""
    unverified_not_mlperf: bool = False


#: How claims are checked, by family (``benchdb.suites.Suite.claim_checks``): a suite's
#: row is its family's, named after the suite (:data:`SUITES`).
CHECKS: Mapping[str, Suite] = {
    "time-to-train": Suite(
        name="training",
        title="MLPerf Training",
        other_kinds=frozenset({"spec", "throughput"}),
        other_metrics=frozenset(
            {"throughput", "clock", "compute", "memory", "cost", "process", "power"}
            | {"days of training"}
        ),
        metric_label="time to train",
        checks="time-to-train",
        tolerance="run-to-run",
        default=0.05,
        run_to_run={b: 0.025 for b in IMAGE_BENCHMARKS},
        source="MLCommons, MLPerf Training results page (https://mlcommons.org/en/"
        'training-normal-05/): "Imaging benchmark results are very roughly +/- 2.5% and'
        ' other benchmarks are very roughly +/- 5%"',
        unverified_not_mlperf=True,
    ),
    "throughput": Suite(
        name="inference",
        title="MLPerf Inference",
        other_kinds=frozenset({"spec"}),
        other_metrics=frozenset({"clock", "compute", "memory", "cost", "process", "hardware"}),
        metric_label="throughput, latency or energy",
        checks="throughput",
        tolerance="printed-digits",
        default=0.0005,
        source="An MLPerf Inference result is one LoadGen performance run: the checker"
        " reads performance/run_1 only from v1.0 (../shared/mlperf-inference/README.md"
        ' "Directory layout by era"; INFERENCE_SCORING.md), so there is no run-to-run'
        " spread to allow for; a claim may differ from the result only by the rounding"
        " of its printed digits (half a unit of its last significant digit), at least"
        " 0.05%",
    ),
}


def suites_from(rows: Iterable[registry.Suite]) -> dict[str, Suite]:
    """A claims row per registry suite that names a family of checks (``claim_checks``):
    the family's :data:`CHECKS` row with the suite's name and label. Raises KeyError for
    an unknown family."""
    return {
        s.name: replace(CHECKS[s.claim_checks], name=s.name, title=s.label)
        for s in rows
        if s.claim_checks
    }


#: The suites claims are checked against, read from the registry (``benchdb/suites.py``):
#: a new suite needs a ``claim_checks`` there and its results' :class:`ResultFacts`
#: (``suite``), not an edit here.
SUITES: Mapping[str, Suite] = suites_from(registry.SUITES)


def suite_of(name: str) -> Suite:
    """The :data:`SUITES` row of a claim's or result's suite ("" is training: claims
    stored before suites existed). Raises KeyError on an unknown suite."""
    return SUITES[name or "training"]


def printed_tolerance(claimed: float) -> float:
    """Relative rounding of a printed figure: half a unit of its last significant
    digit over the figure (865,000 -> 500 / 865000; 4.4 -> 0.05 / 4.4; 30 -> 5 / 30:
    trailing zeros of a whole number are not significant). 0 for 0."""
    if not claimed:
        return 0.0
    text = f"{abs(claimed):.10g}"
    if "e" in text:
        text = f"{abs(claimed):f}".rstrip("0").rstrip(".")
    if "." in text:
        half = 0.5 * 10.0 ** -len(text.split(".")[1])
    else:
        half = 0.5 * 10.0 ** (len(text) - len(text.rstrip("0")))
    return half / abs(claimed)


def tolerance(benchmark: str, suite: str = "training", claimed: float | None = None) -> float:
    """Tolerance of a claimed figure against a ``suite``'s result, as a fraction
    (:data:`SUITES`): training's run-to-run spread, 0.025 for imaging benchmarks
    (:data:`IMAGE_BENCHMARKS`) and 0.05 for the others; inference's rounding of the
    ``claimed`` figure's printed digits (:func:`printed_tolerance`), at least 0.05%.
    Sources: :attr:`Suite.source`. Raises KeyError on an unknown suite."""
    s = suite_of(suite)
    if s.tolerance == "printed-digits":
        return max(s.default, printed_tolerance(claimed or 0.0))
    return s.run_to_run.get(benchmark, s.default)


def gain_tolerance(
    kind: str, claimed: float, benchmark: str = "", suite: str = "inference", qualifier: str = ""
) -> float:
    """Tolerance (a fraction of the ratio) of a gain claimed as ``kind`` ``multiplier``
    (``claimed`` is the ratio, "1.6x") or ``percentage`` (``claimed`` in percent, "40%"),
    for the ratio of two results' values. A multiplier's printed digits bound the ratio
    itself ("2.3x": 2.25-2.35x; "3x": 2.5-3.5x, so "nearly 3x" reads 2.79x): the text
    allows every ratio that rounds to it. Inference (printed digits): that, or for a
    percentage the digits bound the percentage points, not the ratio ("40%": 35-45%, a
    ratio of 1.35-1.45, so half a unit of its last digit, 5 points, over the claimed
    ratio 1.40: 3.6%, not 12.5%), at least the suite's default. Training (run-to-run):
    :func:`tolerance`, the same fraction as a time's, or a multiplier's printed digits
    when wider and the figure is no bound (``qualifier`` "more than", "at least", "less
    than": "over 4x" is not 3.68x). Raises KeyError on an unknown suite."""
    s = suite_of(suite)
    bound = qualifier in ("more than", "at least", "less than")
    printed = printed_tolerance(claimed) if kind == "multiplier" and not bound else 0.0
    if s.tolerance != "printed-digits":
        return max(tolerance(benchmark, suite, claimed), printed)
    if kind != "percentage":
        return tolerance(benchmark, suite, claimed)
    ratio = 1.0 + claimed / 100.0
    if ratio <= 0:
        return s.default
    points = printed_tolerance(claimed) * abs(claimed) / 100.0
    return max(s.default, points / ratio)


#: Days before a round's publication that pages already report it: MLCommons briefs
#: the press under embargo, and reposts are dated by the writer's time zone (EE Times'
#: "Nvidia leads, Habana challenges" on MLPerf Training v3.0 is dated June 26, 2023,
#: the round June 27: tests/data/vendor-pages/README.md).
PRESS_LEAD_DAYS = 3


def round_for_date(
    published: date | None, rounds: Mapping[str, date] | None = None, lead_days: int = 0
) -> str:
    """The latest round published on or before ``published`` plus ``lead_days`` ("" when
    none is, or no date). ``rounds``: round -> publication date (default
    :data:`ROUND_PUBLISHED`); ``lead_days``: :data:`PRESS_LEAD_DAYS` for a page's date."""
    if published is None:
        return ""
    table = rounds if rounds is not None else ROUND_PUBLISHED
    until = published + timedelta(days=lead_days)
    before = [(d, r) for r, d in table.items() if d <= until]
    return max(before)[1] if before else ""


@dataclass(frozen=True)
class ResultFacts:
    """What verification reads from a stored result (``benchdb.models.Result`` or
    ``InferenceResult``, and its system). ``round``: ``"v1.1"``; ``benchmark``:
    canonical key (inference: the checker's model with its accuracy variant,
    ``llama2-70b-99``); ``score_minutes``: the olympic mean, minutes (training).
    ``suite``: a :data:`SUITES` key; ``value`` in ``unit`` (``metric`` names what it
    measures, ``higher_is_better``) is the suite's figure: for inference the
    recomputed LoadGen value (``Tokens/s``, ``Samples/s``, ``Queries/s``,
    ``Latency (ms)``); ``model``: the benchmark without its accuracy variant
    (``llama2-70b``); ``scenario``: ``Offline``, ``Server``, ``Interactive``...;
    ``category``: ``datacenter``, ``edge`` or both; ``power`` in ``power_unit`` (an
    inference power result: average ``Watts`` for Offline/Server, energy per query
    for the latency scenarios; None without a power run); ``processor``: the systems
    JSON's ``host_processor_model_name`` ("Intel(R) Xeon(R) Gold 6258R CPU @ 2.70GHz"),
    what a CPU-only system is named by, ``processors`` how many a node holds;
    ``processor_cores`` and ``processor_clock`` its ``host_processor_core_count`` and
    ``host_processor_frequency`` as written ("56", "2.8GHz"; "" when absent). Training
    rows keep the defaults (their figure is ``score_minutes``)."""

    def label(self) -> str:
        """How a claim's page names the result among those tried: ``"v3.0 NVIDIA
        dgxh100_n64_nemo (512 x NVIDIA H100-SXM5-80GB, closed): 64.26 min"``."""
        hw = f"{self.accelerators} x {self.accelerator_model}" if self.accelerators else ""
        figure = (
            f"{self.score_minutes:.2f} min"
            if self.score_minutes is not None
            else f"{self.value:g} {self.unit}"
            if self.value is not None
            else "no score"
        )
        what = ", ".join(x for x in (hw, self.division) if x)
        return f"{self.round} {self.submitter} {self.system_folder} ({what}): {figure}"

    pk: int
    round: str
    submitter: str
    system_folder: str
    system_name: str
    division: str
    availability: str
    accelerators: int | None
    accelerator_model: str
    framework: str
    benchmark: str
    score_minutes: float | None
    nodes: int | None = None
    result_id: str = ""
    suite: str = "training"
    metric: str = "time-to-train"
    unit: str = "min"
    higher_is_better: bool = False
    value: float | None = None
    model: str = ""
    scenario: str = ""
    category: str = ""
    power: float | None = None
    power_unit: str = ""
    processor: str = ""
    processors: int | None = None
    processor_cores: str = ""
    processor_clock: str = ""


#: ``ClaimFacts.non_mlperf`` of a figure measured at batch size 1 ("~85 tokens/sec with
#: vLLM (FP16, batch=1)"): MLPerf leaves the batch size to the submitter and states it in
#: no result, so the measurement is no MLPerf result the text names (checked: none).
BATCH_ONE = "batch size 1"


@dataclass(frozen=True)
class ClaimFacts:
    """A claim as verification reads it. The parser's claim
    (``ingest.claims.parsers.types.Claim``) extends it with where the claim stands in
    the text, so one shape serves both; a stored claim comes back through
    :meth:`from_mapping`. ``round`` must be resolved before verifying (named, or the
    page's date: :func:`round_for_date`).

    ``kind``: ``time``, ``head_to_head``, ``multiplier``, ``percentage``, ``scale``,
    ``parity``, ``spec``, ``throughput`` or ``count``. ``value``/``compared_value``
    in ``unit`` (``min``, ``s``, ``h``, ``%``, ``x``, ``GPU``...), None when the page's
    number is no finite figure. ``qualifier``: normalized (``up to``, ``nearly``,
    ``about``, ``more than``, ``at least``, ``just over``, ``less than``, ``only``).
    ``benchmark_key``: a benchdb benchmark key or "". ``non_mlperf`` names a model that
    is not an MLPerf benchmark (``EfficientNet-B4``) or says "stated" when the text says
    the figure is not from MLPerf. ``baseline``: for a gain, what it is measured
    against: ``first-submission``, ``previous-round``, ``other-product``, a round
    (``v0.7``) or ``round-not-named`` (another product, of no round the text names).
    ``metric``: ``time-to-train`` or a non-MLPerf metric (``throughput``, ``clock``,
    ``compute``, ``memory``, ``cost``, ``process``). ``implied_value``: what
    the sentence's own two times give. ``context`` lists the attributes taken from
    elsewhere (``system`` from an earlier sentence, ``round-date`` from the date,
    ``round-page`` from the round the page names). ``suite``: a :data:`SUITES` key, ""
    for training (claims stored before suites existed); ``scenario``: an MLPerf
    Inference scenario the text names, "" when none. ``value_high``: a range's upper
    figure ("2-3x", "7-54%": ``value`` the lower one, ``qualifier`` "at least").
    ``compared_submitter``: the compared side's company when the text names it apart
    from its product ("Eos and Azure each used 10,752 H100s. They ...": Azure's H100).
    """

    kind: str
    value: float | None
    unit: str
    qualifier: str = ""
    system: str = ""
    accelerators: int | None = None
    submitter: str = ""
    framework: str = ""
    benchmark_key: str = ""
    round: str = ""
    division: str = ""
    result_ids: tuple[str, ...] = ()
    compared_value: float | None = None
    compared_system: str = ""
    compared_accelerators: int | None = None
    compared_framework: str = ""
    compared_submitter: str = ""
    baseline: str = ""
    metric: str = ""
    non_mlperf: str = ""
    mlperf_context: bool = True
    per_accelerator: bool = False
    unverified: bool = False
    implied_value: float | None = None
    context: tuple[str, ...] = ()
    suite: str = ""
    scenario: str = ""
    value_high: float | None = None

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], **override: Any) -> ClaimFacts:
        """Build from a dict (``Claim.as_dict()`` or its stored JSON); unknown keys are
        ignored, lists become tuples."""
        names = {f.name for f in fields(cls)}
        kw: dict[str, Any] = {
            k: tuple(v) if isinstance(v, list) else v
            for k, v in {**data, **override}.items()
            if k in names
        }
        return cls(**kw)


@dataclass(frozen=True)
class Link:
    """A result a claim rests on: ``role`` is ``subject`` (the claimed system),
    ``compared`` (the other side of a comparison) or ``baseline`` (the earlier
    result a gain is measured from); ``result`` is the pk of a result of ``suite``."""

    result: int
    role: str
    suite: str = "training"


@dataclass(frozen=True)
class Verification:
    """Outcome of :func:`verify_claim`. Values are in the claim's unit
    (``recomputed_value`` for the subject, ``compared_recomputed_value`` for the other
    side); ``details`` explains (tolerance, readings, reason, candidates...)."""

    verdict: str
    recomputed_value: float | None = None
    compared_recomputed_value: float | None = None
    links: tuple[Link, ...] = ()
    flags: tuple[str, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)


# --- helpers ------------------------------------------------------------------------

_PER_MINUTE = {"min": 1.0, "s": 1 / 60.0, "h": 60.0, "d": 1440.0}


def to_unit(minutes: float, unit: str) -> float:
    """Minutes -> ``unit`` (``min``, ``s``, ``h``)."""
    return minutes / _PER_MINUTE.get(unit, 1.0)


@functools.lru_cache(maxsize=65536)  # asked of every stored result's names per claim
def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


_POD = re.compile(r"(ipu|bow)pod(\d+)")


def system_matches(mention: str, r: ResultFacts, accelerators: int | None = None) -> bool:
    """Whether a vendor's system mention names the system of result ``r``.

    ``IPU-POD16``/``Bow Pod16``: a Graphcore system of 16 IPUs (``Bow`` needs Bow IPUs);
    ``DGX A100``/``DGX H100``: NVIDIA's DGX folders, one node unless ``accelerators``
    says how many; ``DGX SuperPOD``: a multi-node DGX; a product family as marketed
    (``H100``, ``8x H100``, ``Gaudi2 accelerators``, ``MI350 Series``, ``Blackwell``:
    :func:`benchdb.claims.subjects.family_matches` on the accelerator model);
    otherwise the system's name or folder, ignoring case and punctuation.
    ``accelerators``, when given, must equal the system's count.
    """
    key = _norm(mention)
    if not key:
        return False
    name, folder, accel = _norm(r.system_name), _norm(r.system_folder), _norm(r.accelerator_model)
    if accelerators is not None and r.accelerators is not None and r.accelerators != accelerators:
        return False
    pod = _POD.fullmatch(key)
    if pod:
        sizes = {int(m.group(2)) for hay in (name, folder) for m in _POD.finditer(hay)}
        return (
            int(pod.group(2)) in sizes
            and "ipu" in accel
            and (pod.group(1) != "bow" or "bow" in accel)
        )
    if key in ("dgxa100", "dgxh100"):
        named = folder.startswith(key) or key in name
        return named and (accelerators is not None or (r.nodes or 1) == 1)
    if key == "dgxsuperpod":
        return folder.startswith("dgx") and (r.nodes or 1) > 1
    family = family_of(mention)
    if family:
        return family_matches(family, r, accelerators) and memory_fits(mention, r.accelerator_model)
    # a cluster named as such ("Eos"): the first word of the system's name
    # ("Eos-dfw_n1344", "Eos_n128"), as MLPerf names a cluster's systems
    first = _norm(re.split(r"[-_\s]", r.system_name.strip(), maxsplit=1)[0])
    if key.isalpha() and len(key) >= 3 and key == first and key != name:
        return True
    return key in (name, folder) or (len(key) >= 5 and (key in name or key in folder))


def submitter_matches(named: str, r: ResultFacts) -> bool:
    """Whether a page's submitter or vendor name is result ``r``'s submitter, ignoring
    case and punctuation; a vendor names its own submitting arm too (``Intel`` is
    ``Intel-HabanaLabs``)."""
    return submitter_name_matches(named, r.submitter)


def submitter_name_matches(named: str, submitter: str) -> bool:
    """:func:`submitter_matches` on a submitter's name (or its results folder's)."""
    key = _norm(named)
    if not key:
        return False
    # a joint submission ("Azure+NVIDIA", "CoreWeave + IBM + NVIDIA") is each member's
    members = [submitter, *re.split(r"\s*(?:\+|&|,| and )\s*", submitter)]
    keys = (key, *_ARMS.get(key, ()))
    return any(_norm(m).startswith(k) for m in members if m for k in keys)


#: A company's submitting arm under another name, as MLPerf results name it: Intel's
#: Habana Labs submitted as ``Intel-HabanaLabs`` (Training v2.0-v3.1), ``HabanaLabs``
#: (Training v4.0 systems JSON ``submitter``) and ``Intel`` (v4.1); a page names either.
_ARMS: dict[str, tuple[str, ...]] = {"intel": ("habana",), "habana": ("intelhabana",)}


def candidates(
    results: Iterable[ResultFacts],
    *,
    round: str,
    benchmark: str,
    system: str = "",
    submitter: str = "",
    framework: str = "",
    division: str = "",
    accelerators: int | None = None,
) -> list[ResultFacts]:
    """Scored results of ``round`` and ``benchmark`` that the mention can mean:
    by system (:func:`system_matches`; the ``submitter``'s own among them when it has
    any; none when the submitter has no result of the benchmark in the round at all)
    or, when no system is named, by submitter (:func:`submitter_matches`) and
    ``accelerators``; none when neither is given."""
    out = [
        r
        for r in results
        if r.round == round and r.benchmark == benchmark and r.score_minutes is not None
    ]
    if system:
        everyone = out
        out = [r for r in out if system_matches(system, r, accelerators)]
        if submitter:  # the vendor's own results of a family, when it has any
            own = [r for r in out if submitter_matches(submitter, r)]
            # another's product on the vendor's page ("Graphcore ... vs DGX A100") when
            # the vendor submitted in the round; a vendor with no result in the round
            # at all ("Azure ... in MLPerf Training 4.0") names a result that is not there
            if own or not any(submitter_matches(submitter, r) for r in everyone):
                out = own
    elif submitter:
        out = [
            r
            for r in out
            if submitter_matches(submitter, r)
            and (accelerators is None or r.accelerators == accelerators)
        ]
    else:
        return []
    if framework:
        out = [r for r in out if framework.lower() in r.framework.lower()] or out
    if division:
        out = [r for r in out if r.division == division]
    return out


def within(claimed: float, recomputed: float, tol: float, qualifier: str = "") -> bool:
    """Does ``recomputed`` support ``claimed`` (same unit) within ``tol`` (fraction)?

    No qualifier, "about", "nearly", "up to", "only": relative difference <= tol.
    "more than"/"at least": recomputed >= claimed x (1 - tol). "less than":
    recomputed <= claimed x (1 + tol). "just over": claimed x (1 - tol) <=
    recomputed <= claimed x (1 + 2 tol). Raises ZeroDivisionError if recomputed is 0.
    """
    if qualifier in ("more than", "at least"):
        return recomputed >= claimed * (1 - tol)
    if qualifier == "less than":
        return recomputed <= claimed * (1 + tol)
    if qualifier == "just over":
        return claimed * (1 - tol) <= recomputed <= claimed * (1 + 2 * tol)
    return abs(claimed - recomputed) / abs(recomputed) <= tol


def percent_readings(old_minutes: float, new_minutes: float) -> dict[str, float]:
    """Both readings of "N% better" from an old and a new time (minutes, > 0):
    ``time_reduction`` = (old - new) / old x 100, ``speedup`` = (old / new - 1) x 100."""
    return {
        "time_reduction": (old_minutes - new_minutes) / old_minutes * 100.0,
        "speedup": (old_minutes / new_minutes - 1.0) * 100.0,
    }


def claimed_ratio(percent: float, reading: str) -> float:
    """The old/new time ratio a percentage claims under a reading (see
    :func:`percent_readings`); raises ZeroDivisionError for a 100% time reduction."""
    if reading == "time_reduction":
        return 1.0 / (1.0 - percent / 100.0)
    return 1.0 + percent / 100.0


def arithmetic_ok(claimed: float, implied: float) -> bool:
    """A claim's own arithmetic: equal once rounded to the claimed digits, or within
    1% (45.9x claimed, 45.90x implied by 70 min / 91.5 s)."""
    digits = len(f"{claimed:g}".split(".")[1]) if "." in f"{claimed:g}" else 0
    return round(implied, digits) == round(claimed, digits) or abs(implied - claimed) <= 0.01 * abs(
        claimed
    )
