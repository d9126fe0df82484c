"""MLPerf Inference: each round's models and (required, optional) scenarios per suite.

Pure: no Django. The tables the submission checker's ``MODEL_CONFIG[<round>]`` holds
(``models``, ``required-scenarios-*``, ``optional-scenarios-*``) and the lookups the
gates of ``check_results_dir()`` (``submission.py``) and v6.x's ``Loader.check_scenarios()``
(``rules_v6.py``) make in them. Read from ``tools/submission/submission-checker.py``
(v0.7-v2.1) and ``submission_checker.py`` (v3.0+) of mlcommons/inference at the commits of
:data:`benchdb.vocabulary.INFERENCE_ROUNDS`; v6.x from ``rounds_v6.SCENARIOS``. Scenario
abbreviations: SS SingleStream, MS MultiStream, S Server, O Offline, I Interactive.
Split from ``submission.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache

from benchdb.mlperf.inference.rounds import V05_MODELS, RoundKey, valid_system_types
from benchdb.mlperf.inference.rounds_v6 import SCENARIOS as V6_SCENARIOS

_ABBREV = {"SS": "SingleStream", "MS": "MultiStream", "S": "Server", "O": "Offline"}
_ABBREV["I"] = "Interactive"


@dataclass(frozen=True)
class _Round:
    """A round's ``models`` and (required, optional) scenario specs per suite."""

    models: str
    datacenter: tuple[str, str]
    edge: tuple[str, str]
    datacenter_edge: tuple[str, str] = ("", "")


#: ``MODEL_CONFIG[<round>]`` ``models``, ``required-scenarios-{datacenter,edge,datacenter-edge}``
#: and ``optional-scenarios-*`` of the round's own checker: v0.7 75018167, v1.0 8b58587c
#: (tag v1.0.1), v1.1 8d375aab, v2.0 33894a19 (tag v2.0), v2.1 318cb131, v3.0 fd6486a0,
#: v3.1 ce189bda (tag v3.1), v4.0 e39003a9 (tag v4.0), v4.1 c7db1c3f, v5.0 dcd0c3ea (tag
#: v5.0), v5.1 e20506b2. Each round lists only what changed from the one before.
_TABLES: dict[RoundKey, _Round] = {}

