"""The site's URLs: each domain's pages under its namespace. The root URLconf is
the one place that composes the read pages (``benchdb``) and ingest's pages;
``ingest.urls`` is named by string, so ``benchdb`` imports nothing of ``ingest``."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include(("ingest.urls", "ingest"))),
    path("vendor/", include(("benchdb.claims.urls", "vendor"))),
    path("", include(("benchdb.history.urls", "history"))),
    path("", include(("benchdb.mlperf.urls", "benchdb"))),
]
