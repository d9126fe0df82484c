"""A claim's frame resolved by class of phrasing (issue 20). Each sentence is written
in the words of a different vendor than the corpus page (../shared/vendor-dev) that
showed the class; the page is named beside each test."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from benchdb.claims import resolve_words as words
from benchdb.claims.facts import ClaimFacts
from benchdb.claims.resolve import PageContext, resolve_claim
from benchdb.claims.resolve_suite import resolve_suite
from benchdb.claims.subjects import benchmark_in_clause, benchmarks_named
from benchdb.vocabulary import ROUND_PUBLISHED
from ingest.claims.parsers.page_meta import page_metadata


def _resolve(c: ClaimFacts, sentence: str, **page: object) -> ClaimFacts:
    return resolve_claim(c, sentence, PageContext(text=sentence, **page), ROUND_PUBLISHED)  # type: ignore[arg-type]


def test_our_result_is_the_page_vendors_not_the_one_named_on_the_other_side() -> None:
    """training/03 (MosaicML: "Our open result of 23.8 minutes is 17% faster than
    NVIDIA's..."), here in Graphcore's words: "we" is the page's vendor, the division
    is the subject side's."""
    s = (
        "Our open submission of 14.5 minutes on a Bow Pod16 is 20% faster than NVIDIA's"
        " submission in the closed division on the same hardware."
    )
    c = ClaimFacts(kind="percentage", value=20.0, unit="%", submitter="NVIDIA")
    got = _resolve(c, s, vendor="Graphcore", published=date(2022, 7, 1))
    assert (got.submitter, got.division) == ("Graphcore", "open")
    assert {"submitter-we", "division-words"} <= set(got.context)
    # NVIDIA's side is another submitter's: "the same hardware" pins no system of ours
    assert got.compared_system == ""


def test_a_maker_before_its_product_is_not_the_submitter() -> None:
    """training/04 (Databricks: "7.9 minutes on 8x NVIDIA A100 GPUs in the Open
    Division"), here on a Dell page about Intel's accelerators."""
    s = (
        "Dell delivered a score of 12.1 minutes on 8x Intel Gaudi2 accelerators in the"
        " Open Division."
    )
    c = ClaimFacts(kind="time", value=12.1, unit="min", submitter="Intel", system="Gaudi2")
    got = _resolve(c, s, vendor="Dell")
    assert got.submitter != "Intel"
    assert got.division == "open"


def test_the_same_cluster_size_gives_the_compared_side_the_subjects_count() -> None:
    """training/09 (CoreWeave: "more than 2x faster ... than NVIDIA Hopper-based systems
    at the same cluster size"), here as Google would write it."""
    s = "Using 256 TPU v5p chips, Google trained GPT-3 2x faster than TPU v4 at the same scale."
    c = ClaimFacts(kind="multiplier", value=2.0, unit="x", submitter="Google")
    got = _resolve(c, s, vendor="Google")
    assert (got.system, got.accelerators) == ("TPU v5p", 256)
    assert (got.compared_system, got.compared_accelerators) == ("TPU v4", 256)


@pytest.mark.parametrize(
    ("text", "suite", "want"),
    [
        # training/17 ("MLPerf 6 0" in an NVIDIA digest's title), here Dell's
        ("Dell PowerEdge XE9685L results in MLPerf 5 1 Training", "training", ["v5.1"]),
        ("https://example.com/blog/mlperf-inference-v4-1-results", "inference", ["v4.1"]),
        ("https://example.com/blog/mlperf-inference-v4-1-results", "training", []),
        ("https://www.example.com/blog/mlperf-2022", "training", []),
    ],
)
def test_rounds_in_titles_and_urls(text: str, suite: str, want: list[str]) -> None:
    assert words.versions_named(text, suite) == want


def test_a_round_benchdb_does_not_hold_is_kept_not_replaced_by_the_dates() -> None:
    """training/17 (NVIDIA, "MLPerf 6.0"), here AMD: the round named stays, so no
    result of an earlier round is judged."""
    s = "AMD's MI355X platform cut its time to train by 2.1x in MLPerf Training 7.0."
    c = ClaimFacts(kind="multiplier", value=2.1, unit="x", benchmark_key="llama2_70b_lora")
    got = _resolve(c, s, vendor="AMD", published=date(2027, 6, 20))
    assert got.round == "v7.0"
    assert "round-unknown" in got.context


def test_a_round_named_only_in_the_url() -> None:
    """training/05 (Azure), here Lenovo's URL."""
    s = "The ThinkSystem SR680a V3 trained BERT in 5.9 minutes."
    c = ClaimFacts(kind="time", value=5.9, unit="min", benchmark_key="bert")
    got = _resolve(
        c, s, vendor="Lenovo", url="https://news.lenovo.com/mlperf-training-v3-1-results/"
    )
    assert (got.round, got.context[-1]) == ("v3.1", "round-url")


@pytest.mark.parametrize(
    ("sentence", "published", "want"),
    [
        # training/15-16 ("这比6月份的刷新记录的成绩"), here Intel's and Huawei's words
        ("Gaudi3 is now 1.5x faster than our record result last June.", date(2024, 11, 13), "v4.0"),
        ("Gaudi3 is now 1.5x faster than our score of June.", date(2024, 11, 13), "v4.0"),
        ("昇腾集群的成绩比去年6月的成绩提升了2倍", date(2024, 11, 20), "v3.0"),
        ("与今年6月相比,训练速度提升了2倍", date(2023, 11, 10), "v3.0"),
        # a year before 2022-11-09: v1.1 (2021-12-01)
        ("Graphcore's Bow Pod trains 1.4x faster than a year ago.", date(2022, 11, 9), "v1.1"),
        ("比一年前提升了2倍", date(2022, 11, 9), "v1.1"),
        # training/16 ("比 6 月成绩", spaced typography), here jiqizhixin.com/articles/
        # 2022-06-30-15 on MLPerf Training v2.0: December 2021 is v1.1 (2021-12-01)
        ("本期榜单成绩提交者的数量从去年 12 月的 14 家增加到 21 家。", date(2022, 6, 30), "v1.1"),
    ],
)
def test_dates_relative_to_the_page_name_a_round(sentence: str, published: date, want: str) -> None:
    assert words.relative_round(sentence, published, ROUND_PUBLISHED) == want


def test_a_spaced_month_with_its_day_is_a_date_not_a_relative_month() -> None:
    """jiqizhixin (as above): "北京时间 6 月 30 日" gives its day; "2023 年 6 月" its year."""
    s = "北京时间 6 月 30 日,MLCommons 社区发布了最新版 MLPerf 基准测评结果 (v2.0) 。"
    assert words.relative_dates(s, date(2022, 6, 30)) == []
    assert words.relative_dates("2023 年 6 月的成绩", date(2023, 11, 10)) == []


def test_a_relative_date_without_a_page_date_names_no_round() -> None:
    assert words.relative_round("比6月份的成绩提升了近3倍", None, ROUND_PUBLISHED) == ""
    assert words.relative_dates("you may see gains", date(2024, 6, 1)) == []


def test_a_gains_relative_date_is_its_baseline() -> None:
    """training/15 (新智元 on NVIDIA), here Inspur's words: a gain over a June record."""
    s = "浪潮的成绩比6月份的刷新记录的成绩提升了近2倍"
    c = ClaimFacts(kind="multiplier", value=2.0, unit="x", submitter="Inspur", benchmark_key="bert")
    got = _resolve(c, s, vendor="Inspur", published=date(2023, 11, 10))
    assert got.baseline == "best:v3.0"


def test_hpc_claims_are_not_training_claims() -> None:
    """training/13 (NVIDIA on MLPerf HPC 1.0), here Fujitsu's words: the benchmark is
    HPC's, the round the HPC version named, never a training round by date."""
    s = "Fugaku trained CosmoFlow in 30 minutes in MLPerf HPC 1.0."
    c = ClaimFacts(kind="time", value=30.0, unit="min", benchmark_key="")
    got = resolve_suite(c, s, "Fujitsu and MLPerf HPC 1.0", s, "")
    assert (got.benchmark_key, got.round) == ("cosmoflow", "v1.0")
    assert "suite-hpc" in got.context


def test_inference_units_make_an_inference_claim() -> None:
    """inference/16 (tokens/s read as training), here Dell's words."""
    s = "The PowerEdge XE9680 served 7,000 tokens/s on Llama 2 70B in the Offline scenario."
    c = ClaimFacts(kind="throughput", value=7000.0, unit="tokens/s", round="v4.0")
    got = resolve_suite(c, s, "", s, "")
    assert (got.suite, got.scenario, got.benchmark_key, got.round) == (
        "inference",
        "Offline",
        "llama2-70b",
        "",
    )


def test_a_training_figure_on_a_page_that_also_names_inference_is_training() -> None:
    """training/09 (CoreWeave's page names "MLPerf Inference v5.0" once), here Google."""
    text = "Google's results in MLPerf Training v4.0 build on MLPerf Inference v4.0."
    s = "TPU v5p delivered 2.8x faster training performance than TPU v4."
    c = ClaimFacts(kind="multiplier", value=2.8, unit="x", suite="inference", round="v4.0")
    got = resolve_suite(c, s, "", text + " " + s, "")
    assert (got.suite, got.round) == ("", "")
    assert "suite-training" in got.context


def test_the_figure_takes_the_benchmark_of_its_own_clause() -> None:
    """NVIDIA's v5.1 "Llama 3.1 8B in 5.2 minutes ... and FLUX.1 in 12.5 minutes",
    here AMD's words."""
    s = (
        "AMD trained Llama 2 70B LoRA in 10.2 minutes on 8 MI355X and Stable Diffusion"
        " in 31.4 minutes on 64 MI355X."
    )
    assert benchmark_in_clause(s, 31.4) == "stable_diffusion"
    assert benchmark_in_clause(s, 10.2) == "llama2_70b_lora"
    c = ClaimFacts(kind="time", value=31.4, unit="min", benchmark_key="llama2_70b_lora")
    assert _resolve(c, s, vendor="AMD").benchmark_key == "stable_diffusion"


def test_llama_405b_by_its_parameter_count() -> None:
    """training/10 ("the suite's new 405-billion-parameter Llama-3.1 workload")."""
    assert benchmarks_named("Lenovo ran the 405-billion-parameter Llama 3.1 model") == [
        "llama31_405b"
    ]


@pytest.mark.parametrize(
    ("url", "vendor"),
    [
        ("https://www.coreweave.com/blog/gb300-results", "CoreWeave"),
        ("https://www.databricks.com/blog/training-llms-fast", "MosaicML"),
        ("https://www.mosaicml.com/blog/composer", "MosaicML"),
    ],
)
def test_the_urls_host_names_a_cloud_or_software_vendor(url: str, vendor: str) -> None:
    text = "Results\nThe cluster trained the model in 10 minutes."
    assert page_metadata(text, text=text, html=False, url=url).vendor == vendor


def test_an_inference_figure_takes_its_clauses_model_or_none() -> None:
    """inference/03 (快科技 on NVIDIA: "...提升了7-54%不等,其中进步最大的是RetinaNet...,
    3D U-Net...也能提升31%"), here in Qualcomm's words: 31% is 3D U-Net's; a range
    across models is no one model's."""
    s = (
        "与上一轮相比,Cloud AI 100的性能在不同测试项目中提升了5-40%,其中ResNet-50提升最大,"
        "BERT也提升了22%。"
    )
    base = ClaimFacts(kind="percentage", value=22.0, unit="%", suite="inference")
    got = _resolve(replace(base, benchmark_key="resnet"), s, vendor="Qualcomm")
    assert got.benchmark_key == "bert" and "benchmark-clause" in got.context
    got = _resolve(replace(base, value=5.0, benchmark_key="resnet"), s, vendor="Qualcomm")
    assert got.benchmark_key == "" and "benchmark-open" in got.context


def test_a_product_named_only_after_compared_to_is_the_baseline() -> None:
    """inference/03 ("对比A100,跨代提升...少则1.8倍"), here AMD's words: MI300X is what
    the gain is over, not the subject, and no earlier round is the baseline."""
    s = "Compared to the MI300X, the generational gain ranges from 2.1x to 3.4x."
    c = ClaimFacts(
        kind="multiplier", value=2.1, unit="x", system="MI300X", baseline="previous-round"
    )
    got = _resolve(c, s, vendor="AMD")
    assert (got.system, got.compared_system, got.baseline) == ("", "MI300X", "")
    # "while"/而 put two facts side by side: no baseline is named
    s2 = "BERT 99.9% could not run on the CPU, while it is the H100's strength."
    c2 = ClaimFacts(kind="percentage", value=99.9, unit="%", system="H100")
    assert _resolve(c2, s2, vendor="NVIDIA").system == "H100"


def test_microsofts_pages_speak_for_the_azure_submitter() -> None:
    """training/08 (windowsnews on Azure): the page's vendor as MLPerf files it."""
    from ingest.claims.parsers.page_meta import SUBMITS_AS

    assert SUBMITS_AS.get("Microsoft") == "Azure"
    s = "Our ND H200 v5 VMs trained Llama 2 70B LoRA in 1.6 minutes."
    c = ClaimFacts(kind="time", value=1.6, unit="min", benchmark_key="llama2_70b_lora")
    assert _resolve(c, s, vendor=SUBMITS_AS["Microsoft"]).submitter == "Azure"


@pytest.mark.parametrize(
    ("sentence", "system", "compared"),
    [
        # inference/05 (NVIDIA on Jetson AGX Orin vs Xavier), here Advantech's words
        (
            "Advantech's MIC-733 with Jetson AGX Orin runs ResNet-50 3.2x faster than the"
            " previous generation.",
            "Jetson AGX Orin",
            "Jetson AGX Xavier",
        ),
        # training/17 ("Blackwell相较前代平台最高实现2.6倍"), here Google's words
        ("Trillium相较前代TPU最高实现3.2倍的训练性能提升", "Trillium", "TPU v5p"),
    ],
)
def test_the_previous_generation_is_the_subjects_predecessor(
    sentence: str, system: str, compared: str
) -> None:
    c = ClaimFacts(kind="multiplier", value=3.2, unit="x")
    got = _resolve(c, sentence, vendor="")
    assert (got.system, got.compared_system) == (system, compared)
    assert "compared-previous" in got.context


@pytest.mark.parametrize(
    "sentence",
    [
        # inference/03 (NVIDIA H100 vs A100 "per GPU"), here Huawei's and Intel's words
        "昇腾910B集群的每卡性能提升了1.3倍,整体训练时间缩短到12分钟。",
        "On a per-chip basis, Gaudi2 delivers 1.3x the throughput of the A100.",
    ],
)
def test_per_accelerator_figures_are_marked_derived(sentence: str) -> None:
    c = ClaimFacts(kind="multiplier", value=1.3, unit="x")
    got = _resolve(c, sentence, vendor="")
    assert got.per_accelerator and "per-accelerator-words" in got.context


def test_a_whole_system_figure_beside_a_per_gpu_one_stays_whole() -> None:
    s = "昇腾910B集群的每卡性能提升了1.3倍,整体训练时间缩短到12分钟。"
    c = ClaimFacts(kind="time", value=12.0, unit="min")
    assert not _resolve(c, s, vendor="").per_accelerator


def test_each_hpc_gain_takes_its_clauses_benchmark_and_the_round_not_compared() -> None:
    """training/13 (techbang on NVIDIA: "與去年的MLPerf 0.7...相比,...為Cosmoflow提升5倍
    效能,Deepcam甚至提升7倍"), here in Fujitsu's words."""
    s = "与MLPerf HPC 0.7相比,富岳在OpenCatalyst上提升了3倍,在DeepCAM上提升了2倍"
    c = ClaimFacts(kind="multiplier", value=2.0, unit="x", baseline="v0.7")
    got = resolve_suite(c, s, "Fujitsu在MLPerf HPC 1.0中的成绩", s, "")
    assert (got.benchmark_key, got.round) == ("deepcam", "v1.0")


@pytest.mark.parametrize(
    ("value", "count"),
    [(10.2, None), (31.4, 256)],
)
def test_a_bare_count_belongs_to_its_own_clauses_figure(value: float, count: int | None) -> None:
    """NVIDIA's v5.1 "5.2 minutes with up to 512 Blackwell Ultra GPUs and FLUX.1 in
    12.5 minutes with 1,152 GPUs" (512 pins none: "up to"), here AMD's words."""
    s = (
        "AMD trained Llama 2 70B LoRA in 10.2 minutes with up to 64 MI355X GPUs and"
        " Stable Diffusion in 31.4 minutes with 256 GPUs."
    )
    c = ClaimFacts(kind="time", value=value, unit="min", benchmark_key="llama2_70b_lora")
    assert _resolve(c, s, vendor="AMD").accelerators == count


def test_a_count_in_an_opening_clause_is_the_sentences() -> None:
    s = "Using 512 Gaudi3 accelerators, Intel trained GPT-3 in 40.2 minutes."
    c = ClaimFacts(kind="time", value=40.2, unit="min", benchmark_key="gpt3")
    assert _resolve(c, s, vendor="Intel").accelerators == 512


def test_the_suite_resolution_and_the_parser_read_one_list_of_inference_models() -> None:
    """The claim parser and the suite resolution read the same model names (they had
    drifted: resolution read "DLRMv3" as DLRM v2 and knew no v6 model). A Google-style
    sentence naming v6 models: each is read as the checker names it."""
    from benchdb.claims import resolve_suite
    from ingest.claims.parsers import inference as claim_inference

    text = "TPU v7 served DLRMv3, gpt-oss-120B and Qwen3-VL, and DLRM v2 on Trillium."
    assert resolve_suite.models_named(text) == [
        "dlrm-v3",
        "gpt-oss-120b",
        "qwen3-vl-235b-a22b",
        "dlrm-v2",
    ]
    assert claim_inference.MODELS is resolve_suite.INFERENCE_MODELS


def test_a_benchmark_named_as_replaced_is_not_the_figures() -> None:
    """ "Stable Diffusion replaced Mask R-CNN, and Intel trained it in 11 minutes on
    Gaudi 2": the replaced benchmark is not the figure's; the other one is (the class
    came from a report on NVIDIA's Llama 3.1 8B, which replaced BERT-large; the
    sentence is in Intel's words). A sentence naming two benchmarks without replacing
    either keeps the figure's own."""
    page = PageContext(vendor="Intel")
    got = resolve_claim(
        ClaimFacts(kind="time", value=11.0, unit="min", benchmark_key="maskrcnn"),
        "Stable Diffusion replaced Mask R-CNN, and Intel trained it in 11 minutes on Gaudi 2.",
        page,
        ROUND_PUBLISHED,
    )
    assert got.benchmark_key == "stable_diffusion" and "benchmark-replaced" in got.context
    own = resolve_claim(
        ClaimFacts(kind="time", value=11.0, unit="min", benchmark_key="maskrcnn"),
        "Mask R-CNN took 30 minutes, and Stable Diffusion took 11 minutes on Gaudi 2.",
        page,
        ROUND_PUBLISHED,
    )
    assert own.benchmark_key == "stable_diffusion"
    # "succeeded in training ResNet-50" replaces nothing: the figure keeps its benchmark
    kept = resolve_claim(
        ClaimFacts(kind="time", value=20.0, unit="min", benchmark_key="resnet"),
        "Intel succeeded in training ResNet-50 in 20 minutes and BERT in 8 minutes.",
        page,
        ROUND_PUBLISHED,
    )
    assert kept.benchmark_key == "resnet"


def test_the_pages_vendor_named_only_as_a_maker_does_not_replace_the_submitter() -> None:
    """training/11 (HPCwire: "Dell was a new submitter ... (32x PowerEdge XE8545 servers
    with 128 Nvidia A100 SXM GPUs)" on a page whose vendor is NVIDIA), here in HPE's
    words: NVIDIA makes the GPUs, HPE submitted."""
    s = "HPE was a new submitter (16 Apollo 6500 servers with 128 NVIDIA A100 GPUs)."
    c = ClaimFacts(kind="scale", value=16.0, unit="node", submitter="HPE")
    assert words.subject_submitter(c, s, s, "NVIDIA", False) == {}
    # the vendor named as a submitter beside the one parsed still wins (CoreWeave's page)
    joint = "CoreWeave, NVIDIA, and IBM delivered the largest submission on 2,496 GPUs."
    got = words.subject_submitter(replace(c, submitter="NVIDIA"), joint, joint, "CoreWeave", False)
    assert got == {"submitter": "CoreWeave"}


def test_the_sentences_own_date_is_its_figures_round() -> None:
    """On a page about MLPerf Training v3.1 (November 2023), "In June, Gaudi 2 trained
    GPT-3 in 311.94 minutes on 384 accelerators" is a v3.0 figure (Intel's own June
    result: 311.94 min), whatever round the page or an earlier sentence gave (the class
    came from NVIDIA's "the June record of 10.9 minutes"; the sentence is Intel's)."""
    page = PageContext(text="Intel in MLPerf Training v3.1.", published=date(2023, 11, 9))
    carried = ClaimFacts(
        kind="time",
        value=311.94,
        unit="min",
        benchmark_key="gpt3",
        round="v3.1",
        context=("round",),
    )
    s = "In June, Gaudi 2 trained GPT-3 in 311.94 minutes on 384 accelerators."
    got = resolve_claim(carried, s, page, ROUND_PUBLISHED)
    assert (got.round, "round-relative" in got.context) == ("v3.0", True)
    # a round the sentence names itself still wins over its date words
    named = "In June, MLPerf Training v3.1 was not out yet; Gaudi 2 took 153.58 minutes."
    assert (
        resolve_claim(replace(carried, value=153.58), named, page, ROUND_PUBLISHED).round == "v3.1"
    )


def test_a_gain_over_a_months_record_is_over_that_rounds_best() -> None:
    """ "2x over the June record" (Google's words; the class came from NVIDIA's "nearly
    3x over the June record of 10.9 minutes"): the baseline is the best result of the
    round published that June, not the subject's own earlier line."""
    page = PageContext(text="MLPerf Training v3.1", published=date(2023, 11, 9))
    c = ClaimFacts(kind="multiplier", value=2.0, unit="x", benchmark_key="gpt3", round="v3.1")
    s = "TPU v5e trained GPT-3 2x faster than the June record."
    assert resolve_claim(c, s, page, ROUND_PUBLISHED).baseline == "best:v3.0"


def test_a_respectively_list_keeps_each_figure_on_its_own_name() -> None:
    """Inspur's Training v1.1 release (../shared/vendor/inspur-mlperf-training-v1.1.zh.txt,
    also ZOL's repost): 22% is BERT's (自然语言理解), not RNN-T's, although the clause
    "语音识别任务的AI训练速度分别提升22%" holds both; v1.1 NVIDIA BERT 0.2262 min against
    v1.0's best (Google) 0.2760 min is the 22%."""
    s = (
        "在集群系统测试的8项任务中,英伟达获7项冠军,相较于V1.0竞赛最佳成绩将自然语言理解、"
        "目标物体检测(MASKR-CNN)、语音识别任务的AI训练速度分别提升22%、18%、14%。"
    )
    for value, key in ((22.0, "bert"), (18.0, "maskrcnn"), (14.0, "rnnt")):
        c = ClaimFacts(kind="percentage", value=value, unit="%", benchmark_key=key)
        assert _resolve(c, s, vendor="Inspur").benchmark_key == key


def test_a_year_the_sentence_gives_its_results_overrides_the_pages_round() -> None:
    """training/07 (a press rewrite of Azure's v4.1 news: "In previous 2023 benchmarks,
    Azure showed it could train a GPT-3 model ... on 10,752 H100 GPUs in approximately 4
    minutes"), here in Google's words (constructed): the year holds two rounds (v3.0,
    v3.1), so the page's v4.1 is not the figure's round and each of the year's rounds is
    a reading (``benchdb.claims.undated``); a year of one round is that round."""
    from benchdb.claims import verdicts

    s = "In previous 2023 benchmarks, Google trained GPT-3 on 6,144 TPU v5e chips in 44 minutes."
    page = "Google Cloud TPU results in MLPerf Training v4.1. " + s
    c = ClaimFacts(kind="time", value=44.0, unit="min", submitter="Google", benchmark_key="gpt3")
    got = resolve_claim(c, s, PageContext(text=page, vendor="Google"), ROUND_PUBLISHED)
    assert got.round == "" and words.year_of(got.context) == 2023
    assert verdicts._rounds_of(got, "training") == ("v3.0", "v3.1")
    one = s.replace("2023", "2020")  # v0.7 (July 2020) alone
    got = resolve_claim(c, one, PageContext(text=page, vendor="Google"), ROUND_PUBLISHED)
    assert (got.round, "round-year" in got.context) == ("v0.7", True)


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("In previous 2023 benchmarks, Azure showed", 2023),
        ("in the 2022 MLPerf Training round", 2022),
        ("2021年的MLPerf测试中", 2021),
        ("a 2023 study of GPU clusters", 0),  # no results word
        ("in the June 2023 results", 0),  # a month: rounds_named's
        ("the 2022 round and the 2023 round", 0),  # two years: none
    ],
)
def test_the_year_a_sentence_gives_its_results(text: str, year: int) -> None:
    assert words.year_rounds(text, ROUND_PUBLISHED)[0] == year


