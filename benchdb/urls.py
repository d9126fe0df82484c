from django.contrib import admin
from django.urls import include, path

from benchdb import views

app_name = "benchdb"

benchdb_patterns = [
    path("", views.home, name="home"),
    path("results/", views.results, name="results"),
    path("results/<int:pk>/", views.result_detail, name="result"),
    path("runs/<int:pk>/log.txt", views.run_log, name="run_log"),
    path("systems/<int:pk>/", views.system_detail, name="system"),
    path("leaderboard/<str:round_version>/<str:benchmark>/", views.leaderboard, name="leaderboard"),
    path("compare/", views.compare, name="compare"),
    path("divisions/", views.divisions, name="divisions"),
    path("software/", views.software, name="software"),
    path("scaling/", views.scaling, name="scaling"),
    path("api/", views.api, name="api"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("ingest/", include(("ingest.urls", "ingest"))),
    path("vendor/", include(("benchdb.vendor_urls", "vendor"))),
    path("", include((benchdb_patterns, "benchdb"))),
]
