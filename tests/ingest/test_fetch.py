"""ingest.fetch: what git may be given (refs, locations), how it runs (``--`` before
every positional, https and file transports only, no prompt), retries of network
errors only, conditional HTTP GETs, and the URL helpers. No database."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest import fetch
from tests.ingest.gitsource import EXT_PAYLOAD, GIT_ENV, PAYLOAD, GitRepo, pwned


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    """A repository with two commits on ``main``, the first tagged ``v1.0``."""
    r = GitRepo(tmp_path / "src")
    (r.path / "a.txt").write_text("one\n")
    r.commit("one")
    r.git("tag", "v1.0")
    (r.path / "a.txt").write_text("two\n")
    r.commit("two")
    return r


@pytest.fixture
def slept(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The retry delays slept (none is really slept)."""
    out: list[float] = []
    monkeypatch.setattr(fetch, "_backoff", out.append)
    return out


@pytest.fixture
def git_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], dict[str, str]]]:
    """(argv, env) of every git process ``ingest.fetch`` starts."""
    calls: list[tuple[list[str], dict[str, str]]] = []
    real = subprocess.run

    def run(argv: list[str], **kw: Any) -> Any:
        calls.append((list(argv), dict(kw["env"])))
        return real(argv, **kw)

    monkeypatch.setattr(fetch.subprocess, "run", run)
    return calls


# --- refs and locations ----------------------------------------------------------------


@pytest.mark.parametrize(
    "ref",
    ["", "main", "v1.0", "release/4.1", "refs/tags/v4.1", "HEAD", "a" * 40, "0123abcd" * 8, "é"],
)
def test_branch_and_tag_names_and_full_shas_are_accepted(ref):
    assert fetch.check_git_ref(ref) == ref


@pytest.mark.parametrize(
    ("ref", "why"),
    [
        (PAYLOAD, "starts with '-'"),
        ("-b", "starts with '-'"),
        ("main; touch x", "a space"),
        ("a..b", "'..'"),
        ("a@{1}", "'@{'"),
        ("@", "'@{'"),
        ("x\ny", "control character"),
        ("a:b", "~^:?*"),
        ("/main", "starts with '/'"),
        ("main/", "ends with '/'"),
        ("main.", "ends with '/' or '.'"),
        ("a//b", "'//'"),
        (".hidden", "starts with '.'"),
        ("x.lock", "ends with '.lock'"),
        ("m" * 201, "longer than 200"),
    ],
)
def test_anything_else_is_refused_with_the_rule_it_breaks(ref, why):
    with pytest.raises(fetch.RefusedError, match="refused") as err:
        fetch.check_git_ref(ref)
    assert why in str(err.value)


_REF_PIECES = list("ab/.-@{}~^:?*[\\ \x01\x7fé0") + ["lock", ".lock", "..", "@{", "//"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_REF_PIECES), min_size=1, max_size=8).map("".join))
def test_the_ref_rules_are_git_check_ref_format_without_a_leading_dash(ref):
    if ref.startswith("-"):
        with pytest.raises(fetch.RefusedError):
            fetch.check_git_ref(ref)
        return
    git = subprocess.run(["git", "check-ref-format", "--allow-onelevel", ref], check=False)
    try:
        fetch.check_git_ref(ref)
        ours = True
    except fetch.RefusedError:
        ours = False
    assert ours == (git.returncode == 0), ref


@pytest.mark.parametrize(
    "location",
    [
        "https://github.com/mlcommons/training_results_v4.1",
        "https://bot:token@github.com/x/y.git",
        "/srv/mlperf/training_results_v1.1",
        "/srv/with space/repo.git",
        "training_results_v1.1",
        "file:///srv/mlperf/training_results_v1.1",
    ],
)
def test_https_urls_and_local_paths_are_git_locations(location):
    assert fetch.check_git_location(location) == location


@pytest.mark.parametrize(
    "location",
    [
        EXT_PAYLOAD,
        "ext::sh -c id",
        "fd::3",
        "http://github.com/x/y.git",
        "ssh://git@github.com/x/y.git",
        "git@github.com:mlcommons/training_results_v4.1.git",
        "host:path/repo",
        "git://github.com/x/y.git",
        "file://host/srv/x",
        "file:///srv/x?upload-pack=id",
        "file:///srv/x::y",
        "--upload-pack=id",
        "-x",
        "https://-oProxyCommand=id/x",
        "https:///no-host",
        "/srv/x\n/y",
        "",
    ],
)
def test_other_transports_and_option_like_locations_are_refused(location):
    with pytest.raises(fetch.RefusedError, match="refused"):
        fetch.check_git_location(location)


