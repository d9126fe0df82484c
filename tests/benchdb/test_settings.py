"""Production settings (benchdb/settings.py): ``check --deploy`` is clean with the
documented environment, the admin login is throttled (django-axes) and pages carry a
Content-Security-Policy (django-csp) that allows no inline script or style element."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def _check_deploy(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "BENCHDB_HTTPS")}
    cmd = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    return subprocess.run(
        cmd, cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_is_clean_with_the_production_environment():
    env = {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "benchdb.example.org",
        "BENCHDB_HTTPS": "1",
    }
    done = _check_deploy(**env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout
    plain = _check_deploy(**{**env, "BENCHDB_HTTPS": "0"})
    assert plain.returncode != 0
    for warning in ("W004", "W008", "W012", "W016"):
        assert f"security.{warning}" in plain.stderr + plain.stdout


@pytest.mark.django_db
def test_six_wrong_admin_logins_lock_out_the_seventh_even_with_the_right_password(
    client, admin_user, django_user_model
):
    url = "/admin/login/?next=/admin/"
    for _ in range(6):
        resp = client.post(url, {"username": "admin", "password": "wrong"})
        assert resp.status_code in (200, 429)
    locked = client.post(url, {"username": "admin", "password": "password"})
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
    # Only that username from that address: another account still logs in.
    django_user_model.objects.create_superuser("other", "o@example.org", "password2")
    ok = client.post(url, {"username": "other", "password": "password2"})
    assert ok.status_code == 302 and client.session["_auth_user_id"]


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_without_inline_code(client):
    resp = client.get("/api/")
    policy = dict(p.strip().split(" ", 1) for p in resp["Content-Security-Policy"].split(";"))
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert policy["style-src-elem"].split() == ["'self'", settings.PLOTLY_MAPLIBRE_CSS]
    # plotly.js sets style attributes while drawing; nothing else may be inline
    unsafe = {k: v for k, v in policy.items() if "unsafe" in v}
    assert unsafe == {"style-src-attr": "'unsafe-inline'"}
    assert "Content-Security-Policy" in client.get("/admin/login/")
