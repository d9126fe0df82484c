"""Frames of claims about MLPerf Storage, Tiny and Mobile results: which of these suites
a claim is about, and its benchmark, round, subject and unit as these suites' results
hold them (:mod:`ingest.claims.suite_facts`). Pure: no Django.

* **Suite.** The sentence names "MLPerf Storage" / "MLPerf Tiny" / "MLPerf Mobile"
  (存储/存儲 for Storage), or the page (title, URL, text) names exactly one of them and
  the sentence names no other MLPerf suite (Training, Inference, HPC). CosmoFlow on a
  Storage page is the Storage workload, not the HPC benchmark.
* **Benchmark** (``ResultFacts.model``): the one workload, model or task the figure's
  clause (else its sentence) names: Storage ``unet3d``/``resnet50``/``cosmoflow``; Tiny
  ``kws``/``vww``/``ic``/``ad``/``sww`` (keyword spotting, visual wake words or person
  detection, image classification, anomaly detection, streaming wakeword); Mobile
  ``image_classification``, ``object_detection``, ``image_segmentation``,
  ``natural_language_processing``, ``super_resolution``, ``stable_diffusion``. None
  or several named: "" (every benchmark a reading, or unverifiable).
* **Storage's simulated accelerator.** "H100" / "A100" in a Storage sentence names the
  accelerator DLIO simulates, not the subject: it becomes the frame's ``scenario``
  (Storage's facts hold the accelerator there: a board is per workload and
  accelerator) and the subject is the submitter.
* **Units.** A Storage bandwidth the parser read as a spec ("120 GB/s") is a throughput
  in ``GB/s`` or ``MB/s`` (:data:`BYTE_UNITS`: a decimal and a binary reading, each
  checked: :mod:`benchdb.claims.verdicts_values`).
* **Round**: the version the sentence, title, URL or text names for the suite
  (``resolve_words.versions_named``); else the round the page's date gives, by the
  rounds' publication dates (:data:`ROUND_PUBLISHED`, each suite's ``rules.PUBLISHED``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import date

from benchdb.claims import resolve_words as words
from benchdb.claims.facts import ClaimFacts, Link, ResultFacts, Verification
from benchdb.claims.readings import Reading, settle
from benchdb.claims.subjects import clause_of
from benchdb.mlperf.mobile.rules import PUBLISHED as MOBILE_PUBLISHED
from benchdb.mlperf.storage.rules import PUBLISHED as STORAGE_PUBLISHED
from benchdb.mlperf.tiny.rules import MODELS as TINY_MODELS
from benchdb.mlperf.tiny.rules import PUBLISHED as TINY_PUBLISHED

#: The suites this module frames.
OTHER_SUITES = frozenset({"storage", "tiny", "mobile"})
#: The suites this module frames, with how pages name them.
_NAMED = {
    "storage": re.compile(
        r"MLPerf[®™]?[\W_]*(?:v?\d\.\d[\W_]*)?(?:Storage|存储|存儲)|mlperf[\W_]+storage", re.I
    ),
    "tiny": re.compile(r"MLPerf[®™]?[\W_]*(?:v?\d\.\d[\W_]*)?(?:Inference:\s*)?Tiny", re.I),
    "mobile": re.compile(r"MLPerf[®™]?[\W_]*(?:v?\d\.\d[\W_]*)?Mobile", re.I),
}
_OTHER_SUITE = re.compile(
    r"MLPerf[®™]?[\W_]*(?:v?\d\.\d[\W_]*)?(?:Training|Inference(?!:\s*Tiny)|HPC|训练|訓練|推理)",
    re.I,
)

#: Publication dates of these suites' rounds, each suite's ``rules.PUBLISHED`` (the day
#: of the newest commit of the round's results repository as published: Storage v1.0
#: 2024-09-25, Tiny v1.2 2024-04-17 and v1.3 2025-09-16, Mobile v4.0 2024-05-16, v4.1
#: 2024-10-16, v5.0 2025-03-21).
ROUND_PUBLISHED: dict[str, dict[str, date]] = {
    "storage": dict(STORAGE_PUBLISHED),
    "tiny": dict(TINY_PUBLISHED),
    "mobile": dict(MOBILE_PUBLISHED),
}

#: Benchmarks as pages name them -> ``ResultFacts.model``, per suite.
BENCHMARKS: dict[str, tuple[tuple[str, str], ...]] = {
    "storage": (
        (r"3D[\s-]*U[\s-]*Net|U[\s-]*Net[\s-]*3D", "unet3d"),
        (r"ResNet[\s-]*50", "resnet50"),
        (r"Cosmo[\s-]*Flow", "cosmoflow"),
        (r"(?<![A-Za-z])BERT(?![A-Za-z])", "bert"),
    ),
    "tiny": (
        (r"keyword[\s-]+spotting|(?<![A-Za-z])KWS(?![A-Za-z])", "kws"),
        (r"visual[\s-]+wake[\s-]*words?|person[\s-]+detection|(?<![A-Za-z])VWW(?![A-Za-z])", "vww"),
        (r"image[\s-]+classification", "ic"),
        (r"anomaly[\s-]+detection", "ad"),
        (r"streaming[\s-]+wake[\s-]*words?", "sww"),
    ),
    "mobile": (
        (r"image[\s-]+classification", "image_classification"),
        (r"object[\s-]+detection", "object_detection"),
        (r"(?:image|semantic)[\s-]+segmentation", "image_segmentation"),
        (
            r"natural[\s-]+language[\s-]+processing|question[\s-]+answering|MobileBERT",
            "natural_language_processing",
        ),  # noqa: E501
        (r"super[\s-]+resolution", "super_resolution"),
        (r"stable[\s-]+diffusion|text[\s-]+to[\s-]+image", "stable_diffusion"),
    ),
}

#: Each round's benchmarks, as its rules list them: Storage v0.5 "3D UNET" and
#: "BERT-large" (MLCommons, MLPerf Storage v0.5 results page,
#: https://mlcommons.org/en/storage-results-05/, "Workloads"), v1.0 the workloads of
#: ``storage-conf/workload/*.yaml`` at mlcommons/storage tag v1.0 (unet3d, resnet50,
#: cosmoflow: ``benchdb.mlperf.storage.rules``); Tiny ``MODEL_CONFIG[version]
#: ["models"]`` of each round's submission_checker.py (``benchdb.mlperf.tiny.rules``).
ROUND_BENCHMARKS: dict[str, dict[str, tuple[str, ...]]] = {
    "storage": {"v0.5": ("unet3d", "bert"), "v1.0": ("unet3d", "resnet50", "cosmoflow")},
    "tiny": dict(TINY_MODELS),
}
#: Submitters as Chinese pages name them -> a stem of the name MLPerf Storage stores.
ALIASES = {"焱融": "YanRong", "华为": "Huawei", "華為": "Huawei", "美光": "Micron"}
#: A version without "MLPerf" before it ("2023 年发布的 v0.5 版本"): on a page about one
#: suite, a round of that suite.
_BARE_VERSION = re.compile(r"(?<![\w.])v(?P<a>\d)\.(?P<b>\d)(?![\d.])", re.I)
#: A count claim's unit that counts benchmarks.
COUNTED = frozenset({"benchmark", "model", "workload", "task"})

#: A Storage bandwidth as written -> the claim's unit (:data:`BYTE_UNITS`).
_BANDWIDTH = re.compile(r"(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<u>GB|MB)\s*(?:/\s*s(?:ec)?\b|ps\b)")
#: Byte units of a Storage claim -> (reading, factor from MiB/s): "GB" is 10^9 bytes
#: or, as some write it, GiB; each is a reading (DLIO's figure is MiB/s).
BYTE_UNITS: dict[str, tuple[tuple[str, float], ...]] = {
    "GB/s": (("GB/s (10^9 bytes)", 1.048576e-3), ("GiB/s", 1.0 / 1024.0)),
    "MB/s": (("MB/s (10^6 bytes)", 1.048576), ("MiB/s", 1.0)),
}
#: A system mention that is only a simulated accelerator ("A100s", "NVIDIA H100 GPUs").
_SIMULATED = re.compile(
    r"\W*(?:NVIDIA\W*)?(?:simulated\W*)?(?P<acc>[AHV]100)s?\W*(?:GPUs?|accelerators?)?\W*",
    re.I,
)


def suite_named(sentence: str, title: str, text: str, url: str) -> str:
    """``storage``, ``tiny`` or ``mobile`` when the claim is about that suite (module
    docstring), else ""."""
    said = [name for name, pat in _NAMED.items() if pat.search(sentence)]
    if len(said) == 1:
        return said[0]
    if said or _OTHER_SUITE.search(sentence):
        return ""
    page = f"{title}\n{url}\n{text}"
    on_page = [name for name, pat in _NAMED.items() if pat.search(page)]
    return on_page[0] if len(on_page) == 1 else ""


def benchmarks_named(suite: str, text: str) -> list[str]:
    """The ``suite``'s benchmarks ``text`` names, in order."""
    found = [
        (m.start(), key)
        for pat, key in BENCHMARKS.get(suite, ())
        for m in re.finditer(pat, text, re.I)
    ]
    return list(dict.fromkeys(k for _, k in sorted(found)))


