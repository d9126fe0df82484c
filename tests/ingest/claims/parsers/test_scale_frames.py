"""Counts of accelerators read by class of phrasing (issue 20). Each sentence is written
in the words of a different vendor than the corpus page (../shared/vendor-dev) that
showed the class; the page is named beside each test."""

from __future__ import annotations

from datetime import date

from benchdb.claims import verdicts
from benchdb.claims.facts import ClaimFacts, ResultFacts, system_matches
from benchdb.claims.resolve import PageContext, resolve_claim
from benchdb.vocabulary import ROUND_PUBLISHED
from ingest.claims.parsers.text import extract_claims


def _azure(folder: str, name: str, count: int, submitter: str = "Azure+NVIDIA") -> ResultFacts:
    """A result of Azure's VM series as the v3.1 systems JSON names it
    (mlcommons/training_results_v3.1 at d06288b,
    ``Azure+NVIDIA/systems/ND_H100_v5_n1344_pytorch.json``: system_name
    "ND_H100_v5 x1344", 1,344 nodes x 8 H100-SXM-80GB); gpt3 4.0085 min."""
    return ResultFacts(
        pk=1,
        round="v3.1",
        submitter=submitter,
        system_folder=folder,
        system_name=name,
        division="closed",
        availability="available",
        accelerators=count,
        accelerator_model="NVIDIA H100-SXM-80GB",
        framework="PyTorch NVIDIA Release 23.09",
        benchmark="gpt3",
        score_minutes=4.0085,
        nodes=count // 8,
    )


def test_azure_vm_series_is_the_system_not_the_bare_accelerator() -> None:
    """training/06 (Azure's blog, spun): "... in 4 minutes on 1,344 ND H100 v5 VMs";
    here in NVIDIA's words: the system is the VM series, which names Azure's folder and
    not an Eos one."""
    text = (
        "In MLPerf Training v3.1, Microsoft trained GPT-3 in 4 minutes on 1,344 ND H100 v5"
        " virtual machines, NVIDIA said."
    )
    (c,) = [c for c in extract_claims(text) if c.kind == "time"]
    assert c.system == "ND H100 v5"
    azure = _azure("ND_H100_v5_n1344_pytorch", "ND_H100_v5 x1344", 10752)
    eos = _azure("eos-dfw_n1344_ngc23.09_nemo", "NVIDIA Eos", 10752, submitter="NVIDIA")
    assert system_matches(c.system, azure) and not system_matches(c.system, eos)


def test_the_size_of_one_unit_of_several_is_no_scale_of_a_result() -> None:
    """training/10 ("Using 34 72-GPU NVLink domains combined into a 2,496-GPU
    cluster"), here in Google's words: "64" is one slice's size; the cluster's count is
    a scale claim as before."""
    text = (
        "In MLPerf Training v4.0, Google linked 96 64-chip TPU v5p slices into a"
        " 6,144-chip cluster."
    )
    scales = {c.value: c for c in extract_claims(text) if c.kind == "scale"}
    assert scales[6144.0].accelerators == 6144
    one = scales[64.0]
    assert one.accelerators is None and "per-unit" in one.context
    v = verdicts.verify_claim(ClaimFacts.from_mapping(one.as_dict(), round="v4.0"), [])
    assert v.verdict == "unverifiable"
    assert "one unit" in v.details["reason"]


def test_a_count_takes_no_benchmark_named_only_elsewhere_on_the_page() -> None:
    """training/07 ("512 Nvidia H200 GPUs" in v4.1, "GPT-3" only in a paragraph about
    2023), here in Oracle's words: the count reads every benchmark of its round."""
    page = (
        "Oracle posted MLPerf Training v4.1 results on 512 H100 GPUs.\n\n"
        "Last year, Oracle trained GPT-3 on 3,072 GPUs."
    )
    sentence = "Oracle posted MLPerf Training v4.1 results on 512 H100 GPUs."
    c = ClaimFacts(kind="scale", value=512.0, unit="GPU", accelerators=512, round="v4.1")
    ctx = PageContext(text=page, published=date(2024, 11, 14))
    got = resolve_claim(c, sentence, ctx, ROUND_PUBLISHED)
    assert got.benchmark_key == ""
    t = ClaimFacts(kind="time", value=30.0, unit="min", round="v4.1")
    assert resolve_claim(t, sentence, ctx, ROUND_PUBLISHED).benchmark_key == "gpt3"


def test_a_count_the_cut_off_text_ends_on_is_a_count_of_accelerators() -> None:
    """training/01 (Google, "...by scaling up to 3,456 of our next" where the capture
    stops) and training/06 (Azure, "...VMs, which characterize 10,752"), here in
    Graphcore's and Intel's words: the last number is a count of accelerators."""
    cut = "In MLPerf Training v2.0, Graphcore set records by scaling up to 256 of our"
    (c,) = [c for c in extract_claims(cut) if c.kind == "scale"]
    assert (c.value, c.unit, c.accelerators) == (256.0, "accelerator", 256)
    vms = "In MLPerf Training v3.0, Intel ran GPT-3 on 48 Gaudi2 servers, which represent 384"
    scales = {c.value: c for c in extract_claims(vms) if c.kind == "scale"}
    assert scales[384.0].accelerators == 384


def test_a_count_the_text_goes_on_after_is_not_read_as_cut_off() -> None:
    """The same words with the sentence complete: no count of unknown unit."""
    text = (
        "In MLPerf Training v2.0, Graphcore set records by scaling up to 256 of our"
        " customers' favourite models. More results follow."
    )
    assert [c for c in extract_claims(text) if c.unit == "accelerator"] == []
