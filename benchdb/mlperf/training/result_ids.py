"""MLPerf Training result IDs ("3.0-2053"): the summarizer's numbering, and which rounds'
published IDs it is known to reproduce. Pure: no Django.

An ID names a *row* of the round's results table: one systems JSON (``<Submitter>/systems/
<system>.json``) with every benchmark it ran, so all results of one system folder share it.

Source: mlcommons/logging ``mlperf_logging/result_summarizer/result_summarizer.py`` at each
round's tag (``benchdb.vocabulary.ROUNDS``):

- ``summarize_results`` makes one row per ``results/<system>`` folder whose systems JSON
  loads and has every field of ``_get_column_schema``; ``_print_and_write`` sorts the rows
  by *all* columns (``summaries.sort_values(by=cols)``): division, availability (the raw
  ``status`` up to 3.1.0-rc3; the mapped label from 4.0.0 on, when ``summarize_results``
  maps it with ``_map_availability``), submitter, system, host processor, host processor
  count, accelerator, accelerator count, framework, notes, the benchmark scores (missing
  last), details URL, code URL;
- ``_summaries_to_xlsx`` (``main``, 3.0.0-rc2 on) walks division ``closed`` then
  ``open``, and in each the availability sections in a fixed order, numbering rows
  ``f"{version}-{i:04}"`` from 0 across the whole workbook; a row whose availability maps
  to no section gets no ID.

What the published IDs are (checked by ``bench/result_ids_vs_cited.py`` on whole rounds
against every ID cited in ``../shared/vendor``): not the workbook's numbers. MLCommons'
v3.0 IDs start at ``3.0-2000`` and put the cloud section first: NVIDIA+CoreWeave's
coreweave_hgxh100_n448 mxnet row, third of the 5 cloud rows, is ``3.0-2002``. The nine
on-premise rows NVIDIA cites (Dell XE9680x8H100-SXM-80GB ... NVIDIA dgxh100_n96 mxnet) are
each ``3.0-(1999 + their index in the summarizer's order)``, one less than "cloud, then
on-premise, from 2000" gives: one row numbered before Dell's (one of the 49 on-premise
rows before it, or one of the 2 cloud rows after n448 mxnet: n448 pytorch, n96 pytorch)
has no number of its own in the published table, and the cited IDs cannot tell which.
The published on-premise order is the summarizer's, by the raw ``status`` ("Available
on-premise", then "available", then "onprem"), not by the mapped section: re-sorted by
section then submitter, the 14 H3C, Intel, Intel-HabanaLabs and Lenovo rows ("available")
would fall between GIGABYTE's G593-SD0_pytorch (3.0-2055) and NVIDIA's dgxh100 merlin_hugectr
(3.0-2063), which are 8 rows apart in the summarizer's order as in the cited IDs. No row
before Dell's has no scores in the summary (none is dropped for that), and no other public
v3.0 training ID was found (search of stored pages and code, 2026-11) to tell them apart.
So no round has an established rule yet: :data:`PUBLISHED_RULES` is empty and benchdb
derives no ID (an imported ID is stored instead, with its origin). A round is added
there only when its rule reproduces every published ID found.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: An MLPerf result ID: ``<major>.<minor>-<4 digits>``.
RESULT_ID = re.compile(r"(\d+)\.(\d+)-(\d{4})")

ON_PREMISE = "Available on-premise"
CLOUD = "Available cloud"
PREVIEW = "Preview"
RDI = "Research, Development, or Internal (RDI)"

#: ``xlsx_config.yaml`` ``availability`` at 3.0.0-rc2 and 3.1.0-rc3: looked up exactly
#: (``map_.get(availability, availability)``): any other spelling maps to itself.
AVAILABILITY_3X: dict[str, str] = {
    ON_PREMISE: ON_PREMISE,
    "onprem": ON_PREMISE,
    "available": ON_PREMISE,
    CLOUD: CLOUD,
    "cloud": CLOUD,
    RDI: RDI,
    "preview": RDI,
    "research": RDI,
    "development": RDI,
    "internal": RDI,
}

#: ``config.yaml`` ``availability`` at 4.0.0-rc3-rcp-prunning ... 5.1.0-rc4 (the same
#: 16 keys at every tag); looked up as written, then lower-cased; anything else raises
#: ``ValueError`` in ``_map_availability``.
AVAILABILITY_4X: dict[str, str] = {
    ON_PREMISE: ON_PREMISE,
    "available on-premise": ON_PREMISE,
    "onprem": ON_PREMISE,
    "available": ON_PREMISE,
    "Available onprem": ON_PREMISE,
    "available onprem": ON_PREMISE,
    CLOUD: CLOUD,
    "available cloud": CLOUD,
    "cloud": CLOUD,
    RDI: RDI,
    "research, development, or internal (rdi)": RDI,
    "rdi": RDI,
    "research": RDI,
    "development": RDI,
    "internal": RDI,
    "preview": PREVIEW,
}

#: ``_summaries_to_xlsx``: the sections in workbook order. "Preview" came in with
#: logging commit bc2ae0d (2024-10-11), first in 5.0.0-rc1.
SECTIONS_BEFORE_5 = (ON_PREMISE, CLOUD, RDI)
SECTIONS_FROM_5 = (ON_PREMISE, CLOUD, PREVIEW, RDI)


def tag_key(tag: str) -> tuple[int, int]:
    """``"4.1.0-rc4"`` -> ``(4, 1)``. Raises ValueError for a tag without a version."""
    m = re.match(r"(\d+)\.(\d+)", tag)
    if not m:
        raise ValueError(f"not a summarizer tag: {tag!r}")
    return int(m.group(1)), int(m.group(2))


def summarizer_availability(status: str, tag: str) -> str | None:
    """The section label the summarizer at ``tag`` gives a systems JSON ``status``, or
    None when it has none (before 4.0: any spelling not in :data:`AVAILABILITY_3X`, the
    first map the summarizer had (3.0.0-rc2; older tags have none, and this one stands in
    for them); 4.0 on: the summarizer raises ``ValueError``). Raises ValueError for a
    ``tag`` that does not start with a version."""
    if tag_key(tag) < (4, 0):
        return AVAILABILITY_3X.get(status)
    return AVAILABILITY_4X.get(status, AVAILABILITY_4X.get(status.lower()))


@dataclass(frozen=True)
class SummaryRow:
    """One row of the summarizer's table (one systems JSON), as ``summarize_results``
    fills it. ``scores``: the round's allowed benchmarks in ``get_allowed_benchmarks``
    order, minutes, None where the system has no score. ``key``: the caller's handle
    (e.g. ``(submitter folder, system folder)``), not compared."""

    division: str
    availability: str
    submitter: str
    system: str
    host_processor_model_name: str
    host_processors_count: int
    accelerator_model_name: str
    accelerators_count: int
    framework: str
    notes: str
    scores: tuple[float | None, ...]
    details_url: str
    code_url: str
    key: tuple[str, ...] = ()


def _text_fields(r: SummaryRow) -> tuple[object, ...]:
    return (
        r.division,
        r.availability,
        r.submitter,
        r.system,
        r.host_processor_model_name,
        r.host_processors_count,
        r.accelerator_model_name,
        r.accelerators_count,
        r.framework,
        r.notes,
    )


def _score_key(v: float | None) -> tuple[int, float]:
    # pandas sort_values puts NaN last (na_position="last") in every key column.
    return (1, 0.0) if v is None or math.isnan(v) else (0, v)


def summary_order(rows: Iterable[SummaryRow]) -> list[SummaryRow]:
    """The rows in ``_print_and_write``'s order: ``sort_values(by=cols)`` over every
    column, strings by code point, numbers by value, missing scores last."""
    return sorted(
        rows,
        key=lambda r: (
            _text_fields(r),
            tuple(_score_key(s) for s in r.scores),
            r.details_url,
            r.code_url,
        ),
    )


def workbook_ids(rows: Sequence[SummaryRow], tag: str) -> dict[tuple[str, ...], str]:
    """``_summaries_to_xlsx``'s ID of every row (by ``key``): divisions closed then open,
    in each the sections in workbook order (:data:`SECTIONS_BEFORE_5` / ``_FROM_5``),
    rows in :func:`summary_order`, numbered ``f"{version}-{i:04}"`` from 0 with version
    ``tag[:3]``. Rows whose availability maps to no section, or whose division is
    neither, get none. These are the workbook's numbers, not the published IDs (module
    docstring). Raises ValueError for a tag before 3.0 (no workbook)."""
    if tag_key(tag) < (3, 0):
        raise ValueError(f"the summarizer at {tag} writes no workbook")
    sections = SECTIONS_FROM_5 if tag_key(tag) >= (5, 0) else SECTIONS_BEFORE_5
    ordered = summary_order(rows)
    labels = [summarizer_availability(r.availability, tag) for r in ordered]
    out: dict[tuple[str, ...], str] = {}
    i = 0
    for division in ("closed", "open"):
        for section in sections:
            for r, label in zip(ordered, labels, strict=True):
                if r.division == division and label == section:
                    out[r.key] = f"{tag[:3]}-{i:04}"
                    i += 1
    return out


@dataclass(frozen=True)
class PublishedRule:
    """How a round's published IDs follow from the summarizer's rows: the sections in
    the order MLCommons numbered them, and the number of the first row."""

    sections: tuple[str, ...]
    first: int


#: Rounds whose published IDs a rule reproduces, checked against every published ID
#: found (module docstring). Empty: no round's rule is established.
PUBLISHED_RULES: dict[str, PublishedRule] = {}


def published_ids(
    rows: Sequence[SummaryRow], round_version: str, tag: str
) -> dict[tuple[str, ...], str]:
    """The published ID of every row of ``round_version`` (by ``key``) under its
    :data:`PUBLISHED_RULES` entry; ``{}`` for a round without one (no ID is derived
    rather than a wrong one)."""
    rule = PUBLISHED_RULES.get(round_version)
    if rule is None:
        return {}
    ordered = summary_order(rows)
    out: dict[tuple[str, ...], str] = {}
    i = rule.first
    for division in ("closed", "open"):
        for section in rule.sections:
            for r in ordered:
                if (
                    r.division == division
                    and summarizer_availability(r.availability, tag) == section
                ):
                    out[r.key] = f"{round_version.lstrip('v')}-{i:04}"
                    i += 1
    return out
