"""MLPerf Inference rule tables, round by round. Pure: no Django.

Each table is read from the round's submission checker (mlcommons/inference
``tools/submission/submission_checker.py``, ``submission-checker.py`` before v3.0, at the
commit in :data:`benchdb.vocabulary.INFERENCE_ROUNDS`): ``MODEL_CONFIG[<round>]``
(``accuracy-target``, ``accuracy-upper-limit``, ``performance-sample-count``, ``seeds``,
``latency-constraint``, ``ignore_errors``), ``ACC_PATTERN``, ``LLM_LATENCY_LIMITS``,
``OFFLINE_MIN_SPQ(_SINCE_V4)``, ``RESULT_FIELD(_NEW, _BENCHMARK_OVERWRITE)``,
``VALID_STATUS``/``VALID_AVAILABILITIES`` and ``SYSTEM_DESC_*`` fields (v0.5:
``v0.5/tools/submission/system_desc_id.json`` at d7c7d4c0). The values are written out
here (targets as reference x fraction, as in the checker), not imported. The scenario
tables of ``check_results_dir()`` are in ``inference_submission.py``.
"""

from __future__ import annotations

from benchdb.mlperf.inference.rounds_v6 import ACC_PATTERN_V6, TARGETS, compliance_tests_v6

RoundKey = tuple[int, int]

# --- accuracy ----------------------------------------------------------------------

#: ``ACC_PATTERN`` up to v4.1 (``re.match`` on each line of accuracy.txt).
ACC_PATTERN_OLD: dict[str, str] = {
    "acc": r"^accuracy=([\d\.]+).*",
    "AUC": r"^AUC=([\d\.]+).*",
    "mAP": r"^mAP=([\d\.]+).*",
    "bleu": r"^BLEU\:\s*([\d\.]+).*",
    "F1": r"^{[\"\']exact_match[\"\']\:\s*[\d\.]+,\s*[\"\']f1[\"\']\:\s*([\d\.]+)}",
    "WER": r"Word Error Rate\:.*, accuracy=([0-9\.]+)%",
    "DICE": r"Accuracy\:\s*mean\s*=\s*([\d\.]+).*",
    "ROUGE1": r".*'rouge1':\s([\d.]+).*",
    "ROUGE2": r".*'rouge2':\s([\d.]+).*",
    "ROUGEL": r".*'rougeL':\s([\d.]+).*",
    "ROUGELSUM": r".*'rougeLsum':\s([\d.]+).*",
    "GEN_LEN": r".*'gen_len':\s([\d.]+).*",
    "TOKENS_PER_SAMPLE": r".*'tokens_per_sample':\s([\d.]+).*",
    "CLIP_SCORE": r".*'CLIP_SCORE':\s([\d.]+).*",
    "FID_SCORE": r".*'FID_SCORE':\s([\d.]+).*",
    "gsm8k_accuracy": r".*'gsm8k':\s([\d.]+).*",
    "mbxp_accuracy": r".*'mbxp':\s([\d.]+).*",
}

#: ``ACC_PATTERN`` of v5.x (e20506b2).
ACC_PATTERN_V5: dict[str, str] = {
    **ACC_PATTERN_OLD,
    "acc": r"^(?:\{\"accuracy|accuracy)[\": ]*=?\s*([\d\.]+).*",
    "mAP": r".*(?:mAP=|'Total':)\s*([\d.]+)",
    "ACCURACY": r"Word Error Rate\:.*, accuracy=([0-9\.]+)%",
    "ROUGE1": r".*'rouge1':\s+'?([\d.]+)'?.*",
    "ROUGE2": r".*'rouge2':\s+'?([\d.]+)'?.*",
    "ROUGEL": r".*'rougeL':\s+'?([\d.]+)'?.*",
    "ROUGELSUM": r".*'rougeLsum':\s+'?([\d.]+)'?.*",
    "CLIP_SCORE": r".*'CLIP_SCORE':\s+'?([\d.]+).*",
    "FID_SCORE": r".*'FID_SCORE':\s+'?([\d.]+).*",
    "exact_match": r".*'exact_match':\s([\d.]+).*",
}

Targets = dict[str, tuple[tuple[str, float], ...]]


