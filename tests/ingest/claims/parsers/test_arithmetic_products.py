"""A hardware total its sentence gives as a count of units times a per-unit figure
(``ingest.claims.parsers.arithmetic_products``). The class was shown by FuriosaAI's RNGD
page (../shared/vendor-dev/inference/16: "Each RNGD chip offers 512 TFLOPS (FP8) ...,
with an 8-chip server configuration achieving 4 petaFLOPS (FP8)"); the sentences here
are in Intel's style for Gaudi 3 (1,835 TFLOPS FP8 per accelerator, Intel's Gaudi 3
white paper). Expected figures worked out by hand: 8 x 1,835 TFLOPS = 14,680 TFLOPS =
14.68 PFLOPS, printed 14.7."""

from __future__ import annotations

import pytest

from ingest.claims.parsers.arithmetic import page_arithmetic
from ingest.claims.parsers.text import extract_claims

_GAUDI = (
    "Each Intel Gaudi 3 accelerator delivers 1,835 TFLOPS (FP8), and a baseboard with 8"
    " accelerators reaches {total} PFLOPS ({tag})."
)


def _judged(text: str) -> dict[float | None, object]:
    claims = extract_claims(text)
    return {c.value: pa for c, pa in zip(claims, page_arithmetic(claims), strict=True)}


def test_a_total_that_is_the_count_times_the_per_unit_figure_is_consistent_with_the_page() -> None:
    pas = _judged(_GAUDI.format(total="14.7", tag="FP8"))
    pa = pas[14.7]
    assert pa is not None
    assert pa.verdict == "consistent-with-page"  # type: ignore[attr-defined]
    assert pa.reading == "product"  # type: ignore[attr-defined]
    assert pa.implied == pytest.approx(14.68)  # type: ignore[attr-defined]
    assert (pa.old.value, pa.old.unit, pa.new.value) == (1835.0, "TFLOPS", 8.0)  # type: ignore[attr-defined]
    # the per-unit figure and the count are operands, not judged themselves
    assert pas[1835.0] is None and pas[8.0] is None
    # a footnote mark stuck to "Each" (the RNGD page's "2Each") is still "each"
    glued = _judged("1" + _GAUDI.format(total="14.7", tag="FP8"))[14.7]
    assert glued is not None and glued.verdict == "consistent-with-page"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text",
    [
        # the product is not the total: measured against peak, sparsity left unsaid
        _GAUDI.format(total="12", tag="FP8"),
        # another precision on the total
        _GAUDI.format(total="14.7", tag="BF16"),
        # no "each": the first figure need not be a per-unit one
        _GAUDI.format(total="14.7", tag="FP8").replace("Each Intel", "The Intel"),
        # two per-unit figures of the dimension: which one multiplies is left open
        "Each Gaudi 3 accelerator delivers 1,835 TFLOPS (FP8) or 1,835 TFLOPS (BF16), and a"
        " baseboard with 8 accelerators reaches 14.7 PFLOPS (FP8).",
    ],
)
def test_no_page_verdict_when_the_words_do_not_link_a_product(text: str) -> None:
    pas = _judged(text)
    assert all(pa is None for pa in pas.values()), pas
