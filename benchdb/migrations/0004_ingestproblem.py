# IngestProblem moves from ingest to benchdb (problems belong to the results they
# concern; benchdb never imports ingest). Only the state moves: the table keeps its
# name, ingest_ingestproblem, and its rows.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("benchdb", "0003_run_role_unused"),
        ("ingest", "0002_sources_jobs"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="IngestProblem",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("path", models.CharField(max_length=500)),
                        ("line", models.IntegerField(blank=True, null=True)),
                        ("message", models.TextField()),
                        (
                            "severity",
                            models.CharField(
                                choices=[("error", "Error"), ("warning", "Warning")],
                                default="error",
                                max_length=16,
                            ),
                        ),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        (
                            "result",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="problems",
                                to="benchdb.result",
                            ),
                        ),
                        (
                            "round",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="problems",
                                to="benchdb.round",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "ingest_ingestproblem",
                        "ordering": ["path", "line"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("round", "path", "line", "message"),
                                name="problem_unique",
                                nulls_distinct=False,
                            )
                        ],
                    },
                )
            ],
        ),
    ]
