"""Time of ``POST /api/claims/check`` for a 20 KB article (issue 14: under 2 s).

Usage (from the repository root; DATABASE_URL names a database with MLPerf results
ingested: the check reads every stored result, so more rounds cost more)::

    python bench/check_claims_speed.py [--kb 20] [--requests 20] [--json out.json]

The article is real text: the pages of ../shared/vendor (VENDOR_DATA), English first,
joined until ``--kb`` KB (1,000 bytes of UTF-8 each), cut at a line end. Each request
goes through the whole Django stack in this process (``django.test.Client``:
middleware, the rate limit, JSON in and out), with the rate limit raised so that the
benchmark is not refused. One request warms up (imports, first queries) and is
printed apart. Printed: the article (bytes, characters, claims found), the stored
results the check reads, and p50 / p95 / max of the request time over
``--requests`` requests, with the service's own time (``seconds`` of the answer).
Nothing is asserted.

Over HTTP (issue 24: p95 under 0.3 s at 1 client, under 1 s at 8), against a real
server started on 127.0.0.1 as ``bench/pages_speed.py`` starts it::

    python bench/check_claims_speed.py --kb 2 --server gunicorn --workers 2 --clients 1,8

First the data version is moved (a committed write that changes nothing, as an ingest
would) and two requests per server worker are sent at once and timed (the first after
a change builds the result facts in each worker); then, for each ``--clients`` level,
that many clients send ``--requests`` requests each, one after another. Printed per
level: requests, errors, p50 / p95 / max of the client's latency and of the server's
time (``Server-Timing``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchdb.settings")
os.environ["CLAIMS_CHECK_RATE"] = "1000000/m"  # the benchmark is one client


def article(vendor: Path, kb: int) -> tuple[str, list[str]]:
    """Text of the vendor pages joined to at most ``kb`` KB, cut at a line end; and
    the files used."""
    files = sorted(vendor.glob("*.en.txt")) + sorted(
        p for p in vendor.glob("*.txt") if not p.name.endswith(".en.txt")
    )
    limit, out, used = kb * 1000, "", []
    for p in files:
        out += p.read_text(encoding="utf-8") + "\n\n"
        used.append(p.name)
        if len(out.encode()) >= limit:
            break
    data = out.encode()[:limit].decode("utf-8", errors="ignore")
    return data[: data.rfind("\n") + 1] or data, used


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation (``statistics.quantiles``)."""
    if len(values) == 1:
        return values[0]
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[round(q * 100) - 1]


def over_http(text: str, args: argparse.Namespace) -> dict[str, object]:
    """The check over HTTP on a started server (module docstring)."""
    import http.client
    import re
    from concurrent.futures import ThreadPoolExecutor

    sys.path.insert(0, str(ROOT / "bench"))
    import pages_speed

    body = json.dumps({"text": text}).encode()

    def post(port: int) -> tuple[float, float, int]:
        t0 = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            headers = {"Content-Type": "application/json", "Host": "127.0.0.1"}
            conn.request("POST", "/api/claims/check", body, headers)
            resp = conn.getresponse()
            resp.read()
            timing = re.search(r"dur=([0-9.]+)", resp.getheader("Server-Timing") or "")
            server = float(timing.group(1)) / 1000 if timing else float("nan")
            return time.perf_counter() - t0, server, resp.status
        finally:
            conn.close()

    pages_speed.bump_data_version()
    proc, port = pages_speed.start_server(args.server, args.workers)
    out: dict[str, object] = {"server": args.server, "workers": args.workers}
    try:
        # Concurrent, twice as many as workers: each worker gets one (gunicorn's sync
        # workers take connections as they come, not in turn).
        with ThreadPoolExecutor(max_workers=2 * args.workers) as pool:
            first = list(pool.map(lambda _: post(port), range(2 * args.workers)))
        out["first_s"] = sorted((round(f[0], 3) for f in first), reverse=True)
        print(f"first requests after the data version moved (concurrent): {out['first_s']} s")
        for clients in (int(c) for c in args.clients.split(",")):
            with ThreadPoolExecutor(max_workers=clients) as pool:
                got = list(pool.map(lambda _: post(port), range(clients * args.requests)))
            ok = [g for g in got if g[2] == 200]
            lat, srv = [g[0] for g in ok], [g[1] for g in ok]
            row = {
                "requests": len(got),
                "errors": len(got) - len(ok),
                "p50_s": round(percentile(lat, 0.5), 3),
                "p95_s": round(percentile(lat, 0.95), 3),
                "max_s": round(max(lat), 3),
                "server_p50_s": round(percentile(srv, 0.5), 3),
                "server_p95_s": round(percentile(srv, 0.95), 3),
            }
            out[f"clients_{clients}"] = row
            print(f"{clients} clients: " + ", ".join(f"{k} {v}" for k, v in row.items()))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kb", type=int, default=20)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--json", default="")
    parser.add_argument("--server", choices=["threaded", "gunicorn"], default="")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--clients", default="1,8", help="with --server: client counts")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.test import Client

    from benchdb.models import InferenceResult, Result

    text, used = article(Path(settings.VENDOR_DATA), args.kb)
    if args.server:
        print(f"article: {len(text.encode()):,} bytes from {len(used)} pages; {os.getloadavg()=}")
        figures_http = over_http(text, args)
        if args.json:
            Path(args.json).write_text(json.dumps(figures_http, indent=1))
        return
    client = Client(HTTP_HOST="127.0.0.1")  # a host ALLOWED_HOSTS accepts by default
    body = json.dumps({"text": text})

    def once() -> tuple[float, dict]:
        t0 = time.perf_counter()
        resp = client.post("/api/claims/check", body, content_type="application/json")
        took = time.perf_counter() - t0
        if resp.status_code != 200:
            raise SystemExit(f"HTTP {resp.status_code}: {resp.content[:300]!r}")
        return took, resp.json()

    warm, out = once()
    times, service = [], []
    for _ in range(args.requests):
        took, out = once()
        times.append(took)
        service.append(out["seconds"])
    figures = {
        "article_bytes": len(text.encode()),
        "article_characters": len(text),
        "files": used,
        "claims": out["counts"]["claims"],
        "guideline_findings": out["counts"]["breaks"] + out["counts"]["satisfies"],
        "training_results": Result.objects.filter(status="scored").count(),
        "inference_results": InferenceResult.objects.count(),
        "warmup_s": round(warm, 3),
        "requests": args.requests,
        "p50_s": round(percentile(times, 0.5), 3),
        "p95_s": round(percentile(times, 0.95), 3),
        "max_s": round(max(times), 3),
        "service_p50_s": round(percentile(service, 0.5), 3),
        "service_p95_s": round(percentile(service, 0.95), 3),
    }
    print(
        f"article: {figures['article_bytes']:,} bytes, {figures['article_characters']:,}"
        f" characters from {len(used)} pages; {figures['claims']} claims,"
        f" {figures['guideline_findings']} guideline findings"
    )
    print(
        f"stored results read: {figures['training_results']} scored training,"
        f" {figures['inference_results']} inference"
    )
    print(f"warm-up request: {figures['warmup_s']} s")
    print(
        f"{args.requests} requests: p50 {figures['p50_s']} s, p95 {figures['p95_s']} s,"
        f" max {figures['max_s']} s (service alone: p50 {figures['service_p50_s']} s,"
        f" p95 {figures['service_p95_s']} s)"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