def test_a_refused_url_is_named_without_its_credentials():
    with pytest.raises(fetch.RefusedError) as err:
        fetch.check_git_location("http://bot:s3cr3t@github.com/x/y.git")
    assert "s3cr3t" not in str(err.value) and "http://github.com/x/y.git" in str(err.value)


# --- running git ---------------------------------------------------------------------------


def test_the_payload_runs_a_command_when_git_reads_it_as_an_option(repo, tmp_path):
    """The control: without ``--`` (what the sync did before), the ref runs ``touch``."""
    dest = tmp_path / "bare-fetch"
    subprocess.run(["git", "init", "-q", str(dest)], check=True)
    subprocess.run(["git", "-C", str(dest), "remote", "add", "origin", str(repo.path)], check=True)
    subprocess.run(
        ["git", "-C", str(dest), "fetch", "-q", "origin", PAYLOAD],
        capture_output=True,
        check=False,
        env={**GIT_ENV, "PATH": "/usr/bin:/bin"},
    )
    assert pwned(tmp_path) == [dest / "PWNED"]


def test_git_checkout_refuses_the_payload_before_running_git(repo, tmp_path, slept, git_calls):
    for url, ref in ((str(repo.path), PAYLOAD), (EXT_PAYLOAD, ""), (str(repo.path), "-q")):
        with pytest.raises(fetch.RefusedError, match="refused"):
            fetch.git_checkout(url=url, ref=ref, dest=str(tmp_path / "c"))
    assert (git_calls, slept, pwned(tmp_path)) == ([], [], [])


def test_past_the_checks_git_still_reads_the_payload_as_a_ref(repo, tmp_path, slept):
    """``--`` ends git's options: the payload is an invalid refspec, not an option."""
    dest = str(tmp_path / "c")
    fetch.git_checkout(url=str(repo.path), ref="main", dest=dest)
    with pytest.raises(fetch.SyncError, match="invalid refspec"):
        fetch.git(["-C", dest, "fetch", "-q", "--", "origin", PAYLOAD], transient=True)
    with pytest.raises(fetch.SyncError, match="transport 'ext' not allowed"):
        fetch.git(["-C", dest, "fetch", "-q", "--", EXT_PAYLOAD, "main"], transient=True)
    with pytest.raises(fetch.SyncError, match="transport 'http' not allowed"):
        fetch.git(["-C", dest, "fetch", "-q", "--", "http://127.0.0.1:9/x.git"], transient=True)
    assert (slept, pwned(tmp_path)) == ([], [])


def test_every_git_call_ends_its_options_and_allows_only_https_and_files(repo, tmp_path, git_calls):
    dest = str(tmp_path / "c")
    _, first = fetch.git_checkout(url=str(repo.path), ref="v1.0", dest=dest)
    _, second = fetch.git_checkout(url=f"file://{repo.path}", ref="main", dest=dest)
    assert fetch.git_changed_files(dest, first, second) == ["a.txt"]
    assert fetch.git_head(dest) == second and fetch.git_origin_url(dest) == f"file://{repo.path}"
    assert len(git_calls) >= 12
    for argv, env in git_calls:
        allowed = (
            "-c protocol.allow=never -c protocol.https.allow=always -c protocol.file.allow=always"
        )
        assert " ".join(argv[:7]) == "git " + allowed
        assert "--" in argv or "--end-of-options" in argv, argv
        assert (env["GIT_TERMINAL_PROMPT"], env["GIT_ALLOW_PROTOCOL"]) == ("0", "https:file")


def test_a_tag_and_a_full_sha_are_checked_out(repo, tmp_path):
    tagged = repo.git("rev-parse", "v1.0^{commit}")
    head = repo.git("rev-parse", "HEAD")
    dest = str(tmp_path / "c")
    assert fetch.git_checkout(url=str(repo.path), ref="v1.0", dest=dest) == (dest, tagged)
    assert (Path(dest) / "a.txt").read_text() == "one\n"
    assert fetch.git_checkout(url=str(repo.path), ref=head, dest=dest) == (dest, head)
    assert fetch.git_checkout(url=str(repo.path), ref=tagged, dest=dest) == (dest, tagged)


