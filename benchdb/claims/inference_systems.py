"""How an MLPerf Inference (and Automotive, Tiny, Mobile, Storage) claim's words name
results: the units a claimed figure can be read against, and a page's system mention
(``GB200 NVL72``, ``H200 NVL8``, an accelerator alone, a CPU generation, a Jetson
module, a system's name or folder) against a result's system. Split from
:mod:`benchdb.claims.verdicts_values`, which reads them. Pure: no Django."""

from __future__ import annotations

import re

from benchdb.claims.facts import ResultFacts
from benchdb.claims.other_suites import BYTE_UNITS, OTHER_SUITES
from benchdb.claims.subjects import family_matches, family_of, is_host

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
    name, folder = norm(r.system_name), norm(r.system_folder)
    if r.suite in OTHER_SUITES and key == norm(r.submitter):  # a gain's other submitter
        return True
    return key in (name, folder) or (len(key) >= 5 and (key in name or key in folder))


def names_accelerator(key: str, accel: str) -> bool:
    """``h100`` in "NVIDIA H100-SXM-80GB", ``gb200`` in "NVIDIA GB200", but not
    ``b200`` in "NVIDIA GB200" (lower-cased accelerator model)."""
    return re.search(rf"(?<![a-z0-9]){key}(?![0-9])", accel) is not None
