"""MLPerf Mobile's pages (mounted by ``benchdb.mlperf.urls``, namespace ``benchdb``)."""

from django.urls import path

from benchdb.mlperf.mobile import views

urlpatterns = [
    path("mobile/", views.rounds, name="mobile_rounds"),
    path("mobile/result/<int:pk>/", views.result, name="mobile_result"),
    path("mobile/<str:round_version>/", views.round_results, name="mobile_round"),
    path("mobile/<str:round_version>/<str:task>/", views.board, name="mobile_board"),
]
