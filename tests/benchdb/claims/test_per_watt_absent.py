"""A figure per watt given to a company that ran none of the frame's benchmarks
(issue 20; ``benchdb.claims.per_watt.absent_subject``). The class was shown by
Reuters' first Qualcomm/NVIDIA story (../shared/vendor-dev/inference/01: "while
Neuchips ranked second at 8.9 samples per watt"); the sentence tested here is another
publisher's rewrite with its own phrasing ("followed by Neuchips at 8.9"), from
https://tcitnews.com/qualcomm-and-nvidia-battle-for-top-spot-in-ai-chip-efficiency-tests-test-results-and-analysis/
(found with the search tool, corpus pages).

The results are the real MLPerf Inference v3.0 closed ones (power: mean W over
LoadGen's power window, as benchdb ingests it): NVIDIA H100-PCIe-80GBx8_TRT_MaxQ
bert-99 Server 33,003.58 queries/s / 3,061.41 W = 10.78/W; Qualcomm
r282_z93_q8e-qaic-v1.8.3.7-aic100 bert-99 Server 4,802.16 / 536.71 W = 8.95/W and
g292_z43_q16e 9,752.50 / 1,296.42 W = 7.52/W; Neuchips' v3.0 result folders are
RecAccel-N3000-32GB-PCIEx1/x8 on dlrm-99 and dlrm-99.9 only
(inference_results_v3.0 1948f9b5b)."""

from __future__ import annotations

from dataclasses import replace

from benchdb.claims.facts import ClaimFacts, ResultFacts
from benchdb.claims.inference_frames import OWN_WORDS_TAG, per_watt_frame
from benchdb.claims.round_counts import Holding
from benchdb.claims.verdicts import verify_claim
from ingest.claims.parsers import text as claim_text

_TEXT = (
    "In natural language processing, which is the AI technology most commonly used in"
    " chatbots, Nvidia took the top spot with 10.8 samples per watt, followed by Neuchips"
    " at 8.9 samples per watt and Qualcomm at 7.5 samples per watt."
)


def _power(
    pk: int, sub: str, folder: str, accel: str, n: int, value: float, watts: float
) -> ResultFacts:
    return ResultFacts(
        pk=pk,
        round="v3.0",
        submitter=sub,
        system_folder=folder,
        system_name=folder,
        division="closed",
        availability="available",
        accelerators=n,
        accelerator_model=accel,
        framework="",
        benchmark="bert-99",
        score_minutes=None,
        suite="inference",
        metric="Server",
        unit="Queries/s",
        higher_is_better=True,
        value=value,
        model="bert",
        scenario="Server",
        category="datacenter",
        power=watts,
        power_unit="Watts",
    )


_RESULTS = [
    _power(1, "NVIDIA", "H100-PCIe-80GBx8_TRT_MaxQ", "NVIDIA H100-PCIe-80GB", 8, 33003.58, 3061.41),
    _power(
        2,
        "Qualcomm",
        "r282_z93_q8e-qaic-v1.8.3.7-aic100",
        "QUALCOMM Cloud AI 100",
        8,
        4802.16,
        536.71,
    ),
    _power(
        3,
        "Qualcomm",
        "g292_z43_q16e-qaic-v1.8.3.7-aic100",
        "QUALCOMM Cloud AI 100",
        16,
        9752.50,
        1296.42,
    ),
]
_ENTRIES = (
    ("NVIDIA", "bert-99", "closed", "H100-PCIe-80GBx8_TRT_MaxQ", "TensorRT"),
    ("Neuchips", "dlrm-99", "closed", "RecAccel-N3000-32GB-PCIEx1", ""),
    ("Neuchips", "dlrm-99", "closed", "RecAccel-N3000-32GB-PCIEx8", ""),
    ("Neuchips", "dlrm-99.9", "closed", "RecAccel-N3000-32GB-PCIEx1", ""),
    ("Neuchips", "dlrm-99.9", "closed", "RecAccel-N3000-32GB-PCIEx8", ""),
    ("Qualcomm", "bert-99", "closed", "r282_z93_q8e-qaic-v1.8.3.7-aic100", ""),
    ("Qualcomm", "bert-99", "closed", "g292_z43_q16e-qaic-v1.8.3.7-aic100", ""),
)