def _pair(metric: str, ref: float) -> dict[str, tuple[tuple[str, float], ...]]:
    return {"-99": ((metric, ref * 0.99),), "-99.9": ((metric, ref * 0.999),)}


def _variants(name: str, metric: str, ref: float) -> Targets:
    return {name + k: v for k, v in _pair(metric, ref).items()}


Bounds = tuple[tuple[str, float], ...]


def _llm(refs: Bounds, frac: float, extra: Bounds) -> Bounds:
    return tuple((m, r * frac) for m, r in refs) + extra


_V05: Targets = {
    "mobilenet": (("acc", 71.68 * 0.98),),
    "resnet": (("acc", 76.46 * 0.99),),
    "ssd-small": (("mAP", 22 * 0.99),),
    "ssd-large": (("mAP", 20 * 0.99),),
    "gnmt": (("bleu", 23.9 * 0.99),),
}
_V07: Targets = {
    "resnet": (("acc", 76.46 * 0.99),),
    "ssd-small": (("mAP", 22 * 0.99),),
    "ssd-large": (("mAP", 20 * 0.99),),
    "rnnt": (("WER", (100 - 7.452) * 0.99),),
    **_variants("bert", "F1", 90.874),
    **_variants("dlrm", "AUC", 80.25),
    **_variants("3d-unet", "DICE", 0.853),
}
_V21: Targets = {
    **{k: v for k, v in _V07.items() if not k.startswith(("ssd", "3d-unet"))},
    "retinanet": (("mAP", 37.55 * 0.99),),
    **_variants("3d-unet", "DICE", 0.86170),
}
_LLAMA2 = (("ROUGE1", 44.4312), ("ROUGE2", 22.0352), ("ROUGEL", 28.6162))
_GPTJ = (("ROUGE1", 42.9865), ("ROUGE2", 20.1235), ("ROUGEL", 29.9881))
_SDXL = (("CLIP_SCORE", 31.68631873), ("FID_SCORE", 23.01085758))
_V41: Targets = {
    **{k: v for k, v in _V21.items() if not k.startswith(("dlrm", "rnnt"))},
    **_variants("dlrm-v2", "AUC", 80.31),
    "gptj-99": _llm(_GPTJ, 0.99, (("GEN_LEN", 4016878 * 0.9),)),
    "gptj-99.9": _llm(_GPTJ, 0.999, (("GEN_LEN", 4016878 * 0.9),)),
    "llama2-70b-99": _llm(_LLAMA2, 0.99, (("TOKENS_PER_SAMPLE", 294.45 * 0.9),)),
    "llama2-70b-99.9": _llm(_LLAMA2, 0.999, (("TOKENS_PER_SAMPLE", 294.45 * 0.9),)),
    "stable-diffusion-xl": _SDXL,
    "mixtral-8x7b": (
        ("ROUGE1", 45.4911 * 0.99),
        ("ROUGE2", 23.2829 * 0.99),
        ("ROUGEL", 30.3615 * 0.99),
        ("TOKENS_PER_SAMPLE", 145.9 * 0.9),
        ("gsm8k_accuracy", 73.78 * 0.99),
        ("mbxp_accuracy", 60.12 * 0.99),
    ),
}
_L8 = (("ROUGE1", 38.7792), ("ROUGE2", 15.9075), ("ROUGEL", 24.4957), ("ROUGELSUM", 35.793))
_L8E = (("ROUGE1", 39.06), ("ROUGE2", 16.1147), ("ROUGEL", 24.6375), ("ROUGELSUM", 36.124))
_V51: Targets = {
    **{k: v for k, v in _V41.items() if not k.startswith(("gptj", "mixtral"))},
    "llama3.1-8b": _llm(_L8, 0.99, (("GEN_LEN", 8167644 * 0.9),)),
    "llama3.1-8b-edge": _llm(_L8E, 0.99, (("GEN_LEN", 3051113 * 0.9),)),
    "mixtral-8x7b": (
        ("ROUGE1", 45.5989 * 0.99),
        ("ROUGE2", 23.3526 * 0.99),
        ("ROUGEL", 30.4608 * 0.99),
        ("TOKENS_PER_SAMPLE", 144.84 * 0.9),
        ("gsm8k_accuracy", 73.66 * 0.99),
        ("mbxp_accuracy", 60.16 * 0.99),
    ),
    "llama3.1-405b": (
        ("ROUGEL", 21.6666 * 0.99),
        ("exact_match", 90.1335 * 0.99),
        ("TOKENS_PER_SAMPLE", 684.68 * 0.9),
    ),
    "rgat": (("acc", 0.7286 * 0.99),),
    "pointpainting": (("mAP", 0.5425 * 0.999),),
    "deepseek-r1": (("exact_match", 0.99 * 81.3582), ("TOKENS_PER_SAMPLE", 0.9 * 3886.2274)),
    "whisper": (("ACCURACY", (100.0 - 2.0671) * 0.99),),
}
_UPPER_V41: Targets = {
    "stable-diffusion-xl": (("CLIP_SCORE", 31.81331801), ("FID_SCORE", 23.95007626)),
    "llama2-70b-99": (("TOKENS_PER_SAMPLE", 294.45 * 1.1),),
    "llama2-70b-99.9": (("TOKENS_PER_SAMPLE", 294.45 * 1.1),),
    "mixtral-8x7b": (("TOKENS_PER_SAMPLE", 145.9 * 1.1),),
}
_UPPER_V51: Targets = {
    **_UPPER_V41,
    "llama3.1-405b": (("TOKENS_PER_SAMPLE", 684.68 * 1.1),),
    "llama3.1-8b": (("GEN_LEN", 8167644 * 1.1),),
    "llama3.1-8b-edge": (("GEN_LEN", 3051113 * 1.1),),
    "deepseek-r1": (("TOKENS_PER_SAMPLE", 1.1 * 3886.2274),),
}


