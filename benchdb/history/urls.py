"""The history pages (namespace ``history``)."""

from django.urls import path

from benchdb.history import views

urlpatterns = [
    path("changes/", views.changes, name="changes"),
    path("changes/feed/", views.ChangesFeed(), name="changes_feed"),
    path("ids/", views.result_ids, name="ids"),
]