def _held(incomplete: frozenset[str] = frozenset()) -> dict[tuple[str, str], Holding]:
    subs = ("NVIDIA", "Neuchips", "Qualcomm")
    return {
        ("inference", "v3.0"): Holding("inference", "v3.0", "c" * 40, subs, incomplete, _ENTRIES)
    }


def _frames(text: str) -> dict[float | None, ClaimFacts]:
    out = {}
    for c in claim_text.extract_claims(text):
        if c.unit != "sample/W":
            continue
        f = ClaimFacts.from_mapping(c.as_dict())
        f = per_watt_frame(f, text, c.start, c.end, c.sentence_start, c.sentence_end)
        out[c.value] = replace(f, round="v3.0", mlperf_context=True)  # the story's MLCommons data
    return out


def test_a_company_that_ran_none_of_the_benchmarks_has_no_figure_per_watt() -> None:
    """Neuchips, named in its figure's own words, ran no BERT in a round benchdb holds
    whole: inconsistent, no result linked, the results that give 8.9/W named."""
    f = _frames(_TEXT)[8.9]
    assert (f.submitter, f.benchmark_key, OWN_WORDS_TAG in f.context) == ("Neuchips", "bert", True)
    v = verify_claim(f, _RESULTS, holdings=_held())
    assert v.verdict == "inconsistent"
    assert v.links == ()
    assert v.details["subject_results"] == ["dlrm-99", "dlrm-99.9"]
    assert [x.split(": ")[1].split(" (")[0] for x in v.details["named_elsewhere"]] == [
        "v3.0 Qualcomm r282_z93_q8e-qaic-v1.8.3.7-aic100"
    ]


def test_no_verdict_when_the_company_ran_the_benchmark_or_its_round_is_not_whole() -> None:
    frames = _frames(_TEXT)
    # Qualcomm ran BERT on two systems (8.95/W, 7.52/W): the readings decide, not this rule
    v = verify_claim(frames[7.5], _RESULTS, holdings=_held())
    assert v.verdict == "unverifiable" and "which system" in v.details["reason"]
    # a result folder Neuchips listed is not stored: it may be a BERT one
    v = verify_claim(frames[8.9], _RESULTS, holdings=_held(frozenset({"Neuchips"})))
    assert v.verdict == "unverifiable"
    # no tree recorded for the round: nothing is known whole
    assert verify_claim(frames[8.9], _RESULTS, holdings=None).verdict == "unverifiable"


def test_an_appositive_between_the_company_and_its_figure_keeps_it_the_subject() -> None:
    """inference/01's "Neuchips Corp (...), a start-up founded by veteran Taiwanese chip
    academic Lin Youn-long (...), took the top spot with 227 queries per watt" showed
    the class: a bracketed name and one appositive set off by commas are not the
    figure's clause (here in the rewrite's words about BERT): the company is the
    subject, and it ran no BERT."""
    text = (
        "In natural language processing, Neuchips, a start-up founded by veteran Taiwanese"
        " chip academic Youn-Long Lin, came out on top, scoring 8.9 samples per watt."
    )
    f = _frames(text)[8.9]
    assert f.submitter == "Neuchips" and OWN_WORDS_TAG in f.context
    assert verify_claim(f, _RESULTS, holdings=_held()).verdict == "inconsistent"