def accuracy_targets(rt: RoundKey) -> tuple[Targets, Targets]:
    """(lower targets, upper limits) of a round: ``accuracy-target`` and
    ``accuracy-upper-limit`` of ``MODEL_CONFIG`` (v0.5: ``ACCURAY_TARGET`` of
    ``v0.5/tools/submission/submission-checker.py``; v6.x: ``inference_rounds_v6``)."""
    if rt >= (6, 0):
        return TARGETS.get(rt, TARGETS[(6, 1)])
    if rt < (0, 7):
        return _V05, {}
    if rt < (2, 1):
        return _V07, {}
    if rt < (4, 0):
        return _V21, {}
    if rt < (5, 0):
        return _V41, _UPPER_V41
    return _V51, _UPPER_V51


def accuracy_patterns(rt: RoundKey) -> dict[str, str]:
    """``ACC_PATTERN`` of the round (v5.x widened several patterns, v6.x added more)."""
    if rt >= (6, 0):
        return ACC_PATTERN_V6
    return ACC_PATTERN_V5 if rt >= (5, 0) else ACC_PATTERN_OLD


# --- performance --------------------------------------------------------------------

_PSC_V07 = {"ssd-small": 256, "ssd-large": 64, "resnet": 1024, "rnnt": 2513}
_PSC_V07 |= {"bert-99": 10833, "bert-99.9": 10833, "dlrm-99": 204800, "dlrm-99.9": 204800}
_PSC_V51 = {"resnet": 1024, "retinanet": 64, "bert-99": 10833, "bert-99.9": 10833}
_PSC_V51 |= {"dlrm-v2-99": 204800, "dlrm-v2-99.9": 204800, "3d-unet-99": 43, "3d-unet-99.9": 43}
_PSC_V51 |= {"gptj-99": 13368, "gptj-99.9": 13368, "llama2-70b-99": 24576}
_PSC_V51 |= {"llama2-70b-99.9": 24576, "stable-diffusion-xl": 5000, "mixtral-8x7b": 15000}
_PSC_V51 |= {"llama3.1-8b": 13368, "llama3.1-8b-edge": 5000, "llama3.1-405b": 8313}
_PSC_V51 |= {"rgat": 788379, "pointpainting": 1024, "deepseek-r1": 4388, "whisper": 1633}
_PSC_V51 |= {"rnnt": 2513, "dlrm-99": 204800, "dlrm-99.9": 204800}


