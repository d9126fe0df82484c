"""The commit of each repository a README beside them records (../shared's READMEs)."""

from __future__ import annotations

from django.conf import settings

from ingest.parsers.provenance import readme_commits


def test_the_shared_training_readme_gives_each_rounds_commit():
    text = (settings.MLPERF_DATA / "README.md").read_text()
    repo = "https://github.com/mlcommons/training_results_"
    assert readme_commits(text) == {
        f"{repo}v1.0": "50619b5df63f1d646715a82c1fb8c35f271e25fa",
        f"{repo}v1.1": "ebe92f81f7a69255a3b0a907595d8be623d75ec6",
        f"{repo}v2.0": "8437fbb78349aa3c3054aeccb1d47d2a315a80e7",
    }


def test_the_shared_inference_readme_gives_seven_rounds():
    text = (settings.MLPERF_INFERENCE_DATA / "README.md").read_text()
    commits = readme_commits(text)
    assert len(commits) == 7
    assert commits["https://github.com/mlcommons/inference_results_v5.1"].startswith("965182b0")


def test_rows_of_another_shape_are_ignored():
    text = "| a | https://github.com/x/y | not-a-commit |\n| https://github.com/x/y | " + "a" * 40
    assert readme_commits(text) == {}