def test_a_company_far_from_its_figure_is_not_taken_as_the_texts_subject() -> None:
    """More than eight words of the clause itself between the company and the figure:
    the company may not be the figure's subject; no verdict from this rule."""
    text = (
        "In natural language processing Neuchips was not among the leaders this time as the"
        " best system reached 8.9 samples per watt."
    )
    f = _frames(text)[8.9]
    assert f.submitter == "Neuchips" and OWN_WORDS_TAG not in f.context
    assert verify_claim(f, _RESULTS, holdings=_held()).verdict == "unverifiable"


def _with_v21(neuchips_bert: bool) -> dict[tuple[str, str], Holding]:
    """The v3.0 holding and v2.1's (the round before): Neuchips submitted nothing in
    v2.1 (inference_results_v2.1 91f7859b8 has no Neuchips folder)."""
    entries = (("NVIDIA", "bert-99", "closed", "H100-SXM-80GBx1_TRT", "TensorRT"),)
    if neuchips_bert:  # as if it had: the story may quote the earlier round
        entries += (("Neuchips", "bert-99", "closed", "RecAccel", ""),)
    v21 = Holding("inference", "v2.1", "d" * 40, ("NVIDIA", "Neuchips"), frozenset(), entries)
    return {**_held(), ("inference", "v2.1"): v21}


def test_a_round_from_the_pages_date_needs_the_round_before_free_of_it_too() -> None:
    """The story's round comes from its date (context ``round-date``): it may quote the
    round before, so the company must have run none of the benchmarks there either, and
    benchdb must hold that round."""
    f = _frames(_TEXT)[8.9]
    f = replace(f, context=(*f.context, "round-date"))
    assert verify_claim(f, _RESULTS, holdings=_held()).verdict == "unverifiable"
    assert verify_claim(f, _RESULTS, holdings=_with_v21(False)).verdict == "inconsistent"
    assert verify_claim(f, _RESULTS, holdings=_with_v21(True)).verdict == "unverifiable"


# --- no benchmark named: every benchmark is a reading ------------------------------------

#: Neuchips' v3.0 power results (RecAccel-N3000-32GB-PCIEx8; the PCIEx1 system ran no
#: power measurement): dlrm-99 Server 856,398 queries/s / 807.88 W = 1,060.06/W, Offline
#: 811,664 / 785.42 W = 1,033.41/W; and Qualcomm's ResNet-50 Server 145,880.94 /
#: 641.53 W = 227.40/W (r282_z93_q8e), the figure inference/01 gave Neuchips.
_NEUCHIPS = [
    replace(
        _power(11, "Neuchips", "RecAccel-N3000-32GB-PCIEx8", "RecAccel N3000", 8, q, w),
        benchmark="dlrm-99",
        model="dlrm",
        scenario=scen,
        metric=scen,
        unit="Queries/s" if scen == "Server" else "Samples/s",
    )
    for q, w, scen in ((856398.0, 807.8768, "Server"), (811664.0, 785.4205, "Offline"))
] + [
    replace(
        _power(13, "Neuchips", "RecAccel-N3000-32GB-PCIEx1", "RecAccel N3000", 1, 107001.0, 0.0),
        benchmark="dlrm-99",
        model="dlrm",
        power=None,
        power_unit="",
    ),
    replace(
        _power(
            14,
            "Qualcomm",
            "r282_z93_q8e-qaic-v1.8.3.7-aic100",
            "QUALCOMM Cloud AI 100",
            8,
            145880.94,
            641.53,
        ),
        benchmark="resnet",
        model="resnet",
    ),
]


def _query_frame(text: str) -> ClaimFacts:
    c = next(c for c in claim_text.extract_claims(text) if c.unit == "query/W")
    f = ClaimFacts.from_mapping(c.as_dict())
    f = per_watt_frame(f, text, c.start, c.end, c.sentence_start, c.sentence_end)
    return replace(f, round="v3.0", mlperf_context=True)