def as_suite(c: ClaimFacts, suite: str) -> ClaimFacts:
    """``c`` as a claim of ``suite`` before the rest of its frame is resolved: the
    suite set, the benchmark, scenario and round another suite's reading gave cleared."""
    return replace(
        c,
        suite=suite,
        benchmark_key="",
        scenario="",
        round="",
        baseline="" if c.baseline.startswith("v") else c.baseline,
        context=c.context + (f"suite-{suite}",),
    )


def submitter_named(sentence: str, submitters: Iterable[str]) -> str:
    """The one submitter of ``submitters`` (the suite's, as stored: "DDN",
    "YanRongTech", "Qualcomm_Innovation_Center") ``sentence`` names as a word, by its
    name without a trailing "Tech"/"Labs" ("YanRong") or by the first word of a name of
    several (``Qualcomm``, four letters at least); "" when none or several are named."""
    for alias, stem in ALIASES.items():
        sentence = sentence.replace(alias, f" {stem} ")
    found = set()
    for name in submitters:
        first = re.split(r"[\s_\-]+", name)[0]
        stems = {name, re.sub(r"(?:Tech|Labs?|Inc\.?|Corp\.?)$", "", name).strip()}
        stems |= {first} if len(first) >= 4 and first != name else set()
        for stem in stems:
            if len(stem) >= 2 and re.search(rf"(?<![A-Za-z]){re.escape(stem)}(?![a-z])", sentence):
                found.add(name)
    return found.pop() if len(found) == 1 else ""


