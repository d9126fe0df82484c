"""The data version (``benchdb.models.data_version``): its table, and the triggers
that bump it on every committed change of the ``benchdb`` app's tables (PostgreSQL
only; SQLite, the quick start, keeps no data version and caches no page)."""

from typing import Any

from django.db import migrations, models

def install(apps: Any, schema_editor: Any) -> None:
    """The functions, then a trigger pair on every watched table (tables made by later
    migrations get theirs after each ``migrate``: ``benchdb.apps``)."""
    from benchdb.models.data_version import install_triggers, watched_tables

    install_triggers(schema_editor.connection, watched_tables(apps))


def uninstall(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    from benchdb.models.data_version import DROP_FUNCTIONS, watched_tables

    for table in watched_tables(apps):
        schema_editor.execute(f'DROP TRIGGER IF EXISTS benchdb_data_changed ON "{table}"')
        schema_editor.execute(f'DROP TRIGGER IF EXISTS benchdb_data_truncated ON "{table}"')
    schema_editor.execute(DROP_FUNCTIONS)


class Migration(migrations.Migration):
    dependencies = [
        ("benchdb", "0017_claim_kinds"),
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
