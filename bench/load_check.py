"""Load with a hostile check-API loop beside it (issue 21): 64 clients read the site's
pages while one client posts the issue's hostile bodies to ``/api/claims/check`` with a
new X-Forwarded-For address each time (an attacker rotating addresses, so that the rate
limit does not stop it: every body is read). Prints requests, errors (5xx and
connection failures), statuses and latencies of both, and for the hostile answers 422
the stage each was cut at (``cut_at``) and the check's slowest stages (``stages``).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/benchdb_hw_load \\
        python bench/load_check.py --clients 64 --seconds 60 --workers 5

gunicorn is started on 127.0.0.1 only (``--bind 127.0.0.1:PORT``), with the settings of
a deployment (DEBUG=0, a Redis cache for the rate limit: ``--cache``), and stopped at
the end. The pages read are found by following the site's own links from ``/`` (at most
``--pages``). Every loop is bounded: by ``--seconds`` and by ``--max-requests`` per
client. Uses only the standard library (urllib, threads).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLOW = 5.0
HOSTILE = [
    {"text": "| a | b |\n" * 9000},
    {"text": "In MLPerf v3.0, BERT trained in 2 minutes. " * 200 + "H100 " * 8000},
    {"url": "http://host:99999/"},
    {"url": "http://user:pw@example.com/"},
    {"url": "http://example.com/a b\r\n"},
    {"text": "NVIDIA H100 trained BERT in 5 minutes.", "published": "9999-12-31"},
]
RAW_HOSTILE = ["[" * 100_000 + "]" * 100_000, '{"text": "\\ud800"}']


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_gunicorn(port: int, workers: int, cache: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "CACHE_URL": cache,
        "CONN_MAX_AGE": "60",
        "BENCHDB_TRUSTED_PROXIES": "1",
    }
    cmd = [
        sys.executable,
        "-m",
        "gunicorn",
        "benchdb.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--timeout",
        "60",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env)
    for _ in range(120):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read()
            return proc
        except OSError:
            time.sleep(0.5)
    proc.terminate()
    raise SystemExit("gunicorn did not answer within 60 s")


def crawl(base: str, limit: int) -> list[str]:
    """Pages reachable from / by the site's own links (no query strings but formats)."""
    seen, queue = ["/"], ["/"]
    while queue and len(seen) < limit:
        path = queue.pop(0)
        try:
            page = urllib.request.urlopen(base + path, timeout=30)  # noqa: S310 - 127.0.0.1
            html = page.read().decode()
        except (OSError, UnicodeDecodeError):
            continue
        for link in re.findall(r'href="(/[^"#?]*)"', html):
            if link not in seen and not link.startswith(("/admin", "/static", "/ingest")):
                seen.append(link)
                queue.append(link)
    return seen[:limit]


class Stats:
    #: monotonic time the timed run started: a slow request says when it started
    start = 0.0

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: list[float] = []
        self.status: Counter[str] = Counter()
        self.slow: list[tuple[float, str]] = []
        self.cut_at: Counter[str] = Counter()
        self.stage_max: dict[str, float] = {}

    def add(self, status: str, took: float, what: str, answer: bytes = b"") -> None:
        with self.lock:
            self.times.append(took)
            self.status[status] += 1
            if took > SLOW:
                at = time.monotonic() - took - Stats.start
                self.slow.append((round(took, 2), f"{what} (sent at {at:.1f} s)"))
            if answer:
                self._answer(answer)

    def _answer(self, answer: bytes) -> None:
        """A check's answer: the stage it was cut at (422), each stage's longest wall."""
        try:
            body = json.loads(answer)
        except ValueError:
            return
        if not isinstance(body, dict):
            return
        if "cut_at" in body:
            self.cut_at[body["cut_at"] or "(none)"] += 1
        for name, t in (body.get("stages") or {}).items():
            self.stage_max[name] = max(self.stage_max.get(name, 0.0), t["wall"])

    def summary(self) -> dict[str, object]:
        t = sorted(self.times) or [0.0]
        errors = sum(n for s, n in self.status.items() if s.startswith("5") or s == "error")
        return {
            "requests": len(self.times),
            "errors": errors,
            "status": dict(self.status),
            "p50_s": round(statistics.median(t), 3),
            "p95_s": round(t[int(len(t) * 0.95) - 1 if len(t) > 1 else 0], 3),
            "p99_s": round(t[int(len(t) * 0.99) - 1 if len(t) > 1 else 0], 3),
            "max_s": round(t[-1], 3),
            "over_5_s": len(self.slow),
            "slowest": sorted(self.slow, reverse=True)[:5],
            **({"cut_at": dict(self.cut_at)} if self.cut_at else {}),
            **({"stage_max_s": self.stage_max} if self.stage_max else {}),
        }


def request(
    url: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[str, bytes]:
    """(status or "error", the answer's body)."""
    req = urllib.request.Request(url, data=body, headers=headers or {})  # noqa: S310
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:  # noqa: S310 - 127.0.0.1
            return str(resp.status), resp.read()
    except urllib.error.HTTPError as exc:
        return str(exc.code), exc.read()
    except OSError:
        return "error", b""


def reader(base: str, pages: list[str], stats: Stats, stop: float, n: int, seed: int) -> None:
    for i in range(n):
        if time.monotonic() >= stop:
            return
        path = pages[(seed * 7919 + i * 104729) % len(pages)]
        t0 = time.perf_counter()
        status, _ = request(base + path)
        stats.add(status, time.perf_counter() - t0, path)


def attacker(base: str, stats: Stats, stop: float, n: int) -> None:
    bodies = [json.dumps(b).encode() for b in HOSTILE] + [r.encode() for r in RAW_HOSTILE]
    for i in range(n):
        if time.monotonic() >= stop:
            return
        body = bodies[i % len(bodies)]
        headers = {
            "Content-Type": "application/json",
            "X-Forwarded-For": f"198.18.{(i >> 8) & 255}.{i & 255}",
        }
        t0 = time.perf_counter()
        status, answer = request(base + "/api/claims/check", body, headers)
        stats.add(status, time.perf_counter() - t0, f"hostile #{i % len(bodies)}", answer)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--workers", type=int, default=5)
    ap.add_argument("--pages", type=int, default=300)
    ap.add_argument("--max-requests", type=int, default=10_000)
    ap.add_argument("--cache", default="redis://127.0.0.1:6379/8")
    ap.add_argument("--no-hostile", action="store_true", help="the readers alone (a baseline)")
    args = ap.parse_args()
    port = free_port()
    proc = start_gunicorn(port, args.workers, args.cache)
    base = f"http://127.0.0.1:{port}"
    try:
        pages = crawl(base, args.pages)
        print(f"{len(pages)} pages found from /", flush=True)
        readers, hostile = Stats(), Stats()
        stop = time.monotonic() + args.seconds
        threads = [
            threading.Thread(target=reader, args=(base, pages, readers, stop, args.max_requests, k))
            for k in range(args.clients)
        ]
        if not args.no_hostile:
            threads.append(
                threading.Thread(target=attacker, args=(base, hostile, stop, args.max_requests))
            )
        load_before = os.getloadavg()
        Stats.start = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(
            json.dumps(
                {
                    "clients": args.clients,
                    "seconds": args.seconds,
                    "workers": args.workers,
                    "pages": len(pages),
                    "readers": readers.summary(),
                    "hostile": hostile.summary(),
                    "load_average_before_after": [load_before, os.getloadavg()],
                },
                indent=1,
            )
        )
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


if __name__ == "__main__":
    main()
