"""``manage.py source``: add, sync (through on_commit and the task, in this process),
list and remove; a ref or location git must not be given is a clear error."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from ingest.models import Source
from tests.ingest.gitsource import EXT_PAYLOAD, PAYLOAD, GitRepo, pwned, result_folders


def test_the_source_command_adds_syncs_and_lists(eager, tmp_path, capsys):
    repo = GitRepo(tmp_path / "src")
    n = len(result_folders(repo.add_round("v1.0")))
    repo.commit("v1.0")
    location = str(repo.path)
    add = ["source", "add", "--kind", "mlperf-training"]
    call_command(
        *add, "--name", "mine", "--location", location, "--ref=main", "--schedule=0 3 * * *"
    )
    call_command("source", "sync", "mine", "--wait")
    capsys.readouterr()
    call_command("source", "list", "--format", "json")
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["name"], row["schedule"], row["failing"]) == ("mine", "0 3 * * *", False)
    assert (row["location"], row["ref"]) == (location, "main")
    last = row["last_job"]
    assert (last["state"], last["trigger"], last["errors"]) == ("succeeded", "command", 0)
    assert (last["results_added"], last["results_unchanged"]) == (n, 0)
    assert last["files_seen"] > n
    call_command("source", "list")
    assert f"{n} added" in capsys.readouterr().out

    call_command(*add, "--name", "broken", "--location", str(tmp_path))
    with pytest.raises(CommandError, match="failed: SyncError"):
        call_command("source", "sync", "broken", "--wait")
    with pytest.raises(CommandError, match="no source named"):
        call_command("source", "sync", "nope")
    missing = str(tmp_path / "missing.html")
    with pytest.raises(CommandError, match="no such file or folder"):
        call_command("source", "add", "--name", "x", "--kind", "vendor", "--location", missing)
    call_command("source", "remove", "broken")
    assert set(Source.objects.values_list("name", flat=True)) == {"mine"}


def test_the_payload_as_a_ref_or_location_is_refused(empty, tmp_path):
    add = ["source", "add", "--name", "x", "--kind", "mlperf-training"]
    refused = "ref '--upload-pack=touch PWNED;git-upload-pack' refused: it starts with '-'"
    for ref in ([f"--ref={PAYLOAD}"], ["--ref", PAYLOAD]):  # argparse takes both as the value
        with pytest.raises(CommandError, match=refused):
            call_command(*add, "--location", str(tmp_path), *ref)
    with pytest.raises(CommandError, match="only an https:// URL or a local path"):
        call_command(*add, "--location", EXT_PAYLOAD)
    assert not Source.objects.exists()
    assert pwned(tmp_path) == []


def test_a_tag_and_a_full_sha_are_accepted(empty, tmp_path, capsys):
    add = ["source", "add", "--kind", "mlperf-training", "--location", str(tmp_path)]
    sha = "0123456789abcdef" * 4
    call_command(*add, "--name", "tag", "--ref", "v4.1")
    call_command(*add, "--name", "sha", "--ref", sha)
    assert dict(Source.objects.values_list("name", "ref")) == {"tag": "v4.1", "sha": sha}
