"""The shared vocabulary of benchdb: rounds, benchmarks and their spellings,
framework families, availability categories and claim verdicts. Pure: no Django.

Every parser, rule, claim check and page reads these names from here, so a new
round or benchmark is added in one place (``tests/benchdb/test_vocabulary.py``
checks that every benchmark has a display name and claim patterns, and every round
a publication date and rule tag).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date

# --- rounds -----------------------------------------------------------------------

#: MLPerf Training rounds: publication date (MLCommons press release) and the tag of
#: mlcommons/logging whose rules scored it (``ruleset_for`` reads the tag).
ROUNDS: dict[str, tuple[date, str]] = {
    "v0.5": (date(2018, 12, 12), "none (no summarizer existed for v0.5)"),
    "v0.6": (date(2019, 7, 10), "f4711df (first summarizer, 2020-06-03)"),
    "v0.7": (date(2020, 7, 29), "0.7.0"),
    "v1.0": (date(2021, 6, 30), "1.0.0"),
    "v1.1": (date(2021, 12, 1), "1.1.0-rc4"),
    "v2.0": (date(2022, 6, 29), "2.0.0"),
    "v2.1": (date(2022, 11, 9), "2.1.0"),
    # From 3.0 on mlcommons/logging has no final tag: the last release candidate
    # tagged before the round's publication (``git log -1 --format=%cs <tag>``).
    "v3.0": (date(2023, 6, 27), "3.0.0-rc2"),
    "v3.1": (date(2023, 11, 8), "3.1.0-rc3"),
    "v4.0": (date(2024, 6, 12), "4.0.0-rc3-rcp-prunning"),
    "v4.1": (date(2024, 11, 13), "4.1.0-rc4"),
    "v5.0": (date(2025, 6, 4), "5.0.0-rc3"),
    "v5.1": (date(2025, 11, 12), "5.1.0-rc4"),
    # mlcommons.org/2026/06/mlperf-training-v6-0-results (June 16, 2026); 6.0.0-rc6 is
    # 3d17f6f, 2026-05-13 (compliance_yaml/README.md: the summarizer fixes after it).
    "v6.0": (date(2026, 6, 16), "6.0.0-rc6"),
}

#: Publication dates of the rounds, used when the database has none (``Round.published``).
ROUND_PUBLISHED: dict[str, date] = {r: d for r, (d, _tag) in ROUNDS.items()}

#: Round numbers as vendors write them ("MLPerf Training 1.1").
KNOWN_ROUNDS = frozenset(r.lstrip("v") for r in ROUNDS)


def round_tuple(round_version: str) -> tuple[int, int]:
    """``"v1.1"`` -> ``(1, 1)``. Raises ValueError on anything else."""
    major, minor = round_version.lstrip("v").split(".")[:2]
    return int(major), int(minor)


def round_key(version: str) -> tuple[int, ...]:
    """Sort key of a round version: ``"v1.1"`` -> ``(1, 1)``; ``(0,)`` if it has no digits."""
    return tuple(int(p) for p in re.findall(r"\d+", version)) or (0,)


def round_order(versions: Iterable[str]) -> list[str]:
    """Round versions sorted numerically (``v0.7`` < ``v1.0`` < ``v1.1`` < ``v2.0``)."""
    return sorted(set(versions), key=round_key)


# --- benchmarks -------------------------------------------------------------------

#: Display names of the canonical benchmark keys (the keys are mlperf_logging's).
BENCHMARK_NAMES = {
    "resnet": "ResNet-50 v1.5",
    "bert": "BERT-Large",
    "maskrcnn": "Mask R-CNN",
    "ssd": "SSD-ResNet34",
    "retinanet": "RetinaNet (SSD)",
    "rnnt": "RNN-T",
    "unet3d": "3D U-Net",
    "dlrm": "DLRM",
    "dlrm_dcnv2": "DLRM DCNv2",
    "minigo": "MiniGo",
    "gnmt": "GNMT",
    "transformer": "Transformer",
    "ncf": "NCF",
    "gpt3": "GPT-3 175B",
    "stable_diffusion": "Stable Diffusion v2",
    "rgat": "R-GAT (GNN)",
    "llama2_70b_lora": "Llama 2 70B LoRA",
    "llama31_405b": "Llama 3.1 405B",
    "llama31_8b": "Llama 3.1 8B",
    "flux1": "FLUX.1",
    "gpt_oss_20b": "gpt-oss-20B",
    "deepseekv3_671b": "DeepSeek-V3 671B",
}

#: Other spellings (folders of older rounds, vendors' names) -> canonical key.
BENCHMARK_ALIASES = {
    "mask": "maskrcnn",
    "mask_rcnn": "maskrcnn",
    "mask r-cnn": "maskrcnn",
    "resnet-50": "resnet",
    "resnet50": "resnet",
    "resnet-50 v1.5": "resnet",
    "resnet50 v1.5": "resnet",
    "bert-large": "bert",
    "rnn-t": "rnnt",
    "3d u-net": "unet3d",
    "3d-unet": "unet3d",
    "unet-3d": "unet3d",
    "ssd-resnet34": "ssd",
    "gnn": "rgat",
    "r-gat": "rgat",
    "dlrm-dcnv2": "dlrm_dcnv2",
    "stable diffusion": "stable_diffusion",
    "gpt-3": "gpt3",
    "gpt-oss-20b": "gpt_oss_20b",
    "gpt-oss 20b": "gpt_oss_20b",
    "deepseek-v3": "deepseekv3_671b",
    "deepseek v3": "deepseekv3_671b",
    "deepseek-v3 671b": "deepseekv3_671b",
    "deepseek_v3_671b": "deepseekv3_671b",
    "llama 3.1 8b": "llama31_8b",
    "llama 3.1 405b": "llama31_405b",
    "flux.1": "flux1",
}


def canonical_benchmark(name: str, round_version: str) -> str:
    """Folder or vendor name of a benchmark in a round -> canonical key.

    ``ssd`` is SSD-ResNet34 up to v1.1 and RetinaNet from v2.0 (the folder kept its
    name: ``benchmark_meta.py`` in mlperf_logging 2.0.0); ``dlrm`` in v3.0 on is
    DLRM-DCNv2; ``gnn`` (v4.0, v4.1) was renamed ``rgat`` (v5.0).
    ``mask`` -> ``maskrcnn`` is ``result_summarizer._benchmark_alias``.
    """
    key = name.strip().lower()
    key = BENCHMARK_ALIASES.get(key, key)
    major = round_tuple(round_version)
    if key == "ssd" and major >= (2, 0):
        return "retinanet"
    if key == "dlrm" and major >= (3, 0):
        return "dlrm_dcnv2"
    return key


# ASCII guards instead of \b: in Python a Han character is a word character, so
# "在IPU-POD16上" has no \b before "I".
_L = r"(?<![A-Za-z0-9])"
_R = r"(?![A-Za-z0-9])"
#: A separator inside a model name: hyphen, space, or the Unicode hyphens press pages
#: set in names ("GPT\u2011OSS 120B", "DeepSeek\u2011R1" with U+2011, the non-breaking
#: hyphen, on pages about MLPerf Inference v6.0).
_SEP = r"[- \u2010\u2011]"

#: (pattern, benchdb benchmark key); the verifier maps keys by round with
#: ``benchdb.vocabulary.canonical_benchmark`` (ssd -> retinanet from v2.0).
BENCHMARKS: tuple[tuple[str, str], ...] = (
    (r"ResNet[- ]?50(?:\s*v1\.5)?|ResNet(?![- ]?(?:101|152|18|34))" + _R, "resnet"),
    (r"image classification|图像识别|圖像識別|图像分类|圖像分類", "resnet"),
    (r"BERT(?:[- ]Large)?(?![- ]?Base)" + _R + r"|自然语言理解|自然語言理解", "bert"),
    (r"Mask\s*R-?CNN|MASKR-CNN", "maskrcnn"),
    (r"SSD(?:-ResNet34)?" + _R, "ssd"),
    (r"RetinaNet", "retinanet"),
    (r"RNN-?T" + _R + r"|speech recognition|语音识别|語音識別", "rnnt"),
    (
        r"3D[- ]?U-?Net|U-?Net[- ]?3D|医学影像(?:分割|识别)|醫學影像(?:分割|識別)"
        r"|medical image segmentation",
        "unet3d",
    ),
    (r"DLRM[- ]?dcnv2", "dlrm_dcnv2"),
    (r"DLRM|智能推荐|智能推薦", "dlrm"),
    (r"Mini\s?Go|强化学习|強化學習|reinforcement learning", "minigo"),
    (r"GPT-?3" + _R + r"(?![.\d])", "gpt3"),
    (r"Stable Diffusion(?: v2)?", "stable_diffusion"),
    # "Llama 2 70B LoRA", and as vendors write it, "Llama 2 70B fine-tuning"
    (r"Llama[ -]?2[ -]?70B[ -]?(?:LoRA|fine[- ]?tun(?:ing|e[ds]?))", "llama2_70b_lora"),
    (r"R-GAT", "rgat"),
    (_L + r"GNMT" + _R, "gnmt"),
    # Not "Transformer Engine" (NVIDIA's library) nor "transformer-based models".
    (
        _L
        + r"Transformer(?:[- ]Big)?"
        + _R
        + r"(?![- ](?:Engine|based|models?|architectures?|networks?|layers?))",
        "transformer",
    ),
    (_L + r"NCF" + _R + r"|Neural Collaborative Filtering", "ncf"),
    # MLPerf's names ("Llama 3.1 405B"); Intel's "LLaMA V3.1 8B" rows are its own
    # throughput runs, not the MLPerf benchmark (``NON_MLPERF_MODELS`` reads them).
    (r"Llama" + _SEP + r"?3\.1" + _SEP + r"?405B" + _R, "llama31_405b"),
    (r"Llama" + _SEP + r"?3\.1" + _SEP + r"?8B" + _R, "llama31_8b"),
    (_L + r"FLUX\.1(?![\d])", "flux1"),
    # Training v6.0 (June 2026) as vendors write them: "gpt-oss-20b", "GPT-OSS 20B",
    # "DeepSeek V3", "DeepSeek-V3 671B" (not DeepSeek-R1, an inference model).
    (_L + r"GPT" + _SEP + r"?OSS" + _SEP + r"?20B" + _R, "gpt_oss_20b"),
    (_L + r"DeepSeek" + _SEP + r"?V3(?:" + _SEP + r"671B)?" + _R, "deepseekv3_671b"),
)


# --- frameworks -------------------------------------------------------------------

#: Framework mentions -> canonical name ("propeller", "flying oar": machine translations of 飞桨).
FRAMEWORK_NAMES = {
    "paddlepaddle": "PaddlePaddle",
    "paddle": "PaddlePaddle",
    "propeller": "PaddlePaddle",
    "flying oar": "PaddlePaddle",
    "飞桨": "PaddlePaddle",
    "飛槳": "PaddlePaddle",
    "popart": "PopART",
    "pytorch": "PyTorch",
    "tensorflow": "TensorFlow",
    "mxnet": "MXNet",
    "jax": "JAX",
}

# Earliest match in the string wins ("NGC MXNet 21.09, NGC PyTorch 21.09" -> MXNet).
_FAMILIES = (
    ("PopART", r"popart"),
    ("PaddlePaddle", r"paddle"),
    ("TensorFlow", r"tensorflow|\btf\b|tf\d"),
    ("MXNet", r"mxnet"),
    ("PyTorch", r"pytorch|torch"),
    ("JAX", r"\bjax\b|-jax"),
    ("MindSpore", r"mindspore"),
    ("Merlin HugeCTR", r"hugectr"),
    ("NeMo", r"nemo"),
)
_SDK = (
    (re.compile(r"poplar\s+sdk\s+v?(\d+(?:\.\d+)+)", re.I), "Poplar SDK {}"),
    (re.compile(r"release\s+(\d\d\.\d\d)", re.I), "NGC {}"),
    (re.compile(r"ngc\w*\s+(?:\w+\s+)?(\d\d\.\d\d)", re.I), "NGC {}"),
    (re.compile(r"ngc(\d\d\.\d\d)", re.I), "NGC {}"),
    (re.compile(r"pod-sw\s+v?(\d+(?:\.\d+)+)", re.I), "POD-SW {}"),
    (re.compile(r"synapse\w*\s+v?(\d+(?:\.\d+)+)", re.I), "SynapseAI {}"),
)


def framework_family(framework: str) -> str:
    """The framework a systems JSON names, as one word: ``"TensorFlow 1.15 Poplar
    SDK 2.3.0"`` -> ``"TensorFlow"``; ``"Lingvo-JAX"`` -> ``"JAX"``; the first word
    when none is known; ``""`` for an empty string."""
    text = framework.lower()
    found = [(m.start(), name) for name, pat in _FAMILIES if (m := re.search(pat, text))]
    if found:
        return min(found)[1]
    words = framework.split()
    return words[0][:40] if words else ""


def sdk_version(framework: str, software_stack: str = "") -> str:
    """SDK or container release behind a result: ``"PopART Poplar SDK 2.1.0"`` ->
    ``"Poplar SDK 2.1.0"``, ``"MXNet NVIDIA Release 21.09"`` -> ``"NGC 21.09"``,
    a software stack ``"POD-SW 2.5.1 ..."`` -> ``"POD-SW 2.5.1"``; "" if none is named."""
    for text in (framework, software_stack):
        for pattern, label in _SDK:
            m = pattern.search(text)
            if m:
                return label.format(m.group(1))
    return ""


# --- availability -----------------------------------------------------------------

#: A systems JSON ``status`` (lower-cased) -> availability category: every spelling of
#: ``result_summarizer/config.yaml`` (mlcommons/logging 5.1.0-rc4) and older rounds' ones.
AVAILABILITY = {
    "available": "available",
    "available on-premise": "available",
    "available on premise": "available",  # v3.1: 31 systems (not in any config.yaml)
    "available onprem": "available",
    "onprem": "available",
    "on-premise": "available",
    "on-prem": "available",
    "on-premises": "available",
    "available cloud": "available",
    "available in cloud": "available",
    "cloud": "available",
    "preview": "preview",
    "research": "research",
    "development": "research",
    "internal": "research",
    "rdi": "research",
    "research, development, or internal (rdi)": "research",
}


def availability_of(status: object) -> str:
    """A systems JSON ``status`` -> ``"available"``, ``"preview"``, ``"research"``, or ``""``
    when the spelling is not in :data:`AVAILABILITY` (the caller records that as a problem).
    Case and runs of spaces do not matter (``"Available  Cloud"``)."""
    return AVAILABILITY.get(" ".join(str(status).split()).lower(), "")


# --- claim verdicts ---------------------------------------------------------------

CONSISTENT, INCONSISTENT, AMBIGUOUS = "consistent", "inconsistent", "ambiguous"
NOT_MLPERF, UNVERIFIABLE = "not-mlperf", "unverifiable"
VERDICTS = (CONSISTENT, INCONSISTENT, AMBIGUOUS, NOT_MLPERF, UNVERIFIABLE)
#: A claim's page verdict, beside its MLPerf verdict: whether two figures the page itself
#: gives (in any of its sentences or tables) recompute its multiplier or percentage
#: (``ingest.claims.parsers.arithmetic``); "" when the page gives none.
CONSISTENT_WITH_PAGE, INCONSISTENT_WITH_PAGE = "consistent-with-page", "inconsistent-with-page"
PAGE_VERDICTS = (CONSISTENT_WITH_PAGE, INCONSISTENT_WITH_PAGE)


# --- MLPerf Inference -------------------------------------------------------------
# Sources: ``Config.get_mlperf_model()``, ``SCENARIO_MAPPING`` and ``log_result()``
# (``unit_dict``) of mlcommons/inference ``tools/submission/submission_checker.py`` at each
# round's commit (``../shared/mlperf-inference/INFERENCE_SCORING.md`` lists the commits).

#: Inference rounds with results here or fetchable, and the checker commit that scored
#: each (mlcommons/inference; INFERENCE_SCORING.md "checker used here").
INFERENCE_ROUNDS: dict[str, str] = {
    "v0.5": "d7c7d4c0 v0.5/tools/submission/submission-to-csv.py",
    "v0.7": "75018167 (branch r0.7)",
    "v1.0": "tag v1.0.1",
    "v1.1": "8d375aab (branch r1.1)",
    "v2.0": "tag v2.0",
    "v2.1": "318cb131 (tag v2.1)",
    "v3.0": "fd6486a0 (tag v3.0)",
    "v3.1": "tag v3.1",
    "v4.0": "tag v4.0",
    "v4.1": "c7db1c3f (2024-08-16, after tag v4.1)",
    "v5.0": "tag v5.0",
    "v5.1": "e20506b2 (2025-08-20)",
    # the checker package (tools/submission/submission_checker/): inference_rounds_v6
    "v6.0": "6d0cf9dc (2026-03-17; NVIDIA's own log: 104d485a)",
    "v6.1": "2af078ba (2026-07-21)",
}

#: Publication dates of the inference rounds (MLCommons' announcement of each round's
#: results), for claims that name a round in words ("MLPerf Inference 4.1", "the
#: August 2024 results") or by their page's date. Sources: MLCommons press releases,
#: checked where a stored copy was found: v2.1 "SAN FRANCISCO – September 8, 2022 –
#: Today, the open engineering consortium MLCommons announced results from MLPerf
#: Inference v2.1" (insidehpc.com/2022/09/...); v3.0 enterpriseai.news/2023/04/05
#: ("MLCommons today released the latest MLPerf Inferencing (v3.0) results"); v4.1
#: mlcommons.org/2024/08/mlperf-inference-v4-1-results and Business Wire 2024-8-28
#: ("Today, MLCommons® announced new results for its ... MLPerf® Inference v4.1");
#: v5.0 insideainews.com/2025/04/02/mlcommons-releases-mlperf-inference-v5-0-benchmark-
#: results; v5.1 NVIDIA's news release of 09/09/2025 "NVIDIA Blackwell Ultra Sets New
#: Inference Records in MLPerf Debut" (pubt.io). The others are the dates of MLCommons'
#: (MLPerf's, for v0.5) results announcements: v0.5 2019-11-06, v0.7 2020-10-21, v1.0
#: 2021-04-21, v1.1 2021-09-22, v2.0 2022-04-06, v3.1 2023-09-11, v4.0 2024-03-27.
INFERENCE_ROUND_PUBLISHED: dict[str, date] = {
    "v0.5": date(2019, 11, 6),
    "v0.7": date(2020, 10, 21),
    "v1.0": date(2021, 4, 21),
    "v1.1": date(2021, 9, 22),
    "v2.0": date(2022, 4, 6),
    "v2.1": date(2022, 9, 8),
    "v3.0": date(2023, 4, 5),
    "v3.1": date(2023, 9, 11),
    "v4.0": date(2024, 3, 27),
    "v4.1": date(2024, 8, 28),
    "v5.0": date(2025, 4, 2),
    "v5.1": date(2025, 9, 9),
    # v6.0: EnterpriseAI (AIwire) "MLCommons Releases New MLPerf Inference v6.0 Benchmark
    # Results", Apr 1, 2026; megaoneai.com "MLCommons released MLPerf Inference v6.0 on
    # April 1, 2026". v6.1: no announcement found here, so no date (claims name it).
    "v6.0": date(2026, 4, 1),
}

INFERENCE_SCENARIOS = ("Offline", "Server", "SingleStream", "MultiStream", "Interactive")

#: Scenario folder spellings -> scenario (``SCENARIO_MAPPING``; v0.5 summaries write
#: ``Single Stream`` / ``Multi Stream``).
INFERENCE_SCENARIO_SPELLINGS: dict[str, str] = {
    **{s.lower(): s for s in INFERENCE_SCENARIOS},
    "single stream": "SingleStream",
    "multi stream": "MultiStream",
}

INFERENCE_CATEGORIES = ("datacenter", "edge")
INFERENCE_DIVISIONS = ("closed", "open", "network")

#: Benchmarks (``Config.models`` of the checkers) -> task, as the published tables group them.
INFERENCE_BENCHMARKS: dict[str, str] = {
    "mobilenet": "image classification",
    "resnet": "image classification",
    "ssd-small": "object detection (small)",
    "ssd-large": "object detection (large)",
    "retinanet": "object detection",
    "gnmt": "translation",
    "rnnt": "speech to text",
    "whisper": "speech to text",
    "bert-99": "language processing",
    "bert-99.9": "language processing",
    "dlrm-99": "recommendation",
    "dlrm-99.9": "recommendation",
    "dlrm-v2-99": "recommendation",
    "dlrm-v2-99.9": "recommendation",
    "3d-unet-99": "medical image segmentation",
    "3d-unet-99.9": "medical image segmentation",
    "gptj-99": "summarization",
    "gptj-99.9": "summarization",
    "llama2-70b-99": "LLM Q&A",
    "llama2-70b-99.9": "LLM Q&A",
    "llama3.1-8b": "LLM summarization",
    "llama3.1-8b-edge": "LLM summarization",
    "llama3.1-405b": "LLM Q&A",
    "mixtral-8x7b": "LLM mixture of experts",
    "deepseek-r1": "LLM reasoning",
    "gpt-oss-120b": "LLM reasoning",
    "qwen3-vl-235b-a22b": "vision-language",
    "qwen3.6-27b": "LLM (edge)",
    "wan-2.2-t2v-a14b": "text to video",
    "dlrm-v3": "recommendation",
    "yolo-95": "object detection",
    "yolo-99": "object detection",
    "stable-diffusion-xl": "text to image",
    "rgat": "graph node classification",
    "pointpainting": "3D object detection",
}

#: Inference models as vendors and the press write them (regular expressions, matched
#: ignoring case, most specific first) -> the checker's model without its accuracy
#: variant (``ResultFacts.model``): read by the claim parser
#: (``ingest.claims.parsers.inference``) and the suite resolution
#: (``benchdb.claims.resolve_suite``), one list for both.
INFERENCE_MODEL_NAMES: tuple[tuple[str, str], ...] = (
    (r"Llama[ -]?2[ -]?70B", "llama2-70b"),
    (r"Llama" + _SEP + r"?3\.1" + _SEP + r"?405B", "llama3.1-405b"),
    (r"Llama" + _SEP + r"?3\.1" + _SEP + r"?8B", "llama3.1-8b"),
    (r"GPT-?J", "gptj"),
    (r"Stable Diffusion XL|SDXL", "stable-diffusion-xl"),
    (r"Mixtral[ -]?8x7B", "mixtral-8x7b"),
    (r"DeepSeek" + _SEP + r"?R1", "deepseek-r1"),
    (r"ResNet[- ]?50", "resnet"),
    (r"RetinaNet", "retinanet"),
    (r"(?<![A-Za-z])BERT(?![A-Za-z])", "bert"),
    (r"3D[- ]?U-?Net", "3d-unet"),
    (r"DLRM" + _SEP + r"?v3", "dlrm-v3"),
    (r"DLRM(?!" + _SEP + r"?v3)", "dlrm-v2"),
    (r"GPT" + _SEP + r"?OSS" + _SEP + r"?120B", "gpt-oss-120b"),
    (r"Qwen" + _SEP + r"?3" + _SEP + r"?VL", "qwen3-vl-235b-a22b"),
    (r"Qwen" + _SEP + r"?3\.6" + _SEP + r"?27B", "qwen3.6-27b"),
    (_L + r"Wan" + _SEP + r"?2\.2", "wan-2.2-t2v-a14b"),
    # the v6.0 edge detector (yolo-95, yolo-99): Ultralytics' "YOLOv11" / "YOLO11"
    (_L + r"YOLO" + _SEP + r"?v?11" + _R, "yolo"),
    (r"R-?GAT", "rgat"),
    (r"Whisper", "whisper"),
    # v0.7-v2.0 models (the checker's names: MODEL_CONFIG "v0.7" ... "v2.0" of
    # mlcommons/inference tools/submission/submission-checker.py)
    (r"RNN-?T(?![A-Za-z])", "rnnt"),
    (r"SSD[- ]?ResNet[- ]?34", "ssd-large"),
    (r"SSD[- ]?MobileNet", "ssd-small"),
)


def inference_base_model(benchmark: str) -> str:
    """A checker benchmark without its accuracy variant: ``llama2-70b-99.9`` ->
    ``llama2-70b``, ``dlrm-v2-99`` -> ``dlrm-v2``, and v6.0's ``yolo-95`` / ``yolo-99``
    (mAP at 95 % / 99 % of 53.4, ``rounds_v6``) -> ``yolo``; other names unchanged."""
    return re.sub(r"-99(?:\.9)?$", "", re.sub(r"^(yolo)-95$", r"\1", benchmark))


#: Benchmarks whose throughput is counted in tokens (``RESULT_FIELD_BENCHMARK_OVERWRITE``).
INFERENCE_LLM_BENCHMARKS = frozenset(
    {
        "gptj-99",
        "gptj-99.9",
        "llama2-70b-99",
        "llama2-70b-99.9",
        "llama3.1-8b",
        "llama3.1-8b-edge",
        "llama3.1-405b",
        "mixtral-8x7b",
        "deepseek-r1",
        "gpt-oss-120b",
    }
)

_MAP_V07 = {"resnet50": "resnet", "ssd-mobilenet": "ssd-small", "ssd-resnet34": "ssd-large"}
_MAP_V21 = {"resnet50": "resnet", "ssd-resnet34": "retinanet", "mobilenet": "resnet"}
_MAP_V51 = {
    **_MAP_V21,
    "llama3_1-405b": "llama3.1-405b",
    "llama3_1-8b": "llama3.1-8b",
    "llama3_1-8b-edge": "llama3.1-8b-edge",
}


def inference_model_folder_map(round_version: str) -> Mapping[str, str]:
    """The checker's own ``model_mapping`` of a round (folder name -> benchmark).

    ``ssd-resnet34`` means ssd-large up to v2.0 and retinanet from v2.1.
    """
    key = tuple(int(p) for p in round_version.lstrip("v").split(".")[:2])
    if key < (0, 7):
        return {}
    if key < (2, 1):
        return _MAP_V07
    if key < (5, 0):
        return _MAP_V21
    return _MAP_V51


def inference_benchmark_for(
    round_version: str, folder: str, extra: Mapping[str, str] | None = None
) -> str:
    """The benchmark a model folder counts as, as ``Config.get_mlperf_model()`` decides:
    the official name, then the round's mapping, then the submitter's
    ``model_mapping.json`` (``extra``), then the substring guesses
    (``mobilenet``/``efficientnet``/``resnet50`` -> resnet, ``bert-99(.9)``). Unknown
    folders come back unchanged (the caller reports them)."""
    if folder in INFERENCE_BENCHMARKS:
        return folder
    base = inference_model_folder_map(round_version)
    if folder in base:
        return base[folder]
    if extra and folder in extra:
        return extra[folder]
    if any(s in folder for s in ("mobilenet", "efficientnet", "resnet50")):
        return "resnet"
    for b in ("bert-99.9", "bert-99"):
        if b in folder:
            return b
    return folder


def inference_scenario_for(folder: str) -> str | None:
    """``offline`` / ``Offline`` / ``Single Stream`` ... -> scenario, None if unknown."""
    return INFERENCE_SCENARIO_SPELLINGS.get(folder.strip().lower())


#: Units as the checkers print them, and whether higher is better.
INFERENCE_UNITS: dict[str, bool] = {
    "Samples/s": True,
    "Queries/s": True,
    "Tokens/s": True,
    "Streams": True,
    "Latency (ms)": False,
    "Latency (s)": False,  # v6.x wan-2.2-t2v-a14b SingleStream (SPECIAL_UNIT_DICT)
    "Watts": False,
    "Joules": False,
    "Joules/Stream": False,
    "millijoules": False,
}


def higher_is_better(unit: str) -> bool:
    """True for throughputs (and legacy MultiStream streams), False for latency and
    power/energy. Raises KeyError on a unit not in :data:`INFERENCE_UNITS`."""
    return INFERENCE_UNITS[unit]


#: English number words read as counts, as pages write them: the claim parser's
#: (``ingest.claims.parsers.words``, which reads only those its pattern lists) and the
#: units-times-size frames' (``benchdb.claims.unit_products``: "39 racks, each of
#: sixty-four GPUs"). Ordinals are ranks (``words.EN_ORDINALS``).
EN_NUMBER_WORDS: dict[str, int] = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "sixteen": 16,
    "thirty-two": 32,
    "sixty-four": 64,
    "seventy-two": 72,
    "a dozen": 12,
    "a half-dozen": 6,
    "half-dozen": 6,
    "half a dozen": 6,
    "dozen": 12,
}
