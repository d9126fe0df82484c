"""How an MLPerf Inference (and Automotive, Tiny, Mobile, Storage) claim's words name
results: the units a claimed figure can be read against, and a page's system mention
(``GB200 NVL72``, ``H200 NVL8``, an accelerator alone, a CPU generation, a Jetson
module, a system's name or folder) against a result's system. Split from
:mod:`benchdb.claims.verdicts_values`, which reads them. Pure: no Django."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from benchdb.claims.facts import ClaimFacts, ResultFacts
from benchdb.claims.other_suites import BYTE_UNITS, OTHER_SUITES
from benchdb.claims.subjects import ARCHITECTURES, family_matches, family_of, is_host

#: Claim units (as ``ingest.claims.parsers.quantities`` writes them) -> (result units
#: they can be read against, factor from the result's unit to the claim's).
UNITS: dict[str, tuple[frozenset[str], float]] = {
    "token/s": (frozenset({"Tokens/s"}), 1.0),
    # MLPerf Mobile's app writes its units in lower case (``queries/s``, ``samples/s``)
    "sample/s": (frozenset({"Samples/s", "Queries/s", "samples/s", "queries/s"}), 1.0),
    "query/s": (frozenset({"Queries/s", "Samples/s", "queries/s", "samples/s"}), 1.0),
    "image/s": (frozenset({"Samples/s", "Queries/s", "samples/s", "queries/s"}), 1.0),
    "ms": (frozenset({"Latency (ms)", "ms"}), 1.0),  # MLPerf Tiny's latency: ms
    "uJ": (frozenset({"uJ"}), 1.0),  # MLPerf Tiny's energy per inference
    # MLPerf Storage's bandwidth (MiB/s): each reading's factor is other_suites.BYTE_UNITS'
    **{unit: (frozenset({"MiB/s"}), 1.0) for unit in BYTE_UNITS},
    "s": (frozenset({"Latency (ms)"}), 0.001),
    "us": (frozenset({"Latency (ms)"}), 1000.0),
}

_POD = re.compile(r"([a-z]+\d+)nvl(\d+)")


def norm(s: str) -> str:
    """``s`` lower-cased with everything but letters and digits removed."""
    return re.sub(r"[^a-z0-9]", "", s.lower())


def system_matches(mention: str, r: ResultFacts, accelerators: int | None = None) -> bool:
    """Whether a page's system mention names result ``r``'s system: ``GB200 NVL72`` /
    ``H200 NVL8`` (that accelerator, that many of them), an accelerator alone
    (``H100``, ``GB200``, ``MI300X``), or the system's name or folder. ``accelerators``,
    when given, must equal the system's count."""
    key, accel = norm(mention), r.accelerator_model.lower()
    if not key:
        return False
    fam = family_of(mention)
    if is_host(fam):  # "Cascade Lake": a CPU-only system of that generation, nothing else
        return family_matches(fam, r, None)
    if fam.startswith("Jetson"):  # "Jetson AGX Orin": the systems JSON says "NVIDIA Orin"
        return family_matches(fam, r, accelerators)
    if accelerators is not None and r.accelerators is not None and r.accelerators != accelerators:
        return False
    pod = _POD.fullmatch(key)
    if pod:
        return names_accelerator(pod.group(1), accel) and r.accelerators == int(pod.group(2))
    if re.fullmatch(r"(gb|b|h|a|l|t)\d{2,3}|mi\d{3}x?", key):
        return names_accelerator(key, accel)
    if fam in ARCHITECTURES:  # "Blackwell": any model of it (B200, GB200, B300, GB300)
        return family_matches(fam, r, accelerators)
    name, folder = norm(r.system_name), norm(r.system_folder)
    if r.suite in OTHER_SUITES and key == norm(r.submitter):  # a gain's other submitter
        return True
    return key in (name, folder) or (len(key) >= 5 and (key in name or key in folder))


def names_accelerator(key: str, accel: str) -> bool:
    """``h100`` in "NVIDIA H100-SXM-80GB", ``gb200`` in "NVIDIA GB200", but not
    ``b200`` in "NVIDIA GB200" (lower-cased accelerator model)."""
    return re.search(rf"(?<![a-z0-9]){key}(?![0-9])", accel) is not None


#: A gain of one product over another (:func:`products`): the compared side's link role,
#: and how each side is read.
PRODUCTS = ("compared", "best result of each product per benchmark and scenario, per accelerator")


def products(c: ClaimFacts) -> bool:
    """Whether a gain compares two products named as such, no count stated on either
    side ("Blackwell ... up to 4x ... compared to the NVIDIA H100 Tensor Core GPU",
    "H200 ... 1.5x the H100 submissions", "Xeon 6 ... compared with 5th Gen Xeon"):
    accelerator families, architectures or processor generations
    (:func:`benchdb.claims.subjects.family_of`), not systems."""
    return (
        c.accelerators is None
        and c.compared_accelerators is None
        and bool(family_of(c.system))
        and bool(family_of(c.compared_system))
    )


def product_sides(
    c: ClaimFacts, subj: Sequence[ResultFacts], others: Sequence[ResultFacts]
) -> tuple[ClaimFacts, list[ResultFacts], list[ResultFacts]]:
    """(claim read per accelerator, subject results, compared results) of a gain of one
    product over another of the same round (:func:`products`), which the verifier reads
    as each product's best result per benchmark and scenario
    (``verdicts_values._verify_generations``), never one product's best against the
    other's weakest (an open-division 4-GPU run of another submitter): per accelerator
    (a product is a chip: a 1-GPU B200 system against 8-GPU H100 ones is read per GPU;
    a CPU-only system, with no accelerator, by its own figure), in the closed division
    when the text names none and both products have closed results (MLCommons'
    convention, closed before open)."""
    closed = [[r for r in side if r.division == "closed"] for side in (subj, others)]
    if not c.division and all(closed):
        return replace(c, per_accelerator=True), closed[0], closed[1]
    return replace(c, per_accelerator=True), list(subj), list(others)
