"""The result facts claims are checked against (ingest.claims.facts.result_facts): the
same facts as the stored rows say (field by field, from model instances here), by
suite, round and benchmark; read in SQL inside a transaction, built once per data
version outside one and built again after a change. On ../shared/mlperf (training)
and ../shared/mlperf-inference (190 results)."""

from __future__ import annotations

import csv
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from benchdb.claims.verdicts import ResultFacts
from benchdb.models import InferenceResult, Result, StorageResult
from ingest.claims import facts as claim_facts


def _common(r: Any) -> dict[str, Any]:
    s = r.system
    return {
        "pk": r.pk,
        "round": r.round.version,
        "submitter": s.submitter.name,
        "system_folder": s.folder,
        "system_name": s.name,
        "division": r.division,
        "availability": s.availability,
        "accelerators": s.accelerators,
        "accelerator_model": s.accelerator_model,
        "framework": s.framework,
        "nodes": s.nodes,
        "result_id": r.result_id,
        "processor": s.host_processor_model,
        "processors": s.host_processors_per_node,
        # the systems JSON's own words (a number or a string there), "" when absent
        "processor_cores": _as_written(s.raw.get("host_processor_core_count")),
        "processor_clock": _as_written(s.raw.get("host_processor_frequency")),
    }


def _as_written(value: Any) -> str:
    return "" if value is None else str(value)


def _storage_expected() -> list[ResultFacts]:
    """Each valid Storage result twice: its mean MiB/s, then its mean samples/s."""
    out = []
    for r in StorageResult.objects.filter(status="valid").select_related("round", "submitter"):
        common = ResultFacts(
            pk=r.pk,
            round=r.round.version,
            submitter=r.submitter.name,
            system_folder=r.system_folder,
            system_name=r.system_folder,
            division=r.division,
            availability="",
            accelerators=r.accelerators,
            accelerator_model=f"NVIDIA {r.accelerator.upper()} (simulated)",
            framework="",
            benchmark=r.workload,
            score_minutes=None,
            suite="storage",
            metric="training throughput (mean over 5 runs at the AU threshold)",
            higher_is_better=True,
            model=r.workload,
            scenario=r.accelerator.upper(),
        )
        out += [
            replace(common, unit="MiB/s", value=r.mb_per_second),
            replace(common, unit="Samples/s", value=r.samples_per_second),
        ]
    return out


def _expected() -> list[ResultFacts]:
    """Every scored training result, then every scored HPC one with a time to train
    (whichever tests committed), then every valid result with a value of Inference and
    of the suites stored in its table (Automotive, Tiny with its energy, Mobile by task),
    and Storage's (MiB/s and samples/s), each suite in the model's order, as the stored
    rows give them."""
    out = []
    for suite in ("training", "hpc"):  # HPC: strong-scaling results (a time to train)
        scored = Result.objects.filter(
            status="scored", round__suite=suite, score_minutes__isnull=False
        ).order_by("pk")
        out += [
            ResultFacts(
                **_common(r),
                benchmark=r.benchmark.key,
                score_minutes=r.score_minutes,
                **({"suite": "hpc"} if suite == "hpc" else {}),
            )
            for r in scored.select_related("round", "system__submitter", "benchmark")
        ]
    for suite in ("inference", "automotive", "tiny", "storage", "mobile"):
        if suite == "storage":
            out += _storage_expected()
            continue
        valid = InferenceResult.objects.filter(
            status="valid", value__isnull=False, round__suite=suite
        )
        for r in valid.select_related("round", "system__submitter"):
            model = re.sub(r"-99(\.9)?$", "", r.benchmark)
            if suite == "mobile":  # the task without its version and mode
                model = re.sub(r"(_offline)?(_v\d+)?$", "", r.benchmark)
            fact = ResultFacts(
                **_common(r),
                benchmark=r.benchmark,
                score_minutes=None,
                suite=suite,
                metric=r.metric,
                unit=r.unit,
                higher_is_better=r.higher_is_better,
                value=r.value,
                model=r.benchmark if suite == "tiny" else model,
                scenario=r.scenario,
                category=r.category,
                power=r.power,
                power_unit=r.power_unit,
            )
            out.append(fact)
            if suite == "tiny" and r.power is not None and r.power_unit.startswith("uJ"):
                out.append(
                    replace(
                        fact,
                        metric="energy per inference",
                        unit="uJ",
                        value=r.power,
                        higher_is_better=False,
                    )
                )
    return out


def _check_selections(expected: list[ResultFacts]) -> None:
    assert claim_facts.result_facts() == expected
    assert claim_facts.all_result_facts() == expected
    training = [f for f in expected if f.suite == "training"]
    assert claim_facts.result_facts(suite="training") == training
    assert claim_facts.inference_result_facts() == [f for f in expected if f.suite == "inference"]
    some = claim_facts.result_facts(rounds=["v1.1", "v4.1"], benchmarks=["resnet", "bert"])
    assert some == [
        f for f in expected if f.round in ("v1.1", "v4.1") and f.benchmark in ("resnet", "bert")
    ]
    assert {f.suite for f in some} == {"training", "inference"}  # resnet: both suites
    llama = claim_facts.result_facts(suite="inference", benchmarks=["llama2-70b-99"])
    assert llama == [
        f for f in expected if f.suite == "inference" and f.benchmark == "llama2-70b-99"
    ]
    assert claim_facts.result_facts(suite="training", rounds=["v9.9"]) == []


@pytest.mark.django_db
def test_inside_a_transaction_the_facts_are_read_with_the_filters_in_sql(
    ingested_shared: Any, ingested_inference: Any
) -> None:
    expected = _expected()
    assert len([f for f in expected if f.suite == "training"]) == 46  # official_scores.csv
    assert len([f for f in expected if f.suite == "inference"]) > 100
    _check_selections(expected)
    with pytest.raises(ValueError, match="unknown suite 'client'"):
        claim_facts.result_facts(suite="client")


def test_outside_a_transaction_the_facts_are_built_once_per_data_version(
    django_db_setup: Any, django_db_blocker: Any, mlperf_data: Path
) -> None:
    """Committed data (the data version moves on commit only): ../shared/mlperf and
    ../shared/mlperf-inference ingested again, as a transactional test may have
    emptied the database since the session's ingest."""
    from ingest.inference.service import mlperf_inference_ingest
    from ingest.training.service import mlperf_training_ingest

    inference = Path(settings.MLPERF_INFERENCE_DATA)
    with open(inference / "official_results.csv", newline="") as f:
        mapping = {r["model"]: r["mlperf_model"] for r in csv.DictReader(f)}
    with django_db_blocker.unblock():
        mlperf_training_ingest(location=str(mlperf_data))
        mlperf_inference_ingest(location=str(inference), extra_mapping=mapping)
        expected = _expected()
        _check_selections(expected)
        first = claim_facts.result_facts()
        assert all(a is b for a, b in zip(first, claim_facts.result_facts(), strict=True))
        r = Result.objects.filter(status="scored", round__suite="training").order_by("pk")[0]
        try:
            Result.objects.filter(pk=r.pk).update(score_minutes=r.score_minutes + 1)
            changed = claim_facts.result_facts(suite="training")
            assert changed[0].pk == r.pk and changed[0].score_minutes == r.score_minutes + 1
        finally:
            Result.objects.filter(pk=r.pk).update(score_minutes=r.score_minutes)
        assert claim_facts.result_facts() == expected
