"""MLPerf results pages, mounted at the site root (namespace ``benchdb``)."""

from django.urls import path

from benchdb.mlperf import views

app_name = "benchdb"

urlpatterns = [
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
