"""Read pages and their exports cached by the data version, with conditional GET.

Nothing changes between ingests, so a page (HTML, ``?format=csv``, ``?format=json``)
is computed once per data version (:mod:`benchdb.models.data_version`: bumped by every
committed change of the data) and then served from Django's cache framework (the
``pages`` cache: Redis at ``CACHE_URL``, shared by every web process; else this
process's memory). The key is the data version, the code's stamp (:func:`code_stamp`),
the host and the full path with its query (the format is a parameter), so a cached
page is never older than the data: a change makes a new key, and old keys expire.

Every cached page also answers conditional GETs: ``ETag`` (weak: the data version and
code stamp) and ``Last-Modified`` (when the data last changed), with
``Cache-Control: no-cache`` so that browsers and proxies revalidate, and a matching
``If-None-Match`` gets a 304 before anything is computed (Django's
``get_conditional_response``; ``If-Modified-Since`` alone is not enough: two changes
within the same second share a ``Last-Modified``).

Cached: GET and HEAD of the read pages (URL namespaces :data:`CACHED_NAMESPACES`) by a
visitor without a session or messages cookie (logged-in users see write links and
forms: computed each time). Stored: 200 responses that set no cookie, used no CSRF
token and hold at most ``PAGE_CACHE_MAX_BYTES`` bytes; a streamed export
(:mod:`benchdb.tables.stream`) is passed on chunk by chunk and stored once its last
chunk has been sent, unless it grew past that size (then its copy is dropped at once:
the memory held stays bounded). Not cached:
the ingest pages (jobs change without the data version), the check API and form, the
admin, and every database but PostgreSQL (:func:`data_version` is None there).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date

from benchdb.models.data_version import Version, data_version

#: URL namespaces of the read pages that are cached (``benchdb.urls``).
CACHED_NAMESPACES = frozenset({"benchdb", "vendor"})
#: Seconds a cached page is kept: a new data version makes new keys, so this only
#: bounds how long the pages of old versions occupy the cache.
TIMEOUT_SECONDS = 24 * 3600
#: What the code stamp reads (templates and static files change the pages too).
_CODE_DIRS = ("benchdb", "templates", "static")


@cache
def code_stamp() -> str:
    """12 hex digits naming the deployed code: a hash of the name, size and
    modification time of every file under :data:`_CODE_DIRS` (read once per process),
    so that pages cached in a shared cache by an older deployment are not served by a
    newer one."""
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for folder in _CODE_DIRS:
        for path in sorted((base / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                st = path.stat()
                digest.update(f"{path.relative_to(base)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class _Entry:
    """What is kept of a view's response: status, headers and body."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def response(self) -> HttpResponse:
        resp = HttpResponse(self.body, status=self.status)
        for name, value in self.headers:
            resp[name] = value
        return resp


def _cacheable_request(request: HttpRequest) -> bool:
    """GET or HEAD by a visitor without a session or messages cookie."""
    if request.method not in ("GET", "HEAD"):
        return False
    cookies = request.COOKIES
    return settings.SESSION_COOKIE_NAME not in cookies and "messages" not in cookies


def _shareable(request: HttpRequest, response: HttpResponseBase) -> bool:
    """A 200 answer that sets no cookie, used no CSRF token and asks for no private
    or uncached storage: the same for every visitor at this data version."""
    if response.status_code != 200 or response.cookies:
        return False
    if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
        return False
    control = response.get("Cache-Control", "")
    return "private" not in control and "no-store" not in control


def _max_bytes() -> int:
    return int(getattr(settings, "PAGE_CACHE_MAX_BYTES", 8 << 20))


def _storable(response: HttpResponseBase) -> bool:
    """Not streamed, and small enough to keep (``PAGE_CACHE_MAX_BYTES``)."""
    if response.streaming or not isinstance(response, HttpResponse):
        return False
    return len(response.content) <= _max_bytes()


def _sync_stream(request: HttpRequest, response: HttpResponseBase) -> bool:
    """A streamed answer to a GET, iterated by a WSGI server (not an async one)."""
    if not isinstance(response, StreamingHttpResponse) or response.is_async:
        return False
    return request.method == "GET"


def _store_when_sent(
    chunks: Iterable[bytes], key: str, status: int, headers: tuple[tuple[str, str], ...]
) -> Iterator[bytes]:
    """Pass a streamed body on chunk by chunk, keeping a copy while it is at most
    ``PAGE_CACHE_MAX_BYTES``; when the last chunk has been sent, store the whole
    (a body given up half way, a client gone, is not stored)."""
    kept: list[bytes] | None = []
    size, limit = 0, _max_bytes()
    for chunk in chunks:
        if kept is not None:
            size += len(chunk)
            if size > limit:
                kept = None
            else:
                kept.append(chunk)
        yield chunk
    if kept is not None:
        caches[_alias()].set(key, _Entry(status, headers, b"".join(kept)), TIMEOUT_SECONDS)


def _key(request: HttpRequest, version: Version) -> str:
    whole = f"{version.token}|{code_stamp()}|{request.scheme}|{request.get_host()}|"
    return "page:" + hashlib.sha256((whole + request.get_full_path()).encode()).hexdigest()


def _validators(response: HttpResponseBase, etag: str, version: Version) -> HttpResponseBase:
    response["ETag"] = etag
    response["Last-Modified"] = http_date(version.changed.timestamp())
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Cookie",))
    return response


class PageCacheMiddleware:
    """Serves the read pages from the cache, keyed by the data version (module
    docstring); sets ``X-Page-Cache: hit|miss`` on the pages it handles."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        state: tuple[str, str, Version] | None = getattr(request, "_page_cache", None)
        if state is None or response.get("X-Page-Cache") == "hit":
            return response
        key, etag, version = state
        if not _shareable(request, response):
            return response
        if _storable(response):
            assert isinstance(response, HttpResponse)
            entry = _Entry(response.status_code, tuple(response.items()), response.content)
            caches[_alias()].set(key, entry, TIMEOUT_SECONDS)
            response["X-Page-Cache"] = "miss"
        elif _sync_stream(request, response):
            assert isinstance(response, StreamingHttpResponse)
            headers = tuple(response.items())
            body = cast(Iterator[bytes], response.streaming_content)
            response.streaming_content = _store_when_sent(body, key, response.status_code, headers)
            response["X-Page-Cache"] = "miss"
        return _validators(response, etag, version)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponseBase | None:
        match = request.resolver_match
        if match is None or match.namespace not in CACHED_NAMESPACES:
            return None
        if not _cacheable_request(request):
            return None
        version = data_version()  # before anything reads the data (data_version docstring)
        if version is None:
            return None
        etag = f'W/"{version.token}-{code_stamp()}"'
        key = _key(request, version)
        request._page_cache = (key, etag, version)  # type: ignore[attr-defined]
        # Validated by the ETag only: Last-Modified has whole seconds, and two changes
        # within one second would let If-Modified-Since alone get a stale 304.
        early = get_conditional_response(request, etag=etag)
        if early is not None:  # 304 Not Modified (or 412): nothing to compute
            return _validators(early, etag, version)
        entry = caches[_alias()].get(key)
        if not isinstance(entry, _Entry):
            return None
        response = entry.response()
        response["X-Page-Cache"] = "hit"
        return _validators(response, etag, version)


def _alias() -> str:
    return "pages" if "pages" in settings.CACHES else "default"
