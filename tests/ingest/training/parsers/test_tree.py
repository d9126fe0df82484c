"""Finding result folders (``ingest.training.parsers.tree``), on ../shared/mlperf and on
small trees written here: links, odd names, duplicates and depth."""

from __future__ import annotations

import os
from pathlib import Path

from ingest.training.parsers import tree as mlperf

V11 = "training_results_v1.1"


def test_only_result_files_directly_in_the_benchmark_folder_are_runs(mlperf_data):
    dirs = mlperf.discover_results(str(mlperf_data / V11))
    azure = next(d for d in dirs if d.submitter_folder == "Azure")
    assert [Path(r).name for r in azure.runs] == [f"result_{i}.txt" for i in range(5)]
    assert (mlperf_data / V11 / azure.path / ".!65506!result_4.txt").exists()


def test_the_round_is_inferred_from_the_repository_name(mlperf_data):
    assert [mlperf.infer_round(p) for p in mlperf.find_repositories(str(mlperf_data))] == [
        "v1.0",
        "v1.1",
        "v2.0",
    ]


def test_v0_5_submissions_nest_at_any_depth(tmp_path):
    """v0.5.0/<org>/<submission...>/results/<system>/<benchmark>/result_*.txt."""
    for sub in ("cloud_v3.8/resnet-tpuv3-8", "research_v3.32/resnet-tpuv3-32", "submission"):
        bench = tmp_path / "v0.5.0/google" / sub / "results/tpu/resnet"
        bench.mkdir(parents=True)
        for n in (10, 2, 1):
            (bench / f"result_{n}.txt").write_text("x")
        (bench.parent / "entry.json").write_text("{}")
    dirs = mlperf.discover_results(str(tmp_path))
    assert sorted(d.system_folder for d in dirs) == [
        "cloud_v3.8/resnet-tpuv3-8/tpu",
        "research_v3.32/resnet-tpuv3-32/tpu",
        "submission/tpu",
    ]
    assert [Path(r).name for r in dirs[0].runs] == ["result_1.txt", "result_2.txt", "result_10.txt"]
    assert all(d.system_file and d.system_file.endswith("entry.json") for d in dirs)


# --- what the walk does not read (issue 9) -------------------------------------------


def _bench(root: Path, rel: str, runs: int = 2) -> Path:
    path = root / rel
    path.mkdir(parents=True)
    for i in range(runs):
        (path / f"result_{i}.txt").write_text("x")
    return path


def _messages(found: mlperf.Discovery) -> dict[str, str]:
    return {p.path: p.message for p in found.problems}


def test_links_are_problems_and_never_followed(tmp_path):
    outside = tmp_path / "outside"
    _bench(outside, "resnet")
    (outside / "secret.json").write_text('{"secret": 1}')
    root = tmp_path / "repo"
    bench = _bench(root, "Acme/results/s/resnet")
    (bench / "result_2.txt").symlink_to("/etc/passwd")
    (bench / "scaling.json").symlink_to(outside / "secret.json")
    (root / "Acme/systems").mkdir()
    (root / "Acme/systems/s.json").symlink_to(outside / "secret.json")
    (root / "Acme/results/linked").symlink_to(outside)
    (root / "Acme/results/s/bert").symlink_to(outside / "resnet")
    (root / "Other").symlink_to(root / "Acme")
    found = mlperf.discover_tree(str(root))
    [rd] = found.dirs
    assert [r.rsplit("/", 1)[1] for r in rd.runs] == ["result_0.txt", "result_1.txt"]
    assert rd.system_file is None and rd.scaling_file is None
    assert {p.path: p.message for p in rd.problems} == {
        "Acme/results/s/resnet/result_2.txt": "symbolic link, not followed",
        "Acme/results/s/resnet/scaling.json": "symbolic link, not followed",
        "Acme/systems/s.json": "symbolic link, not followed",
    }
    assert _messages(found) == {
        "Acme/results/linked": "system folder is a symbolic link, not followed",
        "Acme/results/s/bert": "benchmark folder is a symbolic link, not followed",
        "Other": "submitter folder is a symbolic link, not followed",
    }


