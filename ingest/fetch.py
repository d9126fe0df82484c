"""Getting a source's bytes: git checkouts and conditional HTTP GETs, with retries;
and the URL rules every ingest path shares (:func:`is_http_url`,
:func:`strip_userinfo`, :func:`cache_dir`).

What git may be given is decided here and nowhere else: :func:`check_git_ref` and
:func:`check_git_location` (used by ``Source.clean``, hence the admin form and
``source add``, by every sync and by :func:`git_checkout`). Every git call ends its
options with ``--`` and runs with only the https and file transports allowed and
no credential prompt.

No database here; ``ingest.jobs.run`` decides what to read and records the job.
Network errors raise :class:`TransientError` and are retried by :func:`retry` after
each delay of :data:`RETRY_DELAYS`; anything else (and a network error that outlives
the retries) raises :class:`SyncError`.
"""

from __future__ import annotations

import http.client
import ipaddress
import logging
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

log = logging.getLogger(__name__)

#: Seconds slept before each retry of a network operation (git fetch, HTTP GET).
RETRY_DELAYS: tuple[float, ...] = (5.0, 30.0, 120.0)
#: Seconds an HTTP request may take.
HTTP_TIMEOUT = 30.0
#: Largest vendor page accepted, bytes (checked once, in ``vendor_pages.vendor_page_ingest``;
#: here it bounds the read). Ingest costs about 3 s of CPU per MB of claim-dense text, so
#: 5 MiB stays within a web request; real pages are 2-11 KB of text, HTML under 2 MB.
MAX_PAGE_BYTES = 5 * 1024 * 1024
#: Seconds a git command may take (a first clone of a whole round is a few GB).
GIT_TIMEOUT = 3 * 3600

T = TypeVar("T")


class SyncError(Exception):
    """A sync cannot go on (source unreachable, not a results repository...)."""


class TransientError(Exception):
    """A network error worth retrying."""


def retry(fn: Callable[[], T], what: str) -> T:
    """``fn()``, called again after each delay of :data:`RETRY_DELAYS` while it
    raises :class:`TransientError`; then :class:`SyncError`."""
    for delay in RETRY_DELAYS:
        try:
            return fn()
        except TransientError as exc:
            log.warning("%s failed (%s); retrying in %.0f s", what, exc, delay)
            _backoff(delay)
    try:
        return fn()
    except TransientError as exc:
        raise SyncError(f"{exc} (gave up after {len(RETRY_DELAYS) + 1} attempts)") from exc


def _backoff(seconds: float) -> None:
    time.sleep(seconds)


# --- URLs ------------------------------------------------------------------------------


def is_http_url(s: str) -> bool:
    """True when ``s`` is an http or https URL with a host: the only URLs fetched
    (git sources, vendor pages). Anything else is a local path."""
    parts = urllib.parse.urlsplit(s)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


#: Longest URL fetched (browsers and servers commonly stop near 2,000-8,000).
MAX_URL_CHARS = 2000
_URL_BAD_CHARS = re.compile(r"[\x00-\x20\x7f]")


def url_problem(url: str) -> str:
    """Why ``url`` is no URL benchdb fetches over HTTP ("" when it is one): not http
    or https, no host, a ``user:password@`` part (never sent: it would leak into logs
    and pages), a port outside 1-65535 or not a number, whitespace or control
    characters (a CR could add a header), or more than :data:`MAX_URL_CHARS`
    characters. Pure, no network."""
    if len(url) > MAX_URL_CHARS:
        return f"longer than {MAX_URL_CHARS:,} characters"
    if _URL_BAD_CHARS.search(url):
        return "it holds a space or a control character (encode them: %20)"
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError as exc:  # "Port out of range 0-65535", a bracketed host unclosed
        return f"not a URL: {exc}"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "only http and https URLs with a host are fetched"
    if "@" in parts.netloc:
        return "it holds a user name or password (user:password@); give the URL without it"
    if port == 0:
        return "port 0 is no port"
    return ""


_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@'\"]*@")


def strip_userinfo(text: str) -> str:
    """``text`` (a URL, or a message that may quote URLs, such as git's stderr) with
    the ``user:token@`` part of every URL removed: what a page may show."""
    return _USERINFO.sub(r"\1", text)