def test_a_benchmark_carried_from_another_sentence_that_the_round_lacks_is_dropped() -> None:
    """training/16 (NVIDIA Eos repost: "...1,024 个 NVIDIA Hopper 架构 GPU 在 2.5 分钟内完成了
    基于 Stable Diffusion ... 当时英伟达使用了 3,584 个 Hopper GPU", the count of June's
    v3.0, which had no Stable Diffusion), here in Intel's words (constructed): the
    Llama 2 70B LoRA benchmark of the sentence before (new in v4.0) is not the v3.0
    count's; the title's GPT-3 is (a v3.0 benchmark), as when nothing was carried."""
    title = "英特尔Gaudi 2再破纪录，GPT-3训练提速"
    s = "去年6月，英特尔使用了384个Gaudi2加速器。"
    c = ClaimFacts(
        kind="scale",
        value=384.0,
        unit="accelerator",
        submitter="Intel",
        system="Gaudi2",
        benchmark_key="llama2_70b_lora",
        round="v3.0",
    )
    got = resolve_claim(c, s, PageContext(title=title, text=s, vendor="Intel"), ROUND_PUBLISHED)
    assert got.benchmark_key == "gpt3"
    assert {"benchmark-not-in-round", "benchmark-title"} <= set(got.context)
    # a round that has the benchmark keeps it
    kept = resolve_claim(
        replace(c, round="v4.0"), s, PageContext(title=title, text=s), ROUND_PUBLISHED
    )
    assert kept.benchmark_key == "llama2_70b_lora"
