"""The data version (``benchdb.models.data_version``): its table, and the triggers
that bump it on every committed change of the ``benchdb`` app's tables (PostgreSQL
only; SQLite, the quick start, keeps no data version and caches no page)."""

from typing import Any

from django.db import migrations, models

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


def install(apps: Any, schema_editor: Any) -> None:
    """The functions, then a trigger pair on every watched table."""
    if schema_editor.connection.vendor != "postgresql":
        return
    from benchdb.models.data_version import watched_tables

    schema_editor.execute(FUNCTIONS)
    for table in watched_tables(apps):
        schema_editor.execute(ROW_TRIGGER.format(table=table))


def uninstall(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    from benchdb.models.data_version import watched_tables

    for table in watched_tables(apps):
        schema_editor.execute(f'DROP TRIGGER IF EXISTS benchdb_data_changed ON "{table}"')
        schema_editor.execute(f'DROP TRIGGER IF EXISTS benchdb_data_truncated ON "{table}"')
    schema_editor.execute(DROP_FUNCTIONS)


class Migration(migrations.Migration):
    dependencies = [
        ("benchdb", "0016_compliance_run_findings"),
    ]

    operations = [
        migrations.CreateModel(
            name="DataVersion",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("version", models.BigIntegerField(default=0)),
                ("changed", models.DateTimeField()),
            ],
        ),
        migrations.RunPython(install, uninstall),
    ]
