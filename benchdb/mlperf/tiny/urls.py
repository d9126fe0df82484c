"""MLPerf Tiny's pages (mounted by ``benchdb.mlperf.urls``, namespace ``benchdb``)."""

from django.urls import path

from benchdb.mlperf.tiny import views

urlpatterns = [
    path("tiny/", views.rounds, name="tiny_rounds"),
    path("tiny/result/<int:pk>/", views.result, name="tiny_result"),
    path("tiny/<str:round_version>/", views.round_results, name="tiny_round"),
    path("tiny/<str:round_version>/<str:model>/<str:metric>/", views.board, name="tiny_board"),
]
