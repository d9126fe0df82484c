"""MLPerf Automotive's pages (mounted by ``benchdb.mlperf.urls``, namespace ``benchdb``)."""

from django.urls import path

from benchdb.mlperf.automotive import views

urlpatterns = [
    path("automotive/", views.rounds, name="automotive_rounds"),
    path("automotive/<str:round_version>/", views.round_results, name="automotive_round"),
]
