"""Every command and page of the README is true (issue 23): its code blocks are read, each
``python manage.py`` command runs in the README's order on the demo data (the real subsets
``make demo`` loads: ../shared/mlperf, ../shared/mlperf-inference, tests/data/hpc,
../shared/vendor), the ``curl`` example is posted to the check API and must keep its
verdicts, and every page path the README names answers 200.

Not run here, each for its reason (the lists are checked against the README, so a new
command is run unless it is added to them with a reason): ``make`` targets (CI runs them
from a fresh clone), the environment of "Running it for real" (``export``), the long-running
processes (``runserver``, ``celery``), ``createsuperuser`` (interactive), and what fetches
from the network (a git URL or a page to download, ``source sync`` of a GitHub source)."""

from __future__ import annotations

import io
import json
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from benchdb.models import InferenceResult, Result, VendorPage
from ingest.models import IngestJob, Source

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

#: Commands that are not run here, by their first words, with the reason.
NOT_RUN = {
    "make": "CI runs the make targets from a fresh clone (.ci/run)",
    "export": "the environment of a real deployment",
    "celery": "long-running; the worker tests start real ones (tests/ingest/jobs/test_worker.py)",
    "DATABASE_URL=postgres://postgres@127.0.0.1:5432/mine": "runs this suite itself",
    "python manage.py runserver": "long-running; the browser tests serve the site",
    "python manage.py createsuperuser": "interactive",
    "python manage.py source sync": "clones the GitHub source (network)",
    "python manage.py ingest-all": "a folder of whole rounds (gigabytes); tests/ingest/commands/"
    "test_ingest_all.py runs it on ../shared",
    "python manage.py history backfill": "a results repository with its git history (the demo "
    "data are plain folders); tests/ingest/test_history_backfill.py runs it on real trees "
    "made git repositories, clone and bare",
}

#: The page paths whose placeholders name rows that exist once the README has run.
PLACEHOLDERS = ("<id>", "<submitter>", "..")


def code_lines(text: str) -> list[str]:
    """The commands of the README's code blocks (lines indented by 4 spaces after a blank
    line or another such line; a trailing backslash joins the next line)."""
    out: list[str] = []
    in_block, prev_blank = False, True
    for line in text.splitlines():
        if line.startswith("    ") and (in_block or prev_blank):
            in_block = True
            if out and out[-1].endswith("\\"):
                out[-1] = out[-1][:-1].rstrip() + " " + line.strip()
            else:
                out.append(line.strip())
        elif line.strip():
            in_block = False
        prev_blank = not line.strip()
    return [c for c in out if c and not c.startswith("#")]


def expand(argv: list[str]) -> Iterator[list[str]]:
    """``[--round v5.1]`` (optional arguments): given; ``csv|json``: each in turn."""
    argv = [a.strip("[]") for a in argv]
    alt = next((i for i, a in enumerate(argv) if re.fullmatch(r"\w+(\|\w+)+", a)), None)
    if alt is None:
        yield argv
        return
    for choice in argv[alt].split("|"):
        yield from expand([*argv[:alt], choice, *argv[alt + 1 :]])


def local(arg: str, ids_csv: Path) -> str:
    """The README's paths as this checkout has them (../shared may live elsewhere)."""
    for prefix, setting in (
        ("../shared/mlperf-inference", settings.MLPERF_INFERENCE_DATA),
        ("../shared/mlperf", settings.MLPERF_DATA),
        ("../shared/vendor", settings.VENDOR_DATA),
    ):
        if arg.startswith(prefix):
            return str(setting) + arg[len(prefix) :]
    if arg.startswith("tests/"):
        return str(ROOT / arg)
    return str(ids_csv) if arg == "my-ids.csv" else arg


def _not_run(line: str) -> bool:
    if any(line.startswith(k) for k in NOT_RUN):
        return True
    argv = shlex.split(line, comments=True)
    # An ingest of a git URL or of a page on the web fetches it.
    return argv[2:3] == ["ingest"] and argv[4].startswith("https://")


def readme_paths(text: str) -> list[str]:
    """Every page path the README names (in backticks, or as an address of the server)."""
    paths = re.findall(r"`(/[^`\s]*)`", text)
    paths += re.findall(r"http://127\.0\.0\.1:8000(/[^\s'\"`]*)", text)
    return sorted(set(paths))


