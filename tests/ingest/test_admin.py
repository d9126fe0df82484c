"""ingest.admin: the pages load; the Source form keeps the schedule and refuses a
ref or location git must not be given, with the error on that field."""

from __future__ import annotations

from django.urls import reverse

from ingest.jobs import schedules
from ingest.models import Source
from tests.ingest.gitsource import EXT_PAYLOAD, PAYLOAD, GitRepo, pwned


def _form(location: str, ref: str = "", name: str = "pages", schedule: str = "") -> dict[str, str]:
    return {
        "name": name,
        "kind": "mlperf-training",
        "location": location,
        "ref": ref,
        "round_version": "",
        "enabled": "on",
        "schedule": schedule,
    }


def test_the_admin_pages_load(admin_client, jobs_data):
    source, job = jobs_data
    for url in (
        reverse("admin:ingest_source_changelist"),
        reverse("admin:ingest_source_change", args=[source.pk]),
        reverse("admin:ingest_source_add"),
        reverse("admin:ingest_ingestjob_changelist"),
        reverse("admin:ingest_ingestjob_change", args=[job.pk]),
        reverse("admin:benchdb_ingestproblem_changelist"),
    ):
        assert admin_client.get(url).status_code == 200, url
    change = reverse("admin:ingest_source_change", args=[source.pk])
    resp = admin_client.post(change, _form(source.location, schedule="30 4 * * 1"))
    assert resp.status_code == 302
    source.refresh_from_db()
    assert schedules.schedule_text(source) == "30 4 * * 1"


def test_the_source_form_refuses_the_payload_on_its_field(admin_client, empty, tmp_path):
    add = reverse("admin:ingest_source_add")
    for data, field, why in (
        (_form(str(tmp_path), ref=PAYLOAD), "ref", "it starts with '-'"),
        (_form(EXT_PAYLOAD), "location", "only an https:// URL or a local path"),
        (_form("git@github.com:x/y.git"), "location", "only an https:// URL or a local path"),
        (_form("--upload-pack=touch PWNED"), "location", "starts with '-'"),
    ):
        resp = admin_client.post(add, data)
        assert resp.status_code == 200, "the form is shown again"
        errors = resp.context["adminform"].form.errors
        assert list(errors) == [field] and why in errors[field][0], errors
    assert not Source.objects.exists()
    assert pwned(tmp_path) == []


def test_the_source_form_accepts_a_tag_and_a_full_sha(admin_client, empty, tmp_path):
    repo = GitRepo(tmp_path / "src")
    (repo.path / "a.txt").write_text("a\n")
    sha = repo.commit("a")
    add = reverse("admin:ingest_source_add")
    for name, ref in (("tag", "v4.1"), ("sha", sha)):
        resp = admin_client.post(add, _form(str(repo.path), ref=ref, name=name))
        assert resp.status_code == 302, resp.context and resp.context["adminform"].form.errors
    assert dict(Source.objects.values_list("name", "ref")) == {"tag": "v4.1", "sha": sha}