_TABLES[(0, 7)] = _Round(
    models=(
        "ssd-small ssd-large resnet rnnt bert-99 bert-99.9 dlrm-99 dlrm-99.9 3d-unet-99 "
        "3d-unet-99.9"
    ),
    datacenter=(
        (
            "resnet:O ssd-large:O rnnt:O bert-99:O bert-99.9:O dlrm-99:O dlrm-99.9:O 3d-unet-99:O "
            "3d-unet-99.9:O"
        ),
        "resnet:S ssd-large:S rnnt:S bert-99:S bert-99.9:S dlrm-99:S dlrm-99.9:S",
    ),
    edge=(
        (
            "resnet:SS,O ssd-small:SS,O ssd-large:SS,O rnnt:SS,O bert-99:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O"
        ),
        "resnet:MS ssd-small:MS ssd-large:MS",
    ),
)
_TABLES[(1, 0)] = replace(
    _TABLES[(0, 7)],
    datacenter_edge=(
        (
            "resnet:SS,O ssd-small:SS,O ssd-large:SS,O rnnt:SS,O bert-99:SS,O bert-99.9:O "
            "dlrm-99:O dlrm-99.9:O 3d-unet-99:SS,O 3d-unet-99.9:SS,O"
        ),
        (
            "resnet:MS,S ssd-small:MS ssd-large:MS,S rnnt:S bert-99:S bert-99.9:S dlrm-99:S "
            "dlrm-99.9:S"
        ),
    ),
)
_TABLES[(1, 1)] = replace(
    _TABLES[(1, 0)],
    edge=(
        (
            "resnet:SS,O ssd-small:SS,O ssd-large:SS,O rnnt:SS,O bert-99:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,O ssd-small:SS,O ssd-large:SS,O rnnt:SS,O bert-99:SS,O bert-99.9:O "
            "dlrm-99:O dlrm-99.9:O 3d-unet-99:SS,O 3d-unet-99.9:SS,O"
        ),
        "resnet:S ssd-large:S rnnt:S bert-99:S bert-99.9:S dlrm-99:S dlrm-99.9:S",
    ),
)
_TABLES[(2, 0)] = replace(
    _TABLES[(1, 1)],
    datacenter=(
        (
            "resnet:S,O ssd-large:S,O rnnt:S,O bert-99:S,O bert-99.9:S,O dlrm-99:S,O "
            "dlrm-99.9:S,O 3d-unet-99:O 3d-unet-99.9:O"
        ),
        "",
    ),
    edge=(
        (
            "resnet:SS,MS,O ssd-small:SS,MS,O ssd-large:SS,MS,O rnnt:SS,O bert-99:SS,O "
            "3d-unet-99:SS,O 3d-unet-99.9:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O ssd-small:SS,MS,O ssd-large:SS,MS,S,O rnnt:SS,S,O bert-99:SS,S,O "
            "bert-99.9:S,O dlrm-99:S,O dlrm-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O"
        ),
        "",
    ),
)
_TABLES[(2, 1)] = replace(
    _TABLES[(2, 0)],
    models="resnet retinanet rnnt bert-99 bert-99.9 dlrm-99 dlrm-99.9 3d-unet-99 3d-unet-99.9",
    datacenter=(
        (
            "resnet:S,O retinanet:S,O rnnt:S,O bert-99:S,O bert-99.9:S,O dlrm-99:S,O "
            "dlrm-99.9:S,O 3d-unet-99:O 3d-unet-99.9:O"
        ),
        "",
    ),
    edge=(
        (
            "resnet:SS,MS,O retinanet:SS,MS,O rnnt:SS,O bert-99:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O retinanet:SS,MS,S,O rnnt:SS,S,O bert-99:SS,S,O bert-99.9:S,O "
            "dlrm-99:S,O dlrm-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O"
        ),
        "",
    ),
)
_TABLES[(3, 0)] = _TABLES[(2, 1)]
_TABLES[(3, 1)] = replace(
    _TABLES[(3, 0)],
    models=(
        "resnet retinanet rnnt bert-99 bert-99.9 dlrm-v2-99 dlrm-v2-99.9 3d-unet-99 3d-unet-99.9 "
        "gptj-99 gptj-99.9 gpt3-99 gpt3-99.9"
    ),
    datacenter=(
        (
            "resnet:S,O retinanet:S,O rnnt:S,O bert-99:S,O bert-99.9:S,O dlrm-v2-99:S,O "
            "dlrm-v2-99.9:S,O 3d-unet-99:O 3d-unet-99.9:O gptj-99:S,O gptj-99.9:S,O gpt3-99:S,O "
            "gpt3-99.9:S,O"
        ),
        "",
    ),
    edge=(
        (
            "resnet:SS,MS,O retinanet:SS,MS,O rnnt:SS,O bert-99:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O gptj-99:SS,O gptj-99.9:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O retinanet:SS,MS,S,O rnnt:SS,S,O bert-99:SS,S,O bert-99.9:S,O "
            "dlrm-v2-99:S,O dlrm-v2-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O gptj-99:SS,S,O "
            "gptj-99.9:SS,S,O gpt3-99:S,O gpt3-99.9:S,O"
        ),
        "",
    ),
)
_TABLES[(4, 0)] = replace(
    _TABLES[(3, 1)],
    models=(
        "resnet retinanet rnnt bert-99 bert-99.9 dlrm-v2-99 dlrm-v2-99.9 3d-unet-99 3d-unet-99.9 "
        "gptj-99 gptj-99.9 llama2-70b-99 llama2-70b-99.9 stable-diffusion-xl"
    ),
    datacenter=(
        (
            "resnet:S,O retinanet:S,O rnnt:S,O bert-99:S,O bert-99.9:S,O dlrm-v2-99:S,O "
            "dlrm-v2-99.9:S,O 3d-unet-99:O 3d-unet-99.9:O gptj-99:S,O gptj-99.9:S,O "
            "llama2-70b-99:S,O llama2-70b-99.9:S,O stable-diffusion-xl:S,O"
        ),
        "",
    ),
    edge=(
        (
            "resnet:SS,MS,O retinanet:SS,MS,O rnnt:SS,O bert-99:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O gptj-99:SS,O gptj-99.9:SS,O stable-diffusion-xl:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O retinanet:SS,MS,S,O rnnt:SS,S,O bert-99:SS,S,O bert-99.9:S,O "
            "dlrm-v2-99:S,O dlrm-v2-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O gptj-99:SS,S,O "
            "gptj-99.9:SS,S,O llama2-70b-99:S,O llama2-70b-99.9:S,O stable-diffusion-xl:SS,S,O"
        ),
        "",
    ),
)
_TABLES[(4, 1)] = replace(
    _TABLES[(4, 0)],
    models=(
        "resnet retinanet bert-99 bert-99.9 dlrm-v2-99 dlrm-v2-99.9 3d-unet-99 3d-unet-99.9 "
        "gptj-99 gptj-99.9 llama2-70b-99 llama2-70b-99.9 stable-diffusion-xl mixtral-8x7b"
    ),
    datacenter=(
        (
            "resnet:S,O retinanet:S,O bert-99:S,O bert-99.9:S,O dlrm-v2-99:S,O dlrm-v2-99.9:S,O "
            "3d-unet-99:O 3d-unet-99.9:O gptj-99:S,O gptj-99.9:S,O llama2-70b-99:S,O "
            "llama2-70b-99.9:S,O stable-diffusion-xl:S,O mixtral-8x7b:S,O"
        ),
        "",
    ),
    edge=(
        (
            "resnet:SS,MS,O retinanet:SS,MS,O bert-99:SS,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O "
            "gptj-99:SS,O gptj-99.9:SS,O stable-diffusion-xl:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O retinanet:SS,MS,S,O bert-99:SS,S,O bert-99.9:S,O dlrm-v2-99:S,O "
            "dlrm-v2-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O gptj-99:SS,S,O gptj-99.9:SS,S,O "
            "llama2-70b-99:S,O llama2-70b-99.9:S,O stable-diffusion-xl:SS,S,O mixtral-8x7b:SS,S,O"
        ),
        "",
    ),
)
_TABLES[(5, 0)] = replace(
    _TABLES[(4, 1)],
    models=(
        "resnet retinanet bert-99 bert-99.9 dlrm-v2-99 dlrm-v2-99.9 3d-unet-99 3d-unet-99.9 "
        "gptj-99 gptj-99.9 llama2-70b-99 llama2-70b-99.9 stable-diffusion-xl mixtral-8x7b "
        "llama3.1-405b rgat"
    ),
    datacenter=(
        (
            "resnet:S,O retinanet:S,O dlrm-v2-99:S,O dlrm-v2-99.9:S,O 3d-unet-99:O 3d-unet-99.9:O "
            "gptj-99:S,O gptj-99.9:S,O llama2-70b-99:S,O llama2-70b-99.9:S,O "
            "stable-diffusion-xl:S,O mixtral-8x7b:S,O llama3.1-405b:S,O rgat:O"
        ),
        "",
    ),
    edge=(
        (
            "resnet:SS,MS,O retinanet:SS,MS,O bert-99:SS,O bert-99.9:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O gptj-99:SS,O gptj-99.9:SS,O stable-diffusion-xl:SS,O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O retinanet:SS,MS,S,O bert-99:SS,O bert-99.9:SS,O dlrm-v2-99:S,O "
            "dlrm-v2-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O gptj-99:SS,S,O gptj-99.9:SS,S,O "
            "llama2-70b-99:S,O llama2-70b-99.9:S,O stable-diffusion-xl:SS,S,O mixtral-8x7b:S,O "
            "llama3.1-405b:S,O rgat:O"
        ),
        "",
    ),
)
_TABLES[(5, 1)] = replace(
    _TABLES[(5, 0)],
    models=(
        "resnet retinanet bert-99 bert-99.9 dlrm-v2-99 dlrm-v2-99.9 3d-unet-99 3d-unet-99.9 "
        "llama3.1-8b llama3.1-8b-edge llama2-70b-99 llama2-70b-99.9 stable-diffusion-xl "
        "mixtral-8x7b llama3.1-405b rgat pointpainting deepseek-r1 whisper"
    ),
    datacenter=(
        (
            "retinanet:S,O dlrm-v2-99:S,O dlrm-v2-99.9:S,O 3d-unet-99:O 3d-unet-99.9:O "
            "llama3.1-8b:O llama2-70b-99:O llama2-70b-99.9:O stable-diffusion-xl:S,O "
            "mixtral-8x7b:S,O llama3.1-405b:O rgat:O deepseek-r1:S,O whisper:O"
        ),
        "llama2-70b-99:S,I llama2-70b-99.9:S,I llama3.1-405b:S,I llama3.1-8b:S,I",
    ),
    edge=(
        (
            "resnet:SS,MS,O retinanet:SS,MS,O bert-99:SS,O bert-99.9:SS,O 3d-unet-99:SS,O "
            "3d-unet-99.9:SS,O llama3.1-8b-edge:SS,O stable-diffusion-xl:SS,O pointpainting:SS "
            "whisper:O"
        ),
        "",
    ),
    datacenter_edge=(
        (
            "resnet:SS,MS,S,O retinanet:SS,MS,S,O bert-99:SS,O bert-99.9:SS,O dlrm-v2-99:S,O "
            "dlrm-v2-99.9:S,O 3d-unet-99:SS,O 3d-unet-99.9:SS,O llama3.1-8b:O "
            "llama3.1-8b-edge:SS,O llama2-70b-99:O llama2-70b-99.9:O stable-diffusion-xl:SS,S,O "
            "mixtral-8x7b:S,O llama3.1-405b:O rgat:O pointpainting:SS deepseek-r1:SS,S,O "
            "whisper:O"
        ),
        "llama2-70b-99:S,I llama2-70b-99.9:S,I llama3.1-405b:S,I llama3.1-8b:S,I",
    ),
)

