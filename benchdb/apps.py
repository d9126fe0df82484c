"""The ``benchdb`` app: after every ``migrate`` each of its tables gets the triggers
that bump the data version (``benchdb.models.data_version``), so a table added by a
later migration is watched too; and the Celery app is loaded (not by the package: pure
modules import ``benchdb`` and must not load Celery)."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db import connections
from django.db.models.signals import post_migrate


def _watch_tables(sender: AppConfig, using: str = "default", **kwargs: Any) -> None:
    from benchdb.models.data_version import install_triggers, watched_tables

    install_triggers(connections[using], watched_tables())


class BenchdbConfig(AppConfig):
    name = "benchdb"
    verbose_name = "benchdb"

    def ready(self) -> None:
        post_migrate.connect(_watch_tables, sender=self, dispatch_uid="benchdb-data-version")
        # The Celery app, so that tasks sent from this process (a sync requested on a
        # page) go to its broker; benchdb/__init__.py stays free of Celery.
        from benchdb import celery  # noqa: F401
