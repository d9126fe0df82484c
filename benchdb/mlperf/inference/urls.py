"""MLPerf Inference's pages (mounted by ``benchdb.mlperf.urls``, namespace ``benchdb``):
rounds, compare, history, a round's table, a result and its files by location, a
leaderboard per model and scenario."""

from django.urls import path

from benchdb.mlperf.inference import views as views_inference

_INFERENCE = (
    "<str:round_version>/results/<str:division>/<str:submitter>/<str:system>/<str:model>/"
    "<str:scenario>"
)

urlpatterns = [
    path("inference/", views_inference.rounds, name="inference_rounds"),
    path("inference/compare/", views_inference.compare, name="inference_compare"),
    path("inference/history/", views_inference.history, name="inference_history"),
    path("inference/<str:round_version>/", views_inference.round_table, name="inference_round"),
    path(f"inference/{_INFERENCE}/", views_inference.result, name="inference_result"),
    path(f"inference/{_INFERENCE}/files/", views_inference.file_page, name="inference_file"),
    path(
        "inference/<str:round_version>/<str:model>/<str:scenario>/",
        views_inference.leaderboard,
        name="inference_leaderboard",
    ),
]