def frame(
    c: ClaimFacts,
    sentence: str,
    title: str,
    url: str,
    text: str,
    submitters: Iterable[str] = (),
) -> ClaimFacts:
    """``c`` (its suite set by :func:`as_suite`, its subject resolved) with its
    benchmark, Storage's simulated accelerator and bandwidth unit, its round, and its
    submitter when the sentence names one of the suite's ``submitters`` (it replaces
    the page's vendor), read as the module docstring says."""
    suite = c.suite
    named = benchmarks_named(suite, clause_of(sentence, c.value)) or benchmarks_named(
        suite, sentence
    )
    fields: dict[str, object] = {"benchmark_key": named[0] if len(named) == 1 else ""}
    if suite == "storage":
        fields |= _storage_fields(c, sentence)
    versions = [
        v
        for where in (sentence, title, url, text)
        for v in words.versions_named(where, suite)
        if v != c.baseline
    ]
    bare = [f"v{m.group('a')}.{m.group('b')}" for m in _BARE_VERSION.finditer(sentence)]
    if not words.versions_named(sentence, suite) and len(set(bare)) == 1 and bare[0] != c.baseline:
        versions.insert(0, bare[0])
    fields["round"] = versions[0] if versions else ""
    if c.kind == "count" and c.unit in COUNTED:
        listed = benchmarks_named(suite, sentence)
        fields["context"] = c.context + (f"listed:{','.join(listed)}",)
    named_submitter = submitter_named(clause_of(sentence, c.value), submitters) or (
        submitter_named(sentence, submitters)
    )
    if named_submitter:
        fields["submitter"] = named_submitter
    elif c.kind in ("multiplier", "percentage"):
        fields |= _gain_sides(c, sentence, submitters)
    return replace(c, **fields)  # type: ignore[arg-type]


#: What puts the other side of a gain after the figure ("3x the bandwidth of DDN").
_COMPARED = re.compile(r"\b(?:of|than|over|vs\.?|versus|compared (?:to|with))\b|相比|比", re.I)


