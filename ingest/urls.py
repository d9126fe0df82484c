from django.urls import path

from ingest import views

app_name = "ingest"

urlpatterns = [
    path("jobs/", views.jobs, name="jobs"),
    path("jobs/<int:pk>/", views.job, name="job"),
    path("sources/<int:pk>/sync/", views.source_sync, name="source_sync"),
]
