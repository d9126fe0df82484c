"""The shared vocabulary of benchdb: rounds, benchmarks and their spellings,
framework families, availability categories and claim verdicts. Pure: no Django.

Every parser, rule, claim check and page reads these names from here, so a new
round or benchmark is added in one place (``tests/benchdb/test_vocabulary.py``
checks that every benchmark has a display name and claim patterns, and every round
a publication date and rule tag).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date

# --- rounds -----------------------------------------------------------------------

#: MLPerf Training rounds: publication date (MLCommons press release) and the
#: mlperf_logging release whose rules scored it (``ruleset_for`` reads the tag).
ROUNDS: dict[str, tuple[date, str]] = {
    "v0.5": (date(2018, 12, 12), "none (no summarizer existed for v0.5)"),
    "v0.6": (date(2019, 7, 10), "f4711df (first summarizer, 2020-06-03)"),
    "v0.7": (date(2020, 7, 29), "0.7.0"),
    "v1.0": (date(2021, 6, 30), "1.0.0"),
    "v1.1": (date(2021, 12, 1), "1.1.0-rc4"),
    "v2.0": (date(2022, 6, 29), "2.0.0"),
    "v2.1": (date(2022, 11, 9), "2.1.0"),
    "v3.0": (date(2023, 6, 27), "3.0.0"),
    "v3.1": (date(2023, 11, 8), "3.1.0"),
    "v4.0": (date(2024, 6, 12), "4.0.0"),
    "v4.1": (date(2024, 11, 13), "4.1.0"),
    "v5.0": (date(2025, 6, 4), "5.0.0"),
    "v5.1": (date(2025, 11, 12), "5.1.0"),
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
        r"3D[- ]?U-?Net|U-?Net[- ]?3D|医学影像(?:分割|识别)|醫學影像(?:分割|識別)|medical image segmentation",
        "unet3d",
    ),  # fmt: skip
    (r"DLRM[- ]?dcnv2", "dlrm_dcnv2"),
    (r"DLRM|智能推荐|智能推薦", "dlrm"),
    (r"Mini\s?Go|强化学习|強化學習|reinforcement learning", "minigo"),
    (r"GPT-?3" + _R + r"(?![.\d])", "gpt3"),
    (r"Stable Diffusion(?: v2)?", "stable_diffusion"),
    (r"Llama 2 70B LoRA", "llama2_70b_lora"),
    (r"R-GAT", "rgat"),
)


# --- frameworks -------------------------------------------------------------------

#: Framework mentions -> canonical name ("propeller", "flying oar": machine translations of 飞桨).
FRAMEWORK_NAMES = {
    "paddlepaddle": "PaddlePaddle", "paddle": "PaddlePaddle", "propeller": "PaddlePaddle",
    "flying oar": "PaddlePaddle", "飞桨": "PaddlePaddle", "飛槳": "PaddlePaddle",
    "popart": "PopART", "pytorch": "PyTorch", "tensorflow": "TensorFlow", "mxnet": "MXNet",
    "jax": "JAX",
}  # fmt: skip

# Earliest match in the string wins ("NGC MXNet 21.09, NGC PyTorch 21.09" -> MXNet).
_FAMILIES = (
    ("PopART", r"popart"), ("PaddlePaddle", r"paddle"), ("TensorFlow", r"tensorflow|\btf\b|tf\d"),
    ("MXNet", r"mxnet"), ("PyTorch", r"pytorch|torch"), ("JAX", r"\bjax\b|-jax"),
    ("MindSpore", r"mindspore"), ("Merlin HugeCTR", r"hugectr"), ("NeMo", r"nemo"),
)  # fmt: skip
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

#: A systems JSON ``status`` (lower-cased) -> availability category.
AVAILABILITY = {
    "available": "available",
    "onprem": "available",
    "on-premise": "available",
    "on-prem": "available",
    "on-premises": "available",
    "cloud": "available",
    "available on-premise": "available",
    "available in cloud": "available",
    "preview": "preview",
    "research": "research",
    "rdi": "research",
    "research, development, or internal (rdi)": "research",
}


# --- claim verdicts ---------------------------------------------------------------

CONSISTENT, INCONSISTENT, AMBIGUOUS = "consistent", "inconsistent", "ambiguous"
NOT_MLPERF, UNVERIFIABLE = "not-mlperf", "unverifiable"
VERDICTS = (CONSISTENT, INCONSISTENT, AMBIGUOUS, NOT_MLPERF, UNVERIFIABLE)