def test_no_benchmark_named_and_none_of_the_companys_figures_per_watt_is_the_claimed_one() -> None:
    """The class inference/01 showed (Reuters: "Neuchips Corp (...), a start-up founded
    by ..., took the top spot with 227 queries per watt"), here in a Taiwanese trade
    paper's words: no benchmark named, so every benchmark is a reading; Neuchips' only
    figures per watt (DLRM: 1,060 and 1,033) are not 227: inconsistent, nothing linked,
    the result that gives 227/W named."""
    text = (
        "NEUCHIPS, the Hsinchu-based chip start-up, led the efficiency"
        " table at 227 queries per watt."
    )
    f = _query_frame(text)
    assert (f.submitter, f.benchmark_key, OWN_WORDS_TAG in f.context) == ("Neuchips", "", True)
    v = verify_claim(f, _RESULTS + _NEUCHIPS, holdings=_held())
    assert v.verdict == "inconsistent" and v.links == ()
    assert "dlrm-99 Server 1060.06/W" in v.details["reason"]
    assert [x.split(": ")[1].split(" (")[0] for x in v.details["named_elsewhere"]] == [
        "v3.0 Qualcomm r282_z93_q8e-qaic-v1.8.3.7-aic100"
    ]


def test_no_benchmark_named_and_a_reading_that_may_hold_gives_no_verdict() -> None:
    """The company's own figure per watt (DLRM Server 1,060), a result whose figure per
    watt is unknown (a latency scenario's energy in joules), or a result folder of the
    company that is not stored: some benchmark may give the figure; no verdict."""
    ok = _query_frame(
        "NEUCHIPS, the Hsinchu-based chip start-up, led the efficiency"
        " table at 1,060 queries per watt."
    )
    assert verify_claim(ok, _RESULTS + _NEUCHIPS, holdings=_held()).verdict == "unverifiable"
    f = _query_frame(
        "NEUCHIPS, the Hsinchu-based chip start-up, led the efficiency"
        " table at 227 queries per watt."
    )
    energy = replace(_NEUCHIPS[0], pk=15, scenario="SingleStream", power=0.06, power_unit="joules")
    v = verify_claim(f, _RESULTS + _NEUCHIPS + [energy], holdings=_held())
    assert v.verdict == "unverifiable"
    v = verify_claim(f, _RESULTS + _NEUCHIPS, holdings=_held(frozenset({"Neuchips"})))
    assert v.verdict == "unverifiable"
    assert verify_claim(f, _RESULTS + _NEUCHIPS, holdings=None).verdict == "unverifiable"


def test_no_benchmark_named_and_the_figure_on_another_submitters_server_with_its_chips() -> None:
    """ "Intel's chips" are also other submitters' servers on Intel processors: when the
    result that gives the figure names the company in its processor (as if a Dell
    server on Xeon CPUs gave 227/W), the company's own results cannot refute it."""
    intel = replace(_NEUCHIPS[0], pk=16, submitter="Intel", system_folder="1-node-2S-SPR")
    dell = replace(
        _NEUCHIPS[3],
        pk=17,
        submitter="Dell",
        system_folder="R760_SPR",
        system_name="R760",
        accelerator_model="N/A",
        processor="Intel(R) Xeon(R) Platinum 8480+",
    )
    held = _held()["inference", "v3.0"]
    held = replace(
        held,
        submitters=(*held.submitters, "Intel", "Dell"),
        entries=(*held.entries, ("Intel", "dlrm-99", "closed", "1-node-2S-SPR", "")),
    )
    f = _query_frame(
        "Intel, the Santa Clara chipmaker, led the efficiency table at 227 queries per watt."
    )
    assert f.submitter == "Intel" and OWN_WORDS_TAG in f.context
    without = verify_claim(f, [intel, _NEUCHIPS[3]], holdings={("inference", "v3.0"): held})
    assert without.verdict == "inconsistent"
    v = verify_claim(f, [intel, dell], holdings={("inference", "v3.0"): held})
    assert v.verdict == "unverifiable"
