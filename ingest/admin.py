"""Admin for sources (with their schedule) and ingest jobs. Jobs are records: read
only. The Source form refuses a ref or location git must not be given with an error
on that field (``Source.clean``, the rules of ``ingest.fetch``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html

from ingest.jobs import run as sync
from ingest.jobs import schedules
from ingest.models import IngestJob, IngestJobError, Source


class SourceForm(forms.ModelForm):  # type: ignore[type-arg]
    schedule = forms.CharField(
        required=False,
        help_text='crontab "minute hour day month weekday" (e.g. "0 3 * * *", see crontab.guru) '
        'or "every 6h" (s, m, h, d); empty: only when asked',
    )

    class Meta:
        model = Source
        fields = ["name", "kind", "location", "ref", "round_version", "enabled"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["schedule"].initial = schedules.schedule_text(self.instance)

    def clean_schedule(self) -> str:
        value: str = self.cleaned_data["schedule"]
        schedules.parse_schedule(value)  # raises ValidationError
        return value


@admin.register(Source)
class SourceAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = SourceForm
    list_display = (
        "name",
        "kind",
        "location",
        "ref",
        "enabled",
        "failing",
        "consecutive_failures",
        "last_commit",
    )
    list_filter = ("kind", "enabled")
    readonly_fields = (
        "periodic_task",
        "last_commit",
        "synced_parser_version",
        "etag",
        "last_modified",
        "content_sha256",
        "consecutive_failures",
        "last_error",
        "created",
    )
    actions = ["sync_now"]

    @admin.display(boolean=True)
    def failing(self, obj: Source) -> bool:
        return obj.failing

    def save_model(self, request: HttpRequest, obj: Source, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        schedules.source_schedule_set(source=obj, schedule=form.cleaned_data["schedule"])

    def delete_model(self, request: HttpRequest, obj: Source) -> None:
        sync.source_remove(source=obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Source]) -> None:
        for source in queryset:
            sync.source_remove(source=source)

    @admin.action(description="Sync now")
    def sync_now(self, request: HttpRequest, queryset: QuerySet[Source]) -> None:
        for source in queryset:
            job = sync.source_sync_request(source_id=source.pk, trigger=IngestJob.Trigger.MANUAL)
            if job is None:
                continue
            link = format_html(
                '{}: <a href="{}">job #{}</a> {}',
                source.name,
                job.get_absolute_url(),
                job.pk,
                job.get_state_display(),
            )
            self.message_user(request, link, messages.INFO)


class IngestJobErrorInline(admin.TabularInline):  # type: ignore[type-arg]
    model = IngestJobError
    fields = ("path", "line", "severity", "message")
    readonly_fields = fields
    extra = 0
    can_delete = False
    max_num = 0


@admin.register(IngestJob)
class IngestJobAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "pk",
        "source",
        "trigger",
        "state",
        "started",
        "finished",
        "files_seen",
        "results_seen",
        "results_added",
        "results_changed",
        "results_unchanged",
        "errors",
    )
    list_filter = ("state", "trigger", "source")
    list_select_related = ("source",)
    inlines = [IngestJobErrorInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