def cache_dir(url: str, *, source_id: int | None = None) -> str:
    """Where a git ``url`` is checked out: ``BENCHDB_CACHE/sources/<source_id>/<name>``
    for a source's syncs (each source its own checkout, so that two sources of one
    repository never share a working tree), ``BENCHDB_CACHE/<name>`` for a one-off
    ingest. ``<name>`` is the repository's name (``training_results_v4.1``, ``.git``
    dropped, other characters than ``A-Za-z0-9_.-`` as ``_``): a repository root is
    recognised by it, so it must be kept.
    """
    from django.conf import settings

    path = urllib.parse.urlsplit(url).path if "://" in url else url
    name = re.sub(r"\.git$", "", path.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1])
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", name).strip(".") or "repository"
    parts = ["sources", str(source_id)] if source_id is not None else []
    return os.path.join(settings.BENCHDB_CACHE, *parts, name)


# --- git: what it may be given ----------------------------------------------------------

#: Where a git source may be: an https URL with a host, a ``file:///`` URL, or a local
#: path. Nothing else reaches git: not ``ext::`` (runs a command), ``ssh://`` or
#: ``git@host:`` (ssh), ``http://`` (clear text), nor an argument starting with ``-``.
GIT_LOCATIONS = "an https:// URL or a local path"

_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
#: Characters and sequences ``git check-ref-format`` refuses anywhere in a ref name.
_REF_BAD = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|//")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
#: Longest ref accepted (``Source.ref`` holds 200 characters).
MAX_REF = 200


class RefusedError(SyncError):
    """A ref or location that must not be passed to git (it could be read as an
    option or a command). Never retried."""


def check_git_ref(ref: str) -> str:
    """``ref`` if git may be given it: "" (the remote's default branch), a full
    commit sha (40 or 64 lowercase hex digits), or a branch or tag name that
    ``git check-ref-format --allow-onelevel`` accepts and that does not start with
    ``-``. Raises :class:`RefusedError` naming the rule broken.

    Rules: https://git-scm.com/docs/git-check-ref-format
    """
    if ref == "" or _SHA.fullmatch(ref):
        return ref
    why = _ref_problem(ref)
    if why:
        raise RefusedError(
            f"ref {ref[:80]!r} refused: {why} (expected a branch or tag name, or a full commit sha)"
        )
    return ref


def _ref_problem(ref: str) -> str:
    if ref.startswith("-"):
        return "it starts with '-'"
    if len(ref) > MAX_REF:
        return f"longer than {MAX_REF} characters"
    if ref == "@" or _REF_BAD.search(ref):
        return r"it holds a space, a control character, '..', '@{', '//' or one of ~^:?*[\ "
    if ref.startswith("/") or ref.endswith(("/", ".")):
        return "it starts with '/' or ends with '/' or '.'"
    if any(part.startswith(".") or part.endswith(".lock") for part in ref.split("/")):
        return "a part starts with '.' or ends with '.lock'"
    return ""


def check_git_location(location: str) -> str:
    """``location`` if git may fetch from it: an https URL with a host, a
    ``file:///`` URL with an absolute path and nothing else, or a local path (no
    ``:`` before its first ``/``, which git would read as ``host:path`` over ssh).
    Raises :class:`RefusedError` for anything else: ``ext::`` and other transports,
    ``ssh://``, ``git@host:``, ``http://``, control characters, a leading ``-``.
    """
    shown = strip_userinfo(location)[:200]
    if not location or location.startswith("-") or _CONTROL.search(location):
        why = "empty, starts with '-' or holds a control character"
        raise RefusedError(f"location {shown!r} refused: {why}")
    parts = urllib.parse.urlsplit(location)
    if parts.scheme == "https" and parts.hostname and not parts.hostname.startswith("-"):
        return location
    if parts.scheme == "file" and not parts.netloc and parts.path.startswith("/"):
        if not (parts.query or parts.fragment or "::" in parts.path):
            return location
    elif "::" not in location and ":" not in location.split("/", 1)[0]:
        return location  # a local path
    raise RefusedError(f"location {shown!r} refused: only {GIT_LOCATIONS} is fetched with git")


# --- git: running it ----------------------------------------------------------------------

#: Transports git may use whatever its configuration says (``protocol.allow``):
#: https and local files only.
_PROTOCOLS = ("protocol.allow=never", "protocol.https.allow=always", "protocol.file.allow=always")
_GIT_CONFIG = tuple(arg for setting in _PROTOCOLS for arg in ("-c", setting))
#: git's messages for failures worth a retry (connection, DNS, TLS, 429 and 5xx);
#: anything else (an unknown ref, a 404, a refused transport) fails at once.
_NETWORK = re.compile(
    r"Failed to connect|Couldn't connect|Could not resolve|Connection (refused|reset|timed out)"
    r"|timed out|early EOF|hung up unexpectedly|RPC failed|returned error: (5\d\d|429)"
    r"|SSL|TLS|GnuTLS|Recv failure|Send failure|unexpected disconnect",
    re.IGNORECASE,
)


