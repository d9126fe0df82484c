"""The registry of suites (``benchdb.suites``) as the claims read it: a claims row per
suite that names a family of checks, so that a new suite needs no edit in
``benchdb.claims.facts``. Plain pytest, no database."""

from __future__ import annotations

from dataclasses import replace

import pytest

from benchdb import suites
from benchdb.claims import facts


def test_every_suite_with_claim_checks_has_a_claims_row_and_no_other() -> None:
    named = {s.name for s in suites.SUITES if s.claim_checks}
    assert named == {"training", "hpc", "inference", "automotive", "tiny", "storage", "mobile"}
    assert set(facts.SUITES) == named


def test_automotive_claims_are_checked_as_inference_claims_under_its_own_name() -> None:
    row = facts.suite_of("automotive")
    assert (row.name, row.title, row.checks) == ("automotive", "MLPerf Automotive", "throughput")
    assert row.tolerance == "printed-digits"
    assert replace(row, name="inference", title="MLPerf Inference") == facts.SUITES["inference"]


def test_hpc_claims_are_checked_as_times_to_train_under_its_own_name() -> None:
    """HPC's strong-scaling score is a time to train: the training family, 5% (no HPC
    spread is published, and no HPC benchmark is an imaging one)."""
    row = facts.suite_of("hpc")
    assert (row.name, row.title, row.checks) == ("hpc", "MLPerf HPC", "time-to-train")
    assert facts.tolerance("cosmoflow", "hpc") == 0.05


def test_a_new_registry_suite_gets_its_row_from_its_family() -> None:
    new = replace(suites.suite("inference"), name="client", label="MLPerf Client")
    rows = facts.suites_from([*suites.SUITES, new])
    assert (rows["client"].name, rows["client"].title) == ("client", "MLPerf Client")
    assert rows["client"].checks == "throughput"


def test_storage_tiny_and_mobile_are_checked_as_values_in_a_unit() -> None:
    """Their results are values in a unit (MiB/s and samples/s; ms and µJ; queries/s):
    the inference family of checks, under each suite's own name."""
    for name, title in (
        ("storage", "MLPerf Storage"),
        ("tiny", "MLPerf Tiny"),
        ("mobile", "MLPerf Mobile"),
    ):
        row = facts.suite_of(name)
        assert (row.name, row.title, row.checks) == (name, title, "throughput")


def test_an_unknown_family_of_checks_is_refused() -> None:
    with pytest.raises(KeyError):
        facts.suites_from([replace(suites.suite("training"), claim_checks="energy")])