def performance_sample_count(rt: RoundKey, benchmark: str) -> int | None:
    """``performance-sample-count`` of a benchmark (3d-unet: 16 up to v1.1, 42 in v2.x,
    43 from v3.0); None if the round's table lacks it."""
    if benchmark.startswith("3d-unet"):
        return 16 if rt < (2, 0) else 42 if rt < (3, 0) else 43
    table = _PSC_V07 if rt < (2, 1) else _PSC_V51
    return table.get(benchmark)


#: ``seeds`` of the rounds whose seed mismatches invalidate (v3.1+) and are known here.
SEEDS: dict[RoundKey, tuple[int, int, int]] = {
    (4, 1): (3066443479025735752, 10688027786191513374, 14962580496156340209),
    (5, 1): (1780908523862526354, 14771362308971278857, 18209322760996052031),
}

_MS = 1_000_000


def server_latency_ns(rt: RoundKey, benchmark: str) -> int | None:
    """``latency-constraint`` (Server) in ns: the target the early-stopping estimate
    must meet (v2.0+) or the 99th percentile (before)."""
    table = {
        "resnet": 15 * _MS,
        "retinanet": 100 * _MS,
        "ssd-large": 100 * _MS,
        "ssd-small": 10 * _MS,
        "bert-99": 130 * _MS,
        "bert-99.9": 130 * _MS,
        "dlrm-99": 30 * _MS,
        "dlrm-99.9": 30 * _MS,
        "dlrm-v2-99": 60 * _MS,
        "dlrm-v2-99.9": 60 * _MS,
        "rnnt": 1000 * _MS,
        "gnmt": 250 * _MS,
        "llama3.1-405b": 60000 * _MS,
        "deepseek-r1": 60000 * _MS,
    }
    if benchmark in table:
        return table[benchmark]
    return 20000 * _MS if benchmark.startswith(("gptj", "llama", "mixtral", "stable")) else None


#: ``LLM_LATENCY_LIMITS`` of v5.1 (ns): scenario folder -> (TTFT p99, TPOT p99) bound.
LLM_LIMITS_V51: dict[str, dict[str, tuple[int, int]]] = {
    "llama2-70b-99": {"Server": (2000 * _MS, 200 * _MS), "Interactive": (450 * _MS, 40 * _MS)},
    "llama2-70b-99.9": {"Server": (2000 * _MS, 200 * _MS), "Interactive": (450 * _MS, 40 * _MS)},
    "mixtral-8x7b": {"Server": (2000 * _MS, 200 * _MS)},
    "llama3.1-405b": {"Server": (6000 * _MS, 175 * _MS), "Interactive": (4500 * _MS, 80 * _MS)},
    "llama3.1-8b": {"Server": (2000 * _MS, 100 * _MS), "Interactive": (500 * _MS, 30 * _MS)},
    "deepseek-r1": {"Server": (2000 * _MS, 80 * _MS)},
}

#: ``LLM_LATENCY_LIMITS`` of v4.1 (``conversational`` only).
LLM_LIMITS_V41: dict[str, dict[str, tuple[int, int]]] = {
    m: {"Server": (2000 * _MS, 200 * _MS)}
    for m in ("llama2-70b-99", "llama2-70b-99.9", "mixtral-8x7b")
}


def offline_min_spq(rt: RoundKey, benchmark: str) -> int:
    """``OFFLINE_MIN_SPQ`` (24576) or, from v4.0, ``OFFLINE_MIN_SPQ_SINCE_V4[model]``."""
    if rt < (4, 0):
        return 24576
    per_model = {"bert": 10833, "3d-unet": 43, "rnnt": 2513, "llama3.1-8b-edge": 5000}
    per_model |= {"gptj": 13368, "llama3.1-8b": 13368, "stable-diffusion-xl": 5000}
    per_model |= {"mixtral-8x7b": 15000, "llama3.1-405b": 8313, "rgat": 788379}
    per_model |= {"deepseek-r1": 4388, "whisper": 1633}
    for prefix in sorted(per_model, key=len, reverse=True):
        if benchmark.startswith(prefix):
            return per_model[prefix]
    return 24576


def equal_issue_models(rt: RoundKey) -> frozenset[str]:
    """``Config.requires_equal_issue()``: v4.1 (c7db1c3f, commas fixed) and v5.x lists."""
    if rt < (4, 1):
        return frozenset()
    base = {"3d-unet-99", "3d-unet-99.9", "gptj-99", "gptj-99.9", "llama2-70b-99"}
    base |= {"llama2-70b-99.9", "mixtral-8x7b"}
    if rt >= (5, 0):
        base |= {"llama3.1-405b", "llama3.1-8b", "llama3.1-8b-edge", "deepseek-r1"}
        base |= {"rgat", "whisper"}
    return frozenset(base)


