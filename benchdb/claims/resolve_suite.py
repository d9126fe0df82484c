"""The suite of a claim's frame, read from its sentence and its page before the rest
of the frame is resolved (the suite decides which rounds and results are meant).
Pure: no Django.

* MLPerf HPC: a sentence naming an HPC benchmark (CosmoFlow, DeepCAM, OpenCatalyst,
  OpenFold), or any claim on a page naming "MLPerf HPC" whose sentence names no
  training benchmark, is an HPC claim: its benchmark is the HPC benchmark and its round
  the HPC version the sentence, title or URL names; ``suite="hpc"`` once
  :data:`benchdb.claims.facts.SUITES` has HPC, else it stays a training claim whose
  benchmark no training result has (so it is never judged against a training result).
* MLPerf Inference: a claim the reading took as training whose sentence measures in
  inference's units or scenarios (tokens/s, samples per second, queries per watt,
  "Offline scenario"), or any non-time claim on a page that names MLPerf Inference
  and not MLPerf Training ("MLPerf 3.0 Inference"), is an inference claim, with the
  scenario and model its sentence names (:data:`INFERENCE_MODELS`: the checkers'
  model names without the accuracy variant, as ``ResultFacts.model`` holds them).
"""

from __future__ import annotations

import re
from dataclasses import replace

from benchdb.claims import resolve_words as words
from benchdb.claims.facts import SUITES, ClaimFacts
from benchdb.claims.subjects import benchmarks_named, clause_of
from benchdb.vocabulary import INFERENCE_MODEL_NAMES

#: Inference models as pages write them -> ``ResultFacts.model`` (the vocabulary's list).
INFERENCE_MODELS = INFERENCE_MODEL_NAMES
_INFERENCE_PAGE = re.compile(
    r"MLPerf[™®]?[\W_]*(?:v?\d\.\d[\W_]*)?(?:Inference|推理)|mlperf[\W_]+inference", re.I
)
_TRAINING_PAGE = re.compile(r"MLPerf[™®]?[\W_]*(?:v?\d\.\d[\W_]*)?(?:Training|训练|訓練)", re.I)
_TIMES = frozenset({"time", "head_to_head"})


def models_named(text: str) -> list[str]:
    """Inference models (:data:`INFERENCE_MODELS`) ``text`` names, in order."""
    found = [
        (m.start(), key) for pat, key in INFERENCE_MODELS for m in re.finditer(pat, text, re.I)
    ]
    return list(dict.fromkeys(k for _, k in sorted(found)))


def resolve_suite(c: ClaimFacts, sentence: str, title: str, text: str, url: str) -> ClaimFacts:
    """``c`` with its suite read from ``sentence`` and its page (``title``, cleaned
    ``text``, ``url``): module docstring. A claim read as inference already, or one
    nothing marks, is returned as it is; ``context`` gains ``suite-hpc`` or
    ``suite-words``."""
    if c.suite == "inference":
        return _training(c, sentence, f"{title}\n{url}\n{text}")
    hpc = _hpc(c, sentence, title, text, url)
    if hpc is not None:
        return hpc
    page = f"{title}\n{url}\n{text}"
    on_page = bool(_INFERENCE_PAGE.search(page)) and not _TRAINING_PAGE.search(page)
    if not (words.inference_units(sentence) or (on_page and c.kind not in _TIMES)):
        return c
    if c.kind in _TIMES and not words.inference_units(sentence):
        return c
    scenarios = words.scenarios_named(sentence)
    models = models_named(sentence)
    return replace(
        c,
        suite="inference",
        scenario=scenarios[0] if len(scenarios) == 1 else "",
        benchmark_key=models[0] if len(set(models)) == 1 else "",
        round="",  # a training round the reading found is not this claim's
        baseline="" if c.baseline.startswith("v") else c.baseline,
        # the model the training reading found no benchmark ("Llama2 70B") is inference's
        non_mlperf="" if models_named(c.non_mlperf) else c.non_mlperf,
        context=c.context + ("suite-words",),
    )


def _hpc(c: ClaimFacts, sentence: str, title: str, text: str, url: str) -> ClaimFacts | None:
    """``c`` as an MLPerf HPC claim, or None when nothing makes it one."""
    named = words.hpc_benchmarks(sentence)
    page_hpc = words.names_hpc(title) or words.names_hpc(url) or words.names_hpc(text[:3000])
    if not named and not (page_hpc and not benchmarks_named(sentence)):
        return None
    if len(named) > 1:  # "...為Cosmoflow提升5倍效能,Deepcam甚至提升7倍": each its clause's
        named = words.hpc_benchmarks(clause_of(sentence, c.value)) or named
    versions = [
        v
        for where in (sentence, title, url, text)
        for v in words.versions_named(where, "hpc")
        if v != c.baseline  # "與去年的MLPerf 0.7...相比": the gain's baseline
    ]
    return replace(
        c,
        suite="hpc" if "hpc" in SUITES else c.suite,
        benchmark_key=named[0] if len(named) == 1 else "",
        round=versions[0] if versions else "",
        context=c.context + ("suite-hpc",),
    )


_TRAINING_WORDS = re.compile(
    r"(?<![A-Za-z])training(?![A-Za-z])|time[- ]to[- ]train|训练|訓練", re.I
)
_INFERENCE_WORDS = re.compile(r"inference|推理|推論", re.I)


def _training(c: ClaimFacts, sentence: str, page: str) -> ClaimFacts:
    """A claim read as inference (its page names MLPerf Inference somewhere) whose
    sentence speaks of training and of no inference ("more than 2x faster training
    performance" on a page about MLPerf Training v5.0 that names "MLPerf Inference
    v5.0" once), on a page naming MLPerf Training: back to training, with the model,
    scenario and round of the inference reading dropped (``suite-training``)."""
    if not (_TRAINING_WORDS.search(sentence) and _TRAINING_PAGE.search(page)):
        return c
    if _INFERENCE_WORDS.search(sentence) or words.inference_units(sentence):
        return c
    return replace(
        c,
        suite="",
        benchmark_key="",
        scenario="",
        round="",
        context=tuple(t for t in c.context if t != "round-page") + ("suite-training",),
    )