def _concrete(path: str) -> str:
    """A path with its placeholders replaced by rows of the demo data."""
    if path == "/vendor/pages/<id>/guidelines/":
        return f"/vendor/pages/{VendorPage.objects.order_by('pk').first().pk}/guidelines/"
    if path == "/ingest/jobs/<id>/errors/":
        source = Source.objects.order_by("pk").first()
        job = IngestJob.objects.create(source=source, trigger=IngestJob.Trigger.COMMAND)
        return f"/ingest/jobs/{job.pk}/errors/"
    if path.startswith("/results/hpc/v2.0/<submitter>/<system>/weak/deepcam/"):
        r = Result.objects.get(
            round__suite="hpc", round__version="v2.0", benchmark__key="deepcam", scaling_type="weak"
        )
        return r.get_absolute_url()
    if path == "/inference/compare/?ids=..":
        ids = InferenceResult.objects.filter(
            round__version="v5.1", benchmark="llama2-70b-99", scenario="Server"
        ).values_list("pk", flat=True)
        return f"/inference/compare/?ids={','.join(map(str, ids))}"
    assert not any(p in path for p in PLACEHOLDERS), f"README path with a placeholder: {path}"
    return path


def _check_api(client, line: str) -> dict:  # type: ignore[no-untyped-def]
    argv = shlex.split(line)
    url = next(a for a in argv if a.startswith("http://127.0.0.1:8000/"))
    body = argv[argv.index("-d") + 1]
    path = url.removeprefix("http://127.0.0.1:8000")
    resp = client.post(path, data=body, content_type="application/json")
    assert resp.status_code == 200, resp.content[:500]
    return json.loads(resp.content)


@pytest.mark.django_db
def test_every_readme_command_runs_and_every_page_answers(
    client, tmp_path, official_scores, monkeypatch
):
    text = README.read_text()
    lines = code_lines(text)
    assert lines[:2] == [
        "make demo     # .venv, the database, every suite's real subset and the vendor "
        "pages; serves http://127.0.0.1:8000/",
        "make test     # .venv with the test tools, PostgreSQL and Redis if needed, the whole "
        "suite on PostgreSQL",
    ]
    for key in NOT_RUN:  # the list names what is in the README, nothing more
        assert any(line.startswith(key) for line in lines), key
    ids_csv = tmp_path / "my-ids.csv"
    ids_csv.write_text("round,id,submitter,system\n")
    monkeypatch.chdir(ROOT)
    ran, check = [], None
    for line in lines:
        if line.startswith("curl "):
            check = _check_api(client, line)
            continue
        if _not_run(line):
            continue
        assert line.startswith("python manage.py "), f"README command not run: {line}"
        for argv in expand(shlex.split(line, comments=True)[2:]):
            out = io.StringIO()
            call_command(*[local(a, ids_csv) for a in argv], stdout=out, stderr=io.StringIO())
            ran.append(" ".join(argv))
    assert len(ran) >= 20, ran  # 22 when written
    # The check example: two claims, both consistent, on the right results (README).
    assert check is not None and check["counts"]["verdicts"] == {"consistent": 2}
    (h2h,) = [c for c in check["claims"] if c["kind"] == "head_to_head"]
    urls = [r["url"] for r in h2h["results"]]
    assert urls == [
        "/results/training/v1.1/Graphcore/ipu-pod16-TF1/resnet/",
        "/results/training/v1.1/NVIDIA/dgxa100_ngc21.09_mxnet/resnet/",
    ]
    official = {
        o["system"]: float(o["score_minutes"])
        for o in official_scores
        if o["round"] == "v1.1" and o["benchmark"] == "resnet"
    }
    assert h2h["recomputed_value"] == pytest.approx(official["ipu-pod16-TF1"], rel=1e-4)
    got = h2h["compared_recomputed_value"]
    assert got == pytest.approx(official["dgxa100_ngc21.09_mxnet"], rel=1e-4)
    assert "different-accelerator-counts" in h2h["flags"]
    assert not re.fullmatch(r"[\d.\s]*", h2h["baseline"].get("name", "x"))  # not "29"
    assert h2h["baseline"]["name"] == "DGX A100" and h2h["open_slots"] == []
    # Every page the README names answers on that data.
    paths = readme_paths(text)
    assert "/hpc/v3.0/oc20/strong/" in paths and "/" in paths
    bad = {}
    for path in paths:
        if path == "/api/claims/check":
            continue  # POST only: the curl example above posted to it
        resp = client.get(_concrete(path))
        ok = resp.status_code == 200 or (path == "/admin/" and resp.status_code == 302)
        if not ok:
            bad[path] = resp.status_code
    assert bad == {}
