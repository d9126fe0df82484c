from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from benchdb.models import Benchmark, IngestProblem, Result, Round, Run, Submitter, System

admin.site.register([Round, Submitter, Benchmark])


@admin.register(System)
class SystemAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("folder", "name", "round", "submitter", "division", "accelerators")
    list_filter = ("round", "division", "availability")
    search_fields = ("folder", "name", "accelerator_model")


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("system", "benchmark", "round", "score_minutes", "status")
    list_filter = ("round", "benchmark", "status")
    raw_id_fields = ("system",)


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("path", "time_to_train_minutes", "role")
    raw_id_fields = ("result",)


@admin.register(IngestProblem)
class IngestProblemAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("path", "line", "severity", "message", "round")
    list_filter = ("severity", "round")
    search_fields = ("path", "message")
    raw_id_fields = ("result",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