def ignored_errors(rt: RoundKey) -> tuple[str, ...]:
    """``ignore_errors``: detail-log ERROR texts that do not invalidate (v0.5, v0.7)."""
    if rt < (0, 7):
        return (
            "check for ERROR in detailed",
            "Loadgen built with uncommitted changes",
            "Ran out of generated queries to issue before the minimum query count and test "
            "duration were reached",
            "CAS failed",
        )
    return ("CAS failed",) if rt < (1, 0) else ()


#: ``REQUIRED_ACC_BENCHMARK``: SDXL ``accuracy/images/<id>.png`` sample ids by round.
SDXL_IMAGES: dict[RoundKey, tuple[str, ...]] = {
    (4, 0): ("4459", "4015", "2705", "1682", "4048", "4683", "3757", "1578", "3319", "95"),
    (4, 1): ("4655", "2569", "1303", "109", "4509", "3009", "2179", "1826", "2094", "3340"),
    (5, 0): ("4459", "4015", "2705", "1682", "4048", "4683", "3757", "1578", "3319", "95"),
    (5, 1): ("2747", "2235", "2165", "1515", "1538", "1367", "2419", "4629", "3657", "4532"),
}


def compliance_tests(rt: RoundKey, benchmark: str, scenario: str) -> tuple[str, ...]:
    """Tests ``check_compliance_dir()`` requires of a closed/network result (v0.7+).

    v0.7-v1.x: TEST01, TEST04-A/B, TEST05 (no TEST04 for rnnt, bert, dlrm, MultiStream);
    v2.0-v3.x: TEST01, TEST04, TEST05 (no TEST04 for rnnt, bert, dlrm, 3d-unet, retinanet);
    v4.x: also no TEST04 for gptj/llama2/mixtral, no TEST05 for those and SDXL, no TEST01
    for the LLMs, TEST06 for llama2/mixtral; v5.x: TEST01, TEST04 (TEST04 only for resnet,
    SDXL, pointpainting), no TEST01 for LLMs, TEST06 for LLMs but llama3.1-8b-edge;
    v6.x: ``models_TEST01`` .. ``models_TEST09`` (``inference_rounds_v6``).
    """
    b = benchmark
    if rt >= (6, 0):
        return compliance_tests_v6(rt, b)
    if rt < (0, 7):
        return ()
    if rt < (2, 0):
        if b.startswith(("rnnt", "bert", "dlrm")) or scenario == "MultiStream":
            return ("TEST01", "TEST05")
        return ("TEST01", "TEST04-A", "TEST04-B", "TEST05")
    llm = b.startswith(("gptj", "llama", "mixtral", "deepseek"))
    if rt >= (5, 0):
        tests = ["TEST04"] if b in ("resnet", "stable-diffusion-xl", "pointpainting") else []
        if not llm:
            tests.insert(0, "TEST01")
        return tuple(tests + (["TEST06"] if llm and b != "llama3.1-8b-edge" else []))
    tests = ["TEST01", "TEST04", "TEST05"]
    if b.startswith(("rnnt", "bert", "dlrm", "3d-unet", "retinanet")) or llm:
        tests.remove("TEST04")
    if llm:
        tests = [t for t in tests if t not in ("TEST01", "TEST05")]
    if rt >= (4, 0) and b == "stable-diffusion-xl":
        tests.remove("TEST05")
    if rt >= (4, 0) and b.startswith(("llama2", "mixtral")):
        tests.append("TEST06")
    return tuple(tests)


# --- system descriptions (``check_results_dir()``, ``check_system_desc_id()``) ----------


def _words(text: str) -> list[str]:
    return text.split()


