# The state half of moving IngestProblem to benchdb (benchdb 0004); no SQL runs.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("ingest", "0002_sources_jobs"),
        ("benchdb", "0004_ingestproblem"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[migrations.DeleteModel(name="IngestProblem")],
        ),
    ]
