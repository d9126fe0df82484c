"""MLPerf Storage's pages (mounted by ``benchdb.mlperf.urls``, namespace ``benchdb``)."""

from django.urls import path

from benchdb.mlperf.storage import views

urlpatterns = [
    path("storage/", views.rounds, name="storage_rounds"),
    path("storage/result/<int:pk>/", views.result, name="storage_result"),
    path("storage/<str:round_version>/", views.round_results, name="storage_round"),
    path(
        "storage/<str:round_version>/<str:workload>/<str:accelerator>/",
        views.board,
        name="storage_board",
    ),
]
