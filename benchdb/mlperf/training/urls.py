"""MLPerf Training's pages (mounted by ``benchdb.mlperf.urls``, namespace ``benchdb``).

Results, systems and runs are addressed by their natural keys (``Result.natural_key()``
and its kin: suite, round, submitter folder, system folder, benchmark folder, run file),
so a link survives a delete and re-ingest. A system folder holds a '/' in v0.5
(``<submission>/<system>``): ``<folders:system>`` takes it (and, unlike ``<path:>``, a
newline, which a folder name may hold), the segments after it are fixed.
The old id URLs answer with a permanent redirect to the permalink.
"""

from django.urls import path, register_converter

from benchdb.mlperf.training import views


class FolderPath:
    """One or more folder names joined by '/': any characters (``<path:>``'s ``.+``
    stops at a newline)."""

    regex = r"[\s\S]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(FolderPath, "folders")

_RESULT = "<str:suite>/<str:round_version>/<str:submitter>/<folders:system>/<str:benchmark>"

urlpatterns = [
    path("training/", views.home, name="training_rounds"),
    path("rounds/", views.round_table, name="round_table_all"),
    path("rounds/<str:round_version>/", views.round_table, name="round_table"),
    path("results/", views.results, name="results"),
    path("results/<int:pk>/", views.result_by_id, name="result_by_id"),
    path(f"results/{_RESULT}/", views.result_detail, name="result"),
    path("runs/<int:pk>/log.txt", views.run_log_by_id, name="run_log_by_id"),
    path(f"runs/{_RESULT}/<str:file_name>/log.txt", views.run_log, name="run_log"),
    path(f"runs/{_RESULT}/<str:file_name>/", views.run_log_page, name="run_log_page"),
    path("systems/<int:pk>/", views.system_by_id, name="system_by_id"),
    path(
        "systems/<str:suite>/<str:round_version>/<str:submitter>/<folders:system>/",
        views.system_detail,
        name="system",
    ),
    path("leaderboard/<str:round_version>/<str:benchmark>/", views.leaderboard, name="leaderboard"),
    path("compare/", views.compare, name="compare"),
    path("divisions/", views.divisions, name="divisions"),
    path("software/", views.software, name="software"),
    path("scaling/", views.scaling, name="scaling"),
    path("api/", views.api, name="api"),
]
