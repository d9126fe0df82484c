"""The Redis database the worker tests use and flush: ``BENCHDB_TEST_REDIS_URL`` when set,
else one chosen for this run on 127.0.0.1:6379: the first empty database among 2-15 in a
random order (0 and 1 are the README's broker and cache), claimed with a key that only
this run sets, so a database a person uses (not empty) is never flushed."""

from __future__ import annotations

import functools
import os
import random

import redis

HOST = "redis://127.0.0.1:6379"
CLAIM = "benchdb-test-run"


@functools.cache
def redis_url_for_tests() -> str:
    """A Redis URL (``redis://host:port/N``). Raises RuntimeError when no database
    2-15 is empty, redis.ConnectionError when Redis does not answer."""
    if os.environ.get("BENCHDB_TEST_REDIS_URL"):
        return os.environ["BENCHDB_TEST_REDIS_URL"]
    numbers = list(range(2, 16))
    random.shuffle(numbers)
    for n in numbers:
        client = redis.Redis.from_url(f"{HOST}/{n}")
        try:
            if client.dbsize() == 0 and client.set(CLAIM, os.getpid(), nx=True, ex=6 * 3600):
                return f"{HOST}/{n}"
        finally:
            client.close()
    raise RuntimeError("no empty Redis database among 2-15: set BENCHDB_TEST_REDIS_URL")
