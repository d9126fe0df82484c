"""The data version: one counter that every committed change of benchdb's data bumps.

Pages and exports are cached under it (:mod:`benchdb.page_cache`) and the check API's
result facts are built once per value of it (``ingest.claims.facts.result_facts``), so
a page is computed once per change and never served stale.

How it is bumped (PostgreSQL, migration ``0018_data_version``): every table of
the ``benchdb`` app (:func:`watched_tables`) has a row-level trigger on INSERT, UPDATE
and DELETE and a statement-level one on TRUNCATE. The first write of a transaction
(a transaction-local setting, ``benchdb.data_changed``, tells the first from the
rest) puts one row in ``benchdb_dataversion_pending``, whose deferred constraint
trigger bumps :class:`DataVersion` just before that transaction commits. So every
ingest (training, HPC, inference, vendor page), sync, claim correction, admin edit or
hand-written SQL bumps it, inside its own transaction: a reader that sees the new
version also sees the new rows, and the counter's row lock is held only while the
transaction commits (concurrent ingests do not queue behind each other's writes). A
rolled-back transaction bumps nothing.

Readers take the version *before* reading the data (:func:`data_version`): with READ
COMMITTED each later query sees at least that version's rows, so what is cached under
a version is never older than it.

SQLite (the quick start) has no such triggers: :func:`data_version` is None there and
nothing is cached; so inside a transaction (its own writes are not counted yet).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.apps import apps as global_apps
from django.db import ProgrammingError, connection, models


class DataVersion(models.Model):
    """The single row (``id`` 1) holding the data version: ``version`` counts
    committed transactions that changed data; ``changed`` is when the last one
    committed. Written only by the database's triggers."""

    version = models.BigIntegerField(default=0)
    changed = models.DateTimeField()

    def __str__(self) -> str:
        return f"data version {self.version} ({self.changed:%Y-%m-%d %H:%M:%S})"


@dataclass(frozen=True)
class Version:
    """A data version as read: ``version`` and ``changed`` (timezone-aware). ``token``
    names it in cache keys and ETags: the counter and its commit time in
    microseconds, so that a counter started again (a test database flushed) never
    names an older state."""

    version: int
    changed: datetime

    @property
    def token(self) -> str:
        return f"{self.version}.{int(self.changed.timestamp() * 1_000_000)}"


#: Tables the triggers leave alone: the counter itself.
UNWATCHED = ("benchdb_dataversion",)


def watched_tables(registry: Any = global_apps) -> list[str]:
    """The tables whose writes bump the data version: every table of the ``benchdb``
    app's models (many-to-many tables included) but the counter's. ``registry``: the
    app registry (a migration passes its historical one)."""
    tables: list[str] = []
    for model in registry.get_app_config("benchdb").get_models(include_auto_created=True):
        name = model._meta.db_table
        if name not in UNWATCHED and not model._meta.proxy and model._meta.managed:
            tables.append(name)
    return sorted(set(tables))


FUNCTIONS = r"""
CREATE UNLOGGED TABLE IF NOT EXISTS benchdb_dataversion_pending (txid bigint PRIMARY KEY);

CREATE OR REPLACE FUNCTION benchdb_data_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    -- The first write of a transaction queues one bump, run at its commit.
    IF current_setting('benchdb.data_changed', true) IS DISTINCT FROM 'on' THEN
        PERFORM set_config('benchdb.data_changed', 'on', true);
        INSERT INTO benchdb_dataversion_pending (txid) VALUES (txid_current())
            ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION benchdb_data_version_bump() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO benchdb_dataversion (id, version, changed) VALUES (1, 1, clock_timestamp())
    ON CONFLICT (id) DO UPDATE
        SET version = benchdb_dataversion.version + 1, changed = clock_timestamp();
    DELETE FROM benchdb_dataversion_pending WHERE txid = NEW.txid;
    RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS benchdb_data_version_bump ON benchdb_dataversion_pending;
-- Deferred: runs as the writing transaction commits, so the counter's row is locked
-- only for the commit itself.
CREATE CONSTRAINT TRIGGER benchdb_data_version_bump
    AFTER INSERT ON benchdb_dataversion_pending DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION benchdb_data_version_bump();
"""

DROP_FUNCTIONS = """
DROP TABLE IF EXISTS benchdb_dataversion_pending;
DROP FUNCTION IF EXISTS benchdb_data_version_bump();
DROP FUNCTION IF EXISTS benchdb_data_changed();
"""

ROW_TRIGGER = """
CREATE OR REPLACE TRIGGER benchdb_data_changed
    AFTER INSERT OR UPDATE OR DELETE ON "{table}" FOR EACH ROW
    WHEN (current_setting('benchdb.data_changed', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION benchdb_data_changed();
CREATE OR REPLACE TRIGGER benchdb_data_truncated
    AFTER TRUNCATE ON "{table}" FOR EACH STATEMENT EXECUTE FUNCTION benchdb_data_changed();
"""


def install_triggers(conn: Any, tables: list[str]) -> None:
    """Create (or replace) the functions and a trigger pair on each of ``tables`` on
    the connection ``conn``; nothing on a database other than PostgreSQL. Idempotent:
    run by the migration that made the counter and after every ``migrate``. Tables
    not (or no longer) in the database are skipped, and nothing is made while the
    counter's table is missing (migrated back before it)."""
    if conn.vendor != "postgresql":
        return
    with conn.cursor() as cursor:
        existing = set(conn.introspection.table_names(cursor))
        if "benchdb_dataversion" not in existing:
            return
        cursor.execute(FUNCTIONS)
        for table in tables:
            if table in existing:
                cursor.execute(ROW_TRIGGER.format(table=table))


def data_version() -> Version | None:
    """The current data version (one query), or None where it cannot name what this
    connection reads: a database other than PostgreSQL (no triggers), or inside a
    transaction (an atomic block: its own writes have not bumped the version yet, as
    in a test), or a database not migrated to it yet. A counter never bumped (a new
    database) is version 0 at the Unix epoch."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return None
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT version, changed FROM benchdb_dataversion WHERE id = 1")
            row = cursor.fetchone()
    except ProgrammingError:  # not migrated yet (no counter): nothing can be cached
        return None
    if row is None:
        return Version(0, datetime.fromtimestamp(0, tz=UTC))
    return Version(int(row[0]), row[1])