def _gain_sides(c: ClaimFacts, sentence: str, submitters: Iterable[str]) -> dict[str, object]:
    """A gain's two submitters when the sentence names one before its figure and one
    after a comparing word that follows it ("DDN delivered 9.6x the bandwidth of
    Hammerspace"): the subject, and the compared side (``compared_system``: the
    submitter, matched as one by ``verdicts_values.system_matches`` in these suites);
    nothing when the figure cannot be found or either side names none or several."""
    printed = f"{c.value:g}" if c.value is not None else ""
    at = sentence.find(printed) if printed else -1
    if at < 0:
        return {}
    after = sentence[at + len(printed) :]
    word = _COMPARED.search(after)
    if word is None:
        return {}
    subject = submitter_named(sentence[:at], submitters)
    compared = submitter_named(after[word.end() :], submitters)
    if not subject or not compared or subject == compared:
        return {}
    return {"submitter": subject, "compared_system": compared}


def _storage_fields(c: ClaimFacts, sentence: str) -> dict[str, object]:
    """The simulated accelerator (``scenario``: "H100") named as the claim's system or
    in its sentence, the subject left to the submitter; a bandwidth as a throughput."""
    out: dict[str, object] = {}
    m = _SIMULATED.fullmatch(c.system)
    if m:
        out |= {"scenario": m.group("acc").upper(), "system": ""}
    else:
        said = {a.upper() for a in re.findall(r"(?<![A-Za-z])([AHV]100)(?![0-9])", sentence)}
        if len(said) == 1:
            out["scenario"] = said.pop()
    if m and c.compared_system and _SIMULATED.fullmatch(c.compared_system):
        out["compared_system"] = ""
    if c.kind == "spec" and c.value is not None:
        for b in _BANDWIDTH.finditer(sentence):
            if float(b.group("num").replace(",", "")) == c.value:
                out |= {"kind": "throughput", "unit": f"{b.group('u')}/s", "metric": ""}
                break
    return out


def verify_count(c: ClaimFacts, results: list[ResultFacts]) -> Verification | None:
    """A count of benchmarks (``kind`` ``count``, :data:`COUNTED`) in a round of these
    suites, read every way its sentence allows: as the round's benchmarks
    (:data:`ROUND_BENCHMARKS`, the rules' list) and, when the frame names a submitter,
    as the benchmarks that submitter has results on in the round (``results``: of any
    suite; the claim's are read; the reading holds only when the sentence lists that
    many benchmarks, all among them: results may be held in part). The benchmarks the
    sentence lists (context ``listed:``) must be among the round's. ``consistent`` when
    every reading holds; ``inconsistent`` only when the round's reading is the only one
    and fails; else ``unverifiable`` naming the readings. None for another claim, or a
    round whose list benchdb lacks."""
    if c.kind != "count" or c.unit not in COUNTED or c.value is None:
        return None
    of_round = ROUND_BENCHMARKS.get(c.suite, {}).get(c.round)
    if of_round is None:
        return None
    listed = next((t.split(":", 1)[1] for t in c.context if t.startswith("listed:")), "")
    named = [b for b in listed.split(",") if b]
    want = int(c.value)
    readings = [
        Reading(
            (),
            float(len(of_round)),
            len(of_round) == want and set(named) <= set(of_round),
            {"counted": "the round's benchmarks"},
            f"{c.suite} {c.round} benchmarks ({', '.join(of_round)}): {len(of_round)}",
        )
    ]
    if c.submitter:
        own = [
            r
            for r in results
            if r.suite == c.suite and r.round == c.round and r.submitter == c.submitter
        ]
        models = sorted({r.model for r in own})
        readings.append(
            Reading(
                tuple(dict.fromkeys(Link(r.pk, "subject", r.suite) for r in own))[:24],
                float(len(models)),
                # held partly, a submitter's results show only the benchmarks the
                # sentence lists: without a list of that length the reading never holds
                len(named) == want and set(named) <= set(models),
                {"counted": f"{c.submitter}'s benchmarks"},
                f"{c.submitter}'s {c.round} results on {', '.join(models) or 'none'}:"
                f" {len(models)}",
            )
        )
    details: dict[str, object] = {"counted": "benchmarks", "listed": named}
    v = settle(readings, details)
    if v.verdict == "inconsistent" and len(readings) > 1:
        return Verification("unverifiable", details=v.details)
    return v