def git_checkout(*, url: str, ref: str, dest: str) -> tuple[str, str]:
    """Shallow-fetch ``ref`` ("" = the remote's default branch) of ``url`` into
    ``dest`` and check it out; returns (``dest``, commit). The one way a git source
    (``ingest.jobs.run``) or ``manage.py ingest mlperf-training <git URL>`` is cloned.

    ``url`` and ``ref`` are checked first (:func:`check_git_location`,
    :func:`check_git_ref`; :class:`RefusedError`, never retried); a relative local
    path is made absolute. The previously checked-out commit stays in ``dest`` (under
    ``refs/benchdb/synced``), so that it can be diffed against the new one. A cache
    left broken by a killed worker is repaired or cloned again. Raises
    :class:`SyncError` when git fails, after the retries for network errors.
    """
    check_git_ref(ref)
    if "://" not in check_git_location(url):
        url = os.path.abspath(url)
    _prepare_cache(url, dest)
    fetch = ["-C", dest, "fetch", "-q", "--depth", "1", "--no-tags", "--", "origin", ref or "HEAD"]
    retry(lambda: git(fetch, transient=True), f"git fetch {strip_userinfo(url)} {ref}")
    git(["-C", dest, "checkout", "-q", "--force", "--detach", "FETCH_HEAD", "--"])
    git(["-C", dest, "clean", "-q", "-ffdx", "--"])
    commit = git_head(dest)
    if not commit:
        raise SyncError(f"{strip_userinfo(url)}: no commit checked out in {dest}")
    git(["-C", dest, "update-ref", "--", "refs/benchdb/synced", commit])
    return dest, commit


def _prepare_cache(url: str, dest: str) -> None:
    """``dest``: a git repository whose ``origin`` is ``url``."""
    if os.path.isdir(os.path.join(dest, ".git")):
        for lock in ("index.lock", "shallow.lock", "HEAD.lock"):
            # Only one job per source runs, so a lock file is a leftover of a dead one.
            if os.path.exists(os.path.join(dest, ".git", lock)):
                os.remove(os.path.join(dest, ".git", lock))
        if not git_ok(["-C", dest, "remote", "set-url", "--", "origin", url]):
            shutil.rmtree(dest)
    if not os.path.isdir(os.path.join(dest, ".git")):
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(dest)
        git(["init", "-q", "--", dest])
        git(["-C", dest, "remote", "add", "--", "origin", url])


def git_head(tree: str) -> str:
    """The commit checked out in ``tree`` (40 hex digits); "" when ``tree`` is no
    git checkout or has no commit."""
    if not os.path.exists(os.path.join(tree, ".git")):
        return ""
    out = _run_git(["-C", tree, "rev-parse", "--verify", "-q", "--end-of-options", "HEAD"])
    return out.stdout.strip() if out.returncode == 0 else ""


def git_origin_url(tree: str) -> str:
    """The ``origin`` URL of the git checkout ``tree`` without its ``user:token@``
    part (:func:`strip_userinfo`); "" when there is none."""
    if not os.path.isdir(os.path.join(tree, ".git")):
        return ""
    out = _run_git(["-C", tree, "config", "--get", "--", "remote.origin.url"])
    return strip_userinfo(out.stdout.strip()) if out.returncode == 0 else ""


def git_changed_files(tree: str, base: str, commit: str) -> list[str] | None:
    """Paths (relative to the tree) that differ between two commits (full shas),
    both sides of a rename included; None when ``base`` is not in the checkout any
    more or is not a sha."""
    if not (_SHA.fullmatch(base) and _SHA.fullmatch(commit)):
        return None
    if not git_ok(["-C", tree, "cat-file", "-e", "--", f"{base}^{{commit}}"]):
        return None
    out = git(["-C", tree, "diff", "--name-only", "--no-renames", "-z", base, commit, "--"])
    return [p for p in out.split("\0") if p]


def git(args: list[str], *, transient: bool = False) -> str:
    """Run git with ``args`` and return its stdout. A failure raises
    :class:`SyncError` with git's message (credentials removed);
    :class:`TransientError` instead when ``transient`` and the message is a
    network error's."""
    out = _run_git(args)
    if out.returncode == 0:
        return out.stdout
    what = " ".join(args[2:] if args[0] == "-C" else args)
    err = strip_userinfo(f"git {what}: {out.stderr.strip()[-800:]}")
    raise TransientError(err) if transient and _NETWORK.search(out.stderr) else SyncError(err)


def git_ok(args: list[str]) -> bool:
    """True when git with ``args`` exits with status 0."""
    return _run_git(args).returncode == 0