#: v0.5 ``VALID_MODELS`` (closed model folders are compared by name, unmapped).
V05_MODELS = frozenset({"ssd-small", "ssd-large", "mobilenet", "resnet", "gnmt"})
#: ``SYSTEM_DESC_REQUIRED_FIELDS`` of v0.7 (the first part of every later list).
_FIELDS_BASE = _words(
    "division submitter status system_name number_of_nodes host_processor_model_name "
    "host_processors_per_node host_processor_core_count host_memory_capacity "
    "host_storage_capacity host_storage_type accelerators_per_node accelerator_model_name "
    "accelerator_memory_capacity framework operating_system"
)
#: ``SYSTEM_DESC_REQUIED_FIELDS_SINCE_V1`` (required from v1.0).
_FIELDS_SINCE_V1 = _words(
    "system_type other_software_stack host_processor_frequency host_processor_caches "
    "host_memory_configuration host_processor_interconnect host_networking "
    "host_networking_topology accelerator_frequency accelerator_host_interconnect "
    "accelerator_interconnect accelerator_interconnect_topology "
    "accelerator_memory_configuration accelerator_on-chip_memories cooling hw_notes sw_notes"
)
#: ``SYSTEM_DESC_REQUIRED_FIELDS_SINCE_V3_1``.
_FIELDS_SINCE_V31 = ["host_network_card_count", "system_type_detail"]
#: ``SYSTEM_DESC_MEANINGFUL_RESPONSE_REQUIRED_FIELDS`` (v3.1+: must not be empty).
MEANINGFUL_FIELDS = frozenset(
    _words(
        "division submitter system_type status system_name number_of_nodes "
        "host_processor_model_name host_processors_per_node host_processor_core_count "
        "host_memory_capacity host_memory_configuration host_storage_capacity host_storage_type "
        "host_networking host_network_card_count host_networking_topology accelerators_per_node "
        "accelerator_model_name accelerator_memory_capacity accelerator_host_interconnect "
        "accelerator_memory_configuration accelerator_interconnect cooling framework "
        "operating_system other_software_stack"
    )
)
#: ``SYSTEM_DESC_REQUIRED_FIELDS_NETWORK_MODE`` (v2.1+, when ``is_network`` is true).
_FIELDS_NETWORK = _words(
    "is_network network_type network_media network_rate nic_loadgen number_nic_loadgen "
    "net_software_stack_loadgen network_protocol number_connections nic_sut number_nic_sut "
    "net_software_stack_sut network_topology"
)
#: v0.5 ``system_desc_id.json``: "required" fields (``division`` is spelt "reqired" there,
#: so it is not) and every known field (others are errors).
V05_REQUIRED = [f for f in _FIELDS_BASE if f != "division"] + ["other_software_stack"]
V05_FIELDS = frozenset(_FIELDS_BASE + _FIELDS_SINCE_V1) - {"system_type"}


def valid_system_types(rt: RoundKey) -> tuple[str, ...]:
    """``system_type`` values ``check_results_dir()`` accepts: ``datacenter``/``edge``
    (v0.7), plus ``datacenter,edge``/``edge,datacenter`` from v1.0."""
    if rt < (1, 0):
        return ("datacenter", "edge")
    return ("datacenter", "edge", "datacenter,edge", "edge,datacenter")


def valid_availabilities(rt: RoundKey) -> tuple[str, ...]:
    """``VALID_STATUS`` (v0.7, which also reads "research, development, or internal" as
    rdi) and ``VALID_AVAILABILITIES`` (v1.0+); ``status`` is compared lower-cased."""
    if rt < (1, 0):
        return ("available", "on-premise", "rdi", "preview")
    return ("available", "preview", "rdi")


def required_system_fields(rt: RoundKey, is_network: bool) -> list[str]:
    """Fields ``check_system_desc_id()`` requires: the v0.7 list, plus ``SINCE_V1`` from
    v1.0, ``SINCE_V3_1`` from v3.1 (one ``SYSTEM_DESC_REQUIRED_FIELDS`` list from
    c7db1c3f, the same fields), the network-mode fields from v2.1 when the system is over
    the network (``is_network``); v0.5 the template's "required" fields."""
    if rt < (0, 7):
        return list(V05_REQUIRED)
    fields = list(_FIELDS_BASE)
    fields += _FIELDS_SINCE_V1 if rt >= (1, 0) else []
    fields += _FIELDS_SINCE_V31 if rt >= (3, 1) else []
    fields += _FIELDS_NETWORK if rt >= (2, 1) and is_network else []
    return fields