#: v6.0 (6d0cf9dc) and v6.1 (2af078ba): ``inference_rounds_v6.SCENARIOS``.
for _rt, (_models, _dc, _edge, _both) in V6_SCENARIOS.items():
    _TABLES[_rt] = _Round(_models, _dc, _edge, _both)


@cache
def _parse(spec: str) -> Mapping[str, frozenset[str]]:
    """``"resnet:SS,MS,O bert-99:SS,O"`` -> {benchmark: scenarios}."""
    out: dict[str, frozenset[str]] = {}
    for item in spec.split():
        model, scenarios = item.split(":")
        out[model] = frozenset(_ABBREV[s] for s in scenarios.split(","))
    return out


def round_models(rt: RoundKey) -> frozenset[str]:
    """``MODEL_CONFIG[<round>]["models"]`` (v0.5: ``VALID_MODELS``); empty if unknown."""
    if rt < (0, 7):
        return V05_MODELS
    table = _TABLES.get(rt)
    return frozenset(table.models.split()) if table else frozenset()


def suite_scenarios(
    rt: RoundKey, system_type: str
) -> tuple[Mapping[str, frozenset[str]], Mapping[str, frozenset[str]]] | None:
    """(required, optional) scenarios per benchmark that ``Config.set_type(system_type)``
    selects (``datacenter``, ``edge``, and from v1.0 ``datacenter,edge`` /
    ``edge,datacenter``); None for a round without tables (v0.5) or an unknown suite."""
    table = _TABLES.get(rt)
    if table is None or system_type not in valid_system_types(rt):
        return None
    pair = {"datacenter": table.datacenter, "edge": table.edge}.get(
        system_type, table.datacenter_edge
    )
    return _parse(pair[0]), _parse(pair[1])


def checker_scenario(folder: str) -> str:
    """``SCENARIO_MAPPING.get(scenario, scenario)``: only the all-lower-case spellings
    map (``singlestream``, ``multistream``, ``server``, ``offline``, ``interactive``)."""
    return _SCENARIO_MAPPING.get(folder, folder)


_SCENARIO_MAPPING = {s.lower(): s for s in _ABBREV.values()}