def test_odd_names_are_problems_and_a_result_file_with_a_newline_is_not_a_run(tmp_path):
    root = tmp_path / "repo"
    bench = _bench(root, "Acme/results/s/resnet")
    (bench / "result_2.txt\n").write_text("x")
    os.mkdir(os.fsencode(root / "Acme/results") + b"/bad\xffname")
    found = mlperf.discover_tree(str(root))
    [rd] = found.dirs
    assert len(rd.runs) == 2
    assert [(p.path, p.message) for p in rd.problems] == [
        ("Acme/results/s/resnet/result_2.txt\\n", "name is not printable UTF-8: not read")
    ]
    assert _messages(found) == {
        "Acme/results/bad\\xffname": "name is not printable UTF-8: not read"
    }


def test_folders_differing_by_case_and_benchmark_aliases_are_read_once(tmp_path):
    root = tmp_path / "repo"
    for rel in ("Graphcore/results/s/resnet", "graphcore/results/s/resnet"):
        _bench(root, rel)
    for bench in ("ResNet", "resnet50", "bert"):
        _bench(root, f"Graphcore/results/s/{bench}")
    found = mlperf.discover_tree(str(root), "v1.1")
    assert [d.path for d in found.dirs] == [
        "Graphcore/results/s/bert",
        "Graphcore/results/s/resnet",
    ]
    messages = _messages(found)
    assert messages["graphcore"] == (
        "submitter folder 'graphcore' differs from 'Graphcore' only by case: "
        "only 'Graphcore' is read"
    )
    for other in ("ResNet", "resnet50"):
        assert messages[f"Graphcore/results/s/{other}"] == (
            f"benchmark folder {other!r} is another name of 'resnet' (benchmark resnet): "
            "only 'resnet' is read"
        )


def test_names_longer_than_the_database_keeps_are_not_read(tmp_path):
    root = tmp_path / "repo"
    _bench(root, "Acme/results/s/resnet")
    long_system = "s" * 250
    _bench(root, f"{'A' * 199}/results/{long_system}/{'b' * 60}")
    _bench(root, f"Acme/results/s/{'b' * 65}")
    found = mlperf.discover_tree(str(root))
    assert [d.path for d in found.dirs] == ["Acme/results/s/resnet"]
    messages = _messages(found)
    assert messages[f"Acme/results/s/{'b' * 65}"] == (
        "benchmark folder name of 65 characters, over the 64 kept: not read"
    )
    long_path = f"{'A' * 199}/results/{long_system}/{'b' * 60}"
    assert messages[long_path] == "path of 519 characters, over the 500 kept: not read"


def test_the_v0_5_walk_is_bounded_in_depth(tmp_path):
    deep = "/".join(f"d{i}" for i in range(8))
    _bench(tmp_path, f"v0.5.0/google/{deep}/results/tpu/resnet")
    _bench(tmp_path, "v0.5.0/google/sub/results/tpu/resnet")
    found = mlperf.discover_tree(str(tmp_path))
    assert [d.system_folder for d in found.dirs] == ["sub/tpu"]
    [(path, message)] = _messages(found).items()
    assert path == "v0.5.0/google/" + "/".join(f"d{i}" for i in range(6)) + "/d6"
    assert message == "deeper than 6 folders: not read"


def test_a_linked_repository_in_a_folder_of_repositories_is_named(tmp_path):
    _bench(tmp_path / "training_results_v1.1", "Acme/results/s/resnet")
    (tmp_path / "training_results_v1.0").symlink_to(tmp_path / "training_results_v1.1")
    assert mlperf.find_repositories(str(tmp_path)) == [f"{tmp_path}/training_results_v1.1"]
    assert mlperf.linked_repositories(str(tmp_path)) == ["training_results_v1.0"]