def test_a_relative_path_is_fetched_from_where_it_was_given(repo, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    dest = str(tmp_path / "c")
    assert fetch.git_checkout(url="src", ref="", dest=dest)[1] == repo.git("rev-parse", "HEAD")
    assert fetch.git_origin_url(dest) == str(repo.path)


def test_the_origin_url_is_shown_without_credentials(tmp_path):
    r = GitRepo(tmp_path / "r")
    r.git("remote", "add", "origin", "https://bot:ghp_x1@github.com/a/training_results_v9.9.git")
    assert fetch.git_origin_url(str(r.path)) == "https://github.com/a/training_results_v9.9.git"
    assert fetch.git_head(str(r.path)) == ""  # no commit yet
    assert (fetch.git_head(str(tmp_path)), fetch.git_origin_url(str(tmp_path))) == ("", "")


def test_network_errors_are_retried_with_backoff_then_fail(tmp_path, slept, closed_port):
    url = f"https://127.0.0.1:{closed_port}/training_results_v9.9.git"
    with pytest.raises(fetch.SyncError, match="gave up after 4 attempts"):
        fetch.git_checkout(url=url, ref="", dest=str(tmp_path / "c"))
    assert slept == list(fetch.RETRY_DELAYS)


def test_other_git_errors_are_not_retried(repo, tmp_path, slept):
    with pytest.raises(fetch.SyncError, match="couldn't find remote ref no-such-branch"):
        fetch.git_checkout(url=str(repo.path), ref="no-such-branch", dest=str(tmp_path / "c"))
    assert slept == []


# --- URLs and HTTP -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://github.com/mlcommons/training_results_v4.1", True),
        ("HTTP://example.com/page.html", True),
        ("https://user:token@github.com/x/y.git", True),
        ("https://", False),
        ("http:/no-host", False),
        ("git@github.com:mlcommons/training_results_v4.1.git", False),
        ("ssh://git@github.com/x/y.git", False),
        ("file:///etc/passwd", False),
        ("ftp://example.com/x", False),
        ("/srv/mlperf/training_results_v1.1", False),
        ("training_results_v1.1", False),
    ],
)
def test_only_http_and_https_urls_are_urls(text, expected):
    assert fetch.is_http_url(text) is expected


def test_userinfo_is_stripped_from_urls_and_from_messages_that_quote_them():
    url = "https://bot:ghp_x1@github.com/a/b.git"
    assert fetch.strip_userinfo(url) == "https://github.com/a/b.git"
    msg = (
        "git fetch: fatal: unable to access 'https://bot:ghp_x1@h.example/a/': 403; "
        "see http://u@h2/x"
    )
    assert fetch.strip_userinfo(msg) == (
        "git fetch: fatal: unable to access 'https://h.example/a/': 403; see http://h2/x"
    )
    plain = "mail me: a@b.example, /srv/x@y"
    assert fetch.strip_userinfo(plain) == plain


def test_cache_dir_keeps_the_repository_name_under_the_cache_setting(settings, tmp_path):
    settings.BENCHDB_CACHE = tmp_path / "a"
    url = "https://bot:token@github.com/mlcommons/training_results_v4.1.git"
    assert fetch.cache_dir(url) == str(tmp_path / "a" / "training_results_v4.1")
    settings.BENCHDB_CACHE = tmp_path / "b"  # read at each call, not at import
    expected = tmp_path / "b" / "sources" / "7" / "training_results_v4.1"
    assert fetch.cache_dir(url, source_id=7) == str(expected)
    local = "file:///srv/x/training_results_v1.0/"
    assert fetch.cache_dir(local) == str(tmp_path / "b" / "training_results_v1.0")
    assert fetch.cache_dir("https://h.example/") == str(tmp_path / "b" / "repository")


def test_vendor_fetch_is_conditional_and_retries_server_errors(server, monkeypatch):
    monkeypatch.setattr(fetch, "RETRY_DELAYS", (0.0, 0.0))
    page = b"<html><body>IPU-POD16 trains ResNet-50 in 28.3 minutes</body></html>"
    tag, date = '"v1"', "Wed, 01 Dec 2021 10:00:00 GMT"
    srv = server(
        [(503, {}, b"busy"), (200, {"ETag": tag, "Last-Modified": date}, page), (304, {}, b"")]
    )
    got = fetch.retry(lambda: fetch.vendor_fetch(url=srv.url), "GET")
    assert (got.status, got.body, got.etag, got.last_modified) == (200, page, tag, date)
    again = fetch.vendor_fetch(url=srv.url, etag=got.etag, last_modified=got.last_modified)
    assert again.status == 304 and again.body == b""
    assert srv.seen[2]["If-None-Match"] == tag and srv.seen[2]["If-Modified-Since"] == date
    assert "If-None-Match" not in srv.seen[0]
    with pytest.raises(fetch.SyncError, match="only http and https"):
        fetch.vendor_fetch(url="file:///etc/passwd")
