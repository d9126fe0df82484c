"""Ingest's pages, mounted at the site root (namespace ``ingest``): the jobs pages,
every write page, and the check-this-text form and API (no login, nothing stored).
The read pages of vendor claims are ``benchdb/claims/urls.py``."""

from django.urls import path

from ingest import views
from ingest.claims import views_check as check_views
from ingest.claims import views_pages as vendor_views
from ingest.claims import views_workbench as workbench_views

app_name = "ingest"

urlpatterns = [
    path("ingest/jobs/", views.jobs, name="jobs"),
    path("ingest/jobs/<int:pk>/", views.job, name="job"),
    path("ingest/jobs/<int:pk>/errors/", views.job_errors, name="job_errors"),
    path("ingest/sources/<int:pk>/sync/", views.source_sync, name="source_sync"),
    path("vendor/upload/", vendor_views.page_upload, name="vendor_upload"),
    path("vendor/check/", check_views.claims_check_form, name="claims_check"),
    path("api/claims/check", check_views.claims_check_api, name="claims_check_api"),
    path("vendor/claims/<int:pk>/correct/", vendor_views.claim_correct, name="claim_correct"),
    path(
        "vendor/claims/<int:pk>/workbench/",
        workbench_views.claim_workbench,
        name="claim_workbench",
    ),
    path("vendor/claims/<int:pk>/pin/", workbench_views.claim_pin, name="claim_pin"),
]