def _run_git(args: list[str]) -> subprocess.CompletedProcess[str]:
    # Never wait for a password prompt (a worker has no terminal), and only https and
    # local transports, whatever a repository's configuration says.
    env = {
        **os.environ,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_ALLOW_PROTOCOL": "https:file",
        "LC_ALL": "C",
    }
    return subprocess.run(
        ["git", *_GIT_CONFIG, *args], capture_output=True, text=True, env=env, timeout=GIT_TIMEOUT
    )


# --- HTTP --------------------------------------------------------------------------------


def require_public_url(url: str) -> None:
    """Raise :class:`SyncError` unless ``url`` is http(s) and its host resolves only to
    public addresses. For URLs typed into the site by a user: the server must not be
    made to fetch from loopback, private, link-local or reserved addresses (SSRF).
    Sources added by an operator (``manage.py source add``) are trusted and skip this.
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SyncError(f"{url}: only http and https URLs are fetched")
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as exc:
        raise SyncError(f"{url}: cannot resolve {parts.hostname}: {exc}") from exc
    for info in infos:
        addr = ipaddress.ip_address(info[4][0])
        if not addr.is_global:
            raise SyncError(f"{url}: {parts.hostname} is not a public address ({addr})")


@dataclass(frozen=True)
class Fetched:
    """An HTTP answer: ``status`` 200 (``body`` set) or 304 (not modified)."""

    status: int
    body: bytes = b""
    etag: str = ""
    last_modified: str = ""
    content_type: str = ""


class _PublicRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to a public address (see :func:`require_public_url`)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        require_public_url(newurl)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def vendor_fetch(
    *,
    url: str,
    etag: str = "",
    last_modified: str = "",
    timeout: float = HTTP_TIMEOUT,
    public_only: bool = False,
) -> Fetched:
    """GET ``url`` (http or https) with ``If-None-Match`` / ``If-Modified-Since``.

    ``public_only`` (URLs a user typed into the site): the URL and every redirect
    must resolve to public addresses (:func:`require_public_url`). What remains
    possible is DNS rebinding between the check and the connection.
    ``timeout``: seconds for the whole fetch (name lookups, connections, redirects,
    headers and body), not per socket operation: a server sending a byte every
    second cannot hold it longer. The fetch runs in a child process killed at the
    deadline (``ingest.budget``).
    Raises :class:`TransientError` for network errors, timeouts, HTTP 429 and
    5xx; :class:`SyncError` for a URL refused (:func:`url_problem`), other HTTP
    errors, a private address and bodies over :data:`MAX_PAGE_BYTES`.
    """
    from ingest import budget  # no import circle: budget imports nothing of ingest

    why = url_problem(url)
    if why:
        raise SyncError(f"{strip_userinfo(url)[:200]!r} is not fetched: {why}")
    try:
        return budget.run_within(
            timeout,
            lambda stage: _get(url, etag, last_modified, timeout=timeout, public_only=public_only),
        )
    except budget.BudgetExceeded as exc:
        raise TransientError(
            f"{strip_userinfo(url)}: no complete answer within {timeout:g} s"
        ) from exc


def _get(url: str, etag: str, last_modified: str, *, timeout: float, public_only: bool) -> Fetched:
    """The GET of :func:`vendor_fetch`, in its child process."""
    if public_only:
        require_public_url(url)
    opener = urllib.request.build_opener(*([_PublicRedirects()] if public_only else []))
    headers = {"User-Agent": "benchdb-sync/1", "Accept": "text/html,text/plain,*/*"}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    req = urllib.request.Request(url, headers=headers)  # noqa: S310 - scheme checked above
    try:
        with opener.open(req, timeout=timeout) as resp:
            body = resp.read(MAX_PAGE_BYTES + 1)
            h = resp.headers
            got = Fetched(
                200,
                body,
                h.get("ETag", ""),
                h.get("Last-Modified", ""),
                h.get("Content-Type", ""),
            )
    except urllib.error.HTTPError as exc:
        if exc.code == 304:
            return Fetched(304, b"", etag, last_modified)
        if exc.code == 429 or exc.code >= 500:
            raise TransientError(f"{url}: HTTP {exc.code}") from None
        raise SyncError(f"{url}: HTTP {exc.code}") from None
    except (urllib.error.URLError, TimeoutError, ConnectionError, http.client.HTTPException) as exc:
        raise TransientError(f"{url}: {exc}") from None
    except (ValueError, OSError) as exc:  # a redirect to a bad URL, a non-ASCII path
        raise SyncError(f"{url}: {exc}") from None
    if len(body) > MAX_PAGE_BYTES:
        raise SyncError(f"{url}: page larger than {MAX_PAGE_BYTES} bytes")
    return got
